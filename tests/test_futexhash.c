/*
 * test_futexhash.c - the lock workloads' futex_hash_slots
 * (runner/workloads/futexhash.h): the value parsed and printed back, the
 * load-time refusals (not a power of two; a kernel without the private
 * hash, faked through futexhash_set_prctl, refused at the key's line),
 * and a run that sets the hash before its threads and stores what it
 * read back, against a fake kernel that remembers what it was told.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config.h"
#include "runner/param.h"
#include "runner/workload.h"
#include "runner/workloads/futexhash.h"
#include "runner/workloads/locks.h"
#include "runner/workloads/workloads.h"
#include "tests/config_load.h"
#include "tests/wlargs.h"

/* ---- fake kernels ---- */

static int fake_slots;     /* what GET answers */
static int fake_sets;      /* SET calls seen */
static int fake_set_errno; /* non-zero: SET fails so */

/* Linux 6.16 on: GET answers the slots, SET stores them. */
static int kernel_with_hash(int op, unsigned long arg)
{
	if (op == 2)
		return fake_slots;
	if (op == 1) {
		fake_sets++;
		if (fake_set_errno) {
			errno = fake_set_errno;
			return -1;
		}
		fake_slots = (int)arg;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

/* Before 6.16, or without CONFIG_FUTEX_PRIVATE_HASH: EINVAL for all. */
static int kernel_without_hash(int op, unsigned long arg)
{
	(void)op;
	(void)arg;
	errno = EINVAL;
	return -1;
}

static int reset(void **state)
{
	(void)state;
	fake_slots = 0;
	fake_sets = 0;
	fake_set_errno = 0;
	futexhash_set_prctl(NULL);
	return 0;
}

static const struct param_def *row(void)
{
	int i = workload_param_index(&futex_mutex_workload,
				     "futex_hash_slots");

	assert_true(i >= 0);
	return &futex_mutex_workload.params[i];
}

/* ---- the value ---- */

static const struct parse_case {
	const char *name, *text;
	int ok;
	long long value;
	const char *back; /* param_format's text, or the error's part */
} parse_cases[] = {
	{ "auto", "auto", 1, -1, "auto" },
	{ "16", "16", 1, 16, "16" },
	{ "256", "256", 1, 256, "256" },
	{ "global", "0", 1, 0, "0" },
	{ "word", "big", 0, 0, "'big' is not an integer or auto" },
	{ "negative", "-1", 0, 0, "out of range" },
	{ "past max", "2097152", 0, 0, "out of range" },
};

static void test_parse(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		const struct parse_case *t = &parse_cases[i];
		union param_value v;
		char err[256] = "", *back;
		int ret = param_parse(row(), t->text, &v, err, sizeof(err));

		if (!t->ok) {
			if (!ret || !strstr(err, t->back))
				fail_msg("%s: %d '%s'", t->name, ret, err);
			continue;
		}
		if (ret || v.i != t->value)
			fail_msg("%s: %d %lld '%s'", t->name, ret, v.i, err);
		back = param_format(row(), &v);
		if (strcmp(back, t->back))
			fail_msg("%s: printed back as '%s'", t->name, back);
		free(back);
	}
}

/* The default is auto, in every lock workload (one row, locks.h). */
static void test_default_auto(void **state)
{
	const struct workload *wls[] = { &futex_mutex_workload,
					  &pthread_mutex_workload,
					  &spinlock_workload, &rwlock_workload };
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		struct wl_args a;

		targs_init(&a, wls[i], 10);
		assert_int_equal(a.v[LP_FUTEX_HASH].i, FUTEXHASH_AUTO);
		targs_release(&a);
	}
}

/* ---- the load-time checks ---- */

static const struct check_case {
	const char *name;
	long long slots;
	int with_hash;
	const char *err; /* NULL: accepted */
} check_cases[] = {
	{ "auto", -1, 1, NULL },
	{ "auto without hash", -1, 0, NULL },
	{ "2", 2, 1, NULL },
	{ "16", 16, 1, NULL },
	{ "global", 0, 1, NULL },
	{ "one slot", 1, 1, "1 is not 0 or a power of two from 2" },
	{ "three", 3, 1, "3 is not 0 or a power of two from 2" },
	{ "48", 48, 1, "48 is not 0 or a power of two from 2" },
	{ "no hash", 16, 0, "needs Linux 6.16 with CONFIG_FUTEX_PRIVATE_HASH" },
	{ "no global either", 0, 0, "needs Linux 6.16" },
};

static void test_validate(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(check_cases) / sizeof(check_cases[0]); i++) {
		const struct check_case *t = &check_cases[i];
		char err[256] = "";
		int ret;

		futexhash_set_prctl(t->with_hash ? kernel_with_hash :
				    kernel_without_hash);
		ret = futexhash_validate(t->slots, err, sizeof(err));
		if (t->err ? !ret || !strstr(err, t->err) : ret != 0)
			fail_msg("%s: %d '%s'", t->name, ret, err);
		if (t->err && strncmp(err, "futex_hash_slots: ", 18))
			fail_msg("%s: the key is not named: '%s'", t->name,
				 err);
	}
}

