/*
 * stats.c - the statistics of stats.h.  GSL does the moments, sorting,
 * correlations and distributions; this file adds only what GSL lacks
 * (Welch df, Mann-Whitney, D'Agostino's transformations, Hedges' g, the
 * order-statistic median interval, power, variance components).
 * docs/STATISTICS.md gives each formula and its reference.
 *
 * Conventions: a field that cannot be computed (n too small, zero
 * variance) is NAN and the function still returns 0; -1 with error() is
 * kept for arguments no caller should pass (a confidence outside (0, 1),
 * non-finite samples, an empty ANOVA group).
 */
#include "analysis/stats.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "lib/util.h"

/* Iglewicz & Hoaglin: 0.6745 = Phi^-1(3/4), so 0.6745 / MAD estimates 1/sigma. */
#define MODZ_MAD 0.6745
/* sqrt(pi/2): sigma / E|X - mu| for a normal law, the fallback when MAD = 0. */
#define MODZ_MEANAD 1.2533141373155003
/* Exact Mann-Whitney p below this size on both sides (R's wilcox.test rule). */
#define MW_EXACT_LIMIT 50

/* Exact equality without -Wfloat-equal's complaint: ties are exact here. */
static bool same(double a, double b)
{
	return !(a < b) && !(a > b);
}

static bool valid_confidence(double c)
{
	return c > 0.0 && c < 1.0;
}

static int check_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return error("stats: sample %zu of %zu is not a finite number",
				     i + 1, n);
	return 0;
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof(*s));

	memcpy(s, x, n * sizeof(*s));
	gsl_sort(s, 1, n);
	return s;
}

/* Two-sided Student-t quantile t_{(1+c)/2, df}. */
static double t_crit(double confidence, double df)
{
	return gsl_cdf_tdist_Pinv((1.0 + confidence) / 2.0, df);
}

/* Two-sided p of a t statistic with df degrees of freedom. */
static double t_pvalue(double t, double df)
{
	return fmin(1.0, 2.0 * gsl_cdf_tdist_Q(fabs(t), df));
}

/* ---- one sample ------------------------------------------------------- */

/*
 * Raw MAD of x around med (scratch: n doubles, left permuted).  GSL's
 * selection median, not a sort: the same order statistics in linear time
 * (a sort here was a third of the report's time at a million samples).
 */
static double mad_around(const double *x, size_t n, double med, double *scratch)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(x[i] - med);
	return gsl_stats_median(scratch, 1, n);
}

/*
 * The scale that turns x - median into a modified z-score, or 0 when the
 * sample has no spread at all.  MAD = 0 happens when more than half of the
 * values are equal (integer counters often are); the score is then
 * undefined, so fall back to the mean absolute deviation scaled to a
 * normal sigma, as Iglewicz & Hoaglin's z does with the MAD.
 */
static double modz_scale(const double *x, size_t n, double med, double mad)
{
	double meanad = 0.0;

	if (mad > 0.0)
		return MODZ_MAD / mad;
	for (size_t i = 0; i < n; i++)
		meanad += fabs(x[i] - med);
	meanad /= (double)n;
	return meanad > 0.0 ? 1.0 / (MODZ_MEANAD * meanad) : 0.0;
}

/*
 * Split from stats_outliers so a summary, which has the median and MAD
 * already, does not sort the sample twice more (the report's hot spot at
 * a million samples, docs/PERFORMANCE.md).
 */
size_t stats_outliers_around(const double *x, size_t n, double med,
			     double mad, double threshold, size_t *idx)
{
	double scale = modz_scale(x, n, med, mad);
	size_t count = 0;

	for (size_t i = 0; scale > 0.0 && i < n; i++)
		if (fabs(x[i] - med) * scale > threshold) {
			if (idx)
				idx[count] = i;
			count++;
		}
	return count;
}

size_t stats_outliers(const double *x, size_t n, double threshold, size_t *idx)
{
	double *s, med, mad;
	size_t count;

	if (n == 0)
		return 0;
	s = sorted_copy(x, n);
	med = gsl_stats_median_from_sorted_data(s, 1, n);
	mad = mad_around(x, n, med, s);
	count = stats_outliers_around(x, n, med, mad, threshold, idx);
	free(s);
	return count;
}

/* P(B <= j) for B ~ Binomial(n, 1/2). */
static double binom_half_cdf(size_t j, size_t n)
{
	return gsl_cdf_binomial_P((unsigned)j, 0.5, (unsigned)n);
}

