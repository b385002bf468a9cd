/*
 * test_regimes.c - the regimes test (analysis/regimes.c): its statistic
 * against a brute-force computation written independently here, hand-made
 * samples, and seeded simulations of its false alarms (normal, log-normal,
 * t(3) at n = 10, 20, 50) and its detection of 70/30 and 50/50 mixtures
 * 10% apart (n = 20, 30).  The figures of docs/STATISTICS.md "Regimes" are
 * this program's: `build/tests/test_regimes --figures` prints them with
 * more samples, `--calibrate` the critical values' simulation.
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
#include "analysis/regimes.h"
#include "lib/util.h"
#include "tests/analysis_fixture.h"

/* ---- an independent D: every split from scratch, two-pass sums ---- */

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
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
		double a = 0, b = 0, w = 0, d;

		if (!(y[k] > y[k - 1]))
			continue;
		for (i = 0; i < k; i++)
			a += y[i] / (double)k;
		for (i = k; i < n; i++)
			b += y[i] / (double)(n - k);
		for (i = 0; i < n; i++)
			w += (y[i] - (i < k ? a : b)) * (y[i] - (i < k ? a : b));
		d = (b - a) / sqrt(w / (double)(n - 2));
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

	(void)state;
	assert_float_equal(regimes_statistic(x, ARRAY_SIZE(x)),
			   brute_d(x, ARRAY_SIZE(x)), 1e-9);
	gsl_rng_set(r, 7);
	for (t = 0; t < 200; t++) {
		size_t n = 8 + t % 30;

		for (i = 0; i < n; i++)
			y[i] = 50 * exp(0.2 * gsl_ran_gaussian(r, 1));
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

/* ---- simulations ---- */

enum family { FAM_NORMAL, FAM_LOGNORMAL, FAM_T3, FAM_MIX };

static const char *const fam_names[] = { "normal", "log-normal", "t(3)",
					 "mixture" };

/* One value: around 100, or a mixture of 100 and 110 (share p at 100),
 * each regime with multiplicative normal noise of CV cv. */
static double draw(gsl_rng *r, enum family f, double p, double cv)
{
	switch (f) {
	case FAM_NORMAL:
		return 100 + 2 * gsl_ran_gaussian(r, 1);
	case FAM_LOGNORMAL:
		return 100 * exp(0.5 * gsl_ran_gaussian(r, 1));
	case FAM_T3:
		return 100 + 2 * gsl_ran_tdist(r, 3);
	case FAM_MIX:
		return (gsl_rng_uniform(r) < p ? 100 : 110) *
		       (1 + cv * gsl_ran_gaussian(r, 1));
	}
	return NAN;
}

/* The share of reps samples of n flagged multimodal. */
static double rate(unsigned long seed, enum family f, size_t n, double p,
		   double cv, size_t reps)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[64];
	size_t t, i, hits = 0;
	struct regimes g;

	gsl_rng_set(r, seed);
	for (t = 0; t < reps; t++) {
		for (i = 0; i < n; i++)
			x[i] = draw(r, f, p, cv);
		regimes_detect(x, n, 0.95, &g);
		hits += g.multimodal;
	}
	gsl_rng_free(r);
	return (double)hits / (double)reps;
}

static void test_false_alarms(void **state)
{
	static const size_t ns[] = { 10, 20, 50 };
	size_t i, f;

	(void)state;
	for (f = FAM_NORMAL; f <= FAM_T3; f++) {
		for (i = 0; i < ARRAY_SIZE(ns); i++) {
			double a = rate(1000 + f * 10 + i, (enum family)f,
					ns[i], 0, 0, 4000);

			if (a > 0.05)
				fail_msg("%s, n = %zu: false alarms %.3f > 0.05",
					 fam_names[f], ns[i], a);
		}
	}
}

static void test_detection(void **state)
{
	static const size_t ns[] = { 20, 30 };
	static const double shares[] = { 0.7, 0.5 };
	size_t i, k;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(shares); k++) {
		for (i = 0; i < ARRAY_SIZE(ns); i++) {
			double pw = rate(2000 + k * 10 + i, FAM_MIX, ns[i],
					 shares[k], 0.015, 4000);

			if (pw < 0.90)
				fail_msg("%.0f/%.0f at n = %zu: detected %.3f "
					 "< 0.90", 100 * shares[k],
					 100 - 100 * shares[k], ns[i], pw);
		}
	}
}

/* ---- the figures of docs/STATISTICS.md ---- */

static void figures(void)
{
	static const size_t fa_n[] = { 10, 20, 50 }, pw_n[] = { 10, 20, 30, 50 };
	static const double shares[] = { 0.7, 0.5 }, cvs[] = { 0.01, 0.015,
							      0.02, 0.03 };
	size_t i, f, k, c;

	printf("false alarms (20000 samples each)\n");
	for (f = FAM_NORMAL; f <= FAM_T3; f++)
		for (i = 0; i < ARRAY_SIZE(fa_n); i++)
			printf("  %-10s n = %2zu  %.3f\n", fam_names[f], fa_n[i],
			       rate(3000 + f * 10 + i, (enum family)f, fa_n[i],
				    0, 0, 20000));
	printf("detection of 100 vs 110 (20000 samples each)\n");
	for (k = 0; k < ARRAY_SIZE(shares); k++)
		for (c = 0; c < ARRAY_SIZE(cvs); c++)
			for (i = 0; i < ARRAY_SIZE(pw_n); i++)
				printf("  %.0f/%.0f  cv %.1f%%  n = %2zu  %.3f\n",
				       100 * shares[k], 100 - 100 * shares[k],
				       100 * cvs[c], pw_n[i],
				       rate(4000 + k * 100 + c * 10 + i, FAM_MIX,
					    pw_n[i], shares[k], cvs[c], 20000));
}

static int cmp_d(const void *a, const void *b)
{
	return cmp(a, b);
}

/*
 * The critical values: the 96th percentile of D under normal and t(3)
 * data (one point above the 95th, so that the 5% holds despite the
 * simulation's own error).
 */
static void calibrate(void)
{
	static const size_t ns[] = { 8, 10, 12, 14, 16, 18, 20, 22, 25, 28, 30,
				     35, 40, 45, 50, 60, 70, 80, 100, 120,
				     150, 200, 300, 500 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	size_t reps = 20000, i, t, j;
	double *st = malloc(reps * sizeof(*st)), *x = malloc(500 * sizeof(*x));

	gsl_rng_set(r, 12345);
	for (i = 0; i < ARRAY_SIZE(ns); i++) {
		double q[2];

		for (j = 0; j < 2; j++) {
			for (t = 0; t < reps; t++) {
				size_t k;

				for (k = 0; k < ns[i]; k++)
					x[k] = exp(j ? gsl_ran_tdist(r, 3)
						     : gsl_ran_gaussian(r, 1));
				st[t] = regimes_statistic(x, ns[i]);
			}
			qsort(st, reps, sizeof(*st), cmp_d);
			q[j] = st[(size_t)(0.96 * (double)reps)];
		}
		printf("n = %3zu  normal %.3f  t(3) %.3f\n", ns[i], q[0], q[1]);
		fflush(stdout);
	}
	free(st);
	free(x);
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
		cmocka_unit_test(test_false_alarms),
		cmocka_unit_test(test_detection),
	};

	if (argc > 1 && !strcmp(argv[1], "--figures")) {
		figures();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--calibrate")) {
		calibrate();
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
