/*
 * test_analysis.c - analysis_run on datasets built in memory (no database,
 * no timing): run counts, harmonic means under fixed work, outliers by
 * run, fairness, and every flag of one configuration with a case that
 * must raise it and a near-miss that must not.  Expected values are derived by hand
 * in the comments, never taken from the code under test.  The checks
 * across configurations (pairs, correlations) are in
 * tests/test_analysis_pairs.c.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "tests/analysis_fixture.h"
#include "tests/dataset_fixture.h"

/* ---- counts, summaries, harmonic means ---- */

static void test_run_counts(void **state)
{
	struct fixture fx;
	struct analysis a;
	const double x[5] = { 10, 11, 12, 13, 14 };
	double *v;
	size_t n;

	(void)state;
	fx_init(&fx, "counts");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	fx_run(&fx, true, RUN_OK, "throughput=99", fair2, 2);        /* warm-up */
	add_values(&fx, x, 3);
	fx_run(&fx, false, RUN_CRASHED, NULL, NULL, 0);             /* failed */
	fx_run(&fx, false, RUN_TIMEOUT, NULL, NULL, 0);             /* failed */
	fx_run(&fx, true, RUN_FAILED, NULL, NULL, 0);               /* failed */
	add_values(&fx, x + 3, 2);
	fx_run(&fx, false, RUN_PLANNED, NULL, NULL, 0);             /* pending */
	fx_run(&fx, false, RUN_INTERRUPTED, NULL, NULL, 0);         /* pending */
	analyse(&fx, NULL, &a);
	assert_int_equal(a.configs[0].measured, 5);
	assert_int_equal(a.configs[0].warmup, 1);
	assert_int_equal(a.configs[0].failed, 3);
	assert_int_equal(a.configs[0].pending, 2);
	/* The warm-up's 99 is not mixed in: mean of 10..14 is 12. */
	assert_near(analysis_metric(&a, 0, "throughput")->s.mean, 12, 1e-12);
	n = analysis_values(&fx.d, 0, dataset_metric(&fx.d, "throughput"), &v);
	assert_int_equal(n, 5);
	assert_near(v[0], 10, 0);
	assert_near(v[4], 14, 0);
	free(v);
	assert_null(analysis_metric(&a, 0, "no-such-metric"));
	assert_null(find_flag(&a, 0, "few-runs"));
	done(&fx, &a);
}

/*
 * Fixed work W per run at rates 100, 200, 400: total time W/100 + W/200 +
 * W/400 = 0.0175 W, total work 3 W, so the rate is 3 / 0.0175 =
 * 171.428571...; the arithmetic mean (233.33) would overstate it.
 * Interval: mean time per op 0.0058333, sd of (0.01, 0.005, 0.0025) =
 * 0.0038188, t(0.975, 2) = 4.302653 (t table), half-width 4.302653 *
 * 0.0038188 / sqrt(3) = 0.0094864; so [1/0.0153197, 1/-0.00365] -> the
 * upper bound is unbounded (NAN) and the lower is 65.275.
 */
static void test_harmonic_under_jobs(void **state)
{
	struct fixture fx;
	struct analysis a;
	const double x[3] = { 100, 200, 400 };
	const struct metric_summary *ms;

	(void)state;
	fx_init(&fx, "harmonic");
	fx_config(&fx, "s", "noop", "threads=2 jobs=1000");
	add_values(&fx, x, 3);
	fx_config(&fx, "t", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 3);
	/* chat does fixed work of its own: no jobs key, the same mean */
	fx_config(&fx, "c", "chat",
		  "rooms=1 users=2 messages=10 size=100 mode=threads");
	add_values(&fx, x, 3);
	analyse(&fx, NULL, &a);
	ms = analysis_metric(&a, 0, "throughput");
	assert_true(a.configs[0].fixed_work);
	assert_true(ms->harmonic);
	assert_near(ms->s.mean, 3 / 0.0175, 1e-9);
	assert_near(ms->s.ci_low, 65.275, 0.01);
	assert_true(isnan(ms->s.ci_high));
	ms = analysis_metric(&a, 1, "throughput");
	assert_false(a.configs[1].fixed_work);
	assert_false(ms->harmonic);
	assert_near(ms->s.mean, 700.0 / 3, 1e-9);
	ms = analysis_metric(&a, 2, "throughput");
	assert_true(a.configs[2].fixed_work);
	assert_true(ms->harmonic);
	assert_near(ms->s.mean, 3 / 0.0175, 1e-9);
	done(&fx, &a);
}