int stats_median_ci(const double *sorted, size_t n, double confidence,
		    double *lo, double *hi, double *level)
{
	double tail = (1.0 - confidence) / 2.0;
	size_t k = 0, bad = (n + 1) / 2 + 1;

	*lo = *hi = *level = NAN;
	if (!valid_confidence(confidence))
		return error("stats: confidence %g is not in (0, 1)", confidence);
	if (n == 0 || n > UINT_MAX)
		return -1;
	/*
	 * Largest k <= (n+1)/2 with P(B <= k-1) <= tail: then
	 * P(x_(k) <= median <= x_(n-k+1)) = 1 - 2 P(B <= k-1) >= confidence.
	 * The cdf grows with k, so bisect: k passes (or is 0), bad fails.
	 */
	while (bad - k > 1) {
		size_t mid = k + (bad - k) / 2;

		if (binom_half_cdf(mid - 1, n) <= tail)
			k = mid;
		else
			bad = mid;
	}
	if (k == 0)
		return -1;
	*lo = sorted[k - 1];
	*hi = sorted[n - k];
	*level = 1.0 - 2.0 * binom_half_cdf(k - 1, n);
	return 0;
}

/* D'Agostino's skewness test Z(sqrt b1) (D'Agostino et al. 1990, eq. 2-3). */
static double dagostino_skew_z(double sqrt_b1, double n)
{
	double y = sqrt_b1 * sqrt((n + 1) * (n + 3) / (6.0 * (n - 2)));
	double beta2 = 3.0 * (n * n + 27 * n - 70) * (n + 1) * (n + 3) /
		       ((n - 2) * (n + 5) * (n + 7) * (n + 9));
	double w2 = -1.0 + sqrt(2.0 * (beta2 - 1.0));
	double delta = 1.0 / sqrt(0.5 * log(w2));
	double alpha = sqrt(2.0 / (w2 - 1.0));
	double ya = y / alpha;

	return delta * log(ya + sqrt(ya * ya + 1.0));
}

/* Anscombe & Glynn's kurtosis test Z(b2) (D'Agostino et al. 1990, eq. 4-5). */
static double dagostino_kurt_z(double b2, double n)
{
	double e = 3.0 * (n - 1) / (n + 1);
	double var = 24.0 * n * (n - 2) * (n - 3) /
		     ((n + 1) * (n + 1) * (n + 3) * (n + 5));
	double x = (b2 - e) / sqrt(var);
	double sb1 = 6.0 * (n * n - 5 * n + 2) / ((n + 7) * (n + 9)) *
		     sqrt(6.0 * (n + 3) * (n + 5) / (n * (n - 2) * (n - 3)));
	double a = 6.0 + 8.0 / sb1 * (2.0 / sb1 + sqrt(1.0 + 4.0 / (sb1 * sb1)));
	double denom = 1.0 + x * sqrt(2.0 / (a - 4.0));
	double term1 = 1.0 - 2.0 / (9.0 * a);
	double term2;

	if (same(denom, 0.0))
		return NAN;
	term2 = copysign(cbrt((1.0 - 2.0 / a) / fabs(denom)), denom);
	return (term1 - term2) / sqrt(2.0 / (9.0 * a));
}

int stats_dagostino(const double *x, size_t n, double *k2, double *p)
{
	double mean, sd, g1, g2, r, zs, zk;

	*k2 = *p = NAN;
	if (n < 8)
		return 0;
	if (check_finite(x, n) < 0)
		return -1;
	mean = gsl_stats_mean(x, 1, n);
	sd = gsl_stats_sd_m(x, 1, n, mean);
	if (!(sd > 0.0))
		return 0;
	/*
	 * GSL's moments divide by the n-1 sd; the test wants the moment
	 * ratios sqrt(b1) = m3/m2^1.5 and b2 = m4/m2^2, m2 = (n-1)/n sd^2.
	 */
	g1 = gsl_stats_skew_m_sd(x, 1, n, mean, sd);
	g2 = gsl_stats_kurtosis_m_sd(x, 1, n, mean, sd);
	r = (double)n / (double)(n - 1);
	zs = dagostino_skew_z(g1 * pow(r, 1.5), (double)n);
	zk = dagostino_kurt_z((g2 + 3.0) * r * r, (double)n);
	if (!isfinite(zs) || !isfinite(zk))
		return 0;
	*k2 = zs * zs + zk * zk;
	*p = gsl_cdf_chisq_Q(*k2, 2.0);
	return 0;
}

