/*
 * test_store_rows.c - the in-memory store built from flat rows
 * (db/store.h, "rows"), as compare's export sides use it: rows in any
 * order become experiments (by their id, else by first appearance),
 * configurations in order of first appearance with their parameters
 * split from the canon, runs numbered by seq, samples; a second value of
 * one run's metric is refused with the earlier row's line; the shape
 * counts runs, distinct metrics and values.  Expected values by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"

static long add(struct store *st, const char *uuid, int64_t id,
		const char *params, long seq, const char *metric, double v,
		long line)
{
	struct store_row r = {
		.uuid = uuid, .name = "e", .label = "l",
		.hostname = strcmp(uuid, "u1") ? "" : "box",
		.experiment_id = id, .workload = "noop", .section = "s",
		.params = params, .seq = seq, .metric = metric, .value = v,
		.line = line,
	};

	return store_rows_add(st, &r);
}

static void test_rows_to_schema(void **state)
{
	struct store *st;
	struct dataset d;
	int64_t *ids;
	size_t runs, metrics, values;

	(void)state;
	assert_int_equal(store_rows_open(&st), 0);
	/* u2 first in the file but id 7; u3 without an id: 3rd to appear */
	assert_int_equal(add(st, "u2", 7, "threads=1", 1, "throughput", 9, 2),
			 0);
	assert_int_equal(add(st, "u1", 5, "a=1  b=x", 4, "throughput", 41, 3),
			 0);
	assert_int_equal(add(st, "u1", 5, "c=2", 2, "throughput", 21, 4), 0);
	assert_int_equal(add(st, "u1", 5, "a=1  b=x", 1, "throughput", 11, 5),
			 0);
	assert_int_equal(add(st, "u1", 5, "a=1  b=x", 1, "elapsed_s", 0.1,
			     6), 0);
	assert_int_equal(add(st, "u3", 0, "", 3, "throughput", 1, 7), 0);
	assert_int_equal(store_rows_finish(st, &ids), 3);
	assert_int_equal(ids[0], 3);
	assert_int_equal(ids[1], 5);
	assert_int_equal(ids[2], 7);

	assert_int_equal(store_rows_shape(st, 5, &runs, &metrics, &values),
			 0);
	assert_int_equal(runs, 3);
	assert_int_equal(metrics, 2);
	assert_int_equal(values, 4);

	assert_int_equal(store_load(st, 5, &d), 0);
	assert_string_equal(d.exp.uuid, "u1");
	assert_string_equal(experiment_meta(&d.exp, "hostname"), "box");
	assert_int_equal(d.nconfigs, 2);
	assert_string_equal(d.configs[0].canon, "a=1  b=x");
	assert_int_equal(d.configs[0].nparams, 2);
	assert_string_equal(d.configs[0].params[0].key, "a");
	assert_string_equal(d.configs[0].params[0].value, "1");
	assert_string_equal(d.configs[0].params[1].key, "b");
	assert_string_equal(d.configs[0].params[1].value, "x");
	assert_string_equal(d.configs[1].canon, "c=2");
	assert_int_equal(d.nruns, 3);
	assert_int_equal(d.runs[0].seq, 1);
	assert_int_equal(d.runs[0].repetition, 0);
	assert_int_equal(d.runs[1].seq, 4);
	assert_int_equal(d.runs[1].repetition, 1);
	assert_int_equal(d.runs[1].status, RUN_OK);
	assert_int_equal(d.runs[2].seq, 2);
	assert_true(fabs(dataset_value(&d, 0, dataset_metric(&d, "elapsed_s"))
			 - 0.1) < 1e-12);
	assert_true(isnan(dataset_value(&d, 1, dataset_metric(&d,
							      "elapsed_s"))));
	assert_true(fabs(dataset_value(&d, 1, dataset_metric(&d, "throughput"))
			 - 41) < 1e-12);
	assert_null(experiment_meta(&d.exp, "missing"));
	dataset_release(&d);
	assert_int_equal(store_load(st, 3, &d), 0);
	assert_null(experiment_meta(&d.exp, "hostname"));
	assert_int_equal(d.configs[0].nparams, 0);
	dataset_release(&d);
	free(ids);
	store_close(st);
}

static void test_duplicate_names_first_line(void **state)
{
	struct store *st;
	int64_t *ids;

	(void)state;
	assert_int_equal(store_rows_open(&st), 0);
	assert_int_equal(add(st, "u1", 1, "t=1", 1, "m", 1, 2), 0);
	assert_int_equal(add(st, "u1", 1, "t=1", 2, "m", 2, 3), 0);
	assert_int_equal(add(st, "u1", 1, "t=1", 1, "m", 3, 9), 2);
	/* the same seq of another configuration or metric is no duplicate */
	assert_int_equal(add(st, "u1", 1, "t=1", 1, "n", 3, 10), 0);
	assert_int_equal(store_rows_finish(st, &ids), 1);
	free(ids);
	store_close(st);
}

static void test_no_rows(void **state)
{
	struct store *st;
	int64_t *ids;

	(void)state;
	assert_int_equal(store_rows_open(&st), 0);
	assert_int_equal(store_rows_finish(st, &ids), 0);
	assert_null(ids);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_to_schema),
		cmocka_unit_test(test_duplicate_names_first_line),
		cmocka_unit_test(test_no_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
