/*
 * html.c - the report bundle: one self-contained HTML file (plots inlined
 * as base64 images, no external request, no script) and a Markdown version
 * for mailing lists with the images as relative links.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/flagtab.h"
#include "analysis/report.h"
#include "lib/escape.h"
#include "lib/numfmt.h"
#include "lib/safefile.h"
#include "plots/plot.h"
#include "plots/plot_impl.h"
#include "lib/readfile.h"
#include "lib/util.h"

/* HTML text and attribute values: lib/escape's, so a name never opens a
 * tag or leaves an attribute, and its control characters show. */
static void html_escape(FILE *f, const char *s)
{
	escape_html(f, s ? s : "");
}

/* Markdown text (table cells too): lib/escape's, so a name never opens
 * markup, a link or raw HTML, and never breaks a table. */
static void md_escape(FILE *f, const char *s)
{
	escape_md_text(f, s ? s : "");
}

static const char *config_name(const struct dataset *d, size_t c)
{
	return d->configs[c].section;
}

/*
 * The experiment's identity: the text report's header, every line of it
 * (report_header_lines: on what host and kernel, under what kernel
 * instruments and tracing, the runs), then its keys as a table; its host
 * facts come at the end.
 */
static void html_meta(FILE *f, const struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	char **lines;
	size_t n = report_header_lines(a, NULL, &lines), i;

	fputs("<h2>Experiment</h2>\n", f);
	for (i = 0; i < n; i++) {
		fputs("<p class=\"head\">", f);
		html_escape(f, lines[i]);
		fputs("</p>\n", f);
		free(lines[i]);
	}
	free(lines);
	fputs("<table class=\"kv\">\n", f);
	fprintf(f, "<tr><th>id</th><td>%lld</td></tr>\n", (long long)e->id);
	fputs("<tr><th>name</th><td>", f);
	html_escape(f, e->name);
	fputs("</td></tr>\n<tr><th>label</th><td>", f);
	html_escape(f, e->label);
	fputs("</td></tr>\n<tr><th>status</th><td>", f);
	html_escape(f, e->status);
	fprintf(f, "</td></tr>\n<tr><th>seed</th><td>%llu</td></tr>\n",
		(unsigned long long)e->seed);
	fputs("<tr><th>order</th><td>", f);
	html_escape(f, e->order);
	fputs("</td></tr>\n</table>\n", f);
}

/* "4.0%", or "n/a" without a CV. */
static const char *cv_text(char *b, size_t len, double cv)
{
	char v[NUMFMT_LEN];

	if (isnan(cv))
		snprintf(b, len, "%s", NUMFMT_MISSING);
	else
		snprintf(b, len, "%s%%", numfmt_sig(v, sizeof(v), 100 * cv, 2));
	return b;
}

