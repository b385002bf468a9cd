/*
 * cmd_report.c - `contend report [--db PATH] [EXPERIMENT] [--format
 * text|json|csv] [--resolve PCT] [--handoff-drop PCT] [--confidence C]
 * [--verbose] [--host] [--metrics A,B]`:
 * opens the store read-only, loads the experiment in one call, analyses it
 * and prints it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/levels.h"
#include "analysis/report.h"
#include "lib/safefile.h"
#include "plots/plot.h"
#include "db/select.h"
#include "db/store.h"
#include "analysis/analysis.h"
#include "cli/commands.h"
#include "lib/escape.h"
#include "lib/util.h"

struct report_args {
	const char *db;
	const char *selector;
	enum report_format format;
	const char *html_dir;      /* --html DIR: self-contained report.html */
	const char *md_dir;        /* --markdown DIR: report.md + images */
	struct report_view view;   /* --verbose, --metrics a,b (text) */
	struct analysis_opts opts;
	bool exclude_kwarn;        /* --exclude-kernel-warnings */
	char *hint_db, *hint_what; /* view.db, view.what (malloc'd) */
};

/* The report's hints name the database and experiment it was read from:
 * "ID@KEY=VALUE,..." with the selector's filters. */
static void hint_names(struct report_args *ra, const struct selector *sel,
		       int64_t id)
{
	char *w = xasprintf("%lld", (long long)id), *t;
	size_t i;

	for (i = 0; i < sel->nfilters; i++) {
		t = xasprintf("%s%c%s=%s", w, i ? ',' : '@', sel->filters[i].key,
			      sel->filters[i].value);
		free(w);
		w = t;
	}
	ra->hint_db = xstrdup(sel->db);
	ra->hint_what = w;
	ra->view.db = ra->hint_db;
	ra->view.what = ra->hint_what;
}

static int set_format(const char *opt, const char *arg, void *field,
		      int value)
{
	int fmt = report_format_parse(arg);

	(void)value;
	if (fmt < 0)
		return error("%s: '%s' is not text, json, csv or mail", opt,
			     escape_quote(arg));
	*(enum report_format *)field = (enum report_format)fmt;
	return 0;
}

static int set_resolve(const char *opt, const char *arg, void *field,
		       int value)
{
	(void)value;
	return opt_number_in(opt, arg, 0, 1000, field);
}

static int set_handoff(const char *opt, const char *arg, void *field,
		       int value)
{
	(void)value;
	if (opt_number_in(opt, arg, 0, 100, field) < 0)
		return -1;
	*(double *)field /= 100;
	return 0;
}

static int set_metrics(const char *opt, const char *arg, void *field,
		       int value)
{
	(void)value;
	if (!*arg)
		return error("%s: name at least one metric", opt);
	*(const char **)field = arg;
	return 0;
}

#define FIELD(f) offsetof(struct report_args, f)

static const struct opt report_cli_rows[] = {
	DB_ROW(FIELD(db)),
	{ NULL, 0, "EXPERIMENT", "a selector, " SELECTOR_TEXT " (WHAT: an "
	  "id, uuid, name or label); default: the newest experiment; several "
	  "experiments get the levels report", NULL, FIELD(selector), 0,
	  OPT_OPTIONAL },
	{ "format", 0, "text|json|csv|mail", "the output (default text)",
	  set_format, FIELD(format), 0, 0 },
	{ "resolve", 0, "PCT", "the change an experiment should resolve, "
	  "for its advice (default 5)", set_resolve, FIELD(opts.resolve_pct),
	  0, 0 },
	{ "handoff-drop", 0, "PCT", "the throughput drop past the peak that "
	  "flags a handoff collapse (default 25)", set_handoff,
	  FIELD(opts.handoff_drop), 0, 0 },
	{ "confidence", 0, "C", "of the intervals, in (0, 1) (default: the "
	  "experiment's, else 0.95)",
	  opt_confidence, FIELD(opts.confidence), 0, 0 },
	{ "html", 0, "DIR", "write DIR/report.html, self-contained, with its "
	  "plots", NULL, FIELD(html_dir), 0, 0 },
	{ "markdown", 0, "DIR", "write DIR/report.md and its plots", NULL,
	  FIELD(md_dir), 0, 0 },
	{ "verbose", 0, NULL, "every section in full (text)", NULL,
	  FIELD(view.verbose), 0, 0 },
	{ "host", 0, NULL, "every host fact, one a line, and when it was "
	  "read (text)", NULL, FIELD(view.host), 0, 0 },
	{ "metrics", 0, "NAME,NAME...", "only these metrics' tables (text)",
	  set_metrics, FIELD(view.metrics), 0, 0 },
	{ "exclude-kernel-warnings", 0, NULL, "leave out the runs during "
	  "which the kernel logged a warning (kernel-warning)", NULL,
	  FIELD(exclude_kwarn), 0, 0 },
	{ "levels", 0, "NAME", "the same as 'contend levels NAME'", NULL, 0,
	  0, OPT_DIVERTS },
};

const struct opt_cmd report_cli = {
	"report", "summaries, intervals, correlations and flags",
	report_cli_rows, ARRAY_SIZE(report_cli_rows), NULL,
};

