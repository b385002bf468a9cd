/*
 * test_hint.c - the words of a printed hint (lib/hint.c): a shell word
 * quoted only where it must be, and one that a shell reads back as the
 * string it came from (checked by running sh on it); a database path made
 * absolute.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/hint.h"
#include "lib/util.h"

static const struct {
	const char *in, *want;
} words[] = {
	{ "/home/me/lab.db", "/home/me/lab.db" },
	{ "1@threads=2,kind=normal", "1@threads=2,kind=normal" },
	{ "lab one.db", "'lab one.db'" },
	{ "it's", "'it'\\''s'" },
	{ "", "''" },
	{ "$HOME`x`;rm", "'$HOME`x`;rm'" },
};

static void test_words(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		char *w = hint_word(words[i].in);

		assert_string_equal(w, words[i].want);
		free(w);
	}
}

/* sh reads each quoted word back as the original string. */
static void test_shell_reads_back(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(words); i++) {
		char *w = hint_word(words[i].in);
		char *cmd = xasprintf("printf '%%s' %s", w);
		char got[256] = "";
		FILE *p = popen(cmd, "r");
		size_t n;

		assert_non_null(p);
		n = fread(got, 1, sizeof(got) - 1, p);
		got[n] = '\0';
		assert_int_equal(pclose(p), 0);
		assert_string_equal(got, words[i].in);
		free(cmd);
		free(w);
	}
}

/* A relative path is made absolute from the working directory. */
static void test_db(void **state)
{
	char *cwd = getcwd(NULL, 0), *want, *got, *path, *word;

	(void)state;
	assert_non_null(cwd);
	got = hint_db("no-such-dir/x.db");
	path = xasprintf("%s/no-such-dir/x.db", cwd);
	word = hint_word(path);
	want = xasprintf("--db %s", word);
	assert_string_equal(got, want);
	free(got);
	free(want);
	free(word);
	free(path);
	got = hint_db("/abs/it's.db");
	assert_string_equal(got, "--db '/abs/it'\\''s.db'");
	free(got);
	free(cwd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_shell_reads_back),
		cmocka_unit_test(test_db),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