double stats_harmonic_mean(const double *x, size_t n)
{
	double sum = 0.0;

	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0.0))
			return NAN; /* a zero rate has no reciprocal */
		sum += 1.0 / x[i];
	}
	return n ? (double)n / sum : NAN;
}

static void summary_clear(struct summary *s, size_t n)
{
	*s = (struct summary){
		.n = n,
		.mean = NAN, .sd = NAN, .cv = NAN,
		.median = NAN, .min = NAN, .max = NAN,
		.ci_low = NAN, .ci_high = NAN,
		.median_ci_low = NAN, .median_ci_high = NAN,
		.median_ci_level = NAN, .mad = NAN,
		.skewness = NAN, .kurtosis = NAN, .k2 = NAN, .k2_p = NAN,
	};
}

/* Half-width of the Student-t interval of a mean (n >= 2). */
static double t_half(double sd, size_t n, double confidence)
{
	return t_crit(confidence, (double)(n - 1)) * sd / sqrt((double)n);
}

/* mean, sd, cv and the t interval of the mean. */
static void summarize_moments(const double *x, size_t n, double confidence,
			      struct summary *s)
{
	double half;

	s->mean = gsl_stats_mean(x, 1, n);
	if (n < 2)
		return;
	s->sd = gsl_stats_sd_m(x, 1, n, s->mean);
	if (!same(s->mean, 0.0))
		s->cv = s->sd / fabs(s->mean);
	half = t_half(s->sd, n, confidence);
	s->ci_low = s->mean - half;
	s->ci_high = s->mean + half;
	if (n >= 3 && s->sd > 0.0) {
		s->skewness = gsl_stats_skew_m_sd(x, 1, n, s->mean, s->sd);
		s->kurtosis = gsl_stats_kurtosis_m_sd(x, 1, n, s->mean, s->sd);
	}
}

int stats_mean_ci(const double *x, size_t n, double confidence, double *mean,
		  double *lo, double *hi)
{
	double half;

	*mean = *lo = *hi = NAN;
	if (!valid_confidence(confidence))
		return error("stats: confidence %g is not in (0, 1)", confidence);
	if (check_finite(x, n) < 0)
		return -1;
	if (n == 0)
		return 0;
	*mean = gsl_stats_mean(x, 1, n);
	if (n < 2)
		return 0;
	half = t_half(gsl_stats_sd_m(x, 1, n, *mean), n, confidence);
	*lo = *mean - half;
	*hi = *mean + half;
	return 0;
}

/* median, extremes, median interval, MAD and outliers. */
static void summarize_order(const double *x, size_t n, double confidence,
			    struct summary *s)
{
	double *sorted = sorted_copy(x, n);

	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	/* -1 only means n is too small: the fields stay NAN. */
	(void)stats_median_ci(sorted, n, confidence, &s->median_ci_low,
			      &s->median_ci_high, &s->median_ci_level);
	s->mad = mad_around(x, n, s->median, sorted); /* overwrites sorted */
	s->noutliers = stats_outliers_around(x, n, s->median, s->mad,
					     STATS_OUTLIER_Z, NULL);
	free(sorted);
}

int stats_summarize(const double *x, size_t n, double confidence,
		    struct summary *s)
{
	summary_clear(s, n);
	if (!valid_confidence(confidence))
		return error("stats: confidence %g is not in (0, 1)", confidence);
	if (n == 0)
		return 0;
	if (check_finite(x, n) < 0)
		return -1;
	summarize_moments(x, n, confidence, s);
	summarize_order(x, n, confidence, s);
	return stats_dagostino(x, n, &s->k2, &s->k2_p);
}

/* ---- correlation ------------------------------------------------------ */

/* p of r from t = r sqrt((n-2)/(1-r^2)) with n-2 df. */
static void correlation_finish(struct correlation *c)
{
	double df = (double)c->n - 2.0;

	if (isnan(c->r))
		return;
	if (fabs(c->r) >= 1.0) {
		c->p = 0.0;
		return;
	}
	c->p = t_pvalue(c->r * sqrt(df / (1.0 - c->r * c->r)), df);
}

static bool has_spread(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!same(x[i], x[0]))
			return true;
	return false;
}

