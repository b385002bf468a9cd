/*
 * regimes.c - the split test (analysis/analysis.h), the description of
 * its two groups, and the multimodal flag: a configuration whose runs fall
 * into two regimes of its primary metric, or whose contention rates are
 * an order of magnitude or more apart between runs (the runs of the other
 * regime are then not outliers: analysis/flags.c).  The critical values
 * are simulated (`build/tests/test_regimes_sim --calibrate`, and
 * `--calibrate-between` from 71 to 199) with a margin over the 95th
 * percentile: docs/STATISTICS.md, "Regimes", gives the shapes, seeds and
 * the validation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/analysis.h"
#include "lib/numfmt.h"
#include "lib/util.h"

/* n = 8, 9, ..., 200 */
static const double critical[] = {
	5.224, 5.203, 5.058, 4.945, 4.859, 4.804, 4.704, 4.667, 4.666, 4.680,
	4.696, 4.714, 4.732, 4.418, 4.402, 4.398, 4.411, 4.439, 4.474, 4.289,
	4.274, 4.265, 4.249, 4.268, 4.319, 4.383, 4.187, 4.177, 4.181, 4.168,
	4.193, 4.251, 4.290, 4.126, 4.119, 4.115, 4.118, 4.167, 4.201, 4.082,
	4.075, 4.066, 4.059, 4.108, 4.126, 4.161, 4.043, 4.039, 4.030, 4.025,
	4.067, 4.088, 4.126, 4.002, 3.994, 4.001, 4.007, 4.030, 4.063, 3.980,
	3.982, 3.984, 3.970, 3.989, 4.003, 4.053, 3.953, 3.952, 3.954, 3.959,
	3.951, 3.996, 4.004, 3.940, 3.930, 3.929, 3.932, 3.923, 3.996, 3.924,
	3.917, 3.916, 3.908, 3.909, 3.905, 3.962, 3.904, 3.895, 3.900, 3.898,
	3.893, 3.899, 3.903, 3.886, 3.880, 3.883, 3.889, 3.880, 3.881, 3.888,
	3.870, 3.879, 3.868, 3.859, 3.867, 3.863, 3.866, 3.859, 3.858, 3.854,
	3.848, 3.850, 3.854, 3.849, 3.852, 3.846, 3.842, 3.840, 3.841, 3.848,
	3.837, 3.836, 3.836, 3.831, 3.836, 3.832, 3.834, 3.830, 3.829, 3.833,
	3.826, 3.836, 3.825, 3.821, 3.824, 3.811, 3.810, 3.813, 3.823, 3.818,
	3.813, 3.819, 3.810, 3.812, 3.815, 3.808, 3.807, 3.808, 3.801, 3.809,
	3.805, 3.804, 3.798, 3.803, 3.797, 3.800, 3.793, 3.795, 3.794, 3.795,
	3.787, 3.796, 3.789, 3.791, 3.789, 3.792, 3.786, 3.787, 3.781, 3.783,
	3.780, 3.782, 3.779, 3.784, 3.782, 3.787, 3.778, 3.777, 3.778, 3.773,
	3.775, 3.774, 3.773, 3.771, 3.774, 3.774, 3.772, 3.770, 3.768, 3.765,
	3.764, 3.765, 3.760,
};

/* beyond, at the points simulated */
static const struct {
	size_t n;
	double crit;
} beyond[] = {
	{ 200, 3.760 }, { 250, 3.732 }, { 300, 3.707 }, { 400, 3.676 },
	{ 500, 3.652 },
};

double regimes_critical(size_t n)
{
	size_t i, last = ARRAY_SIZE(beyond) - 1;

	if (n < REGIMES_MIN_N)
		return NAN;
	if (n - REGIMES_MIN_N < ARRAY_SIZE(critical))
		return critical[n - REGIMES_MIN_N];
	if (n >= beyond[last].n)
		return beyond[last].crit;   /* conservative beyond */
	for (i = 1; beyond[i].n < n; i++)
		;
	/* the larger of the two simulated points around n: they fall */
	return beyond[i].n == n ? beyond[i].crit : beyond[i - 1].crit;
}

/* The smallest group a split may have. */
static size_t min_group(size_t n)
{
	size_t m = (size_t)ceil(0.15 * (double)n);

	return m < 3 ? 3 : m;
}

/*
 * D over sorted y[0..n-1]; the low group's size in *k (0: none).  The
 * groups' sums of squares come from running sums of y less its mean (so
 * that values 2% apart around log 100 keep their digits).
 */
