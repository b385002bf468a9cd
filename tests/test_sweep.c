/*
 * test_sweep.c - the sweep grammar: every form (list, range, stepped,
 * geometric, single, enum list, strings never split), the edges of 64-bit
 * arithmetic, and every error with its exact message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config.h"
#include "runner/param.h"
#include "lib/util.h"

static const char *const colors[] = { "red", "green", "blue", NULL };

static const struct param_def p_int = { "n", PT_INT, "1", -5, 100, NULL, "" };
static const struct param_def p_int0 = { "n", PT_INT, "0", 0, 0, NULL, "" };
static const struct param_def p_intall = { "n", PT_INT, "0", -9.3e18, 0,
					   NULL, "" };
static const struct param_def p_u64 = { "u", PT_U64, "0", 0, 0, NULL, "" };
static const struct param_def p_dbl = { "x", PT_DOUBLE, "0", 0, 1, NULL, "" };
static const struct param_def p_dur = { "d", PT_DURATION, "1s", 0.001, 60,
					NULL, "" };
static const struct param_def p_bool = { "b", PT_BOOL, "no", 0, 0, NULL, "" };
static const struct param_def p_enum = { "c", PT_ENUM, "red", 0, 0, colors,
					 "" };
static const struct param_def p_str = { "s", PT_STRING, "", 0, 0, NULL, "" };
static const struct param_def p_cpus = { "cpus", PT_CPUS, NULL, 0, 0, NULL,
					 "" };

/*
 * want: the values joined by '|' (NULL: only count is checked);
 * err: the exact message of a failing sweep.
 */
struct sweep_case {
	const char *name;
	const struct param_def *p;
	const char *value;
	const char *want;
	size_t count;
	const char *err;
};

#define OK(n, p, v, w) { n, &p, v, w, 0, NULL }
#define COUNT(n, p, v, c) { n, &p, v, NULL, c, NULL }
#define BAD(n, p, v, e) { n, &p, v, NULL, 0, e }

static const struct sweep_case cases[] = {
	OK("single", p_int, "8", "8"),
	OK("list", p_int, "1, 2, 4", "1|2|4"),
	OK("list without blanks", p_int, "1,2,4", "1|2|4"),
	OK("range", p_int, "1..4", "1|2|3|4"),
	OK("range with blanks", p_int, " 1 .. 3 ", "1|2|3"),
	OK("range of one", p_int, "5..5", "5"),
	OK("negative range", p_int, "-3..-1", "-3|-2|-1"),
	OK("stepped", p_int, "1..16:4", "1|5|9|13"),
	OK("stepped reaching hi", p_int, "0..10:5", "0|5|10"),
	OK("stepped over hi", p_int, "1..16:20", "1"),
	OK("geometric", p_int, "1..64*2", "1|2|4|8|16|32|64"),
	OK("geometric short of hi", p_int, "1..100*3", "1|3|9|27|81"),
	OK("ranges in a list", p_int, "1, 4..6, 10", "1|4|5|6|10"),
	OK("list order kept", p_int, "4, 1, 2", "4|1|2"),
	OK("enum list", p_enum, "red, blue", "red|blue"),
	OK("bool list", p_bool, "yes, off", "yes|no"),
	OK("duration list", p_dur, "1s, 500ms, 1m", "1|0.5|60"),
	OK("double list", p_dbl, "0.1, 0.25, 1", "0.1|0.25|1"),
	OK("string never split", p_str, "a, b..c", "a, b..c"),
	OK("string empty", p_str, "", ""),
	OK("cpus never split", p_cpus, "3,0-1", "0-1,3"),
	OK("u64 top", p_u64, "18446744073709551614..18446744073709551615",
	   "18446744073709551614|18446744073709551615"),
	/* (2^64 - 1) / 2^62 = 3: four values, the last 3 * 2^62 */
	OK("u64 step near overflow",
	   p_u64, "0..18446744073709551615:4611686018427387904",
	   "0|4611686018427387904|9223372036854775808|13835058055282163712"),
	OK("int across zero", p_intall,
	   "-9223372036854775808..-9223372036854775807",
	   "-9223372036854775808|-9223372036854775807"),
	/* 2^0 .. 2^62: 2^63 would pass LLONG_MAX */
	COUNT("int geometric to the top", p_int0, "1..9223372036854775807*2",
	      63),
	/* 2^0 .. 2^63, and no overflow computing 2^64 */
	COUNT("u64 geometric to the top", p_u64, "1..18446744073709551615*2",
	      64),
	COUNT("largest sweep", p_int0, "1..10000", SWEEP_MAX_VALUES),
	BAD("empty", p_int, "", "n: empty sweep"),
	BAD("blank", p_int, "  ", "n: empty sweep"),
	BAD("empty element", p_int, "1,,2",
	    "n: empty element in the list '1,,2'"),
	BAD("trailing comma", p_int, "1,", "n: empty element in the list '1,'"),
	BAD("leading comma", p_int, ",1", "n: empty element in the list ',1'"),
	BAD("reversed", p_int, "5..1",
	    "n: reversed range '5..1' (write the low bound first)"),
	BAD("zero step", p_int, "1..10:0",
	    "n: zero step in range '1..10:0' (the step must be at least 1)"),
	BAD("negative step", p_int, "1..10:-2",
	    "n: negative step in range '1..10:-2' (the step must be at least "
	    "1)"),
	BAD("malformed step", p_int, "1..10:x",
	    "n: malformed step 'x' in range '1..10:x'"),
	BAD("empty step", p_int, "1..10:",
	    "n: malformed step '' in range '1..10:'"),
	BAD("factor one", p_int, "1..64*1",
	    "n: geometric factor 1 in range '1..64*1' must be at least 2"),
	BAD("factor zero", p_int, "1..64*0",
	    "n: geometric factor 0 in range '1..64*0' must be at least 2"),
	BAD("geometric from zero", p_int, "0..64*2",
	    "n: geometric range '0..64*2' must start at 1 or more"),
	BAD("geometric from negative", p_int, "-4..64*2",
	    "n: geometric range '-4..64*2' must start at 1 or more"),
	BAD("u64 geometric from zero", p_u64, "0..64*2",
	    "u: geometric range '0..64*2' must start at 1 or more"),
	BAD("fractional bound", p_int, "1.5..3", "n: '1.5' is not an integer"),
	BAD("fractional top", p_int, "1..2.5", "n: '2.5' is not an integer"),
	BAD("three dots", p_int, "1...5", "n: '.5' is not an integer"),
	BAD("open top", p_int, "1..", "n: incomplete range '1..'"),
	BAD("open bottom", p_int, "..5", "n: incomplete range '..5'"),
	BAD("bound out of range", p_int, "1..200",
	    "n: 200 is out of range (-5 .. 100)"),
	BAD("double range", p_dbl, "0.1..0.5",
	    "x: a range like '0.1..0.5' needs an integer parameter, and x is "
	    "of type double: list its values instead"),
	BAD("duration range", p_dur, "1s..5s",
	    "d: a range like '1s..5s' needs an integer parameter, and d is of "
	    "type duration: list its values instead"),
	BAD("enum range", p_enum, "red..blue",
	    "c: a range like 'red..blue' needs an integer parameter, and c is "
	    "of type enum: list its values instead"),
	BAD("too many", p_int0, "1..10001",
	    "n: the sweep has more than 10000 values"),
	BAD("too many: whole u64", p_u64, "0..18446744073709551615",
	    "u: the sweep has more than 10000 values"),
	BAD("too many: whole int", p_intall,
	    "-9223372036854775808..9223372036854775807",
	    "n: the sweep has more than 10000 values"),
	BAD("too many across a list", p_int0, "1..6000, 7000..12000",
	    "n: the sweep has more than 10000 values"),
	BAD("duplicate", p_int, "1, 2, 1", "n: value 1 appears twice in the sweep"),
	BAD("duplicate via range", p_int, "1..4, 3",
	    "n: value 3 appears twice in the sweep"),
	BAD("duplicate duration", p_dur, "1s, 1000ms",
	    "d: value 1 appears twice in the sweep"),
	BAD("duplicate enum", p_enum, "red, red",
	    "c: value red appears twice in the sweep"),
	BAD("out of range in list", p_int, "1, 200",
	    "n: 200 is out of range (-5 .. 100)"),
	BAD("malformed in list", p_int, "1, x", "n: 'x' is not an integer"),
	BAD("enum typo in list", p_enum, "red, gren",
	    "c: unknown value 'gren'; did you mean 'green'? (choices: red, "
	    "green, blue)"),
	BAD("bad cpus", p_cpus, "0-",
	    "cpus: bad cpu list '0-': expected a cpu number after '-' (write "
	    "cpus like 0-3,6)"),
};

