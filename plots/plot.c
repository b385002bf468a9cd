/*
 * plot.c - data files and gnuplot scripts for the plots of one experiment:
 * per section, the sweep (the metric, hand-offs/s and the contention rate
 * side by side against the swept parameter: the "lockdep" figure when the
 * workload counts hand-offs, "scaling" otherwise) and the contention
 * scatter; for the experiment, run order, distribution and fairness, one
 * panel per section so that workloads of different scales never share an
 * axis.
 *
 * A plot is drawn from what the configurations have: a metric one lacks
 * is left out (NaN in the data, which gnuplot skips), never drawn as 0; a
 * plot with nothing to draw is not written, and the plot set says why in
 * one line.  Data files hold only numbers; every name reaches gnuplot as
 * a single-quoted literal written by escape_gnuplot(), inside the script.  Each
 * script picks its terminal from the variable fmt (png by default), so
 * `gnuplot -e "fmt='svg'" lockdep-1.gp` re-renders it as SVG.
 *
 * This file: the labels, files and scripts every figure shares
 * (plot_impl.h); plot_experiment, which draws them section by section, is
 * in experiment.c, the figures in sweep.c and runs.c, rendering in
 * render.c.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "analysis/report.h"
#include "lib/safefile.h"
#include "plots/plot_impl.h"
#include "db/contract.h"
#include "lib/util.h"

void plot_label_cut(char *label, size_t max)
{
	size_t cut = max - 3;

	if (strlen(label) <= max)
		return;
	while (cut && ((unsigned char)label[cut] & 0xc0) == 0x80)
		cut--;
	strcpy(label + cut, "...");
}

/* "section threads=2 delay=10" using only the parameters that vary. */
char *pl_config_label(const struct plotter *p, const struct section *s,
			  size_t c, const char *skip)
{
	const struct ds_config *cfg = &p->d->configs[c];
	size_t len = strlen(cfg->section) + 1, i;
	char *label;

	for (i = 0; i < s->nvary; i++) {
		const char *v = ds_config_param(cfg, s->vary[i]);

		len += strlen(s->vary[i]) + (v ? strlen(v) : 0) + 2;
	}
	label = xmalloc(len + 4);
	strcpy(label, p->nsections > 1 || !s->nvary ? cfg->section : "");
	for (i = 0; i < s->nvary; i++) {
		const char *v = ds_config_param(cfg, s->vary[i]);

		if (skip && !strcmp(skip, s->vary[i]))
			continue;
		if (*label)
			strcat(label, " ");
		strcat(label, s->vary[i]);
		strcat(label, "=");
		strcat(label, v ? v : "");
	}
	/* Long names would squeeze the plot off the page: keep 40 chars. */
	plot_label_cut(label, 40);
	return label;
}

bool pl_config_flagged(const struct plotter *p, size_t c)
{
	return p->a->configs[c].nflags > 0;
}

/* A throughput gain the flags judged to come from fewer hand-offs. */
bool pl_config_suspect(const struct plotter *p, size_t c)
{
	const struct config_analysis *ca = &p->a->configs[c];
	size_t i;

	for (i = 0; i < ca->nflags; i++)
		if (!strcmp(ca->flags[i].name, "misleading-throughput"))
			return true;
	return false;
}

/* A key or tic title: the label, "(!) " first when the config is flagged. */
char *pl_config_title(const struct plotter *p, const struct section *s,
			  size_t c)
{
	char *label = pl_config_label(p, s, c, NULL);
	char *title = xasprintf("%s%s", pl_config_flagged(p, c) ? "(!) " : "",
				*label ? label : p->d->configs[c].section);

	free(label);
	return title;
}

bool pl_any_flagged(const struct plotter *p, const struct section *s)
{
	size_t c;

	for (c = 0; c < (s ? s->n : p->d->nconfigs); c++)
		if (pl_config_flagged(p, s ? s->cfg[c] : c))
			return true;
	return false;
}

void pl_flag_keyentry(FILE *gp, bool marks)
{
	fputs(marks ? ", \\\n  keyentry with points pt 6 lc rgb 'black' title "
		      "'(!) and open marks: flagged; contend report says why'"
		    : ", \\\n  keyentry with points pt 1 lc rgb 'white' title "
		      "'(!) flagged: contend report says why'", gp);
}

/* Opens BASE.EXT in the output directory for writing. */
static FILE *open_named(const struct plotter *p, const char *base,
			const char *ext)
{
	char *path = xasprintf("%s/%s.%s", p->o->out_dir, base, ext);
	FILE *f = safefile_open(path);

	if (!f)
		error("%s: %s", path, strerror(errno));
	free(path);
	return f;
}

