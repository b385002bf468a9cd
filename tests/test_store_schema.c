/*
 * test_store_schema.c - the schema check of db/store_schema.c: a database
 * holding anything contend did not create (a trigger on samples, runs or
 * experiments, a view named runs that never ends, an extra table or index,
 * a table of contend's name with other columns, contend's own index, view
 * or trigger redefined, a table missing) is refused in every mode, as bad
 * input, naming the object, and left as it was; a genuine database, one
 * written with other comments and layout, one SQLite analysed, and a
 * genuine schema 1 database (tests/data/schema-v1.sql, as contend wrote
 * it then) open, the last upgraded when opened to write.  And every
 * connection is defensive, its schema untrusted.
 */
#include "tests/store_helpers.h"

struct hostile_case {
	const char *name;
	const char *sql;   /* run on a fresh fixture database */
	const char *msg;   /* what the refusal must say */
};

/* The views' CTE never ends: a reader would hang. */
#define ENDLESS "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1" \
		" FROM n) "

static const struct hostile_case hostile_cases[] = {
	{ "a trigger on samples",
	  "CREATE TRIGGER evil AFTER INSERT ON samples BEGIN"
	  " UPDATE samples SET value = 42 WHERE run_id = NEW.run_id; END",
	  "trigger 'evil' on 'samples' is not contend's" },
	{ "a trigger on runs",
	  "CREATE TRIGGER r BEFORE UPDATE ON runs BEGIN"
	  " SELECT RAISE(IGNORE); END",
	  "trigger 'r' on 'runs' is not contend's" },
	{ "a trigger on experiments",
	  "CREATE TRIGGER e AFTER INSERT ON experiments BEGIN"
	  " DELETE FROM samples; END",
	  "trigger 'e' on 'experiments' is not contend's" },
	{ "a view named runs that never ends",
	  "PRAGMA foreign_keys = OFF; DROP TABLE runs;"
	  " CREATE VIEW runs AS " ENDLESS "SELECT i AS id FROM n",
	  "view 'runs' is not contend's (contend's is a table)" },
	{ "an extra table", "CREATE TABLE notes (x)",
	  "table 'notes' is not contend's" },
	{ "an extra index", "CREATE INDEX by_value ON samples(value)",
	  "index 'by_value' on 'samples' is not contend's" },
	{ "contend's table with an extra column",
	  "ALTER TABLE samples ADD COLUMN extra",
	  "table 'samples' differs from contend's definition" },
	{ "contend's table with other columns",
	  "PRAGMA foreign_keys = OFF; DROP TABLE run_threads;"
	  " CREATE TABLE run_threads (run_id INTEGER PRIMARY KEY, ops BLOB)",
	  "table 'run_threads' differs from contend's definition" },
	{ "contend's index on other columns",
	  "DROP INDEX runs_by_config; CREATE INDEX runs_by_config ON runs(seq)",
	  "index 'runs_by_config' on 'runs' differs" },
	{ "contend's view redefined",
	  "DROP VIEW thread_samples; CREATE VIEW thread_samples"
	  " (run_id, thread, ops) AS " ENDLESS "SELECT i, 0, 0 FROM n",
	  "view 'thread_samples' differs" },
	{ "contend's trigger redefined",
	  "DROP TRIGGER thread_samples_insert; CREATE TRIGGER"
	  " thread_samples_insert INSTEAD OF INSERT ON thread_samples BEGIN"
	  " DELETE FROM samples; END",
	  "trigger 'thread_samples_insert' on 'thread_samples' differs" },
	{ "a table of schema 2 missing",
	  "DROP TABLE config_profile",
	  "table 'config_profile' of contend's schema is missing" },
	{ "a name that would move the terminal",
	  "CREATE TABLE \"x\x1b[2Jy\" (a)",
	  "table 'x\\x1b[2Jy' is not contend's" },
};

/* Opens path in every mode and expects each to be refused with msg. */
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
		assert_contains(captured, "refusing a database whose schema");
	}
}

static void hostile_refused(void **state)
{
	struct ctx *c = *state;
	char wal[160];
	size_t i, n;

	snprintf(wal, sizeof(wal), "%s-wal", c->path);
	for (i = 0; i < ARRAY_SIZE(hostile_cases); i++) {
		const struct hostile_case *t = &hostile_cases[i];
		char *before;

		unlink(c->path);
		build_file(c->path, &plain);
		raw_exec(c->path, t->sql);
		before = slurp(c->path, &n);
		print_message("%s\n", t->name);
		refuse_all_modes(c->path, t->msg);
		assert_file_holds(c->path, before, n);
		assert_int_equal(access(wal, F_OK), -1);
		free(before);
	}
}

