/*
 * test_opt.c - cli/opt.c, the one command-line parser: a table of command
 * lines against a test command's rows, each with the fields it must set
 * or the message it must print, and the usage and help text generated
 * from the rows (expected text written out by hand from opt.h's rules).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/opt.h"
#include "lib/util.h"
#include "tests/capture.h"

/* A setter of the test's own: a text that may not be empty. */
static int opt_text(const char *opt, const char *arg, void *field, int value)
{
	if (!*arg)
		return error("%s: the value is empty", opt);
	return opt_string(opt, arg, field, value);
}

struct args {
	const char *db, *label, *config;
	bool quiet, dry;
	int mode;
	long count;
	struct opt_words rest;
	const char *levels;
};

/* count: a whole number from 1 to 9. */
static int set_count(const char *opt, const char *arg, void *field,
		     int value)
{
	long long n;

	(void)value;
	if (parse_ll(arg, &n) < 0 || n < 1 || n > 9)
		return error("%s: '%s' is not a count from 1 to 9", opt, arg);
	*(long *)field = (long)n;
	return 0;
}

#define FIELD(f) offsetof(struct args, f)

static const struct opt rows[] = {
	{ NULL, 0, "CONFIG", "the file", NULL, FIELD(config), 0, 0 },
	{ "db", 0, "PATH", "the database", NULL, FIELD(db), 0, 0 },
	{ "label", 'l', "L", "a label", opt_text, FIELD(label), 0, 0 },
	{ "quiet", 'q', NULL, "say less", NULL, FIELD(quiet), 0, 0 },
	{ "dry-run", 0, NULL, "plan only", NULL, FIELD(dry), 0, 0 },
	{ "fast", 0, NULL, "mode 1", opt_int, FIELD(mode), 1, 0 },
	{ "slow", 0, NULL, "mode 2", opt_int, FIELD(mode), 2, 0 },
	{ "count", 'c', "N", "how many", set_count, FIELD(count), 0, 0 },
	{ NULL, 0, "MORE", "the rest", NULL, FIELD(rest), 0,
	  OPT_OPTIONAL | OPT_MANY },
	{ "levels", 0, "NAME", "elsewhere", NULL, 0, 0, OPT_DIVERTS },
	{ "hidden", 0, "X", NULL, NULL, FIELD(levels), 0, 0 },
};

static const struct opt_cmd cmd = {
	"try", "a command to test the parser", rows, ARRAY_SIZE(rows),
	"Notes after the options.",
};

struct parse_case {
	const char *name;
	const char *argv[8];
	int ret;
	const char *err;        /* on stderr (a substring); NULL: nothing */
	struct args want;       /* when ret is 0; rest counted only */
};

