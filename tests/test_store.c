/*
 * test_store.c - the SQLite store: round trips in memory and on disk,
 * refusal of foreign, newer, truncated and missing files (left unmodified),
 * read-only opens, hostile strings, selectors, resume and re-recording.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db/store.h"
#include "lib/util.h"
#include "tests/checks.h"
#include "tests/store_fixture.h"
#include "tests/tmpdir.h"

static const struct fx_names plain = {
	"lockdep-effect", "v6.1", "mutex", "mutex-4", NULL,
};

/* Hostile strings: quotes, semicolons, SQL comments, newlines, UTF-8. */
static const struct fx_names hostile = {
	"x'); DROP TABLE runs; --",
	"\"; DELETE FROM samples; /* \\ */",
	"a'b\"c;d,e\nf",
	"' OR '1'='1",
	"died: 'quote' \"dq\" ; -- π ✓",
};

struct ctx {
	char dir[64];   /* first: see tmpdir_teardown */
	char path[128];
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c || tmpdir_create(c->dir, sizeof(c->dir), "store")) {
		free(c);
		return -1;
	}
	snprintf(c->path, sizeof(c->path), "%s/t.db", c->dir);
	*state = c;
	return 0;
}

/* ---- stderr capture, to check what the user is told ---- */

static int saved_fd = -1;
static FILE *capture;
static char captured[4096];

static void capture_start(void)
{
	fflush(stderr);
	capture = tmpfile();
	assert_non_null(capture);
	saved_fd = dup(2);
	assert_true(saved_fd >= 0);
	assert_true(dup2(fileno(capture), 2) >= 0);
}

static const char *capture_end(void)
{
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	rewind(capture);
	n = fread(captured, 1, sizeof(captured) - 1, capture);
	captured[n] = '\0';
	fclose(capture);
	return captured;
}

/* ---- files ---- */

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void raw_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static long long raw_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Builds the fixture in a fresh database at path and closes it. */
static int64_t build_file(const char *path, const struct fx_names *nm)
{
	int64_t id = fx_build_file(path, nm, NULL);

	assert_true(id > 0);
	return id;
}

static void load_and_check(struct store *s, int64_t id,
			   const struct fx_names *nm)
{
	struct dataset d;
	const char *diff;

	assert_int_equal(store_load(s, id, &d), 0);
	diff = fx_check(&d, nm);
	if (diff)
		fail_msg("dataset differs: %s", diff);
	dataset_release(&d);
}

/* ---- cases ---- */

static void roundtrip_memory(void **state)
{
	struct store *s;
	int64_t id;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	id = fx_build(s, &plain);
	assert_true(id > 0);
	load_and_check(s, id, &plain);
	store_close(s);
}

static void roundtrip_disk(void **state)
{
	struct ctx *c = *state;
	struct store *s;
	int64_t *ids, id = build_file(c->path, &plain);
	sqlite3 *db;

	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), 0);
	assert_int_equal(store_experiment_find(s, NULL, &ids), 1);
	assert_int_equal(ids[0], id);
	free(ids);
	load_and_check(s, id, &plain);
	store_close(s);

	assert_int_equal(sqlite3_open(c->path, &db), SQLITE_OK);
	assert_int_equal(raw_int(db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	/* env_pad is not part of the dataset: check it in the table. */
	assert_int_equal(raw_int(db, "SELECT env_pad FROM runs WHERE seq = 4"), 4);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM runs WHERE"
				     " env_pad IS NULL"), 1);
	sqlite3_close(db);
}

