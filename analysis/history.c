/*
 * history.c - a history's series from the store, their change points
 * (history_seg.c) and the --fail-on-change gate (history.h).
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/analysis.h"
#include "analysis/history.h"
#include "analysis/stats.h"
#include "db/vocab.h"
#include "lib/escape.h"
#include "lib/holm.h"
#include "lib/util.h"

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

/* A new configuration of h, series s's. */
static struct history_config *config_add(struct history *h,
					 const struct series *s)
{
	struct history_config *hc;

	h->configs = xrealloc(h->configs,
			      (h->nconfigs + 1) * sizeof(*h->configs));
	hc = &h->configs[h->nconfigs++];
	memset(hc, 0, sizeof(*hc));
	hc->workload = s->workload;
	hc->section = s->section;
	hc->canon = s->canon;
	hc->gate_pct = NAN;
	return hc;
}

/*
 * The point of an experiment holding the configuration: its n measured
 * values x (the one model's invocation: every section of the experiment
 * with the configuration's workload and parameters; series.h).  x is
 * overwritten with the logs.
 */
static void point_of(double *x, size_t n, double conf,
		     struct history_point *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->n = n;
	p->mean = p->level = p->lo = p->hi = NAN;
	for (i = 0; i < n; i++)
		p->nonpos += !(x[i] > 0);
	if (n) {
		p->mean = gsl_stats_mean(x, 1, n);
		for (i = 0; i < n && !p->nonpos; i++)
			x[i] = log(x[i]);
	}
	p->state = !n ? HP_MISSING : p->nonpos ? HP_COLLAPSED : HP_OK;
	if (p->state == HP_OK)
		stats_mean_ci(x, n, conf, &p->level, &p->lo, &p->hi);
}

/* Does series s have a member in experiment e? */
static bool holds(const struct series *s, size_t e)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->member[i].set == e)
			return true;
	return false;
}

/*
 * Series s's points: each experiment holding it, oldest first, with its
 * values grouped as the model groups them (none: missing).  Whether any
 * of those experiments records the metric at all.
 */
static bool points_of(const struct history *h, const struct series *s,
		      struct history_config *hc)
{
	struct series_sample v;
	size_t e, g = 0, off = 0;
	bool any = false;

	series_sample_metric(h->exps, s, h->opts.metric, &v);
	for (e = 0; e < h->nexps; e++) {
		struct history_point p;
		size_t n = 0;

		if (!holds(s, e))
			continue;
		any |= dataset_metric(&h->exps[e], h->opts.metric) >= 0;
		if (g < v.k && v.set[g] == e)
			n = v.sizes[g++];
		point_of(v.x + off, n, h->opts.confidence, &p);
		off += n;
		p.exp = e;
		hc->points = xrealloc(hc->points, (hc->npoints + 1) *
				      sizeof(*hc->points));
		hc->points[hc->npoints++] = p;
	}
	series_sample_release(&v);
	return any;
}

