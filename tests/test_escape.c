/*
 * test_escape.c - lib/escape.c: names made safe for a terminal, markdown,
 * HTML and gnuplot scripts.  A table of inputs and the exact text each must become, worked
 * out by hand from lib/escape.h, CommonMark 0.31 section 6.1 (code spans:
 * a run of N backticks closes only at a run of exactly N; one space is
 * stripped from each end when both ends are spaces) and GFM's table
 * extension (a '|' inside a cell, code spans included, is written "\|").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/escape.h"
#include "lib/util.h"
#include "tests/capture.h"

enum kind { TEXT, MD_CODE, MD_TABLE, MD_TEXT, GNUPLOT, HTML };

struct esccase {
	const char *name;
	enum kind kind;
	const char *in;
	const char *want;
};

/* Bidirectional controls as bytes, not literals: a literal holding one
 * is itself what clang-tidy's misleading-bidirectional check forbids. */
static const char rlo[] = { 'a', 'b', (char)0xe2, (char)0x80, (char)0xae,
			    'c', 'd', '\0' };
static const char lri[] = { (char)0xe2, (char)0x81, (char)0xa6, '\0' };

static const struct esccase cases[] = {
	{ "plain copied", TEXT, "mutex-delay 4", "mutex-delay 4" },
	{ "NULL is empty", TEXT, NULL, "" },
	{ "ESC of a colour sequence", TEXT, "\x1b[31mred", "\\x1b[31mred" },
	{ "newline, tab, return by name", TEXT, "a\nb\tc\r", "a\\nb\\tc\\r" },
	{ "other controls and DEL as \\xNN", TEXT, "\x01\x07\x7f",
	  "\\x01\\x07\\x7f" },
	{ "a backslash stays one", TEXT, "a\\b", "a\\b" },
	{ "valid UTF-8 kept", TEXT, "caf\xc3\xa9 \xe2\x82\xac",
	  "caf\xc3\xa9 \xe2\x82\xac" },
	{ "invalid byte as \\xNN", TEXT, "h\xff", "h\\xff" },
	{ "truncated sequence byte by byte", TEXT, "a\xe2\x82",
	  "a\\xe2\\x82" },
	{ "overlong '/' byte by byte", TEXT, "\xc0\xaf", "\\xc0\\xaf" },
	/* U+009B is CSI, which some terminals obey like ESC [. */
	{ "C1 control CSI", TEXT, "\xc2\x9b" "2J", "\\u009b2J" },
	{ "U+00A0 is not C1", TEXT, "\xc2\xa0", "\xc2\xa0" },
	{ "right-to-left override", TEXT, rlo, "ab\\u202ecd" },
	{ "first isolate", TEXT, lri, "\\u2066" },

	{ "code span", MD_CODE, "threads=4", "`threads=4`" },
	{ "a backtick cannot close it", MD_CODE, "a`b", "``a`b``" },
	{ "two backticks: three around", MD_CODE, "a``b", "```a``b```" },
	/* Without the padding "``<img ...>``" would be read as an empty
	 * span and raw HTML. */
	{ "backticks at the ends: padded", MD_CODE,
	  "`<img src=x onerror=alert(1)>`",
	  "`` `<img src=x onerror=alert(1)>` ``" },
	{ "leading space kept by padding", MD_CODE, " x", "`  x `" },
	{ "newline stays on the line", MD_CODE, "x\ny", "`x\\ny`" },
	{ "empty", MD_CODE, "", "`\"\"`" },
	{ "pipe outside a table", MD_CODE, "a|b", "`a|b`" },
	{ "pipe in a table cell", MD_TABLE, "a|b", "`a\\|b`" },
	{ "markdown text", MD_TEXT, "a*b_c<d>", "a\\*b\\_c\\<d\\>" },
	{ "markdown text: link, entity, code", MD_TEXT, "[x](y) &amp; `z`",
	  "\\[x\\](y) \\&amp; \\`z\\`" },
	{ "markdown text: controls", MD_TEXT, "a\x1b" "b", "a\\x1bb" },
	/* gnuplot 5.4 "Syntax": in single quotes only '' is special (no
	 * backslash escapes, no `...` or @macro substitution); a line
	 * break ends the line, so the command. */
	{ "gnuplot plain", GNUPLOT, "mutex-delay 4", "'mutex-delay 4'" },
	{ "gnuplot NULL is empty", GNUPLOT, NULL, "''" },
	{ "gnuplot quote doubled", GNUPLOT, "it's", "'it''s'" },
	{ "gnuplot quote at the end", GNUPLOT, "a'", "'a'''" },
	{ "gnuplot newline cannot start a command", GNUPLOT,
	  "a\nsystem(\"id\")", "'a\\nsystem(\"id\")'" },
	{ "gnuplot CR, tab, ESC", GNUPLOT, "\r\t\x1b", "'\\r\\t\\x1b'" },
	{ "gnuplot backslash kept, even last", GNUPLOT, "a\\", "'a\\'" },
	{ "gnuplot backquote and macro inert", GNUPLOT, "`id` @m",
	  "'`id` @m'" },
	{ "gnuplot double quotes inert", GNUPLOT, "\"x\"", "'\"x\"'" },
	{ "gnuplot invalid UTF-8", GNUPLOT, "a\xff", "'a\\xff'" },
	{ "gnuplot line separator U+2028", GNUPLOT, "a\xe2\x80\xa8",
	  "'a\\u2028'" },
	{ "gnuplot UTF-8 kept", GNUPLOT, "caf\xc3\xa9", "'caf\xc3\xa9'" },

	{ "html plain", HTML, "threads=4", "threads=4" },
	{ "html tag", HTML, "<script>x</script>",
	  "&lt;script&gt;x&lt;/script&gt;" },
	{ "html attribute quotes", HTML, "\"'&", "&quot;&#39;&amp;" },
	{ "html controls", HTML, "a\nb\x01", "a\\nb\\x01" },
	{ "html invalid UTF-8", HTML, "\xc0<", "\\xc0&lt;" },
};