static void wal_and_foreign_keys(void **state)
{
	struct ctx *c = *state;
	struct store *s;
	sqlite3_stmt *st;

	assert_int_equal(store_open(c->path, STORE_CREATE, &s), 0);
	assert_int_equal(sqlite3_prepare_v2(store_db(s), "PRAGMA journal_mode",
					    -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	assert_int_equal(raw_int(store_db(s), "PRAGMA foreign_keys"), 1);
	assert_int_equal(raw_int(store_db(s), "PRAGMA busy_timeout"), 10000);
	store_close(s);
}

/* The runner's cap on the page cache: set in KiB, refused when not > 0. */
static void cache_limit(void **state)
{
	struct ctx *c = *state;
	struct store *s;

	assert_int_equal(store_open(c->path, STORE_CREATE, &s), 0);
	assert_int_equal(store_cache_limit(s, 256), 0);
	assert_int_equal(raw_int(store_db(s), "PRAGMA cache_size"), -256);
	capture_start();
	assert_int_equal(store_cache_limit(s, 0), -1);
	assert_contains(capture_end(), "not a size");
	assert_int_equal(raw_int(store_db(s), "PRAGMA cache_size"), -256);
	store_close(s);
}

static void injection_roundtrip(void **state)
{
	struct ctx *c = *state;
	struct store *s;
	int64_t *ids, id = build_file(c->path, &hostile);

	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), 0);
	assert_int_equal(store_experiment_find(s, hostile.name, &ids), 1);
	assert_int_equal(ids[0], id);
	free(ids);
	assert_int_equal(store_experiment_find(s, hostile.label, &ids), 1);
	assert_int_equal(ids[0], id);
	free(ids);
	load_and_check(s, id, &hostile);
	/* Every table survived the names. */
	assert_int_equal(raw_int(store_db(s), "SELECT count(*) FROM sqlite_schema"
					      " WHERE type = 'table' AND name IN"
					      " ('experiments', 'experiment_meta',"
					      " 'configs', 'config_params', 'runs',"
					      " 'samples', 'run_threads')"), 7);
	store_close(s);
}

/*
 * Opens path in every mode and expects each to fail with msg, as bad input
 * (STORE_BAD_FILE: exit status 2).
 */
static void refuse_all_modes(const char *path, const char *msg)
{
	static const unsigned modes[] = { STORE_RDONLY, 0, STORE_CREATE };
	struct store *s;
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		capture_start();
		s = (struct store *)&s;
		assert_int_equal(store_open(path, modes[i], &s), STORE_BAD_FILE);
		assert_null(s);
		assert_contains(capture_end(), msg);
		assert_contains(captured, path);
	}
}

static void newer_schema_refused(void **state)
{
	struct ctx *c = *state;
	size_t n;
	char *before;

	build_file(c->path, &plain);
	raw_exec(c->path, "PRAGMA user_version = 99");
	before = slurp(c->path, &n);
	refuse_all_modes(c->path, "written by a newer contend (schema 99 > 2)");
	assert_file_holds(c->path, before, n);
	free(before);
}

static void not_a_database_refused(void **state)
{
	struct ctx *c = *state;
	static const char text[] =
		"This is a plain text file, long enough to fill the header of "
		"a SQLite database and then some more text, not a database.\n";

	spit(c->path, text);
	refuse_all_modes(c->path, "file is not a database");
	assert_file_holds(c->path, text, strlen(text));
	assert_int_equal(tmpdir_entries(c->dir), 1);
}

static void truncated_refused(void **state)
{
	struct ctx *c = *state;
	struct store *s;
	struct stat st;

	build_file(c->path, &plain);
	assert_int_equal(stat(c->path, &st), 0);
	assert_true(st.st_size >= 4L * 4096);
	assert_int_equal(truncate(c->path, st.st_size / 2), 0);
	capture_start();
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), STORE_BAD_FILE);
	assert_contains(capture_end(), "truncated or corrupt");
	assert_int_equal(stat(c->path, &st), 0);
}

static void foreign_sqlite_refused(void **state)
{
	struct ctx *c = *state;

	raw_exec(c->path, "CREATE TABLE notes (x TEXT)");
	refuse_all_modes(c->path, "not a contend database");
}

static void missing_file(void **state)
{
	struct ctx *c = *state;
	struct store *s;

	capture_start();
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), STORE_BAD_FILE);
	assert_contains(capture_end(), c->path);
	capture_start();
	assert_int_equal(store_open(c->path, 0, &s), STORE_BAD_FILE);
	assert_contains(capture_end(), "No such file");
	assert_int_equal(tmpdir_entries(c->dir), 0);
}

/* A directory named as the database, in every mode: bad input. */
static void directory_refused(void **state)
{
	struct ctx *c = *state;

	assert_int_equal(mkdir(c->path, 0700), 0);
	refuse_all_modes(c->path, "it is a directory");
	assert_int_equal(rmdir(c->path), 0);
}

