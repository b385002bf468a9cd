/*
 * test_command.c - the command workload (its argv splitting is lib/proc's,
 * tested in test_proc.c): quoting, no shell unless asked, metric
 * extraction with several regexes and scales, the failures (no match, invalid regex at validate, oversized output,
 * missing command, non-zero exit), env additions, and the child dying with
 * its parent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/util.h"
#include "runner/workload.h"
#include "runner/workloads/workloads.h"
#include "runner/param.h"

/* ---- runs -------------------------------------------------------------- */

/*
 * Arguments from "key", "value" pairs, NULL-terminated, through the real
 * parser (metric.NAME keys are a family, not table rows).  0, or -1 with
 * the parser's message in err.
 */
static int args(struct wl_args *a, const char *const *kv, char *err,
		size_t len)
{
	char *items[64] = { NULL };
	size_t n = 0, i;
	int ret;

	for (; *kv; kv += 2) {
		assert_true(n < ARRAY_SIZE(items));
		items[n++] = xasprintf("%s=%s", kv[0], kv[1]);
	}
	ret = args_from_kv(&command_workload, n, items, a, err, len);
	for (i = 0; i < n; i++)
		free(items[i]);
	return ret;
}

static int run(const char *const *kv, struct result *r)
{
	struct wl_args a;
	char err[256];
	int ret;

	if (args(&a, kv, err, sizeof(err)))
		fail_msg("%s", err);
	result_init(r);
	ret = command_workload.run(&a, r);
	args_release(&a);
	return ret;
}

/* The parser's verdict, then the workload's validate. */
static int validate(const char *const *kv, char *err, size_t len)
{
	struct wl_args a;
	int ret;

	if (args(&a, kv, err, len))
		return -1;
	err[0] = '\0';
	ret = command_workload.validate(&a, NULL, err, len);
	args_release(&a);
	return ret;
}

static void assert_near(double got, double want)
{
	if (!(fabs(got - want) <= 1e-9 * fabs(want)))
		fail_msg("got %.17g, want %.17g", got, want);
}

/* printf's own \n escapes make the lines; our splitter keeps \n as is. */
#define FOUR_LINES "printf \"ops 12.5\\nlat 3\\ncont 0.25\\nops 99\\n\""

/*
 * throughput: the first match, 12.5 x 2 = 25; contention_rate 0.25;
 * latency_us 3 x 1000 = 3000; last_ops 99 (anchored to the end of line,
 * so only "ops 99" has digits right before $ after "ops ").
 */
static void test_several_regexes(void **state)
{
	const char *const kv[] = {
		"argv", FOUR_LINES,
		"metric", "^ops ([0-9.]+)$", "scale", "2",
		"contention", "^cont ([0-9.]+)",
		"metric.latency_us", "^lat ([0-9]+)$",
		"scale.latency_us", "1000",
		"metric.last_ops", "ops ([0-9]+)$",
		NULL
	};
	struct result r;

	(void)state;
	if (run(kv, &r))
		fail_msg("%s", r.error);
	assert_near(result_value(&r, "throughput"), 25);
	assert_near(result_value(&r, "contention_rate"), 0.25);
	assert_near(result_value(&r, "latency_us"), 3000);
	assert_near(result_value(&r, "last_ops"), 99);
	assert_true(result_value(&r, "elapsed_s") > 0);
	result_release(&r);
}

/* The first capture group is the number: here it captures a word. */
static void test_group_not_a_number(void **state)
{
	const char *const kv[] = {
		"argv", FOUR_LINES, "metric.word", "^(ops) [0-9]+", NULL
	};
	struct result r;

	(void)state;
	assert_int_equal(run(kv, &r), -1);
	assert_non_null(strstr(r.error, "captured 'ops', not a number"));
	result_release(&r);
}

