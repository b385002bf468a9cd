/*
 * test_numfmt.c - lib/numfmt.c, the one number formatter, against a table
 * of inputs and the exact text each must become.  Every expected string
 * is worked out by hand from the rules in lib/numfmt.h (the working is in
 * the case name or the comment beside it), not taken from the output.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/numfmt.h"

enum kind { ONE, SIG, RES, CI, CI_RES, PCT, PCT_CI };

struct numcase {
	const char *name;
	enum kind kind;
	int sig;                /* for SIG */
	double v, lo, hi, res;  /* as the kind takes them */
	const char *want;
};

static const struct numcase cases[] = {
	/* Four significant digits, prefix from 10^4. */
	{ "below 10^4 plain", ONE, 0, 1234, .want = "1234" },
	{ "trailing zeros kept", ONE, 0, 1.5, .want = "1.500" },
	{ "a whole number is exact", ONE, 0, 4, .want = "4" },
	{ "a negative whole number", ONE, 0, -15, .want = "-15" },
	{ "whole from 10^4: prefix, four digits", ONE, 0, 20000, .want = "20.00k" },
	{ "k from 10^4", ONE, 0, 12346, .want = "12.35k" },
	{ "M, two decimals for four digits", ONE, 0, 13.7e6, .want = "13.70M" },
	{ "M, one decimal", ONE, 0, 190.2e6, .want = "190.2M" },
	{ "E is the largest prefix", ONE, 0, 1.5e20, .want = "150.0E" },
	/* 999.96 rounds to 1000.0 at four digits: 1000 is four digits. */
	{ "carry to the next decade", ONE, 0, 999.96, .want = "1000" },
	{ "carry into a prefix", ONE, 0, 9999.6, .want = "10.00k" },
	{ "carry across prefixes", ONE, 0, 999960, .want = "1.000M" },
	{ "negative", ONE, 0, -12346, .want = "-12.35k" },
	{ "small, fixed", ONE, 0, 0.0012346, .want = "0.001235" },
	{ "below 1e-6: exponent", ONE, 0, 1.2e-7, .want = "1.200e-07" },
	{ "from 1e21: exponent", ONE, 0, 1.5e21, .want = "1.500e+21" },
	{ "zero", ONE, 0, 0, .want = "0" },
	{ "negative zero", ONE, 0, -0.0, .want = "0" },
	{ "NaN is missing, never nan", ONE, 0, NAN, .want = NUMFMT_MISSING },
	{ "infinity", ONE, 0, INFINITY, .want = "inf" },
	{ "negative infinity", ONE, 0, -INFINITY, .want = "-inf" },

	{ "two digits", SIG, 2, 13.7e6, .want = "14M" },
	{ "ten digits, no prefix", SIG, 10, 1234.56789,
	  .want = "1234.567890" },
	{ "more than 7 digits: no prefix", SIG, 8, 12345678,
	  .want = "12345678" },
	{ "sig below 1 is 1", SIG, 0, 47, .want = "50" },

	/* ministat's case: 1000000000.2 and 1000000000.44 differ by 0.24,
	 * so the digit at 10^-1 is shown and they print apart. */
	{ "res separates two means (a)", RES, 0, 1000000000.2, .res = 0.24,
	  .want = "1000000000.2" },
	{ "res separates two means (b)", RES, 0, 1000000000.44, .res = 0.24,
	  .want = "1000000000.4" },
	{ "res of zero ignored", RES, 0, 12346, .res = 0, .want = "12.35k" },
	{ "res NaN ignored", RES, 0, 12346, .res = NAN, .want = "12.35k" },
	{ "res coarser than four digits ignored", RES, 0, 12346, .res = 5000,
	  .want = "12.35k" },
	{ "res finer than 15 digits: 15", RES, 0, 1, .res = 1e-20,
	  .want = "1.00000000000000" },

	/* Half-width 0.42M: its second digit is at 10^4. */
	{ "half-width to two digits", CI, 0, 13.7e6, 13.28e6, 14.12e6,
	  .want = "13.70M [13.28M, 14.12M]" },
	{ "wide interval, fewer digits", CI, 0, 13.7e6, 11.4e6, 16.0e6,
	  .want = "13.7M [11.4M, 16.0M]" },
	{ "one prefix for all three", CI, 0, 1.002e6, 0.999e6, 1.005e6,
	  .want = "1.0020M [0.9990M, 1.0050M]" },
	/* Half-width 0.15: its second digit is at 10^-2. */
	{ "ministat's case: twelve digits, no prefix", CI, 0, 1000000000.2,
	  1000000000.05, 1000000000.35,
	  .want = "1000000000.20 [1000000000.05, 1000000000.35]" },
	/* 0.3 - 0.1 is 0.19999999 in binary: the half-width 0.099999,
	 * whose second digit is at 10^-3. */
	{ "a half-width just under 0.1", CI, 0, 1.2, 1.1, 1.3,
	  .want = "1.200 [1.100, 1.300]" },
	/* Half-width 500: its second digit is at 10^1. */
	{ "digits before the point rounded", CI, 0, 1234, 734, 1734,
	  .want = "1230 [730, 1730]" },
	{ "prefix with a wide interval", CI, 0, 123456, 73456, 173456,
	  .want = "123k [73k, 173k]" },
	{ "below 10^4 plain", CI, 0, 1234.5, 1230.1, 1238.9,
	  .want = "1234.5 [1230.1, 1238.9]" },
	{ "no interval: the mean alone", CI, 0, 13.7e6, NAN, NAN,
	  .want = "13.70M" },
	{ "zero half-width: four digits", CI, 0, 5, 5, 5,
	  .want = "5.000 [5.000, 5.000]" },
	{ "interval wider than the mean: two digits of the mean", CI, 0, 0.5,
	  -29.5, 30.5, .want = "0.50 [-29.50, 30.50]" },
	{ "zero mean", CI, 0, 0, -0.5, 0.5, .want = "0.00 [-0.50, 0.50]" },
	{ "a bound that rounds to zero loses its sign", CI, 0, 1, -0.001, 2.001,
	  .want = "1.0 [0.0, 2.0]" },
	{ "an infinite bound", CI, 0, 5, 1, INFINITY,
	  .want = "5.000 [1.000, inf]" },
	{ "NaN mean", CI, 0, NAN, 1, 2, .want = NUMFMT_MISSING },
	/* Half-width 4.65e-7: the last digit at 10^-8 in all three (one
	 * exponent form, the same resolution). */
	{ "a tiny interval: all three with exponents", CI, 0, 8.6e-7, 3.9e-7,
	  1.32e-6, .want = "8.6e-07 [3.9e-07, 1.32e-06]" },
	{ "res with no spread", CI_RES, 0, 1000000000.2, 1000000000.2,
	  1000000000.2, .res = 0.24,
	  .want = "1000000000.2 [1000000000.2, 1000000000.2]" },

	{ "percent, one decimal", PCT, 0, 15.3, .want = "+15.3%" },
	{ "percent, two digits", PCT, 0, 2.41, .want = "+2.4%" },
	{ "percent below 1: two digits", PCT, 0, 0.241, .want = "+0.24%" },
	{ "negative percent", PCT, 0, -0.0241, .want = "-0.024%" },
	/* 0.24 in 10^9 as percent: not "+0.00%". */
	{ "a tiny change is not zero", PCT, 0, 2.4e-8, .want = "+0.000000024%" },
	{ "beneath a double's precision: exponent", PCT, 0, 1e-20,
	  .want = "+1.0e-20%" },
	{ "zero percent", PCT, 0, 0, .want = "0.0%" },
	{ "large percent", PCT, 0, 150, .want = "+150.0%" },
	{ "NaN percent is missing, never +nan%", PCT, 0, NAN,
	  .want = NUMFMT_MISSING },
	{ "infinite percent", PCT, 0, INFINITY, .want = "+inf%" },

	{ "percent interval", PCT_CI, 0, 2.4, 1.1, 3.7,
	  .want = "+2.4% [+1.1%, +3.7%]" },
	{ "tiny percent interval", PCT_CI, 0, 2.4e-8, 1.2e-8, 3.6e-8,
	  .want = "+0.000000024% [+0.000000012%, +0.000000036%]" },
	{ "estimate keeps its digits in a wide interval", PCT_CI, 0, 0.0123,
	  -40.2, 40.2, .want = "+0.012% [-40.2%, +40.2%]" },
	{ "zero estimate", PCT_CI, 0, 0, -1, 1, .want = "0.0% [-1.0%, +1.0%]" },
	{ "no interval: the estimate alone", PCT_CI, 0, 5, NAN, NAN,
	  .want = "+5.0%" },
};

