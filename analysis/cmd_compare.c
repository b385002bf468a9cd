/*
 * cmd_compare.c - `contend compare BASE CAND`: resolves the two selections
 * (a label or experiment in a database, or a ministat-style number file),
 * hands them to compare_sides(), prints the result as ministat-like text
 * or JSON (docs/compare-json.md), and gates CI with --fail-on-regression.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/compare.h"
#include "analysis/json.h"
#include "analysis/ministat.h"
#include "analysis/numfile.h"
#include "db/select.h"
#include "runner/commands.h"
#include "plots/plot.h"
#include "runner/util.h"

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
	bool ascii;                     /* --ascii: ministat's plot */
	const char *plot_dir;           /* --plot DIR */
	char *in;                       /* standard input, for a side "-" */
	size_t inlen;
};

/* One side as the user named it, and what it loaded. */
struct selection {
	const char *text;
	const char *role;               /* "baseline" or "candidate" */
	char *db;                       /* NULL for a number file */
	char *sel;                      /* selector in db; NULL = newest */
	struct selector pick;           /* the grammar's ~newest, @filters */
	struct store *st;
	int64_t *ids;
	size_t nsets;
	struct dataset *sets;
	struct analysis *an;
	double *values;                 /* number file */
	size_t nvalues;
	struct compare_numbers num;
	struct compare_side side;
};

/* ---- options ---- */

/*
 * The options are data: a row names the option, the field of cmp_args it
 * sets and the setter that checks and converts its argument.  getopt's
 * table is built from these rows.  An option's name in messages is
 * "-C" for a row with a short letter, else "--name".
 */
struct cmp_option {
	const char *name;
	char letter;                    /* short option, or 0 */
	bool takes_arg;
	int value;                      /* for set_dir */
	size_t offset;                  /* of the field in struct cmp_args */
	int (*set)(const char *opt, const char *arg, void *field, int value);
};

static int set_string(const char *opt, const char *arg, void *field,
		      int value)
{
	(void)opt;
	(void)value;
	*(const char **)field = arg;
	return 0;
}

static int set_nonempty(const char *opt, const char *arg, void *field,
			int value)
{
	if (!*arg)
		return error("%s: the delimiter set is empty", opt);
	return set_string(opt, arg, field, value);
}

static int set_dir(const char *opt, const char *arg, void *field, int value)
{
	(void)opt;
	(void)arg;
	*(enum direction *)field = (enum direction)value;
	return 0;
}

static int set_pct(const char *opt, const char *arg, void *field, int value)
{
	double *out = field;

	(void)value;
	if (parse_double(arg, out) < 0 || *out < 0)
		return error("%s: '%s' is not a percentage >= 0", opt, arg);
	return 0;
}

static int set_confidence(const char *opt, const char *arg, void *field,
			  int value)
{
	double *out = field;

	(void)value;
	if (parse_double(arg, out) < 0 || !(*out > 0 && *out < 1))
		return error("%s: '%s' is not in (0, 1), e.g. 0.95", opt, arg);
	return 0;
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

static int set_flag(const char *opt, const char *arg, void *field, int value)
{
	(void)opt;
	(void)arg;
	*(bool *)field = value;
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

static const struct cmp_option cmp_options[] = {
	{ "db", 0, true, 0, FIELD(db), set_string },
	{ "metric", 0, true, 0, FIELD(metric), set_string },
	{ "format", 0, true, 0, FIELD(json), set_format },
	{ "threshold", 0, true, 0, FIELD(threshold), set_pct },
	{ "fail-on-regression", 0, true, 0, FIELD(fail_pct), set_pct },
	{ "lower-is-better", 0, false, DIR_LOWER, FIELD(dir), set_dir },
	{ "higher-is-better", 0, false, DIR_HIGHER, FIELD(dir), set_dir },
	{ "confidence", 0, true, 0, FIELD(confidence), set_confidence },
	{ "plot", 0, true, 0, FIELD(plot_dir), set_string },
	{ "ascii", 0, false, true, FIELD(ascii), set_flag },
	{ "column", 'C', true, 0, FIELD(nf.column), set_column },
	{ "delimiters", 'd', true, 0, FIELD(nf.delims), set_nonempty },
};
#define NOPTIONS ARRAY_SIZE(cmp_options)

/* getopt_long's value for row i: its letter, else 256 + i. */
static int option_val(size_t i)
{
	return cmp_options[i].letter ? cmp_options[i].letter : 256 + (int)i;
}

/* getopt_long's tables for cmp_options: long options and "C:d:". */
static void option_tables(struct option *lo, char *shortopts)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++) {
		const struct cmp_option *o = &cmp_options[i];

		lo[i] = (struct option){ o->name, o->takes_arg ? required_argument
							      : no_argument,
					 NULL, option_val(i) };
		if (o->letter) {
			*shortopts++ = o->letter;
			if (o->takes_arg)
				*shortopts++ = ':';
		}
	}
	lo[i] = (struct option){ NULL, 0, NULL, 0 };
	*shortopts = '\0';
}