/* A regex that does not match names itself and quotes the output's end. */
static void test_no_match(void **state)
{
	const char *const kv[] = {
		"argv", "printf \"one\\ntwo\\nthree\\nfour\\nfive\\nsix\\n\"",
		"metric", "^seven ([0-9]+)", NULL
	};
	struct result r;

	(void)state;
	assert_int_equal(run(kv, &r), -1);
	assert_non_null(strstr(r.error, "'^seven ([0-9]+)' did not match"));
	assert_non_null(strstr(r.error, "three\nfour\nfive\nsix"));
	assert_null(strstr(r.error, "two"));
	result_release(&r);
}

struct bad_case {
	const char *key, *value;
	const char *want;       /* in the message, which names the key */
};

static const struct bad_case bad[] = {
	{ "metric", "([0-9]+", "invalid regex" },
	{ "metric", "[0-9]+", "no capture group" },
	{ "contention", "(a|", "invalid regex" },
	{ "metric.x", "([0-9]+", "invalid regex" },
	{ "metric.x", "no group here", "no capture group" },
	{ "metric.x", "", "no capture group" },
	{ "metric.1abc", "([0-9]+)", "not a digit first" },
	{ "metric.", "([0-9]+)", "not a digit first" },
	{ "metric.a b", "([0-9]+)", "not a digit first" },
	{ "metric.throughput", "([0-9]+)", "the workload's own metric" },
	{ "metric.contention_rate", "([0-9]+)", "the workload's own metric" },
	{ "metric.elapsed_s", "([0-9]+)", "the workload's own metric" },
	{ "scale.lat", "1000", "there is no metric.lat to scale" },
	{ "scale.lat", "fast", "scale.lat: " },
	{ "metric", "(x)++++", "too deeply" },
	/*
	 * Stacked and nested repetitions: glibc's regcomp would take GBs of
	 * memory for these (found by fuzz_command; the input that ran it out
	 * of memory is tests/fuzz/regress/command/).
	 */
	{ "metric", "(a){1,9}{1,9}{1,9}{1,9}{1,9}{1,9}{1,9}", "too deeply" },
	{ "metric", "((((((a){1,9}){1,9}){1,9}){1,9}){1,9}){1,9}", "too deeply" },
	{ "metric", "(x)++++++++++++++++++++++++++", "too deeply" },
	{ "metric", "=?++++++++++++", "too deeply" }, /* slow, not big */
	{ "metric", "(a?){1,999}", "too deeply" },
	{ "metric", "\x7f*{00,80}{,80}ye", "too deeply" }, /* glibc's {,n} */
	{ "metric", "$x*++++++++", "too deeply" }, /* minutes, not memory */
	{ "metric", "(a)+?", "too deeply" },          /* not PCRE's lazy + */
	/* \? so that no "??)" is read as a trigraph */
	{ "metric", ")?\?\?\?\?)?7?++++?\?\?\?\?\?\?\?\?\?++++", "too deeply" },
	{ "metric", "((((((((((((((((a+)?)+)?)+)?)+)?)+)?)+)?)+)?)+)?)",
	  "too deeply" },
	{ "contention", "(((((((((((((((((((((((((((((((((x)))))))))))))))))))))))))))))))))",
	  "too deeply" },
	{ "env", "A=1 2B=3", "not NAME=VALUE" },
	{ "env", "NOEQUALS", "not NAME=VALUE" },
	{ "env", "A=\"x", "unterminated" },
	{ "argv", "", "missing" },
	{ "argv", "echo \"a", "unterminated" },
	{ "argv", "contend-no-such-tool --version", "not installed" },
	/* Named by a path: what is wrong with it, not "not installed". */
	{ "argv", "/nonexistent/bin/tool", "'/nonexistent/bin/tool' does not exist" },
	{ "argv", "/etc/passwd", "'/etc/passwd' is not executable" },
	{ "argv", "/", "'/' is a directory, not a program" },
	{ "ok_status", "0,x", "'x' is not an exit status" },
	{ "ok_status", "256", "'256' is not an exit status" },
	{ "ok_status", "-1", "'-1' is not an exit status" },
	{ "ok_status", " , ", "no exit status given" },
};

