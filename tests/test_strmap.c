/*
 * test_strmap.c - lib/strmap.h: every key of many found with its index,
 * an index replaced, absent keys (a prefix, the empty string, one
 * differing in its last byte) not found, the map empty after release.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strmap.h"
#include "lib/util.h"

static void test_many(void **state)
{
	enum { N = 50000 };
	struct strmap m = { 0 };
	char **keys = xcalloc(N, sizeof(*keys));
	size_t i, v;

	(void)state;
	for (i = 0; i < N; i++) {
		keys[i] = xasprintf("section-%zu", i);
		strmap_put(&m, keys[i], i);
	}
	assert_int_equal(m.n, N);
	strmap_put(&m, keys[7], 70);
	assert_int_equal(m.n, N);
	for (i = 0; i < N; i++) {
		char copy[32];

		snprintf(copy, sizeof(copy), "section-%zu", i); /* by value */
		assert_true(strmap_get(&m, copy, &v));
		assert_int_equal(v, i == 7 ? 70 : i);
	}
	assert_false(strmap_get(&m, "section-", &v));
	assert_false(strmap_get(&m, "", &v));
	assert_false(strmap_get(&m, "section-50000", &v));
	assert_false(strmap_get(&m, "section-1x", &v));
	strmap_release(&m);
	assert_false(strmap_get(&m, "section-1", &v));
	for (i = 0; i < N; i++)
		free(keys[i]);
	free(keys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
