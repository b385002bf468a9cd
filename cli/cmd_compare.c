/*
 * cmd_compare.c - `contend compare BASE CAND`: resolves the two selections
 * (a label or experiment in a database, a `contend export` CSV file, or
 * ministat-style number files, comma-joined for several invocations),
 * hands them to compare_sides(), prints the result summary-first as text
 * (with the host keys that differ between the sides) or as JSON
 * (docs/compare-json.md), and gates CI with --fail-on-regression (Holm).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/compare.h"
#include "analysis/exportside.h"
#include "lib/json.h"
#include "analysis/ministat.h"
#include "analysis/numfile.h"
#include "db/select.h"
#include "lib/numfmt.h"
#include "lib/wrap.h"
#include "cli/commands.h"
#include "plots/plot.h"
#include "lib/util.h"

struct cmp_args {
	const char *db;                 /* --db: the default database */
	const char *metric;             /* NULL: throughput, or "value" */
	bool json;
	double threshold;
	double fail_pct;                /* < 0: not gating */
	enum direction dir;             /* DIR_UNKNOWN: from the metric */
	double confidence;              /* 0: the baseline's, else 0.95 */
	struct numfile_opts nf;
	const char *base, *cand;        /* cand: the one being compared */
	char **cands;                   /* every CAND, ncands >= 1 */
	size_t ncands;
	struct opt_words candw;         /* CAND... as parsed */
	bool ascii;                     /* --ascii: ministat's plot */
	const char *plot_dir;           /* --plot DIR */
	char *in;                       /* standard input, for a side "-" */
	size_t inlen;
};

enum sel_kind { SEL_DB, SEL_NUMBERS, SEL_EXPORT };

/* One side as the user named it, and what it loaded. */
struct selection {
	const char *text;
	const char *role;               /* "baseline" or "candidate" */
	enum sel_kind kind;
	char *db;                       /* SEL_DB only */
	char *sel;                      /* selector in db; NULL = newest */
	struct selector pick;           /* the grammar's ~newest, @filters */
	struct store *st;
	int64_t *ids;
	size_t nsets;
	struct dataset *sets;
	struct analysis *an;
	double *values;                 /* number files, back to back */
	size_t nvalues;
	size_t nfiles, *sizes;          /* values per file (invocation) */
	struct compare_numbers num;
	struct compare_side side;
};

/* ---- options ---- */

static int set_nonempty(const char *opt, const char *arg, void *field,
			int value)
{
	if (!*arg)
		return error("%s: the delimiter set is empty", opt);
	return opt_string(opt, arg, field, value);
}

static int set_pct(const char *opt, const char *arg, void *field, int value)
{
	double *out = field;

	char *num = xstrdup(arg);
	size_t len = strlen(num);
	int ret = 0;

	(void)value;
	if (len && num[len - 1] == '%')
		num[len - 1] = '\0';
	if (parse_double(num, out) < 0 || !(*out >= 0) || !(*out < 100))
		ret = error("%s: '%s' is not a percentage in [0, 100), e.g. 5 "
			    "or 5%%", opt, arg);
	free(num);
	return ret;
}

static int set_column(const char *opt, const char *arg, void *field,
		      int value)
{
	long long col;

	(void)value;
	if (parse_ll(arg, &col) < 0 || col < 1 || col > 1000000)
		return error("%s: '%s' is not a column number >= 1", opt, arg);
	*(long *)field = (long)col;
	return 0;
}

static int set_format(const char *opt, const char *arg, void *field,
		      int value)
{
	static const char *const names[] = { "text", "json" };
	size_t i;

	(void)value;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(arg, names[i])) {
			*(bool *)field = i == 1;
			return 0;
		}
	}
	return error("%s: '%s' is not text or json", opt, arg);
}

#define FIELD(f) offsetof(struct cmp_args, f)

static const struct opt cmp_rows[] = {
	{ NULL, 0, "BASE", "the baseline: " SELECTOR_TEXT ", a database, a "
	  "file of numbers (comma-joined: one per invocation), a 'contend "
	  "export' CSV file, or - (standard input)", NULL, FIELD(base), 0,
	  0 },
	{ NULL, 0, "CAND", "the candidates, each compared with BASE; named "
	  "as BASE", NULL, FIELD(candw), 0, OPT_MANY },
	DB_ROW(FIELD(db)),
	{ "metric", 0, "M", "the metric compared (default throughput; "
	  "\"value\" for numbers)", NULL, FIELD(metric), 0, 0 },
	{ "format", 0, "text|json", "the output (default text)", set_format,
	  FIELD(json), 0, 0 },
	{ "threshold", 0, "PCT", "changes smaller than PCT are no change "
	  "(default 1)", set_pct, FIELD(threshold), 0, 0 },
	{ "fail-on-regression", 0, "PCT", "exit 3 when a configuration is "
	  "worse by more than PCT (Holm-corrected)", set_pct, FIELD(fail_pct),
	  0, 0 },
	{ "lower-is-better", 0, NULL, "smaller values are better (default: "
	  "the metric's direction)", opt_int, FIELD(dir), DIR_LOWER, 0 },
	{ "higher-is-better", 0, NULL, "larger values are better", opt_int,
	  FIELD(dir), DIR_HIGHER, 0 },
	{ "confidence", 0, "C", "of the intervals, in (0, 1) (default: the "
	  "baseline's, else 0.95)", opt_confidence, FIELD(confidence), 0, 0 },
	{ "plot", 0, "DIR", "also draw DIR/compare.png (and .svg)", NULL,
	  FIELD(plot_dir), 0, 0 },
	{ "ascii", 0, NULL, "with files of numbers, ministat's plot too",
	  NULL, FIELD(ascii), 0, 0 },
	{ "column", 'C', "N", "files of numbers: the column to read (default "
	  "1)", set_column, FIELD(nf.column), 0, 0 },
	{ "delimiters", 'd', "DELIMS", "files of numbers: the characters "
	  "between columns (default blanks)", set_nonempty, FIELD(nf.delims),
	  0, 0 },
};

const struct opt_cmd compare_cli = {
	"compare", "A/B comparison of selections or files", cmp_rows,
	ARRAY_SIZE(cmp_rows),
	"Exit status 3 when --fail-on-regression finds a regression.",
};

static int parse_args(int argc, char **argv, struct cmp_args *a)
{
	int p;

	memset(a, 0, sizeof(*a));
	a->threshold = 1;
	a->fail_pct = -1;
	numfile_opts_default(&a->nf);
	p = opt_parse(&compare_cli, argc, argv, a);
	if (p)
		return p;
	a->cands = a->candw.v;
	a->ncands = a->candw.n;
	if (!a->db)
		a->db = store_default_path();
	return 0;
}

/* ---- selections ---- */

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/*
 * SQLite files begin with this 16-byte header string.  Only a regular
 * file is looked into: reading a FIFO would wait for a writer, or take
 * the first bytes of the numbers sent through it.
 */
static bool is_sqlite(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	struct stat st;
	FILE *f;
	bool yes;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !(f = fopen(path, "rb")))
		return false;
	yes = fread(head, 1, sizeof(head), f) == sizeof(head) &&
	      !memcmp(head, magic, sizeof(magic));
	fclose(f);
	return yes;
}

/*
 * A plain existing file is numbers (or a whole database); otherwise the
 * shortest prefix before a ':' that names a file is the database; else
 * the text is a selector in the default database.
 */
