/*
 * values.c - the values of runs every analysis file reads: whether a run
 * is measured, its rates (throughput, hand-offs, contended, kernel lock),
 * its fairness, a configuration's measured values, a metric's summary.
 * Below analyze.c (the driver), flags.c and the reports, which all call
 * them.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "lib/util.h"

bool analysis_measured(const struct dataset *d, size_t r)
{
	return !d->runs[r].warmup && d->runs[r].status == RUN_OK &&
	       !d->runs[r].excluded;
}

double analysis_throughput(const struct dataset *d, size_t r)
{
	return dataset_value(d, r, dataset_metric(d, "throughput"));
}

double analysis_contention_rate(const struct dataset *d, size_t r)
{
	return dataset_value(d, r, dataset_metric(d, "contention_rate"));
}

double analysis_handoff_rate(const struct dataset *d, size_t r)
{
	double rate = dataset_value(d, r, dataset_metric(d, "handoff_rate"));
	double h, t;

	if (!isnan(rate))
		return rate;
	h = dataset_value(d, r, dataset_metric(d, "handoffs"));
	t = dataset_value(d, r, dataset_metric(d, "elapsed_s"));
	return t > 0 ? h / t : NAN;
}

double analysis_contended_rate(const struct dataset *d, size_t r)
{
	return analysis_throughput(d, r) * analysis_contention_rate(d, r);
}

double analysis_klock_rate(const struct dataset *d, size_t r)
{
	double n = dataset_value(d, r, dataset_metric(d, "klock_contended"));
	double t = dataset_value(d, r, dataset_metric(d, "elapsed_s"));

	return t > 0 ? n / t : NAN;
}

double analysis_klock_per_op(const struct dataset *d, size_t r)
{
	return dataset_value(d, r, dataset_metric(d, "klock_contended_per_op"));
}

double analysis_jain(const struct dataset *d, size_t r)
{
	const struct ds_run *run = &d->runs[r];

	if (!run->nthreads)
		return NAN;
	return stats_jain(d->thread_ops + run->thread0, run->nthreads);
}

size_t analysis_collect(const struct dataset *d, size_t c, int m,
			double (*get)(const struct dataset *, size_t),
			double *x, size_t *runs)
{
	const struct ds_config *cf = &d->configs[c];
	size_t r, n = 0;

	for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
		double v;

		if (!analysis_measured(d, r))
			continue;
		v = get ? get(d, r) : dataset_value(d, r, m);
		if (isnan(v))
			continue;
		x[n] = v;
		if (runs)
			runs[n] = r;
		n++;
	}
	return n;
}

size_t analysis_values(const struct dataset *d, size_t c, int m,
		       double **out)
{
	*out = xmalloc(d->configs[c].nruns * sizeof(**out));
	return analysis_collect(d, c, m, NULL, *out, NULL);
}

size_t analysis_values_of(const struct dataset *d, size_t c,
			  double (*get)(const struct dataset *, size_t),
			  double **out)
{
	*out = xmalloc(d->configs[c].nruns * sizeof(**out));
	return analysis_collect(d, c, -1, get, *out, NULL);
}

const struct metric_summary *analysis_metric(const struct analysis *a,
					     size_t c, const char *name)
{
	int m = dataset_metric(a->d, name);

	if (m < 0 || c >= a->nconfigs)
		return NULL;
	return &a->configs[c].metrics[m];
}
