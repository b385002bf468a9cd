/*
 * test_csv.c - lib/csv.c: fields quoted only where RFC 4180 needs it,
 * records read back with quotes, doubled quotes, line breaks inside
 * quotes (counted), CRLF ends and empty fields; an open quote refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/csv.h"

static char *written(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	csv_write_field(f, s);
	fclose(f);
	return buf;
}

static void test_write(void **state)
{
	static const char *const cases[][2] = {
		{ "plain", "plain" },
		{ "", "" },
		{ "a,b", "\"a,b\"" },
		{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "two\nlines", "\"two\nlines\"" },
		{ "cr\r", "\"cr\r\"" },
		{ "semi;colon tab\t", "semi;colon tab\t" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = written(cases[i][0]);

		assert_string_equal(got, cases[i][1]);
		free(got);
	}
}

static void test_read(void **state)
{
	const char text[] = "a,\"b,c\",\"d\"\"e\"\r\n"
			    "\n"
			    "\"multi\nline\",,x\n"
			    "last";
	const char *p = text, *end = text + strlen(text);
	struct csv_record r = { 0 };
	long line = 1;

	(void)state;
	assert_int_equal(csv_record_read(&r, "t.csv", &p, end, &line), 0);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.line, 1);
	assert_string_equal(r.f[0], "a");
	assert_string_equal(r.f[1], "b,c");
	assert_string_equal(r.f[2], "d\"e");

	assert_int_equal(csv_record_read(&r, "t.csv", &p, end, &line), 0);
	assert_int_equal(r.n, 0);

	assert_int_equal(csv_record_read(&r, "t.csv", &p, end, &line), 0);
	assert_int_equal(r.line, 3);
	assert_int_equal(r.n, 3);
	assert_string_equal(r.f[0], "multi\nline");
	assert_string_equal(r.f[1], "");
	assert_string_equal(r.f[2], "x");

	assert_int_equal(csv_record_read(&r, "t.csv", &p, end, &line), 0);
	assert_int_equal(r.line, 5);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.f[0], "last");
	assert_ptr_equal(p, end);
	csv_record_release(&r);
}

static void test_roundtrip(void **state)
{
	const char *const in[] = { "x", "", "a,\"b\"\r\nc", "d" };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	struct csv_record r = { 0 };
	const char *p;
	long line = 1;

	(void)state;
	assert_non_null(f);
	for (i = 0; i < 4; i++) {
		csv_write_field(f, in[i]);
		fputc(i < 3 ? ',' : '\n', f);
	}
	fclose(f);
	p = buf;
	assert_int_equal(csv_record_read(&r, "t.csv", &p, buf + len, &line),
			 0);
	assert_int_equal(r.n, 4);
	for (i = 0; i < 4; i++)
		assert_string_equal(r.f[i], in[i]);
	assert_int_equal(line, 3);
	csv_record_release(&r);
	free(buf);
}

static void test_open_quote(void **state)
{
	const char text[] = "a,\"never closed\nb\n";
	const char *p = text;
	struct csv_record r = { 0 };
	long line = 1;

	(void)state;
	assert_int_equal(csv_record_read(&r, "t.csv", &p, text + strlen(text),
					 &line),
			 -1);
	csv_record_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_open_quote),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
