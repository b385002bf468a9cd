/*
 * ministat.c - ministat's table and distribution plot (compare_input.h); the
 * numbers come from stats_summarize, so they are the ones compare uses.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/compare_input.h"
#include "analysis/stats.h"

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

/* Out of memory is not a state this tool recovers from (as xmalloc). */
static char *chars(size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		abort();
	memset(p, ' ', n);
	p[n] = '\0';
	return p;
}

static const char symbols[MINISTAT_SETS] = { 'x', '+', '*', '%', '#', '@',
					     'O' };

/* The table's header and one row: a label padded to lw columns, then N
 * and the five figures, each width columns, width - 5 digits. */
static void ministat_header(FILE *f, const char *label, int lw, int width)
{
	fprintf(f, "%-*s%4s %*s %*s %*s %*s %*s\n", lw, label, "N", width,
		"Min", width, "Max", width, "Median", width, "Avg", width,
		"Stddev");
}

static void ministat_row(FILE *f, const char *label, int lw,
			 const struct summary *m, int width)
{
	const int digits = width - 5;

	fprintf(f, "%-*s%4zu %*.*g %*.*g %*.*g %*.*g ", lw, label, m->n, width,
		digits, m->min, width, digits, m->max, width, digits,
		m->median, width, digits, m->mean);
	if (isfinite(m->sd))
		fprintf(f, "%*.*g\n", width, digits, m->sd);
	else /* a single value has no spread */
		fprintf(f, "%*s\n", width, "-");
}

double ministat_median(const double *x, size_t n)
{
	double *y, m;

	if (!n)
		return NAN;
	y = malloc(n * sizeof(*y));
	if (!y)
		abort();
	memcpy(y, x, n * sizeof(*y));
	gsl_sort(y, 1, n);
	m = y[n / 2];
	free(y);
	return m;
}

/*
 * ministat's Student t: its table holds the quantiles to 3 decimals for
 * 1-100 df and the normal one beyond (checked against Debian's ministat
 * 20150715 for 4-300 df at 80, 90, 95, 98 and 99%: tests/data/ministat).
 * Its "99.5%" column holds t_{0.999}; contend's 99.5% is t_{0.9975}.
 */
static double ministat_t(double confidence, double df)
{
	double p = (1 + confidence) / 2;
	double t = df > 100 ? gsl_cdf_ugaussian_Pinv(p)
			    : gsl_cdf_tdist_Pinv(p, df);

	return round(t * 1000) / 1000;
}

static int ministat_difference(const double *a, size_t na,
			       const double *b, size_t nb, double confidence,
			       struct ministat_diff *d)
{
	double ma, mb, va, vb, df;

	memset(d, 0, sizeof(*d));
	d->confidence = confidence;
	if (na < 2 || nb < 2 || !(confidence > 0 && confidence < 1))
		return -1;
	ma = gsl_stats_mean(a, 1, na);
	mb = gsl_stats_mean(b, 1, nb);
	va = gsl_stats_variance_m(a, 1, na, ma);
	vb = gsl_stats_variance_m(b, 1, nb, mb);
	df = (double)(na + nb - 2);
	d->pooled_s = sqrt(((double)(na - 1) * va + (double)(nb - 1) * vb) /
			   df);
	d->diff = mb - ma;
	d->half = ministat_t(confidence, df) * d->pooled_s *
		  sqrt(1.0 / (double)na + 1.0 / (double)nb);
	d->pct = d->diff * 100 / ma;
	d->pct_half = d->half * 100 / ma;
	d->proven = fabs(d->diff) > d->half;
	return 0;
}

static void ministat_print_difference(FILE *f, const struct ministat_diff *d)
{
	if (!d->proven) {
		fprintf(f, "No difference proven at %.1f%% confidence\n",
			100 * d->confidence);
		return;
	}
	fprintf(f, "Difference at %.1f%% confidence\n", 100 * d->confidence);
	fprintf(f, "\t%g +/- %g\n", d->diff, d->half);
	fprintf(f, "\t%g%% +/- %g%%\n", d->pct, d->pct_half);
	fprintf(f, "\t(Student's t, pooled s = %g)\n", d->pooled_s);
}

