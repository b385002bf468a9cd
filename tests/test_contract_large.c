/*
 * test_contract_large.c - the contract's keys of old experiments at the
 * sizes a received file may hold (issue 37, item 2: an upgrade took 112 s
 * at 40k sections, linear look-ups of sections and of meta keys): the
 * keys right at the INI loader's section limit, sections named twice,
 * none past the limit and none from a text over the file limit; meta by
 * key in an experiment of 100k keys; an old database with the limit's
 * sections and 20k other keys upgraded whole.  The scaling itself is
 * bench/migrate.sh's (no timing here).
 */
#include "tests/store_helpers.h"

#include "db/contract.h"
#include "lib/strmap.h"

/* S workload sections w0 .. w(S-1), repetitions = auto from [experiment];
 * with twice, each named again with its own min_repetitions = 3. */
static char *sections(size_t S, bool twice)
{
	size_t cap = 64 + S * 128, n, i;
	char *t = xmalloc(cap);

	n = (size_t)sprintf(t, "[experiment]\nrepetitions = auto\n");
	for (i = 0; i < S; i++)
		n += (size_t)sprintf(t + n, "[workload w%zu]\ntype = noop\n", i);
	for (i = 0; twice && i < S; i++)
		n += (size_t)sprintf(t + n, "[workload w%zu]\nmin_repetitions"
				     " = 3\n", i);
	return t;
}

static void check_section(const struct experiment_row *e, size_t i,
			  bool want, const char *min)
{
	char name[32];
	const char *v;

	snprintf(name, sizeof(name), "w%zu", i);
	v = contract_get(e, CK_REPETITIONS, name, NULL);
	if (!want) {
		if (v)
			fail_msg("section %s past the limit has keys", name);
		return;
	}
	if (!v || strcmp(v, "auto"))
		fail_msg("section %s: repetitions %s", name, v ? v : "absent");
	v = contract_get(e, CK_AUTO_MIN, name, NULL);
	if (!v || strcmp(v, min))
		fail_msg("section %s: min_repetitions %s, want %s", name,
			 v ? v : "absent", min);
	v = contract_get(e, CK_AUTO_MAX, name, NULL);
	assert_non_null(v);
	assert_string_equal(v, "30");
}

/* The loader takes CONFIG_MAX_SECTIONS sections, [experiment] one of
 * them: every workload section then has its four keys, a section named
 * twice its later value; past the limit, the rest have none. */
static void test_section_limit(void **state)
{
	static const size_t S[] = { CONFIG_MAX_SECTIONS - 1,
				    CONFIG_MAX_SECTIONS + 500 };
	size_t c, i;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(S); c++) {
		struct experiment_row e = { 0 };

		e.config_text = sections(S[c], true);
		contract_from_config(&e);
		assert_int_equal(e.nmeta, 4 * (CONFIG_MAX_SECTIONS - 1));
		for (i = 0; i < S[c]; i++)
			check_section(&e, i, i < CONFIG_MAX_SECTIONS - 1, "3");
		experiment_row_release(&e);
	}
}

/* A text over CONFIG_MAX_FILE bytes is not read: no keys. */
static void test_file_limit(void **state)
{
	struct experiment_row e = { 0 };
	size_t n;

	(void)state;
	e.config_text = xmalloc(CONFIG_MAX_FILE + 2);
	n = (size_t)sprintf(e.config_text, "[experiment]\nrepetitions = auto\n"
			    "[workload a]\ntype = noop\n");
	memset(e.config_text + n, ';', CONFIG_MAX_FILE + 1 - n);
	e.config_text[CONFIG_MAX_FILE + 1] = '\0';
	contract_from_config(&e);
	assert_int_equal(e.nmeta, 0);
	/* one byte less: read */
	e.config_text[CONFIG_MAX_FILE] = '\0';
	contract_from_config(&e);
	assert_int_equal(e.nmeta, 4);
	experiment_row_release(&e);
}

/* 100k keys set, a tenth set again, each found with its value; keys
 * appended by hand (as a fixture or a reader does) are found too, and
 * meta_set after them neither loses nor doubles one. */
static void test_meta_many(void **state)
{
	enum { N = 100000 };
	struct experiment_row e = { 0 };
	char key[32], val[32];
	size_t i;

	(void)state;
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof(key), "k.%zu", i);
		snprintf(val, sizeof(val), "%zu", i);
		meta_set(&e, key, val);
	}
	for (i = 0; i < N; i += 10) {
		snprintf(key, sizeof(key), "k.%zu", i);
		meta_set(&e, key, "again");
	}
	assert_int_equal(e.nmeta, N);
	for (i = 0; i < N; i++) {
		const char *v;

		snprintf(key, sizeof(key), "k.%zu", i);
		snprintf(val, sizeof(val), "%zu", i);
		v = experiment_meta(&e, key);
		assert_non_null(v);
		assert_string_equal(v, i % 10 ? val : "again");
		assert_string_equal(e.meta[i].key, key); /* order kept */
	}
	assert_null(experiment_meta(&e, "k.100000"));
	e.meta = xrealloc(e.meta, (N + 1) * sizeof(*e.meta));
	e.meta[N].key = xstrdup("by.hand");
	e.meta[N].value = xstrdup("1");
	e.nmeta++;
	assert_string_equal(experiment_meta(&e, "by.hand"), "1");
	meta_set(&e, "by.hand", "2");
	meta_set(&e, "k.7", "7b");
	assert_int_equal(e.nmeta, N + 1);
	assert_string_equal(experiment_meta(&e, "by.hand"), "2");
	assert_string_equal(experiment_meta(&e, "k.7"), "7b");
	experiment_row_release(&e);
}

/* An experiment of schema 3 with the limit's auto sections and 20k other
 * keys: the upgrade writes every section's four keys, once. */
static void test_upgrade_large(void **state)
{
	enum { OTHER = 20000 };
	struct ctx *c = *state;
	struct experiment_row e = { 0 }, got;
	struct store *s;
	sqlite3 *db;
	char key[32];
	size_t i;

	assert_int_equal(store_open(c->path, STORE_CREATE, &s), 0);
	e.name = xstrdup("old");
	e.label = xstrdup("");
	e.config_path = xstrdup("old.ini");
	e.config_text = sections(CONFIG_MAX_SECTIONS - 1, false);
	e.order = xstrdup("blocked");
	e.status = xstrdup("complete");
	e.confidence = 0.95;
	for (i = 0; i < OTHER; i++) {
		snprintf(key, sizeof(key), "kmsg.%zu", i);
		meta_set(&e, key, "x");
	}
	assert_int_equal(store_experiment_create(s, &e), 0);
	store_close(s);
	raw_exec(c->path, "PRAGMA user_version = 3");

	assert_int_equal(store_open(c->path, 0, &s), 0);
	assert_int_equal(store_experiment_get(s, e.id, &got), 0);
	for (i = 0; i < CONFIG_MAX_SECTIONS - 1; i++)
		check_section(&got, i, true, "5");
	experiment_row_release(&got);
	store_close(s);
	assert_int_equal(sqlite3_open(c->path, &db), SQLITE_OK);
	assert_int_equal(raw_int(db, "SELECT count(*) FROM experiment_meta"),
			 OTHER + 4 * (CONFIG_MAX_SECTIONS - 1));
	sqlite3_close(db);
	experiment_row_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_section_limit),
		cmocka_unit_test(test_file_limit),
		cmocka_unit_test(test_meta_many),
		cmocka_unit_test_setup_teardown(test_upgrade_large, setup,
						tmpdir_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
