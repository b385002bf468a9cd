/*
 * store.c - contend's SQLite storage: open/create with schema checks, the
 * writes of the runner (experiment, plan, one transaction per finished run)
 * and the one-call loader of a whole experiment for analysis.
 *
 * Every statement is prepared once per connection (lazily, from one table)
 * with bound parameters, reset after each use and finalized by store_close.
 */
#include "db/store.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"

extern const char store_schema_sql[]; /* build/db/schema.c, from schema.sql */

/* How long a writer waits for another one (or a checkpoint) before failing. */
#define STORE_BUSY_MS 10000

const char *const run_status_names[RUN_NSTATUS] = {
	[RUN_PLANNED] = "planned",   [RUN_OK] = "ok",
	[RUN_FAILED] = "failed",     [RUN_CRASHED] = "crashed",
	[RUN_TIMEOUT] = "timeout",   [RUN_PROTOCOL] = "protocol",
	[RUN_INTERRUPTED] = "interrupted",
};

/* The experiment statuses the schema's CHECK allows. */
static const char *const experiment_statuses[] = {
	"planned", "running", "complete", "interrupted", "failed",
};
/* Those that end an experiment (and set finished_at). */
static const char *const experiment_final[] = {
	"complete", "interrupted", "failed",
};

enum stmt_id {
	ST_BEGIN, ST_BEGIN_READ, ST_COMMIT, ST_ROLLBACK,
	ST_SAVEPOINT, ST_RELEASE, ST_ROLLBACK_TO,
	ST_EXP_INSERT, ST_META_INSERT, ST_EXP_STATUS, ST_EXP_GET, ST_META_GET,
	ST_META_ONE, ST_META_PUT, ST_META_DELETE,
	ST_FIND_NEWEST, ST_FIND_ID, ST_FIND_UUID, ST_FIND_NAME, ST_FIND_LABEL,
	ST_EXP_ALL,
	ST_CONFIG_INSERT, ST_PARAM_INSERT, ST_RUN_INSERT,
	ST_RUN_UPDATE, ST_SAMPLES_DELETE, ST_THREADS_DELETE,
	ST_SAMPLE_INSERT, ST_THREAD_INSERT, ST_PENDING,
	ST_LOAD_CONFIGS, ST_LOAD_PARAMS, ST_LOAD_RUNS, ST_LOAD_SAMPLES,
	ST_LOAD_THREADS, ST_TIMELINE_DELETE, ST_TIMELINE_INSERT,
	ST_LOAD_TIMELINES, ST_PROFILE_DELETE, ST_PROFILE_INSERT,
	ST_LOAD_PROFILE,
	ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
	[ST_BEGIN] = "BEGIN IMMEDIATE",
	[ST_BEGIN_READ] = "BEGIN",
	[ST_COMMIT] = "COMMIT",
	[ST_ROLLBACK] = "ROLLBACK",
	[ST_SAVEPOINT] = "SAVEPOINT store",
	[ST_RELEASE] = "RELEASE store",
	[ST_ROLLBACK_TO] = "ROLLBACK TO store",
	[ST_EXP_INSERT] =
		"INSERT INTO experiments (uuid, name, label, config_path,"
		" config_text, seed, run_order, confidence, status, created_at,"
		" finished_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	[ST_META_INSERT] =
		"INSERT INTO experiment_meta (experiment_id, key, value)"
		" VALUES (?1, ?2, ?3)",
	[ST_EXP_STATUS] =
		"UPDATE experiments SET status = ?2, finished_at = ?3"
		" WHERE id = ?1",
	[ST_EXP_GET] =
		"SELECT id, uuid, name, label, config_path, config_text, seed,"
		" run_order, confidence, status, created_at, finished_at"
		" FROM experiments WHERE id = ?1",
	[ST_META_GET] =
		"SELECT key, value FROM experiment_meta WHERE experiment_id = ?1"
		" ORDER BY rowid",
	[ST_META_ONE] =
		"SELECT value FROM experiment_meta WHERE experiment_id = ?1"
		" AND key = ?2",
	/* An upsert, not INSERT OR REPLACE: the row keeps its rowid (order). */
	[ST_META_PUT] =
		"INSERT INTO experiment_meta (experiment_id, key, value)"
		" VALUES (?1, ?2, ?3) ON CONFLICT (experiment_id, key)"
		" DO UPDATE SET value = excluded.value",
	[ST_META_DELETE] =
		"DELETE FROM experiment_meta WHERE experiment_id = ?1 AND key = ?2",
	[ST_FIND_NEWEST] =
		"SELECT id FROM experiments ORDER BY created_at DESC, id DESC"
		" LIMIT 1",
	[ST_FIND_ID] = "SELECT id FROM experiments WHERE id = ?1",
	[ST_FIND_UUID] = "SELECT id FROM experiments WHERE uuid = lower(?1)",
	[ST_FIND_NAME] =
		"SELECT id FROM experiments WHERE name = ?1"
		" ORDER BY created_at, id",
	[ST_FIND_LABEL] =
		"SELECT id FROM experiments WHERE label = ?1"
		" ORDER BY created_at, id",
	[ST_EXP_ALL] = "SELECT id FROM experiments ORDER BY created_at, id",
	[ST_CONFIG_INSERT] =
		"INSERT INTO configs (experiment_id, pos, workload, section,"
		" canon, noise, timeout_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_PARAM_INSERT] =
		"INSERT INTO config_params (config_id, pos, key, value)"
		" VALUES (?1, ?2, ?3, ?4)",
	[ST_RUN_INSERT] =
		"INSERT INTO runs (experiment_id, config_id, seq, repetition,"
		" warmup) VALUES (?1, ?2, ?3, ?4, ?5)",
	[ST_RUN_UPDATE] =
		"UPDATE runs SET status = ?2, error = ?3, started_at = ?4,"
		" wall_s = ?5, env_pad = ?6 WHERE id = ?1",
	[ST_SAMPLES_DELETE] = "DELETE FROM samples WHERE run_id = ?1",
	[ST_THREADS_DELETE] = "DELETE FROM run_threads WHERE run_id = ?1",
	[ST_SAMPLE_INSERT] =
		"INSERT INTO samples (run_id, metric, value) VALUES (?1, ?2, ?3)",
	[ST_THREAD_INSERT] =
		"INSERT INTO run_threads (run_id, ops) VALUES (?1, ?2)",
	[ST_PENDING] =
		"SELECT id, config_id, seq, repetition, warmup FROM runs"
		" WHERE experiment_id = ?1 AND status IN ('planned', 'interrupted')"
		" ORDER BY seq",
	[ST_LOAD_CONFIGS] =
		"SELECT id, workload, section, canon, noise FROM configs"
		" WHERE experiment_id = ?1 ORDER BY pos",
	[ST_LOAD_PARAMS] =
		"SELECT p.config_id, p.key, p.value FROM configs c"
		" JOIN config_params p ON p.config_id = c.id"
		" WHERE c.experiment_id = ?1 ORDER BY c.pos, p.pos",
	/*
	 * CROSS JOIN fixes the loop order: configurations by (experiment,
	 * pos), then each one's runs by runs_by_config (config, seq), so
	 * the rows come sorted.  Left to itself SQLite scanned runs first
	 * and sorted them all in a temporary b-tree (a tenth of the
	 * report's time at a million samples).  A run's configuration
	 * belongs to its experiment (composite foreign key), so no run is
	 * lost by filtering on the configuration's experiment.
	 */
	[ST_LOAD_RUNS] =
		"SELECT r.id, r.config_id, r.seq, r.repetition, r.warmup,"
		" r.status, r.error, r.started_at, r.wall_s FROM configs c"
		" CROSS JOIN runs r ON r.config_id = c.id"
		" WHERE c.experiment_id = ?1 ORDER BY c.pos, r.seq",
	/*
	 * Both orders below are delivered by the indexes (runs by
	 * (experiment_id, seq), then the child's primary key), so SQLite
	 * sorts nothing; the loader relies on rows in seq order, a run's
	 * samples together.
	 */
	[ST_LOAD_SAMPLES] =
		"SELECT s.run_id, s.metric, s.value FROM runs r"
		" JOIN samples s ON s.run_id = r.id"
		" WHERE r.experiment_id = ?1 ORDER BY r.seq, s.metric",
	[ST_LOAD_THREADS] =
		"SELECT t.run_id, t.ops FROM runs r"
		" JOIN run_threads t ON t.run_id = r.id"
		" WHERE r.experiment_id = ?1 ORDER BY r.seq",
	[ST_TIMELINE_DELETE] = "DELETE FROM run_timeline WHERE run_id = ?1",
	[ST_TIMELINE_INSERT] =
		"INSERT INTO run_timeline (run_id, interval_s, threads, ops)"
		" VALUES (?1, ?2, ?3, ?4)",
	/* one row per count, in run then array order */
	[ST_LOAD_TIMELINES] =
		"SELECT t.run_id, t.interval_s, t.threads, j.value"
		" FROM run_timeline t, json_each(t.ops) j"
		" WHERE t.run_id IN (SELECT id FROM runs WHERE experiment_id = ?1"
		"                    AND config_id = ?2)"
		" ORDER BY t.run_id, j.key",
	[ST_PROFILE_DELETE] = "DELETE FROM config_profile WHERE config_id = ?1",
	[ST_PROFILE_INSERT] =
		"INSERT INTO config_profile (config_id, rank, caller, lock_type,"
		" contended, wait_s, max_wait_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[ST_LOAD_PROFILE] =
		"SELECT p.config_id, p.caller, p.lock_type, p.contended, p.wait_s,"
		" p.max_wait_s FROM configs c"
		" JOIN config_profile p ON p.config_id = c.id"
		" WHERE c.experiment_id = ?1 ORDER BY p.config_id, p.rank",
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

struct store {
	sqlite3 *db;
	char *path;
	unsigned flags;
	sqlite3_stmt *stmt[ST_COUNT];
	char *buf;           /* the thread ops text of the run being recorded */
	size_t bufsize;
	dev_t dev;           /* the file opened (store_check_file) */
	ino_t ino;
	int version;         /* the file's schema version, after any upgrade */
};

/* ---- small helpers ---- */

/*
 * "PATH: what: SQLite's reason", and who holds the lock when the busy
 * timeout ran out.  (sqlite3_system_errno() is not added: it returns the
 * errno of the process's last call, often a harmless earlier ENOENT.)
 */
static int db_fail(struct store *s, const char *what)
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

/* The cached statement id, reset and unbound, or NULL after an error. */
static sqlite3_stmt *stmt_get(struct store *s, enum stmt_id id)
{
	if (!s->stmt[id] &&
	    sqlite3_prepare_v3(s->db, stmt_sql[id], -1,
			       SQLITE_PREPARE_PERSISTENT, &s->stmt[id],
			       NULL) != SQLITE_OK) {
		db_fail(s, "cannot prepare statement");
		return NULL;
	}
	return s->stmt[id];
}

/* Ends a use of a cached statement: releases its locks and bindings. */
static void stmt_done(sqlite3_stmt *st)
{
	if (st) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	}
}

