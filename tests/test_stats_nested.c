/*
 * test_stats_nested.c - analysis/stats_nested.c against independent
 * references only: the power of a test (R 4.2's power.t.test and the
 * two-quantile formula), NIST StRD's certified ANOVA, hand derivations
 * (written out next to the case) and values from R 4.2's nlme (not
 * needed to build or run these tests) with the call that produced each
 * constant.  tests/test_stats.c holds the cases of analysis/stats.c.
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
#include <gsl/gsl_statistics_double.h>

#include "analysis/stats.h"
#include "tests/checks.h"

static size_t stats_nested_needed_k(double s2_b, double s2_w, size_t n,
			     double delta, double alpha, double power)
{
	if (!(delta > 0.0) || !isfinite(delta) ||
	    !isfinite(stats_nested_mde(s2_b, s2_w, n, 2, alpha, power)))
		return 0;
	for (size_t k = 2; k <= 100000; k++)
		if (stats_nested_mde(s2_b, s2_w, n, k, alpha, power) <= delta)
			return k;
	return 0;
}

/* ---- power ------------------------------------------------------------ */

/*
 * The reference points: CV 10% and n = 5 resolves about 20%;
 * resolving 5% at CV 10% needs about 64 runs per side.  R 4.2's exact
 * (noncentral t) power.t.test(n=5, sd=0.1, power=0.8)$delta = 0.2024438
 * and power.t.test(delta=0.05, sd=0.1, power=0.8)$n = 63.77 -> 64 agree
 * with the two-quantile formula to 0.2%.  The formula itself, R 4.2:
 *   (qt(.975, 8) + qt(.8, 8)) * 0.1 * sqrt(2/5) = 0.202062816508091
 *   and it first drops to 0.05 at n = 64 (0.04991; n = 63: 0.05031).
 */
static void test_power(void **state)
{
	(void)state;
	check_close("mde n=5", stats_mde(0.1, 5, 0.05, 0.8), 0.202062816508091,
		    1e-10, 0);
	check_close("mde vs power.t.test", stats_mde(0.1, 5, 0.05, 0.8),
		    0.202443793949412, 5e-3, 0);
	assert_int_equal(stats_needed_n(0.1, 0.05, 0.05, 0.8), 64);
	/* Needed n is the first n whose MDE is within delta. */
	assert_true(stats_mde(0.1, 64, 0.05, 0.8) <= 0.05);
	assert_true(stats_mde(0.1, 63, 0.05, 0.8) > 0.05);
	/* On either side of MDE(5) = 0.2020628165: */
	assert_int_equal(stats_needed_n(0.1, 0.20207, 0.05, 0.8), 5);
	assert_int_equal(stats_needed_n(0.1, 0.20206, 0.05, 0.8), 6);
	assert_int_equal(stats_needed_n(0.0, 0.05, 0.05, 0.8), 2);
	assert_int_equal(stats_needed_n(0.1, 0.0, 0.05, 0.8), 0);
	assert_true(isnan(stats_mde(0.1, 1, 0.05, 0.8)));
	assert_true(isnan(stats_mde(NAN, 5, 0.05, 0.8)));
}

/* ---- ANOVA ------------------------------------------------------------ */

/*
 * NIST StRD ANOVA, SiRstv (silicon resistivity, 5 instruments x 5 runs),
 * certified: between df 4, MS 1.27865654000000E-02; within df 20, MS
 * 1.08318280000000E-02; F 1.18046237440255E+00.
 */
static const double sirstv[25] = {
	196.3052, 196.1240, 196.1890, 196.2569, 196.3403,
	196.3042, 196.3825, 196.1669, 196.3257, 196.0422,
	196.1303, 196.2005, 196.2889, 196.0343, 196.1811,
	196.2795, 196.1748, 196.1494, 196.1485, 195.9885,
	196.2119, 196.1051, 196.1850, 196.0052, 196.2090,
};