/* Common checks: n >= 3 and neither variable constant, else r = NAN. */
static int correlation_start(const double *x, const double *y, size_t n,
			     struct correlation *c)
{
	*c = (struct correlation){ .n = n, .r = NAN, .p = NAN };
	if (check_finite(x, n) < 0 || check_finite(y, n) < 0)
		return -1;
	return n >= 3 && has_spread(x, n) && has_spread(y, n);
}

int stats_pearson(const double *x, const double *y, size_t n,
		  struct correlation *c)
{
	int ok = correlation_start(x, y, n, c);

	if (ok <= 0)
		return ok;
	c->r = gsl_stats_correlation(x, 1, y, 1, n);
	correlation_finish(c);
	return 0;
}

int stats_spearman(const double *x, const double *y, size_t n,
		   struct correlation *c)
{
	int ok = correlation_start(x, y, n, c);
	double *work;

	if (ok <= 0)
		return ok;
	work = xmalloc(2 * n * sizeof(*work));
	c->r = gsl_stats_spearman(x, 1, y, 1, n, work);
	free(work);
	correlation_finish(c);
	return 0;
}

/* ---- fairness --------------------------------------------------------- */

double stats_jain(const uint64_t *ops, size_t n)
{
	double sum = 0.0, sq = 0.0;

	/* Doubles: a sum of squared 64-bit counts overflows any integer. */
	for (size_t i = 0; i < n; i++) {
		sum += (double)ops[i];
		sq += (double)ops[i] * (double)ops[i];
	}
	return sq > 0.0 ? sum * sum / ((double)n * sq) : NAN;
}

double stats_max_share(const uint64_t *ops, size_t n)
{
	double sum = 0.0, max = 0.0;

	for (size_t i = 0; i < n; i++) {
		sum += (double)ops[i];
		max = fmax(max, (double)ops[i]);
	}
	return sum > 0.0 ? max / sum : NAN;
}

/* ---- two samples ------------------------------------------------------ */

int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		double confidence, struct welch *w)
{
	double ma, mb, qa, qb, half;

	*w = (struct welch){ NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if (!valid_confidence(confidence))
		return error("stats: confidence %g is not in (0, 1)", confidence);
	if (check_finite(a, na) < 0 || check_finite(b, nb) < 0)
		return -1;
	if (na == 0 || nb == 0)
		return 0;
	ma = gsl_stats_mean(a, 1, na);
	mb = gsl_stats_mean(b, 1, nb);
	w->diff = mb - ma;
	if (na < 2 || nb < 2)
		return 0;
	/* qa, qb: the squared standard errors of each mean. */
	qa = gsl_stats_variance_m(a, 1, na, ma) / (double)na;
	qb = gsl_stats_variance_m(b, 1, nb, mb) / (double)nb;
	if (!(qa + qb > 0.0))
		return 0;
	w->se = sqrt(qa + qb);
	w->df = (qa + qb) * (qa + qb) /
		(qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
	w->t = w->diff / w->se;
	w->p = t_pvalue(w->t, w->df);
	half = t_crit(confidence, w->df) * w->se;
	w->ci_low = w->diff - half;
	w->ci_high = w->diff + half;
	return 0;
}

/*
 * Mid-ranks (1-based, ties share their average rank) of x[0..n-1] into
 * rank[], and the tie term sum(t^3 - t) over groups of t equal values.
 */
static double midranks(const double *x, size_t n, double *rank)
{
	size_t *p = xmalloc(n * sizeof(*p));
	double ties = 0.0;

	gsl_sort_index(p, x, 1, n);
	for (size_t i = 0, j; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && same(x[p[j]], x[p[i]]); j++)
			;
		t = (double)(j - i);
		for (size_t k = i; k < j; k++)
			rank[p[k]] = (double)(i + j + 1) / 2.0;
		ties += t * t * t - t;
	}
	free(p);
	return ties;
}

/*
 * Exact null distribution of U for samples of m and N-m: choose the ranks
 * of the smaller sample one by one; rank i taken as the k-th smallest adds
 * i - k to U.  count[k][u] is a 0/1 knapsack over ranks (the counts are
 * the Gaussian binomial coefficient [N over m]_q).  Returns P(U <= u) and
 * P(U >= u) for the observed u.
 */
static void mw_exact_tails(size_t m, size_t N, size_t u, double *le, double *ge)
{
	size_t umax = m * (N - m), width = umax + 1;
	double *c = xcalloc((m + 1) * width, sizeof(*c));
	double total = 0.0, below = 0.0, above = 0.0;

	c[0] = 1.0;
	for (size_t i = 1; i <= N; i++) {
		for (size_t k = (i < m ? i : m); k >= 1; k--) {
			size_t shift = i - k;

			if (shift > N - m)
				continue;
			for (size_t s = umax + 1; s-- > shift;)
				c[k * width + s] += c[(k - 1) * width + s - shift];
		}
	}
	for (size_t s = 0; s <= umax; s++) {
		double f = c[m * width + s];

		total += f;
		below += s <= u ? f : 0.0;
		above += s >= u ? f : 0.0;
	}
	*le = below / total;
	*ge = above / total;
	free(c);
}

/* Normal approximation with tie and continuity correction. */
static void mw_normal(struct mannwhitney *m, double na, double nb, double ties)
{
	double N = na + nb;
	double var = na * nb / 12.0 * ((N + 1.0) - ties / (N * (N - 1.0)));
	double d = m->u - na * nb / 2.0;

	if (!(var > 0.0))
		return; /* every value tied: no ordering to test */
	/* 0.5 toward the mean; |d| <= 0.5 is no evidence at all (p = 1). */
	d = fabs(d) <= 0.5 ? 0.0 : d - copysign(0.5, d);
	m->z = d / sqrt(var);
	m->p = fmin(1.0, 2.0 * gsl_cdf_ugaussian_Q(fabs(m->z)));
}

int stats_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		      struct mannwhitney *m)
{
	size_t N = na + nb;
	double *x, *rank, ties, ra = 0.0;

	*m = (struct mannwhitney){ .u = NAN, .z = NAN, .p = NAN, .exact = false };
	if (check_finite(a, na) < 0 || check_finite(b, nb) < 0)
		return -1;
	if (na == 0 || nb == 0)
		return 0;
	x = xmalloc(N * sizeof(*x));
	rank = xmalloc(N * sizeof(*rank));
	memcpy(x, a, na * sizeof(*x));
	memcpy(x + na, b, nb * sizeof(*x));
	ties = midranks(x, N, rank);
	for (size_t i = 0; i < na; i++)
		ra += rank[i];
	m->u = ra - (double)na * (double)(na + 1) / 2.0;
	mw_normal(m, (double)na, (double)nb, ties);
	if (!(ties > 0.0) && na < MW_EXACT_LIMIT && nb < MW_EXACT_LIMIT) {
		double le, ge;

		/* The law of U is the same for (na, nb) and (nb, na). */
		mw_exact_tails(na < nb ? na : nb, N, (size_t)m->u, &le, &ge);
		m->p = fmin(1.0, 2.0 * fmin(le, ge));
		m->exact = true;
	}
	free(rank);
	free(x);
	return 0;
}

