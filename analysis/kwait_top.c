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
	size_t *at = xcalloc(cf->nruns ? cf->nruns : 1, sizeof(*at));
	size_t n = 0, i;

	/* each timed measured run's place in *out, SIZE_MAX for the rest:
	 * one pass over the rows, not one per run (compare reads every
	 * lock of every run) */
	for (i = 0; i < cf->nruns; i++)
		at[i] = analysis_measured(d, cf->run0 + i) &&
				!isnan(dataset_value(d, cf->run0 + i, m))
			? n++ : SIZE_MAX;
	*out = xcalloc(n ? n : 1, sizeof(**out));
	for (i = 0; i < cf->nklock; i++) {
		const struct ds_klock *k = &cf->klock[i];
		size_t r = k->run - cf->run0;

		if (k->run >= cf->run0 && r < cf->nruns && at[r] != SIZE_MAX &&
		    !strcmp(k->kind, kind) && !strcmp(k->caller, caller))
			(*out)[at[r]] += k->wait_s;
	}
	free(at);
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
