/*
 * store_stmt.c - the SQL of the store: the columns of every table (written
 * once), the statements a store prepares, and the helpers that run them and
 * its transactions.
 *
 * Every statement is prepared once per connection (lazily, from one table)
 * with bound parameters, reset after each use and finalized by store_close.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store_impl.h"
#include "lib/util.h"

#define COL_ROW(t, c, k) { #c, COL_##k },
static const struct store_column experiments_cols[] = {
	EXPERIMENTS_COLUMNS(COL_ROW)
};
static const struct store_column meta_cols[] = { META_COLUMNS(COL_ROW) };
static const struct store_column configs_cols[] = { CONFIGS_COLUMNS(COL_ROW) };
static const struct store_column params_cols[] = { PARAMS_COLUMNS(COL_ROW) };
static const struct store_column runs_cols[] = { RUNS_COLUMNS(COL_ROW) };
static const struct store_column samples_cols[] = { SAMPLES_COLUMNS(COL_ROW) };
static const struct store_column threads_cols[] = { THREADS_COLUMNS(COL_ROW) };
static const struct store_column timeline_cols[] = {
	TIMELINE_COLUMNS(COL_ROW)
};
static const struct store_column profile_cols[] = { PROFILE_COLUMNS(COL_ROW) };
static const struct store_column klock_cols[] = { KLOCK_COLUMNS(COL_ROW) };
#undef COL_ROW

#define TABLE(n, c, v, o) { n, c, ARRAY_SIZE(c), v, o }

const struct store_table store_tables[T_COUNT] = {
	[T_EXPERIMENTS] = TABLE("experiments", experiments_cols, 1, NULL),
	[T_META] = TABLE("experiment_meta", meta_cols, 1, "rowid"),
	[T_CONFIGS] = TABLE("configs", configs_cols, 1, "id"),
	[T_PARAMS] = TABLE("config_params", params_cols, 1, NULL),
	[T_RUNS] = TABLE("runs", runs_cols, 1, "id"),
	[T_SAMPLES] = TABLE("samples", samples_cols, 1, NULL),
	[T_THREADS] = TABLE("run_threads", threads_cols, 1, NULL),
	[T_TIMELINE] = TABLE("run_timeline", timeline_cols, 2, NULL),
	[T_PROFILE] = TABLE("config_profile", profile_cols, 2, NULL),
	[T_KLOCK] = TABLE("run_klock", klock_cols, 3, NULL),
};

/*
 * A statement: sql as it is, or, with a table, the INSERT of a whole row
 * (?1..?n in the table's column order) or the SELECT of a whole row, sql
 * then being what follows.
 */
enum stmt_kind { SQL_AS_IS, SQL_INSERT, SQL_SELECT };

struct stmt_def {
	enum stmt_kind kind;
	enum table_id table;
	const char *sql;
};

#define AS_IS(s) { SQL_AS_IS, T_NONE, s }
#define INSERT(t, s) { SQL_INSERT, t, s }

