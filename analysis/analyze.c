/*
 * analyze.c - from a loaded dataset to struct analysis: run counts,
 * per-metric summaries over measured ok runs (harmonic means of rates under
 * fixed work), outliers by run, fairness, and correlations per section.
 * The flags are raised by flags.c on the result; the values of runs that
 * every analysis file reads are in values.c, below.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/strmap.h"
#include "lib/util.h"

/* Flags look at one metric per configuration: the first of these present. */
static const char *const primary_order[] = { "throughput", "ops_per_process" };

/*
 * Metrics that describe how a run went rather than what it achieved: a
 * command workload's own metric is preferred over these when no
 * throughput is reported.
 */
static const char *const secondary[] = {
	"ops", "elapsed_s", "contended", "contention_rate", "handoffs",
	"handoff_rate", "futex_waits", "futex_wakes", "user_s", "sys_s",
	"wall_s", "vcsw", "ivcsw", "maxrss_kb", "steal_s", "idle_share",
	"cpu_mhz",
};

void analysis_opts_default(struct analysis_opts *o)
{
	*o = (struct analysis_opts){ .resolve_pct = 5, .handoff_drop = 0.25,
				     .jain_min = 0.8, .max_share = 0.5,
				     .alpha = 0.05, .share_threads = 4,
				     .power = 0.8, .drift_alpha = 0.01,
				     .min_runs = 5 };
}

/* The run counts, and the fairness of the measured runs with threads. */
static void count_runs(const struct dataset *d, struct config_analysis *ca)
{
	const struct ds_config *cf = &d->configs[ca->config];
	double jain = 0, share = 0;
	size_t r, n = 0;

	for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
		const struct ds_run *run = &d->runs[r];

		if (run->status == RUN_PLANNED || run->status == RUN_INTERRUPTED)
			ca->pending++;
		else if (run->status != RUN_OK)
			ca->failed++;
		else if (run->warmup)
			ca->warmup++;
		else
			ca->measured++;
		if (!analysis_measured(d, r) || !run->nthreads)
			continue;
		jain += stats_jain(d->thread_ops + run->thread0, run->nthreads);
		share += stats_max_share(d->thread_ops + run->thread0,
					 run->nthreads);
		if (run->nthreads > ca->threads)
			ca->threads = run->nthreads;
		n++;
	}
	ca->mean_jain = n ? jain / (double)n : NAN;
	ca->max_share = n ? share / (double)n : NAN;
}

/* Fixed work: jobs = N, or a workload that only does its own (chat). */
static bool fixed_work(const struct ds_config *cf)
{
	const char *jobs = ds_config_param(cf, "jobs");
	long long n;

	return vocab_fixed_work(cf->workload) ||
	       (jobs && !parse_ll(jobs, &n) && n > 0);
}

/*
 * The harmonic mean of the rates (docs/STATISTICS.md, "Rates under fixed
 * work"); its interval the t interval of 1/x, what a fixed-work run
 * measures, inverted (monotone: the coverage carries over).
 */
static int harmonic_summary(const double *x, size_t n, double confidence,
			    struct summary *s)
{
	double hm = stats_harmonic_mean(x, n), *rx, m, lo, hi;
	int ret;

	if (isnan(hm))
		return -1;      /* a rate <= 0 has no reciprocal */
	rx = xmalloc(n * sizeof(*rx));
	for (size_t i = 0; i < n; i++)
		rx[i] = 1 / x[i];
	ret = stats_mean_ci(rx, n, confidence, &m, &lo, &hi);
	free(rx);
	if (ret < 0)
		return -1;
	s->mean = hm;
	s->cv = s->sd / s->mean;
	s->ci_low = hi > 0 ? 1 / hi : NAN;
	s->ci_high = lo > 0 ? 1 / lo : NAN;
	return 0;
}

