/*
 * test_utf8.c - lib/utf8.c, the one UTF-8 decoder: code points and
 * lengths worked out by hand from RFC 3629 / Unicode 15 table 3-7, the
 * ill-formed sequences refused, and a sequence cut by n or by a NUL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "lib/utf8.h"

/* The code point and the length (moved from test_escape.c). */
static void test_decode(void **state)
{
	uint32_t cp = 0;

	(void)state;
	assert_int_equal(utf8_len("\xf0\x9f\x98\x80", UTF8_NUL, &cp), 4);
	assert_int_equal(cp, 0x1f600);
	assert_int_equal(utf8_len("\xed\xa0\x80", UTF8_NUL, &cp), 0);
	assert_int_equal(utf8_len("\xf4\x90\x80\x80", UTF8_NUL, NULL), 0);
	assert_int_equal(utf8_len("", UTF8_NUL, &cp), 1);
	assert_int_equal(cp, 0);
	assert_int_equal(utf8_len("\xc3\xa9", UTF8_NUL, &cp), 2);
	assert_int_equal(cp, 0xe9);
	assert_int_equal(utf8_len("\xe2\x82\xac", UTF8_NUL, &cp), 3);
	assert_int_equal(cp, 0x20ac);
	assert_int_equal(utf8_len("\xf4\x8f\xbf\xbf", UTF8_NUL, &cp), 4);
	assert_int_equal(cp, 0x10ffff);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
		"\x80",                 /* a continuation alone */
		"\xc0\xaf",             /* overlong '/' */
		"\xc1\xbf",             /* overlong */
		"\xe0\x80\xaf",         /* overlong, 3 bytes */
		"\xf0\x80\x80\xaf",     /* overlong, 4 bytes */
		"\xed\xbf\xbf",         /* surrogate U+DFFF */
		"\xf5\x80\x80\x80",     /* past U+10FFFF by its lead */
		"\xff",
		"\xc3",                 /* cut by the NUL */
		"\xe2\x82",
		"\xc3(",                /* not a continuation */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (utf8_len(bad[i], UTF8_NUL, NULL) != 0)
			fail_msg("case %zu accepted", i);
}

static void test_bounded(void **state)
{
	(void)state;
	assert_int_equal(utf8_len("\xe2\x82\xac", 3, NULL), 3);
	assert_int_equal(utf8_len("\xe2\x82\xac", 2, NULL), 0);
	assert_int_equal(utf8_len("\xf0\x9f\x98\x80", 3, NULL), 0);
	assert_int_equal(utf8_len("a", 1, NULL), 1);
}

static void test_need(void **state)
{
	(void)state;
	assert_int_equal(utf8_need('a'), 1);
	assert_int_equal(utf8_need(0xc2), 2);
	assert_int_equal(utf8_need(0xdf), 2);
	assert_int_equal(utf8_need(0xe0), 3);
	assert_int_equal(utf8_need(0xf4), 4);
	assert_int_equal(utf8_need(0x80), 0);
	assert_int_equal(utf8_need(0xc1), 0);
	assert_int_equal(utf8_need(0xf5), 0);
}

/* One column a code point: "±" is two bytes, "€" three, "😀" four. */
static void test_columns(void **state)
{
	(void)state;
	assert_int_equal(utf8_columns(""), 0);
	assert_int_equal(utf8_columns("abc"), 3);
	assert_int_equal(utf8_columns("\xc2\xb1" "4.6%"), 5);
	assert_int_equal(utf8_columns("\xe2\x82\xac" "\xf0\x9f\x98\x80"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_need),
		cmocka_unit_test(test_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