/* Runs a statement that returns no rows (or whose rows are ignored). */
static int stmt_exec(struct store *s, enum stmt_id id)
{
	sqlite3_stmt *st = stmt_get(s, id);
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		db_fail(s, stmt_what[id] ? stmt_what[id] : stmt_sql[id]);
	stmt_done(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

static int step_done(struct store *s, sqlite3_stmt *st, const char *what)
{
	if (sqlite3_step(st) != SQLITE_DONE)
		return db_fail(s, what);
	return 0;
}

/*
 * Ends a write: steps st, whose binds returned bound (their codes OR-ed,
 * so SQLITE_OK only when every one succeeded), to completion and resets
 * it either way.  0, or -1 after db_fail(bind_what or step_what).
 * sqlite3_changes() and sqlite3_last_insert_rowid() still tell of the step.
 */
static int stmt_write(struct store *s, sqlite3_stmt *st, int bound,
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

/*
 * A query of rows with ?1 bound to key (an experiment's id), ready to step
 * until it gives no SQLITE_ROW; NULL after an error.  query_end ends it.
 */
static sqlite3_stmt *query_start(struct store *s, enum stmt_id id,
				 int64_t key)
{
	sqlite3_stmt *st = stmt_get(s, id);

	if (st && sqlite3_bind_int64(st, 1, key) != SQLITE_OK) {
		db_fail(s, "cannot bind a query");
		stmt_done(st);
		return NULL;
	}
	return st;
}

/*
 * Ends a query whose last step returned rc, and resets it: SQLITE_DONE is
 * success; SQLITE_ROW, a loop left at a row the caller refused (after its
 * own error()); anything else, SQLite's failure to read what.  0 or -1.
 */
static int query_end(struct store *s, sqlite3_stmt *st, int rc,
		     const char *what)
{
	int ret = 0;

	if (rc == SQLITE_ROW)
		ret = -1;
	else if (rc != SQLITE_DONE)
		ret = db_fail(s, what);
	stmt_done(st);
	return ret;
}

/* Binds a string that the schema requires non-NULL; NULL becomes "". */
static int bind_str(sqlite3_stmt *st, int i, const char *v)
{
	return sqlite3_bind_text(st, i, v ? v : "", -1, SQLITE_STATIC);
}

/* A malloc'd copy of a text column; "" for NULL. */
static char *col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return xstrdup(t ? (const char *)t : "");
}

/*
 * Makes room for element n of an array grown by doubling: the capacity is
 * implicit (the next power of two >= 8), so callers keep only a count.
 */
static void *grow(void *p, size_t n, size_t size)
{
	if (n == 0)
		return xmalloc(8 * size);
	if (n >= 8 && !(n & (n - 1)))
		return xrealloc(p, 2 * n * size);
	return p;
}

static bool in_list(const char *v, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v, list[i]))
			return true;
	return false;
}

/*
 * Write transactions nest: the outermost is BEGIN IMMEDIATE (the write lock
 * is taken up front, under the busy timeout, so two writers queue instead
 * of failing on a lock upgrade); inside a caller's store_begin it is a
 * savepoint, so a failed write undoes only itself.
 */
static int txn_begin(struct store *s, bool *outer)
{
	*outer = sqlite3_get_autocommit(s->db) != 0;
	return stmt_exec(s, *outer ? ST_BEGIN : ST_SAVEPOINT);
}

static int txn_end(struct store *s, bool outer, int ret)
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

/* ---- open, schema, close ---- */

const char *store_default_path(void)
{
	static char path[4096];
	const char *p = getenv("CONTEND_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (p && *p)
		return p;
	/* the XDG base directory spec ignores a relative XDG_DATA_HOME */
	if (xdg && *xdg == '/')
		n = snprintf(path, sizeof(path), "%s/" STORE_DATA_PATH, xdg);
	else if (home && *home == '/')
		n = snprintf(path, sizeof(path), "%s/.local/share/"
			     STORE_DATA_PATH, home);
	else
		return STORE_DEFAULT_PATH;
	return n > 0 && (size_t)n < sizeof(path) ? path : STORE_DEFAULT_PATH;
}

int store_make_parent(const char *path)
{
	char *dir = xstrdup(path), *p;
	int ret = 0;

	/* every directory on the way, as mkdir -p: each may exist already */
	for (p = strchr(dir + 1, '/'); p && !ret; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(dir, 0777) && errno != EEXIST)
			ret = error("cannot create %s: %s", dir, strerror(errno));
		*p = '/';
	}
	free(dir);
	return ret;
}

