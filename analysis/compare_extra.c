/*
 * compare_extra.c - what a reviewer asks beside the verdict: in how many
 * pairs of invocations B beat A, every kernel lock either side waited on
 * (docs/KLOCK.md, "Comparing two builds"), and every secondary metric
 * under the compared metric's model, Benjamini-Hochberg across them
 * (docs/STATISTICS.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "analysis/stats.h"
#include "lib/holm.h"
#include "lib/util.h"

/* The text shows the changed locks and, up to this many rows, the rest
 * by wait; every compared lock is in the JSON. */
#define KLOCK_SHOWN 10

static double group_mean(const struct compare_groups *g, size_t i)
{
	size_t off = 0, j;

	for (j = 0; j < i; j++)
		off += g->sizes[j];
	return g->sizes[i] ? gsl_stats_mean(g->x + off, 1, g->sizes[i]) : NAN;
}

void compare_beat_count(const struct compare_groups *b,
			const struct compare_groups *c, enum direction dir,
			double confidence, struct compare_beat *out)
{
	memset(out, 0, sizeof(*out));
	out->kb = b->k;
	out->kc = c->k;
	out->p_min = NAN;
	if (b->k < 2 || c->k < 2)
		return;
	for (size_t i = 0; i < b->k; i++)
		for (size_t j = 0; j < c->k; j++) {
			double a = group_mean(b, i), x = group_mean(c, j);

			if (!isfinite(a) || !isfinite(x))
				continue;
			out->pairs++;
			if (dir == DIR_LOWER ? x < a : x > a)
				out->wins++;
			else if (!(x < a) && !(x > a))
				out->ties++;
		}
	/* The exact two-sided rank test's smallest p: 2 / C(kb + kc, kb). */
	out->p_min = fmin(1.0, 2.0 / gsl_sf_choose((unsigned)(b->k + c->k),
						   (unsigned)b->k));
	out->reachable = out->p_min < 1 - confidence;
}

char *compare_beat_text(const struct comparison *cmp, double confidence)
{
	const struct compare_beat *bt = &cmp->beat;
	char ties[32] = "";

	if (!bt->pairs)
		return NULL;
	if (bt->ties)
		snprintf(ties, sizeof(ties), " (%zu tied)", bt->ties);
	if (!bt->reachable)
		return xasprintf("B beat A in %zu of %zu invocation pairs%s; "
				 "%zu and %zu invocations are too few for a "
				 "rank test to reach %g%% (at best p = %.2g)",
				 bt->wins, bt->pairs, ties, bt->kb, bt->kc,
				 100 * confidence, bt->p_min);
	return xasprintf("B beat A in %zu of %zu invocation pairs%s "
			 "(rank test p = %.2g)", bt->wins, bt->pairs, ties,
			 cmp->st.p_mannwhitney);
}

void compare_bh(const double *p, size_t n, double *q)
{
	double *f = xcalloc(n + 1, sizeof(*f)), run = 1;
	size_t *o = xcalloc(n + 1, sizeof(*o)), m = 0, k;

	for (k = 0; k < n; k++) {       /* q may be p */
		m += isfinite(p[k]) != 0;
		f[k] = isfinite(p[k]) ? p[k] : INFINITY; /* ordered last */
		q[k] = NAN;
	}
	gsl_sort_index(o, f, 1, n);
	/* q_(k) = min over j >= k of m p_(j) / j, capped at 1. */
	for (k = m; k > 0; k--) {
		run = fmin(run, f[o[k - 1]] * (double)m / (double)k);
		q[o[k - 1]] = fmin(run, 1.0);
	}
	free(o);
	free(f);
}

static int by_z(const void *x, const void *y)
{
	const struct compare_second *a = x, *b = y;
	double za = isfinite(a->z) ? fabs(a->z) : -1;
	double zb = isfinite(b->z) ? fabs(b->z) : -1;

	if (za < zb || za > zb)
		return za < zb ? 1 : -1;
	return strcmp(a->name, b->name);
}

size_t compare_second_shown(const struct comparison *cmp, double alpha,
			    bool all)
{
	size_t n = 0;

	while (n < cmp->nsecond && (all || (n < COMPARE_SECOND_TOP &&
					    cmp->second[n].q < alpha)))
		n++;
	return n;
}

static void second_push(struct comparison *cmp, struct compare_second s)
{
	cmp->second = xgrow(cmp->second, cmp->nsecond, sizeof(*cmp->second));
	cmp->second[cmp->nsecond++] = s;
}

static bool name_seen(const struct comparison *cmp, const char *name)
{
	for (size_t i = 0; i < cmp->nsecond; i++)
		if (!strcmp(cmp->second[i].name, name))
			return true;
	return false;
}

