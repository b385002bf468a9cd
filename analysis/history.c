/*
 * history.c - change points over a series of experiments: binary
 * segmentation with a permutation test of the largest t (history.h).
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/history.h"
#include "analysis/stats.h"
#include "db/vocab.h"
#include "lib/escape.h"
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

/* ---- the test ---- */

/*
 * The largest |t| over the splits of y[0..n) with HISTORY_MINSEG points
 * each side, and where (the first index of the right side).  The sums
 * are of y - y[0], so a series of nearly equal logs keeps its digits.
 */
static double max_t(const double *y, size_t n, size_t *at)
{
	double s = 0, q = 0, sl = 0, ql = 0, best = -1;
	size_t i, k;

	for (i = 0; i < n; i++) {
		s += y[i] - y[0];
		q += (y[i] - y[0]) * (y[i] - y[0]);
	}
	for (k = 0; k < n; k++) {
		double d = y[k] - y[0], nl, nr, ml, mr, sse, t;

		if (k >= HISTORY_MINSEG && n - k >= HISTORY_MINSEG) {
			nl = (double)k;
			nr = (double)(n - k);
			ml = sl / nl;
			mr = (s - sl) / nr;
			sse = (ql - nl * ml * ml) + (q - ql - nr * mr * mr);
			if (sse > 1e-300)
				t = fabs(ml - mr) /
				    sqrt(sse / (double)(n - 2) * (1 / nl + 1 / nr));
			else
				t = fabs(ml - mr) > 0 ? INFINITY : 0;
			if (t > best) {
				best = t;
				*at = k;
			}
		}
		sl += d;
		ql += d * d;
	}
	return best;
}

/* p of the largest t of y[0..n) by permutation; *at its split. */
static double split_p(const double *y, size_t n, const struct history_opts *o,
		      gsl_rng *rng, size_t *at)
{
	double *w, t, tp;
	size_t hits = 0, i, dummy;

	t = max_t(y, n, at);
	if (t <= 0)
		return 1;
	w = xmalloc(n * sizeof(*w));
	memcpy(w, y, n * sizeof(*w));
	for (i = 0; i < o->perms; i++) {
		gsl_ran_shuffle(rng, w, n, sizeof(*w));
		tp = max_t(w, n, &dummy);
		/* ties with the observed count against it */
		hits += tp >= t * (1 - 1e-12);
	}
	free(w);
	return (double)(hits + 1) / (double)(o->perms + 1);
}

static int cmp_cp(const void *a, const void *b)
{
	const struct change_point *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* The size of each change: the segments either side, Welch on logs. */
static void sizes(const double *y, size_t n, struct change_point *cp,
		  size_t m, double confidence)
{
	size_t j;

	for (j = 0; j < m; j++) {
		size_t a = j ? cp[j - 1].index : 0;
		size_t b = j + 1 < m ? cp[j + 1].index : n;
		struct welch w;

		if (stats_welch(y + a, cp[j].index - a, y + cp[j].index,
				b - cp[j].index, confidence, &w)) {
			cp[j].change_pct = cp[j].ci_low_pct = NAN;
			cp[j].ci_high_pct = NAN;
			continue;
		}
		/* segments without spread: the change is exact */
		if (!(w.se > 0))
			w.ci_low = w.ci_high = w.diff;
		cp[j].change_pct = 100 * expm1(w.diff);
		cp[j].ci_low_pct = 100 * expm1(w.ci_low);
		cp[j].ci_high_pct = 100 * expm1(w.ci_high);
	}
}

int history_change_points(const double *y, size_t n,
			  const struct history_opts *o,
			  struct change_point **out, size_t *nout)
{
	/* segments still to search, as [lo, hi) pairs */
	size_t *todo, ntodo = 0, m = 0;
	struct change_point *cp = NULL;
	gsl_rng *rng;

	*out = NULL;
	*nout = 0;
	if (!(o->alpha > 0 && o->alpha < 1) || !o->perms ||
	    !(o->confidence > 0 && o->confidence < 1))
		return -1;
	if (n < 2 * HISTORY_MINSEG)
		return 0;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, o->seed);
	todo = xmalloc(2 * n * sizeof(*todo));
	todo[ntodo++] = 0;
	todo[ntodo++] = n;
	while (ntodo) {
		size_t hi = todo[--ntodo], lo = todo[--ntodo], at = 0;
		double p;

		if (hi - lo < 2 * HISTORY_MINSEG)
			continue;
		p = split_p(y + lo, hi - lo, o, rng, &at);
		if (p > o->alpha)
			continue;
		cp = xrealloc(cp, (m + 1) * sizeof(*cp));
		cp[m].index = lo + at;
		cp[m].p = p;
		m++;
		todo[ntodo++] = lo;
		todo[ntodo++] = lo + at;
		todo[ntodo++] = lo + at;
		todo[ntodo++] = hi;
	}
	free(todo);
	gsl_rng_free(rng);
	if (m) {
		qsort(cp, m, sizeof(*cp), cmp_cp);
		sizes(y, n, cp, m, o->confidence);
	}
	*out = cp;
	*nout = m;
	return 0;
}

/* ---- the series from the store ---- */