static const struct stmt_def stmt_defs[ST_COUNT] = {
	[ST_BEGIN] = AS_IS("BEGIN IMMEDIATE"),
	[ST_BEGIN_READ] = AS_IS("BEGIN"),
	[ST_COMMIT] = AS_IS("COMMIT"),
	[ST_ROLLBACK] = AS_IS("ROLLBACK"),
	[ST_SAVEPOINT] = AS_IS("SAVEPOINT store"),
	[ST_RELEASE] = AS_IS("RELEASE store"),
	[ST_ROLLBACK_TO] = AS_IS("ROLLBACK TO store"),
	[ST_EXP_INSERT] = INSERT(T_EXPERIMENTS, ""),
	[ST_META_INSERT] = INSERT(T_META, ""),
	[ST_EXP_STATUS] = AS_IS(
		"UPDATE experiments SET status = ?2, finished_at = ?3"
		" WHERE id = ?1"),
	[ST_EXP_GET] = { SQL_SELECT, T_EXPERIMENTS, " WHERE id = ?1" },
	[ST_META_GET] = AS_IS(
		"SELECT key, value FROM experiment_meta WHERE experiment_id = ?1"
		" ORDER BY rowid"),
	[ST_META_ONE] = AS_IS(
		"SELECT value FROM experiment_meta WHERE experiment_id = ?1"
		" AND key = ?2"),
	/* An upsert, not INSERT OR REPLACE: the row keeps its rowid (order). */
	[ST_META_PUT] = INSERT(T_META,
		" ON CONFLICT (experiment_id, key)"
		" DO UPDATE SET value = excluded.value"),
	[ST_META_DELETE] = AS_IS(
		"DELETE FROM experiment_meta WHERE experiment_id = ?1 AND key = ?2"),
	[ST_FIND_NEWEST] = AS_IS(
		"SELECT id FROM experiments ORDER BY created_at DESC, id DESC"
		" LIMIT 1"),
	[ST_FIND_ID] = AS_IS("SELECT id FROM experiments WHERE id = ?1"),
	[ST_FIND_UUID] = AS_IS(
		"SELECT id FROM experiments WHERE uuid = lower(?1)"),
	[ST_FIND_NAME] = AS_IS(
		"SELECT id FROM experiments WHERE name = ?1"
		" ORDER BY created_at, id"),
	[ST_FIND_LABEL] = AS_IS(
		"SELECT id FROM experiments WHERE label = ?1"
		" ORDER BY created_at, id"),
	[ST_EXP_ALL] = AS_IS(
		"SELECT id FROM experiments ORDER BY created_at, id"),
	[ST_CONFIG_INSERT] = INSERT(T_CONFIGS, ""),
	[ST_PARAM_INSERT] = INSERT(T_PARAMS, ""),
	[ST_RUN_INSERT] = INSERT(T_RUNS, ""),
	[ST_RUN_UPDATE] = AS_IS(
		"UPDATE runs SET status = ?2, error = ?3, started_at = ?4,"
		" wall_s = ?5, env_pad = ?6 WHERE id = ?1"),
	[ST_SAMPLES_DELETE] = AS_IS("DELETE FROM samples WHERE run_id = ?1"),
	[ST_THREADS_DELETE] = AS_IS("DELETE FROM run_threads WHERE run_id = ?1"),
	[ST_SAMPLE_INSERT] = INSERT(T_SAMPLES, ""),
	[ST_THREAD_INSERT] = INSERT(T_THREADS, ""),
	[ST_PENDING] = AS_IS(
		"SELECT id, config_id, seq, repetition, warmup FROM runs"
		" WHERE experiment_id = ?1 AND status IN ('planned', 'interrupted')"
		" ORDER BY seq"),
	[ST_LOAD_CONFIGS] = AS_IS(
		"SELECT id, workload, section, canon, noise FROM configs"
		" WHERE experiment_id = ?1 ORDER BY pos"),
	[ST_LOAD_PARAMS] = AS_IS(
		"SELECT p.config_id, p.key, p.value FROM configs c"
		" JOIN config_params p ON p.config_id = c.id"
		" WHERE c.experiment_id = ?1 ORDER BY c.pos, p.pos"),
	/*
	 * CROSS JOIN fixes the loop order: configurations by (experiment,
	 * pos), then each one's runs by runs_by_config (config, seq), so
	 * the rows come sorted.  Left to itself SQLite scanned runs first
	 * and sorted them all in a temporary b-tree (a tenth of the
	 * report's time at a million samples).  A run's configuration
	 * belongs to its experiment (composite foreign key), so no run is
	 * lost by filtering on the configuration's experiment.
	 */
	[ST_LOAD_RUNS] = AS_IS(
		"SELECT r.id, r.config_id, r.seq, r.repetition, r.warmup,"
		" r.status, r.error, r.started_at, r.wall_s FROM configs c"
		" CROSS JOIN runs r ON r.config_id = c.id"
		" WHERE c.experiment_id = ?1 ORDER BY c.pos, r.seq"),
	/*
	 * Both orders below are delivered by the indexes (runs by
	 * (experiment_id, seq), then the child's primary key), so SQLite
	 * sorts nothing; the loader relies on rows in seq order, a run's
	 * samples together.
	 */
	[ST_LOAD_SAMPLES] = AS_IS(
		"SELECT s.run_id, s.metric, s.value FROM runs r"
		" JOIN samples s ON s.run_id = r.id"
		" WHERE r.experiment_id = ?1 ORDER BY r.seq, s.metric"),
	[ST_LOAD_THREADS] = AS_IS(
		"SELECT t.run_id, t.ops FROM runs r"
		" JOIN run_threads t ON t.run_id = r.id"
		" WHERE r.experiment_id = ?1 ORDER BY r.seq"),
	[ST_TIMELINE_DELETE] = AS_IS(
		"DELETE FROM run_timeline WHERE run_id = ?1"),
	[ST_TIMELINE_INSERT] = INSERT(T_TIMELINE, ""),
	/* one row per count, in run then array order */
	[ST_LOAD_TIMELINES] = AS_IS(
		"SELECT t.run_id, t.interval_s, t.threads, j.value"
		" FROM run_timeline t, json_each(t.ops) j"
		" WHERE t.run_id IN (SELECT id FROM runs WHERE experiment_id = ?1"
		"                    AND config_id = ?2)"
		" ORDER BY t.run_id, j.key"),
	[ST_LOAD_PROFILE] = AS_IS(
		"SELECT p.config_id, p.caller, p.lock_type, p.contended, p.wait_s,"
		" p.max_wait_s FROM configs c"
		" JOIN config_profile p ON p.config_id = c.id"
		" WHERE c.experiment_id = ?1 ORDER BY p.config_id, p.rank"),
	[ST_KLOCK_DELETE] = AS_IS("DELETE FROM run_klock WHERE run_id = ?1"),
	[ST_KLOCK_INSERT] = INSERT(T_KLOCK, ""),
	/* in run (seq) order, a run's rows by rank */
	[ST_LOAD_KLOCK] = AS_IS(
		"SELECT k.run_id, k.kind, k.caller, k.lock, k.nlocks,"
		" k.contentions, k.wait_s FROM runs r"
		" JOIN run_klock k ON k.run_id = r.id"
		" WHERE r.experiment_id = ?1 ORDER BY r.seq, k.rank"),
	/* store_rows.c's stage, in a store of rows only */
	[ST_ROWS_ADD] = AS_IS("INSERT INTO stage VALUES (?1, ?2, ?3, ?4, ?5,"
			      " ?6, ?7, ?8, ?9, ?10, ?11, ?12)"),
};