static const struct parse_case cases[] = {
	{ "operand only", { "c.ini" }, 0, NULL,
	  { .config = "c.ini" } },
	{ "--opt value", { "--db", "x.db", "c.ini" }, 0, NULL,
	  { .db = "x.db", .config = "c.ini" } },
	{ "--opt=value", { "--db=x.db", "c.ini" }, 0, NULL,
	  { .db = "x.db", .config = "c.ini" } },
	{ "an empty --opt= value is a value", { "--db=", "c.ini" }, 0, NULL,
	  { .db = "", .config = "c.ini" } },
	{ "options after the operand", { "c.ini", "--quiet", "--dry-run" }, 0,
	  NULL, { .config = "c.ini", .quiet = true, .dry = true } },
	{ "short letters", { "-q", "-l", "v6", "c.ini" }, 0, NULL,
	  { .quiet = true, .label = "v6", .config = "c.ini" } },
	{ "short letters joined", { "-qc3", "c.ini" }, 0, NULL,
	  { .quiet = true, .count = 3, .config = "c.ini" } },
	{ "a setter's value", { "--slow", "c.ini" }, 0, NULL,
	  { .mode = 2, .config = "c.ini" } },
	{ "the last of two wins", { "--slow", "--fast", "c.ini" }, 0, NULL,
	  { .mode = 1, .config = "c.ini" } },
	{ "a unique prefix", { "--dry", "c.ini" }, 0, NULL,
	  { .dry = true, .config = "c.ini" } },
	{ "a hidden row still parses", { "--hidden", "h", "c.ini" }, 0, NULL,
	  { .levels = "h", .config = "c.ini" } },
	{ "the rest", { "c.ini", "a", "b", "--quiet" }, 0, NULL,
	  { .config = "c.ini", .quiet = true, .rest = { NULL, 2 } } },
	{ "-- ends the options", { "c.ini", "--", "--quiet" }, 0, NULL,
	  { .config = "c.ini", .rest = { NULL, 1 } } },
	{ "unknown long", { "--bogus", "c.ini" }, -1,
	  "try: unknown option '--bogus'", { 0 } },
	{ "did you mean", { "--lable", "v6", "c.ini" }, -1,
	  "unknown option '--lable'; did you mean '--label'?", { 0 } },
	{ "unknown long with a value", { "--bogus=3", "c.ini" }, -1,
	  "unknown option '--bogus'", { 0 } },
	{ "unknown short", { "-x", "c.ini" }, -1, "unknown option '-x'",
	  { 0 } },
	{ "missing value, long", { "c.ini", "--db" }, -1,
	  "option '--db' needs a value (PATH)", { 0 } },
	{ "missing value, short", { "c.ini", "-c" }, -1,
	  "option '-c' needs a value (N)", { 0 } },
	{ "a flag given a value", { "--quiet=yes", "c.ini" }, -1,
	  "option '--quiet' takes no value", { 0 } },
	{ "bad value, long", { "--count", "12", "c.ini" }, -1,
	  "--count: '12' is not a count from 1 to 9", { 0 } },
	{ "bad value, short spelt short", { "-c", "0", "c.ini" }, -1,
	  "-c: '0' is not a count from 1 to 9", { 0 } },
	{ "an empty text", { "--label=", "c.ini" }, -1,
	  "--label: the value is empty", { 0 } },
	{ "ambiguous prefix", { "--d", "x", "c.ini" }, -1,
	  "option '--d' is ambiguous", { 0 } },
	{ "missing operand", { "--quiet" }, -1, "try: CONFIG is missing",
	  { 0 } },
	{ "help", { "--help" }, OPT_HELP, NULL, { 0 } },
	{ "-h", { "c.ini", "-h" }, OPT_HELP, NULL, { 0 } },
	{ "diverted", { "c.ini", "--levels", "x" }, OPT_DIVERTED, NULL, { 0 } },
	{ "diverted with =", { "--levels=x" }, OPT_DIVERTED, NULL, { 0 } },
	{ "not diverted after --", { "c.ini", "--", "--levels" }, 0, NULL,
	  { .config = "c.ini", .rest = { NULL, 1 } } },
};

static void check_args(const char *name, const struct args *got,
		       const struct args *want)
{
	const char *const gs[] = { got->db, got->label, got->config,
				   got->levels };
	const char *const ws[] = { want->db, want->label, want->config,
				   want->levels };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gs); i++)
		if (!gs[i] != !ws[i] || (gs[i] && strcmp(gs[i], ws[i])))
			fail_msg("%s: string field %zu is '%s', want '%s'",
				 name, i, gs[i] ? gs[i] : "(null)",
				 ws[i] ? ws[i] : "(null)");
	if (got->quiet != want->quiet || got->dry != want->dry ||
	    got->mode != want->mode || got->count != want->count ||
	    got->rest.n != want->rest.n)
		fail_msg("%s: quiet %d dry %d mode %d count %ld rest %zu", name,
			 got->quiet, got->dry, got->mode, got->count,
			 got->rest.n);
}

