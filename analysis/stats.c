/*
 * stats.c - the statistics of one sample, of two samples, correlations
 * and fairness (stats.h; power and the two-level model: stats_nested.c).
 * GSL does the moments, sorting, correlations and distributions; this
 * file adds what GSL lacks (Welch df, Mann-Whitney, D'Agostino's
 * transformations, Hedges' g, the order-statistic median interval).
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

/* ---- one sample ------------------------------------------------------- */

/*
 * The scale that turns x - median into a modified z-score, or 0 without
 * spread; MAD = 0 (over half the values equal) falls back to the mean
 * absolute deviation (docs/STATISTICS.md, "Outliers").
 */
static double modz_scale(const double *x, size_t n, double med, double mad)
{
	double meanad;

	if (mad > 0.0)
		return MODZ_MAD / mad;
	meanad = gsl_stats_absdev_m(x, 1, n, med);
	return meanad > 0.0 ? 1.0 / (MODZ_MEANAD * meanad) : 0.0;
}

size_t stats_outliers_around(const double *x, size_t n, double med,
			     double mad, size_t *idx)
{
	double scale = modz_scale(x, n, med, mad);
	size_t count = 0;

	for (size_t i = 0; scale > 0.0 && i < n; i++)
		if (fabs(x[i] - med) * scale > STATS_OUTLIER_Z) {
			if (idx)
				idx[count] = i;
			count++;
		}
	return count;
}