/* What a failure of the statements run by stmt_exec means to the user. */
static const char *const stmt_what[ST_COUNT] = {
	[ST_BEGIN] = "cannot start a write transaction",
	[ST_BEGIN_READ] = "cannot start a read transaction",
	[ST_COMMIT] = "cannot commit",
	[ST_ROLLBACK] = "cannot roll back",
	[ST_SAVEPOINT] = "cannot start a write",
	[ST_RELEASE] = "cannot complete a write",
	[ST_ROLLBACK_TO] = "cannot undo a write",
};

/* "a, b, c": the names of t's columns, each with prefix before it. */
static char *table_columns(const struct store_table *t, const char *prefix)
{
	size_t len = 1, i;
	char *out, *p;

	for (i = 0; i < t->ncols; i++)
		len += strlen(prefix) + strlen(t->cols[i].name) + 2;
	out = p = xmalloc(len);
	*p = '\0';
	for (i = 0; i < t->ncols; i++)
		p += sprintf(p, "%s%s%s", i ? ", " : "", prefix, t->cols[i].name);
	return out;
}

/* The text of statement id, malloc'd. */
static char *stmt_text(enum stmt_id id)
{
	const struct stmt_def *d = &stmt_defs[id];
	const struct store_table *t = &store_tables[d->table];
	char *cols, *params, *p, *sql;
	size_t i;

	if (d->kind == SQL_AS_IS)
		return xstrdup(d->sql);
	cols = table_columns(t, "");
	if (d->kind == SQL_SELECT) {
		sql = xasprintf("SELECT %s FROM %s%s", cols, t->name, d->sql);
		free(cols);
		return sql;
	}
	p = params = xmalloc(t->ncols * 6 + 1);
	for (i = 0; i < t->ncols; i++)
		p += sprintf(p, "%s?%zu", i ? ", " : "", i + 1);
	sql = xasprintf("INSERT INTO %s (%s) VALUES (%s)%s", t->name, cols,
			params, d->sql);
	free(cols);
	free(params);
	return sql;
}

/* ---- running statements ---- */

/*
 * "PATH: what: SQLite's reason", and who holds the lock when the busy
 * timeout ran out.  (sqlite3_system_errno() is not added: it returns the
 * errno of the process's last call, often a harmless earlier ENOENT.)
 */
int db_fail(struct store *s, const char *what)
{
	int ext = sqlite3_extended_errcode(s->db);

	if ((ext & 0xff) == SQLITE_BUSY)
		return error("%s: %s: %s (another process kept it locked for "
			     "more than %d s)", s->path, what,
			     sqlite3_errmsg(s->db), STORE_BUSY_MS / 1000);
	/*
	 * A failed write of the file: SQLite says only "disk I/O error"
	 * and keeps no errno for it (EFBIG past RLIMIT_FSIZE, EIO), so name
	 * the likely causes (tests/faults/diskfull.sh).  ENOSPC is already
	 * "database or disk is full".
	 */
	if (ext == SQLITE_IOERR_WRITE || ext == SQLITE_IOERR_TRUNCATE)
		return error("%s: %s: %s (is the disk full, or a file size "
			     "limit reached?)", s->path, what,
			     sqlite3_errmsg(s->db));
	return error("%s: %s: %s%s", s->path, what, sqlite3_errmsg(s->db),
		     (ext & 0xff) == SQLITE_CANTOPEN ? fd_shortage() : "");
}

