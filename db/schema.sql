-- contend database schema (docs/STORAGE.md describes every column).
-- Every statement is idempotent (IF NOT EXISTS): store_open.c upgrades an
-- older database by running the whole script again.
-- The version lives in PRAGMA user_version and must equal
-- STORE_SCHEMA_VERSION in store.h; store_open.c refuses a database written
-- by a newer version, and runs this whole script in one transaction when it
-- creates a database.  Every foreign-key child column is the leading column
-- of an index, so cascades and joins never scan a table.
PRAGMA user_version = 6;

CREATE TABLE IF NOT EXISTS experiments (
	id          INTEGER PRIMARY KEY,
	uuid        TEXT NOT NULL UNIQUE,       -- identity across merged databases
	name        TEXT NOT NULL,
	label       TEXT NOT NULL DEFAULT '',
	config_path TEXT NOT NULL DEFAULT '',
	config_text TEXT NOT NULL DEFAULT '',
	seed        TEXT NOT NULL,              -- 64-bit unsigned, as decimal text
	run_order   TEXT NOT NULL,              -- blocked | random | sequential
	confidence  REAL NOT NULL DEFAULT 0.95,
	status      TEXT NOT NULL DEFAULT 'planned'
		CHECK (status IN ('planned', 'running', 'complete',
				  'interrupted', 'failed')),
	created_at  REAL NOT NULL,              -- unix time
	finished_at REAL                        -- NULL while unfinished
);
CREATE INDEX IF NOT EXISTS experiments_by_name ON experiments(name);
CREATE INDEX IF NOT EXISTS experiments_by_label ON experiments(label);

-- Host metadata and anything else known about an experiment, as key/value,
-- in insertion order (rowid).
CREATE TABLE IF NOT EXISTS experiment_meta (
	experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
	key           TEXT NOT NULL,
	value         TEXT NOT NULL,
	PRIMARY KEY (experiment_id, key)
);

CREATE TABLE IF NOT EXISTS configs (
	id            INTEGER PRIMARY KEY,
	experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
	pos           INTEGER NOT NULL,         -- order of expansion in the file
	workload      TEXT NOT NULL,            -- registered workload type
	section       TEXT NOT NULL,            -- [workload SECTION]
	canon         TEXT NOT NULL,            -- canonical parameters
	noise         REAL NOT NULL DEFAULT 0.05,
	timeout_s     REAL NOT NULL DEFAULT 0,
	UNIQUE (experiment_id, pos),
	UNIQUE (id, experiment_id)              -- target of runs' composite key
);

-- Every parameter of a configuration ("key=value", defaults included), in
-- the workload's table order.
CREATE TABLE IF NOT EXISTS config_params (
	config_id INTEGER NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
	pos       INTEGER NOT NULL,
	key       TEXT NOT NULL,
	value     TEXT NOT NULL,
	PRIMARY KEY (config_id, pos)
);

