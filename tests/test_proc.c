/*
 * test_proc.c - lib/proc.c: argv splitting and quoting (the cases moved
 * from test_command.c), the PATH lookup, and proc_run through /bin/sh:
 * stdout captured, stderr kept apart, merged or sent to a descriptor, the
 * working directory and environment given, a program that cannot start,
 * the output cap and the timeout (each kills the child: only that it was
 * killed is checked, never how fast).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/proc.h"
#include "lib/util.h"

/* ---- argv splitting ---- */

struct split_case {
	const char *in;
	int ok;
	const char *words[5];   /* NULL-terminated */
};

static const struct split_case splits[] = {
	{ "a b  c", 1, { "a", "b", "c", NULL } },
	{ " \t lead and trail \t ", 1, { "lead", "and", "trail", NULL } },
	{ "\"a b\" c", 1, { "a b", "c", NULL } },
	{ "a\"b c\"d", 1, { "ab cd", NULL } },
	{ "\"\" x", 1, { "", "x", NULL } },
	{ "\\\"quoted\\\"", 1, { "\"quoted\"", NULL } },
	{ "a\\\\b", 1, { "a\\b", NULL } },
	{ "a\\nb \"\\d+\"", 1, { "a\\nb", "\\d+", NULL } },
	{ "echo a;b", 1, { "echo", "a;b", NULL } },
	{ "'single' quotes", 1, { "'single'", "quotes", NULL } },
	{ "", 1, { NULL } },
	{ "   ", 1, { NULL } },
	{ "\"unterminated", 0, { NULL } },
	{ "a \"b c", 0, { NULL } },
};

static void test_split(void **state)
{
	size_t i, j, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(splits); i++) {
		const struct split_case *c = &splits[i];
		char **v = NULL, err[64] = "";
		int rc = proc_split(c->in, &v, &n, err, sizeof(err));

		if (!c->ok) {
			assert_int_equal(rc, -1);
			assert_non_null(strstr(err, "quote"));
			continue;
		}
		assert_int_equal(rc, 0);
		for (j = 0; c->words[j]; j++) {
			assert_true(j < n);
			assert_string_equal(v[j], c->words[j]);
		}
		assert_int_equal(j, n);
		assert_null(v[n]);
		proc_argv_free(v);
	}
}

/* ---- the PATH lookup ---- */

static void test_path_find(void **state)
{
	char *p;

	(void)state;
	setenv("PATH", "/nonexistent:/bin:/usr/bin", 1);
	p = proc_path_find("sh");
	assert_non_null(p);
	assert_true(!strcmp(p, "/bin/sh") || !strcmp(p, "/usr/bin/sh"));
	free(p);
	assert_null(proc_path_find("contend-no-such-program"));
	p = proc_path_find("/bin/sh");
	assert_string_equal(p, "/bin/sh");
	free(p);
	assert_null(proc_path_find("/tmp"));
	assert_string_equal(proc_unrunnable("/tmp"),
			    "is a directory, not a program");
	assert_string_equal(proc_unrunnable("/nonexistent/x"),
			    "does not exist");
	assert_null(proc_unrunnable("/bin/sh"));
}

/* ---- the spawner ---- */

static int sh(struct proc *p, const char *script)
{
	static char *argv[4];

	argv[0] = (char *)"sh";
	argv[1] = (char *)"-c";
	argv[2] = (char *)script;
	argv[3] = NULL;
	p->argv = argv;
	return proc_run(p);
}

static void test_capture(void **state)
{
	struct proc p = { 0 };

	(void)state;
	assert_int_equal(sh(&p, "printf 'a\\0b'; echo err >&2; exit 3"), 0);
	assert_int_equal(p.outlen, 3);
	assert_memory_equal(p.out, "a\0b", 4);
	assert_true(WIFEXITED(p.wstatus));
	assert_int_equal(WEXITSTATUS(p.wstatus), 3);
	assert_false(p.overflow || p.timed_out);
	proc_release(&p);

	p = (struct proc){ .err = PROC_ERR_OUT };
	assert_int_equal(sh(&p, "echo out; echo err >&2"), 0);
	assert_string_equal(p.out, "out\nerr\n");
	proc_release(&p);
}

static void test_err_fd_dir_env(void **state)
{
	FILE *log = tmpfile();
	char *envp[] = { (char *)"CONTEND_PROC_TEST=yes", NULL }, buf[64];
	struct proc p = { .err = PROC_ERR_FD, .dir = "/", .envp = envp };
	size_t n;

	(void)state;
	assert_non_null(log);
	p.err_fd = fileno(log);
	assert_int_equal(sh(&p, "pwd; echo \"$CONTEND_PROC_TEST\" >&2"), 0);
	assert_string_equal(p.out, "/\n");
	rewind(log);
	n = fread(buf, 1, sizeof(buf) - 1, log);
	buf[n] = '\0';
	assert_string_equal(buf, "yes\n");
	proc_release(&p);
	fclose(log);
}

static void test_not_started(void **state)
{
	char *argv[] = { (char *)"contend-no-such-program", NULL };
	struct proc p = { .argv = argv };

	(void)state;
	assert_int_equal(proc_run(&p), -1);
	assert_int_equal(p.exec_err, ENOENT);
	assert_int_equal(errno, ENOENT);
	proc_release(&p);

	p = (struct proc){ .argv = argv, .dir = "/nonexistent/dir" };
	argv[0] = (char *)"sh";
	assert_int_equal(proc_run(&p), -1);
	assert_int_equal(p.exec_err, ENOENT);
	proc_release(&p);
}

static void test_cap(void **state)
{
	struct proc p = { .out_max = 1000 };

	(void)state;
	assert_int_equal(sh(&p, "while :; do echo xxxxxxxxxxxxxxxx; done"), 0);
	assert_true(p.overflow);
	assert_true(p.outlen > 1000);
	assert_true(WIFSIGNALED(p.wstatus));
	assert_int_equal(WTERMSIG(p.wstatus), SIGKILL);
	proc_release(&p);

	p = (struct proc){ .out_max = 1000 };
	assert_int_equal(sh(&p, "printf %01000d 0"), 0);
	assert_false(p.overflow);
	assert_int_equal(p.outlen, 1000);
	proc_release(&p);
}

static void test_timeout(void **state)
{
	struct proc p = { .timeout_s = 0.05 };

	(void)state;
	assert_int_equal(sh(&p, "exec sleep 600"), 0);
	assert_true(p.timed_out);
	assert_true(WIFSIGNALED(p.wstatus));
	assert_int_equal(WTERMSIG(p.wstatus), SIGKILL);
	proc_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_path_find),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_err_fd_dir_env),
		cmocka_unit_test(test_not_started),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_timeout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
