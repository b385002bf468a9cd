/*
 * test_calib_store.c - calibrate's profile in the store (calib_store,
 * calib_find): stored whole or not at all when a write fails half-way
 * (a full disk, made here by a temporary trigger that fails one key's
 * insert), a non-finite profile never stored (issue 37, item 6).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "analysis/calibrate.h"
#include "db/contract.h"
#include "lib/util.h"

static const struct calib_profile whole = {
	.k = 6, .n = 60, .s2_b = 1e-4, .s2_w = 4e-4, .splits = 10,
	.alarms = 1, .boots = 3, .runs = 10, .mde_pct = 2.5,
};

/* A calibrate experiment of host lab-3 in a new in-memory store. */
static struct store *open_one(int64_t *id)
{
	struct kv meta[] = { { (char *)MK_HOSTNAME, (char *)"lab-3" } };
	struct experiment_row e = { .name = (char *)"c",
				    .label = (char *)"calibrate",
				    .config_path = (char *)"",
				    .config_text = (char *)"",
				    .order = (char *)"blocked",
				    .confidence = 0.95, .nmeta = 1,
				    .meta = meta };
	struct store *s;

	assert_int_equal(store_open(":memory:", STORE_CREATE, &s), 0);
	assert_int_equal(store_experiment_create(s, &e), 0);
	free(e.uuid);
	*id = e.id;
	return s;
}

static long count_keys(struct store *s)
{
	sqlite3_stmt *st;
	long n = -1;

	assert_int_equal(sqlite3_prepare_v2(store_db(s),
		"SELECT count(*) FROM experiment_meta"
		" WHERE key LIKE 'calibrate.%'", -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* The insert of each key in turn fails: nothing of the profile stays,
 * and no profile is found; with no failure all 11 keys are stored. */
static void test_whole_or_nothing(void **state)
{
	static const char *const keys[] = {
		"workload", "params", "invocations", "s2_within", "mde_pct",
	};
	struct calib_profile p;
	int64_t id, at;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		struct store *s = open_one(&id);
		char *trig = xasprintf(
			"CREATE TEMP TRIGGER full BEFORE INSERT ON"
			" main.experiment_meta WHEN NEW.key ="
			" 'calibrate.m.%s' BEGIN SELECT RAISE(FAIL,"
			" 'database or disk is full'); END", keys[i]);

		assert_int_equal(sqlite3_exec(store_db(s), trig, NULL, NULL,
					      NULL), SQLITE_OK);
		free(trig);
		assert_int_equal(calib_store(s, id, "m", "mutex", "threads=1",
					     &whole), -1);
		if (count_keys(s) != 0)
			fail_msg("failing at %s: %ld keys left", keys[i],
				 count_keys(s));
		assert_int_equal(calib_find(s, "lab-3", "mutex", "threads=1",
					    &p, &at), 1);
		store_close(s);
	}
	{
		struct store *s = open_one(&id);

		assert_int_equal(calib_store(s, id, "m", "mutex", "threads=1",
					     &whole), 0);
		assert_int_equal(count_keys(s), 11);
		assert_int_equal(calib_find(s, "lab-3", "mutex", "threads=1",
					    &p, &at), 0);
		assert_int_equal(at, id);
		assert_true(fabs(p.mde_pct - 2.5) < 1e-12);
		store_close(s);
	}
}

/* A profile with a NaN, an infinity or too few invocations is refused
 * before anything is written. */
static void test_nonfinite_refused(void **state)
{
	struct calib_profile bad[4];
	int64_t id;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		bad[i] = whole;
	bad[0].mde_pct = NAN;
	bad[1].s2_w = INFINITY;
	bad[2].k = 0;
	bad[3].boots = 0;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct store *s = open_one(&id);

		if (calib_store(s, id, "m", "mutex", "threads=1", &bad[i]) != -1 ||
		    count_keys(s) != 0)
			fail_msg("profile %zu stored", i);
		store_close(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_or_nothing),
		cmocka_unit_test(test_nonfinite_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
