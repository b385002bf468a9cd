/*
 * test_protocol.c - the exec protocol parser on a table of good and bad
 * outputs, a round trip through result_print, and the limits.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner/protocol.h"
#include "lib/util.h"

struct pcase {
	const char *name;
	const char *text;
	size_t len;             /* 0: strlen(text) */
	int ret;
	const char *err;        /* substring of the message, when ret is -1 */
	size_t nmetrics, nthreads;
};

static const struct pcase cases[] = {
	{ "minimal", "elapsed_s 1\nend\n", 0, 0, NULL, 1, 0 },
	{ "metrics and threads",
	  "ops 1000\nelapsed_s 0.25\nthroughput 4000\nthread 0 600\n"
	  "thread 1 400\nend\n", 0, 0, NULL, 3, 2 },
	{ "exponents, signs, dots and dashes in names",
	  "elapsed_s 2.5e-1\nx.y-z_1 -3\n_a +1E3\nend\n", 0, 0, NULL, 3, 0 },
	{ "round-tripped %.17g", "elapsed_s 0.20000000000000001\nend\n", 0, 0,
	  NULL, 1, 0 },
	{ "empty output", "", 0, -1, "no end line", 0, 0 },
	{ "no end", "ops 1\nelapsed_s 1\n", 0, -1, "no end line", 0, 0 },
	{ "end without newline", "elapsed_s 1\nend", 0, -1, "no newline", 0, 0 },
	{ "output after end", "elapsed_s 1\nend\nops 2\n", 0, -1,
	  "after the end", 0, 0 },
	{ "blank line after end", "elapsed_s 1\nend\n\n", 0, -1,
	  "after the end", 0, 0 },
	{ "end with a field", "elapsed_s 1\nend now\n", 0, -1, "no fields", 0,
	  0 },
	{ "garbage", "this is not the exec protocol\n", 0, -1,
	  "line 1: metric 'this' wants exactly one value", 0, 0 },
	{ "empty line", "elapsed_s 1\n\nend\n", 0, -1, "line 2: empty line", 0,
	  0 },
	{ "value missing", "ops\nend\n", 0, -1, "exactly one value", 0, 0 },
	{ "two spaces", "ops  1\nend\n", 0, -1, "exactly one value", 0, 0 },
	{ "trailing blank", "ops 1 \nend\n", 0, -1, "exactly one value", 0, 0 },
	{ "tab separator", "ops\t1\nend\n", 0, -1, "malformed metric name", 0,
	  0 },
	{ "carriage return", "elapsed_s 1\r\nend\n", 0, -1,
	  "not a finite number", 0, 0 },
	{ "not a number", "ops many\nend\n", 0, -1, "not a finite number", 0,
	  0 },
	{ "trailing junk", "ops 12abc\nend\n", 0, -1, "not a finite number", 0,
	  0 },
	{ "nan", "ops nan\nend\n", 0, -1, "not a finite number", 0, 0 },
	{ "inf", "ops inf\nend\n", 0, -1, "not a finite number", 0, 0 },
	{ "overflow", "ops 1e999\nend\n", 0, -1, "not a finite number", 0, 0 },
	{ "name starts with a digit", "1ops 1\nend\n", 0, -1,
	  "malformed metric name", 0, 0 },
	{ "name with a quote", "o'ps 1\nend\n", 0, -1, "malformed metric name",
	  0, 0 },
	{ "name too long",
	  "a_metric_name_that_is_far_too_long_for_the_table_x 1\nend\n", 0, -1,
	  "longer than", 0, 0 },
	{ "duplicate metric", "ops 1\nops 2\nend\n", 0, -1,
	  "line 2: duplicate metric 'ops'", 0, 0 },
	{ "thread without count", "thread 0\nend\n", 0, -1,
	  "index and a count", 0, 0 },
	{ "thread out of order", "elapsed_s 1\nthread 1 5\nend\n", 0, -1,
	  "thread 1 where thread 0 was due", 0, 0 },
	{ "thread repeated", "thread 0 5\nthread 0 6\nend\n", 0, -1,
	  "thread 0 where thread 1 was due", 0, 0 },
	{ "negative ops", "thread 0 -5\nend\n", 0, -1,
	  "malformed operation count", 0, 0 },
	{ "ops overflow", "thread 0 99999999999999999999\nend\n", 0, -1,
	  "malformed operation count", 0, 0 },
	{ "ops with extra field", "thread 0 5 6\nend\n", 0, -1,
	  "malformed operation count", 0, 0 },
	{ "hex index", "thread 0x0 5\nend\n", 0, -1, "malformed thread index",
	  0, 0 },
	{ "NUL byte", "elapsed_s 1\n\0end\n", 17, -1, "NUL byte", 0, 0 },
	{ "no elapsed_s", "ops 1\nend\n", 0, -1, "no elapsed_s", 0, 0 },
	{ "the runner's metric", "elapsed_s 1\nuser_s 2\nend\n", 0, -1,
	  "line 2: metric 'user_s' is the runner's to measure", 0, 0 },
	{ "timeline", "elapsed_s 1\ntimeline interval 0.01\ntimeline 0 0 5 6\n"
	  "timeline 0 2 7\ntimeline 1 0 1 2 3\nend\n", 0, 0, NULL, 1, 0 },
	{ "timeline without interval", "elapsed_s 1\ntimeline 0 0 5\nend\n", 0,
	  -1, "before its interval", 0, 0 },
	{ "timeline interval twice", "elapsed_s 1\ntimeline interval 1\n"
	  "timeline interval 1\nend\n", 0, -1, "repeated timeline interval", 0,
	  0 },
	{ "timeline interval 0", "elapsed_s 1\ntimeline interval 0\nend\n", 0,
	  -1, "bad or repeated", 0, 0 },
	{ "timeline gap", "elapsed_s 1\ntimeline interval 1\ntimeline 0 0 5\n"
	  "timeline 0 2 7\nend\n", 0, -1, "timeline 0 2 out of order", 0, 0 },
	{ "timeline threads uneven", "elapsed_s 1\ntimeline interval 1\n"
	  "timeline 0 0 5 6\ntimeline 1 0 7\nend\n", 0, -1,
	  "timeline thread 1 has 1 intervals, not 2", 0, 0 },
	{ "timeline thread skipped", "elapsed_s 1\ntimeline interval 1\n"
	  "timeline 0 0 5\ntimeline 2 0 7\nend\n", 0, -1, "out of order", 0,
	  0 },
	{ "timeline bad count", "elapsed_s 1\ntimeline interval 1\n"
	  "timeline 0 0 -5\nend\n", 0, -1, "malformed timeline count", 0, 0 },
};

