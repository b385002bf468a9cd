/*
 * test_profile.c - the parser of `perf lock contention`'s table, on the
 * output perf 6.1 printed on this project's machine for a futex-mutex run
 * (tests/data/perf-lock-contention.txt; its last row, an rwsem in s and
 * ns, is written by hand to cover those units), and on lines it skips.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "runner/profile.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);

	assert_non_null(f);
	assert_non_null(buf);
	assert_true(fread(buf, 1, 65535, f) > 0);
	fclose(f);
	return buf;
}

static void test_perf_61_output(void **state)
{
	struct profile_row *p;
	char *text = slurp("tests/data/perf-lock-contention.txt");
	size_t n = profile_parse(text, &p);

	(void)state;
	assert_int_equal(n, 5);
	assert_string_equal(p[0].caller, "do_futex+0x183");
	assert_string_equal(p[0].lock_type, "spinlock");
	assert_int_equal(p[0].contended, 13502);
	assert_float_equal(p[0].wait_s, 53.50e-3, 1e-12);
	assert_float_equal(p[0].max_wait_s, 90.05e-6, 1e-12);
	assert_string_equal(p[2].caller, "swake_up_one+0x35");
	assert_float_equal(p[2].wait_s, 113.80e-6, 1e-12);
	assert_string_equal(p[4].lock_type, "rwsem:W");
	assert_float_equal(p[4].wait_s, 1.25, 1e-12);
	assert_float_equal(p[4].max_wait_s, 812e-9, 1e-15);
	store_profile_free(p, n);
	free(text);
}

static void test_not_rows(void **state)
{
	static const char text[] =
		"failed to open perf.data: No such file or directory\n"
		" contended   total wait     max wait     avg wait         type   caller\n"
		"\n"
		"        12     1.00 parsecs  1.00 us      1.00 us     spinlock   x+0x1\n"
		"ait     spinlock   cut_at_the_front+0x1\n";
	struct profile_row *p;

	(void)state;
	assert_int_equal(profile_parse(text, &p), 0);
	assert_null(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_perf_61_output),
		cmocka_unit_test(test_not_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
