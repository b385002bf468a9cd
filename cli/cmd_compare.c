/*
 * cmd_compare.c - `contend compare BASE CAND [CAND...]`: its options, and
 * per candidate one call, compare_run (analysis/compare.h: both
 * sides loaded, whatever they are, compared, gated), whose result is
 * printed as text or JSON (analysis/compare.h), drawn with --plot,
 * put on a page with its figure with --html (plots/plot.h) and followed
 * by what must be said after it.  Number sides get ministat's table
 * first (or alone, --ministat).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/escape.h"
#include "analysis/compare.h"
#include "cli/commands.h"
#include "plots/plot.h"
#include "lib/readfile.h"
#include "lib/util.h"

enum { FMT_TEXT, FMT_JSON, FMT_MAIL };

struct cmp_args {
	struct compare_request q;       /* q.cand: the one being compared */
	int format;                     /* FMT_TEXT, FMT_JSON, FMT_MAIL */
	bool verbose;                   /* mail: every secondary metric */
	struct opt_words cands;         /* every CAND, n >= 1 */
	bool ascii;                     /* --ascii: ministat's plot */
	bool ministat;                  /* --ministat: ministat's output only */
	const char *plot_dir;           /* --plot DIR */
	const char *html_dir;           /* --html DIR */
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

static int set_column(const char *opt, const char *arg, void *field,
		      int value)
{
	long long col;

	(void)value;
	if (parse_ll(arg, &col) < 0 || col < 1 || col > 1000000)
		return error("%s: '%s' is not a column number >= 1", opt,
			     escape_quote(arg));
	*(long *)field = (long)col;
	return 0;
}

#define FIELD(f) offsetof(struct cmp_args, f)

static const struct opt cmp_rows[] = {
	{ NULL, 0, "BASE", "the baseline: " SELECTOR_TEXT ", a database, a "
	  "file of numbers (comma-joined: one per invocation), a 'contend "
	  "export' CSV file, or - (standard input)", NULL, FIELD(q.base), 0,
	  0 },
	{ NULL, 0, "CAND", "the candidates, each compared with BASE; named "
	  "as BASE", NULL, FIELD(cands), 0, OPT_MANY },
	DB_ROW(FIELD(q.db)),
	{ "metric", 0, "M", "the metric compared (default throughput; "
	  "\"value\" for numbers)", NULL, FIELD(q.metric), 0, 0 },
	{ "format", 0, "text|json|mail", "the output (default text); mail: "
	  "72 columns, for a mailing list", opt_choice, FIELD(format), 0, 0 },
	{ "verbose", 0, NULL, "mail: every secondary metric of a row", NULL,
	  FIELD(verbose), 0, 0 },
	{ "threshold", 0, "PCT", "changes smaller than PCT are no change "
	  "(default 1)", opt_percent, FIELD(q.opts.threshold_pct), 1, 0 },
	{ "fail-on-regression", 0, "PCT", "a gate: exit 3 when a loss "
	  "beyond PCT is shown (Holm-corrected), 0 when it is ruled out for "
	  "every configuration, 4 (inconclusive) otherwise", opt_percent,
	  FIELD(q.fail_pct),
	  1, 0 },
	{ "strict", 0, NULL, "with --fail-on-regression, refuse (exit 2) a "
	  "configuration of one experiment a side, whose false-alarm rate "
	  "is not guaranteed", NULL, FIELD(q.strict), 0, 0 },
	{ "boot-cost", 0, "SECONDS", "what one more invocation (a boot) "
	  "costs, for the plan of an inconclusive result (default 120)",
	  opt_duration, FIELD(q.opts.boot_cost), 1, 0 },
	{ "run-cost", 0, "SECONDS", "what one more run costs, above 0 "
	  "(default: the runs' mean wall time)", opt_duration, FIELD(q.opts.run_cost), 0,
	  0 },
	{ "lower-is-better", 0, NULL, "smaller values are better (default: "
	  "the metric's direction)", opt_int, FIELD(q.opts.dir), DIR_LOWER, 0 },
	{ "higher-is-better", 0, NULL, "larger values are better", opt_int,
	  FIELD(q.opts.dir), DIR_HIGHER, 0 },
	{ "confidence", 0, "C", "of the intervals, in (0, 1) (default: the "
	  "baseline's, else 0.95)", opt_confidence, FIELD(q.opts.confidence), 0, 0 },
	{ "plot", 0, "DIR", "also draw DIR/compare.png (and .svg)", NULL,
	  FIELD(plot_dir), 0, 0 },
	{ "html", 0, "DIR", "also write DIR/compare.html: the text output "
	  "and the figure, self-contained", NULL, FIELD(html_dir), 0, 0 },
	{ "ascii", 0, NULL, "with files of numbers, ministat's plot too",
	  NULL, FIELD(ascii), 0, 0 },
	{ "ministat", 0, NULL, "files of numbers: ministat's output alone "
	  "(its table, median and 'Difference at' lines), nothing of "
	  "compare's", NULL, FIELD(ministat), 0, 0 },
	{ "scale", 0, "auto|linear", "auto: ratios on log values when every "
	  "value is > 0 (default); linear: differences of arithmetic means",
	  opt_choice, FIELD(q.opts.linear), 0, 0 },
	{ "column", 'C', "N", "files of numbers: the column to read (default "
	  "1)", set_column, FIELD(q.nf.column), 0, 0 },
	{ "delimiters", 'd', "DELIMS", "files of numbers: the characters "
	  "between columns (default blanks)", set_nonempty, FIELD(q.nf.delims),
	  0, 0 },
};

