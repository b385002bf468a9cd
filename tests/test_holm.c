/*
 * test_holm.c - Holm's adjustment (lib/holm.c) against values worked by
 * hand: the running maximum, the cap at 1, NaN left out of the count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>

#include <cmocka.h>

#include "lib/holm.h"

/*
 * 0.005 * 4 = 0.02, 0.01 * 3 = 0.03, 0.03 * 2 = 0.06, 0.04 * 1 = 0.04
 * raised to the running maximum 0.06.
 */
static void test_by_hand(void **state)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	double adj[4];

	(void)state;
	assert_int_equal(holm_adjust(p, 4, adj), 4);
	assert_float_equal(adj[0], 0.03, 1e-15);
	assert_float_equal(adj[1], 0.06, 1e-15);
	assert_float_equal(adj[2], 0.06, 1e-15);
	assert_float_equal(adj[3], 0.02, 1e-15);
}

/* NaN stays NaN and is not a test; 0.6 * 2 is capped at 1. */
static void test_nan_and_cap(void **state)
{
	double p[] = { 0.02, NAN, 0.5 }, q[] = { 0.6, 0.7 };

	(void)state;
	assert_int_equal(holm_adjust(p, 3, p), 2);   /* in place */
	assert_float_equal(p[0], 0.04, 1e-15);
	assert_true(isnan(p[1]));
	assert_float_equal(p[2], 0.5, 1e-15);
	assert_int_equal(holm_adjust(q, 2, q), 2);
	assert_float_equal(q[0], 1, 0);
	assert_float_equal(q[1], 1, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_hand),
		cmocka_unit_test(test_nan_and_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
