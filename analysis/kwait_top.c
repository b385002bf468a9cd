/*
 * kwait_top.c - a configuration's kernel locks over its measured runs
 * (analysis.h, analysis_kwait_top): the runs' lock rows (run_klock,
 * written by the runner's BPF program, runner/kinstr/bpf.h) summed per run by
 * kind and caller, as a mean per run with its confidence interval; the
 * per-run waits compare's per-lock A/B reads (compare_klock.c).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/stats.h"
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

/*
 * The contentions and the wait of configuration c's rows (kind, caller)
 * in each timed measured run (klock_wait_s is theirs), in run order, 0
 * where a run has none: their number, *w and *n malloc'd; *lock the lock
 * every row names, or NULL.  One pass over the rows, not one per run
 * (compare reads every lock of every run).
 */
static size_t per_run(const struct dataset *d, size_t c, const char *kind,
		      const char *caller, double **w, double **n,
		      const char **lock)
{
	const struct ds_config *cf = &d->configs[c];
	int m = dataset_metric(d, "klock_wait_s");
	size_t *at = xcalloc(cf->nruns ? cf->nruns : 1, sizeof(*at));
	size_t k = 0, i;
	bool one = true;

	for (i = 0; i < cf->nruns; i++)
		at[i] = analysis_measured(d, cf->run0 + i) &&
				!isnan(dataset_value(d, cf->run0 + i, m))
			? k++ : SIZE_MAX;
	*w = xcalloc(k ? k : 1, sizeof(**w));
	*n = xcalloc(k ? k : 1, sizeof(**n));
	*lock = NULL;
	for (i = 0; i < cf->nklock; i++) {
		const struct ds_klock *r = &cf->klock[i];
		size_t j = r->run - cf->run0;

		if (r->run < cf->run0 || j >= cf->nruns || at[j] == SIZE_MAX ||
		    strcmp(r->kind, kind) || strcmp(r->caller, caller))
			continue;
		(*n)[at[j]] += r->contentions;
		(*w)[at[j]] += r->wait_s;
		if (!r->lock || (*lock && strcmp(*lock, r->lock)))
			one = false;
		else if (!*lock)
			*lock = r->lock;
	}
	if (!one)
		*lock = NULL;
	free(at);
	return k;
}

size_t analysis_klock_waits(const struct dataset *d, size_t c,
			    const char *kind, const char *caller, double **out)
{
	const char *lock;
	double *n;
	size_t k = per_run(d, c, kind, caller, out, &n, &lock);

	free(n);
	return k;
}

size_t analysis_kwait_top(const struct analysis *a, size_t c, size_t max,
			  struct kwait_top **out)
{
	const struct dataset *d = a->d;
	const struct ds_config *cf = &d->configs[c];
	int m = dataset_metric(d, "klock_wait_s");
	struct kwait_top *t = NULL;
	size_t timed = 0, nt = 0, i, j;
	double *n, *w;

	*out = NULL;
	if (!cf->nklock || m < 0)
		return 0;
	for (i = cf->run0; i < cf->run0 + cf->nruns; i++)
		timed += analysis_measured(d, i) &&
			 !isnan(dataset_value(d, i, m));
	for (i = 0; i < cf->nklock && timed; i++) {
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
	for (i = 0; i < nt; i++) {
		t[i].nruns = per_run(d, c, t[i].kind, t[i].caller, &w, &n,
				     &t[i].lock);
		positive_ci(n, t[i].nruns, a->opts.confidence, &t[i].contentions,
			    &t[i].contentions_lo, &t[i].contentions_hi);
		positive_ci(w, t[i].nruns, a->opts.confidence, &t[i].wait_s,
			    &t[i].wait_lo, &t[i].wait_hi);
		free(n);
		free(w);
	}
	if (nt)
		qsort(t, nt, sizeof(*t), by_wait);
	*out = t;
	return nt < max ? nt : max;
}
