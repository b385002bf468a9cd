/*
 * test_param.c - the typed parameter parser: every type, its range checks
 * and messages, canonical formatting (and that it parses back to itself),
 * cpu lists, and args_from_kv.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/param.h"
#include "lib/util.h"

static const char *const colors[] = { "red", "green", "blue", NULL };

static const struct param_def p_int = { "n", PT_INT, "1", -5, 100, NULL, "" };
static const struct param_def p_int_open = { "n", PT_INT, "0", 0, 0, NULL,
					     "" };
static const struct param_def p_u64 = { "jobs", PT_U64, NULL, 1, 0, NULL,
					"" };
static const struct param_def p_dbl = { "x", PT_DOUBLE, "0", 0, 1, NULL,
					"" };
static const struct param_def p_dur = { "d", PT_DURATION, "1s", 0.001, 3600,
					NULL, "" };
static const struct param_def p_dur_open = { "d", PT_DURATION, "1s", 0, 0,
					     NULL, "" };
/* timeline's kind: a duration, or its word (auto parses as -1) */
static const char *const dur_words[] = { "auto", NULL };
static const struct param_def p_dur_word = { "t", PT_DURATION, "0", 0, 10,
					     dur_words, "" };
static const struct param_def p_bool = { "b", PT_BOOL, "no", 0, 0, NULL,
					 "" };
static const struct param_def p_enum = { "c", PT_ENUM, "red", 0, 0, colors,
					 "" };
static const struct param_def p_str = { "s", PT_STRING, "", 0, 0, NULL, "" };
static const struct param_def p_kdelay = { "kernel_delay", PT_KDELAY, NULL,
					   0, 0, NULL, "" };
static const struct param_def p_cpus = { "cpus", PT_CPUS, NULL, 0, 0, NULL,
					 "" };

/* want: canonical text on success; err: the exact message otherwise. */
struct parse_case {
	const char *name;
	const struct param_def *p;
	const char *text;
	const char *want;
	const char *err;
};

#define OK(n, p, t, w) { n, &p, t, w, NULL }
#define BAD(n, p, t, e) { n, &p, t, NULL, e }

