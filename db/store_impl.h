/*
 * store_impl.h - what the files of the store share and nothing outside db/
 * sees: struct store, its cached statements, the columns of every table and
 * the helpers that run statements and transactions (db/store_stmt.c).
 *
 * The store is split by concern: store_open.c (open, schema, upgrade,
 * checks, close), store_schema.c (the schema check: nothing in a file but
 * contend's own objects), store_experiment.c (experiment rows, metadata,
 * selectors), store_write.c (the plan and the record of a run),
 * store_load.c (the loader of a whole experiment and the other reads of
 * analysis), store_merge.c (contend merge), thread_ops.c (the per-thread
 * counts' text).
 */
#ifndef CONTEND_STORE_IMPL_H
#define CONTEND_STORE_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <sqlite3.h>
#include <sys/types.h>

#include "db/store.h"

/* How long a writer waits for another one (or a checkpoint) before failing. */
#define STORE_BUSY_MS 10000

/* The statements a store prepares once, lazily (store_stmt.c has the SQL). */
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
	ST_LOAD_TIMELINES, ST_LOAD_PROFILE, ST_KLOCK_DELETE, ST_KLOCK_INSERT, ST_LOAD_KLOCK,
	ST_ROWS_ADD,
	ST_COUNT
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
	int src_version;     /* the attached input's (store_attach), or 0 */
	char *copy;          /* a private copy read instead of path, or NULL */
};

/*
 * The columns of every table, written once, in schema.sql's order, as
 * X(prefix, column, kind).  From these lists come the columns of the
 * store's INSERTs and of the experiment's SELECT (store_stmt.c), the enums
 * below that name each column's parameter in an INSERT (EXPERIMENTS_uuid
 * is ?2: a row's own id, ?1, is left unbound for SQLite to assign), and
 * merge's INSERT ... SELECT (store_merge.c).  kind says what merge does
 * with a column.
 */
enum col_kind {
	COL_DATA,        /* copied as it is */
	COL_OWN_ID,      /* the experiment's own id: the copy gets a new one */
	COL_EXPERIMENT,  /* refers to the experiment: the copy's id */
	COL_CONFIG,      /* a configuration's id (own or not): + offset */
	COL_RUN,         /* a run's id (own or not): + offset */
};

#define EXPERIMENTS_COLUMNS(X) \
	X(EXPERIMENTS, id, OWN_ID) X(EXPERIMENTS, uuid, DATA) \
	X(EXPERIMENTS, name, DATA) X(EXPERIMENTS, label, DATA) \
	X(EXPERIMENTS, config_path, DATA) X(EXPERIMENTS, config_text, DATA) \
	X(EXPERIMENTS, seed, DATA) X(EXPERIMENTS, run_order, DATA) \
	X(EXPERIMENTS, confidence, DATA) X(EXPERIMENTS, status, DATA) \
	X(EXPERIMENTS, created_at, DATA) X(EXPERIMENTS, finished_at, DATA)
#define META_COLUMNS(X) \
	X(META, experiment_id, EXPERIMENT) X(META, key, DATA) \
	X(META, value, DATA)
#define CONFIGS_COLUMNS(X) \
	X(CONFIGS, id, CONFIG) X(CONFIGS, experiment_id, EXPERIMENT) \
	X(CONFIGS, pos, DATA) X(CONFIGS, workload, DATA) \
	X(CONFIGS, section, DATA) X(CONFIGS, canon, DATA) \
	X(CONFIGS, noise, DATA) X(CONFIGS, timeout_s, DATA)
#define PARAMS_COLUMNS(X) \
	X(PARAMS, config_id, CONFIG) X(PARAMS, pos, DATA) \
	X(PARAMS, key, DATA) X(PARAMS, value, DATA)
#define RUNS_COLUMNS(X) \
	X(RUNS, id, RUN) X(RUNS, experiment_id, EXPERIMENT) \
	X(RUNS, config_id, CONFIG) X(RUNS, seq, DATA) \
	X(RUNS, repetition, DATA) X(RUNS, warmup, DATA) \
	X(RUNS, status, DATA) X(RUNS, error, DATA) \
	X(RUNS, started_at, DATA) X(RUNS, wall_s, DATA) \
	X(RUNS, env_pad, DATA)