static bool is_memory(const char *path)
{
	return !strcmp(path, ":memory:");
}

/*
 * Reads the schema version and whether the file holds any table.  This is
 * the first read of the file, so it is where SQLite notices a file that is
 * not a database, or one shorter than its header says (truncated): those
 * are STORE_BAD_FILE, any other failure -1.
 */
static int schema_probe(struct store *s, int *version, int *ntables)
{
	static const char sql[] =
		"SELECT (SELECT user_version FROM pragma_user_version),"
		" (SELECT count(*) FROM sqlite_schema)";
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int(st, 0);
		*ntables = sqlite3_column_int(st, 1);
		ret = 0;
	} else if ((rc & 0xff) == SQLITE_NOTADB) {
		error("%s: file is not a database", s->path);
		ret = STORE_BAD_FILE;
	} else if ((rc & 0xff) == SQLITE_CORRUPT) {
		error("%s: database is truncated or corrupt (%s)", s->path,
		      sqlite3_errmsg(s->db));
		ret = STORE_BAD_FILE;
	} else {
		db_fail(s, "cannot read the database");
	}
	sqlite3_finalize(st);
	return ret;
}

/*
 * Creates the schema, or upgrades an older one by running the script
 * again (every statement in it is IF NOT EXISTS, and it sets the
 * version), unless a concurrent opener just did.
 */
static int schema_create(struct store *s)
{
	char *msg = NULL;
	int version, ntables, ret = -1;
	bool outer;

	if (txn_begin(s, &outer))
		return -1;
	if (schema_probe(s, &version, &ntables))
		goto out;
	if ((version == 0 ? ntables == 0 : version < STORE_SCHEMA_VERSION) &&
	    sqlite3_exec(s->db, store_schema_sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("%s: cannot create the schema: %s", s->path, msg);
		goto out;
	}
	ret = 0;
out:
	sqlite3_free(msg);
	return txn_end(s, outer, ret);
}

static int pragma(struct store *s, const char *sql)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(s, sql);
	return 0;
}

/* 1 when the file is in WAL mode, 0 when not; -1 (reported) on error. */
static int journal_is_wal(struct store *s)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode", -1, &st, NULL),
	    wal = -1;

	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *mode = sqlite3_column_text(st, 0);

		wal = mode && !strcmp((const char *)mode, "wal");
	}
	sqlite3_finalize(st);
	if (wal < 0)
		db_fail(s, "PRAGMA journal_mode");
	return wal;
}

/*
 * WAL, unless the file is in WAL already (asking the mode only needs a
 * read).  Switching needs the database to itself, and when two runners
 * open one new file at once, each holding its read lock, SQLite refuses
 * one of them at once (SQLITE_BUSY without calling the busy handler: the
 * two would otherwise wait for each other).  So the refused one retries,
 * and finds the other's switch done, up to the usual busy timeout
 * (tests/faults/concurrent.sh).
 */
static int wal_on(struct store *s)
{
	const double give_up = now_monotonic() + STORE_BUSY_MS / 1000.0;
	int wal;

	while ((wal = journal_is_wal(s)) == 0) {
		int rc = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL,
				      NULL, NULL);

		/* OK also when the file cannot be WAL (:memory:) */
		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY || now_monotonic() > give_up)
			return db_fail(s, "PRAGMA journal_mode = WAL");
		sqlite3_sleep(10);
	}
	return wal < 0 ? -1 : 0;
}

/*
 * Checks the version before anything writes: a newer or foreign database
 * is refused untouched (even switching to WAL would rewrite its header).
 * A file that is not a contend database is STORE_BAD_FILE.
 */
static int schema_check(struct store *s)
{
	int version, ntables, ret;

	ret = schema_probe(s, &version, &ntables);
	if (ret)
		return ret;
	if (version < 0) {
		error("%s: not a contend database (schema version %d)", s->path,
		      version);
		return STORE_BAD_FILE;
	}
	if (version > STORE_SCHEMA_VERSION) {
		error("%s: written by a newer contend (schema %d > %d)",
		      s->path, version, STORE_SCHEMA_VERSION);
		return STORE_BAD_FILE;
	}
	if (version == 0 && ntables > 0) {
		error("%s: not a contend database (a SQLite file with other "
		      "tables)", s->path);
		return STORE_BAD_FILE;
	}
	if (version == 0 && !(s->flags & STORE_CREATE)) {
		error("%s: not a contend database (empty)", s->path);
		return STORE_BAD_FILE;
	}
	s->version = version;
	if (s->flags & STORE_RDONLY)
		return 0;
	/* SQLite silently opens a write-protected file read-only. */
	if (sqlite3_db_readonly(s->db, "main") == 1)
		return error("%s: the database is read-only (no write permission "
			     "on the file or its file system)", s->path);
	/*
	 * WAL: a report reads while a run writes.  synchronous=NORMAL: a
	 * commit is durable against a crash of contend (SIGKILL included)
	 * and the file stays consistent on power loss, without an fsync per
	 * run.
	 */
	if (wal_on(s) || pragma(s, "PRAGMA synchronous = NORMAL"))
		return -1;
	if (version < STORE_SCHEMA_VERSION && schema_create(s))
		return -1;
	s->version = STORE_SCHEMA_VERSION;
	return 0;
}

/* The directory of path, where SQLite puts the -wal and -shm files. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/*
 * Why path cannot be written to, into buf; NULL when it can.  Asked up
 * front: SQLite opens a write-protected file read-only without a word, and
 * fails with only "unable to open database file" when it cannot create the
 * -wal and -shm files beside it (a read-only file system).
 */
static const char *why_unwritable(const char *path, char *buf, size_t len)
{
	char *dir = dir_of(path);
	const char *why = NULL;

	if (access(dir, W_OK)) {
		snprintf(buf, len, "cannot write in %s: %s", dir, strerror(errno));
		why = buf;
	} else if (!access(path, F_OK) && access(path, W_OK)) {
		snprintf(buf, len, "%s", strerror(errno));
		why = buf;
	}
	free(dir);
	return why;
}

/*
 * A WAL database on read-only media (no -shm beside it, none creatable)
 * can only be read as immutable; no connection can be writing it then,
 * since a writer keeps a -shm file.  Returns the URI to open, or NULL to
 * open path as it is.
 */
static char *readonly_uri(const char *path)
{
	char *shm = xasprintf("%s-shm", path), *dir = dir_of(path), *uri;
	bool plain = !access(shm, F_OK) || !access(dir, W_OK);
	size_t i, n = 0;

	free(shm);
	free(dir);
	if (plain)
		return NULL;
	/* file:PATH?immutable=1, with the URI's own characters escaped. */
	uri = xmalloc(3 * strlen(path) + 32);
	n = (size_t)sprintf(uri, "file:");
	for (i = 0; path[i]; i++)
		n += strchr("%?#", path[i])
			? (size_t)sprintf(uri + n, "%%%02X", (unsigned char)path[i])
			: (size_t)sprintf(uri + n, "%c", path[i]);
	strcpy(uri + n, "?immutable=1");
	return uri;
}

/*
 * A writer killed while it created the database (before the switch to
 * WAL) leaves a hot rollback journal, which only a connection allowed to
 * write may roll back: a read-only open fails with "attempt to write a
 * readonly database".  So a reader that may write the file first lets
 * SQLite roll it back through a brief read-write connection; that only
 * restores the last commit, nothing of ours is written
 * (tests/faults/kill9.sh kills runners that early).
 */