static void test_table(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct pcase *c = &cases[i];
		size_t len = c->len ? c->len : strlen(c->text);
		struct result r;
		char err[256] = "";
		int ret = protocol_parse(c->text, len, &r, err, sizeof(err));

		print_message("%-44s -> %d %s\n", c->name, ret, err);
		assert_int_equal(ret, c->ret);
		if (c->err)
			assert_non_null(strstr(err, c->err));
		if (!ret) {
			assert_int_equal(r.nmetrics, c->nmetrics);
			assert_int_equal(r.nthreads, c->nthreads);
		}
		result_release(&r);
	}
}

/* What result_print writes, protocol_parse reads back exactly. */
static void test_round_trip(void **state)
{
	const uint64_t ops[3] = { 1, UINT64_MAX, 0 };
	struct result out, in;
	char buf[4096], err[256];
	int fds[2];
	ssize_t n;

	(void)state;
	result_init(&out);
	result_add(&out, "elapsed_s", 0.1);
	result_add(&out, "throughput", 1.0 / 3.0);
	result_add(&out, "tiny", 5e-324);
	result_add(&out, "neg", -1.7976931348623157e308);
	result_set_threads(&out, 3, ops);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(result_print(&out, fds[1]), 0);
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf));
	close(fds[0]);
	assert_true(n > 0);
	assert_int_equal(protocol_parse(buf, (size_t)n, &in, err, sizeof(err)),
			 0);
	assert_int_equal(in.nmetrics, out.nmetrics);
	for (size_t i = 0; i < out.nmetrics; i++) {
		assert_string_equal(in.metrics[i].name, out.metrics[i].name);
		assert_memory_equal(&in.metrics[i].value, &out.metrics[i].value,
				    sizeof(double));
	}
	assert_int_equal(in.nthreads, 3);
	assert_memory_equal(in.thread_ops, ops, sizeof(ops));
	result_release(&out);
	result_release(&in);
}