-- The plan: every run is written 'planned' before the first one starts,
-- with its place in the run order, so an interrupted experiment resumes
-- exactly.  A run's configuration belongs to the run's experiment.
CREATE TABLE IF NOT EXISTS runs (
	id            INTEGER PRIMARY KEY,
	experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
	config_id     INTEGER NOT NULL,
	seq           INTEGER NOT NULL,         -- position in the run order
	repetition    INTEGER NOT NULL,         -- 0-based within its configuration
	warmup        INTEGER NOT NULL DEFAULT 0 CHECK (warmup IN (0, 1)),
	status        TEXT NOT NULL DEFAULT 'planned'
		CHECK (status IN ('planned', 'ok', 'failed', 'crashed',
				  'timeout', 'protocol', 'interrupted')),
	error         TEXT,                     -- why a run is not ok
	started_at    REAL,                     -- unix time
	wall_s        REAL,                     -- spawn to reap, as the runner saw it
	env_pad       INTEGER,                  -- randomize_env padding length
	UNIQUE (experiment_id, seq),
	FOREIGN KEY (config_id, experiment_id)
		REFERENCES configs(id, experiment_id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS runs_by_config ON runs(config_id, seq);

-- One value per run and metric.  NaN is never stored: a metric a run did
-- not produce is simply absent.
CREATE TABLE IF NOT EXISTS samples (
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	metric TEXT NOT NULL,
	value  REAL NOT NULL,
	PRIMARY KEY (run_id, metric)
) WITHOUT ROWID;

-- Operations done by each thread (or process) of a run, for fairness: one
-- row per run holding a JSON array of 64-bit unsigned counts, thread i at
-- index i.  One row instead of one per thread keeps recording and loading
-- a 64-thread run cheap (docs/STORAGE.md has the figures).
CREATE TABLE IF NOT EXISTS run_threads (
	run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
	ops    TEXT NOT NULL                    -- e.g. [1200, 1187, 1210]
);

-- The same as one row per (run, thread), for SQL users and tools.  Counts
-- of 2^63 and above come out as REAL here; contend itself parses the text.
CREATE VIEW IF NOT EXISTS thread_samples (run_id, thread, ops) AS
	SELECT t.run_id, j.key, j.value
	FROM run_threads t, json_each(t.ops) j;

-- Tools that write a database themselves may insert per-thread rows, in
-- thread order; each lands in its run's array.
CREATE TRIGGER IF NOT EXISTS thread_samples_insert
INSTEAD OF INSERT ON thread_samples
BEGIN
	INSERT INTO run_threads (run_id, ops)
		VALUES (NEW.run_id, json_array(NEW.ops))
	ON CONFLICT (run_id) DO UPDATE
		SET ops = json_set(ops, '$[' || NEW.thread || ']', NEW.ops);
END;

-- Schema 2.  Per-thread operations in fixed intervals of a run with
-- `timeline = INTERVAL` (runner/workloads/probe.h), for the streak figure:
-- one row per run, thread-major: thread t's count in interval k is element
-- t * (len / threads) + k of the JSON array ops.
CREATE TABLE IF NOT EXISTS run_timeline (
	run_id     INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
	interval_s REAL NOT NULL,
	threads    INTEGER NOT NULL CHECK (threads > 0),
	ops        TEXT NOT NULL               -- e.g. [5,0,7, 0,6,0]
);

-- Schema 2.  The top contended kernel locks of a configuration's profile
-- run (`profile = lock`: one unmeasured run under `perf lock contention`),
-- by caller, in perf's order (most total wait first).  Written before
-- schema 5 only (profile = lock was removed); older rows are kept.
CREATE TABLE IF NOT EXISTS config_profile (
	config_id  INTEGER NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
	rank       INTEGER NOT NULL,           -- 1 = the most waited on
	caller     TEXT NOT NULL,              -- symbol+offset, as perf prints it
	lock_type  TEXT NOT NULL,              -- spinlock, mutex, rwsem:W ...
	contended  INTEGER NOT NULL,
	wait_s     REAL NOT NULL,              -- total wait
	max_wait_s REAL NOT NULL,
	PRIMARY KEY (config_id, rank)
) WITHOUT ROWID;

-- Schema 3.  A run's top kernel locks by wait, counted by the runner's BPF
-- program (runner/kbpf.h, docs/KLOCK.md): the run's own processes'
-- contended acquisitions summed per kind of lock and caller.
CREATE TABLE IF NOT EXISTS run_klock (
	run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	rank        INTEGER NOT NULL,          -- 1 = the most waited on
	kind        TEXT NOT NULL,             -- spin, mutex, rwsem_read ...
	caller      TEXT NOT NULL,             -- kernel function, '?' unknown
	lock        TEXT,                      -- its one lock; NULL: several
	nlocks      INTEGER NOT NULL,          -- distinct locks of the row
	contentions INTEGER NOT NULL,
	wait_s      REAL NOT NULL,             -- total wait of the run's tasks
	PRIMARY KEY (run_id, rank)
) WITHOUT ROWID;