static void test_validate_errors(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *kv[] = { "argv", "true", bad[i].key, bad[i].value,
				     NULL };
		/* argv's own cases replace the default "true" */
		const char *const *k = strcmp(bad[i].key, "argv") ? kv : kv + 2;
		char err[256];

		if (validate(k, err, sizeof(err)) != -1)
			fail_msg("%s = %s: accepted", bad[i].key, bad[i].value);
		if (!strstr(err, bad[i].key) || !strstr(err, bad[i].want))
			fail_msg("%s = %s: '%s'", bad[i].key, bad[i].value, err);
	}
}

/* A metric name given twice is refused by the parser, before validate. */
static void test_duplicate_names(void **state)
{
	const char *const kv[] = {
		"argv", "true", "metric.a", "(x)", "metric.a", "(y)", NULL
	};
	char err[256];

	(void)state;
	assert_int_equal(validate(kv, err, sizeof(err)), -1);
	assert_string_equal(err, "'metric.a' is given twice");
}

/* Any number of metrics, not eight: 20 of them, each its own value. */
static void test_many_metrics(void **state)
{
	const char *kv[2 * 42 + 1] = { "argv", "seq 101 120" };
	char *owned[40];
	struct result r;
	size_t i, n = 2;

	(void)state;
	for (i = 0; i < 20; i++) {
		owned[2 * i] = xasprintf("metric.m%zu", i);
		owned[2 * i + 1] = xasprintf("^(1%02zu)$", i + 1);
		kv[n++] = owned[2 * i];
		kv[n++] = owned[2 * i + 1];
	}
	kv[n++] = "scale.m7";
	kv[n++] = "0.5";
	kv[n] = NULL;
	if (run(kv, &r))
		fail_msg("%s", r.error);
	for (i = 0; i < 20; i++) {
		char name[16];

		snprintf(name, sizeof(name), "m%zu", i);
		assert_near(result_value(&r, name),
			    (101.0 + (double)i) * (i == 7 ? 0.5 : 1));
	}
	result_release(&r);
	for (i = 0; i < 40; i++)
		free(owned[i]);
}

static void test_validate_ok(void **state)
{
	const char *const kv[] = {
		"argv", "true", "metric", "(x)", "env", "A=1 B=\"two words\"",
		"metric.z_8", "a(b)c",
		/* Realistic regexes stay far below the repetition cap. */
		"contention", "([0-9]{1,3}(,[0-9]{3})*(\\.[0-9]+)?) [[:alpha:]]+/s",
		"metric.lat", "(([0-9]+|[0-9]*\\.[0-9]+)(e[-+]?[0-9]+)?)",
		"scale.lat", "1e-3",
		NULL
	};
	const char *const sh[] = {
		"argv", "contend-no-such-tool; true", "shell", "yes", NULL
	};
	char err[256];

	(void)state;
	assert_int_equal(validate(kv, err, sizeof(err)), 0);
	/* With a shell, argv is the shell's business. */
	assert_int_equal(validate(sh, err, sizeof(err)), 0);
}

/* 16 MiB is allowed, one byte more fails; endless output cannot hang. */
static void test_output_cap(void **state)
{
	const char *const exact[] = { "argv", "head -c 16777216 /dev/zero", NULL };
	const char *const over[] = { "argv", "head -c 16777217 /dev/zero", NULL };
	const char *const endless[] = { "argv", "yes", NULL };
	struct result r;

	(void)state;
	if (run(exact, &r))
		fail_msg("%s", r.error);
	result_release(&r);
	assert_int_equal(run(over, &r), -1);
	assert_non_null(strstr(r.error, "exceeds 16 MiB"));
	result_release(&r);
	assert_int_equal(run(endless, &r), -1);
	assert_non_null(strstr(r.error, "exceeds 16 MiB"));
	result_release(&r);
}