static void test_parse(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct parse_case *t = &cases[i];
		char *argv[10] = { (char *)"try" };
		struct capture_fd o = { 0 }, e = { 0 };
		struct args a = { 0 };
		char *out, *err;
		int argc = 1, ret;

		while (t->argv[argc - 1])
			argv[argc] = (char *)t->argv[argc - 1], argc++;
		assert_int_equal(capture_fd_start(&o, 1), 0);
		assert_int_equal(capture_fd_start(&e, 2), 0);
		ret = opt_parse(&cmd, argc, argv, &a);
		err = capture_fd_end(&e);
		out = capture_fd_end(&o);
		if (ret != t->ret)
			fail_msg("%s: returned %d, want %d (stderr '%s')",
				 t->name, ret, t->ret, err);
		if (t->err ? !strstr(err, t->err) : *err != '\0')
			fail_msg("%s: stderr '%s', want '%s'", t->name, err,
				 t->err ? t->err : "");
		if (ret == 0)
			check_args(t->name, &a, &t->want);
		if (ret == OPT_HELP && strncmp(out, "usage: contend try ", 19))
			fail_msg("%s: help on stdout is '%s'", t->name, out);
		if (ret != OPT_HELP && *out)
			fail_msg("%s: stdout '%s'", t->name, out);
		free(out);
		free(err);
	}
}

/* The rest points into argv, in order. */
static void test_rest_words(void **state)
{
	char *argv[] = { (char *)"try", (char *)"c.ini", (char *)"a",
			 (char *)"-q", (char *)"b", NULL };
	struct args a = { 0 };

	(void)state;
	assert_int_equal(opt_parse(&cmd, 5, argv, &a), 0);
	assert_int_equal(a.rest.n, 2);
	assert_string_equal(a.rest.v[0], "a");
	assert_string_equal(a.rest.v[1], "b");
	/* A second parse starts afresh (getopt's state is reset). */
	memset(&a, 0, sizeof(a));
	assert_int_equal(opt_parse(&cmd, 5, argv, &a), 0);
	assert_string_equal(a.config, "c.ini");
	assert_true(a.quiet);
	/* argv keeps every word, the operands last (as GNU getopt's
	 * permutation leaves them): report hands it on to levels. */
	assert_string_equal(argv[1], "-q");
	assert_string_equal(argv[2], "c.ini");
	assert_string_equal(argv[4], "b");
}

/* Options after operands, also when POSIXLY_CORRECT is set (the runner
 * hands its environment to `contend exec WORKLOAD k=v --scratch DIR`). */
static void test_posixly_correct(void **state)
{
	char *argv[] = { (char *)"try", (char *)"c.ini", (char *)"--quiet",
			 NULL };
	struct args a = { 0 };

	(void)state;
	assert_int_equal(setenv("POSIXLY_CORRECT", "1", 1), 0);
	assert_int_equal(opt_parse(&cmd, 3, argv, &a), 0);
	unsetenv("POSIXLY_CORRECT");
	assert_string_equal(a.config, "c.ini");
	assert_true(a.quiet);
}

/* Extra operands: one message and the usage, on stderr. */
static void test_extra_operand(void **state)
{
	static const struct opt one[] = {
		{ NULL, 0, "A", "one", NULL, 0, 0, 0 },
	};
	static const struct opt_cmd c1 = { "one", "one operand", one, 1, NULL };
	char *argv[] = { (char *)"one", (char *)"x", (char *)"y", NULL };
	const char *a = NULL;
	struct capture_fd e = { 0 };
	char *err;

	(void)state;
	assert_int_equal(capture_fd_start(&e, 2), 0);
	assert_int_equal(opt_parse(&c1, 3, argv, &a), -1);
	err = capture_fd_end(&e);
	assert_string_equal(err, "contend: one: unexpected argument 'y'\n"
				 "usage: contend one A\n");
	assert_string_equal(a, "x");
	free(err);
}

static char *text_of(void (*fn)(FILE *, const struct opt_cmd *),
		     const struct opt_cmd *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, c);
	fclose(f);
	return buf;
}

/*
 * The synopsis: operands as they are ([MORE...] optional and repeated),
 * options in brackets, short letters as -l|--label, hidden rows left
 * out, wrapped before 80 columns under the first word after the name.
 */
static void test_usage(void **state)
{
	char *u = text_of(opt_usage, &cmd);

	(void)state;
	assert_string_equal(u,
		"usage: contend try CONFIG [--db PATH] [-l|--label L] "
		"[-q|--quiet] [--dry-run]\n"
		"                   [--fast] [--slow] [-c|--count N] [MORE...] "
		"[--levels NAME]\n");
	free(u);
}

