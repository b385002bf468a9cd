/*
 * ministat.h - FreeBSD ministat's two pictures of several samples, for
 * `contend compare` of number files: the table (N, Min, Max, Median, Avg,
 * Stddev per sample, each marked by its symbol) and, with --ascii, the
 * distribution plot: every value as its sample's symbol on one shared
 * axis, stacked where they fall together, and per sample a bar
 * |___M_A___| spanning mean +- sd with M at the median and A at the mean.
 */
#ifndef CONTEND_MINISTAT_H
#define CONTEND_MINISTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define MINISTAT_SETS 7     /* symbols: x + * % # @ O */
#define MINISTAT_WIDTH 74   /* plot columns inside the frame */

struct summary;

struct ministat_set {
	const char *name;
	const double *x;
	size_t n;
};

/* The legend, "x name" a line per set, as ministat starts. */
void ministat_legend(FILE *f, const struct ministat_set *s, size_t n);
/*
 * The table, a line per set in ministat's columns, its median (the upper
 * middle value x[n/2] of the sorted values); with confidence > 0, under
 * every set after the first ministat's comparison with the first
 * (ministat_print_difference).  -1 (nothing printed) for more than
 * MINISTAT_SETS sets or a set stats_summarize refuses.
 */
int ministat_table(FILE *f, const struct ministat_set *s, size_t n,
		   double confidence);
/* ministat's median: x[n/2] of the sorted values (NAN when n = 0). */
double ministat_median(const double *x, size_t n);

/*
 * ministat's "Difference at C% confidence": b - a with Student's t on the
 * pooled variance (na + nb - 2 df; the quantile as its table: 3 decimals,
 * the normal one beyond 100 df), in the unit and in % of a's mean;
 * "proven" when |diff| exceeds the half-width.  -1 when a side has < 2
 * values or the confidence is not in (0, 1).
 */
struct ministat_diff {
	double confidence;
	double diff, half;      /* mean(b) - mean(a), +/- */
	double pct, pct_half;   /* the same in % of mean(a) */
	double pooled_s;
	bool proven;
};
int ministat_difference(const double *a, size_t na, const double *b,
			size_t nb, double confidence, struct ministat_diff *d);
/* Its lines, exactly as ministat prints them. */
void ministat_print_difference(FILE *f, const struct ministat_diff *d);
/*
 * The table's header and one row of it, for callers with a summary of
 * their own (compare's detail of database sides): a label padded to lw
 * columns, then N and the five figures, each width (>= 8) columns with
 * width - 5 significant digits.  The table is lw 4, width 13.
 */
void ministat_header(FILE *f, const char *label, int lw, int width);
void ministat_row(FILE *f, const char *label, int lw,
		  const struct summary *m, int width);
/* The distribution plot, width (>= 10) columns inside its frame; -1 as
 * ministat_table. */
int ministat_plot(FILE *f, const struct ministat_set *s, size_t n,
		  int width);

#endif