sqlite3_stmt *stmt_get(struct store *s, enum stmt_id id)
{
	char *sql;
	int rc;

	if (s->stmt[id])
		return s->stmt[id];
	sql = stmt_text(id);
	rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
				&s->stmt[id], NULL);
	free(sql);
	if (rc != SQLITE_OK) {
		db_fail(s, "cannot prepare statement");
		return NULL;
	}
	return s->stmt[id];
}

int store_migrate_rows(struct store *s, const char *const *sql, size_t n,
		       int64_t experiment, const char *what,
		       int (*row)(struct store *s, sqlite3_stmt **st))
{
	sqlite3_stmt *st[4] = { NULL };
	char msg[128];
	size_t i;
	int rc = SQLITE_OK, ret = -1;

	for (i = 0; i < n && i < ARRAY_SIZE(st) && rc == SQLITE_OK; i++)
		rc = sqlite3_prepare_v2(s->db, sql[i], -1, &st[i], NULL);
	if (rc != SQLITE_OK || n > ARRAY_SIZE(st)) {
		snprintf(msg, sizeof(msg), "cannot prepare the migration of %s",
			 what);
		db_fail(s, msg);
		goto out;
	}
	sqlite3_bind_int64(st[0], 1, experiment);
	while ((rc = sqlite3_step(st[0])) == SQLITE_ROW)
		if (row(s, st) < 0)
			goto out;
	snprintf(msg, sizeof(msg), "cannot read %s", what);
	ret = rc == SQLITE_DONE ? 0 : db_fail(s, msg);
out:
	for (i = 0; i < ARRAY_SIZE(st); i++)
		sqlite3_finalize(st[i]);
	return ret;
}

void stmt_done(sqlite3_stmt *st)
{
	if (st) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	}
}

int stmt_exec(struct store *s, enum stmt_id id)
{
	sqlite3_stmt *st = stmt_get(s, id);
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		db_fail(s, stmt_what[id] ? stmt_what[id] : stmt_defs[id].sql);
	stmt_done(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

int step_done(struct store *s, sqlite3_stmt *st, const char *what)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		return db_fail(s, what);
	return 0;
}

int stmt_write(struct store *s, sqlite3_stmt *st, int bound,
	       const char *bind_what, const char *step_what)
{
	int ret;

	ret = bound != SQLITE_OK ? db_fail(s, bind_what)
				 : step_done(s, st, step_what);
	stmt_done(st);
	return ret;
}

/* Runs a cached statement whose failure does not matter (a rollback). */
static void stmt_quiet(struct store *s, enum stmt_id id)
{
	if (stmt_get(s, id))
		sqlite3_step(s->stmt[id]);
	stmt_done(s->stmt[id]);
}

sqlite3_stmt *query_start(struct store *s, enum stmt_id id, int64_t key)
{
	sqlite3_stmt *st = stmt_get(s, id);

	if (st && sqlite3_bind_int64(st, 1, key) != SQLITE_OK) {
		db_fail(s, "cannot bind a query");
		stmt_done(st);
		return NULL;
	}
	return st;
}

int query_end(struct store *s, sqlite3_stmt *st, int rc, const char *what)
{
	int ret = 0;

	if (rc == SQLITE_ROW)
		ret = -1;
	else if (rc != SQLITE_DONE)
		ret = db_fail(s, what);
	stmt_done(st);
	return ret;
}

int bind_str(sqlite3_stmt *st, int i, const char *v)
{
	return sqlite3_bind_text(st, i, v ? v : "", -1, SQLITE_STATIC);
}

char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return xstrdup(t ? (const char *)t : "");
}

int txn_begin(struct store *s, bool *outer)
{
	*outer = sqlite3_get_autocommit(s->db) != 0;
	return stmt_exec(s, *outer ? ST_BEGIN : ST_SAVEPOINT);
}

int txn_end(struct store *s, bool outer, int ret)
{
	if (!ret && !stmt_exec(s, outer ? ST_COMMIT : ST_RELEASE))
		return 0;
	/* After some errors SQLite has already rolled back: ignore failures. */
	if (outer) {
		if (!sqlite3_get_autocommit(s->db))
			stmt_quiet(s, ST_ROLLBACK);
	} else if (!sqlite3_get_autocommit(s->db)) {
		stmt_quiet(s, ST_ROLLBACK_TO);
		stmt_quiet(s, ST_RELEASE);
	}
	return -1;
}
