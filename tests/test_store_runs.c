/*
 * test_store_runs.c - the SQLite store, runs: schema upgrade, timelines and
 * profiles, resume and re-recording, rollback of a failed record, the
 * plan's integrity, reading while writing, the per-thread counts, and a
 * writer killed or out of space mid-record.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/store_helpers.h"

/* ---- cases ---- */

static void fixture_runs(struct store *s, int64_t id, int64_t *run)
{
	struct dataset d;
	size_t r;

	assert_int_equal(store_load(s, id, &d), 0);
	for (r = 0; r < d.nruns; r++)
		run[d.runs[r].seq] = d.runs[r].id;
	dataset_release(&d);
}

/* A database in memory holding the fixture: its id in *id, run ids in run. */
static struct store *fixture_in_memory(int64_t *id, int64_t *run)
{
	struct store *s;

	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	*id = fx_build(s, &plain);
	fixture_runs(s, *id, run);
	return s;
}

/*
 * A schema 1 database (as contend wrote before the timeline and profile
 * tables): read-only it is left as it is and has no timelines; opened to
 * write it is upgraded in place, its data kept.
 */
static void schema_1_upgraded(void **state)
{
	struct ctx *c = *state;
	struct run_timeline *t;
	struct store *s;
	size_t n;
	int64_t id = build_file(c->path, &plain);

	raw_exec(c->path, "DROP TABLE run_timeline; DROP TABLE config_profile;"
			  " PRAGMA user_version = 1");
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), 0);
	assert_int_equal(store_version(s), 1);
	load_and_check(s, id, &plain);
	assert_int_equal(store_load_timelines(s, id, 1, &t, &n), 0);
	assert_int_equal(n, 0);
	store_close(s);
	assert_int_equal(store_open(c->path, 0, &s), 0);
	assert_int_equal(store_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(store_db(s), "PRAGMA user_version"),
			 STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(store_db(s), "SELECT count(*) FROM sqlite_schema"
					      " WHERE name IN ('run_timeline',"
					      " 'config_profile')"), 2);
	load_and_check(s, id, &plain);
	store_close(s);
}