static char *run(const struct esccase *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	switch (c->kind) {
	case TEXT:
		escape_fputs(f, c->in);
		break;
	case MD_CODE:
	case MD_TABLE:
		escape_md_code(f, c->in, c->kind == MD_TABLE);
		break;
	case MD_TEXT:
		escape_md_text(f, c->in);
		break;
	case GNUPLOT:
		escape_gnuplot(f, c->in);
		break;
	case HTML:
		escape_html(f, c->in);
		break;
	}
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_cases(void **state)
{
	size_t i, bad = 0;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = run(&cases[i]);

		if (strcmp(got, cases[i].want)) {
			fprintf(stderr, "%s: got \"%s\", want \"%s\"\n",
				cases[i].name, got, cases[i].want);
			bad++;
		}
		if (cases[i].kind == TEXT) {
			char *dup = escape_text_dup(cases[i].in);

			assert_string_equal(dup, cases[i].want);
			free(dup);
		}
		free(got);
	}
	assert_int_equal(bad, 0);
}

/* escape_text cuts on a whole escape and returns the full length. */
static void test_cut(void **state)
{
	char buf[8] = "zzzzzzz";

	(void)state;
	assert_int_equal(escape_text(buf, 5, "\x1b" "ab"), 6);
	assert_string_equal(buf, "\\x1b");
	assert_int_equal(escape_text(buf, 3, "\x1b"), 4);
	assert_string_equal(buf, "");
	assert_int_equal(escape_text(NULL, 0, "a\nb"), 4);
}

/*
 * escape_stream: a report's line breaks and tabs pass, every other
 * control is shown; a UTF-8 sequence cut between two writes (an
 * unbuffered stream writes each fputs by itself) is joined, not shown as
 * two invalid bytes; a sequence never completed is shown at the close.
 */
static void test_stream(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len), *f;

	(void)state;
	assert_non_null(out);
	f = escape_stream(out);
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	fputs("a\tb\n\x1b[2Jc\r\x07", f);
	fputs("caf\xc3", f);
	fputs("\xa9 \xe2\x80", f);
	fputs("\xae|\n\xe2\x82", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(fclose(out), 0);
	assert_string_equal(buf, "a\tb\n\\x1b[2Jc\\r\\x07"
			    "caf\xc3\xa9 \\u202e|\n\\xe2\\x82");
	free(buf);
}

