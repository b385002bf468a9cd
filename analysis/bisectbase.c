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

/*
 * A series_extract: the outcomes of configuration c of d (a value or a
 * collapse, bisectbase.h), the log of a value, NAN for a collapse.
 */
static size_t outcomes(const struct dataset *d, size_t c, const char *metric,
		       double **out)
{
	const struct ds_config *cf = &d->configs[c];
	int m = dataset_metric(d, metric);
	size_t r, n = 0;

	*out = xmalloc((cf->nruns + 1) * sizeof(**out));
	for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
		const struct ds_run *run = &d->runs[r];
		double v = m < 0 ? NAN : dataset_value(d, r, m);

		if (run->warmup || run->excluded || run->status == RUN_PLANNED ||
		    run->status == RUN_INTERRUPTED)
			continue;
		(*out)[n++] = analysis_measured(d, r) && isfinite(v) && v > 0 ?
			      log(v) : NAN;
	}
	return n;
}

/*
 * The boots of (workload, canon)'s metric over ds[0..nds), one per
 * experiment with an outcome, in order: each boot's values (logs) in
 * v->x, one boot after another, v->sizes[g] of them (0: collapses only),
 * v->n in all; the collapses of each boot returned (malloc'd, v->k).
 */
static size_t *boots_of(const struct dataset *ds, size_t nds,
			const char *workload, const char *canon,
			const char *metric, struct series_sample *v)
{
	struct series_list l;
	size_t g, i, off = 0, *collapsed;
	long s;

	series_build(ds, nds, &l);
	s = series_find(&l, workload, canon);
	memset(v, 0, sizeof(*v));
	if (s >= 0)
		series_sample(ds, &l.s[s], outcomes, metric, v);
	series_release(&l);
	collapsed = xcalloc(v->k + 1, sizeof(*collapsed));
	v->n = 0;
	for (g = 0; g < v->k; g++) {
		size_t end = off + v->sizes[g];

		for (i = off; i < end; i++) {
			if (isnan(v->x[i]))
				collapsed[g]++;
			else
				v->x[v->n++] = v->x[i];
		}
		v->sizes[g] -= collapsed[g];
		off = end;
	}
	return collapsed;
}

int bisect_base_of(const struct dataset *ds, size_t nds, const char *workload,
		   const char *canon, const char *metric, const char *section,
		   struct seq_baseline *b)
{
	struct series_sample v;
	size_t *lost = boots_of(ds, nds, workload, canon, metric, &v);
	size_t g, k = 0, nx = v.n, collapsed = 0;
	struct nested nest;
	char *s = escape_text_dup(section), *mt = escape_text_dup(metric);
	int ret = 0;

	for (g = 0; g < v.k; g++) {
		collapsed += lost[g];
		if (v.sizes[g])
			v.sizes[k++] = v.sizes[g];
	}
	if (k < 2 && collapsed) {
		ret = error("bisect: the baseline's runs of [%.80s] collapsed: "
			    "%zu of %zu failed or gave no %.40s above 0, so the "
			    "benchmark fails on the good kernel too: fix it "
			    "before bisecting", s ? s : "?", collapsed,
			    nx + collapsed, mt ? mt : "?");
		goto out;
	}
	if (k < 2 || nx < k + 1 || stats_nested(v.x, v.sizes, k, &nest)) {
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
	series_sample_release(&v);
	free(lost);
	free(s);
	free(mt);
	return ret;
}

void bisect_prior_of(const struct dataset *ds, size_t nds,
		     const char *workload, const char *canon,
		     const char *metric, struct seq_prior *p)
{
	struct series_sample v;
	size_t *lost = boots_of(ds, nds, workload, canon, metric, &v);
	size_t g, off = 0;

	*p = (struct seq_prior){ 0 };
	for (g = 0; g < v.k; off += v.sizes[g++])
		seq_prior_add(p, v.x + off, v.sizes[g], lost[g]);
	series_sample_release(&v);
	free(lost);
}