/*
 * With less spread the inverted interval is finite: rates 100, 110, 120,
 * times per op 0.01, 0.0090909, 0.0083333: mean 0.0091414 (harmonic mean
 * 3 / 0.0274242 = 109.392), sd 0.00083680, half-width 4.302653 *
 * 0.00083680 / sqrt(3) = 0.0020787, so [1/0.0112201, 1/0.0070627] =
 * [89.171, 141.474] (computed in python3 with a Simpson-integrated t).
 */
static void test_harmonic_interval(void **state)
{
	struct fixture fx;
	struct analysis a;
	const double x[3] = { 100, 110, 120 };
	const struct metric_summary *ms;

	(void)state;
	fx_init(&fx, "harmonic-ci");
	fx_config(&fx, "s", "noop", "threads=2 jobs=500");
	add_values(&fx, x, 3);
	analyse(&fx, NULL, &a);
	ms = analysis_metric(&a, 0, "throughput");
	assert_near(ms->s.mean, 109.3923, 1e-3);
	assert_near(ms->s.ci_low, 89.171, 0.01);
	assert_near(ms->s.ci_high, 141.474, 0.01);
	done(&fx, &a);
}

/* ---- outliers ---- */

/*
 * 10, 10.1, 9.9, 10, 10.2, 9.8, 10, 30: median 10, absolute deviations
 * 0, .1, .1, 0, .2, .2, 0, 20 -> MAD 0.1; the 30 scores 0.6745 * 20 / 0.1
 * = 134.9, the 10.2 only 1.35.
 */
static void test_outliers_raise(void **state)
{
	struct fixture fx;
	struct analysis a;
	const double x[8] = { 10, 10.1, 9.9, 10, 10.2, 9.8, 10, 30 };
	const struct metric_summary *ms;
	const struct flag *f;

	(void)state;
	fx_init(&fx, "outliers");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 8);
	analyse(&fx, NULL, &a);
	ms = analysis_metric(&a, 0, "throughput");
	assert_int_equal(ms->s.noutliers, 1);
	assert_int_equal(ms->outliers[0], 7);   /* the run, not dropped */
	assert_int_equal(ms->s.n, 8);
	f = find_flag(&a, 0, "outliers");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "seq 7 = 30"));
	done(&fx, &a);
}

/* Same but the last value 10.3: z = 0.6745 * 0.3 / 0.1 = 2.02 < 3.5. */
static void test_outliers_near_miss(void **state)
{
	struct fixture fx;
	struct analysis a;
	const double x[8] = { 10, 10.1, 9.9, 10, 10.2, 9.8, 10, 10.3 };

	(void)state;
	fx_init(&fx, "outliers-near");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 8);
	analyse(&fx, NULL, &a);
	assert_int_equal(analysis_metric(&a, 0, "throughput")->s.noutliers, 0);
	assert_null(find_flag(&a, 0, "outliers"));
	done(&fx, &a);
}

/*
 * More than half the runs identical: MAD 0, so the scale is 1.2533 x the
 * mean absolute deviation from the median (2 / 8 = 0.25): the 12 scores
 * 2 / 0.3133 = 6.4 and is an outlier; the message must not print inf.
 */
static void test_outliers_mad_zero(void **state)
{
	struct fixture fx;
	struct analysis a;
	const double x[8] = { 10, 10, 10, 10, 10, 10, 10, 12 };
	const struct flag *f;

	(void)state;
	fx_init(&fx, "outliers-mad0");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 8);
	analyse(&fx, NULL, &a);
	f = find_flag(&a, 0, "outliers");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "seq 7 = 12."));
	assert_null(strstr(f->message, "inf"));
	done(&fx, &a);
}

/* ---- noisy ---- */

/*
 * CV exactly c: 100 (1 + c z) for z = (-2..2) / sqrt(2.5) (sample sd 1).
 * Reference points of the issue, by hand from a printed t table:
 * MDE = (t(.975, 8) + t(.80, 8)) sqrt(2/5) CV = (2.306 + 0.889) * 0.63246
 * * 10% = 20.2%; runs for 5%: n = 64 is the first with (t(.975, 126) +
 * t(.80, 126)) sqrt(2/n) 10% = (1.979 + 0.845) * 0.17678 * 10% = 4.99%
 * <= 5% (n = 63 gives 5.03%).
 */
static void add_cv(struct fixture *fx, double cv)
{
	double x[5];
	size_t i;

	for (i = 0; i < 5; i++)
		x[i] = 100 * (1 + cv * ((double)i - 2) / sqrt(2.5));
	add_values(fx, x, 5);
}

