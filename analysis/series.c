/*
 * series.c - the one model of runs (series.h): a list of experiments'
 * configurations grouped by workload type and canonical parameters, and
 * a group's values by invocation, an experiment being one invocation
 * however many of its sections hold the configuration.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/series.h"
#include "lib/util.h"

/* A configuration, or a series, under its key (workload, canon). */
struct series_key {
	const char *workload, *canon;
	size_t at;              /* place over the sets, or the series' index */
	struct series_member m;
};

/* By (workload, canon) alone. */
static int name_cmp(const void *pa, const void *pb)
{
	const struct series_key *a = pa, *b = pb;
	int k = strcmp(a->workload, b->workload);

	return k ? k : strcmp(a->canon, b->canon);
}

static int key_cmp(const void *pa, const void *pb)
{
	const struct series_key *a = pa, *b = pb;
	int k = name_cmp(a, b);

	return k ? k : (a->at > b->at) - (a->at < b->at);
}

static int first_cmp(const void *pa, const void *pb)
{
	const struct series *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

/* Every configuration's key, sorted by key, then place. */
static struct series_key *keys_of(const struct dataset *sets, size_t nsets,
				  size_t *total)
{
	struct series_key *k;
	size_t i, c, at = 0;

	*total = 0;
	for (i = 0; i < nsets; i++)
		*total += sets[i].nconfigs;
	k = xcalloc(*total + 1, sizeof(*k));
	for (i = 0; i < nsets; i++)
		for (c = 0; c < sets[i].nconfigs; c++, at++)
			k[at] = (struct series_key){ sets[i].configs[c].workload,
						     sets[i].configs[c].canon,
						     at, { i, c } };
	qsort(k, *total, sizeof(*k), key_cmp);
	return k;
}

void series_build(const struct dataset *sets, size_t nsets,
		  struct series_list *l)
{
	size_t total, i, j, c;
	struct series_key *k = keys_of(sets, nsets, &total);

	memset(l, 0, sizeof(*l));
	l->s = xcalloc(total + 1, sizeof(*l->s));
	for (i = 0; i < total; i = j) {
		struct series *s = &l->s[l->n++];

		for (j = i + 1; j < total && !name_cmp(&k[i], &k[j]); j++)
			;
		s->workload = k[i].workload;
		s->canon = k[i].canon;
		s->section = sets[k[i].m.set].configs[k[i].m.config].section;
		s->first = k[i].at;
		s->n = j - i;
		s->member = xcalloc(j - i, sizeof(*s->member));
		for (c = i; c < j; c++) {
			s->member[c - i] = k[c].m;
			/* sorted by place, so one experiment's are adjacent */
			s->ninv += c == i || k[c].m.set != k[c - 1].m.set;
		}
	}
	qsort(l->s, l->n, sizeof(*l->s), first_cmp);
	for (i = 0; i < l->n; i++)
		k[i] = (struct series_key){ l->s[i].workload, l->s[i].canon, i,
					    { 0, 0 } };
	qsort(k, l->n, sizeof(*k), key_cmp);
	l->index = k;
}

long series_find(const struct series_list *l, const char *workload,
		 const char *canon)
{
	struct series_key key = { .workload = workload, .canon = canon };
	const struct series_key *k = bsearch(&key, l->index, l->n, sizeof(key),
					     name_cmp);

	return k ? (long)k->at : -1;
}

void series_release(struct series_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->s[i].member);
	free(l->s);
	free(l->index);
	memset(l, 0, sizeof(*l));
}

size_t series_metric_values(const struct dataset *d, size_t c,
			    const char *metric, double **out)
{
	int m = dataset_metric(d, metric);

	*out = NULL;
	return m < 0 ? 0 : analysis_values(d, c, m, out);
}

/* Appends v[0..k) to member i's invocation (a new one at a new set). */
static void add(struct series_sample *o, const struct series *s, size_t i,
		const double *v, size_t k)
{
	bool same = o->k && o->set[o->k - 1] == s->member[i].set;

	if (!k)
		return;
	o->x = xrealloc(o->x, (o->n + k) * sizeof(*o->x));
	memcpy(o->x + o->n, v, k * sizeof(*v));
	o->n += k;
	if (!same) {
		o->set[o->k] = s->member[i].set;
		o->sizes[o->k++] = 0;
	}
	o->sizes[o->k - 1] += k;
}

void series_sample(const struct dataset *sets, const struct series *s,
		   series_extract fn, const char *arg,
		   struct series_sample *out)
{
	memset(out, 0, sizeof(*out));
	out->sizes = xcalloc(s->ninv + 1, sizeof(*out->sizes));
	out->set = xcalloc(s->ninv + 1, sizeof(*out->set));
	for (size_t i = 0; i < s->n; i++) {
		double *v;
		size_t k = fn(&sets[s->member[i].set], s->member[i].config,
			      arg, &v);

		add(out, s, i, v, k);
		free(v);
	}
}

/* The runs series_metric_values counts, with their wall times. */
void series_sample_metric(const struct dataset *sets, const struct series *s,
			  const char *metric, struct series_sample *out)
{
	series_sample(sets, s, series_metric_values, metric, out);
	for (size_t i = 0; i < s->n; i++) {
		const struct dataset *d = &sets[s->member[i].set];
		const struct ds_config *cf = &d->configs[s->member[i].config];
		int m = dataset_metric(d, metric);

		for (size_t r = cf->run0; m >= 0 && r < cf->run0 + cf->nruns;
		     r++) {
			double w = d->runs[r].wall_s;

			if (analysis_measured(d, r) &&
			    !isnan(dataset_value(d, r, m)) && w > 0 &&
			    isfinite(w)) {
				out->wall += w;
				out->nwall++;
			}
		}
	}
}

void series_sample_release(struct series_sample *v)
{
	free(v->x);
	free(v->sizes);
	free(v->set);
	memset(v, 0, sizeof(*v));
}
