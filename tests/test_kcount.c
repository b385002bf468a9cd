/*
 * test_kcount.c - kernel lock counting through a fake backend (what a
 * kernel without the tracepoint, or without permission, looks like, and
 * how counts, windows and kinds reach the result), plus one live check of
 * the filters against this kernel when it has the tracepoint.
 */
#include <errno.h>
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

#include "runner/kinstr/count.h"
#include "runner/workload.h"

/* ---- the fake: one counter per opened fd ---- */

#define FAKE_FDS 64

static struct {
	long id;                  /* < 0: no tracepoint */
	int open_errno;           /* non-zero: open of the unfiltered fails */
	const char *refuse;       /* a filter whose open fails */
	bool read_fails;
	int nopen;
	int live;                 /* fds open on the tracepoint now */
	int patches;              /* 0 <-> 1 transitions of live: the kernel
				   * registering or unregistering the probe */
	struct {
		bool used, enabled, on_exec, held;
		const char *filter;
		pid_t pid;
		uint64_t count;
	} fd[FAKE_FDS];
} fake;

static long fake_tracepoint(char *why, size_t whylen)
{
	if (fake.id < 0) {
		snprintf(why, whylen, "no tracepoint: fake");
		return -1;
	}
	return fake.id;
}

static int fake_open(long id, const char *filter, pid_t pid, bool on_exec)
{
	int fd = fake.nopen;

	assert_int_equal(id, fake.id);
	if ((!filter && fake.open_errno) ||
	    (filter && fake.refuse && !strcmp(filter, fake.refuse))) {
		errno = filter ? EINVAL : fake.open_errno;
		return -1;
	}
	assert_true(fd < FAKE_FDS);
	fake.nopen++;
	fake.fd[fd].used = true;
	fake.fd[fd].filter = filter;
	fake.fd[fd].pid = pid;
	fake.fd[fd].on_exec = on_exec;
	fake.fd[fd].enabled = !on_exec;
	if (fake.live++ == 0)
		fake.patches++;
	return fd;
}

static int fake_reset(int fd)
{
	fake.fd[fd].count = 0;
	return 0;
}

static int fake_enable(int fd, bool on)
{
	fake.fd[fd].enabled = on;
	return 0;
}

static int fake_read(int fd, uint64_t *count)
{
	if (fake.read_fails) {
		errno = EIO;
		return -1;
	}
	*count = fake.fd[fd].count;
	return 0;
}

static void fake_close(int fd)
{
	assert_true(fake.fd[fd].used);
	fake.fd[fd].used = false;
	if (--fake.live == 0)
		fake.patches++;
}

static int fake_hold(long id)
{
	int fd = fake.nopen;

	assert_int_equal(id, fake.id);
	assert_true(fd < FAKE_FDS);
	fake.nopen++;
	fake.fd[fd].used = true;
	fake.fd[fd].held = true;
	if (fake.live++ == 0)
		fake.patches++;
	return fd;
}

static const struct kcount_backend fake_backend = {
	.tracepoint = fake_tracepoint,
	.open = fake_open,
	.reset = fake_reset,
	.enable = fake_enable,
	.read = fake_read,
	.close = fake_close,
	.hold = fake_hold,
};

/* n events of the kind whose filter is filter (NULL: only the total). */
static void fake_fire(const char *filter, uint64_t n)
{
	for (int i = 0; i < fake.nopen; i++) {
		if (!fake.fd[i].used || !fake.fd[i].enabled)
			continue;
		if (!fake.fd[i].filter ||
		    (filter && !strcmp(fake.fd[i].filter, filter)))
			fake.fd[i].count += n;
	}
}

static int setup(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	fake.id = 408;
	/* the cases below count every kind (KLOCK_KINDS) but one */
	return 0;
}

static int nopen_fds(void)
{
	int n = 0;

	for (int i = 0; i < fake.nopen; i++)
		n += fake.fd[i].used;
	return n;
}

/* ---- cases ---- */

static void test_no_tracepoint(void **state)
{
	struct kcount k;
	struct result r;
	char buf[160];

	(void)state;
	fake.id = -1;
	result_init(&r);
	result_add(&r, "ops", 10);
	assert_int_equal(kcount_start(&k, &fake_backend, 0, KLOCK_KINDS), -1);
	assert_string_equal(k.why, "no tracepoint: fake");
	kcount_window(&k, true);
	kcount_window(&k, false);
	assert_int_equal(kcount_stop(&k, &r), -1);
	assert_int_equal(r.nmetrics, 1);   /* the run as before: ops only */
	assert_string_equal(kcount_status(&fake_backend, buf, sizeof(buf)),
			    "no tracepoint: fake");
	result_release(&r);
}

static void test_no_permission(void **state)
{
	struct kcount k;
	char buf[160];

	(void)state;
	fake.open_errno = EACCES;
	assert_int_equal(kcount_start(&k, &fake_backend, 0, KLOCK_KINDS), -1);
	if (geteuid() == 0)
		assert_non_null(strstr(k.why, "no permission"));
	else
		assert_int_equal(strncmp(k.why, "perf_event_paranoid=", 20), 0);
	assert_int_equal(nopen_fds(), 0);
	kcount_status(&fake_backend, buf, sizeof(buf));
	assert_string_equal(buf, k.why);
}