static void recover_hot_journal(const char *path)
{
	char *journal = xasprintf("%s-journal", path);
	sqlite3 *db = NULL;

	if (!access(journal, F_OK) && !access(path, W_OK) &&
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
		sqlite3_busy_timeout(db, STORE_BUSY_MS);
		sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", NULL,
			     NULL, NULL);
	}
	sqlite3_close(db);
	free(journal);
}

/*
 * The file named must be one: an empty name (SQLite's private temporary
 * database, gone at exit: `--db ''` stored nothing), a directory, a FIFO
 * or device (SQLite's open of a FIFO waits for a writer forever), or a
 * missing file where none is to be created, is bad input
 * (STORE_BAD_FILE).  SQLite's own messages say neither which file nor
 * why ("disk I/O error" for a directory).
 */
static int path_check(const char *path, unsigned flags)
{
	struct stat st;

	if (!*path) {
		error("the database path is empty");
		return STORE_BAD_FILE;
	}
	if (is_memory(path))
		return 0;
	if (stat(path, &st)) {
		if (errno == ENOENT && (flags & STORE_CREATE))
			return 0;
		error("cannot open database %s: %s", path, strerror(errno));
		return errno == ENOENT || errno == ENOTDIR ? STORE_BAD_FILE : -1;
	}
	if (S_ISDIR(st.st_mode)) {
		error("cannot open database %s: it is a directory", path);
		return STORE_BAD_FILE;
	}
	if (!S_ISREG(st.st_mode)) {
		error("cannot open database %s: not a regular file (a %s)", path,
		      S_ISFIFO(st.st_mode) ? "FIFO" : S_ISSOCK(st.st_mode)
		      ? "socket" : "device");
		return STORE_BAD_FILE;
	}
	return 0;
}

int store_exit_status(int ret)
{
	return ret == STORE_BAD_FILE ? EXIT_USAGE : EXIT_RUNTIME;
}

int store_open(const char *path, unsigned flags, struct store **out)
{
	struct store *s = xcalloc(1, sizeof(*s));
	char whybuf[512], *uri = NULL;
	const char *why;
	int oflags, ret = -1;

	*out = NULL;
	s->path = xstrdup(path);
	s->flags = flags;
	if (flags & STORE_RDONLY) {
		s->flags &= ~(unsigned)STORE_CREATE;
		oflags = SQLITE_OPEN_READONLY;
	} else {
		oflags = SQLITE_OPEN_READWRITE;
		if (flags & STORE_CREATE)
			oflags |= SQLITE_OPEN_CREATE;
	}
	ret = path_check(path, s->flags);
	if (ret)
		goto out;
	ret = -1;
	if (!(flags & STORE_RDONLY) && !is_memory(path) &&
	    (why = why_unwritable(path, whybuf, sizeof(whybuf)))) {
		error("cannot write database %s: %s", path, why);
		goto out;
	}
	if ((flags & STORE_RDONLY) && !is_memory(path)) {
		recover_hot_journal(path);
		uri = readonly_uri(path);
		if (uri)
			oflags |= SQLITE_OPEN_URI;
	}
	/*
	 * No SQLite mutexes: a store (its cached statements included) is
	 * used by one thread at a time anyway, and locking every call was
	 * 3% of a report at a million samples.
	 */
	oflags |= SQLITE_OPEN_NOMUTEX;
	if (sqlite3_open_v2(uri ? uri : path, &s->db, oflags, NULL) != SQLITE_OK) {
		error("cannot open database %s: %s%s", path,
		      s->db ? sqlite3_errmsg(s->db) : "out of memory",
		      fd_shortage());
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, STORE_BUSY_MS);
	if (pragma(s, "PRAGMA foreign_keys = ON"))
		goto out;
	ret = schema_check(s);
	if (ret)
		goto out;
	if (!is_memory(path)) {
		struct stat st;

		if (stat(path, &st)) {
			ret = error("%s: %s", path, strerror(errno));
			goto out;
		}
		s->dev = st.st_dev;
		s->ino = st.st_ino;
	}
	*out = s;
out:
	free(uri);
	if (ret)
		store_close(s);
	return ret;
}

int store_check_file(struct store *s, bool quick)
{
	sqlite3_stmt *st = NULL;
	struct stat now;
	int rc, ret = 0;

	if (is_memory(s->path))
		return 0;
	errno = 0;
	if (stat(s->path, &now) || now.st_dev != s->dev || now.st_ino != s->ino)
		return error("%s: the database was %s while contend wrote it: "
			     "what was written since is not in it", s->path,
			     errno == ENOENT ? "removed" : "replaced");
	if (!quick)
		return 0;
	rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &st, NULL);
	if (rc == SQLITE_OK)
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *msg = (const char *)sqlite3_column_text(st, 0);

			if (msg && strcmp(msg, "ok")) {
				ret = error("%s: the database is damaged: %s",
					    s->path, msg);
				break;
			}
		}
	if (!ret && rc != SQLITE_DONE)
		ret = error("%s: the database is damaged: %s", s->path,
			    sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	return ret;
}

int store_run_counts(struct store *s, int64_t experiment,
		     long counts[RUN_NSTATUS])
{
	static const char sql[] =
		"SELECT status, count(*) FROM runs WHERE experiment_id = ?1"
		" GROUP BY status";
	sqlite3_stmt *st = NULL;
	int rc, ret = 0;

	memset(counts, 0, RUN_NSTATUS * sizeof(*counts));
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 1, experiment);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	for (; rc == SQLITE_ROW; rc = sqlite3_step(st)) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		int i = name ? run_status_parse(name) : -1;

		if (i < 0) {
			ret = error("%s: experiment %" PRId64 ": a run of "
				    "unknown status '%s'", s->path, experiment,
				    name ? name : "NULL");
			break;
		}
		counts[i] = (long)sqlite3_column_int64(st, 1);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(s, "cannot count the runs");
	sqlite3_finalize(st);
	return ret;
}

void store_close(struct store *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	if (s->db && sqlite3_close(s->db) != SQLITE_OK)
		db_fail(s, "cannot close the database");
	free(s->buf);
	free(s->path);
	free(s);
}

struct sqlite3 *store_db(struct store *s)
{
	return s->db;
}

int store_cache_limit(struct store *s, long kib)
{
	char sql[64];

	if (kib <= 0)
		return error("store_cache_limit: %ld KiB is not a size", kib);
	/* A negative cache_size is a size in KiB rather than in pages. */
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%ld", kib);
	return pragma(s, sql);
}

int store_begin(struct store *s)
{
	return stmt_exec(s, ST_BEGIN);
}

int store_commit(struct store *s)
{
	return stmt_exec(s, ST_COMMIT);
}

void store_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		stmt_exec(s, ST_ROLLBACK);
}

/* ---- experiments ---- */

int run_status_parse(const char *name)
{
	int i;

	for (i = 0; i < RUN_NSTATUS; i++)
		if (!strcmp(name, run_status_names[i]))
			return i;
	return -1;
}

void experiment_row_release(struct experiment_row *e)
{
	size_t i;

	free(e->uuid);
	free(e->name);
	free(e->label);
	free(e->config_path);
	free(e->config_text);
	free(e->order);
	free(e->status);
	for (i = 0; i < e->nmeta; i++) {
		free(e->meta[i].key);
		free(e->meta[i].value);
	}
	free(e->meta);
	memset(e, 0, sizeof(*e));
}

const char *experiment_meta(const struct experiment_row *e, const char *key)
{
	size_t i;

	for (i = 0; i < e->nmeta; i++)
		if (!strcmp(e->meta[i].key, key))
			return e->meta[i].value;
	return NULL;
}

