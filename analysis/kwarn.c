/*
 * kwarn.c - what the kernel did during a configuration's runs, read back
 * (analysis/analysis.h): the sentinels' samples (the kernel-warning and
 * kernel-log-unread flags, --exclude-kernel-warnings, the noisy flag's
 * likely cause) and its locks' waits per run (run_klock rows of the
 * runner's BPF program, runner/kinstr/bpf.h), summed by kind and caller.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/stats.h"
#include "lib/escape.h"
#include "db/contract.h"
#include "lib/util.h"

#define KMSG_PREFIX "kmsg_"
/* the runner's sample of kernel log records lost (runner/sentinel.h) */
#define KLOG_UNREAD "klog_unread"
/* Run seqs named in a message (the json has the count). */
#define LIST_RUNS 8

/*
 * Kernel warnings of run r: the sum of its kmsg_* samples (0 without);
 * each class's count is added to sum[m] when sum is not NULL.
 */
static double kwarn_count(const struct dataset *d, size_t r, double *sum)
{
	double total = 0, v;
	size_t m;

	for (m = 0; m < d->nmetrics; m++) {
		if (strncmp(d->metrics[m], KMSG_PREFIX, strlen(KMSG_PREFIX)))
			continue;
		v = dataset_value(d, r, (int)m);
		if (isnan(v))
			continue;
		total += v;
		if (sum)
			sum[m] += v;
	}
	return total;
}

size_t kwarn_exclude(struct dataset *d)
{
	size_t r, n = 0;

	for (r = 0; r < d->nruns; r++) {
		if (d->runs[r].status != RUN_OK || kwarn_count(d, r, NULL) <= 0)
			continue;
		d->runs[r].excluded = true;
		n += !d->runs[r].warmup;
	}
	return n;
}

void kwarn_flag(const struct analysis *a, struct config_analysis *ca)
{
	const struct dataset *d = a->d;
	const struct ds_config *cf = &d->configs[ca->config];
	double *sum = xcalloc(d->nmetrics + 1, sizeof(*sum));
	char seqs[LIST_RUNS * 24] = "", cls[256] = "", key[40];
	const char *first = NULL;
	size_t r, m, n = 0, excluded = 0, len = 0, cl = 0;
	struct flag *f;

	for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
		if (d->runs[r].warmup || d->runs[r].status != RUN_OK ||
		    kwarn_count(d, r, NULL) <= 0)
			continue;
		kwarn_count(d, r, sum);
		excluded += d->runs[r].excluded;
		if (n++ < LIST_RUNS)
			len += (size_t)snprintf(seqs + len, sizeof(seqs) - len,
						"%s%ld", len ? ", " : "",
						d->runs[r].seq);
		snprintf(key, sizeof(key), MK_KMSG_PREFIX "%ld", d->runs[r].seq);
		if (!first)
			first = experiment_meta(&d->exp, key);
	}
	/* "lockdep 3, thermal 1": the classes those runs logged, capped */
	for (m = 0; n && m < d->nmetrics; m++)
		if (sum[m] > 0 && cl < sizeof(cls))
			cl += (size_t)snprintf(cls + cl, sizeof(cls) - cl,
					       "%s%s %.0f", cl ? ", " : "",
					       d->metrics[m] + strlen(KMSG_PREFIX),
					       sum[m]);
	if (n) {
		/* of the runs, whatever metric: -1, and compare carries it */
		f = analysis_flag_add(ca, "kernel-warning", -1, -1,
			"%zu of %zu runs logged kernel warnings while they ran "
			"(%s; seq %s%s)%s%s%s. The kernel did not run as usual "
			"(lockdep switches itself off after a splat, a stall or "
			"throttling slows everything): read the kernel log, fix "
			"the cause and rerun%s.",
			n, ca->measured, *cls ? cls : "?", seqs, n > LIST_RUNS ? ", ..." : "",
			first ? "; first: '" : "", first ? first : "",
			first ? "'" : "",
			excluded ? "; these runs are left out of the summaries "
				   "(--exclude-kernel-warnings)"
				 : ", or leave these runs out with "
				   "--exclude-kernel-warnings");
		flag_num(f, "runs", (double)n);
		flag_num(f, "of", (double)ca->measured);
		flag_num(f, "excluded", (double)excluded);
	}
	free(sum);
}

/* Why a kernel log was not followed, for a person; by the stored word. */
static const char *unfollowed_why(const char *word)
{
	if (!strcmp(word, KERNEL_LOG_DENIED))
		return "reading it needs root, or kernel.dmesg_restrict = 0";
	if (!strcmp(word, KERNEL_LOG_ABSENT))
		return "/dev/kmsg is not there";
	return "/dev/kmsg could not be read";
}