static void test_anova_nist_sirstv(void **state)
{
	const size_t sizes[] = { 5, 5, 5, 5, 5 };
	struct anova a;

	(void)state;
	assert_int_equal(stats_anova(sirstv, sizes, 5, &a), 0);
	assert_int_equal(a.k, 5);
	assert_int_equal(a.n, 25);
	check_close("MS between", a.ms_between, 1.27865654000000e-02, 1e-9, 0);
	check_close("MS within", a.ms_within, 1.08318280000000e-02, 1e-9, 0);
	check_close("F", a.f, 1.18046237440255, 1e-9, 0);
	/* Balanced: n0 is the group size; s2_b = (MSB - MSW) / 5. */
	check_close("n0", a.n0, 5.0, 1e-14, 0);
	check_close("var_between", a.var_between,
		    (1.27865654e-02 - 1.0831828e-02) / 5.0, 1e-8, 0);
	/* R 4.2: pf(1.18046237440255, 4, 20, lower.tail=FALSE) */
	check_close("p", a.p, 0.349447493402193, 1e-8, 0);
}

/*
 * Unbalanced, by hand: G1 {2,4,6} mean 4, G2 {8,10} mean 9, G3 {3,5,7,9}
 * mean 6; grand mean 54/9 = 6.  SSB = 3*4 + 2*9 + 0 = 30, MSB = 15;
 * SSW = 8 + 2 + 20 = 30, MSW = 30/6 = 5; F = 3; for 2 numerator df
 * Q(F) = (1 + 2F/6)^-3 = 1/8.  n0 = (9 - (9+4+16)/9)/2 = 26/9; s2_b =
 * (15 - 5)/(26/9) = 45/13; ICC = (45/13)/(45/13 + 5) = 9/22.
 */
static void test_anova_unbalanced(void **state)
{
	const double x[] = { 2, 4, 6, 8, 10, 3, 5, 7, 9 };
	const size_t sizes[] = { 3, 2, 4 };
	struct anova a;

	(void)state;
	assert_int_equal(stats_anova(x, sizes, 3, &a), 0);
	check_close("MSB", a.ms_between, 15.0, 1e-14, 0);
	check_close("MSW", a.ms_within, 5.0, 1e-14, 0);
	check_close("F", a.f, 3.0, 1e-14, 0);
	check_close("p", a.p, 0.125, 1e-12, 0);
	check_close("n0", a.n0, 26.0 / 9.0, 1e-14, 0);
	check_close("var_between", a.var_between, 45.0 / 13.0, 1e-14, 0);
	check_close("var_within", a.var_within, 5.0, 1e-14, 0);
	check_close("icc", a.icc, 9.0 / 22.0, 1e-14, 0);
}

/* MSB < MSW: the moment estimate is negative and is truncated to 0. */
static void test_anova_negative_component(void **state)
{
	/*
	 * By hand: means 2 and 2.5; SSB = (3*4/7) (0.5)^2 = 3/7 on 1 df, SSW =
	 * 2 + 17 = 19 on 5 df, so MSB = 0.43 < MSW = 3.8 (R 4.2 aov agrees).
	 */
	const double x[] = { 1, 2, 3, 0, 5, 1, 4 };
	const size_t sizes[] = { 3, 4 };
	const size_t empty[] = { 3, 0 };
	struct anova a;

	(void)state;
	assert_int_equal(stats_anova(x, sizes, 2, &a), 0);
	assert_true(a.ms_between < a.ms_within);
	check_close("var_between", a.var_between, 0.0, 0, 0);
	check_close("icc", a.icc, 0.0, 0, 0);
	assert_int_equal(stats_anova(x, sizes, 1, &a), 0);
	assert_true(isnan(a.f) && isnan(a.var_between));
	assert_int_equal(stats_anova(x, empty, 2, &a), -1);
}

/*
 * Known components: 400 groups of 8, group effect N(0, 2^2), noise
 * N(0, 1), GSL's mt19937 with seed 12345.  The estimators' standard errors
 * (Searle, Casella & McCulloch 1992, ch. 3) are ~0.15 for s2_b = 4 and
 * ~0.03 for s2_w = 1; the tolerances are about three of them.
 */