int ministat_table(FILE *f, const struct ministat_set *s, size_t n,
		   double confidence)
{
	size_t i;

	if (n > MINISTAT_SETS)
		return -1;
	ministat_header(f, "", 1, 13);
	for (i = 0; i < n; i++) {
		const char label[2] = { symbols[i], '\0' };
		struct ministat_diff d;
		struct summary m;

		if (stats_summarize(s[i].x, s[i].n, 0.95, &m) < 0)
			return -1;
		m.median = ministat_median(s[i].x, s[i].n);
		ministat_row(f, label, 1, &m, 13);
		if (i && confidence > 0 &&
		    ministat_difference(s[0].x, s[0].n, s[i].x, s[i].n,
					confidence, &d) == 0)
			ministat_print_difference(f, &d);
	}
	return 0;
}

void ministat_legend(FILE *f, const struct ministat_set *s, size_t n)
{
	for (size_t i = 0; i < n && i < MINISTAT_SETS; i++)
		fprintf(f, "%c %s\n", symbols[i], s[i].name);
}

struct axis {
	double lo, hi;
	int width;
};

static int column(const struct axis *a, double v)
{
	double t = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
	long c = lround(t * (a->width - 1));

	return c < 0 ? 0 : c >= a->width ? a->width - 1 : (int)c;
}

static void rule(FILE *f, int width)
{
	fputc('+', f);
	for (int i = 0; i < width; i++)
		fputc('-', f);
	fputs("+\n", f);
}

/*
 * The values as symbols, stacked: row 0 is the bottom one.  Each column
 * keeps its height, so a value finds its row at once: linear in the
 * values (tied ones included) plus the grid, whose rows are the tallest
 * column's.
 */
static char *points(const struct ministat_set *s, size_t n,
		    const struct axis *a, size_t *nrows)
{
	size_t *height = calloc((size_t)a->width, sizeof(*height));
	size_t i, j, w = (size_t)a->width;
	char *grid;

	if (!height)
		abort();
	*nrows = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			size_t h = ++height[column(a, s[i].x[j])];

			if (h > *nrows)
				*nrows = h;
		}
	grid = chars(*nrows * w);
	memset(height, 0, w * sizeof(*height));
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			size_t c = (size_t)column(a, s[i].x[j]);

			grid[height[c]++ * w + c] = symbols[i];
		}
	free(height);
	return grid;
}

/* |___M_A___|: mean +- sd, the median and the mean. */
static void bar(FILE *f, const struct ministat_set *s, const struct axis *a)
{
	char *line = chars((size_t)a->width);
	struct summary m;
	int lo, hi, c;

	if (stats_summarize(s->x, s->n, 0.95, &m) == 0) {
		if (isfinite(m.sd) && m.sd > 0) {
			lo = column(a, m.mean - m.sd);
			hi = column(a, m.mean + m.sd);
			for (c = lo; c <= hi; c++)
				line[c] = '_';
			line[lo] = line[hi] = '|';
		}
		line[column(a, ministat_median(s->x, s->n))] = 'M';
		line[column(a, m.mean)] = 'A';
	}
	fprintf(f, "|%s|\n", line);
	free(line);
}

int ministat_plot(FILE *f, const struct ministat_set *s, size_t n, int width)
{
	struct axis a = { INFINITY, -INFINITY, width };
	size_t i, j, nrows;
	char *grid;

	if (n > MINISTAT_SETS || width < 10)
		return -1;
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			a.lo = fmin(a.lo, s[i].x[j]);
			a.hi = fmax(a.hi, s[i].x[j]);
		}
	grid = points(s, n, &a, &nrows);
	rule(f, width);
	for (i = nrows; i-- > 0;)
		fprintf(f, "|%.*s|\n", width, grid + i * (size_t)width);
	for (i = 0; i < n; i++)
		bar(f, &s[i], &a);
	rule(f, width);
	free(grid);
	return 0;
}