static void test_missing_command(void **state)
{
	const char *const path[] = { "argv", "contend-no-such-tool", NULL };
	/* A directory is refused before any exec. */
	const char *const dir[] = { "argv", "/", NULL };
	const char *const sh[] = {
		"argv", "contend-no-such-tool", "shell", "yes", NULL
	};
	struct result r;

	(void)state;
	assert_int_equal(run(path, &r), -1);
	assert_non_null(strstr(r.error, "not installed"));
	result_release(&r);
	assert_int_equal(run(dir, &r), -1);
	assert_non_null(strstr(r.error, "'/' is a directory"));
	result_release(&r);
	assert_int_equal(run(sh, &r), -1);
	assert_non_null(strstr(r.error, "exited with status 127"));
	result_release(&r);
}

static void test_exit_status(void **state)
{
	const char *const kv[] = {
		"argv", "sh -c \"echo about to fail; exit 3\"", NULL
	};
	const char *const sig[] = { "argv", "sh -c \"kill -TERM $$\"", NULL };
	struct result r;

	(void)state;
	assert_int_equal(run(kv, &r), -1);
	assert_non_null(strstr(r.error, "exited with status 3"));
	assert_non_null(strstr(r.error, "about to fail"));
	result_release(&r);
	assert_int_equal(run(sig, &r), -1);
	assert_non_null(strstr(r.error, "killed by signal 15"));
	result_release(&r);
}

/*
 * ok_status = 0,1: a program that exits 1 after a good run (its figures
 * printed) is a success and its metric is taken; 3 is still a failure,
 * and so is a signal.
 */
static void test_ok_status(void **state)
{
	const char *const one[] = {
		"argv", "sh -c \"echo rate 42; exit 1\"", "metric", "rate ([0-9]+)",
		"ok_status", "0,1", NULL
	};
	const char *const three[] = {
		"argv", "sh -c \"echo rate 42; exit 3\"", "metric", "rate ([0-9]+)",
		"ok_status", "0, 1", NULL
	};
	const char *const sig[] = { "argv", "sh -c \"kill -TERM $$\"",
				    "ok_status", "0,1,143", NULL };
	const char *const dflt[] = {
		"argv", "sh -c \"echo rate 42; exit 1\"", "metric", "rate ([0-9]+)",
		NULL
	};
	struct result r;

	(void)state;
	assert_int_equal(run(one, &r), 0);
	assert_true(fabs(result_value(&r, "throughput") - 42) < 1e-9);
	result_release(&r);
	assert_int_equal(run(three, &r), -1);
	assert_non_null(strstr(r.error, "exited with status 3"));
	result_release(&r);
	assert_int_equal(run(sig, &r), -1);
	assert_non_null(strstr(r.error, "killed by signal 15"));
	result_release(&r);
	assert_int_equal(run(dflt, &r), -1);
	assert_non_null(strstr(r.error, "exited with status 1"));
	result_release(&r);
}

/*
 * shell = no: `;` and `$` reach the program literally ("1;2" is printed,
 * so the regex finds 2 after "1;"); with shell = yes the same text is
 * two commands and prints 1 and 2 on separate lines.
 */
static void test_no_shell(void **state)
{
	const char *const lit[] = {
		"argv", "echo 1;2 $((7*6))", "metric", "^1;(2) \\$\\(\\(7\\*6\\)\\)$",
		NULL
	};
	const char *const sh[] = {
		"argv", "echo 1;echo $((7*6))", "shell", "yes",
		"metric", "^(4[0-9])$", NULL
	};
	struct result r;

	(void)state;
	if (run(lit, &r))
		fail_msg("%s", r.error);
	assert_near(result_value(&r, "throughput"), 2);
	result_release(&r);
	if (run(sh, &r))
		fail_msg("%s", r.error);
	assert_near(result_value(&r, "throughput"), 42);
	result_release(&r);
}

