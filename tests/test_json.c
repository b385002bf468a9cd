/*
 * test_json.c - the JSON string writer every JSON output goes through
 * (report, levels, compare, export): a table of named inputs with the exact
 * text they must become, worked out by hand from RFC 8259 (escapes) and
 * RFC 3629 / Unicode 15 table 3-7 (which byte sequences are UTF-8); and a
 * property check of random bytes against glibc's iconv as an independent
 * UTF-8 validator.  And the writer's layout: one member a line, or a
 * flat object or array on one line, nested ones with it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"

struct strcase {
	const char *name;
	const char *in;         /* NULL is allowed: written as "" */
	const char *want;       /* the whole output, quotes included */
};

#define FFFD "\\ufffd"

static const struct strcase cases[] = {
	{ "plain ASCII copied", "abc 123", "\"abc 123\"" },
	{ "NULL is the empty string", NULL, "\"\"" },
	{ "empty", "", "\"\"" },
	{ "quote and backslash escaped", "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "newline and tab by name", "a\nb\tc", "\"a\\nb\\tc\"" },
	{ "other control bytes and DEL as \\u00XX", "\x01\x1f\x7f\r",
	  "\"\\u0001\\u001f\\u007f\\u000d\"" },
	/* é U+00E9, € U+20AC, 😀 U+1F600 */
	{ "valid 2, 3 and 4-byte sequences kept",
	  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
	  "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"" },
	/* The edges of table 3-7: U+0080, U+07FF, U+0800, U+D7FF, U+E000,
	 * U+FFFF, U+10000, U+10FFFF. */
	{ "range edges kept",
	  "\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf"
	  "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
	  "\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf"
	  "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\"" },
	{ "\\xff\\xfe: one U+FFFD each", "\xff\xfe", "\"" FFFD FFFD "\"" },
	{ "lone continuation byte", "a\x80z", "\"a" FFFD "z\"" },
	/* C0 and C1 can only begin overlong 2-byte forms. */
	{ "overlong 2-byte '/'", "\xc0\xaf", "\"" FFFD FFFD "\"" },
	{ "overlong 3-byte '/'", "\xe0\x80\xaf", "\"" FFFD FFFD FFFD "\"" },
	{ "overlong 4-byte U+FFFF", "\xf0\x8f\xbf\xbf",
	  "\"" FFFD FFFD FFFD FFFD "\"" },
	{ "surrogate U+D800", "\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"" },
	{ "surrogate U+DFFF", "\xed\xbf\xbf", "\"" FFFD FFFD FFFD "\"" },
	{ "past U+10FFFF", "\xf4\x90\x80\x80",
	  "\"" FFFD FFFD FFFD FFFD "\"" },
	{ "F5..FF never begin a sequence", "\xf5\xf8\xfc",
	  "\"" FFFD FFFD FFFD "\"" },
	{ "truncated at the end of the string", "a\xe2\x82",
	  "\"a" FFFD FFFD "\"" },
	{ "truncated by ASCII", "\xe2\x82z\xf0\x9f\x98\"",
	  "\"" FFFD FFFD "z" FFFD FFFD FFFD "\\\"\"" },
	{ "a hostile label", "l\xff'); --\n",
	  "\"l" FFFD "'); --\\n\"" },
};

static char *json_of(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	json_string(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = json_of(cases[i].in);

		if (strcmp(got, cases[i].want))
			fail_msg("%s: want %s, got %s", cases[i].name,
				 cases[i].want, got);
		free(got);
	}
}

/* True when iconv takes s as UTF-8 to UTF-8 without EILSEQ or EINVAL. */
static bool iconv_valid(iconv_t cd, const char *s)
{
	char out[4096], *in = (char *)s, *o = out;
	size_t nin = strlen(s), nout = sizeof(out);

	iconv(cd, NULL, NULL, NULL, NULL);
	return iconv(cd, &in, &nin, &o, &nout) != (size_t)-1;
}

/*
 * Random byte strings (high bytes over-weighted, a fixed xorshift seed):
 * the output must be valid UTF-8 by iconv, one quoted string with no raw
 * control byte or quote inside, and every backslash must begin an escape
 * RFC 8259 allows.  The validator is
 * first shown to refuse \xff and a surrogate, so it cannot pass vacuously.
 */
static void test_random_bytes_valid(void **state)
{
	iconv_t cd = iconv_open("UTF-8", "UTF-8");
	uint64_t x = 88172645463325252ull;
	char in[64];
	size_t t, i;

	(void)state;
	assert_true(cd != (iconv_t)-1);
	assert_false(iconv_valid(cd, "\xff"));
	assert_false(iconv_valid(cd, "\xed\xa0\x80"));
	assert_true(iconv_valid(cd, "\xf0\x9f\x98\x80"));
	for (t = 0; t < 20000; t++) {
		size_t n = 1 + t % (sizeof(in) - 1);
		const unsigned char *p, *end;
		char *out;
		size_t len;

		for (i = 0; i < n - 1; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			in[i] = (char)(x & 1 ? 0x80 | (x >> 8) : (x >> 8) & 0xff);
			if (!in[i])
				in[i] = 'a';
		}
		in[n - 1] = '\0';
		out = json_of(in);
		if (!iconv_valid(cd, out))
			fail_msg("case %zu: output not UTF-8", t);
		len = strlen(out);
		assert_true(len >= 2 && out[0] == '"' && out[len - 1] == '"');
		end = (const unsigned char *)out + len - 1;
		for (p = (const unsigned char *)out + 1; p < end; p++) {
			assert_true(*p >= 0x20 && *p != '"');
			if (*p == '\\') {
				p++;
				assert_true(p < end && *p &&
					    strchr("\"\\/bfnrtu", *p));
			}
		}
		free(out);
	}
	iconv_close(cd);
}

static void test_layout(void **state)
{
	static const char want[] =
		"{\n"
		"  \"a\": 1,\n"
		"  \"flat\": {\"n\": 2, \"x\": null, \"l\": [1, {\"k\": \"v\"}], "
		"\"e\": []},\n"
		"  \"list\": [\n"
		"    {\"b\": true},\n"
		"    {}\n"
		"  ],\n"
		"  \"after\": 2.5\n"
		"}";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_writer w = { .f = f };

	(void)state;
	assert_non_null(f);
	json_open(&w, NULL, '{');
	json_int(&w, "a", 1);
	json_open_flat(&w, "flat", '{');
	json_int(&w, "n", 2);
	json_num(&w, "x", 0.0 / 0.0);
	json_open(&w, "l", '[');
	json_int(&w, NULL, 1);
	json_open_flat(&w, NULL, '{');
	json_str(&w, "k", "v");
	json_close(&w, '}');
	json_close(&w, ']');
	json_open(&w, "e", '[');
	json_close(&w, ']');
	json_close(&w, '}');
	json_open(&w, "list", '[');
	json_open_flat(&w, NULL, '{');
	json_bool(&w, "b", true);
	json_close(&w, '}');
	json_open_flat(&w, NULL, '{');
	json_close(&w, '}');
	json_close(&w, ']');
	json_num(&w, "after", 2.5);
	json_close(&w, '}');
	fclose(f);
	assert_string_equal(buf, want);
	assert_int_equal(w.depth, 0);
	assert_int_equal(w.flat, 0);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_random_bytes_valid),
		cmocka_unit_test(test_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