void kwarn_unread_flag(const struct analysis *a, struct config_analysis *ca)
{
	const struct dataset *d = a->d;
	const struct ds_config *cf = &d->configs[ca->config];
	const char *log = experiment_meta(&d->exp, MK_KERNEL_LOG);
	int m = dataset_metric(d, KLOG_UNREAD);
	size_t r, n = 0;
	double lost = 0, v;
	struct flag *f;
	char *word;

	if (log && strcmp(log, KERNEL_LOG_FOLLOWED)) {
		word = escape_text_dup(log);
		f = analysis_flag_add(ca, "kernel-log-unread", -1, -1,
			"The kernel log was not followed (%.40s: %s): a kernel "
			"warning during these runs would not be flagged.",
			word ? word : "?", unfollowed_why(log));
		flag_num(f, "followed", 0);
		free(word);
		return;
	}
	for (r = cf->run0; m >= 0 && r < cf->run0 + cf->nruns; r++) {
		v = dataset_value(d, r, m);
		if (d->runs[r].warmup || d->runs[r].status != RUN_OK || !(v > 0))
			continue;
		n++;
		lost += v;
	}
	if (!n)
		return;
	f = analysis_flag_add(ca, "kernel-log-unread", -1, -1,
		"%zu of %zu runs lost %.0f kernel log record%s (%s: "
		"not read in time or too long): a kernel warning among "
		"them would not be flagged.", n, ca->measured, lost,
		lost > 1 ? "s" : "", KLOG_UNREAD);
	flag_num(f, "runs", (double)n);
	flag_num(f, "of", (double)ca->measured);
	flag_num(f, "records", lost);
}

/* The summary of metric name over c's measured runs, NULL without one. */
static const struct summary *over(const struct analysis *a, size_t c,
				  const char *name)
{
	const struct metric_summary *ms = analysis_metric(a, c, name);

	return ms && ms->s.n ? &ms->s : NULL;
}

char *kwarn_noise_cause(const struct analysis *a,
			const struct config_analysis *ca)
{
	const struct summary *steal = over(a, ca->config, "steal_s");
	const struct summary *wall = over(a, ca->config, "wall_s");
	const struct summary *th = over(a, ca->config, "kmsg_thermal");
	const struct summary *mhz = over(a, ca->config, "cpu_mhz");
	char msg[2048] = "";    /* room for three %.0f of DBL_MAX */
	size_t len = 0;

	if (steal && wall && wall->mean > 0 && steal->mean > 0.01 * wall->mean)
		len += (size_t)snprintf(msg, sizeof(msg), "; stolen time "
			"(steal_s) %.3g s a run on average, %.3g to %.3g s, "
			"against %.3g s of wall time: the hypervisor ran other "
			"guests on these CPUs", steal->mean, steal->min,
			steal->max, wall->mean);
	if (th)
		len += (size_t)snprintf(msg + len, sizeof(msg) - len, "; the "
			"kernel logged thermal throttling during %zu runs", th->n);
	if (mhz && mhz->n > 1 && mhz->min > 0 && mhz->max / mhz->min > 1.05)
		len += (size_t)snprintf(msg + len, sizeof(msg) - len, "; the "
			"mean CPU frequency moved between runs, %.0f to %.0f MHz "
			"(%.0f%%)", mhz->min, mhz->max,
			100 * (mhz->max / mhz->min - 1));
	return len ? xasprintf("Likely cause: %s.", msg + 2) : NULL;
}

/* ---- the kernel's locks ---- */

double analysis_kwait_share(const struct dataset *d, size_t r)
{
	double wait = dataset_value(d, r, dataset_metric(d, "klock_wait_s"));
	double t = dataset_value(d, r, dataset_metric(d, "elapsed_s"));
	size_t tasks = d->runs[r].nthreads ? d->runs[r].nthreads : 1;

	if (!(t > 0))
		t = dataset_value(d, r, dataset_metric(d, "wall_s"));
	return t > 0 ? wait / ((double)tasks * t) : NAN;
}

static int by_wait(const void *x, const void *y)
{
	const struct kwait_top *a = x, *b = y;
	int c;

	/* a NaN mean (not expected: one run gives one) sorts last */
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
	struct kwait_top *t = NULL;
	size_t nt = 0, i, j;
	double *n, *w;

	*out = NULL;
	/* no timed measured run (klock_wait_s): nothing to rank */
	if (!cf->nklock || !over(a, c, "klock_wait_s"))
		return 0;
	for (i = 0; i < cf->nklock; i++) {
		const struct ds_klock *k = &cf->klock[i];

		if (!analysis_measured(d, k->run))
			continue;
		for (j = 0; j < nt && (strcmp(t[j].kind, k->kind) ||
				       strcmp(t[j].caller, k->caller)); j++)
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
