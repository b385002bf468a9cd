/*
 * store_write.c - the runner's writes: the plan (configurations, their
 * parameters, planned runs), the record of a finished run in one
 * transaction, and a configuration's kernel lock profile.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "db/store_impl.h"
#include "lib/util.h"

/* ---- the plan ---- */

static int params_insert(struct store *s, int64_t config, size_t nkv,
			 char *const *kv)
{
	sqlite3_stmt *st = stmt_get(s, ST_PARAM_INSERT);
	size_t i;

	if (!st)
		return -1;
	for (i = 0; i < nkv; i++) {
		const char *eq = strchr(kv[i], '=');
		int bound;

		if (!eq)
			return error("parameter '%s' is not key=value", kv[i]);
		bound = sqlite3_bind_int64(st, PARAMS_config_id, config) |
			sqlite3_bind_int64(st, PARAMS_pos, (sqlite3_int64)i) |
			sqlite3_bind_text(st, PARAMS_key, kv[i],
					  (int)(eq - kv[i]), SQLITE_STATIC) |
			sqlite3_bind_text(st, PARAMS_value, eq + 1, -1,
					  SQLITE_STATIC);
		if (stmt_write(s, st, bound, "cannot bind parameter",
			       "cannot store parameter"))
			return -1;
	}
	return 0;
}