/* Help: usage, summary, operands, options with -h, notes; <= 80 columns. */
static void test_help(void **state)
{
	char *h = text_of(opt_help, &cmd), *line, *save = NULL;

	(void)state;
	assert_non_null(strstr(h, "\n\na command to test the parser\n\n"
				  "arguments:\n"
				  "  CONFIG                the file\n"
				  "  MORE...               the rest\n\n"
				  "options:\n"
				  "      --db PATH         the database\n"
				  "  -l, --label L         a label\n"));
	assert_non_null(strstr(h, "  -h, --help            print this help "
				  "and exit\n\nNotes after the options.\n"));
	assert_null(strstr(h, "hidden"));
	for (line = strtok_r(h, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strlen(line) > 80)
			fail_msg("a line of %zu columns: '%s'", strlen(line),
				 line);
	free(h);
}

/* A left column too wide for the help column puts the help below. */
static void test_help_wide(void **state)
{
	static const struct opt wide[] = {
		{ "a-very-long-option", 0, "VALUE", "its help", NULL, 0, 0, 0 },
	};
	static const struct opt_cmd c = { "w", "wide", wide, 1, NULL };
	char *h = text_of(opt_help, &c);

	(void)state;
	assert_non_null(strstr(h, "\n      --a-very-long-option VALUE\n"
				  "                        its help\n"));
	free(h);
}

/* opt_choice: the index of the word among the row's "a|b|c", or an error
 * naming the option and every word. */
static void test_choice(void **state)
{
	static const struct opt crows[] = {
		{ "format", 0, "csv|json|text", "the output", opt_choice,
		  FIELD(mode), 0, 0 },
	};
	static const struct opt_cmd ccmd = { "pick", "choices", crows,
					     ARRAY_SIZE(crows), NULL };
	static const struct { const char *arg; int ret, mode; } want[] = {
		{ "--format=csv", 0, 0 }, { "--format=json", 0, 1 },
		{ "--format=text", 0, 2 }, { "--format=js", -1, -1 },
		{ "--format=jsonx", -1, -1 }, { "--format=", -1, -1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		char *argv[] = { (char *)"pick", (char *)want[i].arg, NULL };
		struct args a = { .mode = -1 };
		struct capture_fd e = { 0 };
		char *err;
		int ret;

		assert_int_equal(capture_fd_start(&e, 2), 0);
		ret = opt_parse(&ccmd, 2, argv, &a);
		err = capture_fd_end(&e);
		assert_int_equal(ret, want[i].ret);
		assert_int_equal(a.mode, want[i].mode);
		if (ret)
			assert_non_null(strstr(err, "--format: unknown format '"));
		if (ret)
			assert_non_null(strstr(err, "' (csv, json, text)"));
		free(err);
	}
}

/* The shared setters of durations and percentages, at their edges. */
static void test_setters(void **state)
{
	double v;

	(void)state;
	assert_int_equal(opt_duration("--c", "2m", &v, 0), 0);
	assert_true(v > 119.999 && v < 120.001);
	assert_int_equal(opt_duration("--c", "0", &v, 1), 0);
	assert_int_equal(opt_duration("--c", "0", &v, 0), -1);
	assert_int_equal(opt_duration("--c", "-1s", &v, 1), -1);
	assert_int_equal(opt_percent("--p", "5%", &v, 0), 0);
	assert_true(v > 4.999 && v < 5.001);
	assert_int_equal(opt_percent("--p", "0", &v, 0), -1);
	assert_int_equal(opt_percent("--p", "0", &v, 1), 0);
	assert_int_equal(opt_percent("--p", "100", &v, 1), -1);
	assert_int_equal(opt_percent("--p", "nan", &v, 1), -1);
	assert_int_equal(opt_percent("--p", "five", &v, 1), -1);
}

static void test_exit(void **state)
{
	(void)state;
	assert_int_equal(opt_exit(OPT_HELP), 0);
	assert_int_equal(opt_exit(-1), EXIT_USAGE);
	assert_int_equal(EXIT_USAGE, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_rest_words),
		cmocka_unit_test(test_posixly_correct),
		cmocka_unit_test(test_extra_operand),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_help_wide),
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_setters),
		cmocka_unit_test(test_exit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
