-- contend database schema.  The version lives in PRAGMA user_version;
-- store.c refuses a database written by a newer version.
PRAGMA user_version = 1;

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
	status      TEXT NOT NULL,              -- planned | running | complete | interrupted | failed
	created_at  REAL NOT NULL,              -- unix time
	finished_at REAL
);

-- Host metadata and anything else known about an experiment, as key/value.
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
	workload      TEXT NOT NULL,
	section       TEXT NOT NULL,
	canon         TEXT NOT NULL,            -- canonical parameters
	noise         REAL NOT NULL DEFAULT 0.05,
	timeout_s     REAL NOT NULL DEFAULT 0,
	UNIQUE (experiment_id, pos)
);

CREATE TABLE IF NOT EXISTS config_params (
	config_id INTEGER NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
	pos       INTEGER NOT NULL,
	key       TEXT NOT NULL,
	value     TEXT NOT NULL,
	PRIMARY KEY (config_id, pos)
);

CREATE TABLE IF NOT EXISTS runs (
	id            INTEGER PRIMARY KEY,
	experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE CASCADE,
	config_id     INTEGER NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
	seq           INTEGER NOT NULL,         -- position in the run order
	repetition    INTEGER NOT NULL,         -- 0-based within its configuration
	warmup        INTEGER NOT NULL DEFAULT 0,
	status        TEXT NOT NULL DEFAULT 'planned',
	error         TEXT,
	started_at    REAL,
	wall_s        REAL,                     -- spawn to reap, as the runner saw it
	env_pad       INTEGER,                  -- randomize_env padding length
	UNIQUE (experiment_id, seq)
);
CREATE INDEX IF NOT EXISTS runs_by_config ON runs(config_id, seq);

CREATE TABLE IF NOT EXISTS samples (
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	metric TEXT NOT NULL,
	value  REAL NOT NULL,
	PRIMARY KEY (run_id, metric)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS thread_samples (
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	thread INTEGER NOT NULL,
	ops    INTEGER NOT NULL,
	PRIMARY KEY (run_id, thread)
) WITHOUT ROWID;