/* A timeline longer than a protocol line comes back whole. */
static void test_timeline_round_trip(void **state)
{
	enum { THREADS = 3, TICKS = 200 };
	static uint64_t tl[THREADS * TICKS];
	static char buf[65536];
	struct result out, in;
	char err[256];
	int fds[2];
	ssize_t n, got = 0;

	(void)state;
	for (size_t i = 0; i < THREADS * TICKS; i++)
		tl[i] = i * 7919u * 1000003u;
	result_init(&out);
	result_add(&out, "elapsed_s", 2);
	result_set_timeline(&out, 0.01, THREADS, TICKS, tl);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(result_print(&out, fds[1]), 0);
	close(fds[1]);
	while ((n = read(fds[0], buf + got, sizeof(buf) - (size_t)got)) > 0)
		got += n;
	close(fds[0]);
	assert_true(got > 0 && (size_t)got < sizeof(buf));
	assert_int_equal(protocol_parse(buf, (size_t)got, &in, err,
					sizeof(err)), 0);
	assert_int_equal(in.tick_threads, THREADS);
	assert_int_equal(in.nticks, TICKS);
	assert_float_equal(in.tick_s, 0.01, 0);
	assert_memory_equal(in.timeline, tl, sizeof(tl));
	result_release(&out);
	result_release(&in);
}

static char *repeat_lines(size_t n, const char *fmt)
{
	size_t cap = n * 64 + 64, at = 0, i;
	char *s = malloc(cap);

	assert_non_null(s);
	at += (size_t)snprintf(s, cap, "elapsed_s 1\n");
	for (i = 0; i < n; i++)
		at += (size_t)snprintf(s + at, cap - at, fmt, i, i);
	snprintf(s + at, cap - at, "end\n");
	return s;
}

static void test_limits(void **state)
{
	char line[PROTOCOL_MAX_LINE + 32], err[256];
	struct result r;
	char *s;

	(void)state;
	/* PROTOCOL_MAX_METRICS in all (elapsed_s is one of them) is fine. */
	s = repeat_lines(PROTOCOL_MAX_METRICS - 1, "m%zu %zu\n");
	assert_int_equal(protocol_parse(s, strlen(s), &r, err, sizeof(err)), 0);
	result_release(&r);
	free(s);
	s = repeat_lines(PROTOCOL_MAX_METRICS, "m%zu %zu\n");
	assert_int_equal(protocol_parse(s, strlen(s), &r, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "more than"));
	result_release(&r);
	free(s);
	s = repeat_lines(PROTOCOL_MAX_THREADS + 1, "thread %zu %zu\n");
	assert_int_equal(protocol_parse(s, strlen(s), &r, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "thread lines"));
	result_release(&r);
	free(s);
	/* A line one byte over the limit. */
	memset(line, '1', sizeof(line));
	memcpy(line, "elapsed_s ", 10);
	line[PROTOCOL_MAX_LINE + 1] = '\n';
	assert_int_equal(protocol_parse(line, PROTOCOL_MAX_LINE + 2, &r, err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "longer than"));
	result_release(&r);
}

/*
 * The runner's spawn stamp: nanoseconds of CLOCK_MONOTONIC as decimal
 * digits, read back as seconds; anything else (absent, empty, signs,
 * junk, overflow) is NAN, so a run typed by hand reports no latency.
 */
static const struct {
	const char *value;      /* NULL: unset */
	double want;            /* NAN: none */
} stamps[] = {
	{ NULL, NAN },
	{ "", NAN },
	{ "1500000000", 1.5 },
	{ "0", 0.0 },
	/* 3.9 years of uptime: still to the microsecond in a double. */
	{ "123456789012345678", 123456789.012345678 },
	{ "-5", NAN },
	{ "12abc", NAN },
	{ "99999999999999999999999", NAN },
};

static void test_spawn_stamp(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(stamps) / sizeof(stamps[0]); i++) {
		double got;

		if (stamps[i].value)
			assert_int_equal(setenv(SPAWN_NS_ENV, stamps[i].value, 1), 0);
		else
			assert_int_equal(unsetenv(SPAWN_NS_ENV), 0);
		got = spawn_stamp();
		if (isnan(stamps[i].want)) {
			if (!isnan(got))
				fail_msg("'%s': %g, want NAN", stamps[i].value, got);
		} else if (!(fabs(got - stamps[i].want) <= 1e-6)) {
			fail_msg("'%s': %.9f, want %.9f", stamps[i].value, got,
				 stamps[i].want);
		}
	}
	unsetenv(SPAWN_NS_ENV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_timeline_round_trip),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_spawn_stamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
