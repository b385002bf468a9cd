/*
 * test_suggest.c - lib/util.c's "did you mean": edit distances worked out
 * by hand, the closest candidate within the limit (2, or a third of the
 * word's length), and the one suffix every message appends.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "lib/util.h"

static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(edit_distance("", ""), 0);
	assert_int_equal(edit_distance("abc", ""), 3);
	assert_int_equal(edit_distance("kitten", "sitting"), 3);
	assert_int_equal(edit_distance("thread", "threads"), 1);
	assert_int_equal(edit_distance("flaw", "lawn"), 2);
}

static void test_suggest(void **state)
{
	static const char *const names[] = { "noop", "spin", "threads",
					     "repetitions" };

	(void)state;
	assert_string_equal(suggest("nop", names, 4), "noop");
	assert_string_equal(suggest("thread", names, 4), "threads");
	/* 3 edits: past 2 for a short word ... */
	assert_null(suggest("xyz", names, 4));
	/* ... within a third of a long one (3 edits in 11 letters) */
	assert_string_equal(suggest("repxtxtixns", names, 4), "repetitions");
	assert_null(suggest("x", names, 0));
}

static void test_hint(void **state)
{
	static const char *const names[] = { "experiment", "workload" };
	char buf[SUGGEST_MAX];

	(void)state;
	assert_string_equal(suggest_hint(buf, sizeof(buf), "experimnt", names,
					 2, NULL, NULL),
			    "; did you mean 'experiment'?");
	assert_string_equal(suggest_hint(buf, sizeof(buf), "experimnt", names,
					 2, "[", "]"),
			    "; did you mean [experiment]?");
	assert_string_equal(suggest_hint(buf, sizeof(buf), "wrkload", names, 2,
					 "'--", "'"),
			    "; did you mean '--workload'?");
	assert_string_equal(suggest_hint(buf, sizeof(buf), "zzzzzz", names, 2,
					 NULL, NULL),
			    "");
	/* cut to the buffer, never past it */
	assert_string_equal(suggest_hint(buf, 8, "experimnt", names, 2, NULL,
					 NULL),
			    "; did y");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_hint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