/* A random RFC 4122 version 4 uuid, lowercase. */
static int uuid_generate(char out[37])
{
	unsigned char b[16];
	size_t got = 0;
	int i, n = 0;

	while (got < sizeof(b)) {
		ssize_t r = getrandom(b + got, sizeof(b) - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return error("getrandom: %s", strerror(errno));
		got += (size_t)r;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* variant 10 */
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[n++] = '-';
		n += snprintf(out + n, 3, "%02x", b[i]);
	}
	out[n] = '\0';
	return 0;
}

static int meta_insert(struct store *s, const struct experiment_row *e)
{
	sqlite3_stmt *st = stmt_get(s, ST_META_INSERT);
	size_t i;

	if (!st)
		return -1;
	for (i = 0; i < e->nmeta; i++) {
		int bound = sqlite3_bind_int64(st, 1, e->id) |
			    sqlite3_bind_text(st, 2, e->meta[i].key, -1,
					      SQLITE_STATIC) |
			    bind_str(st, 3, e->meta[i].value);

		if (stmt_write(s, st, bound, "cannot bind metadata",
			       "cannot store metadata"))
			return -1;
	}
	return 0;
}

static int experiment_insert(struct store *s, struct experiment_row *e,
			     const char *uuid)
{
	sqlite3_stmt *st = stmt_get(s, ST_EXP_INSERT);
	char seed[24];
	int bound;

	if (!st)
		return -1;
	snprintf(seed, sizeof(seed), "%" PRIu64, e->seed);
	bound = bind_str(st, 1, uuid) | bind_str(st, 2, e->name) |
		bind_str(st, 3, e->label) | bind_str(st, 4, e->config_path) |
		bind_str(st, 5, e->config_text) |
		sqlite3_bind_text(st, 6, seed, -1, SQLITE_STATIC) |
		bind_str(st, 7, e->order) |
		sqlite3_bind_double(st, 8, e->confidence > 0 ? e->confidence
							     : 0.95) |
		bind_str(st, 9, e->status ? e->status : "planned") |
		sqlite3_bind_double(st, 10, e->created_at) |
		(e->finished_at > 0 ? sqlite3_bind_double(st, 11, e->finished_at)
				    : SQLITE_OK);
	if (stmt_write(s, st, bound, "cannot bind experiment",
		       "cannot create experiment"))
		return -1;
	e->id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_experiment_create(struct store *s, struct experiment_row *e)
{
	char uuid[37];
	bool outer;
	int ret = -1;

	if (!e->uuid && uuid_generate(uuid))
		return -1;
	if (e->created_at <= 0)
		e->created_at = now_realtime();
	if (txn_begin(s, &outer))
		return -1;
	if (experiment_insert(s, e, e->uuid ? e->uuid : uuid) ||
	    meta_insert(s, e))
		goto out;
	ret = 0;
out:
	ret = txn_end(s, outer, ret);
	if (!ret && !e->uuid)
		e->uuid = xstrdup(uuid);
	return ret;
}

int store_experiment_status(struct store *s, int64_t id, const char *status)
{
	sqlite3_stmt *st;
	int bound;

	if (!in_list(status, experiment_statuses, ARRAY_SIZE(experiment_statuses)))
		return error("invalid experiment status '%s' (planned, running, "
			     "complete, interrupted, failed)", status);
	st = stmt_get(s, ST_EXP_STATUS);
	if (!st)
		return -1;
	bound = sqlite3_bind_int64(st, 1, id) | bind_str(st, 2, status) |
		(in_list(status, experiment_final, ARRAY_SIZE(experiment_final))
			 ? sqlite3_bind_double(st, 3, now_realtime())
			 : SQLITE_OK);
	if (stmt_write(s, st, bound, "cannot bind status",
		       "cannot set experiment status"))
		return -1;
	if (sqlite3_changes(s->db) != 1)
		return error("%s: no experiment with id %" PRId64, s->path, id);
	return 0;
}

int store_meta_get(struct store *s, int64_t experiment, const char *key,
		   char **value)
{
	sqlite3_stmt *st = stmt_get(s, ST_META_ONE);
	int rc, ret = -1;

	*value = NULL;
	if (!st)
		return -1;
	if (sqlite3_bind_int64(st, 1, experiment) | bind_str(st, 2, key)) {
		db_fail(s, "cannot bind metadata");
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*value = col_str(st, 0);
	else if (rc != SQLITE_DONE) {
		db_fail(s, "cannot read metadata");
		goto out;
	}
	ret = 0;
out:
	stmt_done(st);
	return ret;
}

int store_meta_set(struct store *s, int64_t experiment, const char *key,
		   const char *value)
{
	sqlite3_stmt *st = stmt_get(s, value ? ST_META_PUT : ST_META_DELETE);
	int ret = -1;

	if (!st)
		return -1;
	if (sqlite3_bind_int64(st, 1, experiment) | bind_str(st, 2, key) |
	    (value ? bind_str(st, 3, value) : SQLITE_OK)) {
		db_fail(s, "cannot bind metadata");
		goto out;
	}
	ret = step_done(s, st, "cannot store metadata");
out:
	stmt_done(st);
	return ret;
}

static int meta_load(struct store *s, struct experiment_row *e)
{
	sqlite3_stmt *st = query_start(s, ST_META_GET, e->id);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		e->meta = grow(e->meta, e->nmeta, sizeof(*e->meta));
		e->meta[e->nmeta].key = col_str(st, 0);
		e->meta[e->nmeta].value = col_str(st, 1);
		e->nmeta++;
	}
	return query_end(s, st, rc, "cannot read metadata");
}

static int experiment_fill(struct store *s, sqlite3_stmt *st,
			   struct experiment_row *e)
{
	char *seed = col_str(st, 6);
	int ret = 0;

	e->id = sqlite3_column_int64(st, 0);
	e->uuid = col_str(st, 1);
	e->name = col_str(st, 2);
	e->label = col_str(st, 3);
	e->config_path = col_str(st, 4);
	e->config_text = col_str(st, 5);
	e->order = col_str(st, 7);
	e->confidence = sqlite3_column_double(st, 8);
	e->status = col_str(st, 9);
	e->created_at = sqlite3_column_double(st, 10);
	e->finished_at = sqlite3_column_double(st, 11);
	if (parse_u64(seed, &e->seed))
		ret = error("%s: experiment %" PRId64 ": malformed seed '%s'",
			    s->path, e->id, seed);
	free(seed);
	return ret;
}

int store_experiment_get(struct store *s, int64_t id, struct experiment_row *e)
{
	sqlite3_stmt *st;
	int rc, ret = -1;

	memset(e, 0, sizeof(*e));
	st = query_start(s, ST_EXP_GET, id);
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		ret = experiment_fill(s, st, e);
	else if (rc == SQLITE_DONE)
		error("%s: no experiment with id %" PRId64, s->path, id);
	else
		db_fail(s, "cannot read experiment");
	stmt_done(st);
	if (!ret)
		ret = meta_load(s, e);
	if (ret)
		experiment_row_release(e);
	return ret;
}

/* Runs a query of experiment ids with an optional text or id parameter. */
static int ids_query(struct store *s, enum stmt_id q, const char *text,
		     int64_t id, int64_t **ids)
{
	sqlite3_stmt *st = stmt_get(s, q);
	size_t n = 0;
	int rc;

	*ids = NULL;
	if (!st)
		return -1;
	if ((text && bind_str(st, 1, text) != SQLITE_OK) ||
	    (!text && id && sqlite3_bind_int64(st, 1, id) != SQLITE_OK)) {
		stmt_done(st);
		return db_fail(s, "cannot bind a query");
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ids = grow(*ids, n, sizeof(**ids));
		(*ids)[n++] = sqlite3_column_int64(st, 0);
	}
	if (query_end(s, st, rc, "cannot look up experiments")) {
		free(*ids);
		*ids = NULL;
		return -1;
	}
	return (int)n;
}

int store_experiment_find(struct store *s, const char *selector,
			  int64_t **ids)
{
	static const enum stmt_id by_text[] = {
		ST_FIND_UUID, ST_FIND_NAME, ST_FIND_LABEL,
	};
	long long id;
	size_t i;
	int n;

	if (!selector)
		return ids_query(s, ST_FIND_NEWEST, NULL, 0, ids);
	*ids = NULL;
	if (!*selector)
		return 0;
	if (!parse_ll(selector, &id) && id > 0) {
		n = ids_query(s, ST_FIND_ID, NULL, id, ids);
		if (n)
			return n;
	}
	/* Precedence: id, uuid, name, label; the first that matches wins. */
	for (i = 0; i < ARRAY_SIZE(by_text); i++) {
		n = ids_query(s, by_text[i], selector, 0, ids);
		if (n)
			return n;
	}
	return 0;
}

int store_experiment_list(struct store *s, int64_t **ids)
{
	return ids_query(s, ST_EXP_ALL, NULL, 0, ids);
}

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
		bound = sqlite3_bind_int64(st, 1, config) |
			sqlite3_bind_int64(st, 2, (sqlite3_int64)i) |
			sqlite3_bind_text(st, 3, kv[i], (int)(eq - kv[i]),
					  SQLITE_STATIC) |
			sqlite3_bind_text(st, 4, eq + 1, -1, SQLITE_STATIC);
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
	bound = sqlite3_bind_int64(st, 1, experiment) |
		sqlite3_bind_int(st, 2, pos) | bind_str(st, 3, workload) |
		bind_str(st, 4, section) | bind_str(st, 5, canon) |
		sqlite3_bind_double(st, 6, noise) |
		sqlite3_bind_double(st, 7, timeout_s);
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
	bound = sqlite3_bind_int64(st, 1, experiment) |
		sqlite3_bind_int64(st, 2, config) |
		sqlite3_bind_int64(st, 3, seq) |
		sqlite3_bind_int(st, 4, repetition) |
		sqlite3_bind_int(st, 5, warmup ? 1 : 0);
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
					    ST_TIMELINE_DELETE };
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
	if (sqlite3_bind_int64(st, 1, run) != SQLITE_OK)
		goto out;
	for (i = 0; i < r->nsamples; i++) {
		if (isnan(r->value[i]))
			continue; /* absent: SQLite would store NULL */
		if (!r->metric[i]) {
			error("run %" PRId64 ": sample %zu has no metric name",
			      run, i);
			goto out;
		}
		if (sqlite3_bind_text(st, 2, r->metric[i], -1, SQLITE_STATIC) |
		    sqlite3_bind_double(st, 3, r->value[i])) {
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
static char *u64_format(char *p, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* The JSON array of n counts, in s->buf. */
static const char *u64_array_format(struct store *s, size_t n,
				    const uint64_t *v)
{
	size_t need = 2 + n * 21 + 1, i;
	char *p;

	if (need > s->bufsize) {
		s->bufsize = 2 * need;
		s->buf = xrealloc(s->buf, s->bufsize);
	}
	p = s->buf;
	*p++ = '[';
	for (i = 0; i < n; i++) {
		if (i)
			*p++ = ',';
		p = u64_format(p, v[i]);
	}
	*p++ = ']';
	*p = '\0';
	return s->buf;
}

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
	bound = sqlite3_bind_int64(st, 1, run) |
		sqlite3_bind_text(st, 2, u64_array_format(s, r->nthreads,
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
	bound = sqlite3_bind_int64(st, 1, run) |
		sqlite3_bind_double(st, 2, r->tick_s) |
		sqlite3_bind_int64(st, 3, (sqlite3_int64)r->tick_threads) |
		sqlite3_bind_text(st, 4, u64_array_format(s, r->tick_threads *
							  r->nticks,
							  r->timeline),
				  -1, SQLITE_STATIC);
	return stmt_write(s, st, bound, "cannot bind the timeline",
			  "cannot store the timeline");
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
	return txn_end(s, outer, ret);
}

int store_version(const struct store *s)
{
	return s->version;
}

void store_timelines_free(struct run_timeline *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i].ops);
	free(t);
}

/* Appends one count of run id to the timelines, a new one when id changes. */
static int timeline_add(struct run_timeline **t, size_t *n, int64_t id,
			double interval, int64_t threads, int64_t value)
{
	struct run_timeline *cur = *n ? &(*t)[*n - 1] : NULL;

	if (threads <= 0 || value < 0)
		return -1;
	if (!cur || cur->run_id != id) {
		*t = grow(*t, *n, sizeof(**t));
		cur = &(*t)[(*n)++];
		memset(cur, 0, sizeof(*cur));
		cur->run_id = id;
		cur->interval_s = interval;
		cur->threads = (size_t)threads;
	}
	cur->ops = grow(cur->ops, cur->nticks, sizeof(*cur->ops));
	cur->ops[cur->nticks++] = (uint64_t)value;
	return 0;
}

int store_load_timelines(struct store *s, int64_t experiment, int64_t config,
			 struct run_timeline **out, size_t *n)
{
	struct run_timeline *t = NULL;
	sqlite3_stmt *st;
	size_t nt = 0, i;
	int rc = SQLITE_DONE, ret;

	*out = NULL;
	*n = 0;
	if (s->version < 2)
		return 0;
	st = query_start(s, ST_LOAD_TIMELINES, experiment);
	if (!st)
		return -1;
	if (sqlite3_bind_int64(st, 2, config) != SQLITE_OK) {
		stmt_done(st);
		return db_fail(s, "cannot bind a query");
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (timeline_add(&t, &nt, sqlite3_column_int64(st, 0),
				 sqlite3_column_double(st, 1),
				 sqlite3_column_int64(st, 2),
				 sqlite3_column_int64(st, 3))) {
			error("%s: the timeline of run %" PRId64 " is malformed",
			      s->path, (int64_t)sqlite3_column_int64(st, 0));
			break;
		}
	ret = query_end(s, st, rc, "cannot read timelines");
	/* the counts are threads x intervals: nticks is per thread */
	for (i = 0; !ret && i < nt; i++) {
		if (t[i].nticks % t[i].threads) {
			ret = error("%s: the timeline of run %" PRId64 " has %zu "
				    "counts for %zu threads", s->path,
				    t[i].run_id, t[i].nticks, t[i].threads);
			break;
		}
		t[i].nticks /= t[i].threads;
	}
	if (ret) {
		store_timelines_free(t, nt);
		return -1;
	}
	*out = t;
	*n = nt;
	return 0;
}

int store_profile_put(struct store *s, int64_t config,
		      const struct profile_row *rows, size_t n)
{
	sqlite3_stmt *st;
	bool outer;
	int ret = -1;
	size_t i;

	if (txn_begin(s, &outer))
		return -1;
	st = stmt_get(s, ST_PROFILE_DELETE);
	if (!st || stmt_write(s, st, sqlite3_bind_int64(st, 1, config),
			      "cannot bind profile", "cannot clear profile"))
		goto out;
	for (i = 0; i < n; i++) {
		const struct profile_row *p = &rows[i];

		st = stmt_get(s, ST_PROFILE_INSERT);
		if (!st || stmt_write(s, st,
			sqlite3_bind_int64(st, 1, config) |
			sqlite3_bind_int64(st, 2, (sqlite3_int64)i + 1) |
			sqlite3_bind_text(st, 3, p->caller, -1, SQLITE_STATIC) |
			sqlite3_bind_text(st, 4, p->lock_type, -1, SQLITE_STATIC) |
			sqlite3_bind_int64(st, 5, (sqlite3_int64)p->contended) |
			sqlite3_bind_double(st, 6, p->wait_s) |
			sqlite3_bind_double(st, 7, p->max_wait_s),
			"cannot bind profile row", "cannot store profile row"))
			goto out;
	}
	ret = 0;
out:
	return txn_end(s, outer, ret);
}

void store_profile_free(struct profile_row *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].caller);
		free(p[i].lock_type);
	}
	free(p);
}

static char *column_dup(sqlite3_stmt *st, int col)
{
	const unsigned char *t = sqlite3_column_text(st, col);

	return xstrdup(t ? (const char *)t : "");
}

int store_load_profile(struct store *s, int64_t experiment,
		       struct profile_row **out, size_t *n)
{
	struct profile_row *p = NULL;
	sqlite3_stmt *st;
	size_t np = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (s->version < 2)
		return 0;
	st = query_start(s, ST_LOAD_PROFILE, experiment);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		p = grow(p, np, sizeof(*p));
		p[np].config_id = sqlite3_column_int64(st, 0);
		p[np].caller = column_dup(st, 1);
		p[np].lock_type = column_dup(st, 2);
		p[np].contended = (uint64_t)sqlite3_column_int64(st, 3);
		p[np].wait_s = sqlite3_column_double(st, 4);
		p[np].max_wait_s = sqlite3_column_double(st, 5);
		np++;
	}
	if (query_end(s, st, rc, "cannot read the profile")) {
		store_profile_free(p, np);
		return -1;
	}
	*out = p;
	*n = np;
	return 0;
}