static void test_anova_recovers_components(void **state)
{
	enum { K = 400, N = 8 };
	double *x = malloc(K * N * sizeof(*x));
	size_t sizes[K];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct anova a;

	(void)state;
	gsl_rng_set(r, 12345);
	for (size_t g = 0; g < K; g++) {
		double effect = gsl_ran_gaussian(r, 2.0);

		sizes[g] = N;
		for (size_t j = 0; j < N; j++)
			x[g * N + j] = 100.0 + effect + gsl_ran_gaussian(r, 1.0);
	}
	assert_int_equal(stats_anova(x, sizes, K, &a), 0);
	check_close("var_between", a.var_between, 4.0, 0, 0.5);
	check_close("var_within", a.var_within, 1.0, 0, 0.1);
	check_close("icc", a.icc, 0.8, 0, 0.05);
	assert_true(a.p < 1e-10);
	gsl_rng_free(r);
	free(x);
}

/* ---- the two-level model -------------------------------------------- */

/*
 * Worked by hand.  A = {1, 3}, {5, 7}, B = {2, 4}, {10, 12}: invocations
 * nested in sides, SSB = 2 (2^2 + 2^2) + 2 (4^2 + 4^2) = 80 on K - 2 = 2 df,
 * MSB = 40; SSW = 8 on N - K = 4 df, MSW = 2;
 * n0 = (N - sum_s sum_i n_i^2 / N_s) / (K - 2) = (8 - 2 - 2) / 2 = 2, so
 * s2_b = (40 - 2) / 2 = 19.  Balanced: each level is its grand mean (4, 7)
 * with Var = MSB / N_s = 10, so diff = 3, se = sqrt(20) on 2 df,
 * 3 +- t_{0.975, 2} sqrt(20) = 3 -+ 4.302652729749464 sqrt(20) (R's
 * qt(0.975, 2)) = [-16.2420479746, 22.2420479746].
 * R, nlme::lme(y ~ side, random = ~1 | inv, method = "REML") on the same
 * eight values: sideb 3, Std.Error 4.472136019, DF 2; intervals()
 * -16.242048249, 22.24204825; variances 19 and 2.
 */
static void test_nested_hand_balanced(void **state)
{
	static const double a[] = { 1, 3, 5, 7 }, b[] = { 2, 4, 10, 12 };
	static const size_t two[] = { 2, 2 };
	struct nested_diff d;

	(void)state;
	assert_int_equal(stats_nested_diff(a, two, 2, b, two, 2, 0.95, &d), 0);
	check_close("var_between", d.a.var_between, 19, 1e-12, 0);
	check_close("var_within", d.a.var_within, 2, 1e-12, 0);
	check_close("var_mean a", d.a.var_mean, 10, 1e-12, 0);
	check_close("df a", d.a.df, 2, 1e-12, 0);
	check_close("var_mean b", d.b.var_mean, 10, 1e-12, 0);
	check_close("diff", d.diff, 3, 1e-12, 0);
	check_close("se", d.se, sqrt(20.0), 1e-12, 0);
	/* lme optimises the REML likelihood numerically: 1e-8 agreement. */
	check_close("lme se", d.se, 4.472136019, 1e-7, 0);
	check_close("df", d.df, 2, 1e-12, 0);
	check_close("lo", d.ci_low, 3 - 4.302652729749464 * sqrt(20.0), 1e-12, 0);
	check_close("hi", d.ci_high, 3 + 4.302652729749464 * sqrt(20.0), 1e-12, 0);
	check_close("lme lo", d.ci_low, -16.242048249, 1e-7, 0);
	assert_false(d.a.pooled || d.b.pooled);
}

/*
 * Worked by hand: {1, 3}, {2, 4} has MSB = 2 (0.5^2 + 0.5^2) = 1 < MSW = 2,
 * so s2_b is estimated as 0 and the level is the runs' mean 2.5; its
 * variance is not MSW-based but the untruncated one, MSB / N = 1/4 on
 * k - 1 = 1 df: the Student interval of the invocation means {2, 3}
 * (var 0.5, / 2).  A single invocation with nothing to borrow is pooled:
 * S2 of {1, 2, 3, 4} is 5/3, Var = 5/12 on N - 1 = 3 df.
 */
