/*
 * history_seg.c - the change points of one series of levels: optimal
 * partitioning with a penalty calibrated by permutation, and sizes with a
 * selection-adjusted interval (history.h; docs/STATISTICS.md, "History").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/history.h"
#include "lib/util.h"

void history_opts_default(struct history_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->alpha = 0.05;
	o->confidence = 0.95;
	o->perms = HISTORY_PERMS;
	o->seed = 1;
	o->metric = "throughput";
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
	double *f;              /* (kmax + 1) x (n + 1) */
	size_t *from;           /* the same shape */
};

static void dp_init(struct seg_dp *d, size_t n, size_t kmax)
{
	d->n = n;
	d->kmax = kmax;
	d->s = xmalloc((n + 1) * sizeof(*d->s));
	d->q = xmalloc((n + 1) * sizeof(*d->q));
	d->f = xmalloc((kmax + 1) * (n + 1) * sizeof(*d->f));
	d->from = xmalloc((kmax + 1) * (n + 1) * sizeof(*d->from));
}

static void dp_release(struct seg_dp *d)
{
	free(d->s);
	free(d->q);
	free(d->f);
	free(d->from);
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
 * The statistic of "any change": the largest gain per change over
 * k = 1..kmax.  Optimal partitioning with a penalty of beta per change
 * keeps a change exactly when this exceeds beta.
 */
static double any_change(const struct seg_dp *d)
{
	double best = 0;
	size_t k;

	for (k = 1; k <= d->kmax; k++)
		if (isfinite(dp_rss(d, k)))
			best = fmax(best, gain(d, k) / (double)k);
	return best;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The penalty beta: the value of the any-change statistic that alpha of
 * the series' permutations exceed (the (r + 1)-th largest of the perms,
 * r + 1 = floor(alpha (perms + 1))), and the permutation p of the
 * observed statistic.  A series is segmented at all exactly when
 * p <= alpha, so an exchangeable series (no change) shows a change with
 * probability at most alpha, whatever the number of changes searched.
 */
static double calibrate(const double *y, struct seg_dp *d, double stat,
			const struct history_opts *o, double *p)
{
	double *w = xmalloc(d->n * sizeof(*w));
	double *st = xmalloc(o->perms * sizeof(*st)), beta;
	size_t i, hits = 0, r;

	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, o->seed);
	memcpy(w, y, d->n * sizeof(*w));
	for (i = 0; i < o->perms; i++) {
		gsl_ran_shuffle(rng, w, d->n, sizeof(*w));
		dp_run(d, w);
		st[i] = any_change(d);
		/* ties with the observed count against it */
		hits += st[i] >= stat * (1 - 1e-12);
	}
	*p = (double)(hits + 1) / (double)(o->perms + 1);
	qsort(st, o->perms, sizeof(*st), cmp_double);
	r = (size_t)floor(o->alpha * (double)(o->perms + 1));
	/* fewer permutations than 1 / alpha: no penalty can be calibrated */
	beta = r >= 1 ? st[o->perms - r] : INFINITY;
	free(st);
	free(w);
	gsl_rng_free(rng);
	dp_run(d, y);
	return beta;
}

/* ---- the sizes ---- */

/*
 * The change at cp[j] between the segments either side of it: the
 * difference of their mean levels, its interval widened for the search
 * (Bonferroni over every split the search could have put between the
 * neighbouring change points), on the spread of the residuals of the
 * whole fit (n - k - 1 df).
 */
static void sizes(const struct seg_dp *d, size_t k, struct change_point *cp,
		  double confidence)
{
	double df = (double)d->n - (double)k - 1;
	double sd = sqrt(dp_rss(d, k) / df);
	size_t j;

	for (j = 0; j < k; j++) {
		size_t a = j ? cp[j - 1].index : 0;
		size_t b = j + 1 < k ? cp[j + 1].index : d->n;
		size_t c = cp[j].index;
		double nl = (double)(c - a), nr = (double)(b - c);
		double diff = (d->s[b] - d->s[c]) / nr - (d->s[c] - d->s[a]) / nl;
		double splits = (double)(b - a) - 2 * HISTORY_MINSEG + 1;
		double tq, half;

		tq = df >= 1 ? gsl_cdf_tdist_Qinv((1 - confidence) / 2 / splits,
						  df) : NAN;
		half = tq * sd * sqrt(1 / nl + 1 / nr);
		cp[j].kind = CP_LEVEL;
		cp[j].change_pct = 100 * expm1(diff);
		cp[j].ci_low_pct = isfinite(half) ? 100 * expm1(diff - half) : NAN;
		cp[j].ci_high_pct = isfinite(half) ? 100 * expm1(diff + half) : NAN;
	}
}

/* ---- the search ---- */

int history_change_points(const double *y, size_t n,
			  const struct history_opts *o,
			  struct change_point **out, size_t *nout)
{
	struct seg_dp d;
	struct change_point *cp;
	double stat, beta, p, best = 0;
	size_t kmax, k, kbest = 0, j, at;

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
	dp_run(&d, y);
	stat = any_change(&d);
	beta = calibrate(y, &d, stat, o, &p);
	for (k = 1; k <= kmax && p <= o->alpha; k++) {
		double v = gain(&d, k) - beta * (double)k;

		if (isfinite(dp_rss(&d, k)) && v > best) {
			best = v;
			kbest = k;
		}
	}
	if (kbest) {
		cp = xcalloc(kbest, sizeof(*cp));
		/* back from the end: each segment's start is its change */
		for (at = n, j = kbest; j > 0; j--) {
			at = d.from[j * (n + 1) + at];
			cp[j - 1].index = at;
			cp[j - 1].p = p;
		}
		sizes(&d, kbest, cp, o->confidence);
		*out = cp;
		*nout = kbest;
	}
	dp_release(&d);
	return 0;
}