static const struct parse_case parse_cases[] = {
	OK("int plain", p_int, "42", "42"),
	OK("int blanks", p_int, " 7 ", "7"),
	OK("int plus sign", p_int, "+3", "3"),
	OK("int min", p_int, "-5", "-5"),
	OK("int max", p_int, "100", "100"),
	BAD("int above max", p_int, "101", "n: 101 is out of range (-5 .. 100)"),
	BAD("int below min", p_int, "-6", "n: -6 is out of range (-5 .. 100)"),
	BAD("int letters", p_int, "abc", "n: 'abc' is not an integer"),
	BAD("int fraction", p_int, "1.5", "n: '1.5' is not an integer"),
	BAD("int exponent", p_int, "1e3", "n: '1e3' is not an integer"),
	BAD("int hex", p_int, "0x10", "n: '0x10' is not an integer"),
	BAD("int empty", p_int, "", "n: empty value"),
	BAD("int blank", p_int, "   ", "n: empty value"),
	BAD("int enormous", p_int, "99999999999999999999",
	    "n: 99999999999999999999 is out of range (-5 .. 100)"),
	OK("int no max: LLONG_MAX", p_int_open, "9223372036854775807",
	   "9223372036854775807"),
	BAD("int no max: past LLONG_MAX", p_int_open, "9223372036854775808",
	    "n: 9223372036854775808 does not fit in 64 bits"),
	BAD("int no max: negative", p_int_open, "-1",
	    "n: -1 is out of range (>= 0)"),
	OK("u64 max", p_u64, "18446744073709551615", "18446744073709551615"),
	BAD("u64 past max", p_u64, "18446744073709551616",
	    "jobs: 18446744073709551616 does not fit in 64 bits"),
	BAD("u64 negative", p_u64, "-1", "jobs: -1 is out of range (>= 1)"),
	BAD("u64 zero below min", p_u64, "0", "jobs: 0 is out of range (>= 1)"),
	BAD("u64 letters", p_u64, "ten",
	    "jobs: 'ten' is not an unsigned integer"),
	OK("double", p_dbl, "0.5", "0.5"),
	OK("double leading dot", p_dbl, ".25", "0.25"),
	OK("double exponent", p_dbl, "1e-1", "0.1"),
	OK("double shortest form", p_dbl, "0.30000", "0.3"),
	OK("double negative zero", p_dbl, "-0", "0"),
	OK("double max", p_dbl, "1", "1"),
	BAD("double above max", p_dbl, "1.0000001",
	    "x: 1.0000001 is out of range (0 .. 1)"),
	BAD("double nan", p_dbl, "nan", "x: 'nan' is not a number"),
	BAD("double inf", p_dbl, "inf", "x: 'inf' is not a number"),
	BAD("double overflow", p_dbl, "1e999", "x: '1e999' is not a number"),
	BAD("double comma", p_dbl, "0,5", "x: '0,5' is not a number"),
	/* Below DBL_MIN: the nearest double, though strtod sets ERANGE. */
	OK("double denormal", p_dbl, "4.9e-324", "5e-324"),
	OK("double underflow to zero", p_dbl, "1e-400", "0"),
	/* Decimal only (docs/INI.md): strtod alone reads hex floats. */
	BAD("double hex", p_dbl, "0x0.8", "x: '0x0.8' is not a number"),
	BAD("double signed hex", p_dbl, "-0X0p0", "x: '-0X0p0' is not a number"),
	/* What looks like a number but is not shows what hides in it. */
	BAD("int zero-width space", p_int, "4\xe2\x80\x8b" "2",
	    "n: '4\\u200b2' is not an integer"),
	BAD("int byte order mark", p_int, "\xef\xbb\xbf" "7",
	    "n: '\\ufeff7' is not an integer"),
	BAD("double escape", p_dbl, "\x1b[0m", "x: '\\x1b[0m' is not a number"),
	OK("duration s", p_dur, "2s", "2"),
	OK("duration ms", p_dur, "250ms", "0.25"),
	OK("duration m", p_dur, "1.5m", "90"),
	OK("duration h", p_dur, "1h", "3600"),
	OK("duration us", p_dur, "1000us", "0.001"),
	OK("duration bare", p_dur, "2", "2"),
	BAD("duration below min", p_dur, "5ns",
	    "d: 5ns is out of range (1ms .. 1h)"),
	BAD("duration above max", p_dur, "61m",
	    "d: 61m is out of range (1ms .. 1h)"),
	BAD("duration unit", p_dur, "2x",
	    "d: '2x' is not a duration (a number with a unit: ns, us, ms, s, "
	    "m, h)"),
	BAD("duration negative", p_dur, "-1s",
	    "d: '-1s' is not a duration (a number with a unit: ns, us, ms, s, "
	    "m, h)"),
	BAD("duration hex", p_dur, "0x10s",
	    "d: '0x10s' is not a duration (a number with a unit: ns, us, ms, s, "
	    "m, h)"),
	BAD("duration overflow", p_dur, "1e308h",
	    "d: '1e308h' is not a duration (a number with a unit: ns, us, ms, "
	    "s, m, h)"),
	OK("duration word", p_dur_word, "auto", "auto"),
	OK("duration word: a duration still", p_dur_word, "10ms", "0.01"),
	OK("duration word: 0 still", p_dur_word, "0", "0"),
	BAD("duration word: case", p_dur_word, "Auto",
	    "t: 'Auto' is not a duration (a number with a unit: ns, us, ms, s, "
	    "m, h) or auto"),
	BAD("duration word: negative", p_dur_word, "-1",
	    "t: '-1' is not a duration (a number with a unit: ns, us, ms, s, "
	    "m, h) or auto"),
	OK("duration no max: 24h", p_dur_open, "24h", "86400"),
	BAD("duration no max: past 24h", p_dur_open, "25h",
	    "d: 25h is out of range (0s .. 24h)"),
	OK("bool yes", p_bool, "yes", "yes"),
	OK("bool On", p_bool, "On", "yes"),
	OK("bool 0", p_bool, "0", "no"),
	OK("bool FALSE", p_bool, "FALSE", "no"),
	BAD("bool maybe", p_bool, "maybe",
	    "b: 'maybe' is not a boolean (yes/no, true/false, on/off, 1/0)"),
	OK("enum", p_enum, "green", "green"),
	OK("enum blanks", p_enum, " blue ", "blue"),
	BAD("enum typo", p_enum, "gren",
	    "c: unknown value 'gren'; did you mean 'green'? (choices: red, "
	    "green, blue)"),
	BAD("enum case", p_enum, "Red",
	    "c: unknown value 'Red'; did you mean 'red'? (choices: red, green, "
	    "blue)"),
	BAD("enum far", p_enum, "purple",
	    "c: unknown value 'purple' (choices: red, green, blue)"),
	OK("string keeps commas", p_str, "  a, b  ", "a, b"),
	OK("string empty", p_str, "", ""),
	OK("kernel_delay none", p_kdelay, "0", "0"),
	OK("kernel_delay none word", p_kdelay, "none", "0"),
	OK("kernel_delay", p_kdelay, "1ms@do_unlinkat", "1ms@do_unlinkat"),
	OK("kernel_delay unit", p_kdelay, "1000us@f.cold", "1ms@f.cold"),
	OK("kernel_delay cap", p_kdelay, "10ms@f", "10ms@f"),
	OK("kernel_delay fraction", p_kdelay, "0.5us@f", "500ns@f"),
	BAD("kernel_delay above cap", p_kdelay, "11ms@f",
	    "kernel_delay: '11ms@f': TIME is a duration above 0 and at most "
	    "10ms"),
	BAD("kernel_delay zero time", p_kdelay, "0s@f",
	    "kernel_delay: '0s@f': TIME is a duration above 0 and at most "
	    "10ms"),
	BAD("kernel_delay no unit", p_kdelay, "5@f",
	    "kernel_delay: '5@f': TIME is a duration above 0 and at most "
	    "10ms"),
	/* below the loop's resolution, or between two nanoseconds: the
	 * program would wait for something else than the label says */
	BAD("kernel_delay sub-ns", p_kdelay, "0.4ns@F",
	    "kernel_delay: '0.4ns@F': TIME is below 100ns, shorter than the "
	    "delay loop's own clock reads"),
	BAD("kernel_delay below resolution", p_kdelay, "99ns@f",
	    "kernel_delay: '99ns@f': TIME is below 100ns, shorter than the "
	    "delay loop's own clock reads"),
	BAD("kernel_delay below resolution seconds", p_kdelay, "1e-9s@f",
	    "kernel_delay: '1e-9s@f': TIME is below 100ns, shorter than the "
	    "delay loop's own clock reads"),
	OK("kernel_delay at resolution", p_kdelay, "100ns@f", "100ns@f"),
	OK("kernel_delay whole ns in us", p_kdelay, "1.5us@f", "1500ns@f"),
	BAD("kernel_delay half ns", p_kdelay, "100.5ns@f",
	    "kernel_delay: '100.5ns@f': TIME is not a whole number of "
	    "nanoseconds, the program's unit"),
	BAD("kernel_delay fraction of ns in us", p_kdelay, "1.0001us@f",
	    "kernel_delay: '1.0001us@f': TIME is not a whole number of "
	    "nanoseconds, the program's unit"),
	BAD("kernel_delay ten-thousandth of ns", p_kdelay, "1.0000001us@f",
	    "kernel_delay: '1.0000001us@f': TIME is not a whole number of "
	    "nanoseconds, the program's unit"),
	OK("kernel_delay whole ns near the cap", p_kdelay, "9999999ns@f",
	   "9999999ns@f"),
	BAD("kernel_delay no function", p_kdelay, "1ms@",
	    "kernel_delay: '1ms@' is not TIME@FUNCTION (e.g. "
	    "1ms@do_unlinkat) or 0"),
	BAD("kernel_delay no at", p_kdelay, "1ms",
	    "kernel_delay: '1ms' is not TIME@FUNCTION (e.g. "
	    "1ms@do_unlinkat) or 0"),
	BAD("kernel_delay bad function", p_kdelay, "1ms@f;x",
	    "kernel_delay: '1ms@f;x': FUNCTION is a kernel function's name "
	    "(letters, digits, _ and .)"),
	OK("cpus", p_cpus, "0-3,6", "0-3,6"),
	OK("cpus merged", p_cpus, "3,0,1,2", "0-3"),
	OK("cpus blanks", p_cpus, " 1 , 0 ", "0-1"),
	OK("cpus overlap", p_cpus, "0-4,2-6", "0-6"),
	OK("cpus last", p_cpus, "0-1023", "0-1023"),
	BAD("cpus past CPU_SETSIZE", p_cpus, "1024",
	    "cpus: bad cpu list '1024': cpu 1024 is out of range (0 .. 1023) "
	    "(write cpus like 0-3,6)"),
	BAD("cpus enormous", p_cpus, "99999999999999999999",
	    "cpus: bad cpu list '99999999999999999999': cpu above 1024 is out "
	    "of range (0 .. 1023) (write cpus like 0-3,6)"),
	BAD("cpus reversed", p_cpus, "3-1",
	    "cpus: bad cpu list '3-1': reversed range 3-1 (write cpus like "
	    "0-3,6)"),
	BAD("cpus open range", p_cpus, "0-",
	    "cpus: bad cpu list '0-': expected a cpu number after '-' (write "
	    "cpus like 0-3,6)"),
	BAD("cpus empty item", p_cpus, "0,,1",
	    "cpus: bad cpu list '0,,1': expected a cpu number (write cpus like "
	    "0-3,6)"),
	BAD("cpus trailing comma", p_cpus, "0,",
	    "cpus: bad cpu list '0,': expected a cpu number (write cpus like "
	    "0-3,6)"),
	BAD("cpus negative", p_cpus, "-1",
	    "cpus: bad cpu list '-1': expected a cpu number (write cpus like "
	    "0-3,6)"),
	BAD("cpus separator", p_cpus, "0;1",
	    "cpus: bad cpu list '0;1': unexpected ';' (write cpus like 0-3,6)"),
	BAD("cpus empty", p_cpus, "", "cpus: empty value"),
};