static int resolve(struct selection *s, const char *default_db)
{
	const char *p, *h;
	char err[512];

	if (is_file(s->text)) {
		if (is_sqlite(s->text))
			s->db = xstrdup(s->text);
		return 0;
	}
	if (!strcmp(s->text, "-")) /* numbers on standard input */
		return 0;
	/* [DB:]WHAT[~newest][@KEY=VALUE,...] (db/select.h) */
	if (select_parse(s->text, &s->pick, err, sizeof(err)))
		return error("%s: %s", s->role, err);
	h = s->pick.head;
	if (*h && is_file(h)) {
		if (!is_sqlite(h))
			return error("%s: '%s' is not a contend database",
				     s->text, h);
		s->db = xstrdup(h);
		return 0;
	}
	for (p = strchr(h, ':'); p; p = strchr(p + 1, ':')) {
		char *prefix = xstrndup(h, (size_t)(p - h));

		if (is_file(prefix)) {
			if (!is_sqlite(prefix)) {
				error("%s: '%s' is not a contend database",
				      s->text, prefix);
				free(prefix);
				return -1;
			}
			s->db = prefix;
			s->sel = p[1] ? xstrdup(p + 1) : NULL;
			return 0;
		}
		free(prefix);
	}
	if (!is_file(default_db))
		return error("'%s' is neither a file nor found in a database: "
			     "no database at %s (use --db PATH or DB:LABEL)",
			     s->text, default_db);
	s->db = xstrdup(default_db);
	s->sel = *h ? xstrdup(h) : NULL;
	return 0;
}

/* Analyses the loaded datasets and makes them the side. */
static int analyse_sets(struct selection *s)
{
	struct analysis_opts ao;
	size_t i;

	s->an = xcalloc(s->nsets ? s->nsets : 1, sizeof(*s->an));
	analysis_opts_default(&ao);
	for (i = 0; i < s->nsets; i++)
		if (analysis_run(&s->sets[i], &ao, &s->an[i]) < 0) {
			while (i-- > 0)
				analysis_release(&s->an[i]);
			free(s->an);
			s->an = NULL;
			return EXIT_RUNTIME;
		}
	s->side.name = s->text;
	s->side.nsets = s->nsets;
	s->side.sets = s->sets;
	s->side.an = s->an;
	return 0;
}

/* Loads every experiment the selector names. */
static int load_db(struct selection *s)
{
	int k;
	size_t i, kept = 0;

	k = store_open(s->db, STORE_RDONLY, &s->st);
	if (k)
		return store_exit_status(k);
	k = store_experiment_find(s->st, s->sel, &s->ids);
	if (k < 0)
		return EXIT_RUNTIME;
	if (k == 0) {
		error("%s: no experiment, label or id '%s' in %s", s->role,
		      s->sel ? s->sel : "(newest)", s->db);
		return EXIT_USAGE;
	}
	if (s->pick.newest && k > 1) { /* LABEL~newest */
		s->ids[0] = s->ids[k - 1];
		k = 1;
	}
	s->sets = xcalloc((size_t)k, sizeof(*s->sets));
	for (i = 0; i < (size_t)k; i++) {
		if (store_load(s->st, s->ids[i], &s->sets[i]) < 0)
			return EXIT_RUNTIME;
		s->nsets++;
		kept += select_filter_dataset(&s->pick, &s->sets[i]);
	}
	if (!kept) {
		error("%s: no configuration of '%s' has %s=%s%s", s->role,
		      s->text, s->pick.filters[0].key, s->pick.filters[0].value,
		      s->pick.nfilters > 1 ? " and the other filters" : "");
		return EXIT_USAGE;
	}
	return 0;
}

/* Is the file a contend CSV export?  Looks at its first line only. */
static bool is_export(const char *path)
{
	char head[4096];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return false;
	n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return n && exportside_is_export(head, n);
}

/* Every comma-separated part names a file: number files, one each. */
static bool is_file_list(const char *text)
{
	const char *p = text;
	bool ok = strchr(text, ',') != NULL;

	while (ok && *p) {
		size_t len = strcspn(p, ",");
		char *part = xstrndup(p, len);

		ok = len && is_file(part);
		free(part);
		p += len;
		p += *p == ',';
	}
	return ok;
}

/* The number files of a side: "a.txt" or "a1.txt,a2.txt,...". */
static int load_numbers(struct selection *s, const struct numfile_opts *nf)
{
	const char *p = s->text;

	while (*p) {
		size_t len = strcspn(p, ","), n;
		char *part = xstrndup(p, len);
		double *v;
		int ret = numfile_read(part, nf, &v, &n);

		free(part);
		if (ret < 0)
			return EXIT_USAGE;
		s->values = xrealloc(s->values,
				     (s->nvalues + n) * sizeof(*s->values));
		memcpy(s->values + s->nvalues, v, n * sizeof(*v));
		free(v);
		s->nvalues += n;
		s->sizes = xrealloc(s->sizes,
				    (s->nfiles + 1) * sizeof(*s->sizes));
		s->sizes[s->nfiles++] = n;
		p += len;
		p += *p == ',';
	}
	return 0;
}

static int load(struct selection *s, const struct cmp_args *a)
{
	int ret;

	if (is_file_list(s->text)) {
		s->kind = SEL_NUMBERS;
		return load_numbers(s, &a->nf);
	}
	if (is_file(s->text) && !is_sqlite(s->text) && is_export(s->text)) {
		s->kind = SEL_EXPORT;
		if (exportside_read(s->text, &s->sets, &s->nsets) < 0)
			return EXIT_USAGE;
		return analyse_sets(s);
	}
	if (resolve(s, a->db) < 0)
		return EXIT_USAGE;
	if (s->db) {
		ret = load_db(s);
		return ret ? ret : analyse_sets(s);
	}
	s->kind = SEL_NUMBERS;
	if (!strcmp(s->text, "-")) {
		if (numfile_parse("(standard input)", a->in, a->inlen, &a->nf,
				  &s->values, &s->nvalues) < 0)
			return EXIT_USAGE;
		s->sizes = xcalloc(1, sizeof(*s->sizes));
		s->sizes[s->nfiles++] = s->nvalues;
		return 0;
	}
	return load_numbers(s, &a->nf);
}

/* Is key a filter of both sides: the parameter the two sides change? */
static bool changed_key(const char *key, size_t len, const struct selector *b,
			const struct selector *c)
{
	size_t i, j;

	for (i = 0; i < b->nfilters; i++)
		for (j = 0; j < c->nfilters; j++)
			if (strlen(b->filters[i].key) == len &&
			    !strncmp(b->filters[i].key, key, len) &&
			    !strcmp(b->filters[i].key, c->filters[j].key))
				return true;
	return false;
}

/*
 * A canonical string without the parameters both sides filter on, so
 * that lockdep@delay=0 and lockdep@delay=10000 match on the rest.  Its
 * words are key=value, a value with a blank "quoted" with \ escapes.
 */
static char *canon_without(const char *canon, const struct selector *b,
			   const struct selector *c)
{
	char *out = xcalloc(1, strlen(canon) + 1), *o = out;
	const char *p = canon;

	while (*p) {
		const char *start = p, *eq = strchr(p, '=');
		bool quoted;

		if (!eq)
			eq = p + strlen(p);
		p = eq;
		quoted = *p && p[1] == '"';
		for (p += *p ? 1 + quoted : 0; *p && (quoted ? *p != '"' : *p != ' ');
		     p++)
			if (quoted && *p == '\\' && p[1])
				p++;
		p += quoted && *p;
		if (!changed_key(start, (size_t)(eq - start), b, c)) {
			if (o > out)
				*o++ = ' ';
			memcpy(o, start, (size_t)(p - start));
			o += p - start;
		}
		while (*p == ' ')
			p++;
	}
	*o = '\0';
	return out;
}

