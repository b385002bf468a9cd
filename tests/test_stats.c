/*
 * test_stats.c - analysis/stats.c against independent references only:
 * NIST StRD certified values, printed t-tables, published worked examples,
 * hand derivations (written out next to the case), and values from R 4.2
 * and SciPy 1.10 (Debian bookworm packages r-base-core, r-cran-fbasics,
 * python3-scipy; none is needed to build or run these tests) with the
 * one-liner that produced each constant.  The cases of
 * analysis/stats_nested.c (power, ANOVA, the two-level model) are in
 * tests/test_stats_nested.c.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/stats.h"
#include "tests/checks.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The same, for a field of a named table case. */
static void check_case_at(const char *name, const char *field, double got,
			  double want, double rel, double abs_tol,
			  const char *file, int line)
{
	char what[128];

	snprintf(what, sizeof(what), "%s: %s", name, field);
	check_close_at(what, got, want, rel, abs_tol, file, line);
}
#define check_case(name, field, got, want, rel, abs_tol) \
	check_case_at(name, field, got, want, rel, abs_tol, __FILE__, __LINE__)

/* ---- NIST StRD univariate: NumAcc1-4 ---------------------------------- */

/*
 * NumAcc1 is 10000001, 10000003, 10000002.  NumAcc2-4 are 1001 values:
 * BASE+0.2, then 500 pairs BASE+0.1, BASE+0.3 with BASE = 1, 1e6, 1e7.
 * Certified: mean BASE+0.2 (NumAcc1: 10000002), sd 0.1 (NumAcc1: 1), all
 * exact.  The decimal data are not all binary64 numbers, so the certified
 * sd is not the sd of the doubles the test can hold: `exact_sd` is the sd
 * of those doubles computed in exact rational arithmetic (Python 3
 * fractions.Fraction(float("1000000.1")) etc., sqrt to 40 digits).  For
 * NumAcc4 the two differ by 5.6e-9 relative, more than the 1e-9 asked, so
 * the certified value is checked to 1e-8 there and the exact one to 1e-9.
 */
static const struct numacc {
	const char *name;
	const char *first, *lo, *hi;  /* the decimal data, as published */
	double mean, sd, exact_sd, sd_tol;
} numacc[] = {
	{ "NumAcc2", "1.2", "1.1", "1.3", 1.2, 0.1, 0.09999999999999997780, 1e-9 },
	{ "NumAcc3", "1000000.2", "1000000.1", "1000000.3", 1000000.2, 0.1,
	  0.10000000003492460, 1e-9 },
	{ "NumAcc4", "10000000.2", "10000000.1", "10000000.3", 10000000.2, 0.1,
	  0.10000000055879354, 1e-8 },
};

static void test_nist_numacc1(void **state)
{
	const double x[] = { 10000001, 10000003, 10000002 };
	struct summary s;

	(void)state;
	assert_int_equal(stats_summarize(x, 3, 0.95, &s), 0);
	check_close("NumAcc1 mean", s.mean, 10000002.0, 1e-15, 0);
	check_close("NumAcc1 sd", s.sd, 1.0, 1e-12, 0);
}

static void test_nist_numacc234(void **state)
{
	double *x = malloc(1001 * sizeof(*x));
	struct summary s;

	(void)state;
	for (size_t k = 0; k < N_OF(numacc); k++) {
		const struct numacc *t = &numacc[k];

		x[0] = strtod(t->first, NULL);
		for (size_t i = 1; i < 1001; i += 2) {
			x[i] = strtod(t->lo, NULL);
			x[i + 1] = strtod(t->hi, NULL);
		}
		assert_int_equal(stats_summarize(x, 1001, 0.95, &s), 0);
		check_case(t->name, "mean", s.mean, t->mean, 1e-14, 0);
		check_case(t->name, "sd (certified)", s.sd, t->sd, t->sd_tol, 0);
		check_case(t->name, "sd (exact, binary data)", s.sd, t->exact_sd,
			   1e-9, 0);
	}
	free(x);
}

/*
 * NIST StRD Michelso (Michelson's 1879 speed of light, 100 values, in
 * 1000 km/s): certified mean 299.852400000000, sd 0.0790105478190518.
 * K^2 of the same data: SciPy 1.10 stats.normaltest(x) -> 0.7231347891186761,
 * p 0.6965836485454735; R fBasics dagoTest(x) -> 0.723134789118680,
 * p 0.696583648545472.
 */
static const double michelso[100] = {
	299.85, 299.74, 299.90, 300.07, 299.93, 299.85, 299.95, 299.98,
	299.98, 299.88, 300.00, 299.98, 299.93, 299.65, 299.76, 299.81,
	300.00, 300.00, 299.96, 299.96, 299.96, 299.94, 299.96, 299.94,
	299.88, 299.80, 299.85, 299.88, 299.90, 299.84, 299.83, 299.79,
	299.81, 299.88, 299.88, 299.83, 299.80, 299.79, 299.76, 299.80,
	299.88, 299.88, 299.88, 299.86, 299.72, 299.72, 299.62, 299.86,
	299.97, 299.95, 299.88, 299.91, 299.85, 299.87, 299.84, 299.84,
	299.85, 299.84, 299.84, 299.84, 299.89, 299.81, 299.81, 299.82,
	299.80, 299.77, 299.76, 299.74, 299.75, 299.76, 299.91, 299.92,
	299.89, 299.86, 299.88, 299.72, 299.84, 299.85, 299.85, 299.78,
	299.89, 299.84, 299.78, 299.81, 299.76, 299.81, 299.79, 299.81,
	299.82, 299.85, 299.87, 299.87, 299.81, 299.74, 299.81, 299.94,
	299.95, 299.80, 299.81, 299.87
};