static void test_noisy_raise(void **state)
{
	struct fixture fx;
	struct analysis a;
	const struct flag *f;

	(void)state;
	fx_init(&fx, "noisy");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_cv(&fx, 0.10);
	analyse(&fx, NULL, &a);
	f = find_flag(&a, 0, "noisy");
	assert_non_null(f);
	assert_near(flag_value(f, "cv"), 0.10, 1e-12);
	assert_near(flag_value(f, "mde_pct"), 20.2, 0.1);
	assert_near(flag_value(f, "needed_n"), 64, 0);
	assert_non_null(strstr(f->message, "20.2%"));
	assert_non_null(strstr(f->message, "64 runs per side"));
	done(&fx, &a);
}

/* CV 4.9% under noise 5%: no flag; at noise 4% the same data is noisy. */
static void test_noisy_near_miss(void **state)
{
	struct fixture fx;
	struct analysis a;

	(void)state;
	fx_init(&fx, "noisy-near");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_cv(&fx, 0.049);
	fx_config(&fx, "t", "noop", "threads=2 runtime=1");
	fx.d.configs[1].noise = 0.04;
	add_cv(&fx, 0.049);
	analyse(&fx, NULL, &a);
	assert_null(find_flag(&a, 0, "noisy"));
	assert_non_null(find_flag(&a, 1, "noisy"));
	done(&fx, &a);
}

/*
 * --resolve 10: n = 17 runs per side resolve 10% at CV 10% (t table: n = 17
 * gives (2.037 + 0.853) sqrt(2/17) 10% = 9.91% <= 10%, n = 16 gives
 * (2.042 + 0.854) sqrt(2/16) 10% = 10.24%).
 */
static void test_noisy_resolve_option(void **state)
{
	struct fixture fx;
	struct analysis a;
	struct analysis_opts o;

	(void)state;
	analysis_opts_default(&o);
	o.resolve_pct = 10;
	fx_init(&fx, "noisy-resolve");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_cv(&fx, 0.10);
	analyse(&fx, &o, &a);
	assert_near(flag_value(find_flag(&a, 0, "noisy"), "needed_n"), 17, 0);
	done(&fx, &a);
}

/* ---- drift ---- */

/* 10 runs rising 1% a run with +-0.2% wiggle: Spearman rho 1, p ~ 0. */
static void test_drift_raise(void **state)
{
	struct fixture fx;
	struct analysis a;
	double x[10];
	size_t i;

	(void)state;
	for (i = 0; i < 10; i++)
		x[i] = 1000 * (1 + 0.01 * (double)i + 0.002 * (i % 2 ? 1 : -1));
	fx_init(&fx, "drift");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 10);
	analyse(&fx, NULL, &a);
	assert_non_null(find_flag(&a, 0, "drift"));
	assert_near(flag_value(find_flag(&a, 0, "drift"), "rho"), 1, 1e-12);
	done(&fx, &a);
}

/*
 * Near-misses: the same perfect trend over 7 runs (n < 8 is not judged),
 * and 10 runs of the fixed pattern (mid-ranks 7 5.5 8 5.5 3 10 4 1.5 9 1.5
 * against 1..10: rho -0.335 by python3, p about 0.34: no trend).
 */
static void test_drift_near_miss(void **state)
{
	struct fixture fx;
	struct analysis a;
	double x[10];
	size_t i;

	(void)state;
	fx_init(&fx, "drift-near");
	for (i = 0; i < 10; i++)
		x[i] = 1000 * (1 + 0.01 * (double)i);
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 7);
	for (i = 0; i < 10; i++)
		x[i] = 1000 * (1 + 0.02 * z(i, 0));
	fx_config(&fx, "t", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 10);
	analyse(&fx, NULL, &a);
	assert_null(find_flag(&a, 0, "drift"));
	assert_null(find_flag(&a, 1, "drift"));
	done(&fx, &a);
}

/* ---- non-normal ---- */

/*
 * 20 runs: 16 near 100 and 4 far in one tail (a bimodal/skewed sample,
 * sample skewness 1.65, excess kurtosis 1.03 by python3) -> K^2 p far below 0.05.  Near-miss: 20 values at
 * the normal scores Phi^-1((i - 0.375) / 20.25) (Blom), skewness 0 and
 * kurtosis near 0, p near 1.
 */
static void test_non_normal_raise(void **state)
{
	struct fixture fx;
	struct analysis a;
	const double x[20] = { 100, 101, 99, 100, 102, 98, 100, 101, 99, 100,
			       101, 99, 100, 102, 98, 100, 130, 135, 140, 150 };
	const struct flag *f;

	(void)state;
	fx_init(&fx, "non-normal");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 20);
	analyse(&fx, NULL, &a);
	f = find_flag(&a, 0, "non-normal");
	assert_non_null(f);
	assert_true(flag_value(f, "p") < 0.05);
	assert_non_null(strstr(f->message, "median"));
	done(&fx, &a);
}

