/*
 * test_regimes.c - the regimes test (analysis/regimes.c): its statistic
 * against a brute-force computation written independently here and
 * hand-made samples; the flag, compare's regimes and Fisher's test; the
 * bound of docs/STATISTICS.md "Regimes" (`--bound`, `--bound-exact`).
 * The simulations of its false alarms and detection, and of its
 * critical values, are tests/test_regimes_sim.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/analysis.h"
#include "lib/util.h"
#include "tests/analysis_fixture.h"
#include "tests/regimes_sim.h"

/* ---- an independent D: every split from scratch, two-pass sums ---- */

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The sample variance of y[0..n-1], two passes. */
static double variance(const double *y, size_t n)
{
	double mean = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		mean += y[i] / (double)n;
	for (i = 0; i < n; i++)
		ss += (y[i] - mean) * (y[i] - mean);
	return ss / (double)(n - 1);
}

static double brute_d(const double *x, size_t n)
{
	double *y = malloc(n * sizeof(*y)), best = NAN;
	size_t m = (size_t)ceil(0.15 * (double)n), k, i;

	if (m < 3)
		m = 3;
	for (i = 0; i < n; i++)
		y[i] = log(x[i]);
	qsort(y, n, sizeof(*y), cmp);
	for (k = m; k + m <= n; k++) {
		double a = 0, b = 0, v1, v2, d;

		if (!(y[k] > y[k - 1]))
			continue;
		for (i = 0; i < k; i++)
			a += y[i] / (double)k;
		for (i = k; i < n; i++)
			b += y[i] / (double)(n - k);
		v1 = variance(y, k);
		v2 = variance(y + k, n - k);
		d = (b - a) / sqrt(v1 > v2 ? v1 : v2);
		if (isnan(best) || d > best)
			best = d;
	}
	free(y);
	return best;
}