static void test_nist_michelso(void **state)
{
	struct summary s;

	(void)state;
	assert_int_equal(stats_summarize(michelso, 100, 0.95, &s), 0);
	check_close("Michelso mean", s.mean, 299.852400000000, 1e-14, 0);
	check_close("Michelso sd", s.sd, 0.0790105478190518, 1e-12, 0);
	check_close("Michelso K^2", s.k2, 0.7231347891186761, 1e-9, 0);
	check_close("Michelso K^2 p", s.k2_p, 0.6965836485454735, 1e-9, 0);
}

/* ---- one-sample summary ----------------------------------------------- */

/*
 * Printed t-table (two-sided 90/95/99% columns of any statistics
 * textbook's Table of Student's t): the CI half-width divided by
 * sd/sqrt(n) must be t_{(1+c)/2,n-1} to the table's three decimals.
 */
static const struct {
	size_t n;
	double conf, t;
} t_table[] = {
	{ 3, 0.95, 4.303 }, { 5, 0.95, 2.776 }, { 8, 0.95, 2.365 },
	{ 10, 0.95, 2.262 }, { 21, 0.95, 2.086 }, { 31, 0.95, 2.042 },
	{ 5, 0.99, 4.604 }, { 10, 0.99, 3.250 }, { 11, 0.90, 1.812 },
	{ 21, 0.90, 1.725 },
};

static void test_t_interval_matches_table(void **state)
{
	double x[31];
	struct summary s;

	(void)state;
	for (size_t k = 0; k < N_OF(t_table); k++) {
		size_t n = t_table[k].n;

		for (size_t i = 0; i < n; i++)
			x[i] = (double)(i * i % 7) + 0.5 * (double)i;
		assert_int_equal(stats_summarize(x, n, t_table[k].conf, &s), 0);
		check_close("t_{(1+c)/2,n-1}",
			    (s.ci_high - s.mean) / (s.sd / sqrt((double)n)),
			    t_table[k].t, 0, 5e-4);
		check_close("CI symmetric", s.mean - s.ci_low, s.ci_high - s.mean,
			    1e-12, 0);
	}
}

/*
 * x = {2,4,4,4,5,5,7,9} by hand: mean 5, sum of squares 32, sd
 * sqrt(32/7), cv sd/5, median 4.5; |x - 4.5| sorted = .5 x5, 2.5, 2.5,
 * 4.5 so MAD = .5 and the modified z of 9 is .6745 * 4.5 / .5 = 6.07
 * (outlier) while 2 and 7 score 3.37 (not).  Median CI at 95%:
 * P(B <= 0) = 1/256 <= .025 < P(B <= 1) = 9/256, so k = 1, (x_(1), x_(8))
 * = (2, 9) at level 1 - 2/256.
 * GSL's skewness mean(((x - m)/sd)^3) and excess kurtosis: NumPy
 *   np.mean(((x-m)/s)**3), np.mean(((x-m)/s)**4)-3  with s = x.std(ddof=1)
 *   -> 0.5371324568903997, -0.87060546875
 * K^2: SciPy  stats.normaltest([2,4,4,4,5,5,7,9])
 *   -> statistic=1.8017203381476752, pvalue=0.406220091458396
 */
static void test_summary_hand_example(void **state)
{
	const double x[] = { 9, 2, 4, 5, 4, 7, 4, 5 };
	struct summary s;

	(void)state;
	assert_int_equal(stats_summarize(x, N_OF(x), 0.95, &s), 0);
	assert_int_equal(s.n, 8);
	check_close("mean", s.mean, 5.0, 1e-15, 0);
	check_close("sd", s.sd, sqrt(32.0 / 7.0), 1e-14, 0);
	check_close("cv", s.cv, sqrt(32.0 / 7.0) / 5.0, 1e-14, 0);
	check_close("median", s.median, 4.5, 0, 0);
	check_close("min", s.min, 2.0, 0, 0);
	check_close("max", s.max, 9.0, 0, 0);
	/* t_{0.975,7} = 2.365 (printed table) */
	check_close("ci_low", s.ci_low, 5.0 - 2.365 * sqrt(32.0 / 7.0 / 8.0), 0, 2e-3);
	check_close("ci_high", s.ci_high, 5.0 + 2.365 * sqrt(32.0 / 7.0 / 8.0), 0, 2e-3);
	check_close("median_ci_low", s.median_ci_low, 2.0, 0, 0);
	check_close("median_ci_high", s.median_ci_high, 9.0, 0, 0);
	check_close("median_ci_level", s.median_ci_level, 1.0 - 2.0 / 256.0, 1e-14, 0);
	check_close("mad", s.mad, 0.5, 0, 0);
	assert_int_equal(s.noutliers, 1);
	check_close("skewness", s.skewness, 0.5371324568903997, 1e-12, 0);
	check_close("kurtosis", s.kurtosis, -0.87060546875, 1e-12, 0);
	check_close("k2", s.k2, 1.8017203381476752, 1e-10, 0);
	check_close("k2_p", s.k2_p, 0.406220091458396, 1e-10, 0);
}