/* Blom normal scores for n = 20 (python3 statistics.NormalDist().inv_cdf). */
static const double blom20[20] = {
	-1.8682, -1.4034, -1.1281, -0.9191, -0.7441, -0.5895, -0.4478,
	-0.3146, -0.1868, -0.0619, 0.0619, 0.1868, 0.3146, 0.4478, 0.5895,
	0.7441, 0.9191, 1.1281, 1.4034, 1.8682,
};

static void test_non_normal_near_miss(void **state)
{
	struct fixture fx;
	struct analysis a;
	double x[20];
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++)
		x[(i * 7) % 20] = 1000 + 10 * blom20[i];  /* shuffled: no drift */
	fx_init(&fx, "normal");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 20);
	analyse(&fx, NULL, &a);
	assert_null(find_flag(&a, 0, "non-normal"));
	assert_false(analysis_metric(&a, 0, "throughput")->s.k2_p < 0.05);
	done(&fx, &a);
}

/* ---- unfair ---- */

static void add_ops(struct fixture *fx, const uint64_t *ops, size_t nthr,
		    size_t runs)
{
	size_t i;

	for (i = 0; i < runs; i++) {
		char m[64];

		snprintf(m, sizeof(m), "throughput=%g", 1000.0 + (double)i);
		fx_run(fx, false, RUN_OK, m, ops, nthr);
	}
}

/*
 * {100, 100, 100, 700}: Jain = 1000^2 / (4 (3 * 100^2 + 700^2)) =
 * 10^6 / 2.08 10^6 = 0.4808, busiest share 0.7.
 */
static void test_unfair_raise(void **state)
{
	static const uint64_t ops[4] = { 100, 100, 100, 700 };
	struct fixture fx;
	struct analysis a;

	(void)state;
	fx_init(&fx, "unfair");
	fx_config(&fx, "s", "noop", "threads=4 runtime=1");
	add_ops(&fx, ops, 4, 5);
	analyse(&fx, NULL, &a);
	assert_near(a.configs[0].mean_jain, 1e6 / 2.08e6, 1e-9);
	assert_near(a.configs[0].max_share, 0.7, 1e-12);
	assert_int_equal(a.configs[0].threads, 4);
	assert_non_null(find_flag(&a, 0, "unfair"));
	done(&fx, &a);
}

/*
 * The share rule alone (jain_min lowered to 0.5): {55, 15, 15, 15} has
 * Jain 10^4 / (4 (3025 + 675)) = 0.6757 >= 0.5 but a share of 0.55 > 0.5
 * with 4 threads.  Near-misses: {60, 40} (share 0.6, Jain 10^4 / (2 *
 * 5200) = 0.9615) has only 2 threads; {240, 250, 250, 260} is fair.
 */
static void test_unfair_share_and_near_miss(void **state)
{
	static const uint64_t hog[4] = { 55, 15, 15, 15 };
	static const uint64_t two[2] = { 60, 40 };
	static const uint64_t fair[4] = { 240, 250, 250, 260 };
	struct fixture fx;
	struct analysis a;
	struct analysis_opts o;

	(void)state;
	analysis_opts_default(&o);
	o.jain_min = 0.5;
	fx_init(&fx, "unfair-share");
	fx_config(&fx, "s", "noop", "threads=4 runtime=1");
	add_ops(&fx, hog, 4, 5);
	fx_config(&fx, "t", "noop", "threads=2 runtime=1");
	add_ops(&fx, two, 2, 5);
	fx_config(&fx, "u", "noop", "threads=4 runtime=1");
	add_ops(&fx, fair, 4, 5);
	analyse(&fx, &o, &a);
	assert_near(a.configs[0].mean_jain, 1e4 / 14800.0, 1e-9);
	assert_non_null(find_flag(&a, 0, "unfair"));
	assert_near(a.configs[1].mean_jain, 1e4 / 10400.0, 1e-9);
	assert_null(find_flag(&a, 1, "unfair"));
	assert_null(find_flag(&a, 2, "unfair"));
	done(&fx, &a);
}

/* ---- few-runs ---- */