/* Opens a plot's data file BASE.dat and script BASE.gp; 0, or -1 when
 * either fails (files_close closes what did open). */
int pl_files_open(const struct plotter *p, const char *base, FILE **dat,
		      FILE **gp)
{
	*dat = open_named(p, base, "dat");
	*gp = open_named(p, base, "gp");
	return *dat && *gp ? 0 : -1;
}

/*
 * Closes a plot's data file and script, either of them possibly NULL;
 * -1 when a write to either failed (a full disk: safefile.h).
 */
int pl_files_close(const struct plotter *p, const char *base, FILE *dat,
		       FILE *gp)
{
	int ret = 0;

	if (dat && fclose(dat))
		ret = error("%s/%s.dat: %s", p->o->out_dir, base, strerror(errno));
	if (gp && fclose(gp))
		ret = error("%s/%s.gp: %s", p->o->out_dir, base, strerror(errno));
	return ret;
}

void plot_file_name(FILE *f, const char *base, const char *ext)
{
	char *name = xasprintf("%s.%s", base, ext);

	escape_gnuplot(f, name);
	free(name);
}

/*
 * The two comment lines a script opens with: what (a name, so quoted as
 * every string is: a line break in it would end the comment and start a
 * command) and how to re-render it.
 */
void plot_comment_head(FILE *f, const char *what, const char *base)
{
	fputs("# ", f);
	escape_gnuplot(f, what);
	fputs(", written by contend.\n# Re-render: gnuplot ", f);
	plot_file_name(f, base, "gp");
	fputs("   or as SVG: gnuplot -e \"fmt='svg'\" ", f);
	plot_file_name(f, base, "gp");
	fputc('\n', f);
}

/*
 * contend_stdout, set by plot_render, sends the image to stdout, whence
 * contend writes it whole or not at all (lib/safefile.h); run by hand
 * the script writes BASE.png or BASE.svg itself.
 */
void plot_terminal(FILE *f, const char *base, int height)
{
	fprintf(f, "if (!exists('fmt')) fmt = 'png'\n"
		   "if (fmt eq 'svg') {\n"
		   "    set terminal svg size 1000,%d dynamic noenhanced font 'sans,11' background rgb 'white'\n"
		   "} else {\n"
		   "    set terminal pngcairo size 1000,%d noenhanced font 'sans,10'\n"
		   "}\n"
		   "if (exists('contend_stdout')) { set output } else { set output (fmt eq 'svg' ? ",
		height, height);
	plot_file_name(f, base, "svg");
	fputs(" : ", f);
	plot_file_name(f, base, "png");
	fputs(") }\n", f);
}

/* The preamble every script shares: terminal from fmt, title, style. */
void pl_script_head(const struct plotter *p, FILE *f, const char *base,
			const char *what, int height)
{
	const struct experiment_row *e = &p->d->exp;
	const char *host = experiment_meta(e, MK_HOSTNAME);
	const char *kernel = experiment_meta(e, MK_KERNEL_RELEASE);
	char *title = xasprintf("%s of experiment %lld", what, (long long)e->id);

	plot_comment_head(f, title, base);
	free(title);
	plot_terminal(f, base, height);
	title = xasprintf("%s: %s%s%s%s — %s, %s", what, e->name,
			  *e->label ? " (" : "", e->label, *e->label ? ")" : "",
			  host ? host : "unknown host",
			  kernel ? kernel : "unknown kernel");
	fputs("set title ", f);
	escape_gnuplot(f, title);
	fputs("\nset grid\nset key outside right top\nset border 3\n"
	      "set tics nomirror\n", f);
	free(title);
}

void pl_add_file(struct plotter *p, const char *base, const char *title)
{
	struct plot_set *s = p->out;

	s->files = xrealloc(s->files, (s->n + 1) * sizeof(*s->files));
	s->files[s->n].name = xasprintf("%s.gp", base);
	s->files[s->n].title = xstrdup(title);
	s->files[s->n].rendered = false;
	s->files[s->n].skipped = NULL;
	s->n++;
}

/* A plot not drawn: its entry says why, in one line. */
void pl_add_skip(struct plotter *p, const char *base, const char *fmt, ...)
{
	struct plot_file *f;
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = xvasprintf(fmt, ap);
	va_end(ap);
	pl_add_file(p, base, base);
	f = &p->out->files[p->out->n - 1];
	f->skipped = why;
}