/* 0 parsed, else opt_parse's result. */
static int parse_args(int argc, char **argv, struct report_args *ra)
{
	ra->db = store_default_path();
	ra->selector = NULL;
	ra->format = REPORT_TEXT;
	ra->html_dir = ra->md_dir = NULL;
	ra->view = (struct report_view){ 0 };
	ra->exclude_kwarn = false;
	ra->hint_db = ra->hint_what = NULL;
	analysis_opts_default(&ra->opts);
	return opt_parse(&report_cli, argc, argv, ra);
}

/*
 * An option of report's given that only one experiment's report takes
 * (the levels report has no such thing), or NULL.
 */
static const char *one_experiment_option(const struct report_args *ra)
{
	struct analysis_opts def;

	analysis_opts_default(&def);
	if (ra->html_dir)
		return "--html";
	if (ra->md_dir)
		return "--markdown";
	if (ra->format == REPORT_CSV)
		return "--format csv";
	if (ra->view.verbose)
		return "--verbose";
	if (ra->view.metrics)
		return "--metrics";
	if (ra->view.host)
		return "--host";
	if (ra->exclude_kwarn)
		return "--exclude-kernel-warnings";
	if (!(ra->opts.resolve_pct <= def.resolve_pct &&
	      ra->opts.resolve_pct >= def.resolve_pct))
		return "--resolve";
	if (!(ra->opts.handoff_drop <= def.handoff_drop &&
	      ra->opts.handoff_drop >= def.handoff_drop))
		return "--handoff-drop";
	return NULL;
}

/*
 * Several experiments (a label or a name with more than one): the
 * levels report, which groups them as invocations, of the configurations
 * the filters keep, at report's --confidence and --format.
 */
static int report_invocations(const struct report_args *ra,
			      const struct selector *sel, struct store *s)
{
	struct levels_opts o;

	if (ra->format == REPORT_MAIL) {
		error("--format mail reports one experiment; to mail several, "
		      "`contend compare --format mail`");
		return EXIT_USAGE;
	}
	levels_opts_default(&o);
	o.confidence = ra->opts.confidence;
	return levels_print(s, sel->what, sel, &o, ra->format == REPORT_JSON);
}

/*
 * The experiment the selector names (select.h) loaded into d, its
 * configurations filtered: 0, 1 when it named several and the levels
 * report was written instead (*status its exit status), or the exit
 * status of a failure.  On 0 *sp is the store, still open: the bundle
 * reads the runs' timelines from it; the caller closes it.
 */
static int load_selected(struct report_args *ra, struct dataset *d,
			 struct store **sp, int *status)
{
	struct selector sel;
	struct store *s = NULL;
	int64_t *ids = NULL;
	char err[512], what[64];
	const char *one;
	size_t n = 0, kept = 0;
	int ret = select_open(ra->selector, ra->db, &sel, &s, &ids, &n, err,
			      sizeof(err));

	if (ret) {
		if (*err)
			error("report: %s", err);
		goto out;
	}
	if (n > 1 && (one = one_experiment_option(ra))) {
		/* The bundles, the CSV, the views and flags are one
		 * experiment's. */
		error("report: '%s' names %zu experiments, reported as "
		      "invocations in text or json; %s is one experiment's: "
		      "pick one (%s~newest, or an id)",
		      escape_quote(ra->selector), n, one,
		      escape_quote(sel.what ? sel.what : ra->selector));
		ret = EXIT_USAGE;
		goto out;
	}
	if (n > 1) {
		*status = report_invocations(ra, &sel, s);
		ret = 1;
		goto out;
	}
	ret = select_load(&sel, s, ids[0], d, &kept);
	if (!ret)
		hint_names(ra, &sel, ids[0]);
	if (!ret && !kept && sel.nfilters) {
		snprintf(what, sizeof(what), "experiment %lld",
			 (long long)ids[0]);
		ret = select_none(&sel, what, err, sizeof(err));
		error("report: %s", err);
		dataset_release(d);
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
	char *copy, *name, *save = NULL, *have, *shown;
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
		/* Metric names from a database: shown, never obeyed. */
		shown = escape_text_dup(have);
		ret = error("--metrics: experiment %lld has no metric '%s' "
			    "(it has: %s)",
			    (long long)d->exp.id, escape_quote(name),
			    shown ? shown : "?");
		free(shown);
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

	p = parse_args(argc, argv, &ra);
	/* `--levels`: the levels command, over several experiments. */
	if (p == OPT_DIVERTED)
		return cmd_levels(argc, argv);
	if (p)
		return opt_exit(p);
	p = load_selected(&ra, &d, &s, &ret);
	if (p) {
		free(ra.hint_db);
		free(ra.hint_what);
		return p == 1 ? ret : p;
	}
	if (ra.exclude_kwarn)
		fprintf(stderr, "contend: %zu measured runs with kernel "
			"warnings left out (--exclude-kernel-warnings)\n",
			kwarn_exclude(&d));
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
	free(ra.hint_db);
	free(ra.hint_what);
	return ret;
}