/* A run's timeline is stored with it, loaded by configuration, replaced. */
static void timeline_roundtrip(void **state)
{
	static const uint64_t tl[6] = { 5, 0, UINT64_MAX >> 1, 0, 6, 1 };
	struct run_record r = { 0 };
	struct run_timeline *t;
	struct store *s;
	struct dataset d;
	int64_t run[FX_NRUNS] = { 0 }, id, config;
	size_t n;

	(void)state;
	s = fixture_in_memory(&id, run);
	r.status = RUN_OK;
	r.env_pad = -1;
	r.tick_s = 0.01;
	r.tick_threads = 2;
	r.nticks = 3;
	r.timeline = tl;
	assert_int_equal(store_run_record(s, run[0], &r), 0);
	assert_int_equal(store_load(s, id, &d), 0);
	config = d.configs[fx_runs[0].config].id;
	dataset_release(&d);
	assert_int_equal(store_load_timelines(s, id, config, &t, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(t[0].run_id, run[0]);
	assert_int_equal(t[0].threads, 2);
	assert_int_equal(t[0].nticks, 3);
	assert_true(fx_same(t[0].interval_s, 0.01));
	assert_memory_equal(t[0].ops, tl, sizeof(tl));
	store_timelines_free(t, n);
	/* the other configuration has none */
	assert_int_equal(store_load_timelines(s, id, config == 1 ? 2 : 1, &t,
					      &n), 0);
	assert_int_equal(n, 0);
	/* recorded again without one: gone */
	r.nticks = 0;
	assert_int_equal(store_run_record(s, run[0], &r), 0);
	assert_int_equal(store_load_timelines(s, id, config, &t, &n), 0);
	assert_int_equal(n, 0);
	store_close(s);
}

/* An older experiment's profile = lock rows (written by contend before
 * schema 5, nothing writes them now) are read as they are, by rank. */
static void profile_roundtrip(void **state)
{
	struct profile_row *p;
	struct store *s;
	int64_t run[FX_NRUNS] = { 0 }, id;
	size_t n;

	(void)state;
	s = fixture_in_memory(&id, run);
	assert_int_equal(sqlite3_exec(store_db(s),
		"INSERT INTO config_profile VALUES"
		" (2, 2, 'osq_lock+0x4a', 'mutex', 12, 68e-6, 8e-6),"
		" (2, 1, 'do_futex+0x183', 'spinlock', 13502, 0.0535, 90.05e-6),"
		" (1, 1, 'osq_lock+0x4a', 'mutex', 12, 68e-6, 8e-6)",
		NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_load_profile(s, id, &p, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(p[0].config_id, 1);
	assert_string_equal(p[0].caller, "osq_lock+0x4a");
	assert_int_equal(p[1].config_id, 2);
	assert_string_equal(p[1].caller, "do_futex+0x183");
	assert_string_equal(p[1].lock_type, "spinlock");
	assert_int_equal(p[1].contended, 13502);
	assert_true(fx_same(p[1].wait_s, 0.0535));
	assert_string_equal(p[2].caller, "osq_lock+0x4a");
	store_profile_free(p, n);
	store_close(s);
}

static void pending_runs(void **state)
{
	struct store *s;
	struct pending_run *p;
	struct run_record r = { 0 };
	int64_t run[FX_NRUNS] = { 0 }, id;
	size_t n;

	(void)state;
	s = fixture_in_memory(&id, run);
	assert_int_equal(store_pending_runs(s, id, &p, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(p[0].run_id, run[5]);
	assert_int_equal(p[0].seq, 5);
	assert_int_equal(p[0].repetition, 1);
	assert_false(p[0].warmup);
	free(p);
	/* An interrupted run is pending again; order is by seq. */
	r.status = RUN_INTERRUPTED;
	r.env_pad = -1;
	assert_int_equal(store_run_record(s, run[1], &r), 0);
	assert_int_equal(store_pending_runs(s, id, &p, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(p[0].seq, 1);
	assert_true(p[0].warmup);
	assert_int_equal(p[1].seq, 5);
	free(p);
	store_close(s);
}

static void rerecord_replaces_samples(void **state)
{
	static const char *const metric[] = { "throughput", "user_s" };
	static const double value[] = { 42.5, 0.25 };
	static const uint64_t ops[] = { 7 };
	struct run_record r = { 0 };
	struct store *s;
	struct dataset d;
	int64_t run[FX_NRUNS] = { 0 }, id;
	size_t k;

	(void)state;
	s = fixture_in_memory(&id, run);
	r.status = RUN_OK;
	r.env_pad = -1;
	r.wall_s = 2;
	r.nsamples = 2;
	r.metric = metric;
	r.value = value;
	r.nthreads = 1;
	r.thread_ops = ops;
	/* Twice: the second must leave exactly the same state. */
	assert_int_equal(store_run_record(s, run[0], &r), 0);
	assert_int_equal(store_run_record(s, run[0], &r), 0);
	assert_int_equal(store_load(s, id, &d), 0);
	assert_int_equal(d.nmetrics, 4);
	for (k = 0; k < d.nruns && d.runs[k].seq != 0; k++)
		;
	assert_true(k < d.nruns);
	assert_true(isnan(dataset_value(&d, k, dataset_metric(&d, "elapsed_s"))));
	assert_true(isnan(dataset_value(&d, k, dataset_metric(&d, "handoffs"))));
	assert_true(fx_same(dataset_value(&d, k, dataset_metric(&d, "throughput")),
			    42.5));
	assert_true(fx_same(dataset_value(&d, k, dataset_metric(&d, "user_s")),
			    0.25));
	assert_int_equal(d.runs[k].nthreads, 1);
	assert_int_equal(d.thread_ops[d.runs[k].thread0], 7);
	assert_int_equal(raw_int(store_db(s), "SELECT count(*) FROM samples"
					      " WHERE metric = 'throughput'"), 4);
	dataset_release(&d);
	store_close(s);
}

/* A failed record (duplicate metric) leaves the run as it was. */
static void failed_record_rolls_back(void **state)
{
	static const char *const metric[] = { "throughput", "throughput" };
	static const double value[] = { 1, 2 };
	struct run_record r = { 0 };
	struct store *s;
	int64_t run[FX_NRUNS] = { 0 }, id;

	(void)state;
	s = fixture_in_memory(&id, run);
	r.status = RUN_OK;
	r.env_pad = -1;
	r.nsamples = 2;
	r.metric = metric;
	r.value = value;
	capture_start();
	assert_int_equal(store_run_record(s, run[0], &r), -1);
	assert_contains(capture_end(), "throughput");
	load_and_check(s, id, &plain);
	/* The connection is usable afterwards (no transaction left open). */
	assert_int_equal(sqlite3_get_autocommit(store_db(s)), 1);
	capture_start();
	assert_int_equal(store_run_record(s, 999999, &r), -1);
	assert_contains(capture_end(), "no run with id 999999");
	store_close(s);
}

static void nan_is_absent(void **state)
{
	static const char *const metric[] = { "a", "b", "c" };
	const double value[] = { 1.5, NAN, INFINITY };
	struct run_record r = { 0 };
	struct store *s;
	struct dataset d;
	int64_t cfg, run[2];
	struct experiment_row e = { 0 };
	char *kv[] = { (char *)"threads=1" };

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	e.name = (char *)"nan";
	assert_int_equal(store_experiment_create(s, &e), 0);
	assert_int_equal(store_config_add(s, e.id, 0, "noop", "n", "threads=1",
					  0.05, 0, 1, kv, &cfg), 0);
	assert_int_equal(store_run_plan(s, e.id, cfg, 0, 0, false, &run[0]), 0);
	assert_int_equal(store_run_plan(s, e.id, cfg, 1, 1, false, &run[1]), 0);
	r.status = RUN_OK;
	r.env_pad = -1;
	r.nsamples = 3;
	r.metric = metric;
	r.value = value;
	assert_int_equal(store_run_record(s, run[1], &r), 0);
	r.nsamples = 1;
	assert_int_equal(store_run_record(s, run[0], &r), 0);
	assert_int_equal(store_load(s, e.id, &d), 0);
	/* "b" was only ever NaN: never stored, so not a metric at all. */
	assert_int_equal(d.nmetrics, 2);
	assert_int_equal(dataset_metric(&d, "a"), 0);
	assert_int_equal(dataset_metric(&d, "b"), -1);
	assert_int_equal(dataset_metric(&d, "c"), 1);
	assert_true(isnan(dataset_value(&d, 0, 1)));      /* seq 0: no "c" */
	assert_true(isinf(dataset_value(&d, 1, 1)));
	assert_true(isnan(dataset_value(&d, 0, -1)));
	assert_true(isnan(dataset_value(&d, 5, 0)));
	assert_true(fx_same(dataset_value(&d, 0, 0), 1.5));
	dataset_release(&d);
	free(e.uuid);
	store_close(s);
}

/* A run's configuration must belong to the run's experiment. */
static void plan_integrity(void **state)
{
	struct experiment_row a = { 0 }, b = { 0 };
	struct store *s;
	int64_t cfg, run;
	char *bad[] = { (char *)"novalue" };

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	a.name = b.name = (char *)"p";
	assert_int_equal(store_experiment_create(s, &a), 0);
	assert_int_equal(store_experiment_create(s, &b), 0);
	assert_int_equal(store_config_add(s, a.id, 0, "noop", "x", "", 0.05, 0,
					  0, NULL, &cfg), 0);
	capture_start();
	assert_int_equal(store_run_plan(s, b.id, cfg, 0, 0, false, &run), -1);
	assert_contains(capture_end(), "FOREIGN KEY");
	capture_start();
	assert_int_equal(store_run_plan(s, a.id, cfg + 100, 0, 0, false, &run), -1);
	capture_end();
	assert_int_equal(store_run_plan(s, a.id, cfg, 0, 0, false, &run), 0);
	capture_start();
	assert_int_equal(store_run_plan(s, a.id, cfg, 0, 1, false, &run), -1);
	assert_contains(capture_end(), "UNIQUE");
	capture_start();
	assert_int_equal(store_config_add(s, a.id, 1, "noop", "x", "", 0.05, 0,
					  1, bad, &cfg), -1);
	assert_contains(capture_end(), "'novalue' is not key=value");
	/* The failed configuration left nothing behind. */
	assert_int_equal(raw_int(store_db(s), "SELECT count(*) FROM configs"), 1);
	free(a.uuid);
	free(b.uuid);
	store_close(s);
}

/*
 * Configurations come back in pos order whatever their ids, each with its
 * own parameters and runs: here pos runs against insertion (id) order.
 */
static void configs_out_of_id_order(void **state)
{
	static const int pos[] = { 2, 0, 1 };
	struct experiment_row e = { 0 };
	struct store *s;
	struct dataset d;
	int64_t cfg, run;
	char kv[3][16], *kvp[3];
	size_t i;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	e.name = (char *)"order";
	assert_int_equal(store_experiment_create(s, &e), 0);
	for (i = 0; i < 3; i++) {
		snprintf(kv[i], sizeof(kv[i]), "threads=%d", pos[i]);
		kvp[i] = kv[i];
		assert_int_equal(store_config_add(s, e.id, pos[i], "noop", kv[i],
						  kv[i], 0.05, 0, 1, &kvp[i], &cfg),
				 0);
		/* Config at pos p gets p + 1 runs, seq interleaved. */
		for (int k = 0; k <= pos[i]; k++)
			assert_int_equal(store_run_plan(s, e.id, cfg,
							10 * k + pos[i], k, false,
							&run), 0);
	}
	assert_int_equal(store_load(s, e.id, &d), 0);
	assert_int_equal(d.nconfigs, 3);
	assert_int_equal(d.nruns, 6);
	for (i = 0; i < 3; i++) {
		char want[16];
		size_t r;

		snprintf(want, sizeof(want), "threads=%zu", i);
		assert_string_equal(d.configs[i].section, want);
		assert_int_equal(d.configs[i].nparams, 1);
		assert_string_equal(d.configs[i].params[0].value, want + 8);
		assert_int_equal(d.configs[i].nruns, i + 1);
		for (r = 0; r < d.configs[i].nruns; r++) {
			const struct ds_run *dr = &d.runs[d.configs[i].run0 + r];

			assert_int_equal(dr->config, i);
			assert_int_equal(dr->seq, (long)(10 * r + i));
		}
	}
	dataset_release(&d);
	free(e.uuid);
	store_close(s);
}

/* Many configurations: each finds its runs (no quadratic lookup). */
static void many_configs(void **state)
{
	struct experiment_row e = { 0 };
	struct store *s;
	struct dataset d;
	int64_t cfg, run;
	size_t i, n = 20000;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	e.name = (char *)"many";
	assert_int_equal(store_experiment_create(s, &e), 0);
	assert_int_equal(store_begin(s), 0);
	for (i = 0; i < n; i++) {
		assert_int_equal(store_config_add(s, e.id, (int)i, "noop", "m", "",
						  0.05, 0, 0, NULL, &cfg), 0);
		if (i % 2)
			assert_int_equal(store_run_plan(s, e.id, cfg, (long)(n - i),
							0, false, &run), 0);
	}
	assert_int_equal(store_commit(s), 0);
	assert_int_equal(store_load(s, e.id, &d), 0);
	assert_int_equal(d.nconfigs, n);
	assert_int_equal(d.nruns, n / 2);
	for (i = 0; i < n; i++) {
		assert_int_equal(d.configs[i].nruns, i % 2);
		if (i % 2)
			assert_int_equal(d.runs[d.configs[i].run0].seq, (long)(n - i));
	}
	dataset_release(&d);
	free(e.uuid);
	store_close(s);
}

/* WAL: a reader loads a committed experiment while a writer is mid-plan. */
static void read_while_writing(void **state)
{
	struct ctx *c = *state;
	struct store *w, *r, *w2;
	struct dataset d;
	struct pending_run *p;
	int64_t id = build_file(c->path, &plain), cfg, run;
	size_t n;
	char *kv[] = { (char *)"threads=2" };

	assert_int_equal(store_open(c->path, 0, &w), 0);
	assert_int_equal(store_begin(w), 0);
	assert_int_equal(store_config_add(w, id, 7, "noop", "late", "threads=2",
					  0.05, 0, 1, kv, &cfg), 0);
	assert_int_equal(store_run_plan(w, id, cfg, 100, 0, false, &run), 0);
	assert_int_equal(store_open(c->path, STORE_RDONLY, &r), 0);
	load_and_check(r, id, &plain); /* the uncommitted rows are invisible */
	assert_int_equal(store_commit(w), 0);
	assert_int_equal(store_load(r, id, &d), 0);
	assert_int_equal(d.nconfigs, FX_NCONFIGS + 1);
	assert_int_equal(d.nruns, FX_NRUNS + 1);
	dataset_release(&d);
	/* A second writer on the same file takes turns with the first. */
	assert_int_equal(store_open(c->path, 0, &w2), 0);
	assert_int_equal(store_pending_runs(w2, id, &p, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(fx_record(w2, p[1].run_id, 0, &plain), 0);
	assert_int_equal(fx_record(w, p[0].run_id, 1, &plain), 0);
	free(p);
	assert_int_equal(store_pending_runs(r, id, &p, &n), 0);
	assert_int_equal(n, 0);
	free(p);
	store_close(w2);
	store_close(r);
	store_close(w);
}

/* thread_samples: the per-thread view of run_threads, for SQL users. */
static void thread_view(void **state)
{
	static const uint64_t ops[] = { 5, 0, 123456789012 };
	struct run_record r = { 0 };
	struct experiment_row e = { 0 };
	struct store *s;
	struct dataset d;
	int64_t cfg, run;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	e.name = (char *)"v";
	assert_int_equal(store_experiment_create(s, &e), 0);
	assert_int_equal(store_config_add(s, e.id, 0, "noop", "v", "", 0.05, 0,
					  0, NULL, &cfg), 0);
	assert_int_equal(store_run_plan(s, e.id, cfg, 0, 0, false, &run), 0);
	r.status = RUN_OK;
	r.env_pad = -1;
	r.nthreads = 3;
	r.thread_ops = ops;
	assert_int_equal(store_run_record(s, run, &r), 0);
	assert_int_equal(raw_int(store_db(s), "SELECT count(*) FROM thread_samples"),
			 3);
	assert_int_equal(raw_int(store_db(s), "SELECT ops FROM thread_samples"
					      " WHERE thread = 2"), 123456789012);
	assert_int_equal(raw_int(store_db(s), "SELECT sum(ops) FROM thread_samples"
					      " WHERE run_id = 1"), 123456789017);
	/*
	 * Rows inserted into the view (thread order) reach the loader.  They
	 * come from a tool's own connection, which trusts the file's schema
	 * (SQLite's default); contend's does not (docs/STORAGE.md, "The
	 * schema check"), and its JSON functions are not marked innocuous.
	 */
	assert_int_equal(store_run_plan(s, e.id, cfg, 1, 1, false, &run), 0);
	assert_int_equal(sqlite3_db_config(store_db(s),
					   SQLITE_DBCONFIG_TRUSTED_SCHEMA, 1,
					   NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(store_db(s),
				      "INSERT INTO thread_samples VALUES (2, 0, 11);"
				      "INSERT INTO thread_samples VALUES (2, 1, 12);"
				      "INSERT INTO thread_samples VALUES (2, 2, 13);",
				      NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(run, 2);
	assert_int_equal(store_load(s, e.id, &d), 0);
	assert_int_equal(d.runs[1].nthreads, 3);
	assert_int_equal(d.thread_ops[d.runs[1].thread0], 11);
	assert_int_equal(d.thread_ops[d.runs[1].thread0 + 2], 13);
	dataset_release(&d);
	free(e.uuid);
	store_close(s);
}

/* Damaged thread ops text is an error naming the run, not garbage. */
static void malformed_threads_refused(void **state)
{
	static const char *const bad[] = {
		"[1,2", "1,2]", "[1,,2]", "[1,-2]", "[18446744073709551616]",
		"[1] x", "[a]", "",
	};
	struct store *s;
	struct dataset d;
	int64_t id;
	size_t i;
	char sql[128];

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	id = fx_build(s, &plain);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(sql, sizeof(sql), "UPDATE run_threads SET ops = '%s'"
			 " WHERE run_id = (SELECT min(run_id) FROM run_threads)",
			 bad[i]);
		assert_int_equal(sqlite3_exec(store_db(s), sql, NULL, NULL, NULL),
				 SQLITE_OK);
		capture_start();
		assert_int_equal(store_load(s, id, &d), -1);
		assert_contains(capture_end(), "thread ops of run");
	}
	/* Blanks are fine: the text is JSON. */
	assert_int_equal(sqlite3_exec(store_db(s), "UPDATE run_threads SET ops ="
				      " ' [ 1 , 18446744073709551615 ] '"
				      " WHERE run_id = (SELECT min(run_id)"
				      " FROM run_threads)", NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(store_load(s, id, &d), 0);
	/* Fixture runs hold 4 + 1 + 1 + 4 threads; the first (seq 0) now 2. */
	assert_int_equal(d.nthread_ops, 8);
	assert_int_equal(d.runs[d.configs[1].run0].nthreads, 2);
	assert_true(d.thread_ops[d.runs[d.configs[1].run0].thread0 + 1] ==
		    UINT64_MAX);
	dataset_release(&d);
	store_close(s);
}

/* ---- faults: a writer killed or out of space mid-record ---- */

#define FAULT_RUNS 150
#define FAULT_METRICS 20
#define FAULT_THREADS 8

/* An experiment of FAULT_RUNS planned runs of one configuration. */
static int64_t fault_plan(const char *path)
{
	struct experiment_row e = { 0 };
	struct store *s;
	int64_t cfg, run;
	long i;

	assert_int_equal(store_open(path, STORE_CREATE, &s), 0);
	e.name = (char *)"fault";
	assert_int_equal(store_experiment_create(s, &e), 0);
	assert_int_equal(store_begin(s), 0);
	assert_int_equal(store_config_add(s, e.id, 0, "noop", "f", "", 0.05, 0,
					  0, NULL, &cfg), 0);
	for (i = 0; i < FAULT_RUNS; i++)
		assert_int_equal(store_run_plan(s, e.id, cfg, i, (int)i, false,
						&run), 0);
	assert_int_equal(store_commit(s), 0);
	free(e.uuid);
	store_close(s);
	return e.id;
}

/* Records every pending run; after each commit writes a byte to fd. */
static int fault_record_all(struct store *s, int64_t id, int fd)
{
	static char names[FAULT_METRICS][16];
	const char *metric[FAULT_METRICS];
	double value[FAULT_METRICS];
	uint64_t ops[FAULT_THREADS];
	struct run_record r = { 0 };
	struct pending_run *p;
	size_t n, i, m;
	int ret = 0;

	if (store_pending_runs(s, id, &p, &n))
		return -1;
	for (m = 0; m < FAULT_METRICS; m++) {
		snprintf(names[m], sizeof(names[m]), "metric_%02zu", m);
		metric[m] = names[m];
	}
	r.status = RUN_OK;
	r.env_pad = -1;
	r.nsamples = FAULT_METRICS;
	r.metric = metric;
	r.value = value;
	r.nthreads = FAULT_THREADS;
	r.thread_ops = ops;
	for (i = 0; i < n && !ret; i++) {
		for (m = 0; m < FAULT_METRICS; m++)
			value[m] = (double)p[i].seq + (double)m / 100;
		for (m = 0; m < FAULT_THREADS; m++)
			ops[m] = (uint64_t)p[i].seq * 100 + m;
		r.wall_s = (double)p[i].seq;
		ret = store_run_record(s, p[i].run_id, &r);
		if (!ret && fd >= 0 && write(fd, "x", 1) != 1)
			ret = -1;
	}
	free(p);
	return ret;
}

/*
 * The database is intact, and each run is all or nothing: recorded with
 * every sample and thread, or still planned with none.  Returns the
 * number recorded.  Read-only, as a report right after the crash would.
 */
static size_t fault_check(const char *path, int64_t id)
{
	struct store *s;
	struct dataset d;
	sqlite3_stmt *st;
	size_t r, m, ok = 0;

	assert_int_equal(store_open(path, STORE_RDONLY, &s), 0);
	assert_int_equal(sqlite3_prepare_v2(store_db(s), "PRAGMA integrity_check",
					    -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	assert_int_equal(store_load(s, id, &d), 0);
	assert_int_equal(d.nruns, FAULT_RUNS);
	for (r = 0; r < d.nruns; r++) {
		bool done = d.runs[r].status == RUN_OK;

		assert_int_equal(d.runs[r].seq, (long)r);
		assert_true(done || d.runs[r].status == RUN_PLANNED);
		assert_int_equal(d.runs[r].nthreads, done ? FAULT_THREADS : 0);
		for (m = 0; m < d.nmetrics; m++)
			assert_int_equal(isnan(dataset_value(&d, r, (int)m)), !done);
		if (done)
			assert_true(fx_same(dataset_value(&d, r, 0), (double)r));
		ok += done;
	}
	dataset_release(&d);
	store_close(s);
	return ok;
}

/* Resumes: records what is pending; afterwards every run is ok once. */
static void fault_resume(const char *path, int64_t id)
{
	struct store *s;

	assert_int_equal(store_open(path, 0, &s), 0);
	assert_int_equal(fault_record_all(s, id, -1), 0);
	store_close(s);
	assert_int_equal(fault_check(path, id), FAULT_RUNS);
}

/*
 * SIGKILL at 50 seeded random points of a writer recording runs: the
 * parent waits for k commits (a byte each on a pipe, no sleeping), then
 * kills the child wherever it is in run k + 1.
 */
static void killed_writer(void **state)
{
	struct ctx *c = *state;
	unsigned seed = 20240601;
	int trial;

	for (trial = 0; trial < 50; trial++) {
		int64_t id;
		size_t k = (size_t)rand_r(&seed) % FAULT_RUNS, got = 0;
		int fd[2], wstatus;
		pid_t pid;
		char byte;

		snprintf(c->path, sizeof(c->path), "%s/kill%d.db", c->dir, trial);
		id = fault_plan(c->path);
		assert_int_equal(pipe(fd), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct store *s;

			close(fd[0]);
			if (store_open(c->path, 0, &s) ||
			    fault_record_all(s, id, fd[1]))
				_exit(1);
			store_close(s);
			_exit(0);
		}
		close(fd[1]);
		while (got < k && read(fd[0], &byte, 1) == 1)
			got++;
		assert_int_equal(got, k);
		kill(pid, SIGKILL);
		assert_int_equal(waitpid(pid, &wstatus, 0), pid);
		close(fd[0]);
		assert_true(fault_check(c->path, id) >= k);
		fault_resume(c->path, id);
	}
}

/*
 * A file size limit reached mid-record (as a full disk): a clear error,
 * the database intact, and the experiment resumable once space is back.
 */
static void file_size_limit(void **state)
{
	struct ctx *c = *state;
	char errpath[160], *err;
	int64_t id = fault_plan(c->path);
	struct stat sb;
	size_t n, ok;
	int wstatus;
	pid_t pid;

	snprintf(errpath, sizeof(errpath), "%s/child.err", c->dir);
	assert_int_equal(stat(c->path, &sb), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit lim = { (rlim_t)sb.st_size + (rlim_t)64 * 1024,
				      (rlim_t)sb.st_size + (rlim_t)64 * 1024 };
		struct store *s;
		int efd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (efd < 0 || dup2(efd, 2) < 0)
			_exit(3);
		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &lim) || store_open(c->path, 0, &s))
			_exit(3);
		/* Must fail: 150 runs need far more than 64 KiB of WAL. */
		_exit(fault_record_all(s, id, -1) ? 0 : 2);
	}
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 0);
	err = slurp(errpath, &n);
	/*
	 * SQLite reports a short write as "database or disk is full" and a
	 * failed one (EFBIG) as "disk I/O error"; which comes first depends
	 * on where the limit cuts a WAL frame.
	 */
	assert_contains(err, c->path);
	if (!strstr(err, "disk I/O error") && !strstr(err, "disk is full"))
		fail_msg("no I/O error reported: '%s'", err);
	free(err);
	ok = fault_check(c->path, id);
	assert_true(ok > 0 && ok < FAULT_RUNS);
	fault_resume(c->path, id);
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pending_runs),
		cmocka_unit_test_setup_teardown(schema_1_upgraded, setup,
						tmpdir_teardown),
		cmocka_unit_test(timeline_roundtrip),
		cmocka_unit_test(profile_roundtrip),
		cmocka_unit_test(rerecord_replaces_samples),
		cmocka_unit_test(failed_record_rolls_back),
		cmocka_unit_test(nan_is_absent),
		cmocka_unit_test(plan_integrity),
		cmocka_unit_test(configs_out_of_id_order),
		cmocka_unit_test(many_configs),
		cmocka_unit_test_setup_teardown(read_while_writing, setup,
						tmpdir_teardown),
		cmocka_unit_test(thread_view),
		cmocka_unit_test(malformed_threads_refused),
		cmocka_unit_test_setup_teardown(killed_writer, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(file_size_limit, setup,
						tmpdir_teardown),
	};

	return cmocka_run_group_tests_name("store runs", tests, NULL, NULL);
}
