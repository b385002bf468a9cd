/*
 * test_compare_model.c - the judgement of an A/B comparison on bare
 * samples (compare_samples, analysis/compare_model.c): Welch intervals
 * and p-values against published worked examples, Mann-Whitney against a
 * textbook example, and every verdict on synthetic samples whose
 * intervals are worked by hand.  tests/test_compare.c holds the cases of
 * compare_sides() on datasets built in memory.
 *
 * Independent values: each case names its source.  "R" means R 4.x
 * (t.test, wilcox.test, power.t.test), run by hand when the test was
 * written; the R lines are quoted next to the figures.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "lib/util.h"
#include "tests/compare_checks.h"

/* Two samples of one invocation each: the model on one group a side. */
static int compare_samples(const double *base, size_t nb, const double *cand,
		    size_t nc, const struct compare_opts *o,
		    struct compare_stats *r)
{
	struct compare_groups b = { base, &nb, 1 }, c = { cand, &nc, 1 };

	return compare_model(&b, &c, o, r);
}

/* ---- Welch: published worked examples ---- */

/*
 * Wikipedia, "Welch's t-test", section Examples: three pairs of samples
 * with Welch's t, df and p printed to 2-3 significant digits (example 1:
 * t = -2.46, df = 25.0, p = 0.021; example 2: -1.57, 9.9, 0.149;
 * example 3: -2.22, 24.5, 0.036; there t is A1 - A2).  The intervals and
 * unrounded figures are R's t.test(A2, A1).  (Example 3's A2 ends
 * 24.0, 13.2 in the revision that prints p = 0.036.)
 * The fourth pair is a worked R session (ts1, ts2) printed with
 * "t = -1.8325, df = 17.9, p-value = 0.08356, 95 percent confidence
 * interval: -2.1469104 0.1469104" for ts1 - ts2.
 */
static const double wa1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
			      21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
static const double wa2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
			      24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
static const double wb1[] = { 17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2,
			      14.7, 21.8 };
static const double wb2[] = { 21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7,
			      23.4, 21.8, 20.7, 21.7, 21.5, 22.5, 23.6, 21.5,
			      22.5, 23.5, 21.5, 21.8 };
static const double wc1[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9,
			      19.5, 22.0 };
static const double wc2[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6,
			      20.6, 13.7, 23.2, 17.5, 20.6, 18.0, 23.9, 21.6,
			      24.3, 20.4, 24.0, 13.2 };
static const double ts1[] = { 11, 9, 10, 11, 10, 12, 9, 11, 12, 9 };
static const double ts2[] = { 11, 13, 10, 13, 12, 9, 11, 12, 12, 11 };

struct welch_case {
	const char *name;
	const double *base, *cand;
	size_t nb, nc;
	double df, p;           /* published, rounded */
	double df_tol, p_tol;
	double lo, hi;          /* R: CI of cand - base */
	double ci_tol;
};

static const struct welch_case welch_cases[] = {
	{ "wikipedia example 1", wa1, wa2, N(wa1), N(wa2), 25.0, 0.021, 0.05,
	  0.0005, 0.349237066192, 3.984096267141, 1e-8 },
	{ "wikipedia example 2", wb1, wb2, N(wb1), N(wb2), 9.9, 0.149, 0.05,
	  0.0005, -0.648421325375, 3.698421325375, 1e-8 },
	{ "wikipedia example 3", wc1, wc2, N(wc1), N(wc2), 24.5, 0.036, 0.05,
	  0.0005, 0.157606464495, 4.282393535505, 1e-8 },
	{ "R session ts1 vs ts2", ts2, ts1, N(ts2), N(ts1), 17.9, 0.08356,
	  0.05, 0.000005, -2.1469104, 0.1469104, 1e-7 },
};

static void test_welch_published(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N(welch_cases); i++) {
		const struct welch_case *c = &welch_cases[i];
		struct compare_opts o = opts(DIR_HIGHER, 1);
		struct compare_stats r;
		double mb = 0;
		size_t k;

		print_message("  %s\n", c->name);
		assert_int_equal(compare_samples(c->base, c->nb, c->cand,
						 c->nc, &o, &r), 0);
		close_to("df", r.df, c->df, c->df_tol);
		close_to("p_welch", r.p_welch, c->p, c->p_tol);
		close_to("diff_ci_low", r.diff_ci_low, c->lo, c->ci_tol);
		close_to("diff_ci_high", r.diff_ci_high, c->hi, c->ci_tol);
		/* The % interval is the same interval over the base mean. */
		for (k = 0; k < c->nb; k++)
			mb += c->base[k] / (double)c->nb;
		close_to("change_ci_low_pct", r.change_ci_low_pct,
			 100 * c->lo / mb, 1e-6);
		close_to("change_ci_high_pct", r.change_ci_high_pct,
			 100 * c->hi / mb, 1e-6);
	}
}