/* Quoted words arrive as one argument each: sh counts them. */
static void test_argv_quoting(void **state)
{
	const char *const kv[] = {
		"argv", "sh -c \"echo $#\" zero \"one arg\" two\" still two\" \"\"",
		"metric", "^([0-9]+)$", NULL
	};
	struct result r;

	(void)state;
	if (run(kv, &r))
		fail_msg("%s", r.error);
	assert_near(result_value(&r, "throughput"), 3);
	result_release(&r);
}

static void test_env(void **state)
{
	const char *const kv[] = {
		"argv", "sh -c \"echo $CONTEND_A-$CONTEND_B-$HOME\"",
		"env", "CONTEND_A=41 CONTEND_B=\"x y\" HOME=/replaced",
		"metric", "^([0-9]+)-x y-/replaced$", NULL
	};
	struct result r;

	(void)state;
	if (run(kv, &r))
		fail_msg("%s", r.error);
	assert_near(result_value(&r, "throughput"), 41);
	result_release(&r);
}

/* stderr is captured with stdout; NUL bytes do not hide what follows. */
static void test_stderr_and_nul(void **state)
{
	const char *const kv[] = {
		"argv", "sh -c \"printf 'a\\\\0b\\\\n'; echo err 5 >&2\"",
		"metric", "^err ([0-9]+)$", NULL
	};
	struct result r;

	(void)state;
	if (run(kv, &r))
		fail_msg("%s", r.error);
	assert_near(result_value(&r, "throughput"), 5);
	result_release(&r);
}

/* Whether pid (our child) exits within ms, without reaping it. */
static bool exited_within(pid_t pid, int ms)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct pollfd p = { fd, POLLIN, 0 };
	int n;

	assert_true(fd >= 0);
	while ((n = poll(&p, 1, ms)) < 0 && errno == EINTR)
		;
	close(fd);
	return n == 1;
}

/*
 * Killing the process that runs the workload kills the command too
 * (PR_SET_PDEATHSIG).  We become a subreaper so the orphaned command is
 * reparented to us and we can see how it ended; the command reports its
 * pid on an inherited pipe, so nothing waits on time.
 */
static void test_dies_with_parent(void **state)
{
	int p[2], status;
	pid_t runner, cmd = 0;
	char buf[32] = "";
	ssize_t n;

	(void)state;
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	assert_int_equal(pipe(p), 0);
	runner = fork();
	assert_true(runner >= 0);
	if (runner == 0) {
		char *arg = xasprintf("echo $$ >&%d; exec sleep 1000", p[1]);
		const char *const kv[] = { "argv", arg, "shell", "yes", NULL };
		struct result r;

		close(p[0]);
		run(kv, &r);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], buf, sizeof(buf) - 1);
	assert_true(n > 0);
	close(p[0]);
	assert_int_equal(parse_ll(buf, &(long long){ 0 }), 0);
	cmd = (pid_t)strtol(buf, NULL, 10);
	assert_int_equal(kill(runner, SIGKILL), 0);
	assert_int_equal(waitpid(runner, &status, 0), runner);
	/* A bound, not a synchronisation: a surviving command fails the
	 * test instead of hanging it. */
	if (!exited_within(cmd, 10000)) {
		kill(cmd, SIGKILL);
		waitpid(cmd, &status, 0);
		fail_msg("the command outlived the process that ran it");
	}
	assert_int_equal(waitpid(cmd, &status, 0), cmd);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_several_regexes),
		cmocka_unit_test(test_group_not_a_number),
		cmocka_unit_test(test_no_match),
		cmocka_unit_test(test_validate_errors),
		cmocka_unit_test(test_duplicate_names),
		cmocka_unit_test(test_many_metrics),
		cmocka_unit_test(test_validate_ok),
		cmocka_unit_test(test_output_cap),
		cmocka_unit_test(test_missing_command),
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_ok_status),
		cmocka_unit_test(test_no_shell),
		cmocka_unit_test(test_argv_quoting),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_stderr_and_nul),
		cmocka_unit_test(test_dies_with_parent),
	};

	return cmocka_run_group_tests_name("command", tests, NULL, NULL);
}