const struct opt_cmd compare_cli = {
	"compare", "A/B comparison of selections or files", cmp_rows,
	ARRAY_SIZE(cmp_rows),
	"Under --fail-on-regression: exit 3 when a regression is shown, 4 "
	"when the gate can neither pass nor fail, 0 when it passes.",
};

/* ---- the command ---- */

/* --plot DIR: the figure; --html DIR: the figure and DIR/compare.html
 * holding text, compare's text output. */
static void write_plot(const char *dir, const struct compare_outcome *o,
		       const char *text, int *ret)
{
	struct plot_opts po = { .out_dir = dir, .png = true, .svg = true,
				.render = true };
	struct plot_set set;
	char *html = text ? xasprintf("%s/compare.html", dir) : NULL;

	if (plot_compare(&o->r, o->base.text, o->cand.text, &po, &set) < 0 ||
	    (html && html_compare(text, o->base.text, o->cand.text, &set, dir,
				  html) < 0))
		*ret = EXIT_RUNTIME;
	else
		fprintf(stderr, "contend: comparison %s written to %s\n",
			html ? "page" : "plot", escape_quote(html ? html : dir));
	plot_set_release(&set);
	free(html);
}

/* Candidate i of several draws into DIR/i+1 (*made, malloc'd; NULL
 * without DIR); 0, or -1 after error() when DIR cannot be made. */
static int sub_dir(const struct cmp_args *a, const char *dir, size_t i,
		   char **made)
{
	*made = NULL;
	if (dir && a->cands.n > 1 && mkdir(dir, 0777) && errno != EEXIST)
		return error("cannot create %s: %s", escape_quote(dir),
			     strerror(errno));
	if (dir)
		*made = a->cands.n > 1 ? xasprintf("%s/%zu", dir, i + 1)
				       : xstrdup(dir);
	return 0;
}

/* Candidate i: compare_run, its result printed, drawn, said. */
static int run(struct cmp_args *a, size_t i)
{
	struct compare_outcome o;
	char *pdir, *hdir = NULL;
	int ret, plot = 0;

	/* several candidates: DIR/1/compare.png, DIR/2/... */
	if (sub_dir(a, a->plot_dir, i, &pdir) ||
	    sub_dir(a, a->html_dir, i, &hdir)) {
		free(pdir);
		return EXIT_RUNTIME;
	}
	a->q.cand = a->cands.v[i];
	if (i && a->format != FMT_JSON)
		printf("\n======== candidate %zu of %zu: %s\n\n", i + 1,
		       a->cands.n, a->q.cand);
	if (i && a->format == FMT_JSON)
		fputs(",\n", stdout);
	ret = compare_run(&a->q, &o);
	if (o.compared) {
		char *text = NULL;
		size_t len = 0;
		FILE *ms = hdir && o.r.n ? open_memstream(&text, &len) : NULL;

		if (a->format == FMT_JSON)
			compare_print_json(stdout, &o.r, &o.base, &o.cand);
		else if (a->format == FMT_MAIL)
			compare_print_mail(stdout, &o.r, &o.base, &o.cand,
					   a->verbose);
		if (ms)
			compare_print_text(ms, &o.r, &o.base, &o.cand);
		if (ms && fclose(ms))
			plot = EXIT_RUNTIME;
		if (a->format == FMT_TEXT && text)
			fputs(text, stdout);
		else if (a->format == FMT_TEXT)
			compare_print_text(stdout, &o.r, &o.base, &o.cand);
		if (pdir && o.r.n)
			write_plot(pdir, &o, NULL, &plot);
		if (text && !plot)
			write_plot(hdir, &o, text, &plot);
		free(text);
		compare_outcome_say(&o);
	}
	compare_outcome_release(&o);
	free(pdir);
	free(hdir);
	return plot && ret != EXIT_REGRESSION && ret != EXIT_INCONCLUSIVE
	       ? plot : ret;
}

