/*
 * test_chat.c - the chat workload: every message accounted for in both
 * modes, processes mode really forks (distinct pids) and threads mode does
 * not, and configurations beyond the fd limit or the task cap refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "lib/util.h"
#include "runner/workload.h"
#include "runner/workloads/workloads.h"
#include "tests/wlargs.h"

struct chat_case {
	const char *name;
	const char *rooms, *users, *messages, *size, *mode;
	/* rooms x users x messages x (users - 1), worked out by hand */
	unsigned long delivered;
	unsigned long per_user;     /* messages x (users - 1) */
	unsigned long processes;    /* threads: 1; else rooms x (2 users + 1) */
};

static const struct chat_case cases[] = {
	{ "threads 2x3x5", "2", "3", "5", "100", "threads", 60, 10, 1 },
	{ "processes 2x3x5", "2", "3", "5", "100", "processes", 60, 10, 14 },
	{ "threads 1x2x1 tiny", "1", "2", "1", "8", "threads", 2, 1, 1 },
	{ "processes 1x2x1 tiny", "1", "2", "1", "8", "processes", 2, 1, 5 },
	/* 4 KiB messages fill socket buffers: relays block and resume. */
	{ "threads big messages", "2", "4", "50", "4096", "threads", 1200, 150, 1 },
	{ "processes big messages", "2", "4", "50", "4096", "processes", 1200, 150, 18 },
	{ "threads 3x5x20", "3", "5", "20", "100", "threads", 1200, 80, 1 },
};

static void run_case(const struct chat_case *c)
{
	struct wl_args a;
	struct result r;
	size_t i;

	targs_init(&a, &chat_workload, 0);
	targs_set(&a, "rooms", c->rooms);
	targs_set(&a, "users", c->users);
	targs_set(&a, "messages", c->messages);
	targs_set(&a, "size", c->size);
	targs_set(&a, "mode", c->mode);
	result_init(&r);
	if (chat_workload.run(&a, &r))
		fail_msg("%s: %s", c->name, r.error);
	assert_int_equal(result_value(&r, "messages"), c->delivered);
	assert_int_equal(result_value(&r, "processes"), c->processes);
	assert_true(result_value(&r, "elapsed_s") > 0);
	assert_true(result_value(&r, "throughput") > 0);
	assert_int_equal(r.nthreads, (size_t)(atoi(c->rooms) * atoi(c->users)));
	for (i = 0; i < r.nthreads; i++)
		assert_int_equal(r.thread_ops[i], c->per_user);
	result_release(&r);
	targs_release(&a);
}

static void test_cases(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(&cases[i]);
}

static int check(const char *rooms, const char *users, char *err, size_t len)
{
	struct wl_args a;
	int ret;

	targs_init(&a, &chat_workload, 0);
	targs_set(&a, "rooms", rooms);
	targs_set(&a, "users", users);
	ret = chat_workload.validate(&a, NULL, err, len);
	targs_release(&a);
	return ret;
}

/* 20 x 100 users need 4000 socket fds (+ reserve): over a 1024 limit. */
static void test_fd_limit(void **state)
{
	struct rlimit saved, low;
	char err[256] = "";
	struct wl_args a;
	struct result r;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	low = saved;
	low.rlim_cur = 1024;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	assert_int_equal(check("20", "100", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "RLIMIT_NOFILE"));
	assert_int_equal(check("4", "100", err, sizeof(err)), 0);
	/* run() refuses too, before opening anything. */
	targs_init(&a, &chat_workload, 0);
	targs_set(&a, "rooms", "20");
	targs_set(&a, "users", "100");
	result_init(&r);
	assert_int_equal(chat_workload.run(&a, &r), -1);
	assert_non_null(strstr(r.error, "RLIMIT_NOFILE"));
	result_release(&r);
	targs_release(&a);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
}

/* rooms x (2 users + 1): 20 x 201 = 4020 fits, 21 x 201 = 4221 does not. */
static void test_task_cap(void **state)
{
	struct rlimit saved, high;
	char err[256] = "";

	(void)state;
	assert_int_equal(check("21", "100", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "4221 tasks"));
	/* The fitting one needs 4000 fds: only where the hard limit allows. */
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	if (saved.rlim_max != RLIM_INFINITY && saved.rlim_max < 4100)
		return;
	high = saved;
	high.rlim_cur = 4100;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &high), 0);
	assert_int_equal(check("20", "100", err, sizeof(err)), 0);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_fd_limit),
		cmocka_unit_test(test_task_cap),
	};

	return cmocka_run_group_tests_name("chat", tests, NULL, NULL);
}