/*
 * The exit statuses: a bad file is bad input (2), every other failure a
 * runtime error (1) -- docs/RELIABILITY.md.
 */
static void exit_statuses(void **state)
{
	(void)state;
	assert_int_equal(store_exit_status(STORE_BAD_FILE), EXIT_USAGE);
	assert_int_equal(store_exit_status(-1), EXIT_RUNTIME);
}

/* A write-protected file is refused for writing, readable read-only. */
static void write_protected_file(void **state)
{
	struct ctx *c = *state;
	struct store *s;
	size_t n;
	char *before;

	build_file(c->path, &plain);
	assert_int_equal(chmod(c->path, 0444), 0);
	if (geteuid() == 0) {
		/* root writes through file permissions: nothing to test. */
		skip();
	}
	before = slurp(c->path, &n);
	/* An environment problem, not bad input: -1, exit status 1. */
	capture_start();
	assert_int_equal(store_open(c->path, STORE_CREATE, &s), -1);
	assert_contains(capture_end(), "read-only");
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), 0);
	store_close(s);
	assert_file_holds(c->path, before, n);
	free(before);
}

static void readonly_leaves_file_identical(void **state)
{
	struct ctx *c = *state;
	struct store *s;
	struct dataset d;
	struct pending_run *p;
	size_t n0, np;
	int64_t *ids, id = build_file(c->path, &plain);
	char *before = slurp(c->path, &n0), side[160];
	struct stat sb;

	assert_int_equal(tmpdir_entries(c->dir), 1);
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), 0);
	assert_int_equal(store_experiment_find(s, "v6.1", &ids), 1);
	free(ids);
	assert_int_equal(store_load(s, id, &d), 0);
	dataset_release(&d);
	assert_int_equal(store_pending_runs(s, id, &p, &np), 0);
	free(p);
	capture_start();
	assert_int_equal(store_experiment_status(s, id, "complete"), -1);
	assert_contains(capture_end(), "readonly");
	store_close(s);
	assert_file_holds(c->path, before, n0);
	free(before);
	/*
	 * A WAL reader may leave SQLite's side files (an empty -wal and the
	 * -shm index), never data; the next writer to close removes them.
	 */
	snprintf(side, sizeof(side), "%s-wal", c->path);
	assert_true(stat(side, &sb) || sb.st_size == 0);
	assert_int_equal(store_open(c->path, 0, &s), 0);
	store_close(s);
	assert_int_equal(tmpdir_entries(c->dir), 1);
}

static void find_selectors(void **state)
{
	static const struct {
		const char *name, *label;
		double created;
	} exps[] = {
		{ "alpha", "v1", 100 }, { "beta", "v1", 200 },
		{ "alpha", "v2", 300 }, { "2", "v3", 50 },
	};
	struct store *s;
	int64_t id[4], *ids;
	char *uuid[4], upper[40];
	size_t i;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	for (i = 0; i < 4; i++) {
		struct experiment_row e = { 0 };

		e.name = (char *)exps[i].name;
		e.label = (char *)exps[i].label;
		e.created_at = exps[i].created;
		assert_int_equal(store_experiment_create(s, &e), 0);
		id[i] = e.id;
		uuid[i] = e.uuid;
	}
	/* Numeric id wins over the experiment named "2". */
	assert_int_equal(store_experiment_find(s, "2", &ids), 1);
	assert_int_equal(ids[0], id[1]);
	free(ids);
	assert_int_equal(store_experiment_find(s, uuid[1], &ids), 1);
	assert_int_equal(ids[0], id[1]);
	free(ids);
	for (i = 0; uuid[1][i]; i++)
		upper[i] = (char)toupper((unsigned char)uuid[1][i]);
	upper[i] = '\0';
	assert_int_equal(store_experiment_find(s, upper, &ids), 1);
	assert_int_equal(ids[0], id[1]);
	free(ids);
	assert_int_equal(store_experiment_find(s, "alpha", &ids), 2);
	assert_int_equal(ids[0], id[0]);
	assert_int_equal(ids[1], id[2]);
	free(ids);
	assert_int_equal(store_experiment_find(s, "v1", &ids), 2);
	assert_int_equal(ids[0], id[0]);
	assert_int_equal(ids[1], id[1]);
	free(ids);
	/* Newest by creation time, not by id. */
	assert_int_equal(store_experiment_find(s, NULL, &ids), 1);
	assert_int_equal(ids[0], id[2]);
	free(ids);
	assert_int_equal(store_experiment_find(s, "nope", &ids), 0);
	assert_null(ids);
	assert_int_equal(store_experiment_find(s, "", &ids), 0);
	assert_int_equal(store_experiment_find(s, "99", &ids), 0);
	assert_int_equal(store_experiment_list(s, &ids), 4);
	assert_int_equal(ids[0], id[3]);
	assert_int_equal(ids[1], id[0]);
	assert_int_equal(ids[2], id[1]);
	assert_int_equal(ids[3], id[2]);
	free(ids);
	for (i = 0; i < 4; i++)
		free(uuid[i]);
	store_close(s);
}