/* Standard input, read once, for the side named "-" (at most one). */
static int read_stdin(struct cmp_args *a)
{
	size_t i, n = !strcmp(a->q.base, "-");
	int r;

	for (i = 0; i < a->cands.n; i++)
		n += !strcmp(a->cands.v[i], "-");
	if (n > 1)
		return error("compare: only one side can be '-' (standard "
			     "input is read once)");
	if (!n)
		return 0;
	r = readfile_fd(STDIN_FILENO, NUMFILE_MAX_BYTES, &a->q.in, &a->q.inlen);
	if (r > 0)
		return error("(standard input): more than %d bytes",
			     NUMFILE_MAX_BYTES);
	if (r < 0)
		return error("(standard input): %s", strerror(errno));
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct cmp_args a;
	size_t i, nreg = 0, ninc = 0;
	bool done = false;              /* ministat's table printed */
	int ret = 0;

	memset(&a, 0, sizeof(a));
	compare_opts_default(&a.q.opts);
	a.q.opts.dir = DIR_UNKNOWN;
	a.q.opts.confidence = 0;
	a.q.fail_pct = -1;
	a.q.files = &a.files;
	numfile_opts_default(&a.q.nf);
	ret = opt_parse(&compare_cli, argc, argv, &a);
	if (ret)
		return opt_exit(ret);
	if (!a.q.db)
		a.q.db = store_default_path();
	if (read_stdin(&a) < 0) {
		free(a.q.in);
		return EXIT_USAGE;
	}
	/* all sides numbers: ministat's table (--ascii: plot) first, as it */
	if (a.format == FMT_TEXT && a.cands.n + 1 <= MINISTAT_SETS)
		ret = compare_ministat(stdout, &a.q, a.cands.v, a.cands.n,
				       a.ascii, &done);
	if (done && !a.ministat)
		putchar('\n');
	if (a.ministat) {
		if (!ret && !done) {
			error("compare: --ministat: every side must be a file of "
			      "numbers (or -), one file a side, at most %d sides, "
			      "text output", MINISTAT_SETS);
			ret = EXIT_USAGE;
		}
		free(a.q.in);
		return ret;
	}
	if ((a.format == FMT_JSON) && a.cands.n > 1)
		fputs("[\n", stdout);
	/* each candidate against the baseline, loaded afresh */
	for (i = 0; i < a.cands.n && (!ret || ret == EXIT_REGRESSION ||
				     ret == EXIT_INCONCLUSIVE); i++) {
		ret = run(&a, i);
		nreg += ret == EXIT_REGRESSION;
		ninc += ret == EXIT_INCONCLUSIVE;
	}
	if ((a.format == FMT_JSON) && a.cands.n > 1)
		fputs("]\n", stdout);
	/* the worst decision of the candidates: fail, then inconclusive */
	if ((!ret || ret == EXIT_INCONCLUSIVE) && nreg)
		ret = EXIT_REGRESSION;
	else if (!ret && ninc)
		ret = EXIT_INCONCLUSIVE;
	free(a.q.in);
	compare_files_release(&a.files);
	if (fflush(stdout) != 0 && !ret) {
		error("writing the result: %s", strerror(errno));
		ret = EXIT_RUNTIME;
	}
	return ret;
}
