/*
 * kwait_top.c - a configuration's kernel locks over its measured runs
 * (analysis.h, analysis_kwait_top): the runs' lock rows (run_klock,
 * written by the runner's BPF program, runner/kinstr/bpf.h) summed per run by
 * kind and caller, as a mean per run with its confidence interval; and
 * compare's per-lock A/B of the same rows (compare_impl.h, compare_klock).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/compare_impl.h"
#include "analysis/stats.h"
#include "lib/holm.h"
#include "lib/util.h"

double analysis_kwait_share(const struct dataset *d, size_t r)
{
	double wait = dataset_value(d, r, dataset_metric(d, "klock_wait_s"));
	double t = dataset_value(d, r, dataset_metric(d, "elapsed_s"));
	size_t tasks = d->runs[r].nthreads ? d->runs[r].nthreads : 1;

	if (!(t > 0))
		t = dataset_value(d, r, dataset_metric(d, "wall_s"));
	return t > 0 ? wait / ((double)tasks * t) : NAN;
}

static bool same(const struct kwait_top *t, const struct ds_klock *k)
{
	return !strcmp(t->kind, k->kind) && !strcmp(t->caller, k->caller);
}

static int by_wait(const void *x, const void *y)
{
	const struct kwait_top *a = x, *b = y;
	int c;

	/* NaN (no interval, too few runs) is not expected: means exist
	 * from one run on; it sorts last all the same */
	if (isnan(a->wait_s) != isnan(b->wait_s))
		return isnan(a->wait_s) ? 1 : -1;
	if (a->wait_s > b->wait_s)
		return -1;
	if (a->wait_s < b->wait_s)
		return 1;
	c = strcmp(a->kind, b->kind);
	return c ? c : strcmp(a->caller, b->caller);
}

/*
 * The mean of x (values >= 0) and an interval that stays positive: the
 * Student-t half-width h taken on the log scale by the delta method,
 * mean exp(-+h / mean) (a wait cannot be negative; 0 when every run's
 * is).
 */
static void positive_ci(const double *x, size_t n, double confidence,
			double *mean, double *lo, double *hi)
{
	double r;

	stats_mean_ci(x, n, confidence, mean, lo, hi);
	if (!(*mean > 0) || !isfinite(*hi))
		return;
	r = (*hi - *mean) / *mean;
	*lo = *mean * exp(-r);
	*hi = *mean * exp(r);
}

/* The row's contentions and wait in each timed run (0 where absent). */
static void summarize(const struct analysis *a, const struct ds_config *cf,
		      const size_t *runs, size_t nruns, struct kwait_top *t)
{
	double *n = xcalloc(nruns ? nruns : 1, sizeof(*n));
	double *w = xcalloc(nruns ? nruns : 1, sizeof(*w));
	size_t i, j;
	bool one = true;

	t->lock = NULL;
	for (i = 0; i < cf->nklock; i++) {
		const struct ds_klock *k = &cf->klock[i];

		if (!same(t, k))
			continue;
		for (j = 0; j < nruns && runs[j] != k->run; j++)
			;
		if (j == nruns)
			continue;
		n[j] += k->contentions;
		w[j] += k->wait_s;
		/* the lock, when every run's row names the same one */
		if (!k->lock || (t->lock && strcmp(t->lock, k->lock)))
			one = false;
		else if (!t->lock)
			t->lock = k->lock;
	}
	if (!one)
		t->lock = NULL;
	t->nruns = nruns;
	positive_ci(n, nruns, a->opts.confidence, &t->contentions,
		    &t->contentions_lo, &t->contentions_hi);
	positive_ci(w, nruns, a->opts.confidence, &t->wait_s, &t->wait_lo,
		    &t->wait_hi);
	free(n);
	free(w);
}

size_t analysis_klock_waits(const struct dataset *d, size_t c,
			    const char *kind, const char *caller, double **out)
{
	const struct ds_config *cf = &d->configs[c];
	int m = dataset_metric(d, "klock_wait_s");
	size_t n = 0, i, j;

	*out = xcalloc(cf->nruns ? cf->nruns : 1, sizeof(**out));
	for (i = cf->run0; i < cf->run0 + cf->nruns; i++) {
		if (!analysis_measured(d, i) || isnan(dataset_value(d, i, m)))
			continue;
		for (j = 0; j < cf->nklock; j++)
			if (cf->klock[j].run == i &&
			    !strcmp(cf->klock[j].kind, kind) &&
			    !strcmp(cf->klock[j].caller, caller))
				(*out)[n] += cf->klock[j].wait_s;
		n++;
	}
	return n;
}

size_t analysis_kwait_top(const struct analysis *a, size_t c, size_t max,
			  struct kwait_top **out)
{
	const struct dataset *d = a->d;
	const struct ds_config *cf = &d->configs[c];
	int m = dataset_metric(d, "klock_wait_s");
	struct kwait_top *t = NULL;
	size_t *runs, nruns = 0, nt = 0, i, j;

	*out = NULL;
	if (!cf->nklock || m < 0)
		return 0;
	/* the measured runs the program timed: klock_wait_s is theirs */
	runs = xcalloc(cf->nruns ? cf->nruns : 1, sizeof(*runs));
	for (i = cf->run0; i < cf->run0 + cf->nruns; i++)
		if (analysis_measured(d, i) &&
		    !isnan(dataset_value(d, i, m)))
			runs[nruns++] = i;
	for (i = 0; i < cf->nklock && nruns; i++) {
		const struct ds_klock *k = &cf->klock[i];

		if (!analysis_measured(d, k->run))
			continue;
		for (j = 0; j < nt && !same(&t[j], k); j++)
			;
		if (j < nt)
			continue;
		t = xrealloc(t, (nt + 1) * sizeof(*t));
		t[nt].kind = k->kind;
		t[nt++].caller = k->caller;
	}
	for (i = 0; i < nt; i++)
		summarize(a, cf, runs, nruns, &t[i]);
	free(runs);
	if (nt)
		qsort(t, nt, sizeof(*t), by_wait);
	*out = t;
	return nt < max ? nt : max;
}

/* ---- compare: every lock of both sides, A/B (docs/KLOCK.md) ---- */

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