/*
 * stats_mean_ci is the mean and t interval alone: on the hand example
 * above, 5 +- t_{0.975,7} sqrt(32/7/8) with t = 2.365 from the printed
 * table; n 0 and 1 give NAN where stats_summarize does; bad input -1.
 */
static void test_mean_ci(void **state)
{
	const double x[] = { 9, 2, 4, 5, 4, 7, 4, 5 };
	const double bad[] = { 1.0, INFINITY };
	double mean, lo, hi;

	(void)state;
	assert_int_equal(stats_mean_ci(x, N_OF(x), 0.95, &mean, &lo, &hi), 0);
	check_close("mean", mean, 5.0, 1e-15, 0);
	check_close("lo", lo, 5.0 - 2.365 * sqrt(32.0 / 7.0 / 8.0), 0, 2e-3);
	check_close("hi", hi, 5.0 + 2.365 * sqrt(32.0 / 7.0 / 8.0), 0, 2e-3);
	assert_int_equal(stats_mean_ci(x, 0, 0.95, &mean, &lo, &hi), 0);
	assert_true(isnan(mean) && isnan(lo) && isnan(hi));
	assert_int_equal(stats_mean_ci(x, 1, 0.95, &mean, &lo, &hi), 0);
	check_close("n=1 mean", mean, 9.0, 0, 0);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(stats_mean_ci(bad, 2, 0.95, &mean, &lo, &hi), -1);
	assert_int_equal(stats_mean_ci(x, 8, 1.0, &mean, &lo, &hi), -1);
}

static void test_summary_small_and_degenerate(void **state)
{
	const double one[] = { 3.0 };
	const double same[] = { 7, 7, 7, 7, 7, 7 };
	const double bad[] = { 1.0, NAN, 2.0 };
	struct summary s;

	(void)state;
	assert_int_equal(stats_summarize(one, 0, 0.95, &s), 0);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean) && isnan(s.median) && isnan(s.ci_low));

	assert_int_equal(stats_summarize(one, 1, 0.95, &s), 0);
	check_close("n=1 mean", s.mean, 3.0, 0, 0);
	check_close("n=1 median", s.median, 3.0, 0, 0);
	assert_true(isnan(s.sd) && isnan(s.cv) && isnan(s.ci_low) &&
		    isnan(s.ci_high) && isnan(s.median_ci_low) && isnan(s.k2));

	/* Zero spread: a zero-width t interval, no skewness, no K^2. */
	assert_int_equal(stats_summarize(same, N_OF(same), 0.95, &s), 0);
	check_close("const sd", s.sd, 0.0, 0, 0);
	check_close("const cv", s.cv, 0.0, 0, 0);
	check_close("const ci_low", s.ci_low, 7.0, 0, 0);
	assert_true(isnan(s.skewness) && isnan(s.k2) && isnan(s.k2_p));
	assert_int_equal(s.noutliers, 0);

	/* Mean 0: the cv is undefined, not infinite. */
	{
		const double z[] = { -1, 1, -2, 2 };

		assert_int_equal(stats_summarize(z, 4, 0.95, &s), 0);
		assert_true(isnan(s.cv));
	}

	assert_int_equal(stats_summarize(bad, 3, 0.95, &s), -1);
	assert_int_equal(stats_summarize(one, 1, 1.0, &s), -1);
	assert_int_equal(stats_summarize(one, 1, 0.0, &s), -1);
}

/* ---- median CI -------------------------------------------------------- */

/*
 * R 4.2:  j <- which(pbinom(0:(n-1), n, .5) <= (1-c)/2); k <- max(j);
 *         1 - 2*pbinom(k-1, n, .5)
 * n = 6 at 95% is also by hand: k = 1, level 1 - 2/64; n = 7 at 50%:
 * P(B <= 2) = 29/128 <= 0.25 < P(B <= 3) = 1/2, k = 3, level 1 - 58/128.
 */
static const struct {
	size_t n;
	double conf;
	size_t k;
	double level;
} median_ci_cases[] = {
	{ 6, 0.95, 1, 0.96875 },
	{ 10, 0.95, 2, 0.978515625 },
	{ 10, 0.99, 1, 0.998046875 },
	{ 50, 0.95, 18, 0.967160862435731 },
	{ 50, 0.99, 16, 0.993399552033189 },
	{ 100, 0.95, 40, 0.964799799782295 },
	{ 100, 0.99, 37, 0.993362879484074 },
	{ 7, 0.50, 3, 0.546875 },
	{ 10001, 0.95, 4902, 0.952290761199335 },
};

