/*
 * ministat.c - FreeBSD ministat's two pictures of the sides of `contend
 * compare` when all are numbers (compare_ministat, compare_input.h): the
 * table (N, Min, Max, Median, Avg, Stddev a sample, each marked by its
 * symbol, and the "Difference at" lines) and, with --ascii, the
 * distribution plot: every value as its sample's symbol on one shared
 * axis, stacked where they fall together, and per sample a bar
 * |___M_A___| spanning mean +- sd with M at the median and A at the mean.
 * The numbers come from stats_summarize, so they are the ones compare
 * uses.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/compare_input.h"
#include "analysis/stats.h"
#include "lib/util.h"

#define MINISTAT_WIDTH 74   /* plot columns inside the frame */

struct ministat_set {
	const char *name;
	const double *x;
	size_t n;
};

static const char symbols[MINISTAT_SETS] = { 'x', '+', '*', '%', '#', '@',
					     'O' };

/* A line of n blanks (malloc'd), to draw on. */
static char *blanks(size_t n)
{
	char *p = xmalloc(n + 1);

	memset(p, ' ', n);
	p[n] = '\0';
	return p;
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

/*
 * ministat's "Difference at C% confidence" of b against a: b - a with
 * Student's t on the pooled variance (na + nb - 2 df), in the unit and in
 * % of a's mean; "proven" when |diff| exceeds the half-width.  Nothing
 * when a side has < 2 values.
 */
static void difference(FILE *f, const struct ministat_set *a,
		       const struct ministat_set *b, double confidence)
{
	double ma, mb, df, s, diff, half;

	if (a->n < 2 || b->n < 2 || !(confidence > 0 && confidence < 1))
		return;
	ma = gsl_stats_mean(a->x, 1, a->n);
	mb = gsl_stats_mean(b->x, 1, b->n);
	df = (double)(a->n + b->n - 2);
	s = sqrt(((double)(a->n - 1) * gsl_stats_variance_m(a->x, 1, a->n, ma) +
		  (double)(b->n - 1) * gsl_stats_variance_m(b->x, 1, b->n, mb)) /
		 df);
	diff = mb - ma;
	half = ministat_t(confidence, df) * s *
	       sqrt(1.0 / (double)a->n + 1.0 / (double)b->n);
	if (!(fabs(diff) > half)) {
		fprintf(f, "No difference proven at %.1f%% confidence\n",
			100 * confidence);
		return;
	}
	fprintf(f, "Difference at %.1f%% confidence\n", 100 * confidence);
	fprintf(f, "\t%g +/- %g\n", diff, half);
	fprintf(f, "\t%g%% +/- %g%%\n", diff * 100 / ma, half * 100 / ma);
	fprintf(f, "\t(Student's t, pooled s = %g)\n", s);
}

/*
 * The table, a line per set in ministat's columns; with confidence > 0,
 * under every set after the first its difference from the first.  -1
 * for a set stats_summarize refuses.
 */
static int ministat_table(FILE *f, const struct ministat_set *s, size_t n,
		   double confidence)
{
	const int w = 13, digits = w - 5;  /* ministat's columns */
	struct summary m;

	if (n > MINISTAT_SETS)
		return -1;
	fprintf(f, "%-1s%4s %*s %*s %*s %*s %*s\n", "", "N", w, "Min", w,
		"Max", w, "Median", w, "Avg", w, "Stddev");
	for (size_t i = 0; i < n; i++) {
		if (stats_summarize(s[i].x, s[i].n, 0.95, &m) < 0)
			return -1;
		fprintf(f, "%c%4zu %*.*g %*.*g %*.*g %*.*g ", symbols[i], m.n,
			w, digits, m.min, w, digits, m.max, w, digits,
			ministat_median(s[i].x, s[i].n), w, digits, m.mean);
		if (isfinite(m.sd))
			fprintf(f, "%*.*g\n", w, digits, m.sd);
		else /* a single value has no spread */
			fprintf(f, "%*s\n", w, "-");
		if (i && confidence > 0)
			difference(f, &s[0], &s[i], confidence);
	}
	return 0;
}

/* The legend, "x name" a line per set, as ministat starts. */
static void ministat_legend(FILE *f, const struct ministat_set *s, size_t n)
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
	size_t *height = xcalloc((size_t)a->width, sizeof(*height));
	size_t i, j, w = (size_t)a->width;
	char *grid;

	*nrows = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			size_t h = ++height[column(a, s[i].x[j])];

			if (h > *nrows)
				*nrows = h;
		}
	grid = blanks(*nrows * w);
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
	char *line = blanks((size_t)a->width);
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

/* The distribution plot, width (>= 10) columns inside its frame. */
static int ministat_plot(FILE *f, const struct ministat_set *s, size_t n,
			 int width)
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

/* ---- the sides of compare that are numbers ---- */

int compare_ministat(FILE *f, const struct compare_request *q,
		     const char *const *texts, size_t n, bool ascii,
		     bool *done)
{
	struct ministat_set set[MINISTAT_SETS];
	struct compare_input sides[MINISTAT_SETS];
	size_t i;
	int ret = 0;

	*done = false;
	if (n > MINISTAT_SETS)
		return 0;
	memset(sides, 0, sizeof(sides));
	for (i = 0; i < n && !ret; i++) {
		sides[i].text = texts[i];
		sides[i].role = i ? "candidate" : "baseline";
		sides[i].files = q->files;
		ret = compare_input_load(&sides[i], q, true);
		if (!ret && sides[i].kind != INPUT_NUMBERS) {
			/* a database or an export: compare's own tables */
			if (ascii && sides[i].kind == INPUT_DB)
				warning("--ascii draws files of numbers only; "
					"%s is a database", sides[i].text);
			goto out;
		}
		set[i] = (struct ministat_set){ sides[i].text, sides[i].values,
						sides[i].nvalues };
	}
	/* ministat's order: legend, plot, the table with its differences. */
	if (!ret) {
		ministat_legend(f, set, n);
		if ((ascii && ministat_plot(f, set, n, MINISTAT_WIDTH) < 0) ||
		    ministat_table(f, set, n, q->opts.confidence > 0
						      ? q->opts.confidence
						      : 0.95) < 0)
			ret = EXIT_USAGE;
	}
	*done = !ret;
out:
	for (i = 0; i < n; i++)
		compare_input_release(&sides[i]);
	return ret;
}
