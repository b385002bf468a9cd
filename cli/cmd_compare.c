/*
 * cmd_compare.c - `contend compare BASE CAND [CAND...]`: its options, and
 * the flow per candidate: load both sides (analysis/compare_input.h: a
 * label or experiment in a database, a `contend export` CSV file, or
 * ministat-style number files), compare_sides(), print the result as text
 * or JSON (analysis/compare_print.h), draw it with --plot, and gate CI
 * with --fail-on-regression (Holm).  Number sides get ministat's table
 * first.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/compare_input.h"
#include "analysis/compare_print.h"
#include "analysis/ministat.h"
#include "cli/commands.h"
#include "plots/plot.h"
#include "lib/readfile.h"
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
	bool strict;                    /* --strict: no unguaranteed gate */
	double boot_cost, run_cost;     /* the plan's costs, seconds */
	bool ministat;                  /* --ministat: ministat's output only */
	bool ministat_done;             /* its table was printed */
	bool linear;                    /* --scale linear */
	const char *plot_dir;           /* --plot DIR */
	char *in;                       /* standard input, for a side "-" */
	size_t inlen;
	struct compare_files files;     /* FIFOs and pipes, read once */
};

/* ---- options ---- */

static int set_nonempty(const char *opt, const char *arg, void *field,
			int value)
{
	if (!*arg)
		return error("%s: the delimiter set is empty", opt);
	return opt_string(opt, arg, field, value);
}

static int set_scale(const char *opt, const char *arg, void *field, int value)
{
	(void)value;
	if (strcmp(arg, "auto") && strcmp(arg, "linear"))
		return error("%s: '%s' is not auto or linear", opt, arg);
	*(bool *)field = !strcmp(arg, "linear");
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
	  "(default 1)", opt_percent, FIELD(threshold), 1, 0 },
	{ "fail-on-regression", 0, "PCT", "a gate: exit 3 when a loss "
	  "beyond PCT is shown (Holm-corrected), 0 when it is ruled out for "
	  "every configuration, 4 (inconclusive) otherwise", opt_percent,
	  FIELD(fail_pct), 1, 0 },
	{ "strict", 0, NULL, "with --fail-on-regression, refuse (exit 2) a "
	  "configuration of one experiment a side, whose false-alarm rate "
	  "is not guaranteed", NULL, FIELD(strict), 0, 0 },
	{ "boot-cost", 0, "SECONDS", "what one more invocation (a boot) "
	  "costs, for the plan of an inconclusive result (default 120)",
	  opt_duration, FIELD(boot_cost), 1, 0 },
	{ "run-cost", 0, "SECONDS", "what one more run costs, above 0 "
	  "(default: the runs' mean wall time)", opt_duration, FIELD(run_cost), 0,
	  0 },
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
	{ "ministat", 0, NULL, "files of numbers: ministat's output alone "
	  "(its table, median and 'Difference at' lines), nothing of "
	  "compare's", NULL, FIELD(ministat), 0, 0 },
	{ "scale", 0, "auto|linear", "auto: ratios on log values when every "
	  "value is > 0 (default); linear: differences of arithmetic means",
	  set_scale, FIELD(linear), 0, 0 },
	{ "column", 'C', "N", "files of numbers: the column to read (default "
	  "1)", set_column, FIELD(nf.column), 0, 0 },
	{ "delimiters", 'd', "DELIMS", "files of numbers: the characters "
	  "between columns (default blanks)", set_nonempty, FIELD(nf.delims),
	  0, 0 },
};

const struct opt_cmd compare_cli = {
	"compare", "A/B comparison of selections or files", cmp_rows,
	ARRAY_SIZE(cmp_rows),
	"Under --fail-on-regression: exit 3 when a regression is shown, 4 "
	"when the gate can neither pass nor fail, 0 when it passes.",
};