static void test_nested_hand_pooled(void **state)
{
	static const double a[] = { 1, 3, 2, 4 };
	static const size_t two[] = { 2, 2 }, four[] = { 4 };
	struct nested s, one;
	double lo, hi, mlo = 0, mhi = 0, mm = 0;

	(void)state;
	assert_int_equal(stats_nested(a, two, 2, &s), 0);
	assert_true(s.pooled);
	check_close("mean", s.mean, 2.5, 1e-12, 0);
	check_close("var_mean", s.var_mean, 0.25, 1e-12, 0);
	check_close("df", s.df, 1, 1e-12, 0);
	stats_nested_ci(&s, 0.95, &lo, &hi);
	check_close("means lo", lo, 2.5 - 12.70620473617 * 0.5, 1e-10, 0);
	check_close("means hi", hi, 2.5 + 12.70620473617 * 0.5, 1e-10, 0);
	assert_int_equal(stats_nested(a, four, 1, &one), 0);
	assert_true(one.pooled);
	check_close("one invocation var_mean", one.var_mean, 5.0 / 12.0,
		    1e-12, 0);
	check_close("one invocation df", one.df, 3, 1e-12, 0);
	/* The same as the Student interval of the four values. */
	stats_nested_ci(&one, 0.95, &lo, &hi);
	assert_int_equal(stats_mean_ci(a, 4, 0.95, &mm, &mlo, &mhi), 0);
	check_close("lo", lo, mlo, 1e-12, 0);
	check_close("hi", hi, mhi, 1e-12, 0);
}

/*
 * R 4.2.2 with nlme 3.1 (installed only to compute these; not needed to
 * build or test):
 *
 *   library(nlme)
 *   bal <- data.frame(inv = factor(rep(1:3, each = 4)),
 *                     y = c(10.1, 10.4, 9.8, 10.0,  11.2, 11.0, 11.5, 11.3,
 *                           9.6, 9.9, 10.2, 9.7))
 *   m <- lme(y ~ 1, random = ~1 | inv, data = bal, method = "REML")
 *   summary(m)$tTable       # Value 10.39166667  Std.Error 0.4340538837
 *   VarCorr(m)              # inv 0.55055554, Residual 0.05861111
 *
 * In a balanced design REML equals the ANOVA estimator when s2_b > 0, so
 * the components, the level and its standard error must agree.  (nlme
 * prints DF 9 for the intercept, its "containment" rule N - k; the
 * Satterthwaite df is k - 1 = 2, which is what Kenward-Roger also gives
 * here.)
 *
 * Unbalanced (3, 4, 5 runs) REML and ANOVA differ, so the reference there
 * is an independent R computation of the same estimator: aov's mean
 * squares, the GLS level and variance, and Satterthwaite's df from
 * numerical derivatives of V(MSB, MSW):
 *
 *   unb <- data.frame(inv = factor(rep(1:3, times = c(3, 4, 5))),
 *                     y = c(10.1, 10.4, 9.8,  11.2, 11.0, 11.5, 11.3,
 *                           9.6, 9.9, 10.2, 9.7, 10.0))
 *   a <- summary(aov(y ~ inv, data = unb))[[1]]
 *   msb <- a[1, "Mean Sq"]; msw <- a[2, "Mean Sq"]
 *   ni <- as.numeric(table(unb$inv)); N <- sum(ni); k <- length(ni)
 *   n0 <- (N - sum(ni^2) / N) / (k - 1)
 *   V <- function(msb, msw) { sb <- (msb - msw) / n0
 *                             1 / sum(1 / (sb + msw / ni)) }
 *   ... (central differences, h = 1e-6)
 *   -> msb 2.25558333333 msw 0.0597777777778 n0 3.91666666667
 *      sb 0.560631205674 mean 10.4099644181 var 0.192073707385
 *      df 2.00214536781
 *   (lme REML on the same data: 10.40996148, SE 0.4255533, components
 *   0.5277045 and 0.0597533: close, not equal, as expected.)
 */
