/*
 * storebench.c - the database side of `make bench` (bench/report.sh,
 * bench/storage.sh): writes synthetic experiments through the store API,
 * exactly as the runner does, and times the storage of finished runs.
 *
 *   storebench gen PATH NCONFIGS NRUNS NMETRICS
 *	A complete experiment: NCONFIGS configurations of one
 *	pthread-mutex section (threads x contended_delay_ns), NRUNS measured
 *	ok runs each, NMETRICS metrics per run (the lock workloads' names
 *	first, so the analysis meets the metrics it knows), 1 to 4 thread
 *	rows per run.  Values are normal around a per-configuration mean
 *	(GSL, fixed seed), so every summary, correlation and flag has real
 *	work to do.  Prints "samples N".
 *
 *   storebench rate store|sql PATH NRUNS NMETRICS NTHREADS
 *	Plans NRUNS runs, then records each in its own transaction and
 *	prints "runs_per_s R", with the runner's 256 KiB page cache.
 *	`store` goes through store_run_record; `sql` is the baseline: the
 *	least SQL that stores the same rows (one BEGIN IMMEDIATE, the run
 *	UPDATE, the sample INSERTs, the INSERT of the thread counts as one
 *	JSON array, COMMIT) with prepared statements on the same schema,
 *	pragmas and connection.
 *
 *   storebench load PATH ROUNDS
 *	Loads the newest experiment of PATH ROUNDS times with store_load
 *	(read-only, as a report does) and prints "load_s S", the fastest.
 *
 * Exit status 0, 1 on a store error, 2 on bad arguments.
 */
#include <gsl/gsl_randist.h>
#include <inttypes.h>
#include <gsl/gsl_rng.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"
#include "lib/util.h"

/* Metrics the analysis knows, then generic names up to NMETRICS. */
static const char *const known_metrics[] = {
	"throughput", "handoffs", "contended", "elapsed_s", "ops",
	"user_s", "sys_s", "vcsw", "ivcsw", "maxrss_kb",
};

#define MAX_METRICS 64
#define MAX_THREADS 1024

struct names {
	char *metric[MAX_METRICS];
	size_t n;
};

static void names_init(struct names *nm, size_t n)
{
	size_t i;

	nm->n = n;
	for (i = 0; i < n; i++)
		nm->metric[i] = i < ARRAY_SIZE(known_metrics)
				      ? xstrdup(known_metrics[i])
				      : xasprintf("metric_%02zu", i);
}

static void names_free(struct names *nm)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		free(nm->metric[i]);
}

/* A new experiment with host metadata as the runner would write it. */
static int experiment_new(struct store *s, const char *name, int64_t *id)
{
	struct kv meta[] = {
		{ (char *)"hostname", (char *)"bench" },
		{ (char *)"kernel", (char *)"synthetic" },
		{ (char *)"cpus", (char *)"2" },
	};
	struct experiment_row e = { 0 };
	int ret;

	e.name = (char *)name;
	e.label = (char *)"bench";
	e.config_path = (char *)"bench/synthetic.ini";
	e.config_text = (char *)"[experiment]\nname = synthetic\n";
	e.seed = 42;
	e.order = (char *)"blocked";
	e.confidence = 0.95;
	e.nmeta = ARRAY_SIZE(meta);
	e.meta = meta;
	ret = store_experiment_create(s, &e);
	*id = e.id;
	free(e.uuid);
	return ret;
}

/* One configuration c of the synthetic sweep. */
static int config_new(struct store *s, int64_t exp, size_t c, int64_t *id)
{
	char threads[32], delay[48], canon[96];
	char *kv[2] = { threads, delay };

	snprintf(threads, sizeof(threads), "threads=%zu", 1 + c % 4);
	snprintf(delay, sizeof(delay), "contended_delay_ns=%zu", c / 4 * 100);
	snprintf(canon, sizeof(canon), "%s %s", threads, delay);
	return store_config_add(s, exp, (int)c, "pthread-mutex", "mutex", canon,
				0.05, 30, 2, kv, id);
}

/* Values of run rep of config c: normal, 2% sd, around a config mean. */
static void gen_values(gsl_rng *rng, size_t c, size_t nm, double *v)
{
	size_t m;

	for (m = 0; m < nm; m++) {
		double mean = 1e3 * (double)(1 + (c * 7 + m * 13) % 97);

		v[m] = mean * (1 + gsl_ran_gaussian(rng, 0.02));
	}
}

static int gen_config(struct store *s, gsl_rng *rng, int64_t exp, size_t c,
		      size_t nruns, const struct names *nm, long *seq)
{
	double value[MAX_METRICS];
	uint64_t ops[4];
	size_t rep, t, nthr = 1 + c % 4;
	int64_t cfg, run;

	if (config_new(s, exp, c, &cfg))
		return -1;
	for (rep = 0; rep < nruns; rep++) {
		struct run_record r = {
			.status = RUN_OK, .started_at = 1.7e9 + (double)*seq,
			.wall_s = 1.01, .env_pad = -1, .nsamples = nm->n,
			.metric = (const char *const *)nm->metric,
			.value = value, .nthreads = nthr, .thread_ops = ops,
		};

		gen_values(rng, c, nm->n, value);
		for (t = 0; t < nthr; t++)
			ops[t] = 1000000 + gsl_rng_uniform_int(rng, 1000);
		if (store_run_plan(s, exp, cfg, (*seq)++, (int)rep, false, &run) ||
		    store_run_record(s, run, &r))
			return -1;
	}
	return 0;
}