/*
 * escape_clip: data quoted in a message, escaped and capped.  Each want
 * worked out by hand: at most max bytes, "..." within them when cut, the
 * cut before an escape or a character it would split.
 */
static const struct {
	const char *name, *in;
	size_t dstlen, max;
	const char *want;
} clips[] = {
	{ "short", "name", 64, 60, "name" },
	{ "escaped", "a\x1b[2Jb", 64, 60, "a\\x1b[2Jb" },
	{ "exactly max", "0123456789", 64, 10, "0123456789" },
	{ "one over", "0123456789a", 64, 10, "0123456..." },
	/* 7 bytes kept: "ab", \x1b (4 bytes) and "c" fit */
	{ "escape before the cut", "ab\x1b" "cdefgh", 64, 10, "ab\\x1bc..." },
	/* "abcd" then \x1b would be 8: the escape is not split, 4 kept */
	{ "escape at the cut", "abcd\x1b" "efgh", 64, 10, "abcd..." },
	/* é is 2 bytes: "abcdef" + half of é would be 7 */
	{ "character at the cut", "abcdef\xc3\xa9xyz", 64, 10, "abcdef..." },
	{ "buffer smaller than max", "0123456789", 8, 60, "0123..." },
	{ "tiny max", "0123456789", 64, 2, ".." },
	{ "null", NULL, 64, 60, "" },
};

static void test_clip(void **state)
{
	char big[6000], buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(clips) / sizeof(clips[0]); i++) {
		memset(buf, 'z', sizeof(buf));
		escape_clip(buf, clips[i].dstlen, clips[i].in, clips[i].max);
		if (strcmp(buf, clips[i].want))
			fail_msg("%s: got '%s', want '%s'", clips[i].name, buf,
				 clips[i].want);
	}
	/* a 5,000-byte pattern of escapes: 60 bytes, no escape split */
	memset(big, '\x1b', 5000);
	big[5000] = '\0';
	{
		char q[ESCAPE_QUOTE_BUF];

		escape_clip(q, sizeof(q), big, ESCAPE_QUOTE_MAX);
		/* 14 escapes of 4 bytes (56) then "..." */
		assert_int_equal(strlen(q), 14 * 4 + 3);
		assert_string_equal(q + 52, "\\x1b...");
	}
}

/* escape_quote: four quotes of one message at once, each escaped and
 * capped as escape_clip does. */
static void test_quote(void **state)
{
	char big[200];
	const char *a, *b, *c, *d;

	(void)state;
	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	a = escape_quote("a\x1b");
	b = escape_quote(big);
	c = escape_quote(NULL);
	d = escape_quote("d");
	assert_string_equal(a, "a\\x1b");
	assert_int_equal(strlen(b), ESCAPE_QUOTE_MAX);
	assert_string_equal(b + ESCAPE_QUOTE_MAX - 4, "q...");
	assert_string_equal(c, "");
	assert_string_equal(d, "d");
}

/*
 * Every message of error(), error_at() and warning() reaches the terminal
 * escaped, whatever data it quotes: an ESC, a line break, a file name's
 * carriage return are shown, not obeyed.
 */
static void test_messages(void **state)
{
	struct capture_fd c = { -1, -1, NULL };
	char *got;

	(void)state;
	assert_int_equal(capture_fd_start(&c, 2), 0);
	error("metric '%s' is not recorded", "x\x1b[2Jy\nz");
	error_at("a\rb.ini", 3, "key '%s'", "\x07");
	warning("%s", "caf\xc3\xa9 \x9b");
	got = capture_fd_end(&c);
	assert_string_equal(got,
		"contend: metric 'x\\x1b[2Jy\\nz' is not recorded\n"
		"contend: a\\rb.ini:3: key '\\x07'\n"
		"contend: warning: caf\xc3\xa9 \\x9b\n");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_clip),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_messages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