static void test_median_ci(void **state)
{
	double *x = malloc(10001 * sizeof(*x)), lo, hi, level;

	(void)state;
	for (size_t i = 0; i < 10001; i++)
		x[i] = 10.0 * (double)(i + 1); /* x_(i) = 10 i, 1-based */
	for (size_t c = 0; c < N_OF(median_ci_cases); c++) {
		size_t n = median_ci_cases[c].n, k = median_ci_cases[c].k;

		assert_int_equal(stats_median_ci(x, n, median_ci_cases[c].conf,
						 &lo, &hi, &level), 0);
		check_close("lo = x_(k)", lo, 10.0 * (double)k, 0, 0);
		check_close("hi = x_(n-k+1)", hi, 10.0 * (double)(n - k + 1), 0, 0);
		check_close("level", level, median_ci_cases[c].level, 1e-12, 0);
	}
	/* n = 5: 2 (1/2)^5 = 0.0625 > 0.05; n = 6 at 99%: 2/64 > 0.01. */
	assert_int_equal(stats_median_ci(x, 5, 0.95, &lo, &hi, &level), -1);
	assert_true(isnan(lo) && isnan(hi) && isnan(level));
	assert_int_equal(stats_median_ci(x, 6, 0.99, &lo, &hi, &level), -1);
	assert_int_equal(stats_median_ci(x, 0, 0.95, &lo, &hi, &level), -1);
	free(x);
}

/* ---- outliers --------------------------------------------------------- */

/*
 * By hand.  {10,11,12,13,14,v}: median 12.5, |x - 12.5| of the first five
 * are 2.5 1.5 .5 .5 1.5, so MAD = 1.5 while |v - 12.5| >= 1.5.  v = 20:
 * z = .6745 * 7.5 / 1.5 = 3.37 (near miss); v = 21: 3.82 (outlier); v =
 * 50: 16.9.  MAD = 0 (more than half equal): z = (x - med) / (1.2533 *
 * mean |x - med|); {5 x6, 100}: 95 / (1.2533 * 95/7) = 5.59 (outlier);
 * {5,5,5,5,6,7,8}: 3 / (1.2533 * 6/7) = 2.79 (not); all equal: none.
 */
static const struct {
	const char *name;
	double x[7];
	size_t n;
	size_t count;
	size_t first;
} outlier_cases[] = {
	{ "far", { 10, 11, 12, 13, 14, 50 }, 6, 1, 5 },
	{ "just above 3.5", { 10, 11, 12, 13, 14, 21 }, 6, 1, 5 },
	{ "just below 3.5", { 10, 11, 12, 13, 14, 20 }, 6, 0, 0 },
	{ "low side", { -30, 11, 12, 13, 14, 12.5 }, 6, 1, 0 },
	{ "mad 0, far", { 5, 5, 5, 100, 5, 5, 5 }, 7, 1, 3 },
	{ "mad 0, near", { 5, 5, 5, 5, 6, 7, 8 }, 7, 0, 0 },
	{ "all equal", { 5, 5, 5, 5, 5 }, 5, 0, 0 },
	{ "one value", { 5 }, 1, 0, 0 },
};

/*
 * The same cases through a summary, which counts outliers from its own
 * median and MAD, and through stats_outliers_around given that median
 * and MAD (by hand above: "far" has median 12.5 and MAD 1.5).
 */
static void test_outliers_around(void **state)
{
	size_t idx[7];
	struct summary s;

	(void)state;
	for (size_t c = 0; c < N_OF(outlier_cases); c++) {
		const double *x = outlier_cases[c].x;
		size_t n = outlier_cases[c].n, got;

		assert_int_equal(stats_summarize(x, n, 0.95, &s), 0);
		if (s.noutliers != outlier_cases[c].count)
			fail_msg("%s: summary counts %zu outliers, want %zu",
				 outlier_cases[c].name, s.noutliers,
				 outlier_cases[c].count);
		got = stats_outliers_around(x, n, s.median, s.mad, idx);
		if (got != outlier_cases[c].count)
			fail_msg("%s: %zu outliers around, want %zu",
				 outlier_cases[c].name, got,
				 outlier_cases[c].count);
		if (got)
			assert_int_equal(idx[0], outlier_cases[c].first);
		assert_int_equal(stats_outliers_around(x, n, s.median, s.mad, NULL),
				 got);
	}
	assert_int_equal(stats_outliers_around(outlier_cases[0].x, 6, 12.5, 1.5,
					       idx), 1);
	assert_int_equal(idx[0], 5);
}

/* ---- normality -------------------------------------------------------- */

/*
 * SciPy 1.10:  stats.normaltest(d)  (d1 warns that n < 20: kurtosistest
 * "only valid for n>=20", as documented in docs/STATISTICS.md).
 * d2 also by R fBasics 4021.93:  dagoTest(d2)  -> Omnibus
 * 24.67992885821130, p 4.37342357362258e-06 (the two agree to 1e-14).
 */
static const struct {
	const char *name;
	double x[25];
	size_t n;
	double k2, p;
} k2_cases[] = {
	{ "d1 n=10",
	  { 0.873, 2.817, 0.121, -0.945, -0.055, -1.436, 0.360, -1.478, -1.637,
	    -1.869 },
	  10, 3.3918758941075353, 0.18342710340675566 },
	{ "d2 n=25 skewed",
	  { 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 7, 8, 9, 11, 13, 16,
	    20, 25, 33, 50 },
	  25, 24.67992885821130, 4.37342357362258e-06 },
};