/* Many objects: the first few are named, then how many more. */
static void many_objects_counted(void **state)
{
	struct ctx *c = *state;
	struct store *s;

	build_file(c->path, &plain);
	raw_exec(c->path, "CREATE TABLE a1 (x); CREATE TABLE a2 (x);"
			  " CREATE TABLE a3 (x); CREATE TABLE a4 (x);"
			  " CREATE TABLE a5 (x); CREATE TABLE a6 (x);"
			  " CREATE TABLE a7 (x)");
	capture_start();
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), STORE_BAD_FILE);
	assert_contains(capture_end(), "table 'a5' is not contend's");
	assert_contains(captured, "and 2 more objects");
	assert_null(strstr(captured, "'a6'"));
}

extern const char store_schema_sql[];

/*
 * The schema as another contend might have written it: other comments
 * and layout at every line end.  With from and to, one string in it
 * replaced as well.  malloc'd.
 */
static char *relaid(const char *from, const char *to)
{
	const char *p;
	char *out = xstrdup(""), *next;

	for (p = store_schema_sql; *p; p++) {
		if (from && !strncmp(p, from, strlen(from))) {
			next = xasprintf("%s%s", out, to);
			p += strlen(from) - 1;
		} else if (*p == '\n') {
			next = xasprintf("%s /* old */\n   -- layout\n \t", out);
		} else {
			next = xasprintf("%s%c", out, *p);
		}
		free(out);
		out = next;
	}
	return out;
}

static void layout_and_comments_accepted(void **state)
{
	struct ctx *c = *state;
	char *sql = relaid(NULL, NULL);
	struct store *s;

	raw_exec(c->path, sql);
	free(sql);
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), 0);
	store_close(s);
	assert_int_equal(store_open(c->path, 0, &s), 0);
	store_close(s);
}

/* Laid out otherwise too, a constraint that differs is refused. */
static void constraint_difference_refused(void **state)
{
	struct ctx *c = *state;
	char *sql = relaid("'interrupted', 'failed'",
			   "'interrupted',\n  'failed', 'ok'");

	raw_exec(c->path, sql);
	free(sql);
	refuse_all_modes(c->path,
			 "table 'experiments' differs from contend's definition");
}

static void analysed_accepted(void **state)
{
	struct ctx *c = *state;
	int64_t id = build_file(c->path, &plain);
	struct store *s;

	raw_exec(c->path, "ANALYZE");
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), 0);
	load_and_check(s, id, &plain);
	store_close(s);
}

/*
 * A genuine schema 1 database with an experiment: the schema as contend
 * then wrote it (its comments differ), the fixture's rows copied in.  It
 * opens read-only as it is, and to write is upgraded to schema 2.
 */
static void schema_1_opens(void **state)
{
	static const char *const tables[] = {
		"experiments", "experiment_meta", "configs", "config_params",
		"runs", "samples", "run_threads",
	};
	struct ctx *c = *state;
	char v1[160], *old, *sql;
	struct store *s;
	int64_t id = build_file(c->path, &plain);
	size_t i, n;

	snprintf(v1, sizeof(v1), "%s/v1.db", c->dir);
	old = slurp("tests/data/schema-v1.sql", &n);
	raw_exec(v1, old);
	free(old);
	sql = xasprintf("ATTACH '%s' AS f", c->path);
	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		char *more = xasprintf("%s; INSERT INTO main.%s SELECT * FROM"
				       " f.%s", sql, tables[i], tables[i]);

		free(sql);
		sql = more;
	}
	raw_exec(v1, sql);
	free(sql);
	assert_int_equal(store_open(v1, STORE_RDONLY, &s), 0);
	assert_int_equal(store_version(s), 1);
	load_and_check(s, id, &plain);
	store_close(s);
	assert_int_equal(store_open(v1, 0, &s), 0);
	assert_int_equal(store_version(s), STORE_SCHEMA_VERSION);
	load_and_check(s, id, &plain);
	store_close(s);
	/* and the upgraded file is contend's current schema in full */
	assert_int_equal(store_open(v1, STORE_RDONLY, &s), 0);
	assert_int_equal(store_version(s), STORE_SCHEMA_VERSION);
	store_close(s);
}

/* Every connection: defensive, and the file's schema not trusted. */
static void connection_defensive(void **state)
{
	struct ctx *c = *state;
	static const unsigned modes[] = { STORE_RDONLY, 0 };
	struct store *s;
	size_t i;

	build_file(c->path, &plain);
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		int defensive = -1, trusted = -1;

		assert_int_equal(store_open(c->path, modes[i], &s), 0);
		sqlite3_db_config(store_db(s), SQLITE_DBCONFIG_DEFENSIVE, -1,
				  &defensive);
		sqlite3_db_config(store_db(s), SQLITE_DBCONFIG_TRUSTED_SCHEMA,
				  -1, &trusted);
		assert_int_equal(defensive, 1);
		assert_int_equal(trusted, 0);
		store_close(s);
	}
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(hostile_refused, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(many_objects_counted, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(layout_and_comments_accepted,
						setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(constraint_difference_refused, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(analysed_accepted, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(schema_1_opens, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(connection_defensive, setup,
						tmpdir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