int stats_median_ci(const double *sorted, size_t n, double confidence,
		    double *lo, double *hi, double *level)
{
	double tail = (1.0 - confidence) / 2.0;
	size_t k = 0, bad = (n + 1) / 2 + 1;

	*lo = *hi = *level = NAN;
	if (stats_check_confidence(confidence) < 0 || n == 0 || n > UINT_MAX)
		return -1;
	/*
	 * Largest k <= (n+1)/2 with P(B <= k-1) <= tail: then
	 * P(x_(k) <= median <= x_(n-k+1)) = 1 - 2 P(B <= k-1) >= confidence.
	 * The cdf grows with k, so bisect: k passes (or is 0), bad fails.
	 */
	while (bad - k > 1) {
		size_t mid = k + (bad - k) / 2;

		if (gsl_cdf_binomial_P((unsigned)(mid - 1), 0.5, (unsigned)n) <=
		    tail)
			k = mid;
		else
			bad = mid;
	}
	if (k == 0)
		return -1;
	*lo = sorted[k - 1];
	*hi = sorted[n - k];
	*level = 1.0 - 2.0 * gsl_cdf_binomial_P((unsigned)(k - 1), 0.5,
						(unsigned)n);
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

	if (stats_same(denom, 0.0))
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
	if (stats_check_finite(x, n) < 0)
		return -1;
	mean = gsl_stats_mean(x, 1, n);
	sd = gsl_stats_sd_m(x, 1, n, mean);
	if (!(sd > 0.0))
		return 0;
	/* GSL's moments use the n-1 sd; b1 and b2 want m2 = (n-1)/n sd^2. */
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

/* sd, cv, skewness and kurtosis around the mean already set. */
static void summarize_moments(const double *x, size_t n, struct summary *s)
{
	if (n < 2)
		return;
	s->sd = gsl_stats_sd_m(x, 1, n, s->mean);
	if (!stats_same(s->mean, 0.0))
		s->cv = s->sd / fabs(s->mean);
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
	if (stats_check_confidence(confidence) < 0 ||
	    stats_check_finite(x, n) < 0)
		return -1;
	if (n == 0)
		return 0;
	*mean = gsl_stats_mean(x, 1, n);
	if (n < 2)
		return 0;
	half = stats_t_crit(confidence, (double)(n - 1)) *
	       gsl_stats_sd_m(x, 1, n, *mean) / sqrt((double)n);
	*lo = *mean - half;
	*hi = *mean + half;
	return 0;
}

/* median, extremes, median interval, MAD and outliers. */
static void summarize_order(const double *x, size_t n, double confidence,
			    struct summary *s)
{
	double *sorted = xmalloc(n * sizeof(*sorted));

	memcpy(sorted, x, n * sizeof(*sorted));
	gsl_sort(sorted, 1, n);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	/* -1 only means n is too small: the fields stay NAN. */
	(void)stats_median_ci(sorted, n, confidence, &s->median_ci_low,
			      &s->median_ci_high, &s->median_ci_level);
	s->mad = gsl_stats_mad0(x, 1, n, sorted); /* raw; overwrites sorted */
	s->noutliers = stats_outliers_around(x, n, s->median, s->mad, NULL);
	free(sorted);
}

int stats_summarize(const double *x, size_t n, double confidence,
		    struct summary *s)
{
	summary_clear(s, n);
	if (stats_mean_ci(x, n, confidence, &s->mean, &s->ci_low,
			  &s->ci_high) < 0)
		return -1;
	if (n == 0)
		return 0;
	summarize_moments(x, n, s);
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
	c->p = stats_t_pvalue(c->r * sqrt(df / (1.0 - c->r * c->r)), df);
}

static bool has_spread(const double *x, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (!stats_same(x[i], x[0]))
			return true;
	return false;
}

/* n >= 3 and neither variable constant, else r = NAN. */
static int correlation_start(const double *x, const double *y, size_t n,
			     struct correlation *c)
{
	*c = (struct correlation){ .n = n, .r = NAN, .p = NAN };
	if (stats_check_finite(x, n) < 0 || stats_check_finite(y, n) < 0)
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
	if (stats_check_confidence(confidence) < 0 ||
	    stats_check_finite(a, na) < 0 || stats_check_finite(b, nb) < 0)
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
	w->p = stats_t_pvalue(w->t, w->df);
	half = stats_t_crit(confidence, w->df) * w->se;
	w->ci_low = w->diff - half;
	w->ci_high = w->diff + half;
	return 0;
}

int stats_ratio(double ma, double va, double dfa, double mb, double vb,
		double dfb, double df_cap, double confidence, struct ratio *r)
{
	double qa, qb, q, lr, half;

	*r = (struct ratio){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if (stats_check_confidence(confidence) < 0)
		return -1;
	if (!(ma > 0.0) || !(mb >= 0.0) || !isfinite(ma) || !isfinite(mb))
		return 0;
	r->ratio = mb / ma;
	r->change_pct = 100.0 * (r->ratio - 1.0);
	if (stats_same(mb, 0.0)) {
		/* Every candidate value 0: a fall of exactly 100%. */
		r->ci_low_pct = r->ci_high_pct = -100.0;
		r->p = 0.0;
		return 0;
	}
	/* Delta method: Var log m = Var m / m^2, each side's own df. */
	qa = va / (ma * ma);
	qb = vb / (mb * mb);
	q = qa + qb;
	if (!isfinite(q) || !(q >= 0.0))
		return 0;
	lr = log(r->ratio);
	if (stats_same(q, 0.0)) {
		r->ci_low_pct = r->ci_high_pct = r->change_pct;
		r->p = stats_same(lr, 0.0) ? 1.0 : 0.0;
		return 0;
	}
	r->se_log = sqrt(q);
	r->df = q * q / ((qa > 0.0 ? qa * qa / dfa : 0.0) +
			 (qb > 0.0 ? qb * qb / dfb : 0.0));
	r->df = fmax(1.0, r->df);
	if (df_cap >= 1.0)
		r->df = fmin(r->df, df_cap);
	r->t = lr / r->se_log;
	r->p = stats_t_pvalue(r->t, r->df);
	half = stats_t_crit(confidence, r->df) * r->se_log;
	r->ci_low_pct = 100.0 * expm1(lr - half);
	r->ci_high_pct = 100.0 * expm1(lr + half);
	return 0;
}

int stats_ratio_welch(const double *a, size_t na, const double *b, size_t nb,
		      double confidence, struct ratio *r)
{
	double ma, mb;

	*r = (struct ratio){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	if (stats_check_finite(a, na) < 0 || stats_check_finite(b, nb) < 0)
		return -1;
	if (na < 2 || nb < 2)
		return stats_check_confidence(confidence);
	ma = gsl_stats_mean(a, 1, na);
	mb = gsl_stats_mean(b, 1, nb);
	return stats_ratio(ma, gsl_stats_variance_m(a, 1, na, ma) / (double)na,
			   (double)(na - 1), mb,
			   gsl_stats_variance_m(b, 1, nb, mb) / (double)nb,
			   (double)(nb - 1), 0.0, confidence, r);
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

		for (j = i + 1; j < n && stats_same(x[p[j]], x[p[i]]); j++)
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
	if (stats_check_finite(a, na) < 0 || stats_check_finite(b, nb) < 0)
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

