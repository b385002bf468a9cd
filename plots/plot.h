/*
 * plot.h - the pictures of a performance report: for an analysed experiment
 * write, per plot, the data file, the gnuplot script (kept, so a user can
 * restyle and re-render it) and the rendered PNG and/or SVG.
 *
 * Every string that reaches a script (section names, labels, host names,
 * metric and parameter names, file names; in comments and data files
 * too) goes through escape_gnuplot() (lib/escape.h): a line break in a
 * name from a database would otherwise end a comment and start a
 * command, a quote end a string.
 */
#ifndef CONTEND_PLOT_H
#define CONTEND_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "analysis/history.h"
#include "analysis/levels.h"

struct plot_opts {
	const char *out_dir;    /* created when missing */
	bool png, svg;
	const char *x_param;    /* scaling x axis; NULL = most-swept numeric */
	const char *metric;     /* NULL = throughput */
	bool render;            /* run gnuplot (false: data + scripts only) */
};

struct plot_file {
	char *name;             /* script file name, e.g. "lockdep-1.gp" */
	char *title;            /* what the plot shows */
	bool rendered;
	char *skipped;          /* not written, and why (one line); else NULL */
};

struct plot_set {
	size_t n;
	struct plot_file *files;
};

/*
 * Writes every plot of the analysis into o->out_dir; a plot with nothing
 * to draw (no configuration of a section has the metric, no contention
 * rate...) is an entry of out with its reason in skipped and no files.
 * Returns 0, or -1 after error(); when gnuplot is missing the data and
 * scripts are still written, a message says how to install it, and the
 * return is -1.
 */
int plot_experiment(const struct analysis *a, const struct plot_opts *o,
		    struct plot_set *out);
void plot_set_release(struct plot_set *s);

/* The gnuplot terminal lines every script starts with: PNG, or SVG when
 * run with fmt='svg', into BASE.png / BASE.svg (stdout when run with
 * contend_stdout defined: plot_render), 1000 pixels wide. */
void plot_terminal(FILE *f, const char *base, int height);
/* The comment lines a script opens with: "# 'WHAT', written by contend."
 * and how to re-render BASE.gp; what is quoted as every string is. */
void plot_comment_head(FILE *f, const char *what, const char *base);
/* A label longer than max bytes cut to max - 3 and "...", never inside
 * a UTF-8 sequence (which would be shown as \xNN bytes). */
void plot_label_cut(char *label, size_t max);
/* 'BASE.EXT', a file name in a script, written as every string is. */
void plot_file_name(FILE *f, const char *base, const char *ext);

/*
 * streak.c: streak-C.dat/.gp (and images, with o->render) for every
 * configuration C whose runs recorded a timeline, read from s; appended
 * to out.  Returns 0, or -1 after error().
 */
int plot_streaks(const struct dataset *d, struct store *s,
		 const struct plot_opts *o, struct plot_set *out);

/*
 * The streak of a timeline: the longest run of consecutive intervals in
 * which one thread did 90% of the operations or more (len intervals, by
 * thread), judged before tail: under fixed work (fixed_work) the
 * intervals from the one after the first thread's last operation on,
 * where the threads left run alone because the others are done (tail ==
 * nticks: no tail, and always so for a timed run).
 */
struct plot_streak {
	size_t len, thread;
	size_t start;           /* its first interval */
	size_t tail;            /* first interval of the tail, or nticks */
	size_t done;            /* the thread that finished first */
};
void plot_streak_find(const struct run_timeline *t, bool fixed_work,
		      struct plot_streak *out);
/*
 * A run's mean streak, its mean time between hand-offs of one lock:
 * elapsed_s x locks / handoffs; NaN without hand-offs or time.
 */
double plot_mean_streak(double elapsed_s, double handoffs, double locks);
/*
 * The streak figure's verdict line (malloc'd): the longest streak, or,
 * without one, that no thread ran alone for two intervals, whether the
 * interval is coarser than the mean streak mean_s (NaN: unknown), and the
 * interval to record instead when a finer one can be.
 */