/* Both sides' configurations matched without the changed parameters. */
static void match_on_the_rest(struct selection *b, struct selection *c)
{
	struct selection *side[] = { b, c };
	size_t i, j, k;

	if (!b->pick.nfilters || !c->pick.nfilters)
		return;
	for (i = 0; i < 2; i++)
		for (j = 0; j < side[i]->nsets; j++)
			for (k = 0; k < side[i]->sets[j].nconfigs; k++) {
				struct ds_config *dc = &side[i]->sets[j].configs[k];
				char *canon = canon_without(dc->canon, &b->pick,
							    &c->pick);

				free(dc->canon);
				dc->canon = canon;
			}
}

static void selection_release(struct selection *s)
{
	size_t i;

	for (i = 0; i < s->nsets; i++) {
		if (s->an)
			analysis_release(&s->an[i]);
		dataset_release(&s->sets[i]);
	}
	free(s->an);
	free(s->sets);
	free(s->ids);
	if (s->st)
		store_close(s->st);
	compare_numbers_release(&s->num);
	free(s->values);
	free(s->sizes);
	free(s->db);
	free(s->sel);
	select_release(&s->pick);
}

/*
 * A number file becomes a side that matches the other side's only
 * configuration (or, against another file, a configuration named "").
 */
static int number_side(struct selection *s, const struct selection *other,
		       const char *metric)
{
	const struct ds_config *like = NULL;

	if (other->kind != SEL_NUMBERS &&
	    compare_side_configs(&other->side, &like) != 1)
		return error("%s is a number file, so %s must select exactly "
			     "one configuration", s->text, other->text);
	compare_numbers_init(&s->num, s->text, metric, s->values, s->sizes,
			     s->nfiles, like, &s->side);
	return 0;
}

/* A side of number files with a single value in all cannot be judged. */
static int one_value(const struct selection *s)
{
	if (s->kind == SEL_NUMBERS && s->nvalues < 2)
		return error("%s: the %s has a single value: a comparison "
			     "needs at least 2 a side (better 10)", s->text,
			     s->role);
	return 0;
}

/* ---- host metadata that differs between the sides ---- */

struct meta_diff {
	size_t n, nwarn;
	char **lines;           /* "key  baseline V | candidate W" */
	char **warnings;
};

static void push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

/* The distinct values of key over a side's experiments, ", "-joined. */
static char *side_values(const struct selection *s, const char *key)
{
	char *out = NULL;
	size_t i;

	for (i = 0; s->kind != SEL_NUMBERS && i < s->nsets; i++) {
		const char *v = experiment_meta(&s->sets[i].exp, key);
		char *t;

		if (!v || (out && strstr(out, v)))
			continue;
		t = xasprintf("%s%s%s", out ? out : "", out ? ", " : "", v);
		free(out);
		out = t;
	}
	return out;
}

