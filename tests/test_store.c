/*
 * test_store.c - the SQLite store, opening: round trips in memory and on
 * disk, refusal of foreign, newer, truncated and missing files (left
 * unmodified), read-only opens, hostile strings, selectors, experiment
 * rows.  Recording and loading runs: tests/test_store_runs.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/store_helpers.h"

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
	char *before, *want;
	size_t n;

	build_file(c->path, &plain);
	raw_exec(c->path, "PRAGMA user_version = 99");
	before = slurp(c->path, &n);
	/* the newest schema this contend knows, whichever it is */
	want = xasprintf("written by a newer contend (schema 99 > %d)",
			 STORE_SCHEMA_VERSION);
	refuse_all_modes(c->path, want);
	free(want);
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
		cmocka_unit_test(default_path),
		cmocka_unit_test(status_names),
		cmocka_unit_test(meta_lookup),
	};

	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
