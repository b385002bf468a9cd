/*
 * bisectbase.c - bisect's baseline from the good kernel's stored boots
 * (bisectbase.h): one group per experiment, the runs analysis_measured
 * counts, the ANOVA of stats_nested.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/bisectbase.h"
#include "analysis/stats.h"
#include "lib/escape.h"
#include "lib/util.h"

/* Did run r of d give an outcome (a value or a collapse)? */
static bool outcome(const struct dataset *d, size_t r)
{
	const struct ds_run *run = &d->runs[r];

	return !run->warmup && !run->excluded && run->status != RUN_PLANNED &&
	       run->status != RUN_INTERRUPTED;
}

/*
 * One boot, experiment `set` of series sr (its members there: sections
 * of one experiment are one invocation): the logs of the values appended
 * to *x (*nx of them so far); how many; its collapses added to
 * *collapsed.
 */
static size_t boot_of(const struct dataset *ds, const struct series *sr,
		      size_t set, const char *metric, double **x, size_t *nx,
		      size_t *collapsed)
{
	const struct dataset *d = &ds[set];
	int m = dataset_metric(d, metric);
	size_t i, r, n = 0;

	for (i = 0; sr && i < sr->n; i++) {
		const struct ds_config *cf;

		if (sr->member[i].set != set)
			continue;
		cf = &d->configs[sr->member[i].config];
		*x = xrealloc(*x, (*nx + cf->nruns + 1) * sizeof(**x));
		for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
			double v = m < 0 ? NAN : dataset_value(d, r, m);

			if (!outcome(d, r))
				continue;
			if (analysis_measured(d, r) && isfinite(v) && v > 0)
				(*x)[(*nx)++] = log(v), n++;
			else
				(*collapsed)++;
		}
	}
	return n;
}

/* The series of (workload, canon) over ds, or NULL; *l to release. */
static const struct series *series_of(const struct dataset *ds, size_t nds,
				      const char *workload, const char *canon,
				      struct series_list *l)
{
	long i;

	series_build(ds, nds, l);
	i = series_find(l, workload, canon);
	return i < 0 ? NULL : &l->s[i];
}

int bisect_base_of(const struct dataset *ds, size_t nds, const char *workload,
		   const char *canon, const char *metric, const char *section,
		   struct seq_baseline *b)
{
	size_t *sizes = xcalloc(nds + 1, sizeof(*sizes)), i, k = 0, nx = 0;
	size_t collapsed = 0;
	double *x = NULL;
	struct nested nest;
	char *s = escape_text_dup(section), *mt = escape_text_dup(metric);
	int ret = 0;
	struct series_list l;
	const struct series *sr = series_of(ds, nds, workload, canon, &l);

	for (i = 0; i < nds; i++) {
		size_t n = boot_of(ds, sr, i, metric, &x, &nx, &collapsed);

		if (n)
			sizes[k++] = n;
	}
	if (k < 2 && collapsed) {
		ret = error("bisect: the baseline's runs of [%.80s] collapsed: "
			    "%zu of %zu failed or gave no %.40s above 0, so the "
			    "benchmark fails on the good kernel too: fix it "
			    "before bisecting", s ? s : "?", collapsed,
			    nx + collapsed, mt ? mt : "?");
		goto out;
	}
	if (k < 2 || nx < k + 1 || stats_nested(x, sizes, k, &nest)) {
		ret = error("bisect: the baseline has %zu boot%s of [%.80s] "
			    "with %.40s values: bisect needs two or more boots "
			    "of the good kernel, each with runs", k,
			    k == 1 ? "" : "s", s ? s : "?", mt ? mt : "?");
		goto out;
	}
	*b = (struct seq_baseline){
		.k = k, .n0 = (double)nx / (double)k, .mean = nest.mean,
		.msb = nest.anova.ms_between, .df_b = (double)(k - 1),
		.ssw = nest.anova.ms_within * (double)(nx - k),
		.df_w = (double)(nx - k), .runs = nx + collapsed,
		.collapsed = collapsed,
	};
out:
	series_release(&l);
	free(s);
	free(mt);
	free(sizes);
	free(x);
	return ret;
}

void bisect_prior_of(const struct dataset *ds, size_t nds,
		     const char *workload, const char *canon,
		     const char *metric, struct seq_prior *p)
{
	size_t i;
	struct series_list l;
	const struct series *sr = series_of(ds, nds, workload, canon, &l);

	*p = (struct seq_prior){ 0 };
	for (i = 0; i < nds; i++) {
		double *x = NULL;
		size_t nx = 0, collapsed = 0;
		size_t n = boot_of(ds, sr, i, metric, &x, &nx, &collapsed);

		seq_prior_add(p, x, n, collapsed);
		free(x);
	}
	series_release(&l);
}