static bool key_seen(char **keys, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

static void meta_keys(const struct selection *s, char ***keys, size_t *n)
{
	size_t i, k;

	for (i = 0; s->kind != SEL_NUMBERS && i < s->nsets; i++)
		for (k = 0; k < s->sets[i].exp.nmeta; k++) {
			const char *key = s->sets[i].exp.meta[k].key;

			/* loadavg: load_start under its old name */
			if (!strcmp(key, "loadavg") &&
			    experiment_meta(&s->sets[i].exp, "load_start"))
				continue;
			if (!key_seen(*keys, *n, key))
				push(keys, n, xstrdup(key));
		}
}

/* Largest value of a numeric key over both sides divided by its smallest. */
static double spread_ratio(const struct selection *b,
			   const struct selection *c, const char *key)
{
	const struct selection *side[2] = { b, c };
	double lo = INFINITY, hi = -INFINITY, v;
	size_t i, j;

	for (j = 0; j < 2; j++)
		for (i = 0; side[j]->kind != SEL_NUMBERS && i < side[j]->nsets;
		     i++) {
			const char *t = experiment_meta(&side[j]->sets[i].exp,
							key);

			if (t && parse_double(t, &v) == 0 && v > 0) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	return lo > 0 && isfinite(lo) ? hi / lo : NAN;
}

/* The first load above 0.5 per CPU on an experiment of the side (at
 * its start, its end, or loadavg in older databases): one warning. */
static void load_warning(struct meta_diff *md, const struct selection *s)
{
	static const char *const load_keys[] = { "load_start", "load_end",
						 "loadavg" };
	size_t i, k;

	for (i = 0; s->kind != SEL_NUMBERS && i < s->nsets; i++) {
		const struct experiment_row *e = &s->sets[i].exp;
		const char *nc = experiment_meta(e, "ncpus");
		double v, ncpu;

		if (!nc || parse_double(nc, &ncpu) < 0 || !(ncpu > 0))
			continue;
		for (k = 0; k < ARRAY_SIZE(load_keys); k++) {
			const char *t = experiment_meta(e, load_keys[k]);

			if (!t || parse_double(t, &v) < 0 || !(v / ncpu > 0.5))
				continue;
			push(&md->warnings, &md->nwarn,
			     xasprintf("warning: %s %s on %g CPUs (experiment "
				       "%lld of the %s): other work disturbed "
				       "the runs", load_keys[k], t, ncpu,
				       (long long)e->id, s->role));
			return;
		}
	}
}

static bool is_any(const char *key, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(key, *set))
			return true;
	return false;
}

static void meta_diff_build(struct meta_diff *md, const struct selection *b,
			    const struct selection *c)
{
	static const char *const cpu_keys[] = { "affinity", "cpuset",
						"cpus_online", NULL };
	static const char *const kernel_keys[] = { "kernel_release",
						   "kernel_version", NULL };
	char **keys = NULL;
	size_t nkeys = 0, i;
	double ratio;

	memset(md, 0, sizeof(*md));
	meta_keys(b, &keys, &nkeys);
	meta_keys(c, &keys, &nkeys);
	for (i = 0; i < nkeys; i++) {
		char *vb = side_values(b, keys[i]), *vc = side_values(c, keys[i]);

		if (vb && vc && strcmp(vb, vc)) {
			push(&md->lines, &md->n,
			     xasprintf("%-24s baseline %.30s | candidate %.30s",
				       keys[i], vb, vc));
			if (is_any(keys[i], cpu_keys))
				push(&md->warnings, &md->nwarn,
				     xasprintf("warning: %s differs: the sides "
					       "ran on different CPUs",
					       keys[i]));
			if (is_any(keys[i], kernel_keys))
				push(&md->warnings, &md->nwarn,
				     xasprintf("note: %s differs (expected "
					       "when kernels are compared; "
					       "nothing else should)", keys[i]));
		}
		free(vb);
		free(vc);
		free(keys[i]);
	}
	free(keys);
	load_warning(md, b);
	load_warning(md, c);
	ratio = spread_ratio(b, c, "calibration_loops_per_us");
	if (ratio > 1.05)
		push(&md->warnings, &md->nwarn,
		     xasprintf("warning: calibration_loops_per_us differs by "
			       "%.1f%% between experiments: the busy loop did "
			       "different work (pin it with calibration = N)",
			       100 * (ratio - 1)));
}

static void meta_diff_print(FILE *f, const struct meta_diff *md)
{
	size_t i;

	if (md->n)
		fprintf(f, "\nHost keys that differ between the sides:\n");
	for (i = 0; i < md->n; i++)
		fprintf(f, "  %s\n", md->lines[i]);
	if (md->nwarn && !md->n)
		fputc('\n', f);
	for (i = 0; i < md->nwarn; i++)
		fprintf(f, "%s\n", md->warnings[i]);
}

static void meta_diff_release(struct meta_diff *md)
{
	size_t i;

	for (i = 0; i < md->n; i++)
		free(md->lines[i]);
	for (i = 0; i < md->nwarn; i++)
		free(md->warnings[i]);
	free(md->lines);
	free(md->warnings);
}

/* ---- direction and confidence ---- */

/* The primary metric every configuration of s declares, or NULL. */
static const char *side_primary(const struct selection *s)
{
	const char *p = NULL, *q;
	size_t i, j;

	for (i = 0; i < s->nsets; i++)
		for (j = 0; j < s->sets[i].nconfigs; j++) {
			q = analysis_declared_primary(&s->sets[i], j);
			if (!q || (p && strcmp(p, q)))
				return NULL;
			p = q;
		}
	return p;
}

/*
 * The metric: for databases the primary their configurations declare
 * (when all agree) else throughput, "value" for two number files.
 */
static int settle_metric(struct cmp_args *a, const struct selection *b,
			 const struct selection *c)
{
	const char *pb = b->db ? side_primary(b) : NULL;
	const char *pc = c->db ? side_primary(c) : NULL;

	if (!a->metric && pb && (!c->db || (pc && !strcmp(pb, pc))))
		a->metric = pb;
	else if (!a->metric && !b->db && pc)
		a->metric = pc;
	if (!a->metric)
		a->metric = b->kind == SEL_NUMBERS && c->kind == SEL_NUMBERS
				    ? "value" : "throughput";
	if (b->kind != SEL_NUMBERS &&
	    compare_side_has_metric(&b->side, a->metric, b->role) < 0)
		return -1;
	if (c->kind != SEL_NUMBERS &&
	    compare_side_has_metric(&c->side, a->metric, c->role) < 0)
		return -1;
	return 0;
}

static int settle(const struct cmp_args *a, const struct selection *b,
		  const struct selection *c, struct compare_opts *o)
{
	bool files = b->kind == SEL_NUMBERS && c->kind == SEL_NUMBERS;

	const struct selection *db = b->nsets ? b : c;

	compare_opts_default(o);
	/* the direction the baseline's section declares, else the metric's */
	o->dir = a->dir != DIR_UNKNOWN ? a->dir
		 : db->nsets && db->sets[0].nconfigs
			 ? analysis_direction(&db->sets[0], 0, a->metric)
			 : metric_direction(a->metric);
	/* Two number files ("value", or a name of the user's) default up. */
	if (o->dir == DIR_UNKNOWN && files)
		o->dir = DIR_HIGHER;
	if (o->dir == DIR_UNKNOWN)
		return error("metric '%s' has no declared direction: pass "
			     "--higher-is-better or --lower-is-better",
			     a->metric);
	o->threshold_pct = a->threshold;
	o->confidence = a->confidence;
	if (!(o->confidence > 0)) {
		double ec = db->nsets ? db->sets[0].exp.confidence : 0;

		o->confidence = ec > 0 && ec < 1 ? ec : 0.95;
	}
	return 0;
}

/* ---- numbers (lib/numfmt.h) ---- */

/* Two levels printed so that different values look different. */
static void fmt_pair(double a, double b, char *ta, char *tb, size_t len)
{
	double res = fabs(a - b);

	numfmt_res(ta, len, a, res);
	numfmt_res(tb, len, b, res);
}

/* ---- text ---- */

#define WIDTH 100

/* printf into wrap_print at WIDTH. */
static void print_para(FILE *f, int indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void print_para(FILE *f, int indent, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		wrap_print(f, s, 0, indent, WIDTH);
	free(s);
}

static const char *dir_name(enum direction d)
{
	return d == DIR_LOWER ? "lower is better" : "higher is better";
}

static void print_side_line(FILE *f, const struct selection *s)
{
	size_t i;

	fprintf(f, "%-10s %s", s->role, s->text);
	if (s->kind == SEL_NUMBERS) {
		fprintf(f, " (number file%s, %zu values)\n",
			s->nfiles > 1 ? "s, one invocation each" : "",
			s->nvalues);
		return;
	}
	fprintf(f, " (%s, experiment%s", s->kind == SEL_EXPORT ? "export"
							     : s->db,
		s->nsets > 1 ? "s" : "");
	for (i = 0; i < s->nsets; i++)
		fprintf(f, "%s%" PRId64, i ? ", " : " ", s->sets[i].exp.id);
	fprintf(f, ")\n");
}

/* Is parameter key the same in every compared configuration of section? */
static bool param_constant(const struct compare_result *r, const char *section,
			   const char *key, const char *value)
{
	size_t i, j;

	for (i = 0; i < r->n; i++) {
		const struct ds_config *c = r->cmp[i].config;

		if (!c || strcmp(r->cmp[i].section, section))
			continue;
		for (j = 0; j < c->nparams; j++)
			if (!strcmp(c->params[j].key, key) &&
			    strcmp(c->params[j].value, value))
				return false;
	}
	return true;
}

/* "section k=v ..." with the parameters that vary within the section. */
static char *config_label(const struct compare_result *r,
			  const struct comparison *cmp, bool numbers)
{
	const struct ds_config *c = cmp->config;
	char *l = xstrdup(*cmp->section ? cmp->section
			  : *cmp->workload ? cmp->workload : "values");
	size_t j;

	for (j = 0; !numbers && c && j < c->nparams; j++) {
		char *t;

		if (param_constant(r, cmp->section, c->params[j].key,
				   c->params[j].value))
			continue;
		t = xasprintf("%s %s=%s", l, c->params[j].key,
			      c->params[j].value);
		free(l);
		l = t;
	}
	return l;
}

static char *change_text(const struct compare_stats *st)
{
	char buf[NUMFMT_CI_LEN];

	if (isnan(st->change_ci_low_pct))
		return xasprintf("%s [no interval]",
				 numfmt_pct(buf, sizeof(buf), st->change_pct));
	return xstrdup(numfmt_pct_ci(buf, sizeof(buf), st->change_pct,
				     st->change_ci_low_pct,
				     st->change_ci_high_pct));
}

/* One-letter codes of the table's flags column, and its legend. */
static const struct {
	const char *name;
	char code;
} flag_codes[] = {
	{ "misleading-throughput", 'M' }, { "noisy", 'N' }, { "drift", 'D' },
	{ "unfair", 'U' }, { "single-invocation", 'S' },
	{ "host-mismatch", 'H' }, { "too-few-runs", 'F' },
};

/* "M Nbc S": a code per flag, with the sides (b, c) of one-sided ones. */
static void flag_names(const struct comparison *cmp, char *buf, size_t len)
{
	size_t i, k, at = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(flag_codes) && at + 5 < len; i++) {
		bool b = false, c = false, both = false;

		for (k = 0; k < cmp->nflags; k++) {
			const char *side = cmp->flags[k].side;

			if (strcmp(cmp->flags[k].name, flag_codes[i].name))
				continue;
			both |= !strcmp(side, "both");
			b |= !strcmp(side, "baseline");
			c |= !strcmp(side, "candidate");
		}
		if (!b && !c && !both)
			continue;
		at += (size_t)snprintf(buf + at, len - at, "%s%c%s%s",
				       at ? " " : "", flag_codes[i].code,
				       b && !both ? "b" : "",
				       c && !both ? "c" : "");
	}
}

static void print_legend(FILE *f)
{
	char *s = xstrdup("flags:"), *t;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flag_codes); i++) {
		t = xasprintf("%s %c %s%s", s, flag_codes[i].code,
			      flag_codes[i].name,
			      i + 1 < ARRAY_SIZE(flag_codes) ? "," : "");
		free(s);
		s = t;
	}
	print_para(f, 7, "%s (b/c: on the baseline/candidate only)", s);
	free(s);
}