static void find_in_empty_database(void **state)
{
	struct store *s;
	int64_t *ids;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	assert_int_equal(store_experiment_find(s, NULL, &ids), 0);
	assert_int_equal(store_experiment_list(s, &ids), 0);
	store_close(s);
}

static void uuid_v4(void **state)
{
	struct experiment_row a = { 0 }, b = { 0 }, got;
	struct store *s;
	size_t i;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	a.name = b.name = (char *)"u";
	assert_int_equal(store_experiment_create(s, &a), 0);
	assert_int_equal(store_experiment_create(s, &b), 0);
	assert_int_equal(strlen(a.uuid), 36);
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23)
			assert_int_equal(a.uuid[i], '-');
		else
			assert_non_null(strchr("0123456789abcdef", a.uuid[i]));
	}
	assert_int_equal(a.uuid[14], '4');
	assert_non_null(strchr("89ab", a.uuid[19]));
	assert_string_not_equal(a.uuid, b.uuid);
	/* A given uuid (as merge passes) is kept; duplicates are refused. */
	free(b.uuid);
	b.uuid = strdup(a.uuid);
	b.id = 0;
	capture_start();
	assert_int_equal(store_experiment_create(s, &b), -1);
	assert_contains(capture_end(), "UNIQUE");
	assert_int_equal(store_experiment_get(s, a.id, &got), 0);
	assert_string_equal(got.uuid, a.uuid);
	assert_string_equal(got.status, "planned");
	assert_true(got.finished_at <= 0);
	experiment_row_release(&got);
	free(a.uuid);
	free(b.uuid);
	store_close(s);
}

static void experiment_status(void **state)
{
	struct experiment_row e = { 0 }, got;
	struct store *s;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	e.name = (char *)"st";
	assert_int_equal(store_experiment_create(s, &e), 0);
	assert_int_equal(store_experiment_status(s, e.id, "complete"), 0);
	assert_int_equal(store_experiment_get(s, e.id, &got), 0);
	assert_string_equal(got.status, "complete");
	assert_true(got.finished_at > 0);
	experiment_row_release(&got);
	/* A resumed experiment is unfinished again. */
	assert_int_equal(store_experiment_status(s, e.id, "running"), 0);
	assert_int_equal(store_experiment_get(s, e.id, &got), 0);
	assert_true(got.finished_at <= 0);
	experiment_row_release(&got);
	capture_start();
	assert_int_equal(store_experiment_status(s, e.id, "completed"), -1);
	assert_contains(capture_end(), "invalid experiment status");
	capture_start();
	assert_int_equal(store_experiment_status(s, e.id + 7, "failed"), -1);
	assert_contains(capture_end(), "no experiment");
	capture_start();
	assert_int_equal(store_experiment_get(s, e.id + 7, &got), -1);
	assert_contains(capture_end(), "no experiment");
	free(e.uuid);
	store_close(s);
}

/* The run ids of the fixture experiment, indexed by seq. */
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
	assert_int_equal(store_version(s), 2);
	assert_int_equal(raw_int(store_db(s), "PRAGMA user_version"), 2);
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

