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
	/* store_experiment_list's order is the series': oldest first */
	if (h->nexps < 2)
		return error("'%s' matches %zu experiment%s: a history needs "
			     "two or more (a label glob such as 'nightly-*')",
			     escape_quote(pattern), h->nexps,
			     h->nexps == 1 ? "" : "s") - 1;
	return 0;
}

/*
 * The point of an experiment holding the configuration: its n measured
 * values x (the one model's invocation: every section of the experiment
 * with the configuration's workload and parameters; analysis.h), into p
 * (zeroed).  x is overwritten with the logs.
 */
static void point_of(double *x, size_t n, double conf,
		     struct history_point *p)
{
	size_t i;

	p->n = n;
	p->mean = n ? gsl_stats_mean(x, 1, n) : NAN;
	p->level = p->lo = p->hi = NAN;
	for (i = 0; i < n; i++)
		p->nonpos += !(x[i] > 0);
	p->state = !n ? HP_MISSING : p->nonpos ? HP_COLLAPSED : HP_OK;
	if (p->state != HP_OK)
		return;
	for (i = 0; i < n; i++)
		x[i] = log(x[i]);
	stats_mean_ci(x, n, conf, &p->level, &p->lo, &p->hi);
}

/*
 * Series s's configuration and points: each experiment holding it (its
 * members, by experiment), oldest first, with its values grouped as the
 * model groups them (none: missing).  Whether any of those experiments
 * records the metric at all.
 */
static bool points_of(const struct history *h, const struct series *s,
		      struct history_config *hc)
{
	struct series_sample v;
	size_t i, g = 0, off = 0;
	bool any = false;

	*hc = (struct history_config){ .workload = s->workload,
		.section = s->section, .canon = s->canon, .gate.change_pct = NAN };
	hc->points = xcalloc(s->ninv + 1, sizeof(*hc->points));
	series_sample_metric(h->exps, s, h->opts.metric, &v);
	for (i = 0; i < s->n; i++) {
		struct history_point *p = &hc->points[hc->npoints];
		size_t e = s->member[i].set, n = 0;

		if (i && s->member[i - 1].set == e)
			continue;
		any |= dataset_metric(&h->exps[e], h->opts.metric) >= 0;
		if (g < v.k && v.set[g] == e)
			n = v.sizes[g++];
		point_of(n ? v.x + off : NULL, n, h->opts.confidence, p);
		off += n;
		p->exp = e;
		hc->npoints++;
	}
	series_sample_release(&v);
	return any;
}

/*
 * The change points of hc, in order, at most one a point: a collapse
 * where a collapsed point follows a point with a level, a recovery where
 * a level follows a collapse (missing points are passed over), and the
 * segmentation's changes over the points with a level (a recovery marks
 * the change where the level comes back).
 */
static void config_changes(struct history_config *hc,
			   const struct history_opts *o)
{
	struct change_point *cp, fact = { .p = NAN, .change_pct = NAN,
		.ci_low_pct = NAN, .ci_high_pct = NAN };
	double *y = xmalloc((hc->npoints + 1) * sizeof(*y));
	size_t i, n = 0, ncp, next = 0;
	int last = -1;          /* the last state seen that is not missing */

	for (i = 0; i < hc->npoints; i++)
		if (hc->points[i].state == HP_OK)
			y[n++] = hc->points[i].level;
	history_change_points(y, n, o, &cp, &ncp);
	hc->cps = xcalloc(hc->npoints + 1, sizeof(*hc->cps));
	for (i = 0, n = 0; i < hc->npoints; i++) {
		const struct history_point *p = &hc->points[i];
		const struct change_point *add = NULL;

		if (p->state == HP_MISSING)
			continue;
		if (p->state == HP_OK && next < ncp && cp[next].index == n)
			add = &cp[next++];
		n += p->state == HP_OK;
		if (last >= 0 && (int)p->state != last) {
			fact.kind = p->state == HP_OK ? CP_RECOVERY : CP_COLLAPSE;
			add = &fact;
		}
		if (add) {
			hc->cps[hc->ncps] = *add;
			hc->cps[hc->ncps++].index = i;
		}
		last = (int)p->state;
	}
	free(cp);
	free(y);
}

