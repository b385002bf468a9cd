/*
 * test_numfile.c - ministat-compatible number files: a table of named
 * inputs with the numbers they must yield or the message they must raise
 * (file name and line number included), and the file-level edge cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare.h"

#define MAXV 8

/* A file's numbers as compare reads them: numfile_slurp, numfile_parse. */
static int numfile_read(const char *path, const struct numfile_opts *o,
			double **values, size_t *n)
{
	size_t len = 0;
	char *buf;
	int ret;

	*values = NULL;
	*n = 0;
	if (numfile_slurp(path, &buf, &len) < 0)
		return -1;
	ret = numfile_parse(path, buf, len, o, values, n);
	free(buf);
	return ret;
}

struct numcase {
	const char *name;
	const char *text;
	size_t len;             /* 0: strlen(text) */
	long column;            /* 0: default */
	const char *delims;     /* NULL: default */
	size_t n;               /* expected count; 0 = an error */
	double v[MAXV];
	const char *msg;        /* expected in the error message */
};

static const struct numcase cases[] = {
	{ "one value", "42\n", 0, 0, NULL, 1, { 42 }, NULL },
	{ "no final newline", "1\n2", 0, 0, NULL, 2, { 1, 2 }, NULL },
	{ "comments and blank lines",
	  "# header\n\n1.5   # trailing\n  \n\t2.5\n#\n", 0, 0, NULL, 2,
	  { 1.5, 2.5 }, NULL },
	{ "scientific notation and sign", "1e6\n-2.5E-3\n+7\n", 0, 0, NULL,
	  3, { 1e6, -2.5e-3, 7 }, NULL },
	{ "CRLF line ends", "3\r\n4\r\n", 0, 0, NULL, 2, { 3, 4 }, NULL },
	{ "first column of several", "10 a b\n20\tc\n", 0, 0, NULL, 2,
	  { 10, 20 }, NULL },
	{ "-C 2, blank runs collapse", "x   1\n  y\t\t2  \n", 0, 2, NULL, 2,
	  { 1, 2 }, NULL },
	{ "-C 3 -d , keeps empty fields", "a,,5\nb,c,6\n", 0, 3, ",", 2,
	  { 5, 6 }, NULL },
	{ "-d , blanks around a value", "1 , 2\n", 0, 2, ",", 1, { 2 }, NULL },
	{ "-d with several delimiters", "a;1:2\n", 0, 3, ";:", 1, { 2 },
	  NULL },
	{ "non-numeric line quoted with its number", "1\n2\nabc\n4\n", 0, 0,
	  NULL, 0, { 0 }, "t.txt:3: not a finite number: 'abc'" },
	{ "number with trailing junk", "1\n2x\n", 0, 0, NULL, 0, { 0 },
	  "t.txt:2: not a finite number: '2x'" },
	{ "infinity rejected", "inf\n", 0, 0, NULL, 0, { 0 },
	  "t.txt:1: not a finite number: 'inf'" },
	{ "nan rejected", "1\nnan\n", 0, 0, NULL, 0, { 0 },
	  "t.txt:2: not a finite number: 'nan'" },
	{ "overflow rejected", "1e999\n", 0, 0, NULL, 0, { 0 },
	  "t.txt:1: not a finite number" },
	{ "missing column", "1 2\n3\n", 0, 2, NULL, 0, { 0 },
	  "t.txt:2: line has 1 field, column 2 asked" },
	{ "empty column with -d", "a,,1\n", 0, 2, ",", 0, { 0 },
	  "t.txt:1: column 2 is empty" },
	{ "NUL byte", "1\n2\0003\n", 6, 0, NULL, 0, { 0 },
	  "t.txt:2: NUL byte" },
	{ "empty text", "", 0, 0, NULL, 0, { 0 }, "t.txt: no numbers" },
	{ "only comments", "# nothing\n\n   # here\n", 0, 0, NULL, 0, { 0 },
	  "t.txt: no numbers" },
};

/* Exact comparison without ==, which -Wfloat-equal forbids. */
static void check_value(double got, double want)
{
	if (fabs(got - want) > 0)
		fail_msg("got %.17g, want %.17g", got, want);
}

/* stderr goes to a temporary file while a case runs, to read the message. */
struct capture {
	FILE *tmp;
	int saved;
};

static void capture_begin(struct capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	assert_non_null(c->tmp);
	c->saved = dup(STDERR_FILENO);
	assert_true(c->saved >= 0);
	assert_true(dup2(fileno(c->tmp), STDERR_FILENO) >= 0);
}

static char *capture_end(struct capture *c)
{
	static char buf[1024];
	size_t n;

	fflush(stderr);
	dup2(c->saved, STDERR_FILENO);
	close(c->saved);
	rewind(c->tmp);
	n = fread(buf, 1, sizeof(buf) - 1, c->tmp);
	buf[n] = '\0';
	fclose(c->tmp);
	return buf;
}

