/*
 * compare_klock.c - compare's per-lock A/B (compare_impl.h,
 * compare_klock): every kernel lock (kind, caller) a measured run of
 * either side waited on, compared from each run's wait (0 in a run the
 * BPF program timed without a row for it: analysis_klock_waits in
 * kwait_top.c), Holm-corrected over all of them (docs/KLOCK.md,
 * "Comparing two builds").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/compare_impl.h"
#include "analysis/stats.h"
#include "lib/holm.h"
#include "lib/util.h"

/* The text shows the changed locks and, up to this many rows, the rest
 * by wait; every compared lock is in the JSON. */
#define KLOCK_SHOWN 10

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
			*k = xrealloc(*k, (*n + 1) * sizeof(**k));
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

static double sample_mean(const struct sample *s)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < s->n; i++)
		sum += s->x[i];
	return s->n ? sum / (double)s->n : NAN;
}

/*
 * One lock A/B from its runs' waits; -1 when it cannot be compared (a
 * side of fewer than 2 runs, or no run of either side waited).  Both
 * sides waited: the ratio of their means under the two-level model, as
 * hand-offs are (compare_handoffs: an interval on the log scale, above
 * -100%).  One side never waited: a ratio to 0 has no interval (it
 * printed -100.0%, p = 0), so Welch's test on the runs' waits gives p,
 * the change is -100% (gone) or none (new), without interval.
 */
static int klock_one(struct compare_klock *k, const struct compare_opts *o,
		     const struct sample *sb, const struct sample *sc)
{
	struct handoff_change h;
	struct welch w;

	if (sb->n < 2 || sc->n < 2)
		return -1;
	k->base_mean = sample_mean(sb);
	k->cand_mean = sample_mean(sc);
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

/* By both sides' wait a run, then by name. */
static int by_wait_a_run(const void *x, const void *y)
{
	const struct compare_klock *a = x, *b = y;
	double wa = a->base_mean + a->cand_mean;
	double wb = b->base_mean + b->cand_mean;
	int c;

	if (wa > wb || wa < wb)
		return wa > wb ? -1 : 1;
	c = strcmp(a->kind, b->kind);
	return c ? c : strcmp(a->caller, b->caller);
}

/* The changed (corrected p below alpha) first, each part by wait;
 * returns how many changed. */
static size_t changed_first(struct compare_klock *k, size_t n, double alpha)
{
	struct compare_klock *t = xcalloc(n ? n : 1, sizeof(*t));
	size_t i, m = 0, changed;

	if (n)
		qsort(k, n, sizeof(*k), by_wait_a_run);
	for (i = 0; i < n; i++)
		if (k[i].p_holm < alpha)
			t[m++] = k[i];
	changed = m;
	for (i = 0; i < n; i++)
		if (!(k[i].p_holm < alpha))
			t[m++] = k[i];
	if (n)
		memcpy(k, t, n * sizeof(*k));
	free(t);
	return changed;
}

void compare_klock(struct comparison *cmp, const struct compare_opts *o,
		   const struct compare_side *b, const struct series *gb,
		   const struct compare_side *c, const struct series *gc)
{
	struct compare_klock *k = NULL;
	double *p;
	size_t n = 0, i, changed = 0;

	keys_add(&k, &n, b, gb);
	keys_add(&k, &n, c, gc);
	cmp->klock = xcalloc(n ? n : 1, sizeof(*cmp->klock));
	for (i = 0; i < n; i++) {
		char *key = xasprintf("%s\n%s", k[i].kind, k[i].caller);
		struct sample sb, sc;

		compare_sample_build(b, gb, extract_klock, key, &sb);
		compare_sample_build(c, gc, extract_klock, key, &sc);
		if (klock_one(&k[i], o, &sb, &sc) == 0)
			cmp->klock[cmp->nklock++] = k[i];
		compare_sample_release(&sb);
		compare_sample_release(&sc);
		free(key);
	}
	free(k);
	/* corrected for every lock compared, not only those shown */
	p = xcalloc(cmp->nklock ? cmp->nklock : 1, sizeof(*p));
	for (i = 0; i < cmp->nklock; i++)
		p[i] = cmp->klock[i].p;
	holm_adjust(p, cmp->nklock, p);
	for (i = 0; i < cmp->nklock; i++)
		cmp->klock[i].p_holm = p[i];
	free(p);
	changed = changed_first(cmp->klock, cmp->nklock, o->alpha);
	cmp->klock_shown = changed > KLOCK_SHOWN ? changed : KLOCK_SHOWN;
	if (cmp->klock_shown > cmp->nklock)
		cmp->klock_shown = cmp->nklock;
}