static int cmd_gen(const char *path, size_t ncfg, size_t nruns, size_t nmet)
{
	struct store *s = NULL;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct names nm;
	int64_t exp;
	long seq = 0;
	size_t c;
	int ret = 1;

	names_init(&nm, nmet);
	gsl_rng_set(rng, 42);
	if (store_open(path, STORE_CREATE, &s) || experiment_new(s, "synthetic", &exp))
		goto out;
	/* One transaction for the whole file: generation is not measured. */
	if (store_begin(s))
		goto out;
	for (c = 0; c < ncfg; c++)
		if (gen_config(s, rng, exp, c, nruns, &nm, &seq))
			goto out;
	if (store_commit(s) || store_experiment_status(s, exp, "complete"))
		goto out;
	printf("samples %zu\n", ncfg * nruns * nmet);
	ret = 0;
out:
	if (ret && s)
		store_rollback(s);
	store_close(s);
	gsl_rng_free(rng);
	names_free(&nm);
	return ret;
}

/* ---- storage rate ---- */

struct rate_run {
	const struct names *nm;
	double *value;
	uint64_t *ops;
	size_t nthreads;
};

/* The baseline: the minimal statements for the same rows. */
struct raw {
	sqlite3 *db;
	sqlite3_stmt *begin, *update, *sample, *thread, *commit;
	char buf[2 + MAX_THREADS * 21 + 1];
};

/* "[n,n,...]" into buf (room for MAX_THREADS 20-digit counts). */
static const char *ops_json(const struct rate_run *rr, char *buf, size_t len)
{
	size_t i, k = 0;

	buf[k++] = '[';
	for (i = 0; i < rr->nthreads; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%" PRIu64,
				      i ? "," : "", rr->ops[i]);
	snprintf(buf + k, len - k, "]");
	return buf;
}

static int raw_prepare(struct raw *w, sqlite3 *db)
{
	w->db = db;
	return sqlite3_prepare_v2(db, "BEGIN IMMEDIATE", -1, &w->begin, NULL) |
	       sqlite3_prepare_v2(db, "UPDATE runs SET status = 'ok',"
				  " started_at = ?2, wall_s = ?3 WHERE id = ?1",
				  -1, &w->update, NULL) |
	       sqlite3_prepare_v2(db, "INSERT INTO samples (run_id, metric,"
				  " value) VALUES (?1, ?2, ?3)", -1,
				  &w->sample, NULL) |
	       sqlite3_prepare_v2(db, "INSERT INTO run_threads (run_id, ops)"
				  " VALUES (?1, ?2)", -1, &w->thread, NULL) |
	       sqlite3_prepare_v2(db, "COMMIT", -1, &w->commit, NULL);
}

static void raw_finalize(struct raw *w)
{
	sqlite3_finalize(w->begin);
	sqlite3_finalize(w->update);
	sqlite3_finalize(w->sample);
	sqlite3_finalize(w->thread);
	sqlite3_finalize(w->commit);
}

/* Steps a statement that returns no row; resets it for the next use. */
static int raw_step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int raw_record(struct raw *w, int64_t run, const struct rate_run *rr)
{
	size_t i;

	if (raw_step(w->begin))
		return -1;
	sqlite3_bind_int64(w->update, 1, run);
	sqlite3_bind_double(w->update, 2, 1.7e9);
	sqlite3_bind_double(w->update, 3, 1.0);
	if (raw_step(w->update))
		return -1;
	sqlite3_bind_int64(w->sample, 1, run);
	for (i = 0; i < rr->nm->n; i++) {
		sqlite3_bind_text(w->sample, 2, rr->nm->metric[i], -1,
				  SQLITE_STATIC);
		sqlite3_bind_double(w->sample, 3, rr->value[i]);
		if (raw_step(w->sample))
			return -1;
	}
	/* The schema's one row per run: the counts as a JSON array. */
	sqlite3_bind_int64(w->thread, 1, run);
	sqlite3_bind_text(w->thread, 2, ops_json(rr, w->buf, sizeof(w->buf)),
			  -1, SQLITE_STATIC);
	if (raw_step(w->thread))
		return -1;
	return raw_step(w->commit);
}

static int store_record(struct store *s, int64_t run, const struct rate_run *rr)
{
	struct run_record r = {
		.status = RUN_OK, .started_at = 1.7e9, .wall_s = 1.0,
		.env_pad = -1, .nsamples = rr->nm->n,
		.metric = (const char *const *)rr->nm->metric,
		.value = rr->value, .nthreads = rr->nthreads,
		.thread_ops = rr->ops,
	};

	return store_run_record(s, run, &r);
}

