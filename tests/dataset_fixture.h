/*
 * dataset_fixture.h - builds a struct dataset in memory, as store_load
 * would hand it over, so analysis and report tests need no database and no
 * timing.  Included by tests/test_analysis.c and tests/test_report.c.
 *
 * Sequence: fx_init, then per configuration fx_config followed by its
 * fx_run calls, then fx_finish (sorts the metric names and fills the value
 * matrix); fx_free releases everything.
 */
#ifndef CONTEND_DATASET_FIXTURE_H
#define CONTEND_DATASET_FIXTURE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"
#include "lib/util.h"

#define FX_MAX_METRICS 32

struct fx_run {
	size_t n;
	char *name[FX_MAX_METRICS];
	double value[FX_MAX_METRICS];
};

struct fixture {
	struct dataset d;
	struct fx_run *pending;   /* metrics per run until fx_finish */
	long seq;
};

static inline void fx_init(struct fixture *fx, const char *name)
{
	memset(fx, 0, sizeof(*fx));
	fx->d.exp.id = 1;
	fx->d.exp.uuid = xstrdup("00000000-0000-4000-8000-000000000001");
	fx->d.exp.name = xstrdup(name);
	fx->d.exp.label = xstrdup("");
	fx->d.exp.config_path = xstrdup("");
	fx->d.exp.config_text = xstrdup("");
	fx->d.exp.order = xstrdup("blocked");
	fx->d.exp.status = xstrdup("complete");
	fx->d.exp.seed = 42;
	fx->d.exp.confidence = 0.95;
}

static inline void fx_meta(struct fixture *fx, const char *key, const char *value)
{
	struct experiment_row *e = &fx->d.exp;

	e->meta = xrealloc(e->meta, (e->nmeta + 1) * sizeof(*e->meta));
	e->meta[e->nmeta].key = xstrdup(key);
	e->meta[e->nmeta++].value = xstrdup(value);
}

/* params: "k=v k=v ..." in table order.  Returns the config index. */
static inline size_t fx_config(struct fixture *fx, const char *section,
			       const char *workload, const char *params)
{
	struct ds_config *c;
	char *copy = xstrdup(params), *tok, *save = NULL;

	fx->d.configs = xrealloc(fx->d.configs,
				 (fx->d.nconfigs + 1) * sizeof(*fx->d.configs));
	c = &fx->d.configs[fx->d.nconfigs];
	memset(c, 0, sizeof(*c));
	c->id = 100 + (int64_t)fx->d.nconfigs;
	c->workload = xstrdup(workload);
	c->section = xstrdup(section);
	c->canon = xstrdup(params);
	c->noise = 0.05;
	c->run0 = fx->d.nruns;
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		c->params = xrealloc(c->params, (c->nparams + 1) * sizeof(*c->params));
		c->params[c->nparams].key = xstrndup(tok, (size_t)(eq - tok));
		c->params[c->nparams++].value = xstrdup(eq + 1);
	}
	free(copy);
	return fx->d.nconfigs++;
}

/*
 * Adds a run to the last configuration.  metrics: "name=value ..." (may be
 * NULL); ops: per-thread counts (nthreads of them, may be 0).
 */
static inline size_t fx_run(struct fixture *fx, bool warmup, enum run_status st,
			    const char *metrics, const uint64_t *ops,
			    size_t nthreads)
{
	struct dataset *d = &fx->d;
	struct ds_run *r;
	struct fx_run *p;
	char *copy = xstrdup(metrics ? metrics : ""), *tok, *save = NULL;

	d->runs = xrealloc(d->runs, (d->nruns + 1) * sizeof(*d->runs));
	fx->pending = xrealloc(fx->pending, (d->nruns + 1) * sizeof(*fx->pending));
	r = &d->runs[d->nruns];
	p = &fx->pending[d->nruns];
	memset(r, 0, sizeof(*r));
	memset(p, 0, sizeof(*p));
	r->id = 1000 + (int64_t)d->nruns;
	r->config = d->nconfigs - 1;
	r->seq = fx->seq++;
	r->repetition = (int)d->configs[r->config].nruns;
	r->warmup = warmup;
	r->status = st;
	r->started_at = 1700000000.0 + (double)r->seq;
	r->wall_s = 1;
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		p->name[p->n] = xstrndup(tok, (size_t)(eq - tok));
		p->value[p->n++] = strtod(eq + 1, NULL);
	}
	free(copy);
	r->thread0 = d->nthread_ops;
	r->nthreads = nthreads;
	d->thread_ops = xrealloc(d->thread_ops,
				 (d->nthread_ops + nthreads + 1) * sizeof(uint64_t));
	if (nthreads)
		memcpy(d->thread_ops + d->nthread_ops, ops, nthreads * sizeof(*ops));
	d->nthread_ops += nthreads;
	d->configs[r->config].nruns++;
	return d->nruns++;
}

static inline int fx_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline void fx_add_name(struct dataset *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nmetrics; i++)
		if (!strcmp(d->metrics[i], name))
			return;
	d->metrics = xrealloc(d->metrics, (d->nmetrics + 1) * sizeof(char *));
	d->metrics[d->nmetrics++] = xstrdup(name);
}

static inline void fx_finish(struct fixture *fx)
{
	struct dataset *d = &fx->d;
	size_t r, i, m;

	for (r = 0; r < d->nruns; r++)
		for (i = 0; i < fx->pending[r].n; i++)
			fx_add_name(d, fx->pending[r].name[i]);
	if (d->nmetrics)
		qsort(d->metrics, d->nmetrics, sizeof(char *), fx_cmp);
	d->values = xmalloc((d->nruns * d->nmetrics + 1) * sizeof(double));
	for (r = 0; r < d->nruns * d->nmetrics; r++)
		d->values[r] = NAN;
	for (r = 0; r < d->nruns; r++) {
		for (i = 0; i < fx->pending[r].n; i++) {
			for (m = 0; m < d->nmetrics; m++)
				if (!strcmp(d->metrics[m], fx->pending[r].name[i]))
					d->values[r * d->nmetrics + m] =
						fx->pending[r].value[i];
			free(fx->pending[r].name[i]);
		}
	}
	free(fx->pending);
	fx->pending = NULL;
}

/* The dataset is owned as store_load's is, so dataset_release frees it. */
static inline void fx_free(struct fixture *fx)
{
	dataset_release(&fx->d);
	memset(fx, 0, sizeof(*fx));
}

#endif