static void test_dagostino(void **state)
{
	double k2, p;

	(void)state;
	for (size_t c = 0; c < N_OF(k2_cases); c++) {
		assert_int_equal(stats_dagostino(k2_cases[c].x, k2_cases[c].n,
						 &k2, &p), 0);
		check_case(k2_cases[c].name, "K^2", k2, k2_cases[c].k2, 1e-10, 0);
		check_case(k2_cases[c].name, "p", p, k2_cases[c].p, 1e-8, 0);
	}
	/* n < 8 and zero spread: not computable. */
	assert_int_equal(stats_dagostino(k2_cases[0].x, 7, &k2, &p), 0);
	assert_true(isnan(k2) && isnan(p));
	{
		const double c[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };

		assert_int_equal(stats_dagostino(c, 9, &k2, &p), 0);
		assert_true(isnan(k2) && isnan(p));
	}
}

/* ---- harmonic mean, fairness ------------------------------------------ */

static void test_harmonic_mean(void **state)
{
	const double x[] = { 1, 2, 4 };
	const double z[] = { 1, 0, 4 };

	(void)state;
	/* 3 / (1 + 1/2 + 1/4) = 12/7 */
	check_close("hmean", stats_harmonic_mean(x, 3), 12.0 / 7.0, 1e-15, 0);
	assert_true(isnan(stats_harmonic_mean(z, 3)));
	assert_true(isnan(stats_harmonic_mean(x, 0)));
}

/*
 * By hand: Jain {1,1,1,1} = 16/16 = 1; {4,0,0,0} = 16/(4*16) = 1/4;
 * {1,2,3,4} = 100/(4*30) = 5/6.  Max share {1,2,3,4} = 4/10.  Counts near
 * 2^63 must not overflow: {2^62, 2^62} is perfectly fair.
 */
static const struct {
	const char *name;
	uint64_t ops[4];
	size_t n;
	double jain, share;
} fairness_cases[] = {
	{ "equal", { 1, 1, 1, 1 }, 4, 1.0, 0.25 },
	{ "one does all", { 4, 0, 0, 0 }, 4, 0.25, 1.0 },
	{ "1..4", { 1, 2, 3, 4 }, 4, 5.0 / 6.0, 0.4 },
	{ "huge", { UINT64_C(1) << 62, UINT64_C(1) << 62 }, 2, 1.0, 0.5 },
};

static void test_fairness(void **state)
{
	const uint64_t zero[3] = { 0, 0, 0 };

	(void)state;
	for (size_t c = 0; c < N_OF(fairness_cases); c++) {
		check_case(fairness_cases[c].name, "jain",
			   stats_jain(fairness_cases[c].ops, fairness_cases[c].n),
			   fairness_cases[c].jain, 1e-15, 0);
		check_case(fairness_cases[c].name, "max share",
			   stats_max_share(fairness_cases[c].ops, fairness_cases[c].n),
			   fairness_cases[c].share, 1e-15, 0);
	}
	assert_true(isnan(stats_jain(zero, 3)) && isnan(stats_max_share(zero, 3)));
	assert_true(isnan(stats_jain(zero, 0)));
}

/* ---- correlation ------------------------------------------------------ */

/*
 * Anscombe (1973), "Graphs in Statistical Analysis": r = 0.816 for all four
 * sets (published to 3 decimals).  More digits and p from R 4.2:
 *   sapply(1:4, function(i) cor(anscombe[[i]], anscombe[[i+4]]))
 *   sapply(1:4, function(i) cor.test(anscombe[[i]], anscombe[[i+4]])$p.value)
 */
static const double ansc_x123[11] = { 10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5 };
static const double ansc_x4[11] = { 8, 8, 8, 8, 8, 8, 8, 19, 8, 8, 8 };
static const struct {
	const char *name;
	const double *x;
	double y[11];
	double r, p;
} anscombe[] = {
	{ "anscombe I", ansc_x123,
	  { 8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68 },
	  0.816420516344840, 0.00216962887307879 },
	{ "anscombe II", ansc_x123,
	  { 9.14, 8.14, 8.74, 8.77, 9.26, 8.10, 6.13, 3.10, 9.13, 7.26, 4.74 },
	  0.816236506000243, 0.00217881623691079 },
	{ "anscombe III", ansc_x123,
	  { 7.46, 6.77, 12.74, 7.11, 7.81, 8.84, 6.08, 5.39, 8.15, 6.42, 5.73 },
	  0.816286739489598, 0.00217630527922803 },
	{ "anscombe IV", ansc_x4,
	  { 6.58, 5.76, 7.71, 8.84, 8.47, 7.04, 5.25, 12.50, 5.56, 7.91, 6.89 },
	  0.816521436888503, 0.00216460234719722 },
};

static void test_pearson_anscombe(void **state)
{
	struct correlation c;

	(void)state;
	for (size_t k = 0; k < N_OF(anscombe); k++) {
		assert_int_equal(stats_pearson(anscombe[k].x, anscombe[k].y, 11, &c), 0);
		assert_int_equal(c.n, 11);
		/* "0.816" is truncated: set IV is 0.81652. */
		check_case(anscombe[k].name, "r (published)", c.r, 0.816, 0, 1e-3);
		check_case(anscombe[k].name, "r", c.r, anscombe[k].r, 1e-12, 0);
		check_case(anscombe[k].name, "p", c.p, anscombe[k].p, 1e-9, 0);
	}
}