static int parse_option(int c, const char *arg, struct cmp_args *a)
{
	char opt[32];
	size_t i;

	for (i = 0; i < NOPTIONS; i++) {
		const struct cmp_option *o = &cmp_options[i];

		if (option_val(i) != c)
			continue;
		if (o->letter)
			snprintf(opt, sizeof(opt), "-%c", o->letter);
		else
			snprintf(opt, sizeof(opt), "--%s", o->name);
		return o->set(opt, arg, (char *)a + o->offset, o->value);
	}
	return error("usage: contend compare BASE CAND [CAND...] [--db PATH] "
		     "[--metric M] [--format text|json] "
		     "[--threshold PCT] [--fail-on-regression PCT] "
		     "[--lower-is-better] [-C N] [-d DELIMS] "
		     "[--confidence C] [--plot DIR] [--ascii]");
}

static int parse_args(int argc, char **argv, struct cmp_args *a)
{
	struct option options[NOPTIONS + 1];
	char shortopts[2 * NOPTIONS + 1];
	int c;

	memset(a, 0, sizeof(*a));
	a->threshold = 1;
	a->fail_pct = -1;
	numfile_opts_default(&a->nf);
	option_tables(options, shortopts);
	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, shortopts, options, NULL)) != -1)
		if (parse_option(c, optarg, a) < 0)
			return -1;
	if (argc - optind < 2)
		return error("compare needs a baseline and at least one "
			     "candidate, BASE CAND [CAND...] (got %d); see "
			     "'contend help compare'", argc - optind);
	a->base = argv[optind];
	a->cands = argv + optind + 1;
	a->ncands = (size_t)(argc - optind - 1);
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