/* A kernel without the hash: the INI's key refused at its line. */
static void test_refused_at_line(void **state)
{
	static const char ini[] =
		"[experiment]\n"
		"name = fh\n"
		"repetitions = 2\n"
		"[workload m]\n"
		"type = futex-mutex\n"
		"threads = 2\n"
		"futex_hash_slots = 16, 256\n"
		"jobs = 10\n";
	struct load_call lc = { "fh.ini", ini, strlen(ini) };
	struct experiment_config c;
	char *err;
	int ret;

	(void)state;
	futexhash_set_prctl(kernel_without_hash);
	err = load_captured(&lc, &c, &ret);
	assert_int_not_equal(ret, 0);
	assert_non_null(strstr(err, "fh.ini:7: [workload m] futex_hash_slots: "
				    "needs Linux 6.16 with "
				    "CONFIG_FUTEX_PRIVATE_HASH"));
	/* said once, not once per configuration */
	assert_null(strstr(strstr(err, "needs Linux") + 1, "needs Linux"));
	free(err);
}

/* The same file where the kernel has it loads: two configurations. */
static void test_accepted_with_hash(void **state)
{
	static const char ini[] =
		"[experiment]\n"
		"name = fh\n"
		"repetitions = 2\n"
		"[workload m]\n"
		"type = pthread-mutex\n"
		"futex_hash_slots = auto, 0, 16\n"
		"jobs = 10\n";
	struct load_call lc = { "fh.ini", ini, strlen(ini) };
	struct experiment_config c;
	char *err;
	int ret;

	(void)state;
	futexhash_set_prctl(kernel_with_hash);
	err = load_captured(&lc, &c, &ret);
	assert_string_equal(err, "");
	assert_int_equal(ret, 0);
	assert_int_equal(c.nentries, 3);
	assert_non_null(strstr(c.entries[0].canon, "futex_hash_slots=auto"));
	config_release(&c);
	assert_empty(&c);
	free(err);
}

/* ---- a run ---- */

static void run_fmutex(const char *slots, struct result *r, int *ret)
{
	struct wl_args a;

	targs_init(&a, &futex_mutex_workload, 50);
	targs_set(&a, "threads", "2");
	targs_set(&a, "futex_hash_slots", slots);
	result_init(r);
	*ret = futex_mutex_workload.run(&a, r);
	targs_release(&a);
}

/* 256 asked: set once before the run, 256 read back and stored. */
static void test_run_stores_slots(void **state)
{
	struct result r;
	int ret;

	(void)state;
	futexhash_set_prctl(kernel_with_hash);
	run_fmutex("256", &r, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(fake_sets, 1);
	assert_int_equal((long)result_value(&r, "futex_hash_slots"), 256);
	assert_int_equal((long)result_value(&r, "futex_hash_auto"), 0);
	result_release(&r);
}

/* auto: nothing set, the kernel's size (here 32) stored as automatic. */
static void test_run_auto(void **state)
{
	struct result r;
	int ret;

	(void)state;
	futexhash_set_prctl(kernel_with_hash);
	fake_slots = 32;
	run_fmutex("auto", &r, &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(fake_sets, 0);
	assert_int_equal((long)result_value(&r, "futex_hash_slots"), 32);
	assert_int_equal((long)result_value(&r, "futex_hash_auto"), 1);
	result_release(&r);
}

/* A kernel without the hash: auto runs and records nothing. */
static void test_run_no_hash(void **state)
{
	struct result r;
	int ret;

	(void)state;
	futexhash_set_prctl(kernel_without_hash);
	run_fmutex("auto", &r, &ret);
	assert_int_equal(ret, 0);
	assert_true(isnan(result_value(&r, "futex_hash_slots")));
	assert_true(isnan(result_value(&r, "futex_hash_auto")));
	result_release(&r);
}

/* The kernel refusing the size fails the run with its reason. */
static void test_run_refused(void **state)
{
	struct result r;
	int ret;

	(void)state;
	futexhash_set_prctl(kernel_with_hash);
	fake_set_errno = EBUSY;
	run_fmutex("16", &r, &ret);
	assert_int_equal(ret, -1);
	assert_non_null(strstr(r.error, "futex_hash_slots: the kernel "
					"refused 16 slots"));
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_parse, reset, reset),
		cmocka_unit_test_setup_teardown(test_default_auto, reset, reset),
		cmocka_unit_test_setup_teardown(test_validate, reset, reset),
		cmocka_unit_test_setup_teardown(test_refused_at_line, reset,
						reset),
		cmocka_unit_test_setup_teardown(test_accepted_with_hash, reset,
						reset),
		cmocka_unit_test_setup_teardown(test_run_stores_slots, reset,
						reset),
		cmocka_unit_test_setup_teardown(test_run_auto, reset, reset),
		cmocka_unit_test_setup_teardown(test_run_no_hash, reset, reset),
		cmocka_unit_test_setup_teardown(test_run_refused, reset, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