static int summarize_metric(const struct analysis *a, struct config_analysis *ca,
			    int m, double confidence)
{
	const struct dataset *d = a->d;
	struct metric_summary *ms = &ca->metrics[m];
	size_t nr = d->configs[ca->config].nruns;
	double *x = xmalloc(nr * sizeof(*x));
	size_t *runs = xmalloc(nr * sizeof(*runs));
	size_t *idx = xmalloc(nr * sizeof(*idx));
	size_t n, i, k;
	int ret = -1;

	ms->metric = m;
	n = analysis_collect(d, ca->config, m, NULL, x, runs);
	if (stats_summarize(x, n, confidence, &ms->s) < 0)
		goto out;
	if (n && ca->fixed_work &&
	    !strcmp(metric_unit(d->metrics[m]), "ops/s")) {
		/* A non-positive rate has no harmonic mean: stay arithmetic. */
		ms->harmonic = !harmonic_summary(x, n, confidence, &ms->s);
	}
	/* The summary's median and MAD: no third sort of x (hot at 1M). */
	k = stats_outliers_around(x, n, ms->s.median, ms->s.mad, idx);
	ms->outliers = xcalloc(k ? k : 1, sizeof(*ms->outliers));
	for (i = 0; i < k; i++)
		ms->outliers[i] = runs[idx[i]];
	ret = 0;
out:
	free(x);
	free(runs);
	free(idx);
	return ret;
}

static bool is_secondary(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(secondary); i++)
		if (!strcmp(secondary[i], name))
			return true;
	/* contend's own */
	return !strncmp(name, "klock_", 6) || !strncmp(name, "kmsg_", 5);
}

/*
 * The metric the flags judge: the one the run declared (primary.SECTION:
 * the section's primary key, or its workload's), else, for experiments
 * stored before that, throughput when the configuration has it, else a
 * metric a command workload named itself, else any with data.
 * Testing every metric would be a fishing expedition: with 15 metrics and
 * five tests some flag would always fire by chance.
 */
static int primary_metric(const struct dataset *d, const struct config_analysis *ca)
{
	const char *declared = analysis_declared_primary(d, ca->config);
	size_t i;
	int m;

	/* the run's own choice; without data it is reported as missing */
	if (declared)
		return dataset_metric(d, declared);
	for (i = 0; i < ARRAY_SIZE(primary_order); i++) {
		m = dataset_metric(d, primary_order[i]);
		if (m >= 0 && ca->metrics[m].s.n)
			return m;
	}
	for (i = 0; i < d->nmetrics; i++)
		if (ca->metrics[i].s.n && !is_secondary(d->metrics[i]))
			return (int)i;
	for (i = 0; i < d->nmetrics; i++)
		if (ca->metrics[i].s.n)
			return (int)i;
	return -1;
}

static double effective_confidence(const struct dataset *d,
				   const struct analysis_opts *o)
{
	if (o->confidence > 0 && o->confidence < 1)
		return o->confidence;
	if (d->exp.confidence > 0 && d->exp.confidence < 1)
		return d->exp.confidence;
	return 0.95;
}

static int analyze_config(struct analysis *a, size_t c, double confidence)
{
	struct config_analysis *ca = &a->configs[c];
	size_t m;

	ca->config = c;
	ca->fixed_work = fixed_work(&a->d->configs[c]);
	count_runs(a->d, ca);
	ca->nmetrics = a->d->nmetrics;
	ca->metrics = xcalloc(ca->nmetrics, sizeof(*ca->metrics));
	for (m = 0; m < ca->nmetrics; m++)
		if (summarize_metric(a, ca, (int)m, confidence) < 0)
			return -1;
	ca->primary = primary_metric(a->d, ca);
	ca->primary_name = analysis_declared_primary(a->d, c);
	if (!ca->primary_name && ca->primary >= 0)
		ca->primary_name = a->d->metrics[ca->primary];
	return 0;
}

/* ---- correlations ---- */

/* The x of each correlation row; y is always throughput. */
static const struct {
	const char *name;
	double (*get)(const struct dataset *d, size_t r);
} corr_x[] = {
	{ "contention_rate", analysis_contention_rate },
	{ "handoff_rate", analysis_handoff_rate },
	{ "klock_rate", analysis_klock_rate },
	{ "klock_wait_share", analysis_kwait_share },
	{ "jain", analysis_jain },
};

