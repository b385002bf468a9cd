/*
 * test_stats.c - analysis/stats.c against independent references only:
 * NIST StRD certified values, printed t-tables, published worked examples,
 * hand derivations (written out next to the case), and values from R 4.2
 * and SciPy 1.10 (Debian bookworm packages r-base-core, r-cran-fbasics,
 * python3-scipy; none is needed to build or run these tests) with the
 * one-liner that produced each constant.
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

static void test_outliers(void **state)
{
	size_t idx[7];

	(void)state;
	for (size_t c = 0; c < N_OF(outlier_cases); c++) {
		size_t got = stats_outliers(outlier_cases[c].x, outlier_cases[c].n,
					    STATS_OUTLIER_Z, idx);

		if (got != outlier_cases[c].count)
			fail_msg("%s: %zu outliers, want %zu", outlier_cases[c].name,
				 got, outlier_cases[c].count);
		if (got)
			assert_int_equal(idx[0], outlier_cases[c].first);
	}
}

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
		got = stats_outliers_around(x, n, s.median, s.mad,
					    STATS_OUTLIER_Z, idx);
		if (got != outlier_cases[c].count)
			fail_msg("%s: %zu outliers around, want %zu",
				 outlier_cases[c].name, got,
				 outlier_cases[c].count);
		if (got)
			assert_int_equal(idx[0], outlier_cases[c].first);
		assert_int_equal(stats_outliers_around(x, n, s.median, s.mad,
						       STATS_OUTLIER_Z, NULL),
				 got);
	}
	assert_int_equal(stats_outliers_around(outlier_cases[0].x, 6, 12.5, 1.5,
					       STATS_OUTLIER_Z, idx), 1);
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

/* ---- effect size, power ----------------------------------------------- */

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
 * so s2_b is truncated to 0 and the runs are pooled: S2 of {1, 2, 3, 4} is
 * 5/3, Var = 5/12 on N - 1 = 3 df; the interval is the pooled-runs one.
 * A single invocation with nothing to borrow is pooled too.
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
	check_close("var_mean", s.var_mean, 5.0 / 12.0, 1e-12, 0);
	check_close("df", s.df, 3, 1e-12, 0);
	assert_int_equal(stats_nested(a, four, 1, &one), 0);
	assert_true(one.pooled);
	check_close("one invocation var_mean", one.var_mean, s.var_mean, 1e-12, 0);
	/* The same as the Student interval of the four values. */
	stats_nested_ci(&s, 0.95, &lo, &hi);
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
	check_close("satterthwaite df", s.df, 2.00214536781, 1e-8, 0);
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
	check_close("df", d.df, 2.02448870052, 1e-8, 0);
	/* REML is not the ANOVA estimator off balance: 2e-6 apart here. */
	check_close("lme se", d.se, 0.8707530671, 1e-5, 0);
	/* The other way round: the baseline is the single invocation. */
	assert_int_equal(stats_nested_diff(one, s1, 1, bal, sb, 3, 0.95, &d), 0);
	assert_true(d.a.borrowed);
	check_close("df swapped", d.df, 2.02448870052, 1e-8, 0);
}

/*
 * Limits: with s2_b ~ 0 the interval is the pooled-runs one (N - 1 df),
 * with s2_b dominant the invocation-means one (k - 1 df).
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
	check_close("pooled df", s.df, 19, 1e-12, 0);
	assert_int_equal(stats_nested(big, five, 4, &s), 0);
	assert_false(s.pooled);
	check_close("means df", s.df, 3, 1e-6, 0);
	for (i = 0; i < 4; i++)
		means[i] = gsl_stats_mean(big + 5 * i, 1, 5);
	check_close("means var", s.var_mean,
		    gsl_stats_variance(means, 1, 4) / 4, 1e-9, 0);
}

/*
 * Planning: with s2_b = 0 the MDE of k invocations of n runs is that of
 * kn pooled runs (stats_mde); with s2_w = 0 that of k invocation means.
 */
static void test_nested_plan(void **state)
{
	(void)state;
	check_close("pooled", stats_nested_mde(0, 4, 5, 2, 0.05, 0.8),
		    stats_mde(2, 10, 0.05, 0.8), 1e-12, 0);
	check_close("means", stats_nested_mde(4, 0, 5, 10, 0.05, 0.8),
		    stats_mde(2, 10, 0.05, 0.8), 1e-12, 0);
	assert_int_equal(stats_nested_needed_k(4, 0, 5, stats_mde(2, 10, 0.05,
								 0.8), 0.05,
					       0.8), 10);
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
		cmocka_unit_test(test_outliers),
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
		cmocka_unit_test(test_mannwhitney_exact),
		cmocka_unit_test(test_mannwhitney_ties),
		cmocka_unit_test(test_mannwhitney_small_exact),
		cmocka_unit_test(test_mannwhitney_size_limit),
		cmocka_unit_test(test_hedges_g),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_anova_nist_sirstv),
		cmocka_unit_test(test_anova_unbalanced),
		cmocka_unit_test(test_anova_negative_component),
		cmocka_unit_test(test_anova_recovers_components),
		cmocka_unit_test(test_nested_hand_balanced),
		cmocka_unit_test(test_nested_hand_pooled),
		cmocka_unit_test(test_nested_r),
		cmocka_unit_test(test_nested_borrow),
		cmocka_unit_test(test_nested_limits),
		cmocka_unit_test(test_nested_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