static void profile_roundtrip(void **state)
{
	const struct profile_row rows[2] = {
		{ 0, (char *)"do_futex+0x183", (char *)"spinlock", 13502,
		  0.0535, 90.05e-6 },
		{ 0, (char *)"osq_lock+0x4a", (char *)"mutex", 12, 68e-6, 8e-6 },
	};
	struct profile_row *p;
	struct store *s;
	int64_t run[FX_NRUNS] = { 0 }, id;
	size_t n;

	(void)state;
	s = fixture_in_memory(&id, run);
	assert_int_equal(store_profile_put(s, 2, rows, 2), 0);
	assert_int_equal(store_profile_put(s, 1, rows + 1, 1), 0);
	assert_int_equal(store_profile_put(s, 2, rows, 2), 0); /* replaces */
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
	/* Rows inserted into the view (thread order) reach the loader. */
	assert_int_equal(store_run_plan(s, e.id, cfg, 1, 1, false, &run), 0);
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

static void default_path(void **state)
{
	char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;

	(void)state;
	assert_int_equal(setenv("CONTEND_DB", "/tmp/elsewhere.db", 1), 0);
	assert_string_equal(store_default_path(), "/tmp/elsewhere.db");
	assert_int_equal(setenv("XDG_DATA_HOME", "/x/data", 1), 0);
	assert_int_equal(setenv("HOME", "/home/u", 1), 0);
	/* an empty CONTEND_DB is ignored */
	assert_int_equal(setenv("CONTEND_DB", "", 1), 0);
	assert_string_equal(store_default_path(), "/x/data/contend/contend.db");
	assert_int_equal(unsetenv("CONTEND_DB"), 0);
	assert_string_equal(store_default_path(), "/x/data/contend/contend.db");
	/* a relative XDG_DATA_HOME is ignored, as the spec says */
	assert_int_equal(setenv("XDG_DATA_HOME", "rel", 1), 0);
	assert_string_equal(store_default_path(),
			    "/home/u/.local/share/contend/contend.db");
	assert_int_equal(unsetenv("XDG_DATA_HOME"), 0);
	assert_string_equal(store_default_path(),
			    "/home/u/.local/share/contend/contend.db");
	assert_int_equal(unsetenv("HOME"), 0);
	assert_string_equal(store_default_path(), STORE_DEFAULT_PATH);
	if (home)
		assert_int_equal(setenv("HOME", home, 1), 0);
	free(home);
}

static void status_names(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < RUN_NSTATUS; i++)
		assert_int_equal(run_status_parse(run_status_names[i]), i);
	assert_string_equal(run_status_names[RUN_OK], "ok");
	assert_string_equal(run_status_names[RUN_TIMEOUT], "timeout");
	assert_int_equal(run_status_parse("OK"), -1);
	assert_int_equal(run_status_parse(""), -1);
}

static void meta_lookup(void **state)
{
	struct store *s;
	struct experiment_row e;
	int64_t id;

	(void)state;
	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	id = fx_build(s, &plain);
	assert_int_equal(store_experiment_get(s, id, &e), 0);
	assert_string_equal(experiment_meta(&e, "hostname"), "testhost");
	assert_string_equal(experiment_meta(&e, "cpus"), "2");
	assert_null(experiment_meta(&e, "governor"));
	experiment_row_release(&e);
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(roundtrip_memory),
		cmocka_unit_test_setup_teardown(roundtrip_disk, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(wal_and_foreign_keys, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(cache_limit, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(injection_roundtrip, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(newer_schema_refused, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(not_a_database_refused, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(truncated_refused, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(foreign_sqlite_refused, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(missing_file, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(directory_refused, setup,
						tmpdir_teardown),
		cmocka_unit_test(exit_statuses),
		cmocka_unit_test_setup_teardown(write_protected_file, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(readonly_leaves_file_identical,
						setup, tmpdir_teardown),
		cmocka_unit_test(find_selectors),
		cmocka_unit_test(find_in_empty_database),
		cmocka_unit_test(uuid_v4),
		cmocka_unit_test(experiment_status),
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
		cmocka_unit_test(default_path),
		cmocka_unit_test(status_names),
		cmocka_unit_test(meta_lookup),
	};

	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
