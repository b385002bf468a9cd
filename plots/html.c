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

#include "plots/plot.h"
#include "runner/util.h"

static void html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* Markdown table cells: escape the characters that would break a table. */
static void md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\`*_[]<>", *s))
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

static void base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];

		fputc(tab[v >> 18], f);
		fputc(tab[(v >> 12) & 63], f);
		fputc(tab[(v >> 6) & 63], f);
		fputc(tab[v & 63], f);
	}
	if (i < n) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);

		fputc(tab[v >> 18], f);
		fputc(tab[(v >> 12) & 63], f);
		fputc(i + 1 < n ? tab[(v >> 6) & 63] : '=', f);
		fputc('=', f);
	}
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			buf = xrealloc(buf, cap);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	fclose(f);
	*len = n;
	return buf;
}

static char *image_name(const struct plot_file *p, const char *ext)
{
	size_t len = strlen(p->name);

	return xasprintf("%.*s.%s", (int)(len > 3 ? len - 3 : len), p->name, ext);
}

static const char *config_name(const struct dataset *d, size_t c)
{
	return d->configs[c].section;
}

static void html_meta(FILE *f, const struct dataset *d)
{
	const struct experiment_row *e = &d->exp;
	size_t i;

	fputs("<h2>Experiment</h2>\n<table class=\"kv\">\n", f);
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
	fputs("</td></tr>\n", f);
	for (i = 0; i < e->nmeta; i++) {
		fputs("<tr><th>", f);
		html_escape(f, e->meta[i].key);
		fputs("</th><td>", f);
		html_escape(f, e->meta[i].value);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The profile = lock run's top kernel locks by caller, when there is one. */
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

static void html_config(FILE *f, const struct analysis *a, size_t c)
{
	const struct dataset *d = a->d;
	const struct config_analysis *ca = &a->configs[c];
	size_t i;

	fputs("<section class=\"config\">\n<h3>", f);
	html_escape(f, config_name(d, c));
	fputs("</h3>\n<p class=\"canon\">", f);
	html_escape(f, d->configs[c].canon);
	fprintf(f, "</p>\n<p>%zu measured, %zu warm-up, %zu failed, %zu pending runs",
		ca->measured, ca->warmup, ca->failed, ca->pending);
	if (!isnan(ca->mean_jain))
		fprintf(f, "; fairness: mean Jain index %.3f, largest thread share %.3f",
			ca->mean_jain, ca->max_share);
	fputs(".</p>\n<table>\n<tr><th>metric</th><th>n</th><th>mean</th>"
	      "<th>CI of the mean</th><th>sd</th><th>CV</th><th>median</th>"
	      "<th>CI of the median</th><th>min</th><th>max</th><th>outliers</th></tr>\n", f);
	for (i = 0; i < ca->nmetrics; i++) {
		const struct metric_summary *m = &ca->metrics[i];

		if (!m->s.n)
			continue;
		fputs("<tr><td>", f);
		html_escape(f, d->metrics[m->metric]);
		fprintf(f, "%s</td><td>%zu</td><td>%.6g</td><td>[%.6g, %.6g]</td>"
			   "<td>%.4g</td><td>%.2f%%</td><td>%.6g</td><td>[%.6g, %.6g]</td>"
			   "<td>%.6g</td><td>%.6g</td><td>%zu</td></tr>\n",
			m->harmonic ? " (harmonic)" : "", m->s.n, m->s.mean,
			m->s.ci_low, m->s.ci_high, m->s.sd, 100 * m->s.cv,
			m->s.median, m->s.median_ci_low, m->s.median_ci_high,
			m->s.min, m->s.max, m->s.noutliers);
	}
	fputs("</table>\n", f);
	html_profile(f, &d->configs[c]);
	for (i = 0; i < ca->nflags; i++) {
		fputs("<p class=\"flag\"><b>", f);
		html_escape(f, ca->flags[i].name);
		fputs("</b>: ", f);
		html_escape(f, ca->flags[i].message ? ca->flags[i].message : "");
		fputs("</p>\n", f);
	}
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
	size_t i;

	if (!plots->n)
		return;
	fputs("<h2>Plots</h2>\n", f);
	for (i = 0; i < plots->n; i++) {
		const char *exts[] = { "svg", "png" };
		const char *mime[] = { "image/svg+xml", "image/png" };

		for (size_t k = 0; k < ARRAY_SIZE(exts); k++) {
			char *name = image_name(&plots->files[i], exts[k]);
			char *path = xasprintf("%s/%s", dir, name);
			size_t len;
			unsigned char *img = slurp(path, &len);

			free(path);
			if (!img) {
				free(name);
				continue;
			}
			/* An <img> never runs script, whatever the SVG holds. */
			fputs("<figure>\n<img alt=\"", f);
			html_escape(f, plots->files[i].title);
			fprintf(f, "\" src=\"data:%s;base64,", mime[k]);
			base64(f, img, len);
			fputs("\">\n<figcaption>", f);
			html_escape(f, name);
			fputs("</figcaption>\n</figure>\n", f);
			free(img);
			free(name);
			break;
		}
	}
}

static const char html_style[] =
	"body{font-family:sans-serif;max-width:70em;margin:1em auto;color:#111}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:90%}"
	"th,td{border:1px solid #bbb;padding:2px 6px;text-align:right}"
	"th{background:#eee}table.kv th,table.kv td{text-align:left}"
	".canon{font-family:monospace;font-size:85%;color:#444}"
	".flag{background:#fff3cd;border-left:4px solid #c90;padding:4px 8px}"
	"img{max-width:100%}figure{margin:1em 0}"
	"@media print{section,figure,table{page-break-inside:avoid}"
	"body{max-width:none}}";

int html_report(const struct analysis *a, const struct plot_set *plots,
		const char *plot_dir, const char *path)
{
	FILE *f = fopen(path, "w");
	size_t c;
	int ret;

	if (!f)
		return error("%s: %s", path, strerror(errno));
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>contend report: ", f);
	html_escape(f, a->d->exp.name);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>contend report: ",
		html_style);
	html_escape(f, a->d->exp.name);
	fputs("</h1>\n", f);
	fprintf(f, "<p>Means with Student-t %.0f%% confidence intervals; medians "
		   "with distribution-free (order statistic) intervals; measured "
		   "runs only (warm-ups and failed runs are counted, never mixed in).</p>\n",
		100 * (a->opts.confidence > 0 ? a->opts.confidence : a->d->exp.confidence));
	html_meta(f, a->d);
	fputs("<h2>Configurations</h2>\n", f);
	for (c = 0; c < a->nconfigs; c++)
		html_config(f, a, c);
	html_correlations(f, a);
	html_plots(f, plots, plot_dir);
	fputs("</body>\n</html>\n", f);
	ret = ferror(f) ? error("%s: write error", path) : 0;
	if (fclose(f))
		ret = error("%s: %s", path, strerror(errno));
	return ret;
}

int markdown_report(const struct analysis *a, const struct plot_set *plots,
		    const char *plot_dir, FILE *f)
{
	const struct dataset *d = a->d;
	size_t c, i;

	fputs("# contend report: ", f);
	md_escape(f, d->exp.name);
	fprintf(f, "\n\nExperiment %lld, label `", (long long)d->exp.id);
	md_escape(f, d->exp.label);
	fputs("`, status ", f);
	md_escape(f, d->exp.status);
	fputs(".\n\n", f);
	for (c = 0; c < a->nconfigs; c++) {
		const struct config_analysis *ca = &a->configs[c];

		fputs("## ", f);
		md_escape(f, d->configs[c].section);
		fputs("\n\n`", f);
		fputs(d->configs[c].canon, f);
		fprintf(f, "`\n\n%zu measured, %zu warm-up, %zu failed runs.\n\n",
			ca->measured, ca->warmup, ca->failed);
		fputs("| metric | n | mean | CI of the mean | CV | median | CI of the median |\n"
		      "|---|---:|---:|---|---:|---:|---|\n", f);
		for (i = 0; i < ca->nmetrics; i++) {
			const struct metric_summary *m = &ca->metrics[i];

			if (!m->s.n)
				continue;
			fputs("| ", f);
			md_escape(f, d->metrics[m->metric]);
			fprintf(f, " | %zu | %.6g | [%.6g, %.6g] | %.2f%% | %.6g | [%.6g, %.6g] |\n",
				m->s.n, m->s.mean, m->s.ci_low, m->s.ci_high,
				100 * m->s.cv, m->s.median, m->s.median_ci_low,
				m->s.median_ci_high);
		}
		fputc('\n', f);
		for (i = 0; i < ca->nflags; i++) {
			fputs("- **", f);
			md_escape(f, ca->flags[i].name);
			fputs("**: ", f);
			md_escape(f, ca->flags[i].message ? ca->flags[i].message : "");
			fputc('\n', f);
		}
		if (ca->nflags)
			fputc('\n', f);
	}
	for (i = 0; i < plots->n; i++) {
		char *png = image_name(&plots->files[i], "png");

		fprintf(f, "![%s](%s/%s)\n", plots->files[i].title, plot_dir, png);
		free(png);
	}
	return ferror(f) ? -1 : 0;
}