int store_pending_runs(struct store *s, int64_t experiment,
		       struct pending_run **out, size_t *n)
{
	sqlite3_stmt *st = query_start(s, ST_PENDING, experiment);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pending_run *p;

		*out = grow(*out, *n, sizeof(**out));
		p = &(*out)[(*n)++];
		p->run_id = sqlite3_column_int64(st, 0);
		p->config_id = sqlite3_column_int64(st, 1);
		p->seq = (long)sqlite3_column_int64(st, 2);
		p->repetition = sqlite3_column_int(st, 3);
		p->warmup = sqlite3_column_int(st, 4) != 0;
	}
	if (query_end(s, st, rc, "cannot read pending runs")) {
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

/* ---- loading a whole experiment ---- */

/*
 * The index of configuration id.  Rows arrive grouped by configuration in
 * pos order, so the hint (the previous row's) or the one after it nearly
 * always matches; then, as ids usually ascend with pos (the runner inserts
 * in pos order, merge keeps the order), a binary search; a linear scan
 * only for a file written otherwise.
 */
static long config_index(const struct dataset *d, int64_t id, size_t hint)
{
	size_t lo = 0, hi = d->nconfigs, i;

	for (i = hint; i < hint + 2 && i < d->nconfigs; i++)
		if (d->configs[i].id == id)
			return (long)i;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->configs[mid].id == id)
			return (long)mid;
		if (d->configs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = 0; i < d->nconfigs; i++)
		if (d->configs[i].id == id)
			return (long)i;
	return -1;
}

