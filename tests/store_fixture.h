/*
 * store_fixture.h - a small, fully known experiment written through the
 * store API, and the check that a loaded dataset holds exactly it.  Shared
 * by test_store.c and test_merge.c (static inline: each test binary uses
 * what it needs without unused-function warnings).
 *
 * The fixture: two configurations, six runs planned in an interleaved
 * order; five recorded (one failed without samples, one missing a metric),
 * one left planned.
 */
#ifndef CONTEND_STORE_FIXTURE_H
#define CONTEND_STORE_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"

struct fx_config {
	const char *workload, *section, *canon;
	double noise, timeout_s;
	size_t nkv;
	const char *kv[4];
	size_t nthreads;
};

struct fx_run {
	size_t config;
	int repetition;
	bool warmup;
	enum run_status status;  /* RUN_PLANNED: left unrecorded */
	const char *error;
	bool no_handoffs;        /* the metric "handoffs" is absent */
};

/* Strings that must survive SQL unchanged (names chosen by the test). */
struct fx_names {
	const char *name, *label, *section_a, *section_b, *error;
};

static const struct fx_config fx_configs[] = {
	{ "noop", NULL, "spin=10 threads=1", 0.05, 30, 2,
	  { "threads=1", "spin=10" }, 1 },
	{ "noop", NULL, "spin=10 threads=4 cpus=0-1", 0.1, 0, 3,
	  { "threads=4", "spin=10", "cpus=0-1" }, 4 },
};

/* Indexed by seq. */
static const struct fx_run fx_runs[] = {
	{ 1, 0, true, RUN_OK, NULL, false },
	{ 0, 0, true, RUN_OK, NULL, false },
	{ 0, 0, false, RUN_OK, NULL, true },
	{ 1, 0, false, RUN_FAILED, "exit status 3", false },
	{ 1, 1, false, RUN_OK, NULL, false },
	{ 0, 1, false, RUN_PLANNED, NULL, false },
};
#define FX_NRUNS (sizeof(fx_runs) / sizeof(fx_runs[0]))
#define FX_NCONFIGS (sizeof(fx_configs) / sizeof(fx_configs[0]))

static const char *const fx_meta[][2] = {
	{ "hostname", "testhost" }, { "kernel_release", "6.1.0-test" },
	{ "cpus", "2" },
};

/* The values a run records, derived from its seq so checks can recompute. */
static inline double fx_value(size_t seq, size_t m)
{
	return 1000.0 * (double)(seq + 1) + (double)m + 0.125;
}

static inline uint64_t fx_ops(size_t seq, size_t t)
{
	/* Needs all 64 bits: exact unsigned round trip. */
	return ((uint64_t)1 << 63) + seq * 1000 + t;
}

/* Sorted, as the loader must return them. */
static const char *const fx_metrics[] = { "elapsed_s", "handoffs", "throughput" };
#define FX_NMETRICS 3

static inline const char *fx_section(const struct fx_names *nm, size_t c)
{
	return c == 0 ? nm->section_a : nm->section_b;
}

static inline const char *fx_error(const struct fx_names *nm, size_t seq)
{
	return fx_runs[seq].error ? (nm->error ? nm->error : fx_runs[seq].error)
				  : NULL;
}

/* Records run seq of the fixture; 0 or -1. */
static inline int fx_record(struct store *s, int64_t run, size_t seq,
			    const struct fx_names *nm)
{
	const struct fx_run *fr = &fx_runs[seq];
	const char *metric[FX_NMETRICS];
	double value[FX_NMETRICS];
	uint64_t ops[8];
	struct run_record r = { 0 };
	size_t m, n = 0, t;

	if (fr->status != RUN_FAILED) {
		/* Given unsorted, to check the loader sorts. */
		static const size_t order[] = { 2, 0, 1 };

		for (m = 0; m < FX_NMETRICS; m++) {
			size_t k = order[m];

			if (k == 1 && fr->no_handoffs)
				continue;
			metric[n] = fx_metrics[k];
			value[n++] = fx_value(seq, k);
		}
		for (t = 0; t < fx_configs[fr->config].nthreads; t++)
			ops[t] = fx_ops(seq, t);
		r.nthreads = fx_configs[fr->config].nthreads;
	}
	r.status = fr->status;
	r.error = fx_error(nm, seq);
	r.started_at = 1.7e9 + (double)seq;
	r.wall_s = 0.5 + (double)seq;
	r.env_pad = (long)seq;
	r.nsamples = n;
	r.metric = metric;
	r.value = value;
	r.thread_ops = ops;
	return store_run_record(s, run, &r);
}

