/*
 * test_spawn.c - child processes that misbehave on purpose (`contend exec
 * noop fault=...`), each judged into the right run status while the parent
 * survives: crash, hang past the timeout, SIGTERM ignored, exit 1, garbage,
 * no end line, stdout flood, stderr flood, a child left behind, a cancel.
 *
 * The binary under test is $CONTEND (tests/run-all.sh sets it), else
 * ./contend.  Nothing here sleeps to synchronise: timeouts are the child's
 * own, and alarm() only guards against a hang becoming a stuck test.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner/protocol.h"
#include "runner/spawn.h"
#include "lib/util.h"

#define WATCHDOG_S 60

static const char *contend(void)
{
	const char *c = getenv("CONTEND");

	return c && *c ? c : "./contend";
}

struct scase {
	const char *name;
	const char *args[6];      /* after "exec noop" */
	double timeout_s, grace_s;
	size_t out_max;
	enum run_status want;
	const char *err;          /* substring of the judged reason */
};

static const struct scase cases[] = {
	{ "ok", { "threads=2", "runtime=50ms" }, 30, 0, 0, RUN_OK, NULL },
	{ "segfault", { "fault=segv" }, 30, 0, 0, RUN_CRASHED,
	  "killed by SIGSEGV" },
	{ "abort", { "fault=abort" }, 30, 0, 0, RUN_CRASHED,
	  "killed by SIGABRT" },
	{ "hang past timeout", { "fault=hang" }, 0.3, 0, 0, RUN_TIMEOUT,
	  "timed out after 0.3s (SIGTERM)" },
	/* 2 s: the child must have set SIGTERM aside before the timeout,
	 * which its start under load can take longer than 0.3 s to do */
	{ "ignores SIGTERM", { "fault=stubborn" }, 2, 0.2, 0, RUN_TIMEOUT,
	  "SIGTERM ignored, SIGKILL" },
	{ "exit 1", { "fault=exit" }, 30, 0, 0, RUN_FAILED,
	  "exit status 1; stderr: noop: exiting with status 1 as asked" },
	{ "bad argument", { "threads=0" }, 30, 0, 0, RUN_FAILED,
	  "exit status 2" },
	{ "garbage", { "fault=garbage" }, 30, 0, 0, RUN_PROTOCOL,
	  "protocol: line 1" },
	{ "no end line", { "fault=noend" }, 30, 0, 0, RUN_PROTOCOL,
	  "no end line" },
	{ "stdout flood", { "fault=flood" }, 30, 0, 65536, RUN_PROTOCOL,
	  "output longer than 65536 bytes" },
	{ "stderr flood", { "fault=errflood" }, 30, 0, 0, RUN_FAILED,
	  "stderr (tail):" },
	{ "child left behind", { "fault=fork", "runtime=10ms" }, 30, 0, 0,
	  RUN_OK, NULL },
};

static void run_case(const struct scase *sc, struct child *c,
		     struct result *r, char *err, size_t errlen,
		     enum run_status *st)
{
	char *argv[10] = { (char *)"contend", (char *)"exec", (char *)"noop" };
	size_t n = 3, i;

	for (i = 0; sc->args[i]; i++)
		argv[n++] = (char *)sc->args[i];
	child_init(c);
	c->path = contend();
	c->argv = argv;
	c->timeout_s = sc->timeout_s;
	c->grace_s = sc->grace_s;
	c->out_max = sc->out_max;
	assert_int_equal(spawn_run(c), 0);
	*st = protocol_judge(c, r, err, errlen);
	print_message("%-18s -> %-9s %.100s\n", sc->name,
		      run_status_names[*st], err);
}

static void test_statuses(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct scase *sc = &cases[i];
		struct child c;
		struct result r;
		enum run_status st;
		char err[1024];

		alarm(WATCHDOG_S);
		run_case(sc, &c, &r, err, sizeof(err), &st);
		assert_int_equal(st, sc->want);
		if (sc->err)
			assert_non_null(strstr(err, sc->err));
		if (st == RUN_OK) {
			assert_string_equal(err, "");
			assert_false(isnan(result_value(&r, "elapsed_s")));
			assert_true(c.wall_s > 0);
			assert_true(c.ru.ru_maxrss > 0);
		}
		result_release(&r);
		child_release(&c);
	}
	alarm(0);
}

