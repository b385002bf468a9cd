/*
 * test_contract.c - the runner-analysis contract (db/contract.h): the
 * stored names of a section's keys, as docs/STORAGE.md spells them; the
 * keys of an experiment stored before them, read from its config text;
 * and a schema 3 database with such an experiment: read-only it gets them
 * in memory and stays as it was, opened for writing it is upgraded and
 * gets them in the file, once, beside the keys it had.
 */
#include "tests/store_helpers.h"

#include "db/contract.h"

static void test_key_names(void **state)
{
	static const struct {
		enum contract_key k;
		const char *metric, *want;
	} cases[] = {
		{ CK_PRIMARY, NULL, "primary.sec" },
		{ CK_DIRECTION, "latency", "direction.sec.latency" },
		{ CK_REPETITIONS, NULL, "repetitions.sec" },
		{ CK_AUTO_PRECISION, NULL, "auto.sec.precision" },
		{ CK_AUTO_MIN, NULL, "auto.sec.min_repetitions" },
		{ CK_AUTO_MAX, NULL, "auto.sec.max_repetitions" },
	};
	struct experiment_row e = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *key = contract_key(cases[i].k, "sec", cases[i].metric);

		assert_string_equal(key, cases[i].want);
		assert_true(contract_section_key(key));
		free(key);
		contract_set(&e, cases[i].k, "sec", cases[i].metric, "v");
		assert_string_equal(experiment_meta(&e, cases[i].want), "v");
		assert_string_equal(contract_get(&e, cases[i].k, "sec",
						 cases[i].metric), "v");
	}
	assert_int_equal(e.nmeta, ARRAY_SIZE(cases));
	contract_set(&e, CK_PRIMARY, "sec", NULL, "w");
	assert_int_equal(e.nmeta, ARRAY_SIZE(cases));
	assert_string_equal(experiment_meta(&e, "primary.sec"), "w");
	assert_null(contract_get(&e, CK_PRIMARY, "other", NULL));
	assert_false(contract_section_key("hostname"));
	assert_false(contract_section_key("primaryx"));
	assert_false(contract_section_key("automatic"));
	experiment_row_release(&e);
}

/* An [experiment] default, a section's own key, the old defaults; a
 * section not auto, and one whose key the experiment already has. */
static const char old_text[] =
	"[experiment]\nname = old\nrepetitions = auto\nmin_repetitions = 3\n"
	"[workload a]\ntype = noop\nprecision = 0.1\n"
	"[workload  b]\ntype = noop\nmax_repetitions = 9\n"
	"[workload c]\ntype = noop\nrepetitions = 4\n"
	"[workload d]\ntype = noop\n";

static const char *const old_keys[][2] = {
	{ "repetitions.a", "auto" },
	{ "auto.a.precision", "0.1" },
	{ "auto.a.min_repetitions", "3" },
	{ "auto.a.max_repetitions", "30" },
	{ "repetitions.b", "auto" },
	{ "auto.b.precision", "0.02" },
	{ "auto.b.min_repetitions", "3" },
	{ "auto.b.max_repetitions", "9" },
};

static void assert_old_keys(const struct experiment_row *e)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(old_keys); i++) {
		const char *v = experiment_meta(e, old_keys[i][0]);

		assert_non_null(v);
		assert_string_equal(v, old_keys[i][1]);
	}
	assert_null(experiment_meta(e, "repetitions.c"));
	assert_null(experiment_meta(e, "auto.c.precision"));
	/* d's, stored, is kept; none of the rule's are added */
	assert_string_equal(experiment_meta(e, "repetitions.d"), "7");
	assert_null(experiment_meta(e, "auto.d.precision"));
}

static void test_from_config(void **state)
{
	struct experiment_row e = { 0 };

	(void)state;
	e.config_text = xstrdup(old_text);
	meta_set(&e, "repetitions.d", "7");
	contract_from_config(&e);
	assert_old_keys(&e);
	assert_int_equal(e.nmeta, 1 + ARRAY_SIZE(old_keys));
	/* a second time adds nothing */
	contract_from_config(&e);
	assert_int_equal(e.nmeta, 1 + ARRAY_SIZE(old_keys));
	experiment_row_release(&e);
	e.config_text = xstrdup("[experiment]\nrepetitions = 5\n"
				"[workload a]\ntype = noop\n");
	contract_from_config(&e);
	assert_int_equal(e.nmeta, 0);
	experiment_row_release(&e);
}

/* The file at path as contend stored it before the keys: schema 3. */
static int64_t old_database(const char *path)
{
	struct experiment_row e = { 0 };
	struct store *s;

	assert_int_equal(store_open(path, STORE_CREATE, &s), 0);
	e.name = xstrdup("old");
	e.label = xstrdup("");
	e.config_path = xstrdup("old.ini");
	e.config_text = xstrdup(old_text);
	e.order = xstrdup("blocked");
	e.status = xstrdup("complete");
	e.confidence = 0.95;
	e.created_at = 1;
	meta_set(&e, "hostname", "h");
	meta_set(&e, "repetitions.d", "7");
	assert_int_equal(store_experiment_create(s, &e), 0);
	store_close(s);
	experiment_row_release(&e);
	raw_exec(path, "PRAGMA user_version = 3");
	return 1;
}

static long long meta_rows(const char *path)
{
	sqlite3 *db;
	long long n;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	n = raw_int(db, "SELECT count(*) FROM experiment_meta");
	sqlite3_close(db);
	return n;
}

static void test_old_database(void **state)
{
	struct ctx *c = *state;
	struct experiment_row e;
	struct store *s;
	sqlite3 *db;
	int64_t id = old_database(c->path);

	/* read-only: the keys in memory, the file untouched */
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), 0);
	assert_int_equal(store_version(s), 3);
	assert_int_equal(store_experiment_get(s, id, &e), 0);
	assert_old_keys(&e);
	experiment_row_release(&e);
	store_close(s);
	assert_int_equal(meta_rows(c->path), 2);

	/* opened for writing: upgraded, the keys in the file */
	assert_int_equal(store_open(c->path, 0, &s), 0);
	assert_int_equal(store_version(s), STORE_SCHEMA_VERSION);
	store_close(s);
	assert_int_equal(meta_rows(c->path), 2 + ARRAY_SIZE(old_keys));
	assert_int_equal(sqlite3_open(c->path, &db), SQLITE_OK);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM experiment_meta"
				 " WHERE key = 'auto.b.max_repetitions'"
				 " AND value = '9'"), 1);
	assert_int_equal(raw_int(db, "PRAGMA user_version"),
			 STORE_SCHEMA_VERSION);
	sqlite3_close(db);
	assert_int_equal(store_open(c->path, STORE_RDONLY, &s), 0);
	assert_int_equal(store_experiment_get(s, id, &e), 0);
	assert_old_keys(&e);
	assert_int_equal(e.nmeta, 2 + ARRAY_SIZE(old_keys));
	experiment_row_release(&e);
	store_close(s);

	/* once: opening it again writes nothing */
	assert_int_equal(store_open(c->path, 0, &s), 0);
	store_close(s);
	assert_int_equal(meta_rows(c->path), 2 + ARRAY_SIZE(old_keys));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_from_config),
		cmocka_unit_test_setup_teardown(test_old_database, setup,
						tmpdir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