static double split(const double *y, size_t n, size_t *best_k)
{
	size_t m = min_group(n), k;
	double mean = gsl_stats_mean(y, 1, n), s = 0, p = 0, pq = 0, best = NAN;
	double q = gsl_stats_tss_m(y, 1, n, mean);

	*best_k = 0;
	for (k = 0; k < n; k++)
		s += y[k] - mean;
	if (n < 2 * m || !(q > 0))
		return NAN;
	for (k = 1; k < n; k++) {
		double m1, m2, v1, v2, v, d;

		p += y[k - 1] - mean;
		pq += (y[k - 1] - mean) * (y[k - 1] - mean);
		/* no split inside a group of equal values */
		if (k < m || n - k < m || !(y[k] > y[k - 1]))
			continue;
		m1 = p / (double)k;
		m2 = (s - p) / (double)(n - k);
		v1 = (pq - (double)k * m1 * m1) / (double)(k - 1);
		v2 = (q - pq - (double)(n - k) * m2 * m2) / (double)(n - k - 1);
		v = v1 > v2 ? v1 : v2;
		/* two groups of equal values each: infinitely separated */
		d = v > 1e-12 * q ? (m2 - m1) / sqrt(v) : INFINITY;
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
	gsl_sort(y, 1, n);
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
	r->n = k;
	r->share = (double)k / (double)n;
	gsl_stats_minmax(&r->min, &r->max, v, 1, k); /* k >= min_group */
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

/* ---- the multimodal flag ---- */

/* Contention rates this many times apart are regimes. */
#define RATE_RATIO 10

static void add_numbers(struct flag *f, const struct regimes *g)
{
	flag_num(f, "d", g->d);
	flag_num(f, "critical", g->critical);
	flag_num(f, "n_low", (double)g->r[0].n);
	flag_num(f, "share_low", g->r[0].share);
	flag_num(f, "level_low", g->r[0].level);
	flag_num(f, "low_ci_low", g->r[0].lo);
	flag_num(f, "low_ci_high", g->r[0].hi);
	flag_num(f, "n_high", (double)g->r[1].n);
	flag_num(f, "share_high", g->r[1].share);
	flag_num(f, "level_high", g->r[1].level);
	flag_num(f, "high_ci_low", g->r[1].lo);
	flag_num(f, "high_ci_high", g->r[1].hi);
}

/* "70% (21 runs) at 100.0 [99.9, 100.1]" */
static char *regime_text(const struct regime *r)
{
	char ci[96];

	return xasprintf("%.0f%% (%zu run%s) at %s", 100 * r->share, r->n,
			 r->n == 1 ? "" : "s",
			 numfmt_ci(ci, sizeof(ci), r->level, r->lo, r->hi));
}

static void raise(const struct analysis *a, struct config_analysis *ca,
		  int m, const struct regimes *g, double mean, bool rates)
{
	char *lo = regime_text(&g->r[0]), *hi = regime_text(&g->r[1]);
	char mbuf[32], *why;
	struct flag *f;

	why = rates ? xstrdup("the runs did not contend alike")
		    : xasprintf("their mean %s describes no run, and the runs "
				"of the smaller regime are not outliers",
				numfmt(mbuf, sizeof(mbuf), mean));
	f = analysis_flag_add(ca, "multimodal", m, -1,
		"the runs of %s fall into two regimes: %s and %s (the groups "
		"are %.1f standard deviations of the wider one apart on the "
		"log scale, above the 5%% critical value %.2f at n = %zu%s): "
		"%s. "
		"Find what switches the regime (thread placement, a lock's "
		"fast or slow path, the frequency) and pin it, or compare the "
		"regimes one by one.",
		a->d->metrics[m], lo, hi, g->d, g->critical, g->n,
		rates ? ", and more than ten times apart" : "", why);
	add_numbers(f, g);
	free(why);
	free(lo);
	free(hi);
}

/* The measured values of metric m of ca, tested; false without them. */
static bool test_metric(const struct analysis *a,
			const struct config_analysis *ca, int m,
			struct regimes *g, double *mean)
{
	double *x = NULL;
	size_t n;

	if (m < 0)
		return false;
	n = analysis_values(a->d, ca->config, m, &x);
	*mean = n ? gsl_stats_mean(x, 1, n) : NAN;
	regimes_detect(x, n, a->opts.confidence, g);
	free(x);
	return g->tested;
}

bool regimes_flagged(const struct config_analysis *ca, int metric)
{
	size_t i;

	for (i = 0; i < ca->nflags; i++)
		if (!strcmp(ca->flags[i].name, "multimodal") &&
		    ca->flags[i].metric == metric)
			return true;
	return false;
}

void regimes_flag(const struct analysis *a, struct config_analysis *ca)
{
	int rate = dataset_metric(a->d, "contention_rate");
	struct regimes g;
	double mean;

	if (test_metric(a, ca, ca->primary, &g, &mean) && g.multimodal) {
		raise(a, ca, ca->primary, &g, mean, false);
		return;
	}
	if (rate >= 0 && rate != ca->primary &&
	    test_metric(a, ca, rate, &g, &mean) && g.multimodal &&
	    g.r[1].level > RATE_RATIO * g.r[0].level)
		raise(a, ca, rate, &g, mean, true);
}