char *plot_streak_verdict(const struct run_timeline *t,
			  const struct plot_streak *s, double mean_s);

/*
 * Runs `gnuplot -e "fmt='FMT'; contend_stdout = 1" SCRIPT` in dir and
 * writes the image it prints into DIR/BASE.FMT whole or not at all
 * (lib/safefile.h); its messages shown, escaped, when it fails.  0, or
 * -1 after error().
 */
int plot_render(const char *dir, const char *script, const char *fmt);
/* True when a gnuplot executable is on PATH. */
bool plot_have_gnuplot(void);
/*
 * render.c: every plot of set not skipped rendered into o->out_dir as
 * o->png / o->svg, each entry's rendered set; -1 after error() when
 * gnuplot is missing (saying how to install it) or failed on one.
 */
int plot_render_set(const struct plot_opts *o, struct plot_set *set);
/* mkdir -p: 0, or -1 after error(). */
int plot_mkdir_p(const char *path);

/*
 * levels_plot.c: invocations.dat, invocations.gp and the images of level
 * l->levels[which], analysed (levels_analyze), in o->out_dir: a panel per
 * section; per configuration each invocation's mean, the level's mean
 * with its two-level interval and the interval of the runs pooled.
 * Returns as plot_experiment.
 */
int plot_level(const struct levels *l, size_t which,
	       const struct plot_opts *o, struct plot_set *out);

/*
 * Is value the default of parameter key of workload?  The workload
 * registry is the runner's, which plots/ cannot include: the command
 * passes it in.
 */
typedef bool (*plot_param_default_fn)(const char *workload, const char *key,
				      const char *value);
/*
 * The figure of each configuration of history h with two experiments or
 * more, DIR/history-N.png (N its position in h), a line on stderr each;
 * its title names the parameters that are not is_default (NULL: all).
 * Returns 0, or -1 after error().
 */
int plot_history(const struct history *h, const char *dir,
		 plot_param_default_fn is_default);

/*
 * compare_plot.c: compare.dat, compare.gp and the images of an A/B result
 * in o->out_dir; base and cand name the sides in the key.
 */
int plot_compare(const struct compare_result *r, const char *base,
		 const char *cand, const struct plot_opts *o,
		 struct plot_set *out);

/*
 * page.c: what every HTML page shares.  html_page_open writes the head,
 * its style and heading (escaped) into f; html_figures every figure of
 * plots found in dir, SVG else PNG, inlined as base64 with its caption;
 * html_page_close ends the page and closes f (safefile: whole or not at
 * all): 0, or -1 after error().  plot_image_name: the image of p's
 * script as NAME.ext, malloc'd.
 */
void html_page_open(FILE *f, const char *heading);
void html_figures(FILE *f, const struct plot_set *plots, const char *dir);
int html_page_close(FILE *f, const char *path);
char *plot_image_name(const struct plot_file *p, const char *ext);
/*
 * compare --html: path, a self-contained page headed "contend compare:
 * BASE vs CAND" holding text (compare's text output, header and table,
 * escaped a line at a time) and the figures of plots in dir.  0, or -1
 * after error().
 */
int html_compare(const char *text, const char *base, const char *cand,
		 const struct plot_set *plots, const char *dir,
		 const char *path);

/*
 * html.c: one self-contained HTML report (metadata, per-configuration
 * tables, flags, correlations, every plot inlined as a base64 image; no
 * external request, no script) written to path; and the Markdown version
 * for mailing lists, images as links relative to plot_dir.
 */
int html_report(const struct analysis *a, const struct plot_set *plots,
		const char *plot_dir, const char *path);
int markdown_report(const struct analysis *a, const struct plot_set *plots,
		    const char *plot_dir, FILE *f);

#endif
