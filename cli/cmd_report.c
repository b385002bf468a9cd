/*
 * cmd_report.c - `contend report [--db PATH] [EXPERIMENT] [--format
 * text|json|csv] [--resolve PCT] [--handoff-drop PCT] [--confidence C]
 * [--verbose] [--metrics A,B]`:
 * opens the store read-only, loads the experiment in one call, analyses it
 * and prints it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/levels.h"
#include "analysis/report.h"
#include "lib/safefile.h"
#include "plots/plot.h"
#include "db/select.h"
#include "db/store.h"
#include "cli/commands.h"
#include "lib/util.h"

struct report_args {
	const char *db;
	const char *selector;
	enum report_format format;
	const char *html_dir;      /* --html DIR: self-contained report.html */
	const char *md_dir;        /* --markdown DIR: report.md + images */
	struct report_view view;   /* --verbose, --metrics a,b (text) */
	struct analysis_opts opts;
};

enum { O_DB = 1, O_FORMAT, O_RESOLVE, O_HANDOFF, O_CONFIDENCE, O_HELP,
       O_HTML, O_MARKDOWN, O_VERBOSE, O_METRICS };

static const struct option options[] = {
	{ "db", required_argument, NULL, O_DB },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "resolve", required_argument, NULL, O_RESOLVE },
	{ "handoff-drop", required_argument, NULL, O_HANDOFF },
	{ "confidence", required_argument, NULL, O_CONFIDENCE },
	{ "help", no_argument, NULL, O_HELP },
	{ "html", required_argument, NULL, O_HTML },
	{ "markdown", required_argument, NULL, O_MARKDOWN },
	{ "verbose", no_argument, NULL, O_VERBOSE },
	{ "metrics", required_argument, NULL, O_METRICS },
	{ NULL, 0, NULL, 0 },
};

static const char usage_text[] =
	"usage: contend report [--db PATH] [EXPERIMENT] [--format text|json|csv]\n"
	"                      [--resolve PCT] [--handoff-drop PCT] [--confidence C]\n"
	"                      [--html DIR] [--markdown DIR] [--verbose]\n"
	"                      [--metrics NAME,NAME...]\n";

int report_cli_between(const char *opt, const char *text, double lo,
		       double hi, double *out)
{
	if (parse_double(text, out) < 0 || !(*out > lo && *out < hi))
		return error("--%s: '%s' is not a number between %g and %g", opt,
			     text, lo, hi);
	return 0;
}