/* The configuration column is as wide as its widest label, up to this;
 * a longer label is cut with "...". */
#define LABEL_MAX 40

static void print_table(FILE *f, const struct compare_result *r,
			bool numbers)
{
	char **label = xcalloc(r->n ? r->n : 1, sizeof(*label));
	char **change = xcalloc(r->n ? r->n : 1, sizeof(*change));
	int lw = (int)strlen("configuration"), cw = (int)strlen("change [CI]");
	size_t i;

	for (i = 0; i < r->n; i++) {
		label[i] = config_label(r, &r->cmp[i], numbers);
		change[i] = change_text(&r->cmp[i].st);
		if ((int)strlen(label[i]) > lw)
			lw = (int)strlen(label[i]);
		if ((int)strlen(change[i]) > cw)
			cw = (int)strlen(change[i]);
	}
	if (lw > LABEL_MAX)
		lw = LABEL_MAX;
	fprintf(f, "\n%-*s %9s %9s  %-*s %-12s %s\n", lw, "configuration",
		"base", "cand", cw, "change [CI]", "verdict", "flags");
	for (i = 0; i < r->n; i++) {
		const struct comparison *cmp = &r->cmp[i];
		char tb[NUMFMT_LEN], tc[NUMFMT_LEN], flags[48];

		fmt_pair(cmp->st.base.mean, cmp->st.cand.mean, tb, tc,
			 sizeof(tb));
		flag_names(cmp, flags, sizeof(flags));
		if ((int)strlen(label[i]) > lw)
			fprintf(f, "%.*s...", lw - 3, label[i]);
		else
			fprintf(f, "%-*s", lw, label[i]);
		fprintf(f, " %9s %9s  %-*s %-12s %s\n", tb, tc, cw, change[i],
			verdict_names[cmp->st.verdict], flags);
		free(label[i]);
		free(change[i]);
	}
	free(label);
	free(change);
	for (i = 0; i < r->n; i++)
		if (r->cmp[i].nflags) {
			print_legend(f);
			break;
		}
}

static void print_gate(FILE *f, const struct compare_result *r, bool numbers)
{
	size_t i;

	if (r->gate_pct < 0)
		return;
	print_para(f, 9, "Gate:    --fail-on-regression %g%%: %s (one-sided "
		   "tests of a loss beyond %g%%, Holm-corrected over %zu "
		   "configurations: family-wise false-alarm rate <= %g%%)",
		r->gate_pct, r->gate_failures ? "FAILED" : "passed",
		r->gate_pct, r->n, 100 * (1 - r->opts.confidence));
	for (i = 0; i < r->n; i++) {
		const struct comparison *cmp = &r->cmp[i];
		char *label, *change;

		if (!cmp->gate_fail)
			continue;
		label = config_label(r, cmp, numbers);
		change = change_text(&cmp->st);
		print_para(f, 9, "  fails: %s %s (Holm p = %.2g)", label,
			   change, cmp->gate_p_holm);
		free(label);
		free(change);
	}
}

/* The variance a side's interval rests on, in words. */
static const char *unit_text(const struct nested *s)
{
	if (s->n < 2)
		return "one value: no interval";
	if (s->borrowed)
		return "runs + the other side's between-invocation variance";
	if (s->k < 2)
		return "runs of one invocation (between-invocation variance "
		       "unknown)";
	if (s->pooled)
		return "runs pooled (no between-invocation variance "
		       "detected)";
	return "invocations (two-level model)";
}

/* A variance component as an sd: % on the log scale, else the unit. */
static char *sd_text(char *buf, size_t len, double var, bool log_scale)
{
	if (!isfinite(var))
		snprintf(buf, len, "n/a");
	else if (log_scale)
		snprintf(buf, len, "%.2g%%", 100 * sqrt(var));
	else
		numfmt_sig(buf, len, sqrt(var), 3);
	return buf;
}
#define SD(v, l) sd_text((char[24]){ 0 }, 24, (v), (l))

static void print_detail_side(FILE *f, const char *role,
			      const struct compare_summary *cs,
			      const struct nested *s, bool log_scale,
			      bool between_known)
{
	char ci[NUMFMT_CI_LEN];

	fprintf(f, "  %-9s %s", role, numfmt_ci(ci, sizeof(ci), cs->mean,
						 cs->ci_low, cs->ci_high));
	if (isnan(cs->ci_low))
		fprintf(f, " (no interval)");
	fprintf(f, "  %zu inv x %.3g runs  s_between %s  s_within %s\n",
		s->k, s->k ? (double)s->n / (double)s->k : 0.0,
		between_known ? SD(s->var_between, log_scale)
			      : "unknown",
		SD(s->var_within, log_scale));
	fprintf(f, "  %-9s unit: %s\n", "", unit_text(s));
}

static void print_needed(FILE *f, const struct compare_stats *st,
			 const struct compare_opts *o)
{
	if (st->base.n < 2 || st->cand.n < 2) {
		print_para(f, 4, "  missing: a side has a single value, so "
			   "there is no spread and no interval; run at least 2 "
			   "(better 10) runs a side");
		return;
	}
	if (isfinite(st->mde_pct))
		fprintf(f, "  detectable now (%.0f%% power): %s", 100 * o->power,
			numfmt_pct((char[NUMFMT_LEN]){ 0 }, NUMFMT_LEN,
				   st->mde_pct));
	if (st->needed_runs)
		fprintf(f, "; about %zu invocations x %zu runs a side would "
			   "resolve %g%%", st->needed_invocations,
			st->needed_runs / st->needed_invocations,
			o->threshold_pct);
	fputc('\n', f);
}

/*
 * ministat's table of the runs of a configuration, for sides that are not
 * both number files (theirs is printed first, as ministat does).
 */
static void print_detail_runs(FILE *f, const struct comparison *cmp)
{
	ministat_header(f, "  runs", 12, 11);
	ministat_row(f, "  baseline", 12, &cmp->runs_base, 11);
	ministat_row(f, "  candidate", 12, &cmp->runs_cand, 11);
}

static void print_detail(FILE *f, const struct comparison *cmp,
			 const struct compare_result *r, bool numbers)
{
	const struct compare_stats *st = &cmp->st;
	char *change = change_text(st);
	size_t i;

	if (*cmp->workload)
		print_para(f, 6, "\n== %s [%s] %s", cmp->workload,
			   cmp->section, cmp->canon);
	else
		fprintf(f, "\n== values\n");
	print_detail_side(f, "baseline", &st->base, &st->model.a,
			  st->log_scale, st->model.df_between >= 1);
	print_detail_side(f, "candidate", &st->cand, &st->model.b,
			  st->log_scale, st->model.df_between >= 1);
	if (!numbers)
		print_detail_runs(f, cmp);
	fprintf(f, "  change    %s", change);
	if (isfinite(st->df))
		fprintf(f, "  df %.3g (Satterthwaite), p = %.3g", st->df,
			st->p_welch);
	fprintf(f, "  verdict %s\n", verdict_names[st->verdict]);
	if (st->verdict == VERDICT_INCONCLUSIVE)
		print_needed(f, st, &r->opts);
	for (i = 0; i < cmp->nflags; i++)
		if (!strcmp(cmp->flags[i].name, "misleading-throughput") ||
		    !strcmp(cmp->flags[i].name, "too-few-runs"))
			print_para(f, 4, "  flag %s (%s): %s",
				   cmp->flags[i].name, cmp->flags[i].side,
				   cmp->flags[i].message);
	free(change);
}