static void test_nested_r(void **state)
{
	static const double bal[] = { 10.1, 10.4, 9.8, 10.0, 11.2, 11.0,
				      11.5, 11.3, 9.6, 9.9, 10.2, 9.7 };
	static const double unb[] = { 10.1, 10.4, 9.8, 11.2, 11.0, 11.5, 11.3,
				      9.6, 9.9, 10.2, 9.7, 10.0 };
	static const size_t sb[] = { 4, 4, 4 }, su[] = { 3, 4, 5 };
	struct nested s;

	(void)state;
	assert_int_equal(stats_nested(bal, sb, 3, &s), 0);
	check_close("lme mean", s.mean, 10.39166667, 1e-9, 0);
	/* lme optimises the REML likelihood numerically: 1e-8 agreement. */
	check_close("lme se", sqrt(s.var_mean), 0.4340538837, 1e-7, 0);
	check_close("lme var_between", s.var_between, 0.55055554, 1e-7, 0);
	check_close("lme var_within", s.var_within, 0.05861111, 1e-7, 0);
	check_close("balanced df", s.df, 2, 1e-12, 0);
	assert_int_equal(stats_nested(unb, su, 3, &s), 0);
	check_close("msb", s.anova.ms_between, 2.25558333333, 1e-11, 0);
	check_close("msw", s.anova.ms_within, 0.0597777777778, 1e-11, 0);
	check_close("n0", s.anova.n0, 3.91666666667, 1e-11, 0);
	check_close("var_between", s.var_between, 0.560631205674, 1e-11, 0);
	check_close("gls mean", s.mean, 10.4099644181, 1e-11, 0);
	check_close("gls var", s.var_mean, 0.192073707385, 1e-11, 0);
	/* Satterthwaite's 2.00214536781, capped at MSB's k - 1 = 2. */
	check_close("satterthwaite df", s.df, 2, 1e-12, 0);
}

/*
 * s2_b estimated below 0 (MSB < MSW), 2 x 2 a side, worked by hand:
 * a = {1, 3}, {2, 4} (means 2, 3), b = {5, 7}, {6, 6} (means 6, 6).
 * SSB = 1 + 0 on K - 2 = 2 df: MSB = 0.5; SSW = 4 + 2 on 4 df: MSW = 1.5;
 * n0 = (8 - 8/4 - 8/4) / 2 = 2.  Each side's variance is MSB / N =
 * 0.5 / 4 (c1 = 8 / (16 * 2) = 1/4, c2 = 0): V = 0.25, se = 0.5 on 2 df,
 * the pooled t test on the four invocation means (var (0.5 + 0) / 2 =
 * 0.25, se = sqrt(0.25 (1/2 + 1/2))).  diff = 6 - 2.5 = 3.5, t = 7,
 * CI 3.5 -+ 4.302652730 x 0.5.  Pooling the runs as independent instead
 * (S2 = 5/3 and 2/3, Welch) gave se 0.764 on about 5 df.
 */
static void test_nested_untruncated(void **state)
{
	static const double a[] = { 1, 3, 2, 4 }, b[] = { 5, 7, 6, 6 };
	static const size_t sz[] = { 2, 2 };
	struct nested_diff d;

	(void)state;
	assert_int_equal(stats_nested_diff(a, sz, 2, b, sz, 2, 0.95, &d), 0);
	check_close("diff", d.diff, 3.5, 1e-12, 0);
	check_close("se", d.se, 0.5, 1e-12, 0);
	check_close("df", d.df, 2, 1e-12, 0);
	check_close("t", d.t, 7, 1e-12, 0);
	check_close("ci_low", d.ci_low, 3.5 - 4.302652730 * 0.5, 1e-8, 0);
	check_close("ci_high", d.ci_high, 3.5 + 4.302652730 * 0.5, 1e-8, 0);
	assert_true(d.a.pooled && d.b.pooled);
}

