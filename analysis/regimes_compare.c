/*
 * regimes_compare.c - compare with two regimes (analysis/regimes.h): when
 * the runs of both sides together fall into two regimes, how each side's
 * runs are shared between them, whether the shares differ (Fisher's exact
 * test), and the candidate's change within each regime both sides have,
 * so that a change of the mix is not read as a change of speed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "analysis/analysis.h"
#include "analysis/stats.h"
#include "lib/numfmt.h"
#include "lib/util.h"

/* A regime both sides need this many runs in to be compared within. */
#define WITHIN_MIN 3

/*
 * Fisher's exact test of a 2x2 table (a b / c d), two-sided: the summed
 * probability of every table with the same margins no more probable than
 * the one observed (Agresti, Categorical Data Analysis, 3.5.1).
 */
double regimes_fisher(unsigned a, unsigned b, unsigned c, unsigned d)
{
	unsigned n1 = a + b, n2 = c + d, t = a + c, lo, hi, k;
	double p0 = gsl_ran_hypergeometric_pdf(a, n1, n2, t), p = 0;

	lo = t > n2 ? t - n2 : 0;
	hi = t < n1 ? t : n1;
	for (k = lo; k <= hi; k++) {
		double pk = gsl_ran_hypergeometric_pdf(k, n1, n2, t);

		if (pk <= p0 * (1 + 1e-7))
			p += pk;
	}
	return p > 1 ? 1 : p;
}

/* The values of x in regime r of g, malloc'd, as logs; their count. */
static size_t pick(const struct regimes *g, int r, const double *x, size_t n,
		   double **out)
{
	size_t i, k = 0;

	*out = xmalloc((n + 1) * sizeof(**out));
	for (i = 0; i < n; i++)
		if (regimes_which(g, x[i]) == r)
			(*out)[k++] = log(x[i]);
	return k;
}

/* "within the low regime (21 and 9 runs): +0.2% [-0.3%, +0.7%]" */
static char *within(const struct regimes *g, int r, const double *b,
		    size_t nb, const double *c, size_t nc, double confidence)
{
	static const char *const names[] = { "low", "high" };
	double *xb, *xc;
	size_t kb = pick(g, r, b, nb, &xb), kc = pick(g, r, c, nc, &xc);
	char buf[96], *ret = NULL;
	struct welch w;

	if (kb >= WITHIN_MIN && kc >= WITHIN_MIN &&
	    !stats_welch(xb, kb, xc, kc, confidence, &w) && !isnan(w.ci_low))
		ret = xasprintf("within the %s regime (%zu and %zu runs) the "
				"candidate changed %s", names[r], kb, kc,
				numfmt_pct_ci(buf, sizeof(buf),
					      100 * expm1(w.diff),
					      100 * expm1(w.ci_low),
					      100 * expm1(w.ci_high)));
	free(xb);
	free(xc);
	return ret;
}

int regimes_compare(const double *b, size_t nb, const double *c, size_t nc,
		    double confidence, struct regimes_cmp *out)
{
	double *all;
	unsigned hb = 0, hc = 0;
	char lvl[2][32], *w0, *w1;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	/* Two sides each in one regime, apart, are a change, not regimes:
	 * one side at least must be multimodal by itself. */
	if (regimes_detect(b, nb, confidence, &out->g) < 0)
		return -1;
	if (!out->g.multimodal)
		regimes_detect(c, nc, confidence, &out->g);
	if (!out->g.multimodal)
		return 0;
	all = xmalloc((nb + nc + 1) * sizeof(*all));
	memcpy(all, b, nb * sizeof(*b));
	memcpy(all + nb, c, nc * sizeof(*c));
	ret = regimes_detect(all, nb + nc, confidence, &out->g);
	free(all);
	if (ret < 0 || !out->g.multimodal)
		return ret;
	for (i = 0; i < nb; i++)
		hb += (unsigned)regimes_which(&out->g, b[i]);
	for (i = 0; i < nc; i++)
		hc += (unsigned)regimes_which(&out->g, c[i]);
	out->share_high_base = (double)hb / (double)nb;
	out->share_high_cand = (double)hc / (double)nc;
	out->p = regimes_fisher((unsigned)nb - hb, hb, (unsigned)nc - hc, hc);
	out->differ = out->p < 1 - confidence;
	w0 = within(&out->g, 0, b, nb, c, nc, confidence);
	w1 = within(&out->g, 1, b, nb, c, nc, confidence);
	out->message = xasprintf(
		"the runs of both sides fall into two regimes, at %s and %s: "
		"the baseline has %.0f%% of its runs in the high one, the "
		"candidate %.0f%% (Fisher's exact p = %.2g%s)%s%s%s%s%s",
		numfmt(lvl[0], sizeof(lvl[0]), out->g.r[0].level),
		numfmt(lvl[1], sizeof(lvl[1]), out->g.r[1].level),
		100 * out->share_high_base, 100 * out->share_high_cand, out->p,
		out->differ ? ": the shares differ, and a change of the mean "
			      "is a change of the mix" : "",
		w0 || w1 ? "; " : "", w0 ? w0 : "", w0 && w1 ? "; " : "",
		w1 ? w1 : "",
		w0 || w1 ? "" : "; no regime has 3 runs of each side to "
				"compare within");
	free(w0);
	free(w1);
	return 0;
}