double stats_hedges_g(const double *a, size_t na, const double *b, size_t nb)
{
	double ma, mb, va, vb, sp, df;

	if (na < 2 || nb < 2)
		return NAN;
	ma = gsl_stats_mean(a, 1, na);
	mb = gsl_stats_mean(b, 1, nb);
	va = gsl_stats_variance_m(a, 1, na, ma);
	vb = gsl_stats_variance_m(b, 1, nb, mb);
	df = (double)(na + nb - 2);
	sp = sqrt(((double)(na - 1) * va + (double)(nb - 1) * vb) / df);
	if (!(sp > 0.0))
		return NAN;
	/* Hedges (1981): J = 1 - 3 / (4 df - 1) removes the small-n bias of d. */
	return (1.0 - 3.0 / (4.0 * df - 1.0)) * (mb - ma) / sp;
}

/* ---- power ------------------------------------------------------------ */

static bool valid_power_args(double sd, double alpha, double power)
{
	return sd >= 0.0 && isfinite(sd) && alpha > 0.0 && alpha < 1.0 &&
	       power > 0.0 && power < 1.0;
}

double stats_mde(double sd, size_t n, double alpha, double power)
{
	double df;

	if (n < 2 || !valid_power_args(sd, alpha, power))
		return NAN;
	df = 2.0 * (double)n - 2.0;
	return (gsl_cdf_tdist_Pinv(1.0 - alpha / 2.0, df) +
		gsl_cdf_tdist_Pinv(power, df)) *
	       sd * sqrt(2.0 / (double)n);
}

