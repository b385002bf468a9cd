/*
 * seqtest.c - the sequential decision of `contend bisect`: two-level
 * variance of the regression, O'Brien-Fleming-type spending, Bonferroni
 * over the looks (seqtest.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_cdf.h>

#include "lib/seqtest.h"

const char *const seq_decision_names[] = { "continue", "bad", "good", "cap" };

/* Variance of the regression after nn candidate runs, and its df. */
static double variance(const struct seq_baseline *b, double msw, double dfw,
		       double nn, double *df)
{
	double s2b = (b->msb - msw) / b->n0;

	if (s2b > 0) {
		double c1 = (1 + 1 / (double)b->k) / b->n0, c2 = 1 / nn - 1 / b->n0;
		double v = c1 * b->msb + c2 * msw;

		*df = v * v / (c1 * b->msb * c1 * b->msb / b->df_b +
			       c2 * msw * c2 * msw / dfw);
		if (*df < 1)
			*df = 1;
		return v;
	}
	*df = dfw;
	return msw * (1 / nn + 1 / ((double)b->k * b->n0));
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

int seq_look(const struct seq_baseline *b, const struct seq_design *d,
	     const double *logx, size_t n, struct seq_state *st,
	     struct seq_look *out)
{
	double mc = 0, ss = 0, msw, dfw, v, vmax, dfmax, tq;
	bool last;
	size_t i;

	if (b->k < 2 || n < 2 || !(d->delta > 0) || !(d->alpha > 0) ||
	    !(d->alpha < 0.5) || !(d->beta > 0) || !(d->beta < 0.5) ||
	    !(b->n0 >= 1) || d->max_runs < 2)
		return -1;
	for (i = 0; i < n; i++)
		mc += logx[i];
	mc /= (double)n;
	for (i = 0; i < n; i++)
		ss += (logx[i] - mc) * (logx[i] - mc);
	dfw = b->df_w + (double)n - 1;
	msw = (b->ssw + ss) / dfw;
	v = variance(b, msw, dfw, (double)n, &out->df);
	vmax = variance(b, msw, dfw, (double)(n > (size_t)d->max_runs ? n :
					       (size_t)d->max_runs), &dfmax);
	last = n >= (size_t)d->max_runs;
	out->n = n;
	out->regression = -(double)d->dir * (mc - b->mean);
	out->se = sqrt(v);
	out->frac = last ? 1 : fmin(1, vmax / v);
	out->a = fmax(0, (last ? d->alpha : spend(d->alpha, out->frac)) -
			 st->spent_alpha);
	out->b = fmax(0, (last ? d->beta : spend(d->beta, out->frac)) -
			 st->spent_beta);
	tq = gsl_cdf_tdist_Pinv(1 - d->alpha, out->df);
	out->ci_low = out->regression - tq * out->se;
	out->ci_high = out->regression + tq * out->se;
	out->decision = last ? SEQ_CAP : SEQ_CONTINUE;
	if (out->se > 0 && out->a > 0 && out->regression / out->se >
	    gsl_cdf_tdist_Pinv(1 - out->a, out->df))
		out->decision = SEQ_BAD;
	else if (out->se > 0 && out->b > 0 &&
		 (d->delta - out->regression) / out->se >
		 gsl_cdf_tdist_Pinv(1 - out->b, out->df))
		out->decision = SEQ_GOOD;
	st->looks++;
	st->spent_alpha += out->a;
	st->spent_beta += out->b;
	return 0;
}
