/*
 * seqtest.c - the sequential decision of `contend bisect`: two-level
 * variance of the regression, O'Brien-Fleming-type spending, Bonferroni
 * over the looks and over the boots of a continued step (seqtest.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_cdf.h>

#include "lib/seqtest.h"

const char *const seq_decision_names[] = { "continue", "bad", "good", "cap" };
const char *const seq_reason_names[] = { "level", "exact", "collapse" };

/*
 * Variance of the regression with J candidate boots whose sizes have
 * S = sum 1/n_i and whose means have the sum of squares ssc about their
 * mean, and its df (seqtest.h, struct seq_prior).  s2_b is estimated
 * from both kernels' boots: the baseline's MSB / n0 (k - 1 df) estimates
 * s2_b + s2_w / n0, the candidate's ssc / (J - 1) (J - 1 df) s2_b +
 * s2_w S / J, so V = cb MSB + cc Qc + cw MSW on Satterthwaite's df.
 * With J = 1 it is the baseline's alone.
 */
static double variance(const struct seq_baseline *b, double msw, double dfw,
		       double J, double S, double ssc, double *df)
{
	double k = (double)b->k, n0 = b->n0, dfc = J - 1;
	double qc = dfc > 0 ? ssc / dfc : 0;
	double s2b = ((k - 1) * (b->msb - msw) / n0 +
		      dfc * (qc - msw * S / J)) / (k - 1 + dfc);

	if (s2b > 0) {
		double w = (1 / J + 1 / k) / (k - 1 + dfc);
		double cb = w * (k - 1) / n0, cc = w * dfc;
		double cw = S / (J * J) + 1 / (k * n0) -
			    w * ((k - 1) / n0 + dfc * S / J);
		double v = cb * b->msb + cc * qc + cw * msw;
		double den = cb * b->msb * cb * b->msb / b->df_b +
			     cw * msw * cw * msw / dfw;

		if (dfc > 0)
			den += cc * qc * cc * qc / dfc;
		*df = v * v / den;
		if (*df < 1)
			*df = 1;
		return v;
	}
	*df = dfw;
	return msw * (S / (J * J) + 1 / (k * n0));
}

double seq_boot_level(double level, size_t boot)
{
	double j = (double)boot;

	/* G(j) - G(j - 1), G(j) = level (1 - 1 / (j + 1)^2) */
	return boot ? level * (1 / (j * j) - 1 / ((j + 1) * (j + 1))) : 0;
}

/* The O'Brien-Fleming-type spending function at information fraction t. */
static double spend(double level, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return level;
	return 2 - 2 * gsl_cdf_ugaussian_P(gsl_cdf_ugaussian_Pinv(1 - level / 2)
					   / sqrt(t));
}

double seq_collapse_p(size_t a, size_t m0, size_t c, size_t m)
{
	if (!m || !m0 || c > m || a > m0)
		return NAN;
	if (!c)
		return 1;
	/* X: the candidate's share of the a + c collapsed runs */
	return gsl_cdf_hypergeometric_Q((unsigned)c - 1, (unsigned)m,
					(unsigned)m0, (unsigned)(a + c));
}

/* The collapse test of look *out: bad, or whether good is barred. */
static bool collapse_test(const struct seq_baseline *b,
			  const struct seq_design *d, const struct seq_prior *p,
			  struct seq_look *out)
{
	size_t c = out->collapsed + p->collapsed;
	size_t m = out->n + out->collapsed + p->runs;
	bool more = c * b->runs > b->collapsed * m;

	out->p_collapse = NAN;
	if (!more)
		return false;
	out->p_collapse = seq_collapse_p(b->collapsed, b->runs, c, m);
	if (out->p_collapse < d->alpha / (d->looks > 1 ? d->looks : 1)) {
		out->decision = SEQ_BAD;
		out->reason = SEQ_BY_COLLAPSE;
	}
	return true;
}

/* The level's test on the n values; good barred when collapses are
 * more frequent than the baseline's. */
static void level_test(const struct seq_baseline *b,
		       const struct seq_design *d, const struct seq_prior *p,
		       const double *logx, size_t n, bool last, bool no_good,
		       const struct seq_state *st, struct seq_look *out)
{
	double mc = 0, ss = 0, msw, dfw, v, vmax, dfmax, ssc;
	double J = (double)p->j + 1;
	size_t i, cap = n > (size_t)d->max_runs ? n : (size_t)d->max_runs;

	for (i = 0; i < n; i++)
		mc += logx[i];
	mc /= (double)n;
	for (i = 0; i < n; i++)
		ss += (logx[i] - mc) * (logx[i] - mc);
	dfw = b->df_w + p->df + (double)n - 1;
	msw = (b->ssw + p->ss + ss) / dfw;
	/* the candidate's boot means about their mean */
	ssc = p->sum_sq_means + mc * mc -
	      (p->sum_means + mc) * (p->sum_means + mc) / J;
	ssc = fmax(0, ssc);
	v = variance(b, msw, dfw, J, p->sum_inv_n + 1 / (double)n, ssc,
		     &out->df);
	vmax = variance(b, msw, dfw, J, p->sum_inv_n + 1 / (double)cap, ssc,
			&dfmax);
	/* the candidate's level: the mean of its boots' means */
	mc = (p->sum_means + mc) / J;
	out->regression = -(double)d->dir * (mc - b->mean);
	out->se = sqrt(v);
	out->frac = last ? 1 : v > 0 ? fmin(1, vmax / v) : 1;
	out->a = fmax(0, (last ? d->alpha : spend(d->alpha, out->frac)) -
			 st->spent_alpha);
	out->b = fmax(0, (last ? d->beta : spend(d->beta, out->frac)) -
			 st->spent_beta);
	if (out->decision != SEQ_CONTINUE && out->decision != SEQ_CAP)
		return;
	if (!isnan(out->se) && !(out->se > 0)) {
		/* zero spread: r is known */
		bool worse = out->regression > 1e-12;

		if (worse || !no_good) {
			out->decision = worse ? SEQ_BAD : SEQ_GOOD;
			out->reason = SEQ_BY_EXACT;
		}
	} else if (out->se > 0 && out->a > 0 && out->regression / out->se >
		   gsl_cdf_tdist_Pinv(1 - out->a, out->df)) {
		out->decision = SEQ_BAD;
	} else if (!no_good && out->se > 0 && out->b > 0 &&
		   (d->delta - out->regression) / out->se >
		   gsl_cdf_tdist_Pinv(1 - out->b, out->df)) {
		out->decision = SEQ_GOOD;
	}
}