int report_cli_parse(const struct report_cli *cli, int argc, char **argv,
		     void *args, const char **operand)
{
	int c;

	optind = 0;   /* glibc: full reset, the CLI may parse more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", cli->options, NULL)) != -1) {
		if (c == cli->help) {
			fputs(cli->usage, stdout);
			return 1;
		}
		if (c == '?' || c == ':')
			return error("report: unknown option or missing value '%s'\n%s",
				     argv[optind - 1], cli->usage);
		if (cli->option(c, optarg, args) < 0)
			return -1;
	}
	if (optind < argc && !*operand)
		*operand = argv[optind++];
	if (optind < argc)
		return error("report: unexpected argument '%s'\n%s", argv[optind],
			     cli->usage);
	return 0;
}

static int parse_option(int c, const char *arg, void *args)
{
	struct report_args *ra = args;
	int fmt;

	switch (c) {
	case O_DB:
		ra->db = arg;
		return 0;
	case O_FORMAT:
		fmt = report_format_parse(arg);
		if (fmt < 0)
			return error("--format: '%s' is not text, json or csv", arg);
		ra->format = (enum report_format)fmt;
		return 0;
	case O_RESOLVE:
		return report_cli_between("resolve", arg, 0, 1000,
					  &ra->opts.resolve_pct);
	case O_HANDOFF:
		if (report_cli_between("handoff-drop", arg, 0, 100,
				       &ra->opts.handoff_drop) < 0)
			return -1;
		ra->opts.handoff_drop /= 100;
		return 0;
	case O_CONFIDENCE:
		return report_cli_between("confidence", arg, 0, 1,
					  &ra->opts.confidence);
	case O_HTML:
		ra->html_dir = arg;
		return 0;
	case O_MARKDOWN:
		ra->md_dir = arg;
		return 0;
	case O_VERBOSE:
		ra->view.verbose = true;
		return 0;
	case O_METRICS:
		if (!*arg)
			return error("--metrics: name at least one metric");
		ra->view.metrics = arg;
		return 0;
	default:
		return -1;
	}
}

/* 0 parsed, 1 help printed, -1 usage error (printed). */
static int parse_args(int argc, char **argv, struct report_args *ra)
{
	static const struct report_cli cli = {
		options, O_HELP, usage_text, parse_option,
	};

	ra->db = store_default_path();
	ra->selector = NULL;
	ra->format = REPORT_TEXT;
	ra->html_dir = ra->md_dir = NULL;
	ra->view = (struct report_view){ 0 };
	analysis_opts_default(&ra->opts);
	return report_cli_parse(&cli, argc, argv, ra, &ra->selector);
}

/* WHAT@KEY=VALUE,... of sel within its database. */
static char *levels_selector(const struct selector *sel)
{
	char *text = xstrdup(sel->what), *t;
	size_t i;

	for (i = 0; i < sel->nfilters; i++) {
		t = xasprintf("%s%c%s=%s", text, i ? ',' : '@',
			      sel->filters[i].key, sel->filters[i].value);
		free(text);
		text = t;
	}
	return text;
}

/*
 * Several experiments (a label or a name with more than one): the
 * levels report, which groups them as invocations, of the configurations
 * the filters keep.  argv again with the selector as --levels
 * WHAT[@KEY=VALUE,...] and its database as --db.
 */
static int report_invocations(int argc, char **argv, const char *selector,
			      const struct selector *sel)
{
	char **av = xcalloc((size_t)argc + 6, sizeof(*av));
	char *what = levels_selector(sel);
	int i, n = 0, ret;

	av[n++] = argv[0];
	av[n++] = (char *)"--levels";
	av[n++] = what;
	av[n++] = (char *)"--db";
	av[n++] = sel->db;
	for (i = 1; i < argc; i++)
		if (argv[i] != selector)
			av[n++] = argv[i];
	ret = levels_report(n, av);
	free(what);
	free(av);
	return ret;
}

/*
 * The experiment the selector names (select.h) loaded into d, its
 * configurations filtered: 0, 1 when it named several and the levels
 * report was written instead (*status its exit status), or the exit
 * status of a failure.  On 0 *sp is the store, still open: the bundle
 * reads the runs' timelines from it; the caller closes it.
 */
static int load_selected(int argc, char **argv, const struct report_args *ra,
			 struct dataset *d, struct store **sp, int *status)
{
	struct selector sel;
	struct store *s = NULL;
	int64_t *ids = NULL;
	char err[512];
	size_t n = 0;
	int ret = select_open(ra->selector, ra->db, &sel, &s, &ids, &n, err,
			      sizeof(err));

	if (ret) {
		if (*err)
			error("report: %s", err);
		goto out;
	}
	if (n > 1) {
		*status = report_invocations(argc, argv, ra->selector, &sel);
		ret = 1;
		goto out;
	}
	ret = EXIT_RUNTIME;
	if (store_load(s, ids[0], d) < 0)
		goto out;
	ret = 0;
	if (!select_filter_dataset(&sel, d)) {
		error("report: no configuration of experiment %lld has %s=%s%s",
		      (long long)ids[0], sel.filters[0].key,
		      sel.filters[0].value,
		      sel.nfilters > 1 ? " and the other filters" : "");
		dataset_release(d);
		ret = EXIT_USAGE;
	}
out:
	free(ids);
	if (!ret)
		*sp = s;
	else if (s)
		store_close(s);
	select_release(&sel);
	return ret;
}

/*
 * The report bundle: plots rendered into dir (SVG for inlining, PNG for
 * the Markdown links), the streak figures of the runs with a timeline
 * (read from s), then dir/report.html or dir/report.md beside them.
 */
static int write_bundle(const struct analysis *a, struct store *s,
			const char *dir, bool html)
{
	struct plot_opts po = { .out_dir = dir, .png = !html, .svg = html,
				.render = true };
	struct plot_set set = { 0 };
	char *path = xasprintf("%s/report.%s", dir, html ? "html" : "md");
	int ret = plot_experiment(a, &po, &set);
	FILE *f;

	ret |= plot_streaks(a->d, s, &po, &set);
	/* Without gnuplot the report still comes, without its pictures. */
	if (html) {
		ret |= html_report(a, &set, dir, path);
	} else if ((f = safefile_open(path))) {
		ret |= markdown_report(a, &set, ".", f);
		if (fclose(f))
			ret = error("%s: %s", path, strerror(errno));
	} else {
		ret = error("cannot write %s: %s", path, strerror(errno));
	}
	if (!ret)
		printf("report written to %s\n", path);
	plot_set_release(&set);
	free(path);
	return ret ? -1 : 0;
}

/* --metrics names only metrics the experiment has: else an error
 * listing what it does have. */
static int unknown_metrics(const struct dataset *d, const char *list)
{
	char *copy, *name, *save = NULL, *have;
	size_t i;
	int ret = 0;

	if (!list)
		return 0;
	copy = xstrdup(list);
	for (name = strtok_r(copy, ",", &save); name && !ret;
	     name = strtok_r(NULL, ",", &save)) {
		if (dataset_metric(d, name) >= 0)
			continue;
		have = xstrdup("");
		for (i = 0; i < d->nmetrics; i++) {
			char *t = xasprintf("%s%s%s", have, i ? ", " : "",
					    d->metrics[i]);

			free(have);
			have = t;
		}
		ret = error("--metrics: experiment %lld has no metric '%s' "
			    "(it has: %s)", (long long)d->exp.id, name, have);
		free(have);
	}
	free(copy);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_args ra;
	struct dataset d = { 0 };
	struct analysis a = { 0 };
	struct store *s = NULL;
	bool analysed = false;
	int ret = EXIT_RUNTIME, p;

	/* `--levels` is its own analysis over several experiments. */
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "--levels", 8))
			return levels_report(argc, argv);
	p = parse_args(argc, argv, &ra);
	if (p)
		return p > 0 ? 0 : EXIT_USAGE;
	p = load_selected(argc, argv, &ra, &d, &s, &ret);
	if (p)
		return p == 1 ? ret : p;
	if (analysis_run(&d, &ra.opts, &a) < 0)
		goto out;
	analysed = true;
	if (ra.html_dir || ra.md_dir) {
		if (ra.html_dir && write_bundle(&a, s, ra.html_dir, true) < 0)
			goto out;
		if (ra.md_dir && write_bundle(&a, s, ra.md_dir, false) < 0)
			goto out;
	} else if (ra.format == REPORT_TEXT) {
		if (unknown_metrics(&d, ra.view.metrics)) {
			ret = EXIT_USAGE;
			goto out;
		}
		if (report_text_view(stdout, &a, &ra.view) < 0 || fflush(stdout)) {
			error("cannot write the report: %s", strerror(errno));
			goto out;
		}
	} else if (report_write(stdout, &a, ra.format) < 0 || fflush(stdout)) {
		goto out;
	}
	ret = 0;
out:
	if (analysed)
		analysis_release(&a);
	dataset_release(&d);
	store_close(s);
	return ret;
}