/* ---- Mann-Whitney: a textbook example ---- */

/*
 * Moore, McCabe & Craig, Introduction to the Practice of Statistics,
 * "weeds among the corn": yields with 0 and with 3 lamb's-quarter plants
 * per metre.  The book ranks them: W = 23 for the weed-free plots,
 * mu_W = 18, sigma_W = 3.464, one-sided exact P = 0.10 (7 of the 70
 * arrangements of 4 + 4 have W >= 23), so two-sided exact p = 0.2.  The
 * normal approximation with continuity correction is
 * z = (23 - 0.5 - 18) / 3.4641 = 1.299, two-sided p = 0.1939 (R:
 * wilcox.test(w0, w3, exact = FALSE) gives 0.1939309).
 */
static const double weeds0[] = { 166.7, 172.2, 165.0, 176.9 };
static const double weeds3[] = { 158.6, 176.4, 153.1, 156.0 };
/*
 * The book's 1-weed plots tie one weed-free plot (166.7): mid-ranks give
 * U = 13.5 for the weed-free plots; the tie-corrected variance is
 * 16/12 (9 - (2^3 - 2) / (8 * 7)) = 11.857143, so
 * z = (13.5 - 8 - 0.5) / 3.443420 = 1.452045 and two-sided p = 0.146489
 * (R: wilcox.test(w0, w1, exact = FALSE) gives 0.1464892).
 */
static const double weeds1[] = { 166.2, 157.3, 166.7, 161.1 };

static void test_mannwhitney_textbook(void **state)
{
	struct compare_opts o = opts(DIR_HIGHER, 1);
	struct compare_stats r;

	(void)state;
	assert_int_equal(compare_samples(weeds3, 4, weeds0, 4, &o, &r), 0);
	if (r.mw_exact)
		close_to("exact p", r.p_mannwhitney, 0.2, 1e-12);
	else
		close_to("normal p", r.p_mannwhitney, 0.1939309, 1e-6);
	assert_int_equal(compare_samples(weeds1, 4, weeds0, 4, &o, &r), 0);
	assert_false(r.mw_exact);       /* ties: the normal approximation */
	close_to("tied p", r.p_mannwhitney, 0.1464892, 1e-6);
}

/* ---- verdicts ---- */

/* The samples b100, c110 ... are in tests/compare_checks.h. */

struct verdict_case {
	const char *name;
	const double *base, *cand;
	enum direction dir;
	double thr;
	enum verdict v;
	double lo_pct, hi_pct;  /* worked by hand, see above */
};

static const struct verdict_case verdict_cases[] = {
	/* 10 +- 2.2669579 over 100 */
	{ "faster: +10% [+7.73, +12.27]", b100, c110, DIR_HIGHER, 1,
	  VERDICT_FASTER, 7.7330421, 12.2669579 },
	/* -10 +- 2.2669579 over 110 */
	{ "slower: -9.09% [-11.15, -7.03]", c110, b100, DIR_HIGHER, 1,
	  VERDICT_SLOWER, -100 * 12.2669579 / 110, -100 * 7.7330421 / 110 },
	/* 0.1 +- 0.22669579 over 100 */
	{ "no-change: +0.1% [-0.127, +0.327]", b100s, c100s, DIR_HIGHER, 1,
	  VERDICT_NO_CHANGE, -0.12669579, 0.32669579 },
	/* 2 +- 22.669579 over 100 */
	{ "inconclusive: +2% [-20.67, +24.67]", b100w, c102w, DIR_HIGHER, 1,
	  VERDICT_INCONCLUSIVE, -20.669579, 24.669579 },
	/* A change smaller than the threshold, however certain, is none. */
	{ "significant +0.1% under a 0.05% threshold is inconclusive",
	  b100s, c100s, DIR_HIGHER, 0.05, VERDICT_INCONCLUSIVE, -0.12669579,
	  0.32669579 },
	/* -1 +- 0.22669579 over 10: elapsed_s falls, which is better */
	{ "elapsed_s down 10% is faster", e10, e9, DIR_LOWER, 1,
	  VERDICT_FASTER, -12.2669579, -7.7330421 },
	{ "elapsed_s up 11% is slower", e9, e10, DIR_LOWER, 1,
	  VERDICT_SLOWER, 100 * 0.7733042 / 9, 100 * 1.2266958 / 9 },
	{ "throughput down 10% is slower", e10, e9, DIR_HIGHER, 1,
	  VERDICT_SLOWER, -12.2669579, -7.7330421 },
};