static void test_statistic(void **state)
{
	static const double x[] = { 103, 97, 101, 99, 112, 100, 98, 114, 102,
				    113, 96, 104 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double y[40];
	size_t t, i;

	/* by hand: logs 0 0 .2 .2 | 1 1 1.6 1.6, the one split allowed (3 to
	 * 5 low values, not between equal ones) at 4: means .1 and 1.3,
	 * variances 4 * .01 / 3 and 4 * .09 / 3 = .12, the larger .12: D =
	 * 1.2 / sqrt(.12) = sqrt(12) (the pooled .4 / 6 gave 4.65) */
	const double h[8] = { 1, 1, exp(0.2), exp(0.2), exp(1), exp(1),
			      exp(1.6), exp(1.6) };

	(void)state;
	assert_float_equal(regimes_statistic(h, 8), sqrt(12), 1e-9);
	assert_float_equal(regimes_statistic(x, ARRAY_SIZE(x)),
			   brute_d(x, ARRAY_SIZE(x)), 1e-9);
	gsl_rng_set(r, 7);
	for (t = 0; t < 200; t++) {
		size_t n = 8 + t % 30;

		for (i = 0; i < n; i++)
			y[i] = shape_draw(r, t % 2 ? SH_EXP : SH_LOGNORMAL,
					  0, 0);
		assert_float_equal(regimes_statistic(y, n), brute_d(y, n),
				   1e-9 * fabs(brute_d(y, n)));
	}
	gsl_rng_free(r);
}

/* 7 runs at 100, 3 at 115, a little noise: two regimes, levels by hand. */
static void test_two_regimes(void **state)
{
	static const double x[] = { 100.1, 115.0, 99.9, 100.0, 114.8, 100.2,
				    99.8, 115.2, 100.0, 100.0 };
	struct regimes g;

	(void)state;
	assert_int_equal(regimes_detect(x, ARRAY_SIZE(x), 0.95, &g), 0);
	assert_true(g.tested);
	assert_true(g.multimodal);
	assert_int_equal(g.r[0].n, 7);
	assert_int_equal(g.r[1].n, 3);
	assert_float_equal(g.r[0].share, 0.7, 1e-12);
	assert_float_equal(g.r[0].level, 100.0, 1e-9);   /* 700 / 7 */
	assert_float_equal(g.r[1].level, 115.0, 1e-9);   /* 345 / 3 */
	assert_true(g.r[1].lo < 115 && g.r[1].hi > 115);
	assert_float_equal(g.r[0].min, 99.8, 0);
	assert_float_equal(g.r[1].max, 115.2, 0);
	assert_int_equal(regimes_which(&g, 100.2), 0);
	assert_int_equal(regimes_which(&g, 114.8), 1);
	assert_true(g.d > g.critical);
}

/* One regime: a symmetric pattern; too few values; a value <= 0. */
static void test_one_regime(void **state)
{
	static const double x[] = { 100, 101, 99, 102, 98, 100.5, 99.5, 103,
				    97, 100, 101.5, 98.5 };
	static const double z[] = { 1, 2, 0, 3, 4, 5, 6, 7, 8, 9 };
	struct regimes g;

	(void)state;
	regimes_detect(x, ARRAY_SIZE(x), 0.95, &g);
	assert_true(g.tested);
	assert_false(g.multimodal);
	regimes_detect(x, 7, 0.95, &g);
	assert_false(g.tested);
	regimes_detect(z, ARRAY_SIZE(z), 0.95, &g);
	assert_false(g.tested);
	assert_int_equal(regimes_detect(x, 10, 1.5, &g), -1);
	/* the critical values fall with n and stop at the last point */
	assert_true(regimes_critical(10) > regimes_critical(20));
	assert_float_equal(regimes_critical(500), regimes_critical(5000), 0);
	assert_true(isnan(regimes_critical(7)));
}

/* ---- the multimodal flag ---- */

/* 21 runs at 100 and 9 at 115, each symmetric about its level: the 115s
 * are outliers of the whole (median 100.1, MAD 0.2). */
static void bimodal_runs(struct fixture *fx)
{
	static const double lo[7] = { -0.3, -0.2, -0.1, 0, 0.1, 0.2, 0.3 };
	static const double hi[3] = { -0.2, 0, 0.2 };
	double x[30];
	size_t i, k = 0;

	for (i = 0; i < 21; i++)
		x[k++] = 100 + lo[i % 7];
	for (i = 0; i < 9; i++)
		x[k++] = 115 + hi[i % 3];
	/* interleave as a run order would */
	for (i = 0; i < 30; i++) {
		char m[64];

		snprintf(m, sizeof(m), "throughput=%.17g",
			 x[(i * 7) % 30]);
		fx_run(fx, false, RUN_OK, m, fair2, 2);
	}
}

static void test_flag(void **state)
{
	static const double one[30] = {
		100, 101, 99, 102, 98, 100.5, 99.5, 103, 97, 100, 101.5, 98.5,
		100.2, 99.8, 100.7, 99.3, 101.2, 98.8, 100, 100.4, 99.6, 102.5,
		97.5, 100.1, 99.9, 100.3, 99.7, 101.8, 98.2, 100,
	};
	struct analysis_opts o;
	struct analysis a;
	struct fixture fx;
	const struct flag *f;

	(void)state;
	analysis_opts_default(&o);
	fx_init(&fx, "regimes");
	fx_config(&fx, "two", "futex-mutex", "threads=2");
	bimodal_runs(&fx);
	fx_config(&fx, "one", "futex-mutex", "threads=4");
	add_values(&fx, one, 30);
	analyse(&fx, &o, &a);
	f = find_flag(&a, 0, "multimodal");
	assert_non_null(f);
	assert_float_equal(flag_value(f, "n_low"), 21, 0);
	assert_float_equal(flag_value(f, "share_low"), 0.7, 1e-12);
	assert_float_equal(flag_value(f, "level_low"), 100, 1e-9);
	assert_float_equal(flag_value(f, "n_high"), 9, 0);
	assert_float_equal(flag_value(f, "share_high"), 0.3, 1e-12);
	assert_float_equal(flag_value(f, "level_high"), 115, 1e-9);
	assert_true(flag_value(f, "high_ci_low") < 115);
	assert_true(flag_value(f, "high_ci_high") > 115);
	assert_non_null(strstr(f->message, "70% (21 runs) at 100"));
	assert_non_null(strstr(f->message, "30% (9 runs) at 115"));
	/* the 115s are a regime, not outliers */
	assert_int_not_equal(a.configs[0].metrics[a.configs[0].primary]
				     .s.noutliers, 0);
	assert_null(find_flag(&a, 0, "outliers"));
	assert_null(find_flag(&a, 1, "multimodal"));
	done(&fx, &a);
}

/* Contention rates 100 times apart in a third of the runs, throughput
 * unimodal: multimodal on contention_rate. */
static void test_flag_rates(void **state)
{
	struct analysis_opts o;
	struct analysis a;
	struct fixture fx;
	const struct flag *f;
	size_t i;

	(void)state;
	analysis_opts_default(&o);
	fx_init(&fx, "regimes");
	fx_config(&fx, "rates", "futex-mutex", "threads=2");
	for (i = 0; i < 12; i++) {
		char m[96];

		snprintf(m, sizeof(m), "throughput=%g contention_rate=%g",
			 100 + (double)(i % 5) - 2,
			 i % 3 ? 0.001 * (1 + 0.01 * (double)i) : 0.1);
		fx_run(&fx, false, RUN_OK, m, fair2, 2);
	}
	analyse(&fx, &o, &a);
	f = find_flag(&a, 0, "multimodal");
	assert_non_null(f);
	assert_string_equal(a.d->metrics[f->metric], "contention_rate");
	assert_float_equal(flag_value(f, "n_high"), 4, 0);
	assert_non_null(strstr(f->message, "did not contend alike"));
	done(&fx, &a);
}

/* ---- compare ---- */

/* Published values: Fisher's tea-tasting table (3 1 / 1 3), two-sided
 * p = 34/70 (R: fisher.test, 0.4857); (10 0 / 0 10): 2 / C(20, 10). */
static void test_fisher(void **state)
{
	(void)state;
	assert_float_equal(regimes_fisher(3, 1, 1, 3), 34.0 / 70.0, 1e-9);
	assert_float_equal(regimes_fisher(10, 0, 0, 10), 2.0 / 184756.0,
			   1e-15);
	assert_float_equal(regimes_fisher(5, 5, 5, 5), 1, 1e-9);
}

static void fill(double *x, size_t n, size_t nlow, double lo, double hi)
{
	static const double jitter[4] = { -0.2, 0.2, -0.1, 0.1 };
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = (i < nlow ? lo : hi) + jitter[i % 4];
}

static void test_compare_regimes(void **state)
{
	double b[20], c[20];
	struct regimes_cmp rc;

	(void)state;
	/* baseline 14 of 20 at 100, candidate 6 of 20: the mix changed */
	fill(b, 20, 14, 100, 115);
	fill(c, 20, 6, 100, 115);
	assert_int_equal(regimes_compare(b, 20, c, 20, 0.95, &rc), 0);
	assert_true(rc.g.multimodal);
	assert_float_equal(rc.share_high_base, 0.3, 1e-12);
	assert_float_equal(rc.share_high_cand, 0.7, 1e-12);
	/* (14 6 / 6 14), two-sided */
	assert_float_equal(rc.p, regimes_fisher(14, 6, 6, 14), 0);
	assert_true(rc.p < 0.05);
	assert_true(rc.differ);
	assert_non_null(strstr(rc.message, "the shares differ"));
	assert_non_null(strstr(rc.message, "within the low regime (14 and 6 "
				"runs)"));
	assert_non_null(strstr(rc.message, "within the high regime (6 and 14 "
				"runs)"));
	free(rc.message);
	/* the same mix on both sides: regimes, shares alike */
	assert_int_equal(regimes_compare(b, 20, b, 20, 0.95, &rc), 0);
	assert_true(rc.g.multimodal);
	assert_false(rc.differ);
	assert_null(strstr(rc.message, "the shares differ"));
	free(rc.message);
	/* each side one regime, 10% apart: a change, not regimes */
	for (size_t i = 0; i < 20; i++) {
		static const double spread[20] = {
			0, 1, -1, 2, -2, 0.5, -0.5, 3, -3, 0, 1.5, -1.5, 0.2,
			-0.2, 0.7, -0.7, 1.2, -1.2, 0.4, -0.4,
		};

		b[i] = 100 + spread[i];
		c[i] = 110 + spread[i];
	}
	assert_int_equal(regimes_compare(b, 20, c, 20, 0.95, &rc), 0);
	assert_false(rc.g.multimodal);
	assert_null(rc.message);
}

/* ---- the bound: the best invariant test against 70/30 itself ---- */

/*
 * log of the integral over s > 0 of s^-n exp(-SS(s) / (2 s^2)) ds, with
 * SS(s) = 1 - 2 delta s c dm + delta^2 s^2 c: the likelihood of y
 * (centred, sum of squares 1) under "the high group's mean is delta
 * standard deviations s above the low one's", its location integrated out
 * (flat) and its scale under ds / s; c = k (n - k) / n, dm the groups'
 * difference of means.  c = 0: one normal.  On a grid of log s.
 */
static double log_integral(size_t n, double delta, double c, double dm)
{
	enum { G = 400 };
	double v[G], mx = -INFINITY, lo = log(1e-3), h = (log(3) - lo) / (G - 1);
	double t = 0;
	size_t g;

	for (g = 0; g < G; g++) {
		double ls = lo + (double)g * h, sd = exp(ls);
		double ss = 1 - 2 * delta * sd * c * dm +
			    delta * delta * sd * sd * c;

		v[g] = -(double)(n - 1) * ls - ss / (2 * sd * sd);
		mx = v[g] > mx ? v[g] : mx;
	}
	for (g = 0; g < G; g++)
		t += exp(v[g] - mx);
	return mx + log(t * h);
}

/*
 * The log Bayes factor of "two regimes delta within-regime standard
 * deviations apart, a share p of the values in one of them (either)"
 * against one normal, both with location and scale unknown (Wijsman's
 * representation of the most powerful invariant test), over the threshold
 * labelings of the sorted logs (the others weigh little when delta is
 * large), each labeling with k low values weighted p^k (1-p)^(n-k) +
 * (1-p)^k p^(n-k).
 */
static double bayes_factor(const double *x, size_t n, double delta, double p)
{
	double y[64], s = 0, sst = 0, acc = 0, l0 = log_integral(n, 0, 0, 0);
	size_t i, k;

	if (n < 2 || n > ARRAY_SIZE(y))
		return NAN;
	for (i = 0; i < n; i++)
		y[i] = log(x[i]);
	qsort(y, n, sizeof(*y), cmp);
	for (i = 0; i < n; i++)
		s += y[i];
	for (i = 0; i < n; i++)
		sst += (y[i] - s / (double)n) * (y[i] - s / (double)n);
	for (k = 1; k < n; k++) {
		double a = 0, b = 0, c = (double)k * (double)(n - k) / (double)n;
		double w = pow(p, (double)k) * pow(1 - p, (double)(n - k)) +
			   pow(1 - p, (double)k) * pow(p, (double)(n - k));

		for (i = 0; i < n; i++)
			*(i < k ? &a : &b) += y[i] / sqrt(sst);
		acc += w * exp(log_integral(n, delta, c,
					    b / (double)(n - k) - a / (double)k) -
			       l0);
	}
	return acc > 0 ? log(acc) : -INFINITY;
}

/*
 * The same Bayes factor without the threshold approximation: every
 * labeling, through the mixture density itself, its location m (the low
 * regime's) and scale integrated on a grid (m in [-1.5, 1.5], 300 points;
 * log s in [log 0.01, log 1.5], 120 points) over the centred logs of sum
 * of squares 1; ds / s, dm flat.  alt 0: one normal.
 */
static double log_integral_mix(const double *y, size_t n, int alt, double p,
			       double delta)
{
	enum { NS = 120, NM = 300 };
	static double v[NS * NM];
	double ls0 = log(0.01), hs = (log(1.5) - ls0) / (NS - 1);
	double m0 = -1.5, hm = 3.0 / (NM - 1), mx = -INFINITY, t = 0;
	size_t a, b, i;

	for (a = 0; a < NS; a++) {
		double sd = exp(ls0 + (double)a * hs);

		for (b = 0; b < NM; b++) {
			double m = m0 + (double)b * hm, l = -(double)n * log(sd);

			for (i = 0; i < n; i++) {
				double z = (y[i] - m) / sd, z2 = z - delta;
				double lo = z * z < z2 * z2 ? z * z : z2 * z2;

				l -= lo / 2;
				if (alt)
					l += log(p * exp(-(z * z - lo) / 2) +
						 (1 - p) *
							 exp(-(z2 * z2 - lo) / 2));
				else
					l -= (z * z - lo) / 2;
			}
			v[a * NM + b] = l;
			mx = l > mx ? l : mx;
		}
	}
	for (a = 0; a < NS * NM; a++)
		t += exp(v[a] - mx);
	return mx + log(t * hs * hm);
}

static double bayes_factor_exact(const double *x, size_t n, double delta,
				 double p)
{
	double y[64], s = 0, sst = 0, l0, l1, l2, mx;
	size_t i;

	if (n < 2 || n > ARRAY_SIZE(y))
		return NAN;
	for (i = 0; i < n; i++)
		s += log(x[i]) / (double)n;
	for (i = 0; i < n; i++)
		sst += (log(x[i]) - s) * (log(x[i]) - s);
	for (i = 0; i < n; i++)
		y[i] = (log(x[i]) - s) / sqrt(sst);
	l0 = log_integral_mix(y, n, 0, p, delta);
	l1 = log_integral_mix(y, n, 1, p, delta);
	l2 = log_integral_mix(y, n, 1, 1 - p, delta);
	mx = l1 > l2 ? l1 : l2;
	return mx + log((exp(l1 - mx) + exp(l2 - mx)) / 2) - l0;
}

/*
 * The power at n = 20 of that test against 70/30 (or 30/70) mixtures of
 * 100 and 110 with 2% CV (delta = log(1.1) / 0.02 = 4.77), its critical
 * value the 95th percentile under normal data: no test invariant to the
 * data's location and scale that does not know which regime is the larger
 * does better with 5% false alarms on normal data (Neyman-Pearson; up to
 * the threshold labelings, or exact: --bound-exact, about a minute per
 * 1000 samples).  CONTEND_SIM_TRIALS samples (20000; exact 6000).
 */
static void bound(bool exact)
{
	size_t reps = sim_trials(exact ? 6000 : 20000), t, i, hits = 0, n = 20;
	double delta = log(1.1) / 0.02, *st = malloc(reps * sizeof(*st)), x[20];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double crit;

	gsl_rng_set(r, 777);
	for (t = 0; t < reps; t++) {
		for (i = 0; i < n; i++)
			x[i] = shape_draw(r, SH_NORMAL, 0, 0);
		st[t] = exact ? bayes_factor_exact(x, n, delta, 0.7)
			      : bayes_factor(x, n, delta, 0.7);
	}
	qsort(st, reps, sizeof(*st), cmp);
	crit = st[(size_t)(0.95 * (double)reps)];
	for (t = 0; t < reps; t++) {
		for (i = 0; i < n; i++)
			x[i] = shape_draw(r, SH_MIX, 0.7, 0.02);
		hits += (exact ? bayes_factor_exact(x, n, delta, 0.7)
			       : bayes_factor(x, n, delta, 0.7)) > crit;
	}
	printf("n = 20, 70/30, cv 2%%: the invariant Bayes test (%s) detects "
	       "%.4f (se %.4f), %zu samples\n",
	       exact ? "every labeling" : "threshold labelings",
	       (double)hits / (double)reps,
	       sim_se((double)hits / (double)reps, reps), reps);
	free(st);
	gsl_rng_free(r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statistic),
		cmocka_unit_test(test_two_regimes),
		cmocka_unit_test(test_one_regime),
		cmocka_unit_test(test_flag),
		cmocka_unit_test(test_flag_rates),
		cmocka_unit_test(test_fisher),
		cmocka_unit_test(test_compare_regimes),
	};

	if (argc > 1 && !strcmp(argv[1], "--bound")) {
		bound(false);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--bound-exact")) {
		bound(true);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