/* Writes the whole fixture as the runner would; returns the experiment id. */
static inline int64_t fx_build(struct store *s, const struct fx_names *nm)
{
	struct experiment_row e = { 0 };
	struct kv meta[3];
	int64_t cfg[FX_NCONFIGS], run[FX_NRUNS];
	size_t i;

	for (i = 0; i < 3; i++) {
		meta[i].key = (char *)fx_meta[i][0];
		meta[i].value = (char *)fx_meta[i][1];
	}
	e.name = (char *)nm->name;
	e.label = (char *)nm->label;
	e.config_path = (char *)"configs/test.ini";
	e.config_text = (char *)"[experiment]\nname = x ; 'quoted' \"too\"\n";
	e.seed = UINT64_MAX - 1;
	e.order = (char *)"random";
	e.confidence = 0.99;
	e.nmeta = 3;
	e.meta = meta;
	if (store_experiment_create(s, &e) || store_begin(s))
		goto fail;
	for (i = 0; i < FX_NCONFIGS; i++) {
		const struct fx_config *c = &fx_configs[i];

		if (store_config_add(s, e.id, (int)i, c->workload,
				     fx_section(nm, i), c->canon, c->noise,
				     c->timeout_s, c->nkv, (char *const *)c->kv,
				     &cfg[i]))
			goto fail;
	}
	for (i = 0; i < FX_NRUNS; i++)
		if (store_run_plan(s, e.id, cfg[fx_runs[i].config], (long)i,
				   fx_runs[i].repetition, fx_runs[i].warmup,
				   &run[i]))
			goto fail;
	if (store_commit(s) || store_experiment_status(s, e.id, "running"))
		goto fail;
	for (i = 0; i < FX_NRUNS; i++)
		if (fx_runs[i].status != RUN_PLANNED &&
		    fx_record(s, run[i], i, nm))
			goto fail;
	if (store_experiment_status(s, e.id, "interrupted"))
		goto fail;
	free(e.uuid);
	return e.id;
fail:
	store_rollback(s);
	free(e.uuid);
	return -1;
}

/*
 * Writes the fixture into the database file at path (created if missing)
 * and closes it.  Returns the experiment id, or -1; with uuid not NULL,
 * copies the experiment's uuid there (37 bytes).
 */
static inline int64_t fx_build_file(const char *path, const struct fx_names *nm,
				    char *uuid)
{
	struct store *s;
	struct experiment_row e;
	int64_t id;

	if (store_open(path, STORE_CREATE, &s))
		return -1;
	id = fx_build(s, nm);
	if (id > 0 && uuid) {
		if (store_experiment_get(s, id, &e)) {
			id = -1;
		} else {
			strcpy(uuid, e.uuid);
			experiment_row_release(&e);
		}
	}
	store_close(s);
	return id;
}

static inline bool fx_same(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a));
}

/*
 * Checks every field of d against the fixture written with names nm.
 * Returns NULL when equal, else a static description of the first
 * difference (so callers report it through their test framework).
 */