int seq_look(const struct seq_baseline *b, const struct seq_design *d,
	     const double *logx, size_t n, size_t collapsed,
	     struct seq_state *st, struct seq_look *out)
{
	return seq_look_prior(b, d, NULL, logx, n, collapsed, st, out);
}

int seq_look_prior(const struct seq_baseline *b, const struct seq_design *d,
		   const struct seq_prior *prior, const double *logx,
		   size_t n, size_t collapsed, struct seq_state *st,
		   struct seq_look *out)
{
	static const struct seq_prior none = { 0 };
	const struct seq_prior *p = prior ? prior : &none;
	struct seq_design bd = *d;
	bool last, no_good;
	double tq;

	if (b->k < 2 || n + collapsed < 2 || !(d->delta > 0) ||
	    !(d->alpha > 0) || !(d->alpha < 0.5) || !(d->beta > 0) ||
	    !(d->beta < 0.5) || !(b->n0 >= 1) || d->max_runs < 2)
		return -1;
	last = n + collapsed >= (size_t)d->max_runs;
	*out = (struct seq_look){
		.n = n, .collapsed = collapsed, .regression = NAN, .se = NAN,
		.df = NAN, .frac = NAN, .ci_low = NAN, .ci_high = NAN,
		.decision = last ? SEQ_CAP : SEQ_CONTINUE,
		.reason = SEQ_BY_LEVEL,
	};
	/* this boot's share of the step's alpha and beta */
	bd.alpha = seq_boot_level(d->alpha, p->boots + 1);
	bd.beta = seq_boot_level(d->beta, p->boots + 1);
	no_good = collapse_test(b, &bd, p, out);
	if (n >= 2) {
		level_test(b, &bd, p, logx, n, last, no_good, st, out);
		tq = gsl_cdf_tdist_Pinv(1 - d->alpha, out->df);
		out->ci_low = out->regression - tq * out->se;
		out->ci_high = out->regression + tq * out->se;
	}
	st->looks++;
	st->spent_alpha += n >= 2 ? out->a : 0;
	st->spent_beta += n >= 2 ? out->b : 0;
	return 0;
}

void seq_prior_add(struct seq_prior *p, const double *logx, size_t n,
		   size_t collapsed)
{
	double mean = 0;
	size_t i;

	p->runs += n + collapsed;
	p->collapsed += collapsed;
	p->boots += n + collapsed > 0;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		mean += logx[i] / (double)n;
	for (i = 0; i < n; i++)
		p->ss += (logx[i] - mean) * (logx[i] - mean);
	p->j++;
	p->sum_means += mean;
	p->sum_sq_means += mean * mean;
	p->sum_inv_n += 1 / (double)n;
	p->df += (double)n - 1;
}

size_t seq_boots_needed(const struct seq_baseline *b,
			const struct seq_design *d)
{
	double msw = b->df_w > 0 ? b->ssw / b->df_w : NAN;
	double s2b = fmax(0, (b->msb - msw) / b->n0), z, v;
	double za = gsl_cdf_ugaussian_Pinv(1 - d->alpha);
	double zb = gsl_cdf_ugaussian_Pinv(1 - d->beta);
	size_t J;

	if (!(msw >= 0) || !(b->n0 >= 1) || b->k < 1 || d->max_runs < 1)
		return 0;
	for (J = 1; J <= 1000; J++) {
		/* bad at this boot's alpha with power 1 - beta, good at its
		 * beta with power 1 - alpha */
		z = fmax(gsl_cdf_ugaussian_Pinv(1 - seq_boot_level(d->alpha,
								   J)) + zb,
			 gsl_cdf_ugaussian_Pinv(1 - seq_boot_level(d->beta,
								   J)) + za);
		v = s2b * (1 / (double)J + 1 / (double)b->k) +
		    msw * (1 / ((double)J * d->max_runs) +
			   1 / ((double)b->k * b->n0));
		if (z * sqrt(v) <= d->delta)
			return J;
	}
	return 0;
}