static char *joined(char **v, size_t n)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	s = calloc(1, len);
	for (i = 0; i < n; i++) {
		if (i)
			strcat(s, "|");
		strcat(s, v[i]);
	}
	return s;
}

static void test_sweep(void **state)
{
	const struct sweep_case *t = *state;
	char **vals = NULL, err[512] = "";
	size_t n = 0;
	int ret = sweep_expand(t->p, t->value, &vals, &n, err, sizeof(err));

	if (t->err) {
		assert_int_equal(ret, -1);
		assert_string_equal(err, t->err);
		return;
	}
	assert_int_equal(ret, 0);
	if (t->want) {
		char *s = joined(vals, n);

		assert_string_equal(s, t->want);
		free(s);
	} else {
		assert_int_equal(n, t->count);
	}
	sweep_free(vals, n);
}

/* A list with more elements than a sweep may hold fails before parsing. */
static void test_long_list(void **state)
{
	size_t n = SWEEP_MAX_VALUES + 1, i, len = 0, count;
	char *s = malloc(n * 8 + 1), **vals, err[256];

	(void)state;
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(s + len, "%s%zu", i ? "," : "", i);
	assert_int_equal(sweep_expand(&p_int0, s, &vals, &count, err,
				      sizeof(err)), -1);
	assert_string_equal(err, "n: the sweep has more than 10000 values");
	/* one fewer fits exactly */
	*strrchr(s, ',') = '\0';
	assert_int_equal(sweep_expand(&p_int0, s, &vals, &count, err,
				      sizeof(err)), 0);
	assert_int_equal(count, SWEEP_MAX_VALUES);
	assert_string_equal(vals[count - 1], "9999");
	sweep_free(vals, count);
	free(s);
}

int main(void)
{
	size_t nc = sizeof(cases) / sizeof(cases[0]), i;
	struct CMUnitTest *tests = calloc(nc + 1, sizeof(*tests));
	int ret;

	for (i = 0; i < nc; i++)
		tests[i] = (struct CMUnitTest){ cases[i].name, test_sweep, NULL,
						NULL,
						(void *)(uintptr_t)&cases[i] };
	tests[nc] = (struct CMUnitTest)cmocka_unit_test(test_long_list);
	ret = _cmocka_run_group_tests("sweep", tests, nc + 1, NULL, NULL);
	free(tests);
	return ret;
}