static int load_configs(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_CONFIGS, experiment);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ds_config *c;

		d->configs = grow(d->configs, d->nconfigs, sizeof(*c));
		c = &d->configs[d->nconfigs++];
		memset(c, 0, sizeof(*c));
		c->id = sqlite3_column_int64(st, 0);
		c->workload = col_str(st, 1);
		c->section = col_str(st, 2);
		c->canon = col_str(st, 3);
		c->noise = sqlite3_column_double(st, 4);
	}
	return query_end(s, st, rc, "cannot read configurations");
}

static int load_params(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_PARAMS, experiment);
	size_t ci = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long i = config_index(d, sqlite3_column_int64(st, 0), ci);
		struct ds_config *c;

		if (i < 0) {
			error("%s: parameter of unknown configuration %lld",
			      s->path, sqlite3_column_int64(st, 0));
			break;
		}
		ci = (size_t)i;
		c = &d->configs[ci];
		c->params = grow(c->params, c->nparams, sizeof(*c->params));
		c->params[c->nparams].key = col_str(st, 1);
		c->params[c->nparams].value = col_str(st, 2);
		c->nparams++;
	}
	return query_end(s, st, rc, "cannot read parameters");
}

static int run_fill(struct store *s, sqlite3_stmt *st, struct dataset *d,
		    size_t *ci)
{
	struct ds_run *r = &d->runs[d->nruns];
	const unsigned char *status = sqlite3_column_text(st, 5);
	long i = config_index(d, sqlite3_column_int64(st, 1), *ci);
	int sv = status ? run_status_parse((const char *)status) : -1;

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	if (i < 0 || sv < 0)
		return error("%s: run %" PRId64 " is inconsistent (configuration"
			     " or status)", s->path, r->id);
	if ((size_t)i != *ci || d->configs[i].nruns == 0)
		d->configs[i].run0 = d->nruns;
	*ci = (size_t)i;
	d->configs[i].nruns++;
	r->config = (size_t)i;
	r->seq = (long)sqlite3_column_int64(st, 2);
	r->repetition = sqlite3_column_int(st, 3);
	r->warmup = sqlite3_column_int(st, 4) != 0;
	r->status = (enum run_status)sv;
	if (sqlite3_column_type(st, 6) != SQLITE_NULL)
		r->error = col_str(st, 6);
	r->started_at = sqlite3_column_double(st, 7);
	r->wall_s = sqlite3_column_double(st, 8);
	d->nruns++;
	return 0;
}

static int load_runs(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_RUNS, experiment);
	size_t ci = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		d->runs = grow(d->runs, d->nruns, sizeof(*d->runs));
		if (run_fill(s, st, d, &ci))
			break;
	}
	return query_end(s, st, rc, "cannot read runs");
}

/*
 * Samples and thread rows arrive in seq order; by_seq lists the run
 * indices in that order so each row finds its run by walking forward.
 */
struct seq_walk {
	const struct dataset *d;
	size_t *by_seq;
	size_t k;
};

static int cmp_seq(const void *a, const void *b, void *arg)
{
	const struct dataset *d = arg;
	long x = d->runs[*(const size_t *)a].seq;
	long y = d->runs[*(const size_t *)b].seq;

	return (x > y) - (x < y);
}

size_t *dataset_seq_order(const struct dataset *d)
{
	size_t *order = xmalloc(d->nruns * sizeof(*order)), i;

	for (i = 0; i < d->nruns; i++)
		order[i] = i;
	qsort_r(order, d->nruns, sizeof(*order), cmp_seq, (void *)d);
	return order;
}

static void seq_walk_init(struct seq_walk *w, const struct dataset *d)
{
	w->d = d;
	w->k = 0;
	w->by_seq = dataset_seq_order(d);
}

/* The run index of id, which is at or after the previous row's run. */
static long seq_walk_find(struct seq_walk *w, int64_t id)
{
	while (w->k < w->d->nruns && w->d->runs[w->by_seq[w->k]].id != id)
		w->k++;
	return w->k < w->d->nruns ? (long)w->by_seq[w->k] : -1;
}

struct sample_row {
	uint32_t run, metric;
	double value;
};

/* The index of a metric name among those seen so far, adding it if new. */
static uint32_t metric_intern(struct dataset *d, const char *name,
			      uint32_t *guess)
{
	size_t i;

	/* Every run lists its metrics in the same sorted order: guess next. */
	if (*guess < d->nmetrics && !strcmp(d->metrics[*guess], name))
		return (*guess)++;
	for (i = 0; i < d->nmetrics; i++)
		if (!strcmp(d->metrics[i], name))
			break;
	if (i == d->nmetrics) {
		d->metrics = xrealloc(d->metrics, (i + 1) * sizeof(*d->metrics));
		d->metrics[i] = xstrdup(name);
		d->nmetrics++;
	}
	*guess = (uint32_t)i + 1;
	return (uint32_t)i;
}

