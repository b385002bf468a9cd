/*
 * regimes.c - the split test of analysis/regimes.h and the description of
 * its two groups.  The critical values were simulated (200000 samples a
 * point and shape, seed 12345; `build/tests/test_regimes --calibrate`
 * prints them again) as the largest of the 95.2th percentiles of D under
 * four null shapes: normal and Student t(3) on the log scale and on the
 * raw scale (100 + 2 N, 100 + 2 t), to three decimals.  The 0.2-point
 * margin over the 95th keeps the false alarms at or under 5% despite the
 * simulation's own error (a standard error of 0.05 point at 200000);
 * docs/STATISTICS.md "Regimes" has the validation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/regimes.h"
#include "analysis/stats.h"
#include "lib/util.h"

static const struct {
	size_t n;
	double crit;
} critical[] = {
	{ 8, 4.847 }, { 10, 4.638 }, { 12, 4.428 }, { 14, 4.266 }, { 16, 4.130 },
	{ 18, 4.025 }, { 20, 3.987 }, { 22, 3.825 }, { 25, 3.738 }, { 28, 3.645 },
	{ 30, 3.602 }, { 35, 3.510 }, { 40, 3.445 }, { 45, 3.386 }, { 50, 3.335 },
	{ 60, 3.264 }, { 70, 3.203 }, { 80, 3.160 }, { 100, 3.093 }, { 120, 3.046 },
	{ 150, 2.995 }, { 200, 2.940 }, { 300, 2.878 }, { 500, 2.819 },
};

double regimes_critical(size_t n)
{
	size_t i, last = ARRAY_SIZE(critical) - 1;
	double t;

	if (n < REGIMES_MIN_N)
		return NAN;
	if (n >= critical[last].n)
		return critical[last].crit;   /* conservative beyond */
	for (i = 1; critical[i].n < n; i++)
		;
	/* linear between the simulated points (both sides are simulated) */
	t = (double)(n - critical[i - 1].n) /
	    (double)(critical[i].n - critical[i - 1].n);
	return critical[i - 1].crit + t * (critical[i].crit -
					   critical[i - 1].crit);
}

/* The smallest group a split may have. */
static size_t min_group(size_t n)
{
	size_t m = (size_t)ceil(0.15 * (double)n);

	return m < 3 ? 3 : m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* D over sorted y[0..n-1]; the low group's size in *k (0: none). */
static double split(const double *y, size_t n, size_t *best_k)
{
	size_t m = min_group(n), k;
	double s = 0, p = 0, mean, sst, best = NAN;

	*best_k = 0;
	for (k = 0; k < n; k++)
		s += y[k];
	mean = s / (double)n;
	sst = 0;
	for (k = 0; k < n; k++)
		sst += (y[k] - mean) * (y[k] - mean);
	if (n < 2 * m || !(sst > 0))
		return NAN;
	for (k = 1; k < n; k++) {
		double m1, m2, ssb, ssw, d;

		p += y[k - 1];
		/* no split inside a group of equal values */
		if (k < m || n - k < m || !(y[k] > y[k - 1]))
			continue;
		m1 = p / (double)k;
		m2 = (s - p) / (double)(n - k);
		ssb = (double)k * (m1 - mean) * (m1 - mean) +
		      (double)(n - k) * (m2 - mean) * (m2 - mean);
		ssw = sst - ssb;
		/* two groups of equal values each: infinitely separated */
		d = ssw > 1e-12 * sst ? (m2 - m1) / sqrt(ssw / (double)(n - 2))
				      : INFINITY;
		if (isnan(best) || d > best) {
			best = d;
			*best_k = k;
		}
	}
	return best;
}

/* Sorted logarithms of x, malloc'd; NULL when a value is not > 0. */
static double *sorted_logs(const double *x, size_t n)
{
	double *y = xmalloc((n + 1) * sizeof(*y));
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i])) {
			free(y);
			return NULL;
		}
		y[i] = log(x[i]);
	}
	qsort(y, n, sizeof(*y), cmp_double);
	return y;
}

double regimes_statistic(const double *x, size_t n)
{
	double *y = sorted_logs(x, n), d;
	size_t k;

	if (!y)
		return NAN;
	d = split(y, n, &k);
	free(y);
	return d;
}

static void describe(const double *x, size_t n, double cut, int which,
		     double confidence, struct regime *r)
{
	double *v = xmalloc((n + 1) * sizeof(*v));
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if ((x[i] > cut) == (which == 1))
			v[k++] = x[i];
	memset(r, 0, sizeof(*r));
	r->n = k;
	r->share = (double)k / (double)n;
	r->min = INFINITY;
	r->max = -INFINITY;
	for (i = 0; i < k; i++) {
		r->min = v[i] < r->min ? v[i] : r->min;
		r->max = v[i] > r->max ? v[i] : r->max;
	}
	stats_mean_ci(v, k, confidence, &r->level, &r->lo, &r->hi);
	free(v);
}

int regimes_detect(const double *x, size_t n, double confidence,
		   struct regimes *g)
{
	double *y;
	size_t k;

	if (!(confidence > 0 && confidence < 1))
		return error("confidence %g is not in (0, 1)", confidence);
	memset(g, 0, sizeof(*g));
	g->n = n;
	g->d = g->critical = g->cut = NAN;
	if (n < REGIMES_MIN_N)
		return 0;
	y = sorted_logs(x, n);
	if (!y)
		return 0;
	g->d = split(y, n, &k);
	if (k) {
		g->tested = true;
		g->critical = regimes_critical(n);
		g->multimodal = g->d > g->critical;
		/* halfway on the log scale between the groups' nearest values:
		 * no value of x lies near it, whatever exp(log()) rounds */
		g->cut = exp((y[k - 1] + y[k]) / 2);
		describe(x, n, g->cut, 0, confidence, &g->r[0]);
		describe(x, n, g->cut, 1, confidence, &g->r[1]);
	}
	free(y);
	return 0;
}

int regimes_which(const struct regimes *g, double v)
{
	return v > g->cut;
}