/* SQLite files begin with this 16-byte header string. */
static bool is_sqlite(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	FILE *f = fopen(path, "rb");
	bool yes;

	if (!f)
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

/* Loads and analyses every experiment the selector names. */
static int load_db(struct selection *s)
{
	struct analysis_opts ao;
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
	s->an = xcalloc((size_t)k, sizeof(*s->an));
	analysis_opts_default(&ao);
	for (i = 0; i < (size_t)k; i++) {
		if (store_load(s->st, s->ids[i], &s->sets[i]) < 0)
			return EXIT_RUNTIME;
		s->nsets++;
		kept += select_filter_dataset(&s->pick, &s->sets[i]);
		if (analysis_run(&s->sets[i], &ao, &s->an[i]) < 0)
			return EXIT_RUNTIME;
	}
	if (!kept) {
		error("%s: no configuration of '%s' has %s=%s%s", s->role,
		      s->text, s->pick.filters[0].key, s->pick.filters[0].value,
		      s->pick.nfilters > 1 ? " and the other filters" : "");
		return EXIT_USAGE;
	}
	s->side.name = s->text;
	s->side.nsets = s->nsets;
	s->side.sets = s->sets;
	s->side.an = s->an;
	return 0;
}

static int load(struct selection *s, const struct cmp_args *a)
{
	if (resolve(s, a->db) < 0)
		return EXIT_USAGE;
	if (s->db)
		return load_db(s);
	if (!strcmp(s->text, "-")) {
		if (numfile_parse("(standard input)", a->in, a->inlen, &a->nf,
				  &s->values, &s->nvalues) < 0)
			return EXIT_USAGE;
		return 0;
	}
	if (numfile_read(s->text, &a->nf, &s->values, &s->nvalues) < 0)
		return EXIT_USAGE;
	return 0;
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

	if (other->db && compare_side_configs(&other->side, &like) != 1)
		return error("%s is a number file, so %s must select exactly "
			     "one configuration", s->text, other->text);
	compare_numbers_init(&s->num, s->text, metric, s->values, s->nvalues,
			     like, &s->side);
	return 0;
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
		a->metric = !b->db && !c->db ? "value" : "throughput";
	if (b->db && compare_side_has_metric(&b->side, a->metric, b->role) < 0)
		return -1;
	if (c->db && compare_side_has_metric(&c->side, a->metric, c->role) < 0)
		return -1;
	return 0;
}

static int settle(const struct cmp_args *a, const struct selection *b,
		  const struct selection *c, struct compare_opts *o)
{
	bool files = !b->db && !c->db;

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

/* ---- text ---- */

static const char *dir_name(enum direction d)
{
	return d == DIR_LOWER ? "lower is better" : "higher is better";
}

static void print_side_line(FILE *f, const struct selection *s)
{
	size_t i;

	fprintf(f, "%-10s %s", s->role, s->text);
	if (!s->db) {
		fprintf(f, " (number file, %zu values)\n", s->nvalues);
		return;
	}
	fprintf(f, " (%s, experiment%s", s->db, s->nsets > 1 ? "s" : "");
	for (i = 0; i < s->nsets; i++)
		fprintf(f, "%s%" PRId64, i ? ", " : " ", s->sets[i].exp.id);
	fprintf(f, ")\n");
}

static void print_header(FILE *f, const struct selection *b,
			 const struct selection *c, const struct compare_result *r)
{
	const char *unit = metric_unit(r->metric);

	fprintf(f, "metric     %s%s%s, %s\n", r->metric, *unit ? ", " : "",
		unit, dir_name(r->opts.dir));
	print_side_line(f, b);
	print_side_line(f, c);
	fprintf(f, "Tests: Welch's t (unequal variances, Welch-Satterthwaite "
		   "df) for the difference of means;\n"
		   "       Mann-Whitney U (exact for small samples without "
		   "ties, else normal approximation\n"
		   "       with tie and continuity correction); %.1f%% "
		   "confidence; threshold %g%%.\n",
		100 * r->opts.confidence, r->opts.threshold_pct);
	fprintf(f, "A side that holds a configuration in several experiments "
		   "(invocations) is\nrepresented by its invocation means, the "
		   "unit of replication.\n");
}

static void print_unit(FILE *f, const char *role, const struct compare_unit *u,
		       bool numbers)
{
	if (numbers)
		fprintf(f, "%s: values of a number file", role);
	else if (u->means)
		fprintf(f, "%s: means of %zu invocations (%zu runs)", role,
			u->invocations, u->runs);
	else
		fprintf(f, "%s: %zu runs of one invocation", role, u->runs);
}

static void print_row(FILE *f, const char *role, const struct compare_summary *s)
{
	fprintf(f, "  %-10s %4zu  %12.6g  %12.6g  [%.6g, %.6g]\n", role, s->n,
		s->mean, s->sd, s->ci_low, s->ci_high);
}

static void print_verdict(FILE *f, const struct compare_stats *st,
			  const struct compare_opts *o)
{
	double thr = o->threshold_pct;
	size_t n = st->base.n > st->cand.n ? st->base.n : st->cand.n;

	fprintf(f, "  verdict: %s", verdict_names[st->verdict]);
	switch (st->verdict) {
	case VERDICT_FASTER:
	case VERDICT_SLOWER:
		fprintf(f, " (the whole interval lies beyond %g%% on the %s "
			   "side)\n", thr,
			st->verdict == VERDICT_FASTER ? "better" : "worse");
		return;
	case VERDICT_NO_CHANGE:
		fprintf(f, " (the whole interval lies within +-%g%%)\n", thr);
		return;
	default:
		break;
	}
	if (st->base.n < 2 || st->cand.n < 2) {
		fprintf(f, " (a side has fewer than 2 values)\n");
		return;
	}
	fprintf(f, " (the interval reaches across +-%g%%: the data cannot "
		   "tell)\n", thr);
	if (isfinite(st->mde_pct))
		fprintf(f, "  smallest change detectable now (%.0f%% power): "
			   "%.2f%%", 100 * o->power, st->mde_pct);
	if (st->needed_runs > n)
		fprintf(f, "; about %zu runs per side would resolve %g%%\n",
			st->needed_runs, thr);
	else if (st->needed_runs)
		fprintf(f, "; the change lies near the threshold: more runs "
			   "narrow the interval but it may keep straddling "
			   "%g%%\n", thr);
	else
		fputc('\n', f);
}

static void print_comparison(FILE *f, const struct comparison *cmp,
			     const struct compare_result *r,
			     const struct selection *b,
			     const struct selection *c)
{
	const struct compare_stats *st = &cmp->st;
	size_t i;

	if (*cmp->workload)
		fprintf(f, "\n== %s [%s] %s\n", cmp->workload, cmp->section,
			cmp->canon);
	else
		fprintf(f, "\n== %s vs %s\n", b->text, c->text);
	fprintf(f, "  %-10s %4s  %12s  %12s  %.1f%% CI of the mean\n", "",
		"N", "Mean", "Sd", 100 * r->opts.confidence);
	print_row(f, "baseline", &st->base);
	print_row(f, "candidate", &st->cand);
	fprintf(f, "  unit: ");
	print_unit(f, "baseline", &cmp->ubase, !b->db);
	fprintf(f, "; ");
	print_unit(f, "candidate", &cmp->ucand, !c->db);
	fprintf(f, "\n  Difference at %.1f%% confidence: %+.2f%% "
		   "[%+.2f%%, %+.2f%%] (%+.6g [%+.6g, %+.6g])\n",
		100 * r->opts.confidence, st->change_pct,
		st->change_ci_low_pct, st->change_ci_high_pct, st->diff,
		st->diff_ci_low, st->diff_ci_high);
	fprintf(f, "  p (Welch t, df %.1f) = %.3g   p (Mann-Whitney U, %s) = "
		   "%.3g   Hedges' g = %+.3g\n", st->df, st->p_welch,
		st->mw_exact ? "exact" : "normal approx.", st->p_mannwhitney,
		st->hedges_g);
	print_verdict(f, st, &r->opts);
	for (i = 0; i < cmp->nflags; i++)
		fprintf(f, "  flag %s (%s): %s\n", cmp->flags[i].name,
			cmp->flags[i].side, cmp->flags[i].message);
}

static void print_text(FILE *f, const struct compare_result *r,
		       const struct selection *b, const struct selection *c)
{
	size_t i;

	print_header(f, b, c, r);
	for (i = 0; i < r->n; i++)
		print_comparison(f, &r->cmp[i], r, b, c);
	if (r->nunmatched)
		fprintf(f, "\nNot compared:\n");
	for (i = 0; i < r->nunmatched; i++)
		fprintf(f, "  %s: %s [%s] %s: %s\n", r->unmatched[i].side,
			r->unmatched[i].workload, r->unmatched[i].section,
			r->unmatched[i].canon, r->unmatched[i].reason);
	fprintf(f, "\nSummary: %zu faster, %zu slower, %zu no-change, "
		   "%zu inconclusive (%zu compared, %zu not compared)\n",
		r->count[VERDICT_FASTER], r->count[VERDICT_SLOWER],
		r->count[VERDICT_NO_CHANGE], r->count[VERDICT_INCONCLUSIVE],
		r->n, r->nunmatched);
}

/* ---- json (docs/compare-json.md) ---- */

/*
 * The layout here is compare's own (several members a line), so only the
 * string and number primitives of analysis/json.h are shared.  An absent
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

static void json_side(FILE *f, const char *key, const struct compare_summary *s,
		      const struct compare_unit *u, bool numbers)
{
	const struct json_member m[] = {
		JNUM("mean", s->mean), JNUM("sd", s->sd),
		JNUM("ci_low", s->ci_low), JNUM("ci_high", s->ci_high),
	};

	fprintf(f, "      \"%s\": {\"n\": %zu, ", key, s->n);
	json_members(f, m, ARRAY_SIZE(m), ", ");
	fprintf(f, ", \"unit\": \"%s\", \"invocations\": %zu, \"runs\": %zu},\n",
		numbers ? "values" : u->means ? "invocation-means" : "runs",
		numbers ? 0 : u->invocations, u->runs);
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
	};

	fputs("    {\n      ", f);
	json_members(f, names, ARRAY_SIZE(names), ",\n      ");
	fputs(",\n      \"params\": ", f);
	json_params(f, bnum ? NULL : cmp->config);
	fputs(",\n      ", f);
	json_key_str(f, "metric", r->metric);
	fputs(",\n", f);
	json_side(f, "baseline", &st->base, &cmp->ubase, bnum);
	json_side(f, "candidate", &st->cand, &cmp->ucand, cnum);
	fputs("      ", f);
	json_members(f, nums, ARRAY_SIZE(nums), ",\n      ");
	fputs(",\n", f);
	fprintf(f, "      \"mannwhitney_method\": \"%s\",\n",
		st->mw_exact ? "exact" : "normal");
	fprintf(f, "      \"verdict\": \"%s\",\n      \"needed_runs\": ",
		verdict_names[st->verdict]);
	if (st->needed_runs)
		fprintf(f, "%zu,\n", st->needed_runs);
	else
		fputs("null,\n", f);
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

static void print_json(FILE *f, const struct compare_result *r,
		       const struct selection *b, const struct selection *c,
		       size_t regressions, double fail_pct)
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
	fputs("  \"tests\": {\"difference\": \"welch-t\", "
	      "\"rank\": \"mann-whitney-u\"},\n  \"baseline\": ", f);
	json_selection(f, b);
	fputs(",\n  \"candidate\": ", f);
	json_selection(f, c);
	fputs(",\n  \"comparisons\": [", f);
	for (i = 0; i < r->n; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_comparison(f, &r->cmp[i], r, !b->db, !c->db);
	}
	fputs(r->n ? "\n  ],\n" : "],\n", f);
	json_unmatched(f, r);
	fprintf(f, "  \"summary\": {\"faster\": %zu, \"slower\": %zu, "
		   "\"no_change\": %zu, \"inconclusive\": %zu, "
		   "\"unmatched\": %zu}",
		r->count[VERDICT_FASTER], r->count[VERDICT_SLOWER],
		r->count[VERDICT_NO_CHANGE], r->count[VERDICT_INCONCLUSIVE],
		r->nunmatched);
	if (fail_pct >= 0)
		fprintf(f, ",\n  \"regression\": {\"threshold_pct\": %g, "
			   "\"count\": %zu}", fail_pct, regressions);
	fputs("\n}\n", f);
}

/* ---- the command ---- */

/* Configurations slower by more than pct in the metric's direction. */
static size_t regressions(const struct compare_result *r, double pct)
{
	size_t i, n = 0;

	for (i = 0; pct >= 0 && i < r->n; i++) {
		const struct compare_stats *st = &r->cmp[i].st;
		double worse = r->opts.dir == DIR_LOWER ? st->change_pct
							: -st->change_pct;

		if (st->verdict == VERDICT_SLOWER && worse > pct)
			n++;
	}
	return n;
}

static int run(struct cmp_args *a, struct selection *b, struct selection *c)
{
	struct compare_result r;
	struct compare_opts o;
	size_t nreg;
	int ret;

	ret = load(b, a);
	if (!ret)
		ret = load(c, a);
	if (ret)
		return ret;
	match_on_the_rest(b, c);
	if (settle_metric(a, b, c) < 0 || settle(a, b, c, &o) < 0)
		return EXIT_USAGE;
	if ((!b->db && number_side(b, c, a->metric) < 0) ||
	    (!c->db && number_side(c, b, a->metric) < 0))
		return EXIT_USAGE;
	if (compare_sides(&b->side, &c->side, a->metric, &o, &r) < 0)
		return EXIT_USAGE;
	nreg = regressions(&r, a->fail_pct);
	if (a->json)
		print_json(stdout, &r, b, c, nreg, a->fail_pct);
	else
		print_text(stdout, &r, b, c);
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
		      "%g%%", nreg, nreg == 1 ? "" : "s", a->fail_pct);
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

	if (parse_args(argc, argv, &a) < 0 || read_stdin(&a) < 0) {
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
