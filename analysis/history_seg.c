/*
 * history_seg.c - the change points of one series of levels: optimal
 * partitioning with a penalty calibrated by permutation, and sizes with a
 * selection-adjusted interval (history.h; docs/STATISTICS.md, "History").
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort_double.h>

#include "analysis/history.h"
#include "lib/util.h"

void history_opts_default(struct history_opts *o)
{
	*o = (struct history_opts){ .alpha = 0.05, .confidence = 0.95,
		.perms = 999, .seed = 1, .metric = "throughput" };
}

/* ---- the least squares of K changes ---- */

/*
 * Work space of the dynamic programme: prefix sums of y and y^2 (of y
 * less its mean, so nearly equal logs keep their digits), and the best
 * residual sum of squares of [0, j) in k + 1 segments, with where its last
 * segment starts.
 */
struct seg_dp {
	size_t n, kmax;
	double *s, *q;          /* n + 1 each */
	double *f;              /* (kmax + 1) x (n + 1), in s's block */
	size_t *from;           /* the same shape */
};

static void dp_init(struct seg_dp *d, size_t n, size_t kmax)
{
	d->n = n;
	d->kmax = kmax;
	d->s = xmalloc((kmax + 3) * (n + 1) * sizeof(*d->s));
	d->q = d->s + n + 1;
	d->f = d->q + n + 1;
	d->from = xmalloc((kmax + 1) * (n + 1) * sizeof(*d->from));
}

/* The residual sum of squares of y[a, b) about its mean. */
static double rss(const struct seg_dp *d, size_t a, size_t b)
{
	double s = d->s[b] - d->s[a], r;

	r = d->q[b] - d->q[a] - s * s / (double)(b - a);
	return r > 0 ? r : 0;
}

/* Fills d for y: f[k][n] is the least RSS of k changes (kmax at most). */
static void dp_run(struct seg_dp *d, const double *y)
{
	size_t n = d->n, k, i, j, m = HISTORY_MINSEG;
	double mean = 0;

	for (i = 0; i < n; i++)
		mean += y[i] / (double)n;
	d->s[0] = d->q[0] = 0;
	for (i = 0; i < n; i++) {
		d->s[i + 1] = d->s[i] + (y[i] - mean);
		d->q[i + 1] = d->q[i] + (y[i] - mean) * (y[i] - mean);
	}
	for (j = 0; j <= n; j++) {
		d->f[j] = j >= m ? rss(d, 0, j) : INFINITY;
		d->from[j] = 0;
	}
	for (k = 1; k <= d->kmax; k++) {
		double *prev = d->f + (k - 1) * (n + 1), *cur = prev + n + 1;
		size_t *fr = d->from + k * (n + 1);

		for (j = 0; j <= n; j++) {
			cur[j] = INFINITY;
			fr[j] = 0;
			for (i = (k + 1) * m - m; j >= m && i + m <= j; i++) {
				double c;

				if (!isfinite(prev[i]))
					continue;
				c = prev[i] + rss(d, i, j);
				if (c < cur[j]) {
					cur[j] = c;
					fr[j] = i;
				}
			}
		}
	}
}

/* The least RSS of k changes over the whole series. */
static double dp_rss(const struct seg_dp *d, size_t k)
{
	return d->f[k * (d->n + 1) + d->n];
}

/*
 * The gain of k changes on the scale of the likelihood of normal levels
 * with one unknown spread: n log(RSS_0 / RSS_k).  A fit without residual
 * (every segment flat) is floored at a 1e-12 share, so it is finite.
 */
static double gain(const struct seg_dp *d, size_t k)
{
	double r0 = dp_rss(d, 0), rk = dp_rss(d, k);

	if (!(r0 > 0))
		return 0;
	return (double)d->n * log(r0 / fmax(rk, r0 * 1e-12));
}

/*
 * The statistic of "more than k changes": the largest gain per change
 * added, (gain(k + j) - gain(k)) / j over j = 1..kmax - k, the first j
 * that gives it into *add (0: no gain; add may be NULL).  Optimal
 * partitioning with a penalty of beta per change keeps more than k
 * changes exactly when this exceeds beta.  At k = 0 it is the statistic
 * of "any change".
 */
static double more_changes(const struct seg_dp *d, size_t k, size_t *add)
{
	double best = 0, gk = gain(d, k), v;
	size_t j, at = 0;

	for (j = k + 1; j <= d->kmax; j++) {
		v = (gain(d, j) - gk) / (double)(j - k);
		if (isfinite(dp_rss(d, j)) && v > best) {
			best = v;
			at = j - k;
		}
	}
	if (add)
		*add = at;
	return best;
}

/*
 * The k + 1 segments of k changes from d's programme: their starts into
 * starts[0..k] (each after the first a change point), d->n into
 * starts[k + 1].
 */
static void trace(const struct seg_dp *d, size_t k, size_t *starts)
{
	size_t j;

	starts[0] = 0;
	starts[k + 1] = d->n;
	/* back from the end: each segment's start is its change */
	for (j = k; j > 0; j--)
		starts[j] = d->from[j * (d->n + 1) + starts[j + 1]];
}

/* The fit of y by k changes (d holds y's programme): each segment's mean
 * into fit, y less it into res, the segments into starts (trace). */
static void fit_of(const struct seg_dp *d, const double *y, size_t k,
		   double *fit, double *res, size_t *starts)
{
	size_t j, i;

	trace(d, k, starts);
	for (j = 0; j <= k; j++) {
		size_t a = starts[j], b = starts[j + 1];
		double m = 0;

		for (i = a; i < b; i++)
			m += y[i] / (double)(b - a);
		for (i = a; i < b; i++) {
			fit[i] = m;
			res[i] = y[i] - m;
		}
	}
}

