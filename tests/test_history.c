/*
 * test_history.c - change points over a series (analysis/history.h): a
 * hand-worked series whose permutation p and Welch interval are known in
 * closed form, bad arguments, and seeded simulations of the two claims
 * docs/STATISTICS.md makes: a series without a change shows one in at
 * most alpha of series, and a 3% step at 1% CV is found within one
 * position in at least 90%.  CONTEND_SIM_TRIALS scales the simulations
 * (`make sim`: the full-size figures).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/history.h"
#include "lib/util.h"

static size_t trials(size_t quick)
{
	const char *t = getenv("CONTEND_SIM_TRIALS");
	long long n;

	if (t && parse_ll(t, &n) == 0 && n > 0)
		return (size_t)n;
	return quick;
}

/*
 * Six points, the first three 0.01 apart and the last three 0.06 higher:
 * the largest t is at the split 3|3 (t = 0.06 / sqrt(1e-4 * 2/3) = 7.35;
 * any other split gives less), and a permutation reaches it only when it
 * keeps {0, .01, .02} on one side and the rest on the other: 2 x 3! x 3!
 * of 6! = 0.1.  So at alpha 0.05 no change, at 0.2 one at index 3,
 * whose Welch interval (4 df, t 2.7764451) is exp(0.06 +- 2.7764451 x
 * 0.0081650) - 1: +6.1837% [+3.8036%, +8.6183%].
 */
static void test_hand_worked(void **state)
{
	static const double y[] = { 0, 0.01, 0.02, 0.06, 0.07, 0.08 };
	struct history_opts o;
	struct change_point *cp;
	size_t n;

	(void)state;
	history_opts_default(&o);
	o.perms = 9999;
	assert_int_equal(history_change_points(y, 6, &o, &cp, &n), 0);
	assert_int_equal(n, 0);
	o.alpha = 0.2;
	assert_int_equal(history_change_points(y, 6, &o, &cp, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cp[0].index, 3);
	/* 0.1, within Monte Carlo error of 9999 permutations (sd 0.003) */
	assert_true(fabs(cp[0].p - 0.1) < 0.012);
	assert_true(fabs(cp[0].change_pct - 6.183655) < 1e-5);
	assert_true(fabs(cp[0].ci_low_pct - 3.803595) < 1e-4);
	assert_true(fabs(cp[0].ci_high_pct - 8.618285) < 1e-4);
	free(cp);
}

/* Two changes, each a segment of eight, found where they are. */
static void test_two_steps(void **state)
{
	double y[24];
	struct history_opts o;
	struct change_point *cp;
	size_t n, i;

	(void)state;
	for (i = 0; i < 24; i++)
		y[i] = (i >= 8 ? 0.05 : 0) + (i >= 16 ? -0.10 : 0) +
		       0.002 * (double)((i * 7) % 5);
	history_opts_default(&o);
	assert_int_equal(history_change_points(y, 24, &o, &cp, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(cp[0].index, 8);
	assert_int_equal(cp[1].index, 16);
	assert_true(cp[0].change_pct > 4 && cp[0].change_pct < 6.5);
	/* a fall of 10% on the log scale: -9.5%, and never below -100% */
	assert_true(cp[1].change_pct < -8 && cp[1].change_pct > -11);
	assert_true(cp[1].ci_low_pct > -100);
	free(cp);
}

static void test_bad_arguments(void **state)
{
	static const double y[] = { 1, 2, 3, 4, 5 };
	struct history_opts o;
	struct change_point *cp;
	size_t n;

	(void)state;
	history_opts_default(&o);
	o.alpha = 0;
	assert_int_equal(history_change_points(y, 5, &o, &cp, &n), -1);
	history_opts_default(&o);
	o.perms = 0;
	assert_int_equal(history_change_points(y, 5, &o, &cp, &n), -1);
	/* too short to split with two points a side: nothing, no error */
	history_opts_default(&o);
	assert_int_equal(history_change_points(y, 3, &o, &cp, &n), 0);
	assert_int_equal(n, 0);
}

/* The share of series of length len, sd 0.01, a step of log(1 + step)
 * at position at (0: none), with a change point within one position of
 * it (any change point when step is 0). */
static double found(size_t ntrials, size_t len, double step, size_t at,
		    unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *y = xmalloc(len * sizeof(*y));
	struct history_opts o;
	size_t t, hits = 0;

	gsl_rng_set(rng, seed);
	history_opts_default(&o);
	o.perms = 499;
	for (t = 0; t < ntrials; t++) {
		struct change_point *cp;
		size_t n, i;
		bool hit = false;

		for (i = 0; i < len; i++)
			y[i] = gsl_ran_gaussian(rng, 0.01) +
			       (at && i >= at ? log1p(step) : 0);
		o.seed = seed * 1000003 + t; /* not the data's stream */
		assert_int_equal(history_change_points(y, len, &o, &cp, &n), 0);
		for (i = 0; i < n; i++)
			hit |= !at || (cp[i].index + 1 >= at &&
				       cp[i].index <= at + 1);
		hits += hit;
		free(cp);
	}
	free(y);
	gsl_rng_free(rng);
	return (double)hits / (double)ntrials;
}

/*
 * A/A: the rate is at most alpha by construction (an exact permutation
 * test at the first split); 400 series put its estimate's sd at 0.011,
 * so 0.08 is 2.7 sd above 0.05.
 */
static void test_sim_false_alarms(void **state)
{
	size_t n = trials(400);
	double r20 = found(n, 20, 0, 0, 1011), r100 = found(n / 2, 100, 0, 0, 5012);

	(void)state;
	printf("  history A/A: %.3f of %zu series of 20, %.3f of %zu of 100 "
	       "show a change point (alpha 0.05)\n", r20, n, r100, n / 2);
	assert_true(r20 <= 0.08);
	assert_true(r100 <= 0.08);
}

/* A 3% step at 1% CV, in the middle and at a quarter of 20 experiments. */
static void test_sim_power(void **state)
{
	size_t n = trials(200);
	double mid = found(n, 20, 0.03, 10, 21), quarter = found(n, 20, 0.03, 5, 22);

	(void)state;
	printf("  history 3%% step, 1%% CV, 20 experiments: found within one "
	       "position in %.3f (at 10), %.3f (at 5) of %zu series\n", mid,
	       quarter, n);
	assert_true(mid >= 0.90);
	assert_true(quarter >= 0.90);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_sim_false_alarms),
		cmocka_unit_test(test_sim_power),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