/* How many comparisons carry exactly this flag (name, side, message). */
static size_t same_flag_count(const struct compare_result *r,
			      const struct compare_flag *fl, size_t upto,
			      bool *seen)
{
	size_t i, k, n = 0;

	*seen = false;
	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->cmp[i].nflags; k++) {
			const struct compare_flag *g = &r->cmp[i].flags[k];

			if (strcmp(g->name, fl->name) || strcmp(g->side, fl->side) ||
			    strcmp(g->message, fl->message))
				continue;
			n++;
			if (i < upto)
				*seen = true;
		}
	return n;
}

static bool is_side_flag(const struct compare_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nside_flags; i++)
		if (!strcmp(r->side_flags[i].name, name))
			return true;
	return !strcmp(name, "noisy") || !strcmp(name, "drift") ||
	       !strcmp(name, "unfair");
}

/* Every flag once: side summaries, then flags shared by comparisons. */
static void print_flags(FILE *f, const struct compare_result *r)
{
	bool head = false, seen;
	size_t i, k;

	for (i = 0; i < r->nside_flags; i++) {
		const struct compare_side_flag *sf = &r->side_flags[i];

		if (!head)
			fprintf(f, "\nFlags:\n");
		head = true;
		print_para(f, 4, "  %s (%s): %s", sf->name, sf->side,
			   sf->message);
	}
	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->cmp[i].nflags; k++) {
			const struct compare_flag *fl = &r->cmp[i].flags[k];
			size_t n;

			if (is_side_flag(r, fl->name) ||
			    !strcmp(fl->name, "misleading-throughput") ||
			    !strcmp(fl->name, "too-few-runs"))
				continue;
			n = same_flag_count(r, fl, i, &seen);
			if (seen)
				continue;
			if (!head)
				fprintf(f, "\nFlags:\n");
			head = true;
			print_para(f, 4, "  %s (%s, %zu of %zu configurations): "
				   "%s", fl->name, fl->side, n, r->n,
				   fl->message);
		}
}

static const char method_text[] =
	"Method: per configuration, a two-level model (runs nested in "
	"invocations, invocations in sides): variance components s2_between "
	"and s2_within common to both sides, from the ANOVA of invocations "
	"nested in sides (moment estimates, a negative s2_b truncated to 0); "
	"each side's level by generalised least squares, weights "
	"1/(s2_b + s2_w/n_i); the interval of the difference on "
	"Satterthwaite df.  With s2_b = 0 the runs are pooled (Welch); a side "
	"of one invocation takes s2_b from the other side's invocations.  "
	"Positive metrics are compared as ratios (log values; levels are "
	"geometric means).  The verdict compares the interval with the "
	"threshold.  docs/STATISTICS.md, \"Two-level model\".";

static void print_text(FILE *f, const struct compare_result *r,
		       const struct selection *b, const struct selection *c,
		       const struct meta_diff *md)
{
	bool numbers = b->kind == SEL_NUMBERS && c->kind == SEL_NUMBERS;
	const char *unit = metric_unit(r->metric);
	size_t i;

	fprintf(f, "metric     %s%s%s%s, %s; change in %% of the baseline, "
		   "%.3g%% CI\n", r->metric, *unit ? " (" : "", unit,
		*unit ? ")" : "", dir_name(r->opts.dir),
		100 * r->opts.confidence);
	print_side_line(f, b);
	print_side_line(f, c);
	print_table(f, r, numbers);
	fprintf(f, "\nVerdict: %zu faster, %zu slower, %zu no-change, "
		   "%zu inconclusive (%zu compared, %zu not compared; "
		   "threshold %g%%)\n",
		r->count[VERDICT_FASTER], r->count[VERDICT_SLOWER],
		r->count[VERDICT_NO_CHANGE], r->count[VERDICT_INCONCLUSIVE],
		r->n, r->nunmatched, r->opts.threshold_pct);
	print_gate(f, r, numbers);
	print_flags(f, r);
	meta_diff_print(f, md);
	for (i = 0; i < r->n; i++)
		print_detail(f, &r->cmp[i], r, numbers);
	if (r->nunmatched)
		fprintf(f, "\nNot compared:\n");
	for (i = 0; i < r->nunmatched; i++)
		fprintf(f, "  %s: %s [%s] %s: %s\n", r->unmatched[i].side,
			r->unmatched[i].workload, r->unmatched[i].section,
			r->unmatched[i].canon, r->unmatched[i].reason);
	fputc('\n', f);
	wrap_print(f, method_text, 0, 0, WIDTH);
}

/* ---- json (docs/compare-json.md) ---- */

/*
 * The layout here is compare's own (several members a line), so only the
 * string and number primitives of lib/json.h are shared.  An absent
 * or empty string is null.
 */
static void json_key_str(FILE *f, const char *key, const char *v)
{
	fprintf(f, "\"%s\": ", key);
	if (v && *v)
		json_string(f, v);
	else
		fputs("null", f);
}

/* JSON has no NaN: a figure that cannot be computed is null. */
static void json_key_num(FILE *f, const char *key, double v)
{
	fprintf(f, "\"%s\": ", key);
	json_number(f, v);
}

/* A member of an object: a string (JSTR) or a number (JNUM). */
struct json_member {
	const char *key;
	bool number;
	const char *str;
	double num;
};
#define JSTR(key, v) { (key), false, (v), 0 }
#define JNUM(key, v) { (key), true, NULL, (v) }

/* The n members, sep between them. */
static void json_members(FILE *f, const struct json_member *m, size_t n,
			 const char *sep)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fputs(i ? sep : "", f);
		if (m[i].number)
			json_key_num(f, m[i].key, m[i].num);
		else
			json_key_str(f, m[i].key, m[i].str);
	}
}

static void json_selection(FILE *f, const struct selection *s)
{
	const struct json_member m[] = {
		JSTR("selector", s->text), JSTR("database", s->db),
	};
	size_t i;

	fputc('{', f);
	json_members(f, m, ARRAY_SIZE(m), ", ");
	fprintf(f, ", \"experiments\": [");
	for (i = 0; i < s->nsets; i++)
		fprintf(f, "%s%" PRId64, i ? ", " : "", s->sets[i].exp.id);
	fprintf(f, "]}");
}

static const char *unit_name(const struct nested *s, bool numbers)
{
	if (numbers && s->k < 2)
		return "values";
	if (s->borrowed)
		return "runs-borrowed-between";
	if (s->k < 2)
		return "runs";
	return s->pooled ? "runs-pooled" : "invocations";
}

static void json_side(FILE *f, const char *key, const struct compare_summary *s,
		      const struct compare_unit *u, const struct nested *m,
		      bool numbers)
{
	const struct json_member v[] = {
		JNUM("mean", s->mean), JNUM("sd", s->sd),
		JNUM("ci_low", s->ci_low), JNUM("ci_high", s->ci_high),
		JNUM("var_between", m->var_between),
		JNUM("var_within", m->var_within), JNUM("df", m->df),
	};

	fprintf(f, "      \"%s\": {\"n\": %zu, ", key, s->n);
	json_members(f, v, ARRAY_SIZE(v), ", ");
	fprintf(f, ", \"unit\": \"%s\", \"invocations\": %zu, \"runs\": %zu, "
		   "\"borrowed_between\": %s, \"pooled\": %s},\n",
		unit_name(m, numbers), u->invocations, u->runs,
		m->borrowed ? "true" : "false", m->pooled ? "true" : "false");
}