/* The run's process ended, and so did its group: nothing was left. */
static void test_no_orphan(void **state)
{
	const struct scase *sc = &cases[ARRAY_SIZE(cases) - 1];
	struct child c;
	struct result r;
	enum run_status st;
	siginfo_t si;
	char err[256];

	(void)state;
	/* Orphans of our children come back to us, so we can see them die. */
	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	alarm(WATCHDOG_S);
	run_case(sc, &c, &r, err, sizeof(err), &st);
	assert_int_equal(st, RUN_OK);
	/* The noop child forked one grandchild that would pause() forever. */
	memset(&si, 0, sizeof(si));
	assert_int_equal(waitid(P_PGID, (id_t)c.pid, &si, WEXITED), 0);
	assert_int_equal(si.si_code, CLD_KILLED);
	assert_int_equal(si.si_status, SIGKILL);
	errno = 0;
	assert_int_equal(waitid(P_ALL, 0, &si, WEXITED | WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
	alarm(0);
	result_release(&r);
	child_release(&c);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* A byte on the cancel pipe stops the child at once: interrupted. */
static void test_cancel(void **state)
{
	char *argv[] = { (char *)"contend", (char *)"exec", (char *)"noop",
			 (char *)"fault=hang", NULL };
	struct child c;
	struct result r;
	char err[256];
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "", 1), 1);
	alarm(WATCHDOG_S);
	child_init(&c);
	c.path = contend();
	c.argv = argv;
	c.cancel_fd = fds[0];
	assert_int_equal(spawn_run(&c), 0);
	alarm(0);
	assert_int_equal(c.killed, KILL_CANCEL);
	assert_true(WIFSIGNALED(c.wstatus));
	assert_int_equal(WTERMSIG(c.wstatus), SIGKILL);
	assert_int_equal(protocol_judge(&c, &r, err, sizeof(err)),
			 RUN_INTERRUPTED);
	result_release(&r);
	child_release(&c);
	close(fds[0]);
	close(fds[1]);
}

static void test_exec_failure(void **state)
{
	char *argv[] = { (char *)"nothing-here", NULL };
	struct child c;

	(void)state;
	child_init(&c);
	c.path = "/nonexistent/contend";
	c.argv = argv;
	assert_int_equal(spawn_run(&c), -1);
	child_release(&c);
	/* The failed child was reaped: no zombie is left for us. */
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/*
 * What the child starts with, whatever the runner's own signal state: its
 * own process group, no signal blocked, the runner's ignored SIGHUP back
 * at its default (SIGUSR2, ignored and not one of those, stays ignored, as
 * across exec) -- and the runner's mask is as it was.  The child prints
 * the pgrp field of its /proc/PID/stat and its SigBlk and SigIgn masks.
 */
static void test_child_state(void **state)
{
	char *argv[] = { (char *)"sh", (char *)"-c",
			 (char *)"read -r l < /proc/$$/stat; set -- $l; echo $5; "
				 "while read -r k v; do case $k in "
				 "SigBlk:|SigIgn:) echo $v;; esac; "
				 "done < /proc/$$/status", NULL };
	char *envp[] = { (char *)"PATH=/bin:/usr/bin", NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN }, hup, usr2;
	sigset_t usr1, before, after;
	unsigned long long blk, ignored;
	struct child c;
	char *end;
	long pgrp;

	(void)state;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	assert_int_equal(sigprocmask(SIG_BLOCK, &usr1, &before), 0);
	assert_int_equal(sigaction(SIGHUP, &ign, &hup), 0);
	assert_int_equal(sigaction(SIGUSR2, &ign, &usr2), 0);
	child_init(&c);
	c.path = "/bin/sh";
	c.argv = argv;
	c.envp = envp;
	assert_int_equal(spawn_run(&c), 0);
	assert_int_equal(sigprocmask(SIG_SETMASK, &before, &after), 0);
	sigaction(SIGHUP, &hup, NULL);
	sigaction(SIGUSR2, &usr2, NULL);
	assert_true(sigismember(&after, SIGUSR1));
	assert_false(sigismember(&after, SIGTERM));
	pgrp = strtol(c.out, &end, 10);
	blk = strtoull(end, &end, 16);
	ignored = strtoull(end, &end, 16);
	assert_string_equal(end, "\n");
	assert_int_equal(pgrp, (long)c.pid);
	assert_int_equal(blk, 0);
	/* Bit n - 1 stands for signal n. */
	assert_false(ignored & (1ULL << (SIGHUP - 1)));
	assert_true(ignored & (1ULL << (SIGUSR2 - 1)));
	child_release(&c);
}

/* The environment given is the environment the child sees. */
static void test_env(void **state)
{
	char *argv[] = { (char *)"sh", (char *)"-c",
			 (char *)"printf '%s' \"$CONTEND_PAD\"", NULL };
	char *envp[] = { (char *)"CONTEND_PAD=xxxx", (char *)"PATH=/bin:/usr/bin",
			 NULL };
	struct child c;

	(void)state;
	child_init(&c);
	c.path = "/bin/sh";
	c.argv = argv;
	c.envp = envp;
	assert_int_equal(spawn_run(&c), 0);
	assert_int_equal(c.outlen, 4);
	assert_string_equal(c.out, "xxxx");
	child_release(&c);
}

/* Our descriptors that a child inherits (not close-on-exec) open on path. */
static int inherited_on(const char *path)
{
	char link[64], target[256];
	int fd, n = 0;

	for (fd = 0; fd < 1024; fd++) {
		ssize_t len;
		int flags = fcntl(fd, F_GETFD);

		if (flags < 0 || (flags & FD_CLOEXEC))
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		n += !strcmp(target, path);
	}
	return n;
}

/*
 * The child's stdin is /dev/null, and no other descriptor of it is: the
 * one opened for the dup2 onto stdin is close-on-exec (it leaked into
 * every run before).  Ours that stdin replaces or the child inherits
 * count as they are.
 */
static void test_no_fd_leak(void **state)
{
	char *argv[] = { (char *)"sh", (char *)"-c",
			 (char *)"ls -l /proc/$$/fd | grep -c /dev/null", NULL };
	char *envp[] = { (char *)"PATH=/bin:/usr/bin", NULL };
	int want = 1 + inherited_on("/dev/null");
	struct child c;
	char *end;
	long got;

	(void)state;
	/* Our stdin is replaced in the child, not inherited. */
	if ((fcntl(STDIN_FILENO, F_GETFD) & FD_CLOEXEC) == 0) {
		char target[256];
		ssize_t len = readlink("/proc/self/fd/0", target,
				       sizeof(target) - 1);

		if (len >= 0) {
			target[len] = '\0';
			want -= !strcmp(target, "/dev/null");
		}
	}
	child_init(&c);
	c.path = "/bin/sh";
	c.argv = argv;
	c.envp = envp;
	assert_int_equal(spawn_run(&c), 0);
	got = strtol(c.out, &end, 10);
	assert_string_equal(end, "\n");
	assert_int_equal(got, want);
	child_release(&c);
}

static void test_signame(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(spawn_signame(SIGSEGV, buf, sizeof(buf)), "SIGSEGV");
	assert_string_equal(spawn_signame(SIGKILL, buf, sizeof(buf)), "SIGKILL");
	assert_string_equal(spawn_signame(12345, buf, sizeof(buf)),
			    "signal 12345");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statuses),
		cmocka_unit_test(test_no_orphan),
		cmocka_unit_test(test_cancel),
		cmocka_unit_test(test_exec_failure),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_child_state),
		cmocka_unit_test(test_no_fd_leak),
		cmocka_unit_test(test_signame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