/*
 * One round of the search, with k changes found: is there more?  The
 * residuals of the fit are shuffled within each of its segments (what
 * "no further change" leaves exchangeable) and added back to the fit,
 * perms times; the penalty is the value of the more-changes statistic
 * that alpha of them exceed (the (r + 1)-th largest, r + 1 =
 * floor(alpha (perms + 1))), and *p the permutation p of the observed
 * (why rounds: docs/STATISTICS.md, "History").  Leaves d holding the
 * last permutation's programme.
 */
static double round_penalty(const double *y, struct seg_dp *d, size_t k,
			    double stat, const struct history_opts *o,
			    gsl_rng *rng, double *p)
{
	double *fit = xmalloc((3 * d->n + o->perms) * sizeof(*fit));
	double *res = fit + d->n, *w = res + d->n, *st = w + d->n, beta;
	size_t *starts = xmalloc((k + 2) * sizeof(*starts));
	size_t i, j, hits = 0, r;

	fit_of(d, y, k, fit, res, starts);
	for (i = 0; i < o->perms; i++) {
		for (j = 0; j <= k; j++)
			gsl_ran_shuffle(rng, res + starts[j],
					starts[j + 1] - starts[j], sizeof(*res));
		for (j = 0; j < d->n; j++)
			w[j] = fit[j] + res[j];
		dp_run(d, w);
		st[i] = more_changes(d, k, NULL);
		/* ties with the observed count against it */
		hits += st[i] >= stat * (1 - 1e-12);
	}
	*p = (double)(hits + 1) / (double)(o->perms + 1);
	gsl_sort(st, 1, o->perms);
	r = (size_t)floor(o->alpha * (double)(o->perms + 1));
	/* fewer permutations than 1 / alpha: no penalty can be calibrated */
	beta = r >= 1 ? st[o->perms - r] : INFINITY;
	free(fit);
	free(starts);
	return beta;
}

/* ---- the sizes ---- */

/*
 * The change points of the segments starting at starts[0..k] (trace),
 * the series' p, into cp[0..k): each the change between the segments
 * either side of it, the difference of their mean levels, its interval
 * widened for the search (Bonferroni over every split the search could
 * have put between the neighbouring change points), on the spread of the
 * residuals of the whole fit (n - k - 1 df).
 */
static void sizes(const struct seg_dp *d, size_t k, const size_t *starts,
		  double p, double confidence, struct change_point *cp)
{
	double df = (double)d->n - (double)k - 1;
	double sd = sqrt(dp_rss(d, k) / df);
	size_t j;

	for (j = 0; j < k; j++) {
		size_t a = starts[j], c = starts[j + 1], b = starts[j + 2];
		double nl = (double)(c - a), nr = (double)(b - c);
		double diff = (d->s[b] - d->s[c]) / nr - (d->s[c] - d->s[a]) / nl;
		double splits = (double)(b - a) - 2 * HISTORY_MINSEG + 1;
		double tq, half;

		tq = df >= 1 ? gsl_cdf_tdist_Qinv((1 - confidence) / 2 / splits,
						  df) : NAN;
		half = tq * sd * sqrt(1 / nl + 1 / nr);
		cp[j].index = c;
		cp[j].kind = CP_LEVEL;
		cp[j].p = p;
		cp[j].change_pct = 100 * expm1(diff);
		cp[j].ci_low_pct = isfinite(half) ? 100 * expm1(diff - half) : NAN;
		cp[j].ci_high_pct = isfinite(half) ? 100 * expm1(diff + half) : NAN;
	}
}

/* ---- the search ---- */

/*
 * The search: rounds of round_penalty from no change, each adding the
 * changes optimal partitioning keeps at its penalty, until a round finds
 * no more.  Returns the number of changes; *p the first round's p.
 */
static size_t search(const double *y, struct seg_dp *d,
		     const struct history_opts *o, double *p)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t k = 0;

	gsl_rng_set(rng, o->seed);
	*p = NAN;
	while (k < d->kmax) {
		double stat, beta, pk;
		size_t add;

		dp_run(d, y);
		stat = more_changes(d, k, &add);
		beta = round_penalty(y, d, k, stat, o, rng, &pk);
		if (isnan(*p))
			*p = pk;
		/* add: the number of changes whose gain per change is the
		 * largest, the one the round's statistic stands on: the
		 * penalty of a round before the last is set by a mixture,
		 * too low to say how many (the next round asks again) */
		if (pk > o->alpha || !(stat > beta))
			break;
		k += add;
	}
	dp_run(d, y);
	gsl_rng_free(rng);
	return k;
}

int history_change_points(const double *y, size_t n,
			  const struct history_opts *o,
			  struct change_point **out, size_t *nout)
{
	struct seg_dp d;
	size_t kmax, *starts;
	double p;

	*out = NULL;
	*nout = 0;
	if (!(o->alpha > 0 && o->alpha < 1) || !o->perms ||
	    !(o->confidence > 0 && o->confidence < 1))
		return -1;
	if (n < 2 * HISTORY_MINSEG)
		return 0;
	kmax = n / HISTORY_MINSEG - 1;
	if (kmax > HISTORY_KMAX)
		kmax = HISTORY_KMAX;
	dp_init(&d, n, kmax);
	*nout = search(y, &d, o, &p);
	starts = xmalloc((*nout + 2) * sizeof(*starts));
	trace(&d, *nout, starts);
	*out = *nout ? xcalloc(*nout, sizeof(**out)) : NULL;
	sizes(&d, *nout, starts, p, o->confidence, *out);
	free(starts);
	free(d.s);
	free(d.from);
	return 0;
}