/* Secondary metric name A/B, when the model can compare it. */
static void second_of(struct comparison *cmp, const struct compare_opts *o,
		      const char *name, const struct compare_side *b,
		      const struct series *gb, const struct compare_side *c,
		      const struct series *gc)
{
	struct compare_opts so = *o;
	struct compare_stats st;
	struct sample sb, sc;

	so.dir = DIR_HIGHER;    /* only the change and its interval are read */
	compare_sample_build(b, gb, series_metric_values, name, &sb);
	compare_sample_build(c, gc, series_metric_values, name, &sc);
	if (sb.g.k && sc.g.k && compare_model(&sb.g, &sc.g, &so, &st) == 0 &&
	    isfinite(st.model.p)) {
		/* a quantity never below 0 (a time with zeros in it, analysed
		 * on the linear scale) cannot fall by more than all of it */
		if (!st.log_scale && gsl_stats_min(sb.x, 1, sb.n) >= 0 &&
		    gsl_stats_min(sc.x, 1, sc.n) >= 0 &&
		    st.change_ci_low_pct < -100)
			st.change_ci_low_pct = -100;
		second_push(cmp, (struct compare_second){
			xstrdup(name), st.base.mean, st.cand.mean,
			st.change_pct, st.change_ci_low_pct,
			st.change_ci_high_pct, st.model.t, st.model.p, NAN });
	}
	compare_sample_release(&sb);
	compare_sample_release(&sc);
}

/* ---- the kernel locks ---- */

/* A (kind, caller) some measured run of a side waited on. */
static void keys_add(struct compare_klock **k, size_t *n,
		     const struct compare_side *s, const struct series *g)
{
	size_t i, j, l;

	for (i = 0; i < g->n; i++) {
		const struct dataset *d = &s->sets[g->member[i].set];
		const struct ds_config *cf = &d->configs[g->member[i].config];

		for (j = 0; j < cf->nklock; j++) {
			const struct ds_klock *r = &cf->klock[j];

			if (!analysis_measured(d, r->run))
				continue;
			for (l = 0; l < *n && (strcmp((*k)[l].kind, r->kind) ||
					       strcmp((*k)[l].caller, r->caller));
			     l++)
				;
			if (l < *n)
				continue;
			*k = xgrow(*k, *n, sizeof(**k));
			(*k)[(*n)++] = (struct compare_klock){
				.kind = r->kind, .caller = r->caller };
		}
	}
}

/* "kind\ncaller" for extract_klock, which the sample's metric carries. */
static size_t extract_klock(const struct dataset *d, size_t c,
			    const char *key, double **out)
{
	const char *nl = strchr(key, '\n');
	char *kind = xstrndup(key, (size_t)(nl - key));
	size_t n = analysis_klock_waits(d, c, kind, nl + 1, out);

	free(kind);
	return n;
}

/*
 * One lock A/B from its runs' waits; -1 when it cannot be compared (a
 * side of fewer than 2 runs, or no run of either side waited).  Both
 * sides waited: the ratio of their means under the two-level model, as
 * hand-offs are (compare_handoffs).  One side never waited: a ratio to 0
 * has no interval, so Welch's test on the runs' waits gives p, the
 * change is -100% (gone) or none (new).
 */
static int klock_one(struct compare_klock *k, const struct compare_opts *o,
		     const struct sample *sb, const struct sample *sc)
{
	struct handoff_change h;
	struct welch w;

	if (sb->n < 2 || sc->n < 2)
		return -1;
	k->base_mean = gsl_stats_mean(sb->x, 1, sb->n);
	k->cand_mean = gsl_stats_mean(sc->x, 1, sc->n);
	if (k->base_mean > 0 && k->cand_mean > 0) {
		if (compare_handoffs(&sb->g, &sc->g, o, &h) < 0)
			return -1;
		k->base_mean = h.base_mean;
		k->cand_mean = h.cand_mean;
		k->change_pct = h.change_pct;
		k->ci_low_pct = h.ci_low_pct;
		k->ci_high_pct = h.ci_high_pct;
		k->p = h.p;
		return 0;
	}
	if (!(k->base_mean > 0) && !(k->cand_mean > 0))
		return -1;
	k->change_pct = k->base_mean > 0 ? -100 : NAN;
	k->ci_low_pct = k->ci_high_pct = NAN;
	if (stats_welch(sb->x, sb->n, sc->x, sc->n, o->confidence, &w))
		return -1;
	k->p = w.p;
	return isnan(k->p) ? -1 : 0;
}

/* The changed (corrected p below *alpha) first, each part by both
 * sides' wait a run, then by name. */