size_t stats_needed_n(double sd, double delta, double alpha, double power)
{
	double nz;
	size_t n = 2;

	if (!valid_power_args(sd, alpha, power) || !(delta > 0.0) ||
	    !isfinite(delta))
		return 0;
	/*
	 * The normal-law answer 2 ((z_{1-a/2} + z_power) sd / delta)^2 is a
	 * lower bound when power >= 1/2 (t quantiles exceed z quantiles), so
	 * the search starts there instead of at 2.
	 */
	nz = 2.0 * pow((gsl_cdf_ugaussian_Pinv(1.0 - alpha / 2.0) +
			gsl_cdf_ugaussian_Pinv(power)) * sd / delta, 2.0);
	if (nz >= 1e15)
		return SIZE_MAX;
	if (power >= 0.5 && nz > 2.0)
		n = (size_t)nz;
	while (stats_mde(sd, n, alpha, power) > delta)
		n++;
	return n;
}

/* ---- variance components ---------------------------------------------- */

/* Sums of squares between and within groups, centred (two-pass). */
static void anova_sums(const double *x, const size_t *sizes, size_t k,
		       size_t n, double *ssb, double *ssw)
{
	double grand = gsl_stats_mean(x, 1, n);
	const double *g = x;

	*ssb = *ssw = 0.0;
	for (size_t i = 0; i < k; g += sizes[i], i++) {
		double m = gsl_stats_mean(g, 1, sizes[i]);

		*ssb += (double)sizes[i] * (m - grand) * (m - grand);
		for (size_t j = 0; j < sizes[i]; j++)
			*ssw += (g[j] - m) * (g[j] - m);
	}
}

int stats_anova(const double *x, const size_t *sizes, size_t k,
		struct anova *a)
{
	double ssb, ssw, sumsq = 0.0, n;

	*a = (struct anova){ .k = k, .ms_between = NAN, .ms_within = NAN,
			     .f = NAN, .p = NAN, .var_between = NAN,
			     .var_within = NAN, .icc = NAN, .n0 = NAN };
	for (size_t i = 0; i < k; i++) {
		if (sizes[i] == 0)
			return error("stats: ANOVA group %zu of %zu is empty",
				     i + 1, k);
		a->n += sizes[i];
		sumsq += (double)sizes[i] * (double)sizes[i];
	}
	if (check_finite(x, a->n) < 0)
		return -1;
	if (k < 2 || a->n <= k)
		return 0;
	n = (double)a->n;
	anova_sums(x, sizes, k, a->n, &ssb, &ssw);
	a->ms_between = ssb / (double)(k - 1);
	a->ms_within = ssw / (n - (double)k);
	/* n0: the group size that makes E[MS_between] = s2_w + n0 s2_b. */
	a->n0 = (n - sumsq / n) / (double)(k - 1);
	a->var_within = a->ms_within;
	a->var_between = fmax(0.0, (a->ms_between - a->ms_within) / a->n0);
	if (a->var_between + a->var_within > 0.0)
		a->icc = a->var_between / (a->var_between + a->var_within);
	if (a->ms_within > 0.0) {
		a->f = a->ms_between / a->ms_within;
		a->p = gsl_cdf_fdist_Q(a->f, (double)(k - 1), n - (double)k);
	}
	return 0;
}

/* ---- the two-level model ---------------------------------------------- */

static void nested_clear(struct nested *s, size_t k)
{
	*s = (struct nested){ .k = k, .var_between = NAN, .var_within = NAN,
			      .pool_var = NAN, .mean = NAN, .var_mean = NAN,
			      .df = NAN };
}

/* Pooled runs: Var mu = S2 / N on N - 1 df. */
static void nested_pool(const double *x, struct nested *s)
{
	s->pooled = true;
	s->borrowed = false;
	s->d_msb = s->d_msw = 0.0;
	s->var_between = 0.0;
	s->var_within = s->pool_var;
	s->mean = gsl_stats_mean(x, 1, s->n);
	s->var_mean = s->pool_var / (double)s->n;
	s->d_pool = 1.0 / (double)s->n;
}

/* GLS with the side's own components s2_b > 0 (k >= 2). */
static void nested_gls(const double *x, const size_t *sizes, struct nested *s)
{
	double sb = s->var_between, sw = s->var_within, sumw = 0.0;
	double sumwm = 0.0, sumw2 = 0.0, sumw2n = 0.0, n0 = s->anova.n0;
	const double *g = x;

	for (size_t i = 0; i < s->k; g += sizes[i], i++) {
		double ni = (double)sizes[i], w = 1.0 / (sb + sw / ni);

		sumw += w;
		sumwm += w * gsl_stats_mean(g, 1, sizes[i]);
		sumw2 += w * w;
		sumw2n += w * w / ni;
	}
	s->mean = sumwm / sumw;
	s->var_mean = 1.0 / sumw;
	/* dV/ds2_b = V^2 sum w^2, dV/ds2_w = V^2 sum w^2/n_i; s2_b = (MSB - MSW)/n0. */
	s->d_msb = s->var_mean * s->var_mean * sumw2 / n0;
	s->d_msw = s->var_mean * s->var_mean * sumw2n - s->d_msb;
}