int history_analyze(struct history *h, const struct history_opts *o)
{
	struct series_list l;
	size_t c;

	h->opts = *o;
	h->gate = -1;
	series_build(h->exps, h->nexps, &l);
	for (c = 0; c < l.n; c++) {
		struct history_config hc;
		struct history_opts co = *o;

		if (!points_of(h, &l.s[c], &hc)) {
			/* only in experiments without the metric */
			free(hc.points);
			continue;
		}
		/* each configuration its own stream, the same every time */
		co.seed = o->seed + h->nconfigs;
		config_changes(&hc, &co);
		h->configs = xgrow(h->configs, h->nconfigs, sizeof(*h->configs));
		h->configs[h->nconfigs++] = hc;
	}
	series_release(&l);
	/* an experiment with the metric has a configuration */
	if (!h->nconfigs)
		return error("no experiment of '%s' has the metric '%s'",
			     escape_quote(h->pattern),
			     escape_quote(o->metric)) - 1;
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
 * The old level of hc before its newest point: the log levels since the
 * last change of the points before it (their own segmentation, so the
 * newest cannot move it), their mean and sd.  Returns their count, or
 * (size_t)-1 when the points before are collapsed.
 */
static size_t old_level(const struct history_config *hc,
			const struct history_opts *o, double *mean, double *sd)
{
	double *y = xmalloc(hc->npoints * sizeof(*y));
	size_t i, n = 0, from = 0, ncp;
	struct change_point *cp;
	int state = -1;

	for (i = 0; i + 1 < hc->npoints; i++) {
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
	if (state == HP_COLLAPSED) {
		free(y);
		return (size_t)-1;
	}
	history_change_points(y, n, o, &cp, &ncp);
	if (ncp)
		from = cp[ncp - 1].index;
	*mean = gsl_stats_mean(y + from, 1, n - from);
	*sd = gsl_stats_sd_m(y + from, 1, n - from, *mean);
	free(cp);
	free(y);
	return n - from;
}

/* One configuration's gate: its verdict but for Holm's, and gate.p. */
static void gate_one(struct history_config *hc, const struct history *h,
		     double pct, enum direction dir)
{
	const struct history_point *p = &hc->points[hc->npoints - 1];
	double alpha = 1 - h->opts.confidence, z, mean, sd, se, df, t;
	size_t m;

	hc->verdict = GATE_INCONCLUSIVE;
	hc->gate.p = hc->gate_p_holm = NAN;
	if (p->exp + 1 != h->nexps) {
		hc->verdict = GATE_NONE; /* not in the newest experiment */
		return;
	}
	if (p->state == HP_COLLAPSED && dir == DIR_HIGHER) {
		hc->gate.p = 0; /* a fact, not an estimate */
		return;
	}
	if (p->state != HP_OK)
		return;
	m = old_level(hc, &h->opts, &mean, &sd);
	if (m == (size_t)-1) {
		/* out of a collapse: better for a higher-is-better metric */
		hc->verdict = dir == DIR_HIGHER ? GATE_PASS : GATE_INCONCLUSIVE;
		return;
	}
	if (m < 2)
		return;
	/* the newest is one more draw of the old level: a prediction */
	se = sd * sqrt(1 + 1 / (double)m);
	df = (double)m - 1;
	t = gsl_cdf_tdist_Qinv(alpha / 2, df);
	hc->gate.change_pct = 100 * expm1(p->level - mean);
	hc->gate.ci_low_pct = 100 * expm1(p->level - mean - t * se);
	hc->gate.ci_high_pct = 100 * expm1(p->level - mean + t * se);
	/* z < 0: worse by more than pct */
	z = dir * (p->level - mean - log1p(-dir * pct / 100));
	if (!(se > 0)) /* no spread: the change is exact */
		hc->gate.p = z < 0 ? 0 : 1;
	else /* P(-x) and Q(x) differ in the last bit: Q as it always was */
		hc->gate.p = dir == DIR_HIGHER ? gsl_cdf_tdist_P(z / se, df)
					       : gsl_cdf_tdist_Q(-z / se, df);
	if (hc->gate.p > 1 - alpha)
		hc->verdict = GATE_PASS;
}

int history_gate(struct history *h, double pct)
{
	enum direction dir = metric_direction(h->opts.metric);
	double *p, alpha = 1 - h->opts.confidence;
	size_t c, fails = 0, open = 0, pass = 0;

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
		p[c] = h->configs[c].gate.p;
	}
	holm_adjust(p, h->nconfigs, p); /* over the configurations */
	for (c = 0; c < h->nconfigs; c++) {
		struct history_config *hc = &h->configs[c];

		if (!isnan(p[c])) {
			hc->gate_p_holm = p[c];
			if (p[c] < alpha)
				hc->verdict = GATE_FAIL;
		}
		fails += hc->verdict == GATE_FAIL;
		open += hc->verdict == GATE_INCONCLUSIVE;
		pass += hc->verdict == GATE_PASS;
	}
	free(p);
	if (fails)
		return EXIT_REGRESSION;
	if (!open && pass)
		return EXIT_OK;
	return EXIT_INCONCLUSIVE; /* some open, or nothing judged at all */
}