static void free_value(const struct param_def *p, union param_value *v)
{
	if (param_holds_string(p->type))
		free(v->s);
}

static void test_parse(void **state)
{
	const struct parse_case *t = *state;
	union param_value v, back;
	char err[512] = "";
	char *text, *again;
	int ret = param_parse(t->p, t->text, &v, err, sizeof(err));

	if (!t->want) {
		assert_int_equal(ret, -1);
		assert_string_equal(err, t->err);
		return;
	}
	assert_int_equal(ret, 0);
	text = param_format(t->p, &v);
	assert_string_equal(text, t->want);
	/* the canonical text is a fixed point: it parses to itself */
	assert_int_equal(param_parse(t->p, text, &back, err, sizeof(err)), 0);
	again = param_format(t->p, &back);
	assert_string_equal(again, text);
	free(again);
	free(text);
	free_value(t->p, &v);
	free_value(t->p, &back);
}

static void test_cpulist(void **state)
{
	cpu_set_t set;
	char *s;

	(void)state;
	assert_int_equal(cpulist_parse("0-2,5", &set), 0);
	assert_int_equal(CPU_COUNT(&set), 4);
	assert_true(CPU_ISSET(0, &set) && CPU_ISSET(2, &set));
	assert_true(CPU_ISSET(5, &set) && !CPU_ISSET(3, &set));
	s = cpulist_format(&set);
	assert_string_equal(s, "0-2,5");
	free(s);
	assert_int_equal(cpulist_parse("7-3", &set), -1);
	assert_int_equal(cpulist_parse("1024", &set), -1);
	assert_int_equal(cpulist_parse("", &set), -1);
	assert_int_equal(cpulist_parse("1-", &set), -1);
	assert_int_equal(cpulist_parse("x", &set), -1);
	CPU_ZERO(&set);
	CPU_SET(1023, &set);
	CPU_SET(0, &set);
	s = cpulist_format(&set);
	assert_string_equal(s, "0,1023");
	free(s);
}