static void run_case(const struct numcase *tc)
{
	struct numfile_opts o;
	struct capture cap;
	double *v = NULL;
	size_t n = 99, i;
	char *msg;
	int ret;

	numfile_opts_default(&o);
	if (tc->column)
		o.column = tc->column;
	if (tc->delims)
		o.delims = tc->delims;
	capture_begin(&cap);
	ret = numfile_parse("t.txt", tc->text,
			    tc->len ? tc->len : strlen(tc->text), &o, &v, &n);
	msg = capture_end(&cap);
	if (tc->n) {
		if (ret != 0)
			fail_msg("%s: unexpected error: %s", tc->name, msg);
		assert_int_equal(n, tc->n);
		for (i = 0; i < n; i++)
			check_value(v[i], tc->v[i]);
		assert_string_equal(msg, "");
	} else {
		assert_int_equal(ret, -1);
		assert_null(v);
		assert_int_equal(n, 0);
		if (!strstr(msg, tc->msg))
			fail_msg("%s: expected '%s' in '%s'", tc->name,
				 tc->msg, msg);
	}
	free(v);
}

static void test_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("  %s\n", cases[i].name);
		run_case(&cases[i]);
	}
}

static char *write_temp(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	strcpy(path, "/tmp/test_numfile.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* A file of zero bytes is an error naming the file, not zero samples. */
static void test_empty_file(void **state)
{
	struct numfile_opts o;
	struct capture cap;
	char *path = write_temp(""), *msg;
	double *v;
	size_t n;

	(void)state;
	numfile_opts_default(&o);
	capture_begin(&cap);
	assert_int_equal(numfile_read(path, &o, &v, &n), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, path));
	assert_non_null(strstr(msg, "no numbers"));
	unlink(path);
}

static void test_read_file(void **state)
{
	struct numfile_opts o;
	char *path = write_temp("# run times\n1.25\n2.5\n\n5\n");
	double *v;
	size_t n;

	(void)state;
	numfile_opts_default(&o);
	assert_int_equal(numfile_read(path, &o, &v, &n), 0);
	assert_int_equal(n, 3);
	check_value(v[0], 1.25);
	check_value(v[1], 2.5);
	check_value(v[2], 5);
	free(v);
	unlink(path);
}

static void test_missing_and_directory(void **state)
{
	struct numfile_opts o;
	struct capture cap;
	double *v;
	size_t n;
	char *msg;

	(void)state;
	numfile_opts_default(&o);
	capture_begin(&cap);
	assert_int_equal(numfile_read("/nonexistent/x.txt", &o, &v, &n), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "/nonexistent/x.txt: cannot open"));
	capture_begin(&cap);
	assert_int_equal(numfile_read("/tmp", &o, &v, &n), -1);
	msg = capture_end(&cap);
	assert_non_null(strstr(msg, "/tmp: is a directory"));
}

/* Many values grow the array past its first allocation. */
static void test_many_values(void **state)
{
	struct numfile_opts o;
	char *text = malloc(10 * 1000 + 1), *p = text;
	double *v;
	size_t n, i;

	(void)state;
	for (i = 0; i < 1000; i++)
		p += sprintf(p, "%zu\n", i);
	numfile_opts_default(&o);
	assert_int_equal(numfile_parse("big", text, strlen(text), &o, &v, &n),
			 0);
	assert_int_equal(n, 1000);
	for (i = 0; i < n; i++)
		check_value(v[i], (double)i);
	free(v);
	free(text);
}

/*
 * NUMFILE_MAX_VALUES numbers are taken; one more is refused at its line,
 * so memory stays bounded however short the lines ("1\n" is 2 bytes).
 */
static void test_value_limit(void **state)
{
	const size_t max = NUMFILE_MAX_VALUES;
	char *text = malloc(2 * (max + 1)), *msg;
	struct numfile_opts o;
	struct capture cap;
	double *v;
	size_t n, i;

	(void)state;
	assert_non_null(text);
	for (i = 0; i <= max; i++) {
		text[2 * i] = '1';
		text[2 * i + 1] = '\n';
	}
	numfile_opts_default(&o);
	assert_int_equal(numfile_parse("big", text, 2 * max, &o, &v, &n), 0);
	assert_int_equal(n, max);
	free(v);
	capture_begin(&cap);
	assert_int_equal(numfile_parse("big", text, 2 * (max + 1), &o, &v, &n),
			 -1);
	msg = capture_end(&cap);
	assert_null(v);
	assert_non_null(strstr(msg, "big:1000001: more than 1000000 numbers"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_read_file),
		cmocka_unit_test(test_missing_and_directory),
		cmocka_unit_test(test_many_values),
		cmocka_unit_test(test_value_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