/* The y axis names the metric and its unit: "throughput (ops/s)". */
void pl_set_ylabel(FILE *gp, const char *metric)
{
	const char *unit = metric_unit(metric);
	char *label = *unit ? xasprintf("%s (%s)", metric, unit)
			    : xstrdup(metric);

	fputs("set ylabel ", gp);
	escape_gnuplot(gp, label);
	fputc('\n', gp);
	free(label);
}

/* ---- what a section has ---- */

bool pl_has_metric(const struct plotter *p, size_t c, const char *name)
{
	const struct metric_summary *ms = name ? analysis_metric(p->a, c, name) : NULL;

	return ms && ms->s.n > 0;
}

/* Some configuration of s has a measured value of name. */
bool pl_section_has(const struct plotter *p, const struct section *s,
			const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (pl_has_metric(p, s->cfg[i], name))
			return true;
	return false;
}

/*
 * The metric drawn for section s: --metric when the section has it, else
 * the primary metric of its first configuration that has one (a command
 * workload's own metric, ops_per_process...); NULL when none.
 */
const char *pl_section_metric(const struct plotter *p,
				  const struct section *s)
{
	size_t i;

	if (p->o->metric)
		return pl_section_has(p, s, p->o->metric) ? p->o->metric : NULL;
	for (i = 0; i < s->n; i++) {
		int m = p->a->configs[s->cfg[i]].primary;

		if (m >= 0 && pl_has_metric(p, s->cfg[i], p->d->metrics[m]))
			return p->d->metrics[m];
	}
	return NULL;
}

/* Value of metric name for run r, NaN when absent (gnuplot skips it). */
double pl_run_value(const struct plotter *p, size_t r, const char *name)
{
	return dataset_value(p->d, r, dataset_metric(p->d, name));
}

/* A number for a data file: NaN as "NaN", which gnuplot leaves out. */
void pl_put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.17g", v);
	else
		fputs(" NaN", f);
}

/* ---- one panel per section ---- */

/* The y tics for values up to max: SI prefixes from 10^4, else plain. */
void pl_y_format(FILE *gp, double max)
{
	fputs(fabs(max) >= 1e4 ? SI_FORMAT : "set format y '%g'\n", gp);
}

/* The largest mean-CI bound of metric over the configurations of s. */
double pl_section_max(const struct plotter *p, const struct section *s,
			  const char *metric)
{
	double max = 0;
	size_t c;

	for (c = 0; c < s->n; c++) {
		const struct metric_summary *ms = analysis_metric(p->a, s->cfg[c], metric);

		if (ms && ms->s.n)
			max = fmax(max, fmax(ms->s.max, ms->s.ci_high));
	}
	return max;
}

/* Within a panel titled by its section: the varying parameters only. */
char *pl_panel_label(const struct plotter *p, const struct section *s,
			 size_t c)
{
	char *label = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < s->nvary; i++) {
		const char *v = ds_config_param(&p->d->configs[c], s->vary[i]);

		t = xasprintf("%s%s%s=%s", label, *label ? " " : "", s->vary[i],
			      v ? v : "");
		free(label);
		label = t;
	}
	if (!*label) {
		free(label);
		label = xstrdup(s->name);
	}
	plot_label_cut(label, 40);
	return label;
}


/* The sections that have a value to draw, with their metric. */
size_t pl_drawable(const struct plotter *p, size_t *which,
		       const char **metric)
{
	size_t i, n = 0;

	for (i = 0; i < p->nsections; i++) {
		const char *m = pl_section_metric(p, &p->sections[i]);

		if (!m)
			continue;
		which[n] = i;
		metric[n++] = m;
	}
	return n;
}

/* A grid for n panels: side by side up to 2, then two columns. */
void pl_panel_grid(FILE *gp, size_t n, const char *title)
{
	size_t cols = n < 2 ? 1 : 2;

	fprintf(gp, "set multiplot layout %zu,%zu title ", (n + cols - 1) / cols,
		cols);
	escape_gnuplot(gp, title);
	fputs("\nunset title\n", gp);
}

int pl_grid_height(size_t n)
{
	return 120 + 380 * (int)((n + 1) / 2);
}

/* A panel's title: the section and the metric it draws. */
void pl_panel_title(FILE *gp, const struct section *s, const char *metric)
{
	char *t = xasprintf("%s: %s", s->name, metric);

	fputs("set title ", gp);
	escape_gnuplot(gp, t);
	fputc('\n', gp);
	free(t);
}

void plot_set_release(struct plot_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->files[i].name);
		free(s->files[i].title);
		free(s->files[i].skipped);
	}
	free(s->files);
	memset(s, 0, sizeof(*s));
}