static void test_few_runs(void **state)
{
	const double x[5] = { 10, 11, 12, 13, 14 };
	struct fixture fx;
	struct analysis a;

	(void)state;
	fx_init(&fx, "few");
	fx_config(&fx, "s", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 4);
	fx_run(&fx, false, RUN_FAILED, NULL, NULL, 0);  /* does not count */
	fx_config(&fx, "t", "noop", "threads=2 runtime=1");
	add_values(&fx, x, 5);
	analyse(&fx, NULL, &a);
	assert_non_null(find_flag(&a, 0, "few-runs"));
	assert_near(flag_value(find_flag(&a, 0, "few-runs"), "measured"), 4, 0);
	assert_null(find_flag(&a, 1, "few-runs"));
	done(&fx, &a);
}

/* ---- miscalibrated ---- */

/* Runs of a lock configuration with its calibration and the check. */
static void add_calibrated(struct fixture *fx, double cal, const double *now,
			   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char m[160];

		snprintf(m, sizeof(m), "throughput=%.17g elapsed_s=1 "
			 "loops_per_us=%.17g loops_per_us_now=%.17g",
			 1e6 + 1e3 * (double)i, cal, now[i]);
		fx_run(fx, false, RUN_OK, m, fair2, 2);
	}
}

/*
 * The review's experiment: calibrated at 2790.9 loops/us, the runs
 * measured about 3667 (median of {3650, 3660, 3667, 3670, 3690} = 3667):
 * +31.39%, so contended_delay_ns = 10000 spun 10000 * 2790.9 / 3667 =
 * 7611 ns.  Near miss: a median of 3050 is +9.28%, inside 10%; a sleep
 * delay is not calibrated and is not named.
 */
static void test_miscalibrated(void **state)
{
	static const double fast[5] = { 3650, 3660, 3667, 3670, 3690 };
	static const double close[5] = { 3040, 3045, 3050, 3055, 3060 };
	const struct flag *f;
	struct fixture fx;
	struct analysis a;

	(void)state;
	fx_init(&fx, "calibration");
	fx_meta(&fx, "load_start", "2.8");
	fx_config(&fx, "m", "pthread-mutex", "threads=2 contended_delay_ns=10000 "
		  "contended_delay_mode=spin hold_ns=0 runtime=1");
	add_calibrated(&fx, 2790.9, fast, 5);
	fx_config(&fx, "n", "pthread-mutex", "threads=2 contended_delay_ns=10000 "
		  "contended_delay_mode=spin hold_ns=0 runtime=1");
	add_calibrated(&fx, 2790.9, close, 5);
	fx_config(&fx, "s", "pthread-mutex", "threads=2 contended_delay_ns=10000 "
		  "contended_delay_mode=sleep hold_ns=500 runtime=1");
	add_calibrated(&fx, 2790.9, fast, 5);
	analyse(&fx, NULL, &a);
	f = find_flag(&a, 0, "miscalibrated");
	assert_non_null(f);
	assert_near(flag_value(f, "ratio"), 3667 / 2790.9, 1e-12);
	assert_non_null(strstr(f->message, "calibrated at 2791 loops/us (load "
				       "2.8 at the start)"));
	assert_non_null(strstr(f->message, "measured 3667 loops/us"));
	assert_non_null(strstr(f->message, "+31.4%"));
	assert_non_null(strstr(f->message, "contended_delay_ns = 10000 spun "
				       "about 7.611 us"));
	assert_null(strstr(f->message, "hold_ns"));
	assert_null(find_flag(&a, 1, "miscalibrated"));
	f = find_flag(&a, 2, "miscalibrated");
	assert_non_null(f);
	assert_null(strstr(f->message, "contended_delay_ns ="));
	/* 500 * 2790.9 / 3667 = 380.5 ns */
	assert_non_null(strstr(f->message, "hold_ns = 500 spun about 0.3805 us"));
	done(&fx, &a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_miscalibrated),
		cmocka_unit_test(test_run_counts),
		cmocka_unit_test(test_harmonic_under_jobs),
		cmocka_unit_test(test_harmonic_interval),
		cmocka_unit_test(test_outliers_raise),
		cmocka_unit_test(test_outliers_near_miss),
		cmocka_unit_test(test_outliers_mad_zero),
		cmocka_unit_test(test_noisy_raise),
		cmocka_unit_test(test_noisy_near_miss),
		cmocka_unit_test(test_noisy_resolve_option),
		cmocka_unit_test(test_drift_raise),
		cmocka_unit_test(test_drift_near_miss),
		cmocka_unit_test(test_non_normal_raise),
		cmocka_unit_test(test_non_normal_near_miss),
		cmocka_unit_test(test_unfair_raise),
		cmocka_unit_test(test_unfair_share_and_near_miss),
		cmocka_unit_test(test_few_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