/* The plan of nruns runs of one configuration, in one transaction. */
static int rate_plan(struct store *s, size_t nruns, int64_t *runs)
{
	int64_t exp, cfg;
	size_t i;

	if (experiment_new(s, "storage-rate", &exp) || store_begin(s) ||
	    config_new(s, exp, 0, &cfg))
		return -1;
	for (i = 0; i < nruns; i++)
		if (store_run_plan(s, exp, cfg, (long)i, (int)i, false, &runs[i]))
			return -1;
	return store_commit(s);
}

static int rate_loop(struct store *s, bool raw_sql, const int64_t *runs,
		     size_t nruns, const struct rate_run *rr)
{
	struct raw w = { 0 };
	size_t i;
	int ret = -1;

	if (raw_sql && raw_prepare(&w, store_db(s)) != SQLITE_OK) {
		error("baseline: %s", sqlite3_errmsg(store_db(s)));
		goto out;
	}
	for (i = 0; i < nruns; i++)
		if (raw_sql ? raw_record(&w, runs[i], rr)
			    : store_record(s, runs[i], rr))
			goto out;
	ret = 0;
out:
	if (ret && raw_sql)
		error("baseline: %s", sqlite3_errmsg(store_db(s)));
	raw_finalize(&w);
	return ret;
}

static int cmd_rate(bool raw_sql, const char *path, size_t nruns,
		    size_t nmet, size_t nthr)
{
	struct store *s = NULL;
	struct names nm;
	int64_t *runs = xcalloc(nruns, sizeof(*runs));
	double value[MAX_METRICS] = { 0 }, t0, t;
	uint64_t ops[MAX_THREADS];
	struct rate_run rr = { &nm, value, ops, nthr };
	size_t i;
	int ret = 1;

	names_init(&nm, nmet);
	for (i = 0; i < nmet; i++)
		value[i] = 1000.5 + (double)i;
	for (i = 0; i < nthr; i++)
		ops[i] = 1000000 + i;
	/* The runner's page cache (RUNNER_CACHE_KIB in runner/start.c). */
	if (store_open(path, STORE_CREATE, &s) || store_cache_limit(s, 256) ||
	    rate_plan(s, nruns, runs))
		goto out;
	t0 = now_monotonic();
	if (rate_loop(s, raw_sql, runs, nruns, &rr))
		goto out;
	t = now_monotonic() - t0;
	printf("runs_per_s %.1f\n", (double)nruns / t);
	ret = 0;
out:
	store_close(s);
	free(runs);
	names_free(&nm);
	return ret;
}

static int cmd_load(const char *path, size_t rounds)
{
	struct store *s = NULL;
	struct dataset d;
	int64_t *ids = NULL;
	double best = 0, t;
	size_t i;
	int ret = 1;

	if (store_open(path, STORE_RDONLY, &s) ||
	    store_experiment_find(s, NULL, &ids) != 1)
		goto out;
	for (i = 0; i < rounds; i++) {
		t = now_monotonic();
		if (store_load(s, ids[0], &d))
			goto out;
		t = now_monotonic() - t;
		dataset_release(&d);
		if (i == 0 || t < best)
			best = t;
	}
	printf("load_s %.4f\n", best);
	ret = 0;
out:
	free(ids);
	store_close(s);
	return ret;
}

/* A count in [1, max] from argv, or 0 after printing why not. */
static size_t count_arg(const char *what, const char *text, long long max)
{
	long long v;

	if (parse_ll(text, &v) < 0 || v < 1 || v > max) {
		error("%s: '%s' is not a count in 1..%lld", what, text, max);
		return 0;
	}
	return (size_t)v;
}

static const char usage[] =
	"usage: storebench gen PATH NCONFIGS NRUNS NMETRICS\n"
	"       storebench rate store|sql PATH NRUNS NMETRICS NTHREADS\n"
	"       storebench load PATH ROUNDS\n";

int main(int argc, char **argv)
{
	size_t a, b, c;

	if (argc == 6 && !strcmp(argv[1], "gen")) {
		a = count_arg("NCONFIGS", argv[3], 1000000);
		b = count_arg("NRUNS", argv[4], 1000000);
		c = count_arg("NMETRICS", argv[5], MAX_METRICS);
		if (a && b && c)
			return cmd_gen(argv[2], a, b, c);
	} else if (argc == 7 && !strcmp(argv[1], "rate") &&
		   (!strcmp(argv[2], "store") || !strcmp(argv[2], "sql"))) {
		a = count_arg("NRUNS", argv[4], 10000000);
		b = count_arg("NMETRICS", argv[5], MAX_METRICS);
		c = count_arg("NTHREADS", argv[6], MAX_THREADS);
		if (a && b && c)
			return cmd_rate(!strcmp(argv[2], "sql"), argv[3], a, b, c);
	} else if (argc == 4 && !strcmp(argv[1], "load")) {
		a = count_arg("ROUNDS", argv[3], 1000);
		if (a)
			return cmd_load(argv[2], a);
	} else {
		fputs(usage, stderr);
	}
	return EXIT_USAGE;
}