#define SAMPLES_COLUMNS(X) \
	X(SAMPLES, run_id, RUN) X(SAMPLES, metric, DATA) \
	X(SAMPLES, value, DATA)
#define THREADS_COLUMNS(X) \
	X(THREADS, run_id, RUN) X(THREADS, ops, DATA)
#define TIMELINE_COLUMNS(X) \
	X(TIMELINE, run_id, RUN) X(TIMELINE, interval_s, DATA) \
	X(TIMELINE, threads, DATA) X(TIMELINE, ops, DATA)
#define PROFILE_COLUMNS(X) \
	X(PROFILE, config_id, CONFIG) X(PROFILE, rank, DATA) \
	X(PROFILE, caller, DATA) X(PROFILE, lock_type, DATA) \
	X(PROFILE, contended, DATA) X(PROFILE, wait_s, DATA) \
	X(PROFILE, max_wait_s, DATA)
#define KLOCK_COLUMNS(X) \
	X(KLOCK, run_id, RUN) X(KLOCK, rank, DATA) X(KLOCK, kind, DATA) \
	X(KLOCK, caller, DATA) X(KLOCK, lock, DATA) X(KLOCK, nlocks, DATA) \
	X(KLOCK, contentions, DATA) X(KLOCK, wait_s, DATA)

/* The parameter of each column in its table's INSERT: ?1 is the first. */
#define COL_PARAM(t, c, k) t##_##c,
enum { EXPERIMENTS_0, EXPERIMENTS_COLUMNS(COL_PARAM) };
enum { META_0, META_COLUMNS(COL_PARAM) };
enum { CONFIGS_0, CONFIGS_COLUMNS(COL_PARAM) };
enum { PARAMS_0, PARAMS_COLUMNS(COL_PARAM) };
enum { RUNS_0, RUNS_COLUMNS(COL_PARAM) };
enum { SAMPLES_0, SAMPLES_COLUMNS(COL_PARAM) };
enum { THREADS_0, THREADS_COLUMNS(COL_PARAM) };
enum { TIMELINE_0, TIMELINE_COLUMNS(COL_PARAM) };
enum { KLOCK_0, KLOCK_COLUMNS(COL_PARAM) };
#undef COL_PARAM
/* The column of parameter p in a whole row's SELECT (0 is the first). */
#define COL_OF(p) ((p) - 1)

struct store_column {
	const char *name;
	enum col_kind kind;
};

enum table_id {
	T_NONE,
	T_EXPERIMENTS, T_META, T_CONFIGS, T_PARAMS, T_RUNS, T_SAMPLES,
	T_THREADS, T_TIMELINE, T_PROFILE, T_KLOCK,
	T_COUNT
};

struct store_table {
	const char *name;
	const struct store_column *cols;
	size_t ncols;
	int since;           /* the schema version that added the table */
	const char *order;   /* the order merge copies rows in; NULL: any */
};
/* Indexed by enum table_id, parents before children (T_NONE empty). */
extern const struct store_table store_tables[T_COUNT];

/* "PATH: what: SQLite's reason" (and who held a lock); returns -1. */
int db_fail(struct store *s, const char *what);
/* The cached statement id, reset and unbound, or NULL after an error. */
sqlite3_stmt *stmt_get(struct store *s, enum stmt_id id);
/*
 * One step of an upgrade over rows: prepares sql[0..n) (n <= 4), binds
 * experiment (0: every one) to sql[0]'s ?1, and calls row(s, st) for each
 * row of st[0] (st: the n statements), which returns 0 or -1 after
 * db_fail; finalizes them.  0, or -1 after db_fail naming what (the
 * rows: "the host facts").
 */
int store_migrate_rows(struct store *s, const char *const *sql, size_t n,
		       int64_t experiment, const char *what,
		       int (*row)(struct store *s, sqlite3_stmt **st));
/* Ends a use of a cached statement: releases its locks and bindings. */
void stmt_done(sqlite3_stmt *st);
/* Runs a statement that returns no rows (or whose rows are ignored). */
int stmt_exec(struct store *s, enum stmt_id id);
/* Steps st once, expecting SQLITE_DONE; else db_fail(what). */
int step_done(struct store *s, sqlite3_stmt *st, const char *what);
/*
 * Ends a write: steps st, whose binds returned bound (their codes OR-ed,
 * so SQLITE_OK only when every one succeeded), to completion and resets
 * it either way.  0, or -1 after db_fail(bind_what or step_what).
 * sqlite3_changes() and sqlite3_last_insert_rowid() still tell of the step.
 */