static void test_describe(void **state)
{
	static const struct {
		const struct param_def *p;
		const char *range, *def;
	} cases[] = {
		{ &p_int, "-5 .. 100", "1" },
		{ &p_int_open, ">= 0", "0" },
		{ &p_u64, ">= 1", "-" },
		{ &p_dbl, "0 .. 1", "0" },
		{ &p_dur, "1ms .. 1h", "1s" },
		{ &p_dur_open, "0s .. 24h", "1s" },
		{ &p_dur_word, "auto | 0s .. 10s", "0" },
		{ &p_bool, "yes | no", "no" },
		{ &p_enum, "red | green | blue", "red" },
		{ &p_str, "text", "\"\"" },
		{ &p_cpus, "cpu list", "-" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *r = param_describe_range(cases[i].p);
		char *d = param_describe_default(cases[i].p);

		assert_string_equal(r, cases[i].range);
		assert_string_equal(d, cases[i].def);
		free(r);
		free(d);
	}
}

static void test_clip(void **state)
{
	char buf[16];

	(void)state;
	param_clip(buf, sizeof(buf), "short", 10);
	assert_string_equal(buf, "short");
	param_clip(buf, sizeof(buf), "abcdefghijklmnop", 10);
	assert_string_equal(buf, "abcdefg...");
	/* "é" is 2 bytes (c3 a9): a cut inside it backs up to its start */
	param_clip(buf, sizeof(buf), "abcdef\xc3\xa9xyzxyz", 10);
	assert_string_equal(buf, "abcdef...");
	/* the destination bounds the copy too */
	param_clip(buf, 8, "abcdefghijklmnop", 60);
	assert_string_equal(buf, "abcd...");
}

/* ---- args_from_kv ------------------------------------------------------ */

static const struct param_def wl_params[] = {
	{ "threads", PT_INT, "2", 1, 64, NULL, "" },
	{ "mode", PT_ENUM, "red", 0, 0, colors, "" },
	{ "name", PT_STRING, "x y", 0, 0, NULL, "" },
	{ "mask", PT_CPUS, "0-1", 0, 0, NULL, "" },
	{ "tag.NAME", PT_INT, NULL, 0, 9, NULL, "a family" },
};
static const struct workload wl_t = {
	.name = "t", .summary = "", .params = wl_params, .nparams = 5,
};
static const struct param_def req_params[] = {
	{ "argv", PT_STRING, NULL, 0, 0, NULL, "" },
};
static const struct workload wl_req = {
	.name = "r", .summary = "", .params = req_params, .nparams = 1,
};
static const struct workload wl_fixed = {
	.name = "f", .summary = "", .params = req_params, .nparams = 1,
	.flags = WL_OWN_DURATION,
};

static void check_fixed(const struct wl_args *a)
{
	assert_string_equal(a->v[0].s, "x");
	assert_true(fpclassify(a->runtime_s) == FP_ZERO);
	assert_int_equal(a->jobs, 0);
}

static const struct param_def bad_params[] = {
	{ "n", PT_INT, "200", 0, 10, NULL, "" },
};
static const struct workload wl_bad = {
	.name = "bad", .summary = "", .params = bad_params, .nparams = 1,
};

struct args_case {
	const char *name;
	const struct workload *wl;
	const char *kv[5];
	const char *err; /* NULL: success, checked by check() */
	void (*check)(const struct wl_args *a);
};

static void check_defaults(const struct wl_args *a)
{
	cpu_set_t set;

	assert_int_equal(a->v[0].i, 2);
	assert_int_equal(a->v[1].e, 0);
	assert_string_equal(a->v[2].s, "x y");
	assert_string_equal(a->v[3].s, "0-1");
	assert_true(a->runtime_s > 0.999 && a->runtime_s < 1.001);
	assert_int_equal(a->jobs, 0);
	assert_false(a->has_cpus);
	assert_int_equal(cpulist_parse(a->v[3].s, &set), 0);
	assert_int_equal(CPU_COUNT(&set), 2);
	assert_int_equal(a->nmembers, 0);
}

static void check_set(const struct wl_args *a)
{
	assert_int_equal(a->v[0].i, 8);
	assert_int_equal(a->v[1].e, 2);
	assert_string_equal(a->v[2].s, "a=b");
	assert_true(a->runtime_s > 0.2499 && a->runtime_s < 0.2501);
	assert_int_equal(a->jobs, 0);
}

static void check_jobs(const struct wl_args *a)
{
	assert_int_equal(a->jobs, 1000);
	assert_true(fpclassify(a->runtime_s) == FP_ZERO);
}

static void check_cpus(const struct wl_args *a)
{
	assert_true(a->has_cpus);
	assert_int_equal(CPU_COUNT(&a->cpus), 2);
	assert_true(CPU_ISSET(0, &a->cpus) && CPU_ISSET(2, &a->cpus));
}

static void check_required(const struct wl_args *a)
{
	assert_string_equal(a->v[0].s, "/bin/true --x");
}

/* Family keys arrive ordered by key, whatever order they were given in. */
static void check_members(const struct wl_args *a)
{
	assert_int_equal(a->v[0].i, 3);
	assert_int_equal(a->nmembers, 3);
	assert_string_equal(a->members[0].key, "tag.a");
	assert_string_equal(a->members[0].name, "a");
	assert_int_equal(a->members[0].v.i, 1);
	assert_string_equal(a->members[1].key, "tag.a_2");
	assert_int_equal(a->members[1].v.i, 0);
	assert_string_equal(a->members[2].key, "tag.b");
	assert_string_equal(a->members[2].name, "b");
	assert_int_equal(a->members[2].v.i, 9);
	assert_int_equal(a->members[2].param, 4);
}

static const struct args_case args_cases[] = {
	{ "defaults", &wl_t, { NULL }, NULL, check_defaults },
	{ "values", &wl_t, { "threads=8", "mode=blue", "name=a=b",
			     "runtime=250ms" }, NULL, check_set },
	{ "jobs", &wl_t, { "jobs=1000" }, NULL, check_jobs },
	{ "cpus", &wl_t, { "cpus=2,0" }, NULL, check_cpus },
	{ "required given", &wl_req, { "argv=/bin/true --x" }, NULL,
	  check_required },
	{ "runtime and jobs", &wl_t, { "runtime=1s", "jobs=5" },
	  "runtime and jobs are mutually exclusive: give one", NULL },
	{ "unknown key", &wl_t, { "thread=3" },
	  "unknown parameter 'thread' for workload t; did you mean "
	  "'threads'?", NULL },
	{ "unknown far", &wl_t, { "colour=red" },
	  "unknown parameter 'colour' for workload t", NULL },
	{ "no equals", &wl_t, { "threads" },
	  "expected key=value, got 'threads'", NULL },
	{ "twice", &wl_t, { "threads=1", "threads=2" },
	  "'threads' is given twice", NULL },
	{ "twice harness", &wl_t, { "cpus=0", "cpus=1" },
	  "'cpus' is given twice", NULL },
	{ "string twice", &wl_t, { "name=a", "name=b" },
	  "'name' is given twice", NULL },
	{ "out of range", &wl_t, { "name=kept", "threads=0" },
	  "threads: 0 is out of range (1 .. 64)", NULL },
	{ "bad cpus", &wl_t, { "cpus=5-1" },
	  "cpus: bad cpu list '5-1': reversed range 5-1 (write cpus like "
	  "0-3,6)", NULL },
	{ "bad runtime", &wl_t, { "runtime=0" },
	  "runtime: 0 is out of range (1ms .. 24h)", NULL },
	{ "family", &wl_t, { "tag.b=9", "threads=3", "tag.a_2=0", "tag.a=1" },
	  NULL, check_members },
	{ "family name digit", &wl_t, { "tag.1x=1" },
	  "'tag.1x': the NAME of tag.NAME is letters, digits and _, not a "
	  "digit first, under 48 characters", NULL },
	{ "family name empty", &wl_t, { "tag.=1" },
	  "'tag.': the NAME of tag.NAME is letters, digits and _, not a "
	  "digit first, under 48 characters", NULL },
	{ "family name dash", &wl_t, { "tag.a-b=1" },
	  "'tag.a-b': the NAME of tag.NAME is letters, digits and _, not a "
	  "digit first, under 48 characters", NULL },
	{ "family twice", &wl_t, { "tag.a=1", "tag.b=2", "tag.a=3" },
	  "'tag.a' is given twice", NULL },
	{ "family range", &wl_t, { "tag.b=2", "tag.a=10" },
	  "tag.a: 10 is out of range (0 .. 9)", NULL },
	{ "family is not a key", &wl_t, { "tag=1" },
	  "unknown parameter 'tag' for workload t", NULL },
	{ "own duration", &wl_fixed, { "argv=x" }, NULL, check_fixed },
	{ "own duration refuses runtime", &wl_fixed, { "argv=x", "runtime=1s" },
	  "runtime: workload f runs for as long as its own parameters say: "
	  "runtime and jobs do not apply", NULL },
	{ "own duration refuses jobs", &wl_fixed, { "jobs=3", "argv=x" },
	  "jobs: workload f runs for as long as its own parameters say: "
	  "runtime and jobs do not apply", NULL },
	{ "required missing", &wl_req, { NULL },
	  "workload r needs a value for 'argv' (it has no default)", NULL },
	{ "bad table default", &wl_bad, { NULL },
	  "workload bad: bad default: n: 200 is out of range (0 .. 10)",
	  NULL },
};

static void test_args(void **state)
{
	const struct args_case *t = *state;
	char *kv[5];
	char err[512] = "";
	struct wl_args a;
	size_t n;

	for (n = 0; n < 5 && t->kv[n]; n++)
		kv[n] = (char *)(uintptr_t)t->kv[n];
	if (t->err) {
		assert_int_equal(args_from_kv(t->wl, n, kv, &a, err,
					      sizeof(err)), -1);
		assert_string_equal(err, t->err);
		/* nothing is left allocated (ASan's leak check proves it) */
		assert_null(a.wl);
		return;
	}
	assert_int_equal(args_from_kv(t->wl, n, kv, &a, err, sizeof(err)), 0);
	assert_ptr_equal(a.wl, t->wl);
	t->check(&a);
	args_release(&a);
	assert_null(a.wl);
}

/* WL_MAX_MEMBERS family keys are taken, one more is refused. */
static void test_family_cap(void **state)
{
	char *kv[WL_MAX_MEMBERS + 1], err[512] = "";
	struct wl_args a;
	size_t i;

	(void)state;
	for (i = 0; i <= WL_MAX_MEMBERS; i++)
		kv[i] = xasprintf("tag.k%02zu=%zu", i, i % 10);
	assert_int_equal(args_from_kv(&wl_t, WL_MAX_MEMBERS, kv, &a, err,
				      sizeof(err)), 0);
	assert_int_equal(a.nmembers, WL_MAX_MEMBERS);
	assert_string_equal(a.members[WL_MAX_MEMBERS - 1].key, "tag.k31");
	args_release(&a);
	assert_int_equal(args_from_kv(&wl_t, WL_MAX_MEMBERS + 1, kv, &a, err,
				      sizeof(err)), -1);
	assert_string_equal(err, "'tag.k32': at most 32 keys of families "
				 "(like tag.NAME) in one configuration");
	for (i = 0; i <= WL_MAX_MEMBERS; i++)
		free(kv[i]);
}

static void test_harness_table(void **state)
{
	(void)state;
	assert_int_equal(nharness_params, 5);
	assert_string_equal(harness_params[HARNESS_RUNTIME].name, "runtime");
	assert_string_equal(harness_params[HARNESS_JOBS].name, "jobs");
	assert_string_equal(harness_params[HARNESS_CPUS].name, "cpus");
	assert_int_equal(harness_params[HARNESS_RUNTIME].type, PT_DURATION);
	assert_int_equal(harness_params[HARNESS_JOBS].type, PT_U64);
	assert_int_equal(harness_params[HARNESS_CPUS].type, PT_CPUS);
	assert_string_equal(harness_params[HARNESS_KDELAY].name,
			    "kernel_delay");
	assert_int_equal(harness_params[HARNESS_KDELAY].type, PT_KDELAY);
	assert_string_equal(harness_params[HARNESS_OBSERVER].name, "observer");
	assert_int_equal(harness_params[HARNESS_OBSERVER].type, PT_STRING);
}

/* The keys the runner applies are kept out of the spawned exec; exec by
 * hand refuses one that asks for something (not 0, not none). */
static void test_runner_only(void **state)
{
	(void)state;
	assert_true(harness_runner_only("observer=none", false));
	assert_true(harness_runner_only("observer=perf-lock", false));
	assert_false(harness_runner_only("observer=none", true));
	assert_true(harness_runner_only("observer=perf-lock", true));
	assert_true(harness_runner_only("kernel_delay=0", false));
	assert_false(harness_runner_only("kernel_delay=0", true));
	assert_false(harness_runner_only("observers=x", false));
	assert_false(harness_runner_only("threads=2", true));
}

int main(void)
{
	size_t np = sizeof(parse_cases) / sizeof(parse_cases[0]);
	size_t na = sizeof(args_cases) / sizeof(args_cases[0]);
	struct CMUnitTest *tests = calloc(np + na + 6, sizeof(*tests));
	size_t i, n = 0;
	int ret;

	for (i = 0; i < np; i++)
		tests[n++] = (struct CMUnitTest){
			parse_cases[i].name, test_parse, NULL, NULL,
			(void *)(uintptr_t)&parse_cases[i]
		};
	for (i = 0; i < na; i++)
		tests[n++] = (struct CMUnitTest){
			args_cases[i].name, test_args, NULL, NULL,
			(void *)(uintptr_t)&args_cases[i]
		};
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_cpulist);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_describe);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_clip);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_harness_table);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_runner_only);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_family_cap);
	ret = _cmocka_run_group_tests("param", tests, n, NULL, NULL);
	free(tests);
	return ret;
}