/*
 * Pairs (x, throughput) over the measured runs of the configurations of
 * one section (all when config < 0, else only that one).  A row needs 3
 * pairs and some variation on both sides: a constant cannot correlate.
 */
static int corr_add(struct analysis *a, const char *section, long config,
		    size_t k)
{
	const struct dataset *d = a->d;
	double *x = xmalloc(d->nruns * sizeof(*x));
	double *y = xmalloc(d->nruns * sizeof(*y));
	struct corr_row *row;
	size_t c, r, n = 0;
	int ret = -1;

	for (c = 0; c < d->nconfigs; c++) {
		const struct ds_config *cf = &d->configs[c];

		if (strcmp(cf->section, section) || (config >= 0 && (size_t)config != c))
			continue;
		for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
			double xv, yv;

			if (!analysis_measured(d, r))
				continue;
			xv = corr_x[k].get(d, r);
			yv = analysis_throughput(d, r);
			if (isnan(xv) || isnan(yv))
				continue;
			x[n] = xv;
			y[n++] = yv;
		}
	}
	a->corr = xrealloc(a->corr, (a->ncorr + 1) * sizeof(*a->corr));
	row = &a->corr[a->ncorr];
	*row = (struct corr_row){ .section = section, .config = config,
				  .x = corr_x[k].name, .y = "throughput" };
	if (stats_pearson(x, y, n, &row->pearson) < 0 ||
	    stats_spearman(x, y, n, &row->spearman) < 0)
		goto out;
	/* r is NAN below 3 pairs or when either side is constant */
	a->ncorr += !isnan(row->pearson.r);
	ret = 0;
out:
	free(x);
	free(y);
	return ret;
}

/* Per section over all its runs, then per configuration of n >= 8. */
static int correlations(struct analysis *a)
{
	const struct dataset *d = a->d;
	struct strmap done = { 0 };     /* the sections correlated */
	size_t c, k, at;
	int ret = 0;

	for (c = 0; c < d->nconfigs && !ret; c++) {
		const char *section = d->configs[c].section;

		if (strmap_get(&done, section, &at))
			continue;
		strmap_put(&done, section, c);
		for (long i = -1; i < (long)d->nconfigs && !ret; i++) {
			if (i >= 0 && (strcmp(d->configs[i].section, section) ||
				       a->configs[i].measured < 8))
				continue;
			for (k = 0; k < ARRAY_SIZE(corr_x) && !ret; k++)
				ret = corr_add(a, section, i, k);
		}
	}
	strmap_release(&done);
	return ret;
}

int analysis_run(const struct dataset *d, const struct analysis_opts *o,
		 struct analysis *a)
{
	double confidence;
	size_t c;

	memset(a, 0, sizeof(*a));
	a->d = d;
	if (o)
		a->opts = *o;
	else
		analysis_opts_default(&a->opts);
	confidence = effective_confidence(d, &a->opts);
	a->opts.confidence = confidence;
	a->nconfigs = d->nconfigs;
	a->configs = xcalloc(d->nconfigs, sizeof(*a->configs));
	for (c = 0; c < d->nconfigs; c++)
		if (analyze_config(a, c, confidence) < 0)
			goto fail;
	if (correlations(a) < 0 || analysis_flag(a) < 0)
		goto fail;
	analysis_auto(a);
	return 0;
fail:
	analysis_release(a);
	return -1;
}

void analysis_release(struct analysis *a)
{
	size_t c, i;

	for (c = 0; c < a->nconfigs; c++) {
		struct config_analysis *ca = &a->configs[c];

		for (i = 0; i < ca->nmetrics; i++)
			free(ca->metrics[i].outliers);
		free(ca->metrics);
		for (i = 0; i < ca->nflags; i++)
			free(ca->flags[i].message);
		free(ca->flags);
	}
	free(a->configs);
	free(a->corr);
	memset(a, 0, sizeof(*a));
}