static int cmp_cp(const void *a, const void *b)
{
	const struct change_point *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* Adds a change point of kind at point index to hc. */
static void add_cp(struct history_config *hc, size_t index, enum cp_kind kind)
{
	struct change_point *cp;

	hc->cps = xrealloc(hc->cps, (hc->ncps + 1) * sizeof(*hc->cps));
	cp = &hc->cps[hc->ncps++];
	memset(cp, 0, sizeof(*cp));
	cp->index = index;
	cp->kind = kind;
	cp->p = cp->change_pct = cp->ci_low_pct = cp->ci_high_pct = NAN;
}

static bool has_cp(const struct history_config *hc, size_t index)
{
	size_t i;

	for (i = 0; i < hc->ncps; i++)
		if (hc->cps[i].index == index)
			return true;
	return false;
}

/*
 * The change points of hc: a collapse where a collapsed point follows a
 * point with a level (or starts the series after nothing), a recovery
 * where a level follows a collapse (missing points are passed over); the
 * segmentation over the points with a level, its indices mapped back.
 */
static void config_changes(struct history_config *hc,
			   const struct history_opts *o)
{
	double *y = xmalloc((hc->npoints + 1) * sizeof(*y));
	size_t *at = xmalloc((hc->npoints + 1) * sizeof(*at));
	struct change_point *cp;
	size_t i, n = 0, ncp;
	int last = -1;          /* the last state seen that is not missing */

	for (i = 0; i < hc->npoints; i++) {
		const struct history_point *p = &hc->points[i];

		if (p->state == HP_MISSING)
			continue;
		if (p->state == HP_COLLAPSED && last == HP_OK)
			add_cp(hc, i, CP_COLLAPSE);
		if (p->state == HP_OK && last == HP_COLLAPSED)
			add_cp(hc, i, CP_RECOVERY);
		last = (int)p->state;
		if (p->state == HP_OK) {
			at[n] = i;
			y[n++] = p->level;
		}
	}
	history_change_points(y, n, o, &cp, &ncp);
	for (i = 0; i < ncp; i++) {
		cp[i].index = at[cp[i].index];
		/* a recovery already marks where the level comes back */
		if (has_cp(hc, cp[i].index))
			continue;
		hc->cps = xrealloc(hc->cps, (hc->ncps + 1) * sizeof(*hc->cps));
		hc->cps[hc->ncps++] = cp[i];
	}
	if (hc->ncps)
		qsort(hc->cps, hc->ncps, sizeof(*hc->cps), cmp_cp);
	free(cp);
	free(at);
	free(y);
}

int history_analyze(struct history *h, const struct history_opts *o)
{
	struct series_list l;
	size_t e, c, any = 0;

	h->opts = *o;
	h->gate = -1;
	for (e = 0; e < h->nexps; e++)
		any += dataset_metric(&h->exps[e], o->metric) >= 0;
	if (!any) {
		error("no experiment of '%s' has the metric '%s'",
		      escape_quote(h->pattern), escape_quote(o->metric));
		return -2;
	}
	series_build(h->exps, h->nexps, &l);
	for (c = 0; c < l.n; c++) {
		struct history_config *hc = config_add(h, &l.s[c]);
		struct history_opts co = *o;

		if (!points_of(h, &l.s[c], hc)) {
			/* only in experiments without the metric */
			free(hc->points);
			h->nconfigs--;
			continue;
		}
		/* each configuration its own stream, the same every time */
		co.seed = o->seed + h->nconfigs - 1;
		config_changes(hc, &co);
	}
	series_release(&l);
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

/* ---- --fail-on-change ---- */

/*
 * The old level of hc before its point `last` (the newest experiment's):
 * the log levels since the last change of the points before it (their
 * own segmentation, so the newest cannot move it) into y.  Returns their
 * count, or (size_t)-1 when the points before are collapsed.
 */
static size_t old_level(const struct history_config *hc, size_t last,
			const struct history_opts *o, double *y)
{
	size_t i, n = 0, from = 0, ncp;
	struct change_point *cp;
	int state = -1;

	for (i = 0; i < last; i++) {
		const struct history_point *p = &hc->points[i];

		if (p->state == HP_MISSING)
			continue;
		state = (int)p->state;
		if (p->state == HP_COLLAPSED) {
			n = 0; /* a level starts after the collapse */
			continue;
		}
		y[n++] = p->level;
	}
	if (state == HP_COLLAPSED)
		return (size_t)-1;
	history_change_points(y, n, o, &cp, &ncp);
	if (ncp)
		from = cp[ncp - 1].index;
	memmove(y, y + from, (n - from) * sizeof(*y));
	free(cp);
	return n - from;
}

/* One configuration's gate: its verdict but for Holm's, and gate_p. */
static void gate_one(struct history_config *hc, const struct history *h,
		     double pct, enum direction dir)
{
	const struct history_point *p = &hc->points[hc->npoints - 1];
	double alpha = 1 - h->opts.confidence, *y, thr, mean, sd, se, df, t;
	size_t m;

	hc->verdict = GATE_INCONCLUSIVE;
	hc->gate_p = hc->gate_p_holm = NAN;
	if (p->exp + 1 != h->nexps) {
		hc->verdict = GATE_NONE; /* not in the newest experiment */
		return;
	}
	if (p->state == HP_COLLAPSED && dir == DIR_HIGHER) {
		hc->gate_p = 0; /* a fact, not an estimate */
		return;
	}
	if (p->state != HP_OK)
		return;
	y = xmalloc(hc->npoints * sizeof(*y));
	m = old_level(hc, hc->npoints - 1, &h->opts, y);
	if (m == (size_t)-1) {
		/* out of a collapse: better for a higher-is-better metric */
		hc->verdict = dir == DIR_HIGHER ? GATE_PASS : GATE_INCONCLUSIVE;
		free(y);
		return;
	}
	if (m < 2) {
		free(y);
		return;
	}
	mean = gsl_stats_mean(y, 1, m);
	sd = gsl_stats_sd_m(y, 1, m, mean);
	free(y);
	/* the newest is one more draw of the old level: a prediction */
	se = sd * sqrt(1 + 1 / (double)m);
	df = (double)m - 1;
	thr = dir == DIR_HIGHER ? log1p(-pct / 100) : log1p(pct / 100);
	t = gsl_cdf_tdist_Qinv(alpha / 2, df);
	hc->gate_pct = 100 * expm1(p->level - mean);
	hc->gate_low = 100 * expm1(p->level - mean - t * se);
	hc->gate_high = 100 * expm1(p->level - mean + t * se);
	if (!(se > 0)) /* no spread: the change is exact */
		hc->gate_p = (dir == DIR_HIGHER ? p->level - mean < thr
						: p->level - mean > thr) ? 0 : 1;
	else if (dir == DIR_HIGHER)
		hc->gate_p = gsl_cdf_tdist_P((p->level - mean - thr) / se, df);
	else
		hc->gate_p = gsl_cdf_tdist_Q((p->level - mean - thr) / se, df);
	if (hc->gate_p > 1 - alpha)
		hc->verdict = GATE_PASS;
}

int history_gate(struct history *h, double pct)
{
	enum direction dir = metric_direction(h->opts.metric);
	double *p, alpha = 1 - h->opts.confidence;
	size_t c, fails = 0, open = 0;

	if (dir != DIR_HIGHER && dir != DIR_LOWER) {
		char name[64]; /* the metric as given, escaped and cut */

		escape_text(name, sizeof(name), h->opts.metric);
		return error("--fail-on-change: the metric '%s' has no "
			     "direction (better higher or lower)", name) - 1;
	}
	h->gate = pct;
	p = xcalloc(h->nconfigs + 1, sizeof(*p));
	for (c = 0; c < h->nconfigs; c++) {
		gate_one(&h->configs[c], h, pct, dir);
		p[c] = h->configs[c].gate_p;
	}
	holm_adjust(p, h->nconfigs, p); /* over the configurations */
	for (c = 0; c < h->nconfigs; c++) {
		if (isnan(p[c]))
			continue;
		h->configs[c].gate_p_holm = p[c];
		if (p[c] < alpha)
			h->configs[c].verdict = GATE_FAIL;
	}
	free(p);
	for (c = 0; c < h->nconfigs; c++) {
		fails += h->configs[c].verdict == GATE_FAIL;
		open += h->configs[c].verdict == GATE_INCONCLUSIVE;
	}
	if (fails)
		return EXIT_REGRESSION;
	for (c = 0; c < h->nconfigs && !open; c++)
		if (h->configs[c].verdict == GATE_PASS)
			return EXIT_OK;
	return EXIT_INCONCLUSIVE; /* some open, or nothing judged at all */
}