/*
 * Wikipedia, "Spearman's rank correlation coefficient", worked example (IQ
 * against hours of television per week): rho = -29/165 = -0.175757...,
 * p = 0.627188 (t distribution).  Ties: R 4.2
 *   cor(sx, sy, method="spearman") == cor(rank(sx), rank(sy))
 *   -> 0.93812095999547 (mid-ranks);
 *   2*pt(-abs(r*sqrt(8/(1-r^2))), 8) -> 5.95022070769685e-05
 */
static void test_spearman(void **state)
{
	const double iq[] = { 106, 100, 86, 101, 99, 103, 97, 113, 112, 110 };
	const double tv[] = { 7, 27, 2, 50, 28, 29, 20, 12, 6, 17 };
	const double sx[] = { 1, 2, 2, 3, 4, 4, 4, 5, 6, 7 };
	const double sy[] = { 2, 1, 3, 3, 5, 4, 6, 6, 8, 7 };
	struct correlation c;

	(void)state;
	assert_int_equal(stats_spearman(iq, tv, 10, &c), 0);
	check_close("rho", c.r, -29.0 / 165.0, 1e-14, 0);
	check_close("p", c.p, 0.627188344776484, 1e-10, 0);

	assert_int_equal(stats_spearman(sx, sy, 10, &c), 0);
	check_close("rho ties", c.r, 0.93812095999547, 1e-12, 0);
	check_close("p ties", c.p, 5.95022070769685e-05, 1e-8, 0);
}

static void test_correlation_degenerate(void **state)
{
	const double x[] = { 1, 2, 3, 4 };
	const double flat[] = { 5, 5, 5, 5 };
	const double line[] = { 3, 5, 7, 9 };
	struct correlation c;

	(void)state;
	assert_int_equal(stats_pearson(x, flat, 4, &c), 0);
	assert_true(isnan(c.r) && isnan(c.p));
	assert_int_equal(stats_spearman(x, x, 2, &c), 0);
	assert_true(isnan(c.r) && isnan(c.p));
	/* A perfect line: r = 1, p = 0 (t is infinite). */
	assert_int_equal(stats_pearson(x, line, 4, &c), 0);
	check_close("r line", c.r, 1.0, 1e-15, 0);
	check_close("p line", c.p, 0.0, 0, 1e-12);
}

/* ---- Welch ------------------------------------------------------------ */

/*
 * ts1/ts2: a published R session (t.test(ts1, ts2), Welch): t = -1.8325,
 * df = 17.9, p = 0.08356, CI (-2.1469104, 0.1469104) for mean(ts1) -
 * mean(ts2); stats_welch reports b - a, so a = ts1, b = ts2 flips the sign.
 * Full digits: R 4.2  t.test(ts2, ts1).
 * a/b unequal n at 90%: R 4.2  t.test(b, a, conf.level = 0.9).
 */
static const struct {
	const char *name;
	double a[10], b[10];
	size_t na, nb;
	double conf;
	double t, df, p, lo, hi;
} welch_cases[] = {
	{ "ts1 vs ts2",
	  { 11, 9, 10, 11, 10, 12, 9, 11, 12, 9 },
	  { 11, 13, 10, 13, 12, 9, 11, 12, 12, 11 }, 10, 10, 0.95,
	  1.8325416653445783, 17.9003101462117868, 0.0835597916192233,
	  -0.1469103661046342, 2.1469103661046343 },
	{ "unequal n, 90%",
	  { 19.1, 21.3, 20.4, 22.8, 18.7, 20.9 },
	  { 23.5, 25.1, 21.9, 26.4, 24.0, 22.2, 27.3, 24.8 }, 6, 8, 0.90,
	  4.25701893945575716, 11.92299350685913772, 0.00112925033766965,
	  2.24693641910759334, 5.48639691422574050 },
};

static void test_welch(void **state)
{
	struct welch w;

	(void)state;
	for (size_t c = 0; c < N_OF(welch_cases); c++) {
		const char *name = welch_cases[c].name;

		assert_int_equal(stats_welch(welch_cases[c].a, welch_cases[c].na,
					     welch_cases[c].b, welch_cases[c].nb,
					     welch_cases[c].conf, &w), 0);
		check_case(name, "t", w.t, welch_cases[c].t, 1e-12, 0);
		check_case(name, "df", w.df, welch_cases[c].df, 1e-12, 0);
		check_case(name, "p", w.p, welch_cases[c].p, 1e-9, 0);
		check_case(name, "ci_low", w.ci_low, welch_cases[c].lo, 1e-9, 0);
		check_case(name, "ci_high", w.ci_high, welch_cases[c].hi, 1e-9, 0);
		check_case(name, "diff = t se", w.diff, w.t * w.se, 1e-12, 0);
	}
	/* The published 4-5 digit figures themselves. */
	assert_int_equal(stats_welch(welch_cases[0].b, 10, welch_cases[0].a, 10,
				     0.95, &w), 0);
	check_close("published t", w.t, -1.8325, 0, 5e-5);
	check_close("published df", w.df, 17.9, 0, 0.05);
	check_close("published p", w.p, 0.08356, 0, 5e-6);
	check_close("published lo", w.ci_low, -2.1469104, 0, 5e-8);
}