/* Sum over the sources of (dV/dMS)^2 MS^2 / df, one side's own sources. */
static double nested_own_terms(const struct nested *s, double d_msb,
			       double d_msw, double d_pool)
{
	const struct anova *a = &s->anova;
	double t = 0.0;

	if (!same(d_msb, 0.0))
		t += pow(d_msb * a->ms_between, 2) / (double)(a->k - 1);
	if (!same(d_msw, 0.0))
		t += pow(d_msw * a->ms_within, 2) / (double)(a->n - a->k);
	if (!same(d_pool, 0.0))
		t += pow(d_pool * s->pool_var, 2) / (double)(s->n - 1);
	return t;
}

/*
 * Satterthwaite: df = V^2 / sum (dV/dMS_j MS_j)^2 / df_j, never below 1
 * (a mean square on a fraction of a degree of freedom is no estimate;
 * below 1 the t quantile explodes: t_{0.975, 0.5} = 160).
 */
static double satterthwaite(double v, double terms)
{
	return terms > 0.0 ? fmax(1.0, v * v / terms) : NAN;
}

int stats_nested(const double *x, const size_t *sizes, size_t k,
		 struct nested *s)
{
	nested_clear(s, k);
	if (k == 0)
		return error("stats: a side of the two-level model has no "
			     "invocations");
	if (stats_anova(x, sizes, k, &s->anova) < 0)
		return -1;
	s->n = s->anova.n;
	if (s->n >= 2)
		s->pool_var = gsl_stats_variance(x, 1, s->n);
	if (k >= 2 && s->anova.var_between > 0.0) {
		s->var_between = s->anova.var_between;
		s->var_within = s->anova.var_within;
		nested_gls(x, sizes, s);
	} else if (s->n >= 2) {
		nested_pool(x, s);
	} else {
		s->mean = x[0];         /* one value: no spread */
		return 0;
	}
	s->df = satterthwaite(s->var_mean,
			      nested_own_terms(s, s->d_msb, s->d_msw,
					       s->d_pool));
	return 0;
}

void stats_nested_ci(const struct nested *s, double confidence, double *lo,
		     double *hi)
{
	double h = isfinite(s->df) && valid_confidence(confidence)
			   ? t_crit(confidence, s->df) * sqrt(s->var_mean)
			   : NAN;

	*lo = s->mean - h;
	*hi = s->mean + h;
	if (same(s->var_mean, 0.0))
		*lo = *hi = s->mean;
}

/* Sums of squares of one side: between its invocations, within them. */
static void side_sums(const double *x, const size_t *sizes, size_t k,
		      double *ssb, double *ssw, double *sumsq)
{
	size_t n = 0;

	*sumsq = 0.0;
	for (size_t i = 0; i < k; i++) {
		n += sizes[i];
		*sumsq += (double)sizes[i] * (double)sizes[i];
	}
	anova_sums(x, sizes, k, n, ssb, ssw);
}

/* The joint ANOVA of two sides: invocations nested in sides. */
struct joint {
	double msb, msw, n0, dfb, dfw, sb;
};

static void joint_anova(const double *xa, const size_t *sa, size_t ka,
			const double *xb, const size_t *sb, size_t kb,
			const struct nested *a, const struct nested *b,
			struct joint *j)
{
	double ssba, sswa, sqa, ssbb, sswb, sqb, n = (double)(a->n + b->n);

	side_sums(xa, sa, ka, &ssba, &sswa, &sqa);
	side_sums(xb, sb, kb, &ssbb, &sswb, &sqb);
	j->dfb = (double)(ka + kb) - 2.0;
	j->dfw = n - (double)(ka + kb);
	j->msb = j->msw = j->n0 = j->sb = NAN;
	if (j->dfw >= 1.0)
		j->msw = (sswa + sswb) / j->dfw;
	if (j->dfb < 1.0 || !(j->dfw >= 1.0))
		return;
	j->msb = (ssba + ssbb) / j->dfb;
	/* E[MSB] = s2_w + n0 s2_b for invocations nested in sides. */
	j->n0 = (n - sqa / (double)a->n - sqb / (double)b->n) / j->dfb;
	j->sb = fmax(0.0, (j->msb - j->msw) / j->n0);
}