static void test_counts_by_kind(void **state)
{
	struct kcount k;
	struct result r;

	(void)state;
	result_init(&r);
	assert_int_equal(kcount_start(&k, &fake_backend, 0, KLOCK_KINDS), 0);
	assert_int_equal(nopen_fds(), KLOCK_NKINDS);
	fake_fire(kcount_filter(KLOCK_SPIN), 7);
	fake_fire(kcount_filter(KLOCK_MUTEX), 3);
	fake_fire(kcount_filter(KLOCK_RWSEM_WRITE), 2);
	fake_fire(NULL, 1);   /* a kind none of the filters names */
	result_add(&r, "ops", 100);
	assert_int_equal(kcount_stop(&k, &r), 0);
	assert_int_equal(nopen_fds(), 0);
	assert_float_equal(result_value(&r, "klock_contended"), 13, 1e-12);
	assert_float_equal(result_value(&r, "klock_spin"), 7, 1e-12);
	assert_float_equal(result_value(&r, "klock_mutex"), 3, 1e-12);
	assert_float_equal(result_value(&r, "klock_rwsem_write"), 2, 1e-12);
	assert_float_equal(result_value(&r, "klock_rwsem_read"), 0, 1e-12);
	assert_float_equal(result_value(&r, "klock_rwlock_read"), 0, 1e-12);
	assert_float_equal(result_value(&r, "klock_contended_per_op"), 0.13, 1e-12);
	result_release(&r);
}

/* Only what happens between the marks counts. */
static void test_window(void **state)
{
	struct kcount k;
	struct result r;
	struct run_window w;
	struct wl_args a;

	(void)state;
	memset(&a, 0, sizeof(a));
	result_init(&r);
	assert_int_equal(kcount_start(&k, &fake_backend, 0, KLOCK_KINDS), 0);
	kcount_hook(&k, &w);
	a.window = &w;
	fake_fire(kcount_filter(KLOCK_SPIN), 50);   /* thread creation */
	window_mark(&a, true);
	fake_fire(kcount_filter(KLOCK_SPIN), 4);
	window_mark(&a, false);
	fake_fire(kcount_filter(KLOCK_SPIN), 60);   /* the joins */
	assert_int_equal(kcount_stop(&k, &r), 0);
	assert_float_equal(result_value(&r, "klock_contended"), 4, 1e-12);
	assert_float_equal(result_value(&r, "klock_spin"), 4, 1e-12);
	/* no ops, no messages: no per-op metric */
	assert_true(isnan(result_value(&r, "klock_contended_per_op")));
	result_release(&r);
}

/* The runner's way: attach to a spawned child, counting from its exec. */
static void test_child_on_exec(void **state)
{
	struct kcount k;
	struct result r;

	(void)state;
	result_init(&r);
	assert_int_equal(kcount_start(&k, &fake_backend, 4242,
					 KLOCK_ON_EXEC | KLOCK_KINDS), 0);
	for (int i = 0; i < fake.nopen; i++) {
		assert_int_equal(fake.fd[i].pid, 4242);
		assert_true(fake.fd[i].on_exec);
		assert_false(fake.fd[i].enabled);
	}
	fake_fire(NULL, 5);                  /* before exec: not counted */
	for (int i = 0; i < fake.nopen; i++)
		fake.fd[i].enabled = true;   /* the kernel, at exec */
	fake_fire(NULL, 2);
	result_add(&r, "messages", 4);
	assert_int_equal(kcount_stop(&k, &r), 0);
	assert_float_equal(result_value(&r, "klock_contended"), 2, 1e-12);
	assert_float_equal(result_value(&r, "klock_contended_per_op"), 0.5, 1e-12);
	result_release(&r);
}

/* A kind this kernel's filter parser refuses is left out, the rest count. */
static void test_refused_filter(void **state)
{
	struct kcount k;
	struct result r;

	(void)state;
	fake.refuse = kcount_filter(KLOCK_RT);
	result_init(&r);
	assert_int_equal(kcount_start(&k, &fake_backend, 0, KLOCK_KINDS), 0);
	fake_fire(kcount_filter(KLOCK_MUTEX), 1);
	assert_int_equal(kcount_stop(&k, &r), 0);
	assert_true(isnan(result_value(&r, "klock_rt")));
	assert_float_equal(result_value(&r, "klock_mutex"), 1, 1e-12);
	assert_float_equal(result_value(&r, "klock_contended"), 1, 1e-12);
	result_release(&r);
}

static void test_read_fails(void **state)
{
	struct kcount k;
	struct result r;

	(void)state;
	result_init(&r);
	assert_int_equal(kcount_start(&k, &fake_backend, 0, KLOCK_KINDS), 0);
	fake.read_fails = true;
	assert_int_equal(kcount_stop(&k, &r), -1);
	assert_int_equal(r.nmetrics, 0);
	assert_int_equal(nopen_fds(), 0);
	assert_non_null(strstr(k.why, "reading the counter"));
	result_release(&r);
}