/*
 * A heavy-tailed rate, worked by hand: a = {1, 1, 1, 1, 16} (mean 4, S2 =
 * (4 x 9 + 144) / 4 = 45, Var mean = 9), b = {1, 1, 1, 1, 1} (mean 1, no
 * spread).  Ratio 1/4: -75%.  Log scale: se = sqrt(9 / 16) = 0.75 on
 * a's 4 df alone; t_{0.975, 4} = 2.7764451052 (tables), so log ratio
 * ln(1/4) -+ 2.0823338289 gives [-96.884025339%, +100.579294783%];
 * t = ln(1/4) / 0.75 = -1.84839248149, p = 2 F_4(t), F_4 in closed form
 * 1/2 + 3/8 u (1 - u^2/12), u = t / sqrt(1 + t^2/4): 0.138246774036.
 * Welch on the values instead gives -3 -+ 8.33 on 4 df: [-283%, +133%],
 * a rate falling by more than it had.
 */
static void test_ratio(void **state)
{
	static const double a[] = { 1, 1, 1, 1, 16 }, b[] = { 1, 1, 1, 1, 1 };
	static const double z[] = { 0, 0, 0 };
	struct ratio r;

	(void)state;
	assert_int_equal(stats_ratio_welch(a, 5, b, 5, 0.95, &r), 0);
	check_close("change", r.change_pct, -75, 1e-12, 0);
	check_close("se_log", r.se_log, 0.75, 1e-12, 0);
	check_close("df", r.df, 4, 1e-12, 0);
	check_close("low", r.ci_low_pct, -96.88402533932941, 1e-9, 0);
	check_close("high", r.ci_high_pct, 100.57929478331906, 1e-9, 0);
	check_close("p", r.p, 0.138246774036, 1e-9, 0);
	/* The other way round: +300%, interval [-50.1%, +3100%], same p. */
	assert_int_equal(stats_ratio_welch(b, 5, a, 5, 0.95, &r), 0);
	check_close("rise", r.change_pct, 300, 1e-12, 0);
	check_close("rise low", r.ci_low_pct,
		    100 * (1 / (1 + 1.0057929478331906) - 1), 1e-9, 0);
	check_close("rise p", r.p, 0.138246774036, 1e-9, 0);
	/* Nothing left on the candidate: exactly -100%. */
	assert_int_equal(stats_ratio_welch(a, 5, z, 3, 0.95, &r), 0);
	check_close("gone", r.change_pct, -100, 1e-12, 0);
	check_close("gone low", r.ci_low_pct, -100, 1e-12, 0);
	/* Nothing at the baseline: no ratio. */
	assert_int_equal(stats_ratio_welch(z, 3, a, 5, 0.95, &r), 0);
	assert_true(isnan(r.change_pct) && isnan(r.p));
}

static void test_welch_degenerate(void **state)
{
	const double a[] = { 1, 1, 1 };
	const double b[] = { 2, 2, 2 };
	struct welch w;

	(void)state;
	assert_int_equal(stats_welch(a, 3, b, 3, 0.95, &w), 0);
	check_close("diff", w.diff, 1.0, 0, 0);
	assert_true(isnan(w.t) && isnan(w.p) && isnan(w.df) && isnan(w.ci_low));
	assert_int_equal(stats_welch(a, 1, b, 3, 0.95, &w), 0);
	assert_true(isnan(w.p));
	assert_int_equal(stats_welch(a, 3, b, 3, 1.5, &w), -1);
}

/* ---- Mann-Whitney ----------------------------------------------------- */

/*
 * Hollander & Wolfe (1973), p. 69 (the example of R's ?wilcox.test):
 * permeability constants; W = U of x = 35, exact two-sided p = 0.2544
 * (R 4.2 wilcox.test(x, y): 0.254412254412); normal approximation with
 * continuity correction: wilcox.test(x, y, exact=FALSE)$p.value =
 * 0.244623605126983.  By hand: sigma^2 = 10*5*16/12 = 66.667, U - 25 = 10,
 * z = 9.5 / 8.165 = 1.1635.
 */
static void test_mannwhitney_exact(void **state)
{
	const double x[] = { 0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64,
			     0.73, 1.46 };
	const double y[] = { 1.15, 0.88, 0.90, 0.74, 1.21 };
	struct mannwhitney m;

	(void)state;
	assert_int_equal(stats_mannwhitney(x, 10, y, 5, &m), 0);
	check_close("U", m.u, 35.0, 0, 0);
	assert_true(m.exact);
	check_close("exact p", m.p, 0.254412254412, 1e-10, 0);
	check_close("z", m.z, 9.5 / sqrt(10.0 * 5.0 * 16.0 / 12.0), 1e-12, 0);
	/* Swapping the samples: U' = na nb - U, same p. */
	assert_int_equal(stats_mannwhitney(y, 5, x, 10, &m), 0);
	check_close("U swapped", m.u, 15.0, 0, 0);
	check_close("exact p swapped", m.p, 0.254412254412, 1e-10, 0);
	check_close("z swapped", m.z, -9.5 / sqrt(10.0 * 5.0 * 16.0 / 12.0), 1e-12, 0);
}

