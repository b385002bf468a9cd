/*
 * test_claim.c - one live runner per experiment: a claim of this process
 * is taken and released, a live process's claim refuses, a dead one's
 * (exited child, another boot, garbage) is taken over; and the meta
 * get/set it stands on round-trips text full of quotes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "db/store.h"
#include "runner/claim.h"
#include "lib/procid.h"
#include "lib/util.h"
#include "tests/tmpdir.h"
#include "tests/procstate.h"

struct ctx {
	char dir[64], path[96];
	struct store *s;
	int64_t exp;
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));
	struct experiment_row e = { 0 };

	if (!c || tmpdir_create(c->dir, sizeof(c->dir), "claim")) {
		free(c);
		return -1;
	}
	snprintf(c->path, sizeof(c->path), "%s/c.db", c->dir);
	e.name = (char *)"claim";
	e.order = (char *)"blocked";
	if (store_open(c->path, STORE_CREATE, &c->s) ||
	    store_experiment_create(c->s, &e)) {
		free(c);
		return -1;
	}
	c->exp = e.id;
	free(e.uuid);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	int ret;

	store_close(c->s);
	ret = tmpdir_remove(c->dir);
	free(c);
	return ret;
}

static char *held(struct ctx *c)
{
	char *v = NULL;

	assert_int_equal(store_meta_get(c->s, c->exp, CLAIM_KEY, &v), 0);
	return v;
}

/* Meta values with quotes and semicolons survive; set replaces, NULL
 * deletes, other experiments' keys are untouched. */
static void test_meta_roundtrip(void **state)
{
	static const char *const values[] = {
		"it's", "a\"b", "x'); DROP TABLE experiments; --", "", "é ;;",
	};
	struct ctx *c = *state;
	char *v = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(values); i++) {
		assert_int_equal(store_meta_set(c->s, c->exp, "k'; --", values[i]), 0);
		assert_int_equal(store_meta_get(c->s, c->exp, "k'; --", &v), 0);
		assert_non_null(v);
		assert_string_equal(v, values[i]);
		free(v);
	}
	assert_int_equal(store_meta_set(c->s, c->exp, "k'; --", NULL), 0);
	assert_int_equal(store_meta_get(c->s, c->exp, "k'; --", &v), 0);
	assert_null(v);
	assert_int_equal(store_meta_get(c->s, c->exp + 1, "k'; --", &v), 0);
	assert_null(v);
}

static void test_take_and_release(void **state)
{
	struct ctx *c = *state;
	char *mine = procid_text(getpid()), *v;
	pid_t pid = 0;

	assert_non_null(mine);
	assert_true(procid_alive(mine, &pid));
	assert_int_equal(pid, getpid());
	assert_int_equal(claim_take(c->s, c->exp), 0);
	v = held(c);
	assert_string_equal(v, mine);
	free(v);
	/* Taking it again is fine: it is ours. */
	assert_int_equal(claim_take(c->s, c->exp), 0);
	assert_int_equal(claim_release(c->s, c->exp), 0);
	assert_null(held(c));
	free(mine);
}

/* A child that lives until its pipe closes. */
static pid_t live_child(int *wfd)
{
	int fds[2];
	pid_t pid;
	char b;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[1]);
		(void)!read(fds[0], &b, 1);
		_exit(0);
	}
	close(fds[0]);
	*wfd = fds[1];
	return pid;
}

static void test_live_refuses_dead_taken(void **state)
{
	struct ctx *c = *state;
	int wfd, status;
	pid_t child = live_child(&wfd), pid = 0;
	char *theirs = procid_text(child), *v;

	assert_non_null(theirs);
	assert_true(procid_alive(theirs, &pid));
	assert_int_equal(pid, child);
	assert_int_equal(store_meta_set(c->s, c->exp, CLAIM_KEY, theirs), 0);
	assert_int_equal(claim_take(c->s, c->exp), -1);
	v = held(c);
	assert_string_equal(v, theirs); /* untouched */
	free(v);
	/* Our release does not drop another process's claim. */
	assert_int_equal(claim_release(c->s, c->exp), 0);
	v = held(c);
	assert_string_equal(v, theirs);
	free(v);
	close(wfd);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_false(procid_alive(theirs, &pid));
	assert_int_equal(claim_take(c->s, c->exp), 0);
	free(theirs);
}
/*
 * A runner that died but was not reaped yet (a zombie: its parent, a
 * closed terminal's shell, has not waited) holds nothing: its claim is
 * taken over.  The child here stays a zombie until the test reaps it.
 */
static void test_zombie_claim_taken(void **state)
{
	struct ctx *c = *state;
	int wfd, status, i;
	pid_t child = live_child(&wfd), pid = 0;
	char *theirs = procid_text(child);

	assert_non_null(theirs);
	assert_int_equal(store_meta_set(c->s, c->exp, CLAIM_KEY, theirs), 0);
	close(wfd); /* the child exits; nobody waits for it yet */
	for (i = 0; i < 2000 && proc_state(child) != 'Z'; i++)
		usleep(5000);
	assert_int_equal(proc_state(child), 'Z');
	assert_false(procid_alive(theirs, &pid));
	assert_int_equal(claim_take(c->s, c->exp), 0);
	assert_int_equal(waitpid(child, &status, 0), child);
	free(theirs);
}

/* Claims that name no live process here are taken over. */
static void test_stale_claims(void **state)
{
	struct ctx *c = *state;
	char *mine = procid_text(getpid()), *other_boot, *wrong_start;
	const char *rest = strchr(mine, ' ');
	unsigned long long t;
	long pid;
	pid_t p;

	assert_non_null(rest);
	assert_int_equal(sscanf(rest, " %ld %llu", &pid, &t), 2);
	other_boot = xasprintf("00000000-0000-0000-0000-000000000000%s", rest);
	wrong_start = xasprintf("%.*s %ld %llu", (int)(rest - mine), mine,
				pid, t + 1);
	const char *const stale[] = { other_boot, wrong_start, "garbage", "",
				      "x 0 0", "x -5 1" };
	for (size_t i = 0; i < ARRAY_SIZE(stale); i++) {
		assert_false(procid_alive(stale[i], &p));
		assert_int_equal(store_meta_set(c->s, c->exp, CLAIM_KEY,
						stale[i]), 0);
		assert_int_equal(claim_take(c->s, c->exp), 0);
	}
	free(other_boot);
	free(wrong_start);
	free(mine);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_meta_roundtrip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_take_and_release, setup, teardown),
		cmocka_unit_test_setup_teardown(test_live_refuses_dead_taken, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stale_claims, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zombie_claim_taken, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