/* An older experiment's profile = lock rows (removed in schema 5), if any. */
static void html_profile(FILE *f, const struct ds_config *cf)
{
	size_t i;

	if (!cf->nprofile)
		return;
	fputs("<p>Kernel locks by caller (one unmeasured run under "
	      "<code>perf lock contention</code>):</p>\n<table>\n<tr>"
	      "<th>contended</th><th>total wait (s)</th><th>max wait (s)</th>"
	      "<th>type</th><th>caller</th></tr>\n", f);
	for (i = 0; i < cf->nprofile; i++) {
		const struct profile_row *p = &cf->profile[i];

		fprintf(f, "<tr><td>%llu</td><td>%.4g</td><td>%.4g</td><td>",
			(unsigned long long)p->contended, p->wait_s,
			p->max_wait_s);
		html_escape(f, p->lock_type);
		fputs("</td><td>", f);
		html_escape(f, p->caller);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The kernel locks the runner's BPF program timed, by mean wait a run
 * (analysis_kwait_top, docs/KLOCK.md). */
static void html_kwait_top(FILE *f, const struct analysis *a, size_t c)
{
	struct kwait_top *t;
	size_t n = analysis_kwait_top(a, c, 10, &t), i;
	char w[NUMFMT_CI_LEN], k[NUMFMT_CI_LEN];

	if (n)
		fprintf(f, "<p>Kernel locks by wait (per run, mean [%g%% CI] "
			   "over %zu runs):</p>\n<table>\n<tr><th>wait (s)"
			   "</th><th>contentions</th><th>kind</th><th>caller"
			   "</th><th>lock</th></tr>\n",
			100 * a->opts.confidence, t[0].nruns);
	for (i = 0; i < n; i++) {
		fprintf(f, "<tr><td>%s</td><td>%s</td><td>",
			numfmt_ci(w, sizeof(w), t[i].wait_s, t[i].wait_lo,
				  t[i].wait_hi),
			numfmt_ci(k, sizeof(k), t[i].contentions,
				  t[i].contentions_lo, t[i].contentions_hi));
		html_escape(f, t[i].kind);
		fputs("</td><td>", f);
		html_escape(f, t[i].caller);
		fputs("</td><td>", f);
		html_escape(f, t[i].lock ? t[i].lock : "several");
		fputs("</td></tr>\n", f);
	}
	if (n)
		fputs("</table>\n", f);
	free(t);
}

static void html_config(FILE *f, const struct analysis *a, size_t c)
{
	const struct dataset *d = a->d;
	const struct config_analysis *ca = &a->configs[c];
	char b[6][NUMFMT_CI_LEN], *varies;
	size_t i;

	varies = report_varying(d, c, VARY_FULL);
	fprintf(f, "<section class=\"config\">\n<h3>%zu ", c + 1);
	html_escape(f, config_name(d, c));
	if (*varies) {
		fputs(": ", f);
		html_escape(f, varies);
	}
	free(varies);
	fputs("</h3>\n<p class=\"canon\">", f);
	html_escape(f, d->configs[c].canon);
	fprintf(f, "</p>\n<p>%zu measured, %zu warm-up, %zu failed, %zu pending runs",
		ca->measured, ca->warmup, ca->failed, ca->pending);
	if (!isnan(ca->mean_jain))
		fprintf(f, "; fairness: mean Jain index %.3f, largest thread share %.3f",
			ca->mean_jain, ca->max_share);
	fputs(".</p>\n<table>\n<tr><th>metric</th><th>n</th><th>mean [CI]</th>"
	      "<th>sd</th><th>CV</th><th>median [CI]</th><th>min</th><th>max</th>"
	      "<th>outliers</th></tr>\n", f);
	for (i = 0; i < ca->nmetrics; i++) {
		const struct metric_summary *m = &ca->metrics[i];

		if (!m->s.n)
			continue;
		fputs("<tr><td>", f);
		html_escape(f, d->metrics[m->metric]);
		fprintf(f, "%s</td><td>%zu</td><td>%s</td><td>%s</td><td>%s</td>"
			   "<td>%s</td><td>%s</td><td>%s</td><td>%zu</td></tr>\n",
			m->harmonic ? " (harmonic)" : "", m->s.n,
			numfmt_ci(b[0], sizeof(b[0]), m->s.mean, m->s.ci_low, m->s.ci_high),
			numfmt(b[1], sizeof(b[1]), m->s.sd), cv_text(b[2], sizeof(b[2]), m->s.cv),
			numfmt_ci(b[3], sizeof(b[3]), m->s.median, m->s.median_ci_low,
				  m->s.median_ci_high),
			numfmt(b[4], sizeof(b[4]), m->s.min),
			numfmt(b[5], sizeof(b[5]), m->s.max), m->s.noutliers);
	}
	fputs("</table>\n", f);
	html_profile(f, &d->configs[c]);
	html_kwait_top(f, a, c);
	fputs("</section>\n", f);
}

static void html_correlations(FILE *f, const struct analysis *a)
{
	size_t i;

	if (!a->ncorr)
		return;
	fputs("<h2>Correlations</h2>\n<table>\n<tr><th>section</th><th>scope</th>"
	      "<th>x</th><th>y</th><th>n</th><th>Pearson r</th><th>p</th>"
	      "<th>Spearman rho</th><th>p</th></tr>\n", f);
	for (i = 0; i < a->ncorr; i++) {
		const struct corr_row *r = &a->corr[i];

		fputs("<tr><td>", f);
		html_escape(f, r->section);
		fputs("</td><td>", f);
		if (r->config < 0)
			fputs("all runs", f);
		else
			fprintf(f, "configuration %ld", r->config + 1);
		fputs("</td><td>", f);
		html_escape(f, r->x);
		fputs("</td><td>", f);
		html_escape(f, r->y);
		fprintf(f, "</td><td>%zu</td><td>%.3f</td><td>%.3g</td><td>%.3f</td>"
			   "<td>%.3g</td></tr>\n", r->pearson.n, r->pearson.r,
			r->pearson.p, r->spearman.r, r->spearman.p);
	}
	fputs("</table>\n", f);
}

static void html_plots(FILE *f, const struct plot_set *plots, const char *dir)
{
	if (!plots->n)
		return;
	fputs("<h2>Plots</h2>\n", f);
	html_figures(f, plots, dir);
}

/* ---- the summary both faces open with ---- */

/* One writer of a cell, so HTML and Markdown share the summary's code. */
struct face {
	FILE *f;
	bool md;
};

static void put_text(const struct face *fc, const char *s)
{
	if (fc->md)
		md_escape(fc->f, s);
	else
		html_escape(fc->f, s);
}

static void row_open(const struct face *fc)
{
	fputs(fc->md ? "|" : "<tr>", fc->f);
}

static void cell(const struct face *fc, const char *s, bool head)
{
	if (fc->md) {
		fputc(' ', fc->f);
		put_text(fc, s);
		fputs(" |", fc->f);
	} else {
		fputs(head ? "<th>" : "<td>", fc->f);
		put_text(fc, s);
		fputs(head ? "</th>" : "</td>", fc->f);
	}
}

static void row_close(const struct face *fc)
{
	fputs(fc->md ? "\n" : "</tr>\n", fc->f);
}

static void heading(const struct face *fc, const char *text)
{
	if (fc->md)
		fprintf(fc->f, "\n## %s\n\n", text);
	else
		fprintf(fc->f, "<h2>%s</h2>\n", text);
}

static const char *const summary_head[] = {
	"#", "section", "varies", "metric", "value [CI]", "CV", "contended",
	"hand-offs/s", "flags",
};

/* The answer first: one row per configuration. */
static void summary_table(const struct face *fc, const struct analysis *a)
{
	struct report_row *rows;
	size_t n = report_rows(a, &rows), i, k;

	heading(fc, "Summary");
	if (!fc->md)
		fputs("<table>\n", fc->f);
	row_open(fc);
	for (k = 0; k < ARRAY_SIZE(summary_head); k++)
		cell(fc, summary_head[k], true);
	row_close(fc);
	if (fc->md)
		fputs("|---:|---|---|---|---|---:|---:|---:|---|\n", fc->f);
	for (i = 0; i < n; i++) {
		const struct report_row *r = &rows[i];
		char id[24], *value;

		snprintf(id, sizeof(id), "%zu", r->config + 1);
		if (r->primary)
			value = xasprintf("%s%s", r->value, r->mark == 'm' ? " (median)" :
					  r->mark == 'h' ? " (harmonic)" : "");
		else if (r->failed)
			value = xasprintf("all %zu runs failed: %s", r->failed,
					  r->first_error ? r->first_error : "");
		else
			value = xstrdup("no measured run");
		row_open(fc);
		cell(fc, id, false);
		cell(fc, a->d->configs[r->config].section, false);
		cell(fc, *r->varies ? r->varies : "-", false);
		cell(fc, r->metric ? r->metric : "-", false);
		cell(fc, value, false);
		cell(fc, *r->cv ? r->cv : "-", false);
		cell(fc, *r->contended ? r->contended : "-", false);
		cell(fc, *r->handoffs ? r->handoffs : "-", false);
		cell(fc, r->flags, false);
		row_close(fc);
		free(value);
	}
	if (!fc->md)
		fputs("</table>\n", fc->f);
	fprintf(fc->f, fc->md ? "\nValues are means with their %g%% interval "
				"unless marked; - is not measured.\n"
			      : "<p>Values are means with their %g%% interval unless "
				"marked; - is not measured.</p>\n",
		100 * a->opts.confidence);
	report_rows_free(rows, n);
}

/*
 * How much a flag matters (flagtab.h), for its colour: a result that is
 * not what it seems (misleading-throughput, miscalibrated) in red; one
 * that cannot be trusted as measured (noisy, drift, unfair, few-runs) in
 * amber; a note (outliers, non-normal, contention-coupled ...) in grey,
 * as is a name the table does not know.
 */
static const char *const severity_class[] = {
	[FLAG_HIGH] = "flag high", [FLAG_MID] = "flag mid",
	[FLAG_LOW] = "flag low",
};

static const char *flag_class(const char *name)
{
	const struct flag_def *d = flag_def_find(name);

	return severity_class[d ? d->level : FLAG_LOW];
}

/*
 * Every flag's message, once, with the configuration it concerns: the
 * most severe first (FV_HTML, flagtab.h), in configuration order within a
 * flag, under one heading; in HTML each coloured by its severity.
 */
static void flag_list(const struct face *fc, const struct analysis *a)
{
	size_t c, i, rank, nrank = flag_count(FV_HTML);
	bool any = false;

	for (c = 0; c < a->nconfigs && !any; c++)
		any = a->configs[c].nflags > 0;
	if (!any)
		return;
	heading(fc, "Flags");
	for (rank = 0; rank <= nrank; rank++)
		for (c = 0; c < a->nconfigs; c++)
			for (i = 0; i < a->configs[c].nflags; i++) {
				const struct flag *fl = &a->configs[c].flags[i];
				char *where;

				if (flag_place(FV_HTML, fl->name) != rank)
					continue;
				where = fl->other_config >= 0
					? xasprintf("configuration %zu (vs %ld)",
						    c + 1, fl->other_config + 1)
					: xasprintf("configuration %zu", c + 1);
				if (fc->md)
					fputs("- **", fc->f);
				else
					fprintf(fc->f, "<p class=\"%s\"><b>",
						flag_class(fl->name));
				put_text(fc, fl->name);
				fputs(fc->md ? "**, " : "</b>, ", fc->f);
				put_text(fc, where);
				fputs(": ", fc->f);
				put_text(fc, fl->message ? fl->message : "");
				fputs(fc->md ? "\n" : "</p>\n", fc->f);
				free(where);
			}
}

/* Why runs failed, per configuration and reason. */
static void failure_list(const struct face *fc, const struct analysis *a)
{
	bool head = false;
	size_t c, i;

	for (c = 0; c < a->nconfigs; c++) {
		struct report_failure *fail;
		size_t n = report_failures(a->d, c, &fail);

		for (i = 0; i < n; i++) {
			char *line = xasprintf("configuration %zu [%s]: %zu x %s (first seq %ld)",
					       c + 1, a->d->configs[c].section,
					       fail[i].count, fail[i].reason, fail[i].seq[0]);

			if (!head)
				heading(fc, "Failed runs");
			if (!head && !fc->md)
				fputs("<ul>\n", fc->f);
			head = true;
			fputs(fc->md ? "- " : "<li>", fc->f);
			put_text(fc, line);
			fputs(fc->md ? "\n" : "</li>\n", fc->f);
			free(line);
		}
		report_failures_free(fail, n);
	}
	if (head && !fc->md)
		fputs("</ul>\n", fc->f);
}

/* Every host fact as a key/value table: what to compare between runs;
 * in HTML a collapsed section (the text report's --host). */
static void host_table(const struct face *fc, const struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	size_t i;

	heading(fc, "Host");
	if (fc->md)
		fputs("| key | value |\n|---|---|\n", fc->f);
	else
		fprintf(fc->f, "<details><summary>%zu host facts</summary>\n"
			"<table class=\"kv\">\n", report_host_count(e));
	for (i = 0; i < e->nmeta; i++) {
		if (!report_host_key(e, e->meta[i].key))
			continue;
		row_open(fc);
		cell(fc, e->meta[i].key, !fc->md);
		cell(fc, e->meta[i].value, false);
		row_close(fc);
	}
	if (!fc->md)
		fputs("</table>\n</details>\n", fc->f);
}

static void methods(const struct face *fc, const struct analysis *a)
{
	heading(fc, "Methods");
	fprintf(fc->f, fc->md ? "%s%g%s\n" : "<p>%s%g%s</p>\n",
		"Means with Student-t intervals at ", 100 * a->opts.confidence,
		"% confidence; medians with distribution-free (order statistic) "
		"intervals; measured runs only (warm-ups and failed runs are "
		"counted, never mixed in); numbers show the digits their interval "
		"resolves; USER-GUIDE.md \"Reading the report\" explains the flags.");
}

int html_report(const struct analysis *a, const struct plot_set *plots,
		const char *plot_dir, const char *path)
{
	FILE *f = safefile_open(path);
	struct face fc = { f, false };
	char *heading;
	size_t c;

	if (!f)
		return error("%s: %s", path, strerror(errno));
	heading = xasprintf("contend report: %s", a->d->exp.name ? a->d->exp.name : "");
	html_page_open(f, heading);
	free(heading);
	html_meta(f, a);
	summary_table(&fc, a);
	html_observer_table(f, a, false);
	flag_list(&fc, a);
	failure_list(&fc, a);
	html_plots(f, plots, plot_dir);
	fputs("<h2>Configurations</h2>\n", f);
	for (c = 0; c < a->nconfigs; c++)
		html_config(f, a, c);
	html_correlations(f, a);
	host_table(&fc, a);
	methods(&fc, a);
	return html_page_close(f, path);
}

/* One configuration's per-metric table, in Markdown. */
static void md_config(FILE *f, const struct analysis *a, size_t c)
{
	const struct config_analysis *ca = &a->configs[c];
	char b[4][NUMFMT_CI_LEN];
	size_t i;

	fprintf(f, "### %zu ", c + 1);
	md_escape(f, a->d->configs[c].section);
	fputs("\n\n", f);
	escape_md_code(f, a->d->configs[c].canon, false);
	fprintf(f, "\n\n%zu measured, %zu warm-up, %zu failed runs.\n\n",
		ca->measured, ca->warmup, ca->failed);
	if (!ca->measured)
		return;
	fputs("| metric | n | mean [CI] | CV | median [CI] |\n"
	      "|---|---:|---|---:|---|\n", f);
	for (i = 0; i < ca->nmetrics; i++) {
		const struct metric_summary *m = &ca->metrics[i];

		if (!m->s.n)
			continue;
		fputs("| ", f);
		md_escape(f, a->d->metrics[m->metric]);
		fprintf(f, " | %zu | %s | %s | %s |\n", m->s.n,
			numfmt_ci(b[0], sizeof(b[0]), m->s.mean, m->s.ci_low, m->s.ci_high),
			cv_text(b[1], sizeof(b[1]), m->s.cv),
			numfmt_ci(b[2], sizeof(b[2]), m->s.median, m->s.median_ci_low,
				  m->s.median_ci_high));
	}
	fputc('\n', f);
}

int markdown_report(const struct analysis *a, const struct plot_set *plots,
		    const char *plot_dir, FILE *f)
{
	const struct dataset *d = a->d;
	struct face fc = { f, true };
	size_t c, i;

	fputs("# contend report: ", f);
	md_escape(f, d->exp.name);
	fprintf(f, "\n\nExperiment %lld, ", (long long)d->exp.id);
	if (d->exp.label && *d->exp.label) {
		fputs("label ", f);
		escape_md_code(f, d->exp.label, false);
	} else {
		fputs("no label", f);
	}
	fputs(", status ", f);
	md_escape(f, d->exp.status);
	fputs(".\n", f);
	summary_table(&fc, a);
	html_observer_table(f, a, true);
	flag_list(&fc, a);
	failure_list(&fc, a);
	heading(&fc, "Configurations");
	for (c = 0; c < a->nconfigs; c++)
		md_config(f, a, c);
	for (i = 0; i < plots->n; i++) {
		char *png;

		if (plots->files[i].skipped)
			continue;
		png = plot_image_name(&plots->files[i], "png");
		fputs("![", f);
		md_escape(f, plots->files[i].title);
		fprintf(f, "](%s/%s)\n", plot_dir, png);
		free(png);
	}
	host_table(&fc, a);
	methods(&fc, a);
	return ferror(f) ? -1 : 0;
}