static void json_params(FILE *f, const struct ds_config *c)
{
	size_t i;

	fputc('{', f);
	for (i = 0; c && i < c->nparams; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, c->params[i].key);
		fputs(": ", f);
		json_string(f, c->params[i].value);
	}
	fputc('}', f);
}

static void json_flags(FILE *f, const struct comparison *cmp)
{
	size_t i;

	fputs("      \"flags\": [", f);
	for (i = 0; i < cmp->nflags; i++) {
		const struct json_member m[] = {
			JSTR("name", cmp->flags[i].name),
			JSTR("side", cmp->flags[i].side),
			JSTR("message", cmp->flags[i].message),
		};

		fputs(i ? ", {" : "{", f);
		json_members(f, m, ARRAY_SIZE(m), ", ");
		fputc('}', f);
	}
	fputs("]\n", f);
}

static void json_comparison(FILE *f, const struct comparison *cmp,
			    const struct compare_result *r, bool bnum,
			    bool cnum)
{
	const struct compare_stats *st = &cmp->st;
	const struct json_member names[] = {
		JSTR("config", cmp->canon),
		JSTR("workload", cmp->workload),
		JSTR("section", cmp->section),
	};
	const struct json_member nums[] = {
		JNUM("change_pct", st->change_pct),
		JNUM("diff", st->diff),
		JNUM("diff_ci_low", st->diff_ci_low),
		JNUM("diff_ci_high", st->diff_ci_high),
		JNUM("change_ci_low_pct", st->change_ci_low_pct),
		JNUM("change_ci_high_pct", st->change_ci_high_pct),
		JNUM("df", st->df),
		JNUM("p_welch", st->p_welch),
		JNUM("p_mannwhitney", st->p_mannwhitney),
		JNUM("hedges_g", st->hedges_g),
		JNUM("mde_pct", st->mde_pct),
		JNUM("se", st->model.se),
	};
	const struct json_member gate[] = {
		JNUM("p", cmp->gate_p), JNUM("p_holm", cmp->gate_p_holm),
	};

	fputs("    {\n      ", f);
	json_members(f, names, ARRAY_SIZE(names), ",\n      ");
	fputs(",\n      \"params\": ", f);
	json_params(f, bnum ? NULL : cmp->config);
	fputs(",\n      ", f);
	json_key_str(f, "metric", r->metric);
	fputs(",\n", f);
	json_side(f, "baseline", &st->base, &cmp->ubase, &st->model.a, bnum);
	json_side(f, "candidate", &st->cand, &cmp->ucand, &st->model.b, cnum);
	fputs("      ", f);
	json_members(f, nums, ARRAY_SIZE(nums), ",\n      ");
	fprintf(f, ",\n      \"scale\": \"%s\",\n",
		st->log_scale ? "log" : "linear");
	if (r->gate_pct >= 0) {
		fputs("      \"gate\": {", f);
		json_members(f, gate, ARRAY_SIZE(gate), ", ");
		fprintf(f, ", \"fails\": %s},\n",
			cmp->gate_fail ? "true" : "false");
	}
	fprintf(f, "      \"mannwhitney_method\": \"%s\",\n",
		st->mw_exact ? "exact" : "normal");
	fprintf(f, "      \"verdict\": \"%s\",\n      \"needed_runs\": ",
		verdict_names[st->verdict]);
	if (st->needed_runs)
		fprintf(f, "%zu,\n      \"needed_invocations\": %zu,\n",
			st->needed_runs, st->needed_invocations);
	else
		fputs("null,\n      \"needed_invocations\": null,\n", f);
	json_flags(f, cmp);
	fputs("    }", f);
}

static void json_unmatched(FILE *f, const struct compare_result *r)
{
	size_t i;

	fputs("  \"unmatched\": [", f);
	for (i = 0; i < r->nunmatched; i++) {
		const struct compare_unmatched *u = &r->unmatched[i];
		const struct json_member m[] = {
			JSTR("side", u->side), JSTR("workload", u->workload),
			JSTR("section", u->section), JSTR("config", u->canon),
			JSTR("reason", u->reason),
		};

		fputs(i ? ",\n    {" : "\n    {", f);
		json_members(f, m, ARRAY_SIZE(m), ", ");
		fputc('}', f);
	}
	fputs(r->nunmatched ? "\n  ],\n" : "],\n", f);
}

static void json_side_flags(FILE *f, const struct compare_result *r)
{
	size_t i;

	fputs("  \"side_flags\": [", f);
	for (i = 0; i < r->nside_flags; i++) {
		const struct compare_side_flag *sf = &r->side_flags[i];
		const struct json_member m[] = {
			JSTR("name", sf->name), JSTR("side", sf->side),
			JNUM("configurations", (double)sf->nconfigs),
			JSTR("message", sf->message),
		};

		fputs(i ? ",\n    {" : "\n    {", f);
		json_members(f, m, ARRAY_SIZE(m), ", ");
		fputc('}', f);
	}
	fputs(r->nside_flags ? "\n  ],\n" : "],\n", f);
}

static void print_json(FILE *f, const struct compare_result *r,
		       const struct selection *b, const struct selection *c)
{
	size_t i;

	fputs("{\n  ", f);
	json_key_str(f, "metric", r->metric);
	fputs(",\n  ", f);
	json_key_str(f, "metric_unit", metric_unit(r->metric));
	fprintf(f, ",\n  \"direction\": \"%s\",\n",
		r->opts.dir == DIR_LOWER ? "lower" : "higher");
	fprintf(f, "  \"confidence\": %g,\n  \"threshold_pct\": %g,\n",
		r->opts.confidence, r->opts.threshold_pct);
	fputs("  \"tests\": {\"difference\": \"two-level-satterthwaite\", "
	      "\"rank\": \"mann-whitney-u\"},\n", f);
	fputs("  \"model\": {\"levels\": [\"runs\", \"invocations\"], "
	      "\"components\": \"anova-moments\", \"df\": \"satterthwaite\", "
	      "\"scale\": \"log when every value > 0\"},\n  \"baseline\": ", f);
	json_selection(f, b);
	fputs(",\n  \"candidate\": ", f);
	json_selection(f, c);
	fputs(",\n  \"comparisons\": [", f);
	for (i = 0; i < r->n; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_comparison(f, &r->cmp[i], r, b->kind == SEL_NUMBERS,
				c->kind == SEL_NUMBERS);
	}
	fputs(r->n ? "\n  ],\n" : "],\n", f);
	json_unmatched(f, r);
	json_side_flags(f, r);
	fprintf(f, "  \"summary\": {\"faster\": %zu, \"slower\": %zu, "
		   "\"no_change\": %zu, \"inconclusive\": %zu, "
		   "\"unmatched\": %zu}",
		r->count[VERDICT_FASTER], r->count[VERDICT_SLOWER],
		r->count[VERDICT_NO_CHANGE], r->count[VERDICT_INCONCLUSIVE],
		r->nunmatched);
	if (r->gate_pct >= 0)
		fprintf(f, ",\n  \"regression\": {\"threshold_pct\": %g, "
			   "\"count\": %zu, \"correction\": \"holm\", "
			   "\"family\": %zu, \"alpha\": %g}", r->gate_pct,
			r->gate_failures, r->n, 1 - r->opts.confidence);
	fputs("\n}\n", f);
}

/* ---- the command ---- */

/*
 * An experiment on both sides without a filter that tells its
 * configurations apart (a name that is also another experiment's label,
 * say) is compared with itself: said, since it is rarely meant.
 */