static int cmp_name(const void *a, const void *b, void *arg)
{
	char **names = arg;

	return strcmp(names[*(const uint32_t *)a], names[*(const uint32_t *)b]);
}

/* Sorts d->metrics by name and fills the dense values matrix from rows. */
static void samples_place(struct dataset *d, const struct sample_row *rows,
			  size_t n)
{
	uint32_t *order = xmalloc((d->nmetrics + 1) * sizeof(*order));
	uint32_t *rank = xmalloc((d->nmetrics + 1) * sizeof(*rank));
	char **sorted = xmalloc((d->nmetrics + 1) * sizeof(*sorted));
	size_t i, total = d->nruns * d->nmetrics;

	for (i = 0; i < d->nmetrics; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, d->nmetrics, sizeof(*order), cmp_name, d->metrics);
	for (i = 0; i < d->nmetrics; i++) {
		rank[order[i]] = (uint32_t)i;
		sorted[i] = d->metrics[order[i]];
	}
	free(d->metrics);
	d->metrics = sorted;
	d->values = xmalloc((total ? total : 1) * sizeof(*d->values));
	for (i = 0; i < total; i++)
		d->values[i] = NAN;
	for (i = 0; i < n; i++)
		d->values[rows[i].run * d->nmetrics + rank[rows[i].metric]] =
			rows[i].value;
	free(order);
	free(rank);
}

static int load_samples(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_SAMPLES, experiment);
	struct sample_row *rows = NULL;
	struct seq_walk w;
	size_t n = 0;
	uint32_t guess = 0;
	int rc, ret;

	if (!st)
		return -1;
	seq_walk_init(&w, d);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long r = seq_walk_find(&w, sqlite3_column_int64(st, 0));
		const char *m = (const char *)sqlite3_column_text(st, 1);

		if (r < 0 || !m) {
			error("%s: sample of run %lld is inconsistent", s->path,
			      sqlite3_column_int64(st, 0));
			break;
		}
		rows = grow(rows, n, sizeof(*rows));
		rows[n].run = (uint32_t)r;
		rows[n].metric = metric_intern(d, m, &guess);
		rows[n].value = sqlite3_column_double(st, 2);
		n++;
	}
	ret = query_end(s, st, rc, "cannot read samples");
	if (!ret)
		samples_place(d, rows, n);
	free(rows);
	free(w.by_seq);
	return ret;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Parses one decimal uint64 at *p; -1 when none or on overflow. */
static int u64_scan(const char **p, uint64_t *v)
{
	const char *q = *p;

	*v = 0;
	while (*q >= '0' && *q <= '9') {
		unsigned digit = (unsigned)(*q++ - '0');

		if (*v > (UINT64_MAX - digit) / 10)
			return -1;
		*v = *v * 10 + digit;
	}
	if (q == *p)
		return -1;
	*p = q;
	return 0;
}

/*
 * Appends the counts of a JSON array of unsigned integers (as
 * threads_format writes it; blanks allowed) to d->thread_ops; -1 when the
 * text is anything else.  Hand-written because it runs once per run on the
 * hot path of store_load and the grammar is this small.
 */
static int threads_parse(struct dataset *d, const char *p)
{
	uint64_t v;

	p = skip_blanks(p);
	if (*p++ != '[')
		return -1;
	p = skip_blanks(p);
	while (*p != ']') {
		if (u64_scan(&p, &v))
			return -1;
		d->thread_ops = grow(d->thread_ops, d->nthread_ops,
				     sizeof(*d->thread_ops));
		d->thread_ops[d->nthread_ops++] = v;
		p = skip_blanks(p);
		if (*p == ',')
			p = skip_blanks(p + 1);
		else if (*p != ']')
			return -1;
	}
	return *skip_blanks(p + 1) ? -1 : 0;
}

static int load_threads(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_THREADS, experiment);
	struct seq_walk w;
	int rc;

	if (!st)
		return -1;
	seq_walk_init(&w, d);
	/*
	 * thread_ops is laid out in seq order, each run's threads in thread
	 * order; a run's slice (thread0, nthreads) points into it.
	 */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *ops = (const char *)sqlite3_column_text(st, 1);
		long r = seq_walk_find(&w, id);
		size_t start = d->nthread_ops;

		if (r < 0 || !ops || threads_parse(d, ops)) {
			error("%s: thread ops of run %" PRId64 " are malformed",
			      s->path, id);
			break;
		}
		d->runs[r].thread0 = start;
		d->runs[r].nthreads = d->nthread_ops - start;
	}
	free(w.by_seq);
	return query_end(s, st, rc, "cannot read thread ops");
}

/* Each configuration's profile rows, moved out of one query's. */
static int attach_profiles(struct store *s, int64_t experiment,
			   struct dataset *d)
{
	struct profile_row *p;
	size_t n, i, c;

	if (store_load_profile(s, experiment, &p, &n))
		return -1;
	for (i = 0; i < n; i++) {
		struct ds_config *cf = NULL;

		for (c = 0; c < d->nconfigs && !cf; c++)
			if (d->configs[c].id == p[i].config_id)
				cf = &d->configs[c];
		if (!cf) {
			free(p[i].caller);
			free(p[i].lock_type);
			continue;
		}
		cf->profile = xrealloc(cf->profile, (cf->nprofile + 1) *
						    sizeof(*cf->profile));
		cf->profile[cf->nprofile++] = p[i];
	}
	free(p);
	return 0;
}

int store_load(struct store *s, int64_t experiment, struct dataset *d)
{
	bool txn;
	int ret = -1;

	memset(d, 0, sizeof(*d));
	/* One read transaction: one snapshot, even while a run writes. */
	txn = sqlite3_get_autocommit(s->db) != 0;
	if (txn && stmt_exec(s, ST_BEGIN_READ))
		return -1;
	if (store_experiment_get(s, experiment, &d->exp) ||
	    load_configs(s, experiment, d) || load_params(s, experiment, d) ||
	    load_runs(s, experiment, d) || load_samples(s, experiment, d) ||
	    load_threads(s, experiment, d) || attach_profiles(s, experiment, d))
		goto out;
	ret = 0;
out:
	if (txn)
		stmt_exec(s, ST_COMMIT);
	if (ret)
		dataset_release(d);
	return ret;
}

void ds_config_release(struct ds_config *c)
{
	size_t j;

	free(c->workload);
	free(c->section);
	free(c->canon);
	for (j = 0; j < c->nparams; j++) {
		free(c->params[j].key);
		free(c->params[j].value);
	}
	free(c->params);
	store_profile_free(c->profile, c->nprofile);
}

void dataset_release(struct dataset *d)
{
	size_t i;

	experiment_row_release(&d->exp);
	for (i = 0; i < d->nconfigs; i++)
		ds_config_release(&d->configs[i]);
	free(d->configs);
	for (i = 0; i < d->nruns; i++)
		free(d->runs[i].error);
	free(d->runs);
	for (i = 0; i < d->nmetrics; i++)
		free(d->metrics[i]);
	free(d->metrics);
	free(d->values);
	free(d->thread_ops);
	memset(d, 0, sizeof(*d));
}

int dataset_metric(const struct dataset *d, const char *name)
{
	size_t lo = 0, hi = d->nmetrics;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(d->metrics[mid], name);

		if (!c)
			return (int)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

double dataset_value(const struct dataset *d, size_t r, int m)
{
	if (m < 0 || (size_t)m >= d->nmetrics || r >= d->nruns)
		return NAN;
	return d->values[r * d->nmetrics + (size_t)m];
}