/* The run failed: counters closed, nothing added. */
static void test_stop_without_result(void **state)
{
	struct kcount k;

	(void)state;
	assert_int_equal(kcount_start(&k, &fake_backend, 0, KLOCK_KINDS), 0);
	assert_int_equal(kcount_stop(&k, NULL), -1);
	assert_int_equal(nopen_fds(), 0);
}

/*
 * Held for the experiment, the tracepoint is registered once: the runs'
 * counters join and leave it without the kernel patching its text, where
 * unheld every run registered and unregistered it.
 */
static void test_hold(void **state)
{
	struct kcount k;
	struct result r;
	int h, i;

	(void)state;
	for (i = 0; i < 3; i++) {
		assert_int_equal(kcount_start(&k, &fake_backend, 0, KLOCK_KINDS), 0);
		kcount_stop(&k, NULL);
	}
	assert_int_equal(fake.patches, 6);
	fake.patches = 0;
	h = kcount_hold(&fake_backend);
	assert_true(h >= 0);
	assert_false(fake.fd[h].enabled); /* counts nothing */
	for (i = 0; i < 3; i++) {
		result_init(&r);
		assert_int_equal(kcount_start(&k, &fake_backend, 0, KLOCK_KINDS), 0);
		fake_fire(NULL, 5);
		assert_int_equal(kcount_stop(&k, &r), 0);
		assert_int_equal((int)result_value(&r, "klock_contended"), 5);
		result_release(&r);
	}
	kcount_unhold(&fake_backend, h);
	assert_int_equal(fake.patches, 2);
	assert_int_equal(nopen_fds(), 0);
	/* nothing to hold without the tracepoint */
	fake.id = -1;
	assert_int_equal(kcount_hold(&fake_backend), -1);
}

/* By default the total alone: one event, one filterless count. */
static void test_total_only(void **state)
{
	struct kcount k;
	struct result r;

	(void)state;
	result_init(&r);
	assert_int_equal(kcount_start(&k, &fake_backend, 0, 0), 0);
	assert_int_equal(nopen_fds(), 1);
	assert_null(fake.fd[k.fd[KLOCK_ALL]].filter);
	fake_fire("flags == 1", 3);
	assert_int_equal(kcount_stop(&k, &r), 0);
	assert_int_equal((int)result_value(&r, "klock_contended"), 3);
	assert_true(isnan(result_value(&r, "klock_spin")));
	result_release(&r);
}

/* What a host can show of spinlocks: the rule of count.h, case by case. */
static void test_spin_visible(void **state)
{
	(void)state;
	assert_string_equal(kcount_spin_visible(2, "x\nkvm-guest: PV "
					       "spinlocks enabled\n"),
			    "yes-pv-spinlocks");
	assert_string_equal(kcount_spin_visible(4, NULL), "yes-3-cpus");
	assert_string_equal(kcount_spin_visible(2, "kvm-guest: PV spinlocks "
					       "disabled\n"),
			    "no-few-cpus-pv-off");
	assert_string_equal(kcount_spin_visible(2, ""), "no-few-cpus");
	assert_string_equal(kcount_spin_visible(1, NULL), "no-few-cpus");
}

/* Every kind's filter is one this kernel accepts, and counts add up. */
static void test_live_kernel(void **state)
{
	struct kcount k;
	struct result r;
	char buf[160];
	double sum = 0;

	(void)state;
	if (strcmp(kcount_status(&kcount_perf, buf, sizeof(buf)), "yes")) {
		printf("skipped: kernel lock events unavailable here: %s\n",
		       buf);
		skip();
	}
	result_init(&r);
	assert_int_equal(kcount_start(&k, &kcount_perf, 0, KLOCK_KINDS), 0);
	for (int i = 0; i < KLOCK_NKINDS; i++)
		assert_true(k.fd[i] >= 0);
	for (int i = 0; i < 200; i++)
		usleep(100);
	assert_int_equal(kcount_stop(&k, &r), 0);
	for (int i = 1; i < KLOCK_NKINDS; i++)
		sum += result_value(&r, kcount_metric(i));
	/* The kinds never overlap (the filters compare whole flag values). */
	assert_true(sum <= result_value(&r, "klock_contended"));
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_no_tracepoint, setup),
		cmocka_unit_test_setup(test_no_permission, setup),
		cmocka_unit_test_setup(test_counts_by_kind, setup),
		cmocka_unit_test_setup(test_window, setup),
		cmocka_unit_test_setup(test_child_on_exec, setup),
		cmocka_unit_test_setup(test_refused_filter, setup),
		cmocka_unit_test_setup(test_read_fails, setup),
		cmocka_unit_test_setup(test_stop_without_result, setup),
		cmocka_unit_test_setup(test_hold, setup),
		cmocka_unit_test_setup(test_total_only, setup),
		cmocka_unit_test_setup(test_spin_visible, setup),
		cmocka_unit_test_setup(test_live_kernel, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
