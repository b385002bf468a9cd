/*
 * test_wrap.c - lib/wrap.c: words wrapped at the width, continuation
 * lines indented, leading blanks kept, a word longer than a line whole;
 * wrap_lead's first word after its lead; wrap_list's words whole, blanks
 * inside them kept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/wrap.h"

struct wrapcase {
	const char *name, *in;
	int at, indent, width;
	const char *want;
};

static const struct wrapcase cases[] = {
	{ "fits", "a b c", 0, 2, 10, "a b c\n" },
	{ "breaks before the word that passes", "aaa bbb ccc", 0, 2, 8,
	  "aaa bbb\n  ccc\n" },
	{ "blanks collapse", "a   b", 0, 0, 10, "a b\n" },
	{ "leading blanks kept", "  x y", 0, 4, 5, "  x y\n" },
	{ "leading newline kept", "\n== t", 0, 0, 10, "\n== t\n" },
	{ "the start column counts", "aa bb", 6, 0, 10, "aa\nbb\n" },
	{ "a long word whole", "a verylongword b", 0, 1, 6,
	  "a\n verylongword\n b\n" },
};

static void test_wrap(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct wrapcase *c = &cases[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		wrap_print(f, c->in, c->at, c->indent, c->width);
		fclose(f);
		if (strcmp(buf, c->want))
			fail_msg("%s: got \"%s\", want \"%s\"", c->name, buf,
				 c->want);
		free(buf);
	}
}

struct leadcase {
	const char *name, *lead, *in;
	int indent, width;
	const char *want;
};

static const struct leadcase leads[] = {
	{ "a lead past indent takes a blank", "methods:", "a b", 4, 20,
	  "methods: a b\n" },
	{ "a lead up to indent takes none", "  - ", "a b", 4, 20,
	  "  - a b\n" },
	{ "short words after a short lead stay apart", "", "a b c", 4, 20,
	  "a b c\n" },
	{ "the first word breaks after a long lead", "lead:", "abcdef gh", 2,
	  11, "lead:\n  abcdef gh\n" },
	{ "continuations indented", "x:", "aaa bbb ccc", 1, 9,
	  "x: aaa\n bbb ccc\n" },
	{ "leading blanks of the text dropped", "x:", "  a", 0, 10,
	  "x: a\n" },
	{ "empty text", "x:", "", 0, 10, "x:\n" },
};

static void test_lead(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(leads) / sizeof(leads[0]); i++) {
		const struct leadcase *c = &leads[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		wrap_lead(f, c->lead, c->in, c->indent, c->width);
		fclose(f);
		if (strcmp(buf, c->want))
			fail_msg("%s: got \"%s\", want \"%s\"", c->name, buf,
				 c->want);
		free(buf);
	}
}

static void test_list(void **state)
{
	const char *const words[] = { "[--db PATH]", "[--label L]", "CONFIG" };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	fputs("usage: x ", f);
	wrap_list(f, words, 3, 9, 9, 32);
	wrap_list(f, words, 0, 0, 0, 32);
	fclose(f);
	assert_string_equal(buf, "usage: x [--db PATH] [--label L]\n"
				 "         CONFIG\n\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_lead),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