static inline const char *fx_check(const struct dataset *d,
				   const struct fx_names *nm)
{
	size_t c, r, m, t, i;

	if (strcmp(d->exp.name, nm->name) || strcmp(d->exp.label, nm->label))
		return "experiment name or label";
	if (strcmp(d->exp.config_path, "configs/test.ini") ||
	    strcmp(d->exp.config_text,
		   "[experiment]\nname = x ; 'quoted' \"too\"\n"))
		return "config path or text";
	if (d->exp.seed != UINT64_MAX - 1 || strcmp(d->exp.order, "random") ||
	    !fx_same(d->exp.confidence, 0.99))
		return "seed, order or confidence";
	if (strcmp(d->exp.status, "interrupted") || !(d->exp.finished_at > 0) ||
	    !(d->exp.created_at > 0) || strlen(d->exp.uuid) != 36)
		return "status, times or uuid";
	if (d->exp.nmeta != 3)
		return "meta count";
	for (i = 0; i < 3; i++)
		if (strcmp(d->exp.meta[i].key, fx_meta[i][0]) ||
		    strcmp(d->exp.meta[i].value, fx_meta[i][1]))
			return "meta key or value (or order)";
	if (d->nconfigs != FX_NCONFIGS || d->nruns != FX_NRUNS)
		return "config or run count";
	if (d->nmetrics != FX_NMETRICS)
		return "metric count";
	for (m = 0; m < FX_NMETRICS; m++)
		if (strcmp(d->metrics[m], fx_metrics[m]))
			return "metric names (sorted)";
	for (c = 0; c < FX_NCONFIGS; c++) {
		const struct ds_config *dc = &d->configs[c];
		const struct fx_config *fc = &fx_configs[c];
		long prev = -1;

		if (strcmp(dc->workload, fc->workload) ||
		    strcmp(dc->section, fx_section(nm, c)) ||
		    strcmp(dc->canon, fc->canon) || !fx_same(dc->noise, fc->noise))
			return "config fields";
		if (dc->nparams != fc->nkv)
			return "param count";
		for (i = 0; i < fc->nkv; i++) {
			size_t klen = strlen(dc->params[i].key);

			if (strncmp(fc->kv[i], dc->params[i].key, klen) ||
			    fc->kv[i][klen] != '=' ||
			    strcmp(fc->kv[i] + klen + 1, dc->params[i].value))
				return "param key/value (or order)";
		}
		if (dc->nruns != 3)
			return "runs per config";
		for (r = dc->run0; r < dc->run0 + dc->nruns; r++) {
			if (d->runs[r].config != c || d->runs[r].seq <= prev)
				return "runs not grouped by config in seq order";
			prev = d->runs[r].seq;
		}
	}
	for (r = 0; r < d->nruns; r++) {
		const struct ds_run *dr = &d->runs[r];
		size_t seq = (size_t)dr->seq;
		const struct fx_run *fr = &fx_runs[seq];
		const char *err = fx_error(nm, seq);
		bool recorded = fr->status != RUN_PLANNED;
		bool has = recorded && fr->status != RUN_FAILED;

		if (dr->config != fr->config || dr->repetition != fr->repetition ||
		    dr->warmup != fr->warmup || dr->status != fr->status)
			return "run fields";
		if ((err == NULL) != (dr->error == NULL) ||
		    (err && strcmp(err, dr->error)))
			return "run error";
		if (recorded && (!fx_same(dr->started_at, 1.7e9 + (double)seq) ||
				 !fx_same(dr->wall_s, 0.5 + (double)seq)))
			return "run times";
		for (m = 0; m < FX_NMETRICS; m++) {
			double v = dataset_value(d, r, (int)m);
			bool absent = !has || (m == 1 && fr->no_handoffs);

			if (absent ? !isnan(v) : !fx_same(v, fx_value(seq, m)))
				return "sample value (or NAN for absent)";
		}
		if (dr->nthreads != (has ? fx_configs[fr->config].nthreads : 0))
			return "thread count";
		for (t = 0; t < dr->nthreads; t++)
			if (d->thread_ops[dr->thread0 + t] != fx_ops(seq, t))
				return "thread ops";
	}
	return NULL;
}

#endif