static int parse_args(int argc, char **argv, struct cmp_args *a)
{
	int p;

	memset(a, 0, sizeof(*a));
	a->threshold = 1;
	a->fail_pct = -1;
	a->boot_cost = COMPARE_BOOT_COST;
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

/* ---- the command ---- */

/* The primary metric of every configuration of s, ", "-joined, each once
 * (malloc'd); "" for number files. */
static char *side_primaries(const struct compare_input *s)
{
	char *out = xstrdup(""), *t;
	size_t i, j;

	for (i = 0; s->kind != INPUT_NUMBERS && s->an && i < s->nsets; i++)
		for (j = 0; j < s->an[i].nconfigs; j++) {
			int m = s->an[i].configs[j].primary;
			const char *name = m >= 0 ? s->sets[i].metrics[m] : NULL;
			char *quoted;

			if (!name)
				continue;
			quoted = xasprintf("'%s'", name);
			if (!strstr(out, quoted)) {
				t = xasprintf("%s%s%s", out, *out ? ", " : "",
					      quoted);
				free(out);
				out = t;
			}
			free(quoted);
		}
	return out;
}

/* Do the two lists of side_primaries share no metric? */
static bool disjoint(const char *a, const char *b)
{
	char *copy = xstrdup(a), *name, *save = NULL;
	bool none = true;

	for (name = strtok_r(copy, ", ", &save); name && none;
	     name = strtok_r(NULL, ", ", &save))
		none = !strstr(b, name);
	free(copy);
	return none;
}

/*
 * Both sides loaded, yet no configuration on both: the selectors name
 * different things (another sweep, a filter on one side only...), which
 * is bad input, not a comparison of nothing.  Said after the result,
 * whose "Not compared" list shows what each side has.  Sides judged by
 * different primary metrics are different workloads or measurements: no
 * filter makes them match, and the message says so instead.
 */
static int nothing_compared(const struct compare_result *r,
			    const struct compare_input *b,
			    const struct compare_input *c)
{
	char *pb, *pc;

	if (r->n)
		return 0;
	pb = side_primaries(b);
	pc = side_primaries(c);
	if (r->nunmatched && *pb && *pc && disjoint(pb, pc))
		error("compare: nothing compared: the sides measure different "
		      "things: the baseline's configurations are judged by "
		      "%s, the candidate's by %s; compare experiments of the "
		      "same workload and primary metric", pb, pc);
	else
		error("compare: nothing compared: %s",
		      r->nunmatched ? "no configuration of the baseline "
				      "matches one of the candidate (see \"Not "
				      "compared\"); name the parameter the "
				      "sides change as a filter on both, "
				      "BASE@KEY=V1 CAND@KEY=V2"
				    : "no configuration on either side");
	error("compare: baseline '%s', candidate '%s'", b->text, c->text);
	free(pb);
	free(pc);
	return EXIT_USAGE;
}

static void write_plot(const struct cmp_args *a, const struct compare_result *r,
		       const struct compare_input *b,
		       const struct compare_input *c, int *ret)
{
	struct plot_opts po = { .out_dir = a->plot_dir, .png = true,
				.svg = true, .render = true };
	struct plot_set set;

	if (plot_compare(r, b->text, c->text, &po, &set) < 0)
		*ret = EXIT_RUNTIME;
	else
		fprintf(stderr, "contend: comparison plot written to %s/compare.png\n",
			a->plot_dir);
	plot_set_release(&set);
}

static int run(struct cmp_args *a, struct compare_input *b,
	       struct compare_input *c)
{
	struct compare_result r;
	struct compare_opts o;
	size_t nreg;
	int ret;

	ret = compare_input_load(b, a->db, &a->nf, a->in, a->inlen);
	if (!ret)
		ret = compare_input_load(c, a->db, &a->nf, a->in, a->inlen);
	if (ret)
		return ret;
	compare_inputs_overlap(b, c);
	compare_inputs_match(b, c);
	if (compare_inputs_metric(&a->metric, b, c) < 0 ||
	    compare_inputs_opts(b, c, a->metric, a->dir, a->threshold,
				a->confidence, &o) < 0)
		return EXIT_USAGE;
	o.boot_cost = a->boot_cost;
	o.run_cost = a->run_cost;
	o.linear = a->linear;
	if (compare_input_one_value(b) < 0 || compare_input_one_value(c) < 0)
		return EXIT_USAGE;
	if ((b->kind == INPUT_NUMBERS &&
	     compare_input_number_side(b, c, a->metric) < 0) ||
	    (c->kind == INPUT_NUMBERS &&
	     compare_input_number_side(c, b, a->metric) < 0))
		return EXIT_USAGE;
	if (compare_sides(&b->side, &c->side, a->metric, &o, &r) < 0)
		return EXIT_USAGE;
	nreg = a->fail_pct >= 0 ? compare_gate(&r, a->fail_pct) : 0;
	if (a->strict && r.gate_unguaranteed) {
		error("compare: --strict: %zu of %zu configurations have one "
		      "experiment a side, so the gate's false-alarm rate is "
		      "not guaranteed (docs/AB-KERNEL.md); run the baseline "
		      "at least twice (e.g. in two boots)",
		      r.gate_unguaranteed, r.n);
		compare_result_release(&r);
		return EXIT_USAGE;
	}
	if (a->json)
		compare_print_json(stdout, &r, b, c);
	else
		compare_print_text(stdout, &r, b, c);
	if (a->plot_dir && r.n)
		write_plot(a, &r, b, c, &ret);
	if (nreg)
		error("regression: %zu configuration%s slower by more than "
		      "%g%% (Holm-corrected over %zu)", nreg,
		      nreg == 1 ? "" : "s", a->fail_pct, r.n);
	else if (r.gate_inconclusive)
		error("regression gate inconclusive: %zu of %zu "
		      "configuration%s can neither pass nor fail at %g%% "
		      "(exit 4)", r.gate_inconclusive, r.n,
		      r.n == 1 ? "" : "s", a->fail_pct);
	if (!ret)
		ret = nothing_compared(&r, b, c);
	if (!ret)
		ret = compare_gate_status(&r);
	compare_result_release(&r);
	return ret;
}

/* Standard input, read once, for the side named "-" (at most one). */
static int read_stdin(struct cmp_args *a)
{
	size_t i, n = !strcmp(a->base, "-");
	int r;

	for (i = 0; i < a->ncands; i++)
		n += !strcmp(a->cands[i], "-");
	if (n > 1)
		return error("compare: only one side can be '-' (standard "
			     "input is read once)");
	if (!n)
		return 0;
	r = readfile_fd(STDIN_FILENO, NUMFILE_MAX_BYTES, &a->in, &a->inlen);
	if (r > 0)
		return error("(standard input): more than %d bytes",
			     NUMFILE_MAX_BYTES);
	if (r < 0)
		return error("(standard input): %s", strerror(errno));
	return 0;
}

/*
 * ministat's table (and with --ascii its plot) of every side, when all of
 * them are numbers (files or "-"): before the comparisons, as ministat.
 */
static int print_ministat(struct cmp_args *a)
{
	struct ministat_set set[MINISTAT_SETS];
	struct compare_input sides[MINISTAT_SETS];
	size_t i, n = a->ncands + 1;
	int ret = 0;

	if (a->json || n > MINISTAT_SETS)
		return 0;
	memset(sides, 0, sizeof(sides));
	for (i = 0; i < n && !ret; i++) {
		sides[i].text = i ? a->cands[i - 1] : a->base;
		sides[i].role = i ? "candidate" : "baseline";
		sides[i].files = &a->files;
		if (compare_input_is_file_list(sides[i].text))
			ret = 0;        /* number files, one invocation each */
		else if (compare_input_is_export(&sides[i]))
			goto out;       /* an export file: compare's tables */
		else
			ret = compare_input_resolve(&sides[i], a->db) < 0
				      ? EXIT_USAGE : 0;
		if (!ret && sides[i].db) {
			/* a database side: compare's own tables */
			if (a->ascii)
				warning("--ascii draws files of numbers only; "
					"%s is a database", sides[i].text);
			goto out;
		}
		if (!ret)
			ret = compare_input_load(&sides[i], a->db, &a->nf,
						 a->in, a->inlen);
		set[i] = (struct ministat_set){ sides[i].text, sides[i].values,
						sides[i].nvalues };
	}
	/* ministat's order: legend, plot, the table with its differences. */
	if (!ret) {
		ministat_legend(stdout, set, n);
		if ((a->ascii && ministat_plot(stdout, set, n,
					       MINISTAT_WIDTH) < 0) ||
		    ministat_table(stdout, set, n, a->confidence > 0
							 ? a->confidence
							 : 0.95) < 0)
			ret = EXIT_USAGE;
	}
	a->ministat_done = !ret;
	if (!ret && !a->ministat)
		putchar('\n');
out:
	for (i = 0; i < n; i++)
		compare_input_release(&sides[i]);
	return ret;
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_args a;
	size_t i, nreg = 0, ninc = 0;
	int ret = 0;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return opt_exit(ret);
	if (read_stdin(&a) < 0) {
		free(a.in);
		return EXIT_USAGE;
	}
	ret = print_ministat(&a);
	if (a.ministat) {
		if (!ret && !a.ministat_done) {
			error("compare: --ministat: every side must be a file of "
			      "numbers (or -), one file a side, at most %d sides, "
			      "text output", MINISTAT_SETS);
			ret = EXIT_USAGE;
		}
		free(a.in);
		return ret;
	}
	if (a.json && a.ncands > 1)
		fputs("[\n", stdout);
	/* each candidate against the baseline, loaded afresh */
	for (i = 0; i < a.ncands && (!ret || ret == EXIT_REGRESSION ||
				     ret == EXIT_INCONCLUSIVE); i++) {
		struct compare_input b = { .role = "baseline",
					   .files = &a.files };
		struct compare_input c = { .role = "candidate",
					   .files = &a.files };
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
		ninc += ret == EXIT_INCONCLUSIVE;
		a.metric = metric; /* settled per candidate */
		a.plot_dir = plot_dir;
		free(dir);
		compare_input_release(&b);
		compare_input_release(&c);
	}
	if (a.json && a.ncands > 1)
		fputs("]\n", stdout);
	/* the worst decision of the candidates: fail, then inconclusive */
	if ((!ret || ret == EXIT_INCONCLUSIVE) && nreg)
		ret = EXIT_REGRESSION;
	else if (!ret && ninc)
		ret = EXIT_INCONCLUSIVE;
	free(a.in);
	compare_files_release(&a.files);
	if (fflush(stdout) != 0 && !ret) {
		error("writing the result: %s", strerror(errno));
		ret = EXIT_RUNTIME;
	}
	return ret;
}