static int config_insert(struct store *s, int64_t experiment, int pos,
			 const char *workload, const char *section,
			 const char *canon, double noise, double timeout_s,
			 int64_t *id)
{
	sqlite3_stmt *st = stmt_get(s, ST_CONFIG_INSERT);
	int bound;

	if (!st)
		return -1;
	bound = sqlite3_bind_int64(st, CONFIGS_experiment_id, experiment) |
		sqlite3_bind_int(st, CONFIGS_pos, pos) |
		bind_str(st, CONFIGS_workload, workload) |
		bind_str(st, CONFIGS_section, section) |
		bind_str(st, CONFIGS_canon, canon) |
		sqlite3_bind_double(st, CONFIGS_noise, noise) |
		sqlite3_bind_double(st, CONFIGS_timeout_s, timeout_s);
	if (stmt_write(s, st, bound, "cannot bind configuration",
		       "cannot store configuration"))
		return -1;
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_config_add(struct store *s, int64_t experiment, int pos,
		     const char *workload, const char *section,
		     const char *canon, double noise, double timeout_s,
		     size_t nkv, char *const *kv, int64_t *id)
{
	bool outer;
	int ret;

	if (txn_begin(s, &outer))
		return -1;
	ret = config_insert(s, experiment, pos, workload, section, canon, noise,
			    timeout_s, id);
	if (!ret)
		ret = params_insert(s, *id, nkv, kv);
	return txn_end(s, outer, ret);
}

int store_run_plan(struct store *s, int64_t experiment, int64_t config,
		   long seq, int repetition, bool warmup, int64_t *id)
{
	sqlite3_stmt *st = stmt_get(s, ST_RUN_INSERT);
	int bound;

	if (!st)
		return -1;
	/* the results stay NULL until store_run_record */
	bound = sqlite3_bind_int64(st, RUNS_experiment_id, experiment) |
		sqlite3_bind_int64(st, RUNS_config_id, config) |
		sqlite3_bind_int64(st, RUNS_seq, seq) |
		sqlite3_bind_int(st, RUNS_repetition, repetition) |
		sqlite3_bind_int(st, RUNS_warmup, warmup ? 1 : 0) |
		sqlite3_bind_text(st, RUNS_status,
				  run_status_names[RUN_PLANNED], -1,
				  SQLITE_STATIC);
	if (stmt_write(s, st, bound, "cannot bind run", "cannot plan run"))
		return -1;
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

/* ---- recording a run ---- */

static int run_update(struct store *s, int64_t run, const struct run_record *r)
{
	sqlite3_stmt *st;
	int bound;

	if ((unsigned)r->status >= RUN_NSTATUS)
		return error("run %" PRId64 ": invalid status %d", run,
			     (int)r->status);
	st = stmt_get(s, ST_RUN_UPDATE);
	if (!st)
		return -1;
	bound = sqlite3_bind_int64(st, 1, run) |
		sqlite3_bind_text(st, 2, run_status_names[r->status], -1,
				  SQLITE_STATIC) |
		(r->error ? sqlite3_bind_text(st, 3, r->error, -1, SQLITE_STATIC)
			  : SQLITE_OK) |
		(r->started_at > 0 ? sqlite3_bind_double(st, 4, r->started_at)
				   : SQLITE_OK) |
		sqlite3_bind_double(st, 5, r->wall_s) |
		(r->env_pad >= 0 ? sqlite3_bind_int64(st, 6, r->env_pad)
				 : SQLITE_OK);
	if (stmt_write(s, st, bound, "cannot bind run", "cannot record run"))
		return -1;
	if (sqlite3_changes(s->db) != 1)
		return error("%s: no run with id %" PRId64, s->path, run);
	return 0;
}

/* Deletes what an earlier attempt recorded, so re-recording is idempotent. */
static int run_clear(struct store *s, int64_t run)
{
	static const enum stmt_id del[] = { ST_SAMPLES_DELETE, ST_THREADS_DELETE,
					    ST_TIMELINE_DELETE, ST_KLOCK_DELETE };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(del); i++) {
		sqlite3_stmt *st = stmt_get(s, del[i]);

		if (!st || stmt_write(s, st, sqlite3_bind_int64(st, 1, run),
				      "cannot bind run", "cannot clear run"))
			return -1;
	}
	return 0;
}

static int samples_insert(struct store *s, int64_t run,
			  const struct run_record *r)
{
	sqlite3_stmt *st = stmt_get(s, ST_SAMPLE_INSERT);
	size_t i;
	int ret = -1;

	if (!st)
		return -1;
	/* The run id stays bound across resets; only metric and value vary. */
	if (sqlite3_bind_int64(st, SAMPLES_run_id, run) != SQLITE_OK)
		goto out;
	for (i = 0; i < r->nsamples; i++) {
		if (isnan(r->value[i]))
			continue; /* absent: SQLite would store NULL */
		if (!r->metric[i]) {
			error("run %" PRId64 ": sample %zu has no metric name",
			      run, i);
			goto out;
		}
		if (sqlite3_bind_text(st, SAMPLES_metric, r->metric[i], -1,
				      SQLITE_STATIC) |
		    sqlite3_bind_double(st, SAMPLES_value, r->value[i])) {
			db_fail(s, "cannot bind sample");
			goto out;
		}
		if (sqlite3_step(st) != SQLITE_DONE) {
			error("%s: run %" PRId64 ": cannot store metric '%s': %s",
			      s->path, run, r->metric[i], sqlite3_errmsg(s->db));
			goto out;
		}
		sqlite3_reset(st);
	}
	ret = 0;
out:
	stmt_done(st);
	return ret;
}

/* Writes v in decimal at p; returns the end. */
static int threads_insert(struct store *s, int64_t run,
			  const struct run_record *r)
{
	sqlite3_stmt *st;
	int bound;

	if (!r->nthreads)
		return 0;
	st = stmt_get(s, ST_THREAD_INSERT);
	if (!st)
		return -1;
	bound = sqlite3_bind_int64(st, THREADS_run_id, run) |
		sqlite3_bind_text(st, THREADS_ops,
				  thread_ops_format(s, r->nthreads,
						    r->thread_ops),
				  -1, SQLITE_STATIC);
	return stmt_write(s, st, bound, "cannot bind thread ops",
			  "cannot store thread ops");
}

static int timeline_insert(struct store *s, int64_t run,
			   const struct run_record *r)
{
	sqlite3_stmt *st;
	int bound;

	if (!r->nticks || !r->tick_threads)
		return 0;
	st = stmt_get(s, ST_TIMELINE_INSERT);
	if (!st)
		return -1;
	bound = sqlite3_bind_int64(st, TIMELINE_run_id, run) |
		sqlite3_bind_double(st, TIMELINE_interval_s, r->tick_s) |
		sqlite3_bind_int64(st, TIMELINE_threads,
				   (sqlite3_int64)r->tick_threads) |
		sqlite3_bind_text(st, TIMELINE_ops,
				  thread_ops_format(s, r->tick_threads *
							       r->nticks,
						    r->timeline),
				  -1, SQLITE_STATIC);
	return stmt_write(s, st, bound, "cannot bind the timeline",
			  "cannot store the timeline");
}

/* The run's top kernel locks, rank 1 the most waited on. */
static int klock_insert(struct store *s, int64_t run,
			const struct run_record *r)
{
	size_t i;

	for (i = 0; i < r->nklock; i++) {
		const struct run_klock *k = &r->klock[i];
		sqlite3_stmt *st = stmt_get(s, ST_KLOCK_INSERT);
		int bound;

		if (!st)
			return -1;
		bound = sqlite3_bind_int64(st, KLOCK_run_id, run) |
			sqlite3_bind_int64(st, KLOCK_rank,
					   (sqlite3_int64)i + 1) |
			sqlite3_bind_text(st, KLOCK_kind, k->kind, -1,
					  SQLITE_STATIC) |
			sqlite3_bind_text(st, KLOCK_caller, k->caller, -1,
					  SQLITE_STATIC) |
			(k->lock ? sqlite3_bind_text(st, KLOCK_lock, k->lock,
						     -1, SQLITE_STATIC)
				 : sqlite3_bind_null(st, KLOCK_lock)) |
			sqlite3_bind_int64(st, KLOCK_nlocks, k->nlocks) |
			sqlite3_bind_int64(st, KLOCK_contentions,
					   (sqlite3_int64)k->contentions) |
			sqlite3_bind_double(st, KLOCK_wait_s, k->wait_s);
		if (stmt_write(s, st, bound, "cannot bind a kernel lock",
			       "cannot store a kernel lock"))
			return -1;
	}
	return 0;
}

int store_run_record(struct store *s, int64_t run, const struct run_record *r)
{
	bool outer;
	int ret;

	if (txn_begin(s, &outer))
		return -1;
	ret = run_update(s, run, r);
	if (!ret)
		ret = run_clear(s, run);
	if (!ret)
		ret = samples_insert(s, run, r);
	if (!ret)
		ret = threads_insert(s, run, r);
	if (!ret)
		ret = timeline_insert(s, run, r);
	if (!ret)
		ret = klock_insert(s, run, r);
	return txn_end(s, outer, ret);
}
