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

/* The distribution plot, width (>= 10) columns inside its frame; -1 as
 * ministat_table. */
int ministat_plot(FILE *f, const struct ministat_set *s, size_t n,
		  int width);

#endif