static bool matches(const char *pattern, const struct experiment_row *e)
{
	char id[24];

	snprintf(id, sizeof(id), "%" PRId64, e->id);
	return !strcmp(pattern, id) ||
	       (e->label && *e->label && !fnmatch(pattern, e->label, 0)) ||
	       (e->name && *e->name && !fnmatch(pattern, e->name, 0));
}

static int cmp_created(const void *a, const void *b)
{
	const struct dataset *x = a, *y = b;

	if (x->exp.created_at < y->exp.created_at)
		return -1;
	if (x->exp.created_at > y->exp.created_at)
		return 1;
	return (x->exp.id > y->exp.id) - (x->exp.id < y->exp.id);
}

int history_load(struct store *s, const char *pattern, struct history *h)
{
	int64_t *ids = NULL;
	int n = store_experiment_list(s, &ids), i, ret = 0;

	memset(h, 0, sizeof(*h));
	h->pattern = xstrdup(pattern);
	if (n < 0)
		return -1;
	h->exps = xcalloc((size_t)n + 1, sizeof(*h->exps));
	for (i = 0; i < n && !ret; i++) {
		struct experiment_row e;

		if (store_experiment_get(s, ids[i], &e)) {
			ret = -1;
			break;
		}
		if (matches(pattern, &e)) {
			if (store_load(s, ids[i], &h->exps[h->nexps]))
				ret = -1;
			else
				h->nexps++;
		}
		experiment_row_release(&e);
	}
	free(ids);
	if (ret)
		return ret;
	if (h->nexps < 2) {
		char q[ESCAPE_QUOTE_BUF];

		escape_clip(q, sizeof(q), pattern, ESCAPE_QUOTE_MAX);
		error("'%s' matches %zu experiment%s: a history needs two or "
		      "more (a label glob such as 'nightly-*')", q,
		      h->nexps, h->nexps == 1 ? "" : "s");
		return -2;
	}
	qsort(h->exps, h->nexps, sizeof(*h->exps), cmp_created);
	return 0;
}

/* The configuration of h matching c (workload and parameters), or NULL. */
static struct history_config *config_of(struct history *h,
					const struct ds_config *c)
{
	size_t i;

	for (i = 0; i < h->nconfigs; i++)
		if (!strcmp(h->configs[i].workload, c->workload) &&
		    !strcmp(h->configs[i].canon, c->canon))
			return &h->configs[i];
	h->configs = xrealloc(h->configs,
			      (h->nconfigs + 1) * sizeof(*h->configs));
	memset(&h->configs[h->nconfigs], 0, sizeof(*h->configs));
	h->configs[h->nconfigs].workload = c->workload;
	h->configs[h->nconfigs].section = c->section;
	h->configs[h->nconfigs].canon = c->canon;
	return &h->configs[h->nconfigs++];
}

/* Experiment e's level of configuration c: 0, or -1 without values. */
static int point_of(const struct dataset *d, size_t c, int m, double conf,
		    struct history_point *p)
{
	const struct ds_config *cf = &d->configs[c];
	double *x = xmalloc((cf->nruns + 1) * sizeof(*x));
	size_t r, n = 0;

	for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
		double v = dataset_value(d, r, m);

		if (d->runs[r].status == RUN_OK && !d->runs[r].warmup &&
		    isfinite(v) && v > 0)
			x[n++] = log(v);
	}
	p->n = n;
	if (!n || stats_mean_ci(x, n, conf, &p->level, &p->lo, &p->hi)) {
		free(x);
		return -1;
	}
	free(x);
	return 0;
}

int history_analyze(struct history *h, const struct history_opts *o)
{
	size_t e, c, any = 0;

	h->opts = *o;
	for (e = 0; e < h->nexps; e++) {
		const struct dataset *d = &h->exps[e];
		int m = dataset_metric(d, o->metric);

		if (m < 0)
			continue;
		any++;
		for (c = 0; c < d->nconfigs; c++) {
			struct history_point p;
			struct history_config *hc;

			if (point_of(d, c, m, o->confidence, &p))
				continue;
			p.exp = e;
			hc = config_of(h, &d->configs[c]);
			hc->points = xrealloc(hc->points, (hc->npoints + 1) *
					      sizeof(*hc->points));
			hc->points[hc->npoints++] = p;
		}
	}
	if (!any) {
		error("no experiment of '%s' has the metric '%s'", h->pattern,
		      o->metric);
		return -2;
	}
	for (c = 0; c < h->nconfigs; c++) {
		struct history_config *hc = &h->configs[c];
		double *y = xmalloc((hc->npoints + 1) * sizeof(*y));
		struct history_opts co = *o;
		size_t i;

		for (i = 0; i < hc->npoints; i++)
			y[i] = hc->points[i].level;
		/* each configuration its own stream, the same every time */
		co.seed = o->seed + c;
		history_change_points(y, hc->npoints, &co, &hc->cps,
				      &hc->ncps);
		free(y);
	}
	return 0;
}

void history_release(struct history *h)
{
	size_t i;

	for (i = 0; i < h->nconfigs; i++) {
		free(h->configs[i].points);
		free(h->configs[i].cps);
	}
	free(h->configs);
	for (i = 0; i < h->nexps; i++)
		dataset_release(&h->exps[i]);
	free(h->exps);
	free(h->pattern);
	memset(h, 0, sizeof(*h));
}