/*
 * Ties force the normal approximation.  R 4.2:
 *   ta <- c(3,5,5,6,7,7,7,9); tb <- c(5,6,8,8,9,10,10,12,12)
 *   wilcox.test(ta, tb, exact=FALSE, correct=TRUE) -> W = 13,
 *   p = 0.0290712824378861
 */
static void test_mannwhitney_ties(void **state)
{
	const double ta[] = { 3, 5, 5, 6, 7, 7, 7, 9 };
	const double tb[] = { 5, 6, 8, 8, 9, 10, 10, 12, 12 };
	const double c[] = { 4, 4, 4 };
	struct mannwhitney m;

	(void)state;
	assert_int_equal(stats_mannwhitney(ta, 8, tb, 9, &m), 0);
	check_close("U", m.u, 13.0, 0, 0);
	assert_false(m.exact);
	check_close("p", m.p, 0.0290712824378861, 1e-10, 0);
	assert_true(m.z < 0);
	/* All values equal: no ordering, nothing to test. */
	assert_int_equal(stats_mannwhitney(c, 3, c, 3, &m), 0);
	check_close("U all tied", m.u, 4.5, 0, 0);
	assert_true(isnan(m.z) && isnan(m.p));
}

/*
 * Small exact cases by hand: na = nb = 3 has C(6,3) = 20 orderings; complete
 * separation gives U = 0 in 1 of them, so p = 2/20 = 0.1.  na = 1, nb = 2:
 * U in {0,1,2} each with probability 1/3; U = 1 (middle) has p = 1.
 */
static void test_mannwhitney_small_exact(void **state)
{
	const double lo[] = { 1, 2, 3 }, hi[] = { 4, 5, 6 };
	const double one[] = { 5 }, two[] = { 1, 9 };
	struct mannwhitney m;

	(void)state;
	assert_int_equal(stats_mannwhitney(lo, 3, hi, 3, &m), 0);
	check_close("U", m.u, 0.0, 0, 0);
	check_close("p", m.p, 0.1, 1e-14, 0);
	assert_int_equal(stats_mannwhitney(one, 1, two, 2, &m), 0);
	check_close("U", m.u, 1.0, 0, 0);
	check_close("p", m.p, 1.0, 0, 0);
}

/*
 * Around R's size limit for the exact law, no ties (40i + 5 = 42j has no
 * solution).  R 4.2, a <- 2*(1:n)+0.25; b <- 2.1*(1:n); wilcox.test(a, b):
 * n = 49: exact, W = 1147, p = 0.707720922321546;
 * n = 50: normal with continuity correction, W = 1194, p = 0.702011176969608.
 */
static void test_mannwhitney_size_limit(void **state)
{
	double a[50], b[50];
	struct mannwhitney m;

	(void)state;
	for (size_t i = 0; i < 50; i++) {
		a[i] = 2.0 * (double)(i + 1) + 0.25;
		b[i] = 2.1 * (double)(i + 1);
	}
	assert_int_equal(stats_mannwhitney(a, 49, b, 49, &m), 0);
	assert_true(m.exact);
	check_close("U n=49", m.u, 1147.0, 0, 0);
	check_close("exact p n=49", m.p, 0.707720922321546, 1e-10, 0);
	assert_int_equal(stats_mannwhitney(a, 50, b, 50, &m), 0);
	assert_false(m.exact);
	check_close("U n=50", m.u, 1194.0, 0, 0);
	check_close("normal p n=50", m.p, 0.702011176969608, 1e-10, 0);
}

/* ---- effect size ---------------------------------------------------- */

/*
 * By hand: a = {1,2,3}, b = {4,5,6}: both variances 1, s_pooled = 1,
 * d = 3, J = 1 - 3/(4*6 - 9) = 0.8, g = 2.4.
 */
static void test_hedges_g(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	const double c[] = { 2, 2, 2 };

	(void)state;
	check_close("g", stats_hedges_g(a, 3, b, 3), 2.4, 1e-14, 0);
	check_close("g reversed", stats_hedges_g(b, 3, a, 3), -2.4, 1e-14, 0);
	assert_true(isnan(stats_hedges_g(c, 3, c, 3)));
	assert_true(isnan(stats_hedges_g(a, 1, b, 3)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nist_numacc1),
		cmocka_unit_test(test_nist_numacc234),
		cmocka_unit_test(test_nist_michelso),
		cmocka_unit_test(test_t_interval_matches_table),
		cmocka_unit_test(test_summary_hand_example),
		cmocka_unit_test(test_summary_small_and_degenerate),
		cmocka_unit_test(test_median_ci),
				cmocka_unit_test(test_outliers_around),
		cmocka_unit_test(test_mean_ci),
		cmocka_unit_test(test_dagostino),
		cmocka_unit_test(test_harmonic_mean),
		cmocka_unit_test(test_fairness),
		cmocka_unit_test(test_pearson_anscombe),
		cmocka_unit_test(test_spearman),
		cmocka_unit_test(test_correlation_degenerate),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_welch_degenerate),
		cmocka_unit_test(test_ratio),
		cmocka_unit_test(test_mannwhitney_exact),
		cmocka_unit_test(test_mannwhitney_ties),
		cmocka_unit_test(test_mannwhitney_small_exact),
		cmocka_unit_test(test_mannwhitney_size_limit),
		cmocka_unit_test(test_hedges_g),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
