/*
 * plot_impl.h - what the figure files of one experiment share inside
 * plots/ (plot.c, sweep.c, runs.c, experiment.c; levels_plot.c takes
 * pl_put_num): the sections of the analysis, the data-file and script
 * helpers and the plot set being filled.  Not for use outside plots/: plot.h is the
 * interface.
 */
#ifndef CONTEND_PLOT_IMPL_H
#define CONTEND_PLOT_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plots/plot.h"

/* The y tics of rates and counts: SI prefixes (1.5M, 200k). */
#define SI_FORMAT "set format y '%.1s%c'\n"

/* The configurations of one workload section and what varies among them. */
struct section {
	const char *name;
	size_t n;
	size_t *cfg;            /* dataset config indices */
	size_t nvary;
	const char **vary;      /* parameter keys with more than one value */
};

struct plotter {
	const struct analysis *a;
	const struct dataset *d;
	const struct plot_opts *o;
	size_t nsections;
	struct section *sections;
	size_t *section_of;     /* config index -> its section */
	struct plot_set *out;
};

/* ---- plot.c: labels, files, scripts, what a section has ---- */

/* "section threads=2 delay=10" with the parameters that vary (but skip). */
char *pl_config_label(const struct plotter *p, const struct section *s,
		      size_t c, const char *skip);
bool pl_config_flagged(const struct plotter *p, size_t c);
/* A throughput gain the flags judged to come from fewer hand-offs. */
bool pl_config_suspect(const struct plotter *p, size_t c);
/* Some configuration of s (NULL: of the experiment) is flagged. */
bool pl_any_flagged(const struct plotter *p, const struct section *s);
/* The key entry that says what (!) means, after a plot's last entry
 * (", keyentry ..."); with marks, that open marks are flagged too. */
void pl_flag_keyentry(FILE *gp, bool marks);
/* A key or tic title: the label, "(!) " first when the config is flagged. */
char *pl_config_title(const struct plotter *p, const struct section *s,
		      size_t c);
/* BASE.dat and BASE.gp in the output directory; -1 when either fails
 * (pl_files_close closes what did open, and is -1 when a write failed). */
int pl_files_open(const struct plotter *p, const char *base, FILE **dat,
		  FILE **gp);
int pl_files_close(const struct plotter *p, const char *base, FILE *dat,
		   FILE *gp);
/* The preamble every script shares: terminal from fmt, title, style. */
void pl_script_head(const struct plotter *p, FILE *f, const char *base,
		    const char *what, int height);
/* A plot written (pl_add_file) or not drawn, with why in one line. */
void pl_add_file(struct plotter *p, const char *base, const char *title);
void pl_add_skip(struct plotter *p, const char *base, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The y axis names the metric and its unit: "throughput (ops/s)". */
void pl_set_ylabel(FILE *gp, const char *metric);
bool pl_has_metric(const struct plotter *p, size_t c, const char *name);
bool pl_section_has(const struct plotter *p, const struct section *s,
		    const char *name);
/* --metric when the section has it, else its primary; NULL when none. */
const char *pl_section_metric(const struct plotter *p,
			      const struct section *s);
/* Value of metric name for run r, NaN when absent (gnuplot skips it). */
double pl_run_value(const struct plotter *p, size_t r, const char *name);
/* A number for a data file: NaN as "NaN", which gnuplot leaves out. */
void pl_put_num(FILE *f, double v);

/* ---- plot.c: panels, one per section ---- */

/* The y tics for values up to max: SI prefixes from 10^4, else plain. */
void pl_y_format(FILE *gp, double max);
/* The largest mean-CI bound of metric over the configurations of s. */
double pl_section_max(const struct plotter *p, const struct section *s,
		      const char *metric);
/* Within a panel titled by its section: the varying parameters only. */
char *pl_panel_label(const struct plotter *p, const struct section *s,
		     size_t c);
/* The sections that have a value to draw (which[]), with their metric. */
size_t pl_drawable(const struct plotter *p, size_t *which,
		   const char **metric);
/* A grid for n panels: side by side up to 2, then two columns. */
void pl_panel_grid(FILE *gp, size_t n, const char *title);
int pl_grid_height(size_t n);
void pl_panel_title(FILE *gp, const struct section *s, const char *metric);

/* ---- the figures: 0, or -1 after error() ---- */

int plot_sweep(struct plotter *p, size_t si);        /* sweep.c */
int plot_contention(struct plotter *p, size_t si);   /* runs.c */
int plot_order(struct plotter *p);
int plot_distribution(struct plotter *p);
int plot_fairness(struct plotter *p);

/* html_observer.c: the observer-effect table of the report bundle, HTML
 * or (md) Markdown; nothing without observers */
void html_observer_table(FILE *f, const struct analysis *a, bool md);

#endif