static void test_verdicts(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < N(verdict_cases); i++) {
		const struct verdict_case *c = &verdict_cases[i];
		struct compare_opts o = opts(c->dir, c->thr);
		struct compare_stats r;

		print_message("  %s\n", c->name);
		assert_int_equal(compare_samples(c->base, 3, c->cand, 3, &o,
						 &r), 0);
		assert_string_equal(verdict_names[r.verdict],
				    verdict_names[c->v]);
		close_to("lo", r.change_ci_low_pct, c->lo_pct, 1e-5);
		close_to("hi", r.change_ci_high_pct, c->hi_pct, 1e-5);
		close_to("df", r.df, 4, 1e-9);
		if (c->v != VERDICT_INCONCLUSIVE)
			assert_int_equal(r.needed_runs, 0);
	}
}

/*
 * The inconclusive case has sd 10 on both sides and a 1% threshold of a
 * mean of 100, so delta = 1: R's power.t.test(delta = 1, sd = 10,
 * power = 0.8) needs n = 1570.7 per group.  stats_needed_n uses central
 * t quantiles, which differ from R's noncentral t by a run or two here.
 */
static void test_needed_runs(void **state)
{
	struct compare_opts o = opts(DIR_HIGHER, 1);
	struct compare_stats r;

	(void)state;
	assert_int_equal(compare_samples(b100w, 3, c102w, 3, &o, &r), 0);
	assert_int_equal(r.verdict, VERDICT_INCONCLUSIVE);
	/* Whole invocations of 3 runs, then 2 invocations: up to +3. */
	assert_true(r.needed_runs >= 1569 && r.needed_runs <= 1577);
	/*
	 * mde at n = 3 (df 4): (t(.975,4) + t(.8,4)) * 10 * sqrt(2/3)
	 * = (2.7764451 + 0.9409646) * 8.1649658 = 30.35252 (R: qt).
	 */
	close_to("mde_pct", r.mde_pct, 30.35252, 1e-4);
}

/*
 * Detectable now agrees with the interval: two baseline invocations
 * against one candidate rest on K - 2 = 1 df, so the smallest change
 * detectable is (t_{.975,1} + t_{.8,1}) se on the log scale, the df-1
 * quantiles in closed form tan(pi (p - 1/2)): 12.7062047362 and
 * 1.3763819205 -- not the figure of a design of 2 invocations a side.
 */
static void test_mde_as_interval(void **state)
{
	static const double b[] = { 100, 102, 99, 101, 100.5,
				    103, 104, 102, 103.5, 102.5 };
	static const double c[] = { 101, 100, 102, 101.5 };
	static const size_t sb[] = { 5, 5 }, sc[] = { 4 };
	struct compare_groups gb = { b, sb, 2 }, gc = { c, sc, 1 };
	struct compare_opts o = opts(DIR_HIGHER, 1);
	struct compare_stats r;

	(void)state;
	o.linear = false;       /* compare's default scale */
	assert_int_equal(compare_model(&gb, &gc, &o, &r), 0);
	assert_true(r.log_scale);
	close_to("df", r.df, 1, 1e-12);
	close_to("mde_pct", r.mde_pct,
		 100 * expm1((12.7062047362 + 1.3763819205) * r.model.se),
		 1e-6);
	/* The interval's half-width is t_{.975,1} se: detectable > half. */
	assert_true(r.mde_pct > r.change_ci_high_pct - r.change_pct);
}

/* Constant samples: the difference is exact and still judged. */
static void test_zero_variance(void **state)
{
	static const double five[] = { 5, 5, 5, 5 }, six[] = { 6, 6, 6 };
	struct compare_opts o = opts(DIR_HIGHER, 1);
	struct compare_stats r;

	(void)state;
	assert_int_equal(compare_samples(five, 4, six, 3, &o, &r), 0);
	assert_int_equal(r.verdict, VERDICT_FASTER);
	close_to("change", r.change_pct, 20, 1e-12);
	close_to("lo", r.change_ci_low_pct, 20, 1e-12);
	assert_int_equal(compare_samples(five, 4, five, 3, &o, &r), 0);
	assert_int_equal(r.verdict, VERDICT_NO_CHANGE);
}

/* One value on a side: means and change, but no interval and no verdict. */
static void test_one_value(void **state)
{
	static const double one[] = { 120 };
	struct compare_opts o = opts(DIR_HIGHER, 1);
	struct compare_stats r;

	(void)state;
	assert_int_equal(compare_samples(b100, 3, one, 1, &o, &r), 0);
	assert_int_equal(r.verdict, VERDICT_INCONCLUSIVE);
	close_to("change", r.change_pct, 20, 1e-12);
	assert_true(isnan(r.diff_ci_low) && isnan(r.p_welch));
	assert_int_equal(compare_samples(b100, 3, one, 0, &o, &r), -1);
	o.dir = DIR_UNKNOWN;
	assert_int_equal(compare_samples(b100, 3, one, 1, &o, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_welch_published),
		cmocka_unit_test(test_mannwhitney_textbook),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_needed_runs),
		cmocka_unit_test(test_mde_as_interval),
		cmocka_unit_test(test_zero_variance),
		cmocka_unit_test(test_one_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