/* A side under the joint components s2_b > 0: GLS as nested_gls. */
static void side_joint(const double *x, const size_t *sizes,
		       const struct joint *j, struct nested *s)
{
	s->anova.n0 = j->n0;    /* nested_gls's chain rule uses it */
	s->var_between = j->sb;
	s->var_within = j->msw;
	s->pooled = false;
	s->borrowed = s->k == 1;
	nested_gls(x, sizes, s);
	s->df = satterthwaite(s->var_mean,
			      pow(s->d_msb * j->msb, 2) / j->dfb +
			      pow(s->d_msw * j->msw, 2) / j->dfw);
}

int stats_nested_diff(const double *xa, const size_t *sa, size_t ka,
		      const double *xb, const size_t *sb, size_t kb,
		      double confidence, struct nested_diff *d)
{
	struct joint j;
	double v, h, terms;

	memset(d, 0, sizeof(*d));
	d->se = d->df = d->t = d->p = d->ci_low = d->ci_high = NAN;
	if (!valid_confidence(confidence))
		return error("stats: confidence %g is not in (0, 1)",
			     confidence);
	/* Each side alone first: its ANOVA, and the pooled-runs fit. */
	if (stats_nested(xa, sa, ka, &d->a) < 0 ||
	    stats_nested(xb, sb, kb, &d->b) < 0)
		return -1;
	joint_anova(xa, sa, ka, xb, sb, kb, &d->a, &d->b, &j);
	d->df_between = fmax(0.0, j.dfb);
	if (j.sb > 0.0) {
		side_joint(xa, sa, &j, &d->a);
		side_joint(xb, sb, &j, &d->b);
		terms = pow((d->a.d_msb + d->b.d_msb) * j.msb, 2) / j.dfb +
			pow((d->a.d_msw + d->b.d_msw) * j.msw, 2) / j.dfw;
	} else {
		/* No between-invocation variance: runs pooled, Welch. */
		if (ka >= 2 && d->a.n >= 2)
			nested_pool(xa, &d->a);
		if (kb >= 2 && d->b.n >= 2)
			nested_pool(xb, &d->b);
		terms = nested_own_terms(&d->a, 0, 0, d->a.d_pool) +
			nested_own_terms(&d->b, 0, 0, d->b.d_pool);
	}
	d->diff = d->b.mean - d->a.mean;
	v = d->a.var_mean + d->b.var_mean;
	if (!isfinite(v))
		return 0;
	d->se = sqrt(v);
	if (same(v, 0.0)) {
		d->ci_low = d->ci_high = d->diff;
		return 0;
	}
	d->df = satterthwaite(v, terms);
	d->t = d->diff / d->se;
	d->p = t_pvalue(d->t, d->df);
	h = t_crit(confidence, d->df) * d->se;
	d->ci_low = d->diff - h;
	d->ci_high = d->diff + h;
	return 0;
}

double stats_nested_p_beyond(const struct nested_diff *d, double margin,
			     bool lower)
{
	double t, df = d->df_between >= 1.0 ? fmin(d->df, d->df_between)
					    : d->df;

	if (!(d->se > 0.0) || !isfinite(df))
		return NAN;
	t = (d->diff - margin) / d->se;
	return lower ? gsl_cdf_tdist_P(t, df) : gsl_cdf_tdist_Q(t, df);
}

double stats_nested_mde(double s2_b, double s2_w, size_t n, size_t k,
			double alpha, double power)
{
	double df, v;

	if (!n || !k || !(s2_b >= 0.0) || !(s2_w >= 0.0) ||
	    !valid_power_args(0.0, alpha, power))
		return NAN;
	df = s2_b > 0.0 ? 2.0 * ((double)k - 1.0)
			: 2.0 * ((double)k * (double)n - 1.0);
	if (df < 1.0)
		return NAN;
	v = 2.0 * (s2_b + s2_w / (double)n) / (double)k;
	return (gsl_cdf_tdist_Pinv(1.0 - alpha / 2.0, df) +
		gsl_cdf_tdist_Pinv(power, df)) * sqrt(v);
}

size_t stats_nested_needed_k(double s2_b, double s2_w, size_t n,
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