static const char *format(const struct numcase *c, char *buf, size_t len)
{
	switch (c->kind) {
	case ONE:
		return numfmt(buf, len, c->v);
	case SIG:
		return numfmt_sig(buf, len, c->v, c->sig);
	case RES:
		return numfmt_res(buf, len, c->v, c->res);
	case CI:
		return numfmt_ci(buf, len, c->v, c->lo, c->hi);
	case CI_RES:
		return numfmt_ci_res(buf, len, c->v, c->lo, c->hi, c->res);
	case PCT:
		return numfmt_pct(buf, len, c->v);
	case PCT_CI:
		return numfmt_pct_ci(buf, len, c->v, c->lo, c->hi);
	}
	return NULL;
}

static void test_cases(void **state)
{
	size_t i, bad = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[NUMFMT_CI_LEN];
		const char *got = format(&cases[i], buf, sizeof(buf));

		if (strcmp(got, cases[i].want)) {
			fprintf(stderr, "%s: got \"%s\", want \"%s\"\n",
				cases[i].name, got, cases[i].want);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* No output ever says nan, whatever the input: random bit patterns,
 * NaNs of every sign and payload among them. */
static void test_never_nan(void **state)
{
	uint64_t x = 88172645463325252ull;
	int i;

	(void)state;
	for (i = 0; i < 20000; i++) {
		char buf[NUMFMT_CI_LEN];
		double v[3];
		int k;

		for (k = 0; k < 3; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			memcpy(&v[k], &x, sizeof(v[k]));
		}
		assert_null(strstr(numfmt(buf, sizeof(buf), v[0]), "nan"));
		assert_null(strstr(numfmt_ci(buf, sizeof(buf), v[0], v[1], v[2]),
				   "nan"));
		assert_null(strstr(numfmt_pct_ci(buf, sizeof(buf), v[0], v[1],
						 v[2]), "nan"));
		assert_true(strlen(numfmt_ci(buf, sizeof(buf), v[0], v[1], v[2])) <
			    sizeof(buf) - 1);
	}
}

/* A short buffer is cut, never overrun. */
static void test_short_buffer(void **state)
{
	char buf[6] = "xxxxx";

	(void)state;
	numfmt_ci(buf, 4, 13.7e6, 13.28e6, 14.12e6);
	assert_string_equal(buf, "13.");
	assert_int_equal(buf[4], 'x');
}

/* Times in the largest unit they are one of, three digits. */
static void test_seconds(void **state)
{
	static const struct {
		double s;
		const char *want;
	} times[] = {
		{ 0.353, "353 ms" }, { 5.26e-08, "52.6 ns" }, { 0, "0 s" },
		{ 1.2, "1.20 s" }, { 4.1e-5, "41 us" }, { 0.99996, "1.00 s" },
		{ 0.0009994, "999 us" }, { NAN, "n/a" },
	};
	char buf[NUMFMT_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		assert_string_equal(numfmt_seconds(buf, sizeof(buf),
						   times[i].s), times[i].want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_never_nan),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