/*
 * A single candidate invocation uses the baseline's invocations for s2_b.
 * Baseline: the balanced data above (3 x 4); candidate: 10.0, 10.2, 10.4.
 * R:
 *   d <- data.frame(side = factor(rep(c("a", "b"), times = c(12, 3))),
 *                   inv = factor(rep(1:4, times = c(4, 4, 4, 3))), y = ...)
 *   summary(aov(y ~ side + side:inv, data = d))
 *     -> side:inv 2 df, Mean Sq 2.2608;  Residuals 11 df, 0.0552
 *   n0 = (15 - (48/12 + 9/3)) / 2 = 4; V(msb, msw) = GLS variance of a
 *   + (s2_b + msw / 3), Satterthwaite by central differences:
 *     msb 2.26083333333 msw 0.0552272727273 sb 0.551401515152
 *     V 0.758213383838 Vb 0.569810606061 df 2.02448870052
 *     diff -0.191666666667
 *   nlme::lme(y ~ side, random = ~1 | inv, method = "REML"):
 *     sideb -0.1916666667, Std.Error 0.8707530671 (near sqrt(0.7582134):
 *     REML variances 0.55139964, 0.05522731 against the ANOVA
 *     0.55140152, 0.05522727; the SEs agree to 2e-6).
 */
static void test_nested_borrow(void **state)
{
	static const double bal[] = { 10.1, 10.4, 9.8, 10.0, 11.2, 11.0,
				      11.5, 11.3, 9.6, 9.9, 10.2, 9.7 };
	static const double one[] = { 10.0, 10.2, 10.4 };
	static const size_t sb[] = { 4, 4, 4 }, s1[] = { 3 };
	struct nested_diff d;

	(void)state;
	assert_int_equal(stats_nested_diff(bal, sb, 3, one, s1, 1, 0.95, &d), 0);
	assert_true(d.b.borrowed);
	assert_false(d.a.borrowed);
	check_close("var_between", d.b.var_between, 0.551401515152, 1e-10, 0);
	check_close("V", d.se * d.se, 0.758213383838, 1e-10, 0);
	check_close("Vb", d.b.var_mean, 0.569810606061, 1e-10, 0);
	check_close("diff", d.diff, -0.191666666667, 1e-11, 0);
	/* Satterthwaite's 2.0245, capped at MSB's K - 2 = 2 df. */
	check_close("df", d.df, 2, 1e-12, 0);
	/* REML is not the ANOVA estimator off balance: 2e-6 apart here. */
	check_close("lme se", d.se, 0.8707530671, 1e-5, 0);
	/* The other way round: the baseline is the single invocation. */
	assert_int_equal(stats_nested_diff(one, s1, 1, bal, sb, 3, 0.95, &d), 0);
	assert_true(d.a.borrowed);
	check_close("df swapped", d.df, 2, 1e-12, 0);
}

/*
 * Limits: with s2_b estimated as 0 the level is the runs' mean and, the
 * design balanced, its variance and df those of the invocation means
 * (k - 1 df; the pooled runs' N - 1 df undercover when s2_b > 0 is merely
 * hidden by noise); with s2_b dominant the invocation-means one too.
 */
static void test_nested_limits(void **state)
{
	/* Within spread 1, invocation offsets 0 / 1000. */
	double small[20], big[20], means[4];
	static const size_t five[] = { 5, 5, 5, 5 };
	struct nested s;
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++) {
		double e = (double)(i % 5) - 2;     /* -2 .. 2 in each group */

		small[i] = 100 + e + 0.001 * (double)(i / 5);
		big[i] = 100 + 0.001 * e + 10 * (double)(i / 5) *
			 ((i / 5) % 2 ? 1 : -1);
	}
	assert_int_equal(stats_nested(small, five, 4, &s), 0);
	assert_true(s.pooled);
	check_close("pooled df", s.df, 3, 1e-12, 0);
	check_close("pooled mean", s.mean, gsl_stats_mean(small, 1, 20), 1e-12,
		    0);
	for (i = 0; i < 4; i++)
		means[i] = gsl_stats_mean(small + 5 * i, 1, 5);
	check_close("pooled var", s.var_mean,
		    gsl_stats_variance(means, 1, 4) / 4, 1e-9, 0);
	assert_int_equal(stats_nested(big, five, 4, &s), 0);
	assert_false(s.pooled);
	check_close("means df", s.df, 3, 1e-6, 0);
	for (i = 0; i < 4; i++)
		means[i] = gsl_stats_mean(big + 5 * i, 1, 5);
	check_close("means var", s.var_mean,
		    gsl_stats_variance(means, 1, 4) / 4, 1e-9, 0);
}

