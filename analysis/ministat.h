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

/*
 * The table, a line per set, "x name" legend first.  -1 (nothing printed)
 * for more than MINISTAT_SETS sets or a set stats_summarize refuses.
 */
int ministat_table(FILE *f, const struct ministat_set *s, size_t n);
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