static int changed_first(const void *x, const void *y, void *alpha)
{
	const struct compare_klock *a = x, *b = y;
	double al = *(const double *)alpha;
	double wa = a->base_mean + a->cand_mean;
	double wb = b->base_mean + b->cand_mean;
	int c = (b->p_holm < al) - (a->p_holm < al);

	if (c)
		return c;
	if (wa > wb || wa < wb)
		return wa > wb ? -1 : 1;
	c = strcmp(a->kind, b->kind);
	return c ? c : strcmp(a->caller, b->caller);
}

void compare_klock(struct comparison *cmp, const struct compare_opts *o,
		   const struct compare_side *b, const struct series *gb,
		   const struct compare_side *c, const struct series *gc)
{
	struct compare_klock *k;
	double *p, alpha = o->alpha;
	size_t n = 0, i, changed = 0;

	keys_add(&cmp->klock, &n, b, gb);
	keys_add(&cmp->klock, &n, c, gc);
	for (i = 0, k = cmp->klock; i < n; i++) {
		char *key = xasprintf("%s\n%s", k[i].kind, k[i].caller);
		struct sample sb, sc;

		compare_sample_build(b, gb, extract_klock, key, &sb);
		compare_sample_build(c, gc, extract_klock, key, &sc);
		if (klock_one(&k[i], o, &sb, &sc) == 0)
			k[cmp->nklock++] = k[i];
		compare_sample_release(&sb);
		compare_sample_release(&sc);
		free(key);
	}
	/* corrected for every lock compared, not only those shown */
	p = xcalloc(cmp->nklock ? cmp->nklock : 1, sizeof(*p));
	for (i = 0; i < cmp->nklock; i++)
		p[i] = cmp->klock[i].p;
	holm_adjust(p, cmp->nklock, p);
	for (i = 0; i < cmp->nklock; i++) {
		cmp->klock[i].p_holm = p[i];
		changed += p[i] < alpha;
	}
	free(p);
	if (cmp->nklock)
		qsort_r(cmp->klock, cmp->nklock, sizeof(*cmp->klock),
			changed_first, &alpha);
	cmp->klock_shown = changed > KLOCK_SHOWN ? changed : KLOCK_SHOWN;
	if (cmp->klock_shown > cmp->nklock)
		cmp->klock_shown = cmp->nklock;
}

/* ---- the secondary metrics ---- */

void compare_extras(struct comparison *cmp, const struct compare_opts *o,
		    const char *metric, const struct sample *sb,
		    const struct sample *sc, const struct compare_side *b,
		    const struct series *gb, const struct compare_side *c,
		    const struct series *gc)
{
	const struct compare_side *side[2] = { b, c };
	const struct series *g[2] = { gb, gc };
	double *p;
	size_t i, j, k;

	compare_beat_count(&sb->g, &sc->g, o->dir, o->confidence, &cmp->beat);
	if (b->numbers || c->numbers)
		return;
	for (i = 0; i < 2; i++)
		for (j = 0; j < g[i]->n; j++) {
			const struct dataset *d =
				&side[i]->sets[g[i]->member[j].set];

			for (k = 0; k < d->nmetrics; k++)
				if (strcmp(d->metrics[k], metric) &&
				    !name_seen(cmp, d->metrics[k]))
					second_of(cmp, o, d->metrics[k], b,
						  gb, c, gc);
		}
	/* The kernel locks' wait: compare_klock's A/B of each, by its p. */
	for (i = 0; i < cmp->nklock; i++) {
		const struct compare_klock *kl = &cmp->klock[i];
		double z = kl->p > 0 ? gsl_cdf_ugaussian_Qinv(kl->p / 2)
				     : INFINITY;

		if (isfinite(kl->p))
			second_push(cmp, (struct compare_second){
				xasprintf("wait %s %s", kl->kind, kl->caller),
				kl->base_mean, kl->cand_mean, kl->change_pct,
				kl->ci_low_pct, kl->ci_high_pct,
				kl->change_pct < 0 ? -z : z, kl->p, NAN });
	}
	p = xcalloc(cmp->nsecond + 1, sizeof(*p));
	for (i = 0; i < cmp->nsecond; i++)
		p[i] = cmp->second[i].p;
	compare_bh(p, cmp->nsecond, p);
	for (i = 0; i < cmp->nsecond; i++)
		cmp->second[i].q = p[i];
	free(p);
	if (cmp->nsecond)
		qsort(cmp->second, cmp->nsecond, sizeof(*cmp->second), by_z);
}

void compare_second_release(struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->nsecond; i++)
		free(cmp->second[i].name);
	free(cmp->second);
	cmp->second = NULL;
	cmp->nsecond = 0;
}