static void sides_overlap(const struct selection *b, const struct selection *c)
{
	size_t i, k;

	if (b->kind == SEL_NUMBERS || c->kind == SEL_NUMBERS ||
	    b->pick.nfilters || c->pick.nfilters)
		return;
	for (i = 0; i < b->nsets; i++)
		for (k = 0; k < c->nsets; k++) {
			const struct experiment_row *x = &b->sets[i].exp;
			const char *u = c->sets[k].exp.uuid;

			if (x->uuid && u && !strcmp(x->uuid, u)) {
				warning("experiment %lld is on both sides "
					"('%s' and '%s'): it is compared with "
					"itself; LABEL~newest or DB:ID picks "
					"one experiment", (long long)x->id,
					b->text, c->text);
				return;
			}
		}
}

static int run(struct cmp_args *a, struct selection *b, struct selection *c)
{
	struct compare_result r;
	struct compare_opts o;
	struct meta_diff md;
	size_t nreg;
	int ret;

	ret = load(b, a);
	if (!ret)
		ret = load(c, a);
	if (ret)
		return ret;
	sides_overlap(b, c);
	match_on_the_rest(b, c);
	if (settle_metric(a, b, c) < 0 || settle(a, b, c, &o) < 0)
		return EXIT_USAGE;
	if (one_value(b) < 0 || one_value(c) < 0)
		return EXIT_USAGE;
	if ((b->kind == SEL_NUMBERS && number_side(b, c, a->metric) < 0) ||
	    (c->kind == SEL_NUMBERS && number_side(c, b, a->metric) < 0))
		return EXIT_USAGE;
	if (compare_sides(&b->side, &c->side, a->metric, &o, &r) < 0)
		return EXIT_USAGE;
	nreg = a->fail_pct >= 0 ? compare_gate(&r, a->fail_pct) : 0;
	meta_diff_build(&md, b, c);
	if (a->json)
		print_json(stdout, &r, b, c);
	else
		print_text(stdout, &r, b, c, &md);
	meta_diff_release(&md);
	if (a->plot_dir) {
		struct plot_opts po = { .out_dir = a->plot_dir, .png = true,
					.svg = true, .render = true };
		struct plot_set set;

		if (plot_compare(&r, b->text, c->text, &po, &set) < 0)
			ret = EXIT_RUNTIME;
		else
			fprintf(stderr, "contend: comparison plot written to %s/compare.png\n",
				a->plot_dir);
		plot_set_release(&set);
	}
	if (nreg)
		error("regression: %zu configuration%s slower by more than "
		      "%g%% (Holm-corrected over %zu)", nreg,
		      nreg == 1 ? "" : "s", a->fail_pct, r.n);
	compare_result_release(&r);
	return nreg ? EXIT_REGRESSION : ret;
}

/* Standard input, read once, for the side named "-" (at most one). */
static int read_stdin(struct cmp_args *a)
{
	size_t i, n = !strcmp(a->base, "-"), cap = 65536;

	for (i = 0; i < a->ncands; i++)
		n += !strcmp(a->cands[i], "-");
	if (n > 1)
		return error("compare: only one side can be '-' (standard "
			     "input is read once)");
	if (!n)
		return 0;
	a->in = xmalloc(cap + 1);
	for (;;) {
		size_t got = fread(a->in + a->inlen, 1, cap - a->inlen, stdin);

		a->inlen += got;
		if (a->inlen > NUMFILE_MAX_BYTES)
			return error("(standard input): more than %d bytes",
				     NUMFILE_MAX_BYTES);
		if (got == 0)
			break;
		if (a->inlen == cap) {
			cap *= 2;
			a->in = xrealloc(a->in, cap + 1);
		}
	}
	if (ferror(stdin))
		return error("(standard input): %s", strerror(errno));
	a->in[a->inlen] = '\0';
	return 0;
}

/*
 * ministat's table (and with --ascii its plot) of every side, when all of
 * them are numbers (files or "-"): before the comparisons, as ministat.
 */
static int print_ministat(const struct cmp_args *a)
{
	struct ministat_set set[MINISTAT_SETS];
	struct selection sides[MINISTAT_SETS];
	size_t i, n = a->ncands + 1;
	int ret = 0;

	if (a->json || n > MINISTAT_SETS)
		return 0;
	memset(sides, 0, sizeof(sides));
	for (i = 0; i < n && !ret; i++) {
		sides[i].text = i ? a->cands[i - 1] : a->base;
		sides[i].role = i ? "candidate" : "baseline";
		if (is_file_list(sides[i].text))
			ret = 0;        /* number files, one invocation each */
		else if (is_file(sides[i].text) && !is_sqlite(sides[i].text) &&
			 is_export(sides[i].text))
			goto out;       /* an export file: compare's tables */
		else
			ret = resolve(&sides[i], a->db) < 0 ? EXIT_USAGE : 0;
		if (!ret && sides[i].db) {
			/* a database side: compare's own tables */
			if (a->ascii)
				warning("--ascii draws files of numbers only; "
					"%s is a database", sides[i].text);
			goto out;
		}
		if (!ret)
			ret = load(&sides[i], a);
		set[i] = (struct ministat_set){ sides[i].text, sides[i].values,
						sides[i].nvalues };
	}
	if (!ret && (ministat_table(stdout, set, n) < 0 ||
		     (a->ascii && ministat_plot(stdout, set, n,
						MINISTAT_WIDTH) < 0)))
		ret = EXIT_USAGE;
	if (!ret)
		putchar('\n');
out:
	for (i = 0; i < n; i++)
		selection_release(&sides[i]);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_args a;
	size_t i, nreg = 0;
	int ret = 0;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return opt_exit(ret);
	if (read_stdin(&a) < 0) {
		free(a.in);
		return EXIT_USAGE;
	}
	ret = print_ministat(&a);
	if (a.json && a.ncands > 1)
		fputs("[\n", stdout);
	/* each candidate against the baseline, loaded afresh */
	for (i = 0; i < a.ncands && (!ret || ret == EXIT_REGRESSION); i++) {
		struct selection b = { .role = "baseline" };
		struct selection c = { .role = "candidate" };
		const char *metric = a.metric, *plot_dir = a.plot_dir;
		char *dir = NULL;

		/* several candidates: DIR/1/compare.png, DIR/2/... */
		if (plot_dir && a.ncands > 1) {
			if (mkdir(plot_dir, 0777) && errno != EEXIST) {
				error("cannot create %s: %s", plot_dir,
				      strerror(errno));
				ret = EXIT_RUNTIME;
				break;
			}
			a.plot_dir = dir = xasprintf("%s/%zu", plot_dir, i + 1);
		}

		b.text = a.base;
		c.text = a.cand = a.cands[i];
		if (i && !a.json)
			printf("\n======== candidate %zu of %zu: %s\n\n", i + 1,
			       a.ncands, c.text);
		if (i && a.json)
			fputs(",\n", stdout);
		ret = run(&a, &b, &c);
		nreg += ret == EXIT_REGRESSION;
		a.metric = metric; /* settled per candidate */
		a.plot_dir = plot_dir;
		free(dir);
		selection_release(&b);
		selection_release(&c);
	}
	if (a.json && a.ncands > 1)
		fputs("]\n", stdout);
	if (!ret && nreg)
		ret = EXIT_REGRESSION;
	free(a.in);
	if (fflush(stdout) != 0 && !ret) {
		error("writing the result: %s", strerror(errno));
		ret = EXIT_RUNTIME;
	}
	return ret;
}