int stmt_write(struct store *s, sqlite3_stmt *st, int bound,
	       const char *bind_what, const char *step_what);
/*
 * A query of rows with ?1 bound to key (an experiment's id), ready to step
 * until it gives no SQLITE_ROW; NULL after an error.  query_end ends it:
 * SQLITE_DONE is success; SQLITE_ROW, a loop left at a row the caller
 * refused (after its own error()); anything else, SQLite's failure to read
 * what.  0 or -1.
 */
sqlite3_stmt *query_start(struct store *s, enum stmt_id id, int64_t key);
int query_end(struct store *s, sqlite3_stmt *st, int rc, const char *what);
/* Binds a string that the schema requires non-NULL; NULL becomes "". */
int bind_str(sqlite3_stmt *st, int i, const char *v);
/* A malloc'd copy of a text column; "" for NULL. */
char *col_str(sqlite3_stmt *st, int i);
/*
 * Write transactions nest: the outermost is BEGIN IMMEDIATE (the write lock
 * is taken up front, under the busy timeout, so two writers queue instead
 * of failing on a lock upgrade); inside a caller's store_begin it is a
 * savepoint, so a failed write undoes only itself.  txn_end commits when
 * ret is 0, else rolls back; it returns 0 or -1.
 */
int txn_begin(struct store *s, bool *outer);
/*
 * 0 when the database (schema version, older than this contend's) may be
 * upgraded now; -1 after error() naming the experiment and the process
 * when a live runner other than this process holds a claim (inside the
 * upgrade's write transaction, so that no runner claims one meanwhile).
 * store_upgrade.c.
 */
int store_upgrade_check(struct store *s, int version);
int txn_end(struct store *s, bool outer, int ret);

/* The directory of path, where SQLite puts the -wal and -shm files;
 * malloc'd.  store_copy.c. */
char *dir_of(const char *path);
/*
 * The private copy of a WAL database on read-only media whose log holds
 * commits (store_copy.c): store_copy_make copies the file and its log
 * into a directory of this process under $TMPDIR and sets s->copy (0, or
 * -1 after saying why); store_copy_remove removes it (also on a
 * catchable signal that ends the process); store_copy_sweep, once a
 * process, removes the copies of contends no longer alive.
 */
int store_copy_make(struct store *s);
void store_copy_remove(struct store *s);
void store_copy_sweep(void);

/* Whether path names SQLite's in-memory database. */
bool store_is_memory(const char *path);
/*
 * The URI that opens the file the read-only store in reads, read-only, as
 * SQLite should, malloc'd: its private copy (a WAL file on read-only media
 * whose log holds commits: store_open.c), or immutable for a WAL file on
 * read-only media with an empty log (no -shm beside it, none creatable),
 * else mode=ro.  store_open.c.
 */
char *store_readonly_uri(const struct store *in);
/*
 * 0 when every object in s's file is one of contend's at schema version
 * version, as db/schema.sql defines it, and each of those is there;
 * STORE_BAD_FILE after naming each that is not; -1 when it cannot be
 * read.  store_schema.c.
 */
int store_schema_verify(struct store *s, int version);
/*
 * Writes the contract's keys into the experiments stored before them
 * (contract_from_config): experiment, or every one when 0.  In the
 * caller's transaction; 0, or -1 after db_fail.
 */
int store_contract_migrate(struct store *s, int64_t experiment);
/*
 * The host facts older versions stored as sentences rewritten as words
 * (fact_word, db/facts.h): experiment's, or every one's when 0.  In the
 * caller's transaction; 0, or -1 after db_fail.
 */
int store_facts_migrate(struct store *s, int64_t experiment);

/*
 * The text of run_threads.ops and run_timeline.ops: a JSON array of
 * unsigned 64-bit counts (thread_ops.c).  thread_ops_format writes n
 * counts into s->buf; thread_ops_parse appends those of text to *v (*n
 * of them so far), -1 when text is not such an array.
 */
const char *thread_ops_format(struct store *s, size_t n, const uint64_t *v);
int thread_ops_parse(const char *text, uint64_t **v, size_t *n);

#endif