/*
 * Planning: the MDE's df are the interval's, 2(k - 1) with k >= 2 a side
 * whatever s2_b: at s2_b = 0, k = 2, n = 5, s2_w = 4,
 * (t_{.975,2} + t_{.8,2}) sqrt(2 (4/5) / 2), the df-2 quantiles in closed
 * form (2p - 1) / sqrt(2p(1 - p)): 4.302652729749464, 1.0606601717798212.
 * With s2_w = 0 that of k invocation means.
 */
static void test_nested_plan(void **state)
{
	(void)state;
	check_close("pooled", stats_nested_mde(0, 4, 5, 2, 0.05, 0.8),
		    (4.302652729749464 + 1.0606601717798212) * sqrt(0.8),
		    1e-10, 0);
	check_close("means", stats_nested_mde(4, 0, 5, 10, 0.05, 0.8),
		    stats_mde(2, 10, 0.05, 0.8), 1e-12, 0);
	assert_int_equal(stats_nested_needed_k(4, 0, 5, stats_mde(2, 10, 0.05,
								 0.8), 0.05,
					       0.8), 10);
}

/*
 * The plan, by hand.  s2_b = 1, s2_w = 100, a boot 120 s, a run 1.2 s:
 * r* = sqrt(120/1.2 x 100/1) = 100 exactly, f(100) = 2 x 240 = 480 <
 * f(101) = 1.990099 x 241.2 = 480.01: R = 100; B is the fewest boots
 * whose MDE is <= delta (one fewer is not).  s2_b = 0, s2_w = 1, delta 1,
 * a boot 120 s, a run 1 s: k = 2 needs r = ceil(2 q^2 / 2) with q =
 * 5.363313 (above): 29, cost 2 (120 + 29) = 298; k = 3 (df 4, t 2.776445
 * + 0.940965 = 3.717410): r = ceil(2 x 13.8191 / 3) = 10, cost 390; k = 4
 * (df 6, 2.446912 + 0.905703): r = 6, cost 504: 2 boots of 29 runs.
 */
static void test_boot_plan(void **state)
{
	struct boot_plan p;

	(void)state;
	assert_int_equal(stats_boot_plan(1, 100, 120, 1.2, 10, 1, 0.05, 0.8,
					 &p), 0);
	check_close("r*", p.runs_opt, 100, 1e-12, 0);
	assert_int_equal(p.runs, 100);
	assert_true(p.boots >= 2);
	assert_true(stats_nested_mde(1, 100, 100, p.boots, 0.05, 0.8) <= 1);
	assert_true(stats_nested_mde(1, 100, 100, p.boots - 1, 0.05, 0.8) > 1);
	assert_int_equal(stats_boot_plan(0, 1, 120, 1, 10, 1, 0.05, 0.8, &p),
			 0);
	assert_true(isinf(p.runs_opt));
	assert_int_equal(p.boots, 2);
	assert_int_equal(p.runs, 29);
	/* The run's cost unknown: runs per boot as now (10). */
	assert_int_equal(stats_boot_plan(1, 100, 120, NAN, 10, 1, 0.05, 0.8,
					 &p), 0);
	assert_int_equal(p.runs, 10);
	assert_true(isnan(p.runs_opt));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_anova_nist_sirstv),
		cmocka_unit_test(test_anova_unbalanced),
		cmocka_unit_test(test_anova_negative_component),
		cmocka_unit_test(test_anova_recovers_components),
		cmocka_unit_test(test_nested_hand_balanced),
		cmocka_unit_test(test_nested_hand_pooled),
		cmocka_unit_test(test_nested_r),
		cmocka_unit_test(test_nested_borrow),
		cmocka_unit_test(test_nested_untruncated),
		cmocka_unit_test(test_nested_limits),
		cmocka_unit_test(test_nested_plan),
		cmocka_unit_test(test_boot_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
