/*
 * test_locks.c - the lock workloads (futex-mutex, pthread-mutex, spinlock,
 * rwlock) run in-process, and the pieces they share (locks.c).
 *
 * Every named variant goes through the same properties: one thread never
 * contends; independent groups never contend; 2..8 threads pass the
 * mutual-exclusion check; `jobs` gives exactly jobs x threads x locks
 * operations.  Then the checker itself is fed broken counts, and the
 * contended-path delay of pthread-mutex must lower the contention rate.
 * Nothing here asserts a speed: only counts, relations and error texts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/param.h"
#include "lib/util.h"
#include "runner/workload.h"
#include "runner/workloads/harness.h"
#include "runner/workloads/locks.h"

/* Short runs: the properties below hold at any length. */
#define RUN_S 0.02
#define MAXKV 6
/* The calibration handed to the runs here, as the runner hands one. */
#define RUN_LPUS 1000.0

/*
 * Builds a run's arguments with the real parser (param.c): the table
 * defaults, then the key=value overrides; jobs > 0 for fixed work, else a
 * RUN_S runtime.  Nothing here allocates (no string parameters), but the
 * callers release anyway, as the contract asks.
 */
static void args_build(const struct workload *wl, const char *const *kv,
		       size_t nkv, uint64_t jobs, struct wl_args *a)
{
	char *v[MAXKV + 2], err[256] = "";
	size_t i;

	assert_true(nkv <= ARRAY_SIZE(v));
	for (i = 0; i < nkv; i++)
		v[i] = (char *)kv[i];   /* args_from_kv only reads them */
	if (args_from_kv(wl, nkv, v, a, err, sizeof(err)))
		fail_msg("%s: %s", wl->name, err);
	a->jobs = jobs;
	a->runtime_s = jobs ? 0 : RUN_S;
}

static double metric(const struct result *r, const char *name)
{
	double v = result_value(r, name);

	if (isnan(v))
		fail_msg("metric %s missing", name);
	return v;
}

/* Exact comparison of counts carried as doubles (< 2^53, so exact). */
static void assert_count(const struct result *r, const char *name,
			 double want)
{
	double got = metric(r, name);

	if (fabs(got - want) > 0)
		fail_msg("%s = %.17g, want %.17g", name, got, want);
}

/*
 * The relations every successful lock run must satisfy, whatever the
 * timing: per-thread ops add up, rates follow from counts, and no
 * acquisition is counted twice.
 */
static void check_invariants(const struct result *r, size_t nthreads)
{
	double ops = metric(r, "ops"), sum = 0;
	size_t i;

	assert_int_equal(r->nthreads, nthreads);
	for (i = 0; i < r->nthreads; i++)
		sum += (double)r->thread_ops[i];
	if (fabs(sum - ops) > 0)
		fail_msg("thread ops add up to %.17g, ops = %.17g", sum, ops);
	/*
	 * A fixed-time window of RUN_S on a loaded machine can close before
	 * any worker was scheduled: no operation is then a correct result
	 * (seen on a shared 2-core CI machine), and there is nothing more to
	 * check.  Fixed-work runs assert their exact counts separately.
	 */
	if (ops <= 0) {
		assert_true(metric(r, "contended") <= 0);
		assert_true(metric(r, "handoffs") <= 0);
		return;
	}
	assert_true(metric(r, "contended") <= ops);
	assert_true(metric(r, "handoffs") >= 0);
	assert_true(metric(r, "handoffs") <= ops);
	assert_true(fabs(metric(r, "contention_rate") -
			 metric(r, "contended") / ops) < 1e-12);
	assert_true(fabs(metric(r, "loops_per_us") - RUN_LPUS) < 1e-9);
	assert_true(metric(r, "elapsed_s") > 0);
}

/* A named configuration of one workload, put through every property. */
struct variant {
	const char *name;
	const char *wl;
	const char *kv[MAXKV];
	const char *counters[3];   /* own metrics: zero with one thread */
};

static const struct variant variants[] = {
	{ "futex-mutex", "futex-mutex", { NULL },
	  { "futex_waits", "futex_wakes", NULL } },
	{ "futex-mutex worklen", "futex-mutex", { "worklen=200" },
	  { "futex_waits", "futex_wakes", NULL } },
	{ "pthread-mutex normal", "pthread-mutex", { "kind=normal" },
	  { NULL } },
	{ "pthread-mutex adaptive hold", "pthread-mutex",
	  { "kind=adaptive", "hold_ns=100", "think_ns=100" }, { NULL } },
	{ "pthread-mutex spin delay", "pthread-mutex",
	  { "contended_delay_ns=1000", "contended_delay_mode=spin" },
	  { NULL } },
	{ "pthread-mutex sleep delay", "pthread-mutex",
	  { "contended_delay_ns=20000", "contended_delay_mode=sleep" },
	  { NULL } },
	{ "spinlock tas", "spinlock", { "kind=tas" }, { "spins", NULL } },
	{ "spinlock tas no pause", "spinlock", { "kind=tas", "pause=no" },
	  { "spins", NULL } },
	{ "spinlock ttas", "spinlock", { "kind=ttas" }, { "spins", NULL } },
	{ "spinlock ticket", "spinlock", { "kind=ticket" },
	  { "spins", NULL } },
	{ "spinlock ticket no pause", "spinlock",
	  { "kind=ticket", "pause=no" }, { "spins", NULL } },
	{ "spinlock pthread", "spinlock", { "kind=pthread" }, { NULL } },
	{ "rwlock read-only", "rwlock", { "writers=0" }, { NULL } },
	{ "rwlock 30% writers", "rwlock", { "writers=30" }, { NULL } },
	{ "rwlock all writers", "rwlock", { "writers=100" }, { NULL } },
};

/* Runs variant v with extra overrides; returns the run's status. */
static int run_variant(const struct variant *v, const char *threads,
		       const char *locks, uint64_t jobs, struct result *r)
{
	const struct workload *wl = workload_find(v->wl);
	const char *kv[MAXKV + 2];
	struct wl_args a;
	size_t n = 0, i;
	char err[256];
	int ret;

	assert_non_null(wl);
	for (i = 0; i < MAXKV && v->kv[i]; i++)
		kv[n++] = v->kv[i];
	kv[n++] = threads;
	kv[n++] = locks;
	args_build(wl, kv, n, jobs, &a);
	a.loops_per_us = RUN_LPUS;
	assert_int_equal(wl->validate(&a, NULL, err, sizeof(err)), 0);
	result_init(r);
	ret = wl->run(&a, r);
	args_release(&a);
	return ret;
}

static void expect_ok(int ret, const struct result *r, const char *what)
{
	if (ret)
		fail_msg("%s failed: %s", what, r->error);
}

/* One thread, or one thread per lock: nothing ever finds a lock taken. */
static void check_uncontended(const struct variant *v, const char *locks,
			      size_t nlocks)
{
	struct result r;
	size_t i;

	expect_ok(run_variant(v, "threads=1", locks, 5000, &r), &r, v->name);
	check_invariants(&r, nlocks);
	assert_count(&r, "ops", 5000.0 * (double)nlocks);
	assert_count(&r, "contended", 0);
	assert_count(&r, "handoffs", 0);
	for (i = 0; i < 3 && v->counters[i]; i++)
		assert_count(&r, v->counters[i], 0);
	result_release(&r);
}

static void test_one_thread_never_contends(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		print_message("  %s\n", variants[i].name);
		check_uncontended(&variants[i], "locks=1", 1);
	}
}

static void test_independent_groups_never_contend(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		print_message("  %s\n", variants[i].name);
		check_uncontended(&variants[i], "locks=4", 4);
	}
}

/* 2..8 threads on one lock: the run itself checks mutual exclusion. */
static void test_threads_keep_mutual_exclusion(void **state)
{
	static const char *const threads[] = {
		"threads=2", "threads=3", "threads=4", "threads=5",
		"threads=6", "threads=7", "threads=8",
	};
	struct result r;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		print_message("  %s\n", variants[i].name);
		for (size_t t = 0; t < ARRAY_SIZE(threads); t++) {
			expect_ok(run_variant(&variants[i], threads[t],
					      "locks=1", 0, &r),
				  &r, threads[t]);
			check_invariants(&r, t + 2);
			result_release(&r);
		}
	}
}

/* jobs: exactly jobs per thread, in every group. */
static void test_jobs_exact_ops(void **state)
{
	struct result r;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++) {
		print_message("  %s\n", variants[i].name);
		expect_ok(run_variant(&variants[i], "threads=3", "locks=2", 300,
				      &r),
			  &r, variants[i].name);
		check_invariants(&r, 6);
		assert_count(&r, "ops", 300.0 * 3 * 2);
		for (size_t t = 0; t < 6; t++)
			assert_int_equal(r.thread_ops[t], 300);
		result_release(&r);
	}
}

/* Each case: group counters and per-worker ops, and the verdict. */
struct check_case {
	const char *name;
	size_t groups, per_group;
	uint64_t counts[3];
	uint64_t ops[6];
	const char *msg;   /* NULL: must pass */
};

static const struct check_case check_cases[] = {
	{ "counts match", 2, 2, { 30, 7 }, { 10, 20, 3, 4 }, NULL },
	{ "one group", 1, 3, { 6 }, { 1, 2, 3 }, NULL },
	{ "a lost update (count below ops)", 1, 2, { 29 }, { 10, 20 },
	  "mutual exclusion violated: lock 0 protected counter is 29, its "
	  "threads completed 30 operations" },
	{ "second group wrong", 3, 1, { 5, 6, 8 }, { 5, 6, 7 },
	  "mutual exclusion violated: lock 2 protected counter is 8, its "
	  "threads completed 7 operations" },
	/* Totals agree (37 = 37): only a per-group check sees it. */
	{ "groups swapped, totals equal", 2, 2, { 31, 6 }, { 10, 20, 3, 4 },
	  "mutual exclusion violated: lock 0 protected counter is 31" },
};

/*
 * Hand-offs from the counter values each thread saw, on a sequence worked
 * by hand: holders A A B B A B take the counter to 1..6, so A sees 1 2 5
 * and B sees 3 4 6.  The holder changes at 3 (A->B), 5 (B->A) and 6
 * (A->B): three hand-offs, one of A's and two of B's; 1 follows no one.
 */
static void test_handoffs_count_changes_of_holder(void **state)
{
	static const uint64_t a[] = { 1, 2, 5 }, b[] = { 3, 4, 6 };
	uint64_t last_a = 0, last_b = 0, ha = 0, hb = 0;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		ha += handoff(&last_a, a[i]);
		hb += handoff(&last_b, b[i]);
	}
	assert_int_equal(ha, 1);
	assert_int_equal(hb, 2);
	/* One thread alone hands off to no one. */
	last_a = ha = 0;
	for (i = 1; i <= 1000; i++)
		ha += handoff(&last_a, i);
	assert_int_equal(ha, 0);
}

static void test_check_catches_broken_counts(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(check_cases); i++) {
		const struct check_case *c = &check_cases[i];
		size_t n = c->groups * c->per_group;
		struct slot *s = harness_slots(n);
		struct result r;
		int ret;

		print_message("  %s\n", c->name);
		for (size_t k = 0; k < n; k++)
			s[k].ops = c->ops[k];
		result_init(&r);
		ret = locks_check(c->counts, c->groups, c->per_group, s,
				  LOCKS_FIELD_OPS, &r);
		if (!c->msg) {
			assert_int_equal(ret, 0);
		} else {
			assert_int_equal(ret, -1);
			if (!strstr(r.error, c->msg))
				fail_msg("error '%s' lacks '%s'", r.error,
					 c->msg);
		}
		harness_slots_free(s);
		result_release(&r);
	}
}

/*
 * A deliberately broken lock, end to end through locks_run: the "lock"
 * lets the increment of every third operation be lost (as a racing
 * read-modify-write would), deterministically, so the run must fail.
 */
struct broken_group {
	_Alignas(2 * CACHELINE) struct guarded data;
};

static void broken_worker(struct worker *w)
{
	struct broken_group *g = w->ctx;
	uint64_t done = 0;

	while (worker_continue(w, done)) {
		if (done % 3)
			guarded_update(&g[w->id].data);
		done++;
	}
	w->slot->ops = done;
}

static void test_broken_lock_fails_the_run(void **state)
{
	const struct workload *wl = workload_find("futex-mutex");
	const char *kv[] = { "threads=1", "locks=2" };
	struct broken_group *g = harness_alloc_lines(2, sizeof(*g));
	struct lock_cfg c;
	struct lock_run lr = { .fn = broken_worker, .ctx = g, .groups = g,
			       .nlocks = 2, .per_lock = 1,
			       .stride = sizeof(*g),
			       .data_off = offsetof(struct broken_group, data),
			       .check_field = LOCKS_FIELD_OPS };
	struct wl_args a;
	struct result r;

	(void)state;
	args_build(wl, kv, 2, 30, &a);
	locks_cfg_init(&c, &a);
	result_init(&r);
	assert_int_equal(locks_run(&a, &c, &lr, &r), -1);
	assert_non_null(strstr(r.error, "mutual exclusion violated: lock 0 "
					"protected counter is 20, its threads "
					"completed 30 operations"));
	harness_slots_free(lr.slots);
	free(g);
	result_release(&r);
	args_release(&a);
}

/*
 * Slowing the contended path by sleeping makes waiters sleep while one
 * thread runs alone: the contention rate must fall (the lockdep effect).
 *
 * Two assertions.  (1) Whatever the load: each contended acquisition
 * slept DELAY, so a thread cannot have more than elapsed / DELAY of them.
 * (2) Lower contention than without delay -- a comparison that only means
 * something when the undelayed threads really ran side by side.  On a
 * machine saturated by other work they run one after another and neither
 * run contends; so the undelayed run is retried until it shows contention
 * (>= MIN_CONTENDED), and the test is skipped, saying so, if it never does.
 */
#define DELAY_S 0.01
#define MIN_CONTENDED 50

static void test_sleep_delay_lowers_contention(void **state)
{
	static const struct variant plain = {
		"no delay", "pthread-mutex", { "worklen=200" }, { NULL }
	};
	static const struct variant sleepy = {
		"sleep 10 ms", "pthread-mutex",
		{ "worklen=200", "contended_delay_ns=10000000",
		  "contended_delay_mode=sleep" },
		{ NULL }
	};
	double c0 = 0, rate0 = 0, c1, rate1, bound;
	struct result r;

	(void)state;
	for (int attempt = 0; attempt < 5 && c0 < MIN_CONTENDED; attempt++) {
		expect_ok(run_variant(&plain, "threads=4", "locks=1", 30000,
				      &r),
			  &r, plain.name);
		c0 = metric(&r, "contended");
		rate0 = metric(&r, "contention_rate");
		result_release(&r);
	}
	expect_ok(run_variant(&sleepy, "threads=4", "locks=1", 30000, &r), &r,
		  sleepy.name);
	c1 = metric(&r, "contended");
	rate1 = metric(&r, "contention_rate");
	/* +1 per thread: t0 is read just after the gate opens. */
	bound = 4 * (metric(&r, "elapsed_s") / DELAY_S + 1);
	result_release(&r);
	print_message("  contention rate: no delay %.3g (%.0f), sleep %.3g "
		      "(%.0f, bound %.1f)\n", rate0, c0, rate1, c1, bound);
	assert_true(c1 <= bound);
	if (c0 < MIN_CONTENDED) {
		print_message("  threads never overlapped (machine busy): "
			      "comparison skipped\n");
		skip();
	}
	assert_true(rate1 < rate0);
}

/* rwlock specifics that hold whatever the timing. */
static void test_rwlock_writers_and_sharing(void **state)
{
	static const struct variant readers = {
		"readers", "rwlock", { "writers=0" }, { NULL } };
	static const struct variant writers = {
		"writers", "rwlock", { "writers=100" }, { NULL } };
	static const struct variant half = {
		"half", "rwlock", { "writers=50" }, { NULL } };
	static const struct variant own = {
		"own locks", "rwlock", { "writers=50", "shared=no" }, { NULL } };
	struct result r;
	double w;

	(void)state;
	expect_ok(run_variant(&readers, "threads=4", "locks=1", 2000, &r), &r,
		  readers.name);
	assert_count(&r, "writes", 0);
	assert_count(&r, "handoffs", 0);
	result_release(&r);

	expect_ok(run_variant(&writers, "threads=2", "locks=1", 2000, &r), &r,
		  writers.name);
	assert_count(&r, "writes", 4000);
	result_release(&r);

	/* The draws are seeded per thread: about half, every time. */
	expect_ok(run_variant(&half, "threads=2", "locks=1", 4000, &r), &r,
		  half.name);
	w = metric(&r, "writes");
	assert_true(w > 0.45 * 8000 && w < 0.55 * 8000);
	result_release(&r);

	/* One rwlock per thread: writers or not, no one ever waits. */
	expect_ok(run_variant(&own, "threads=4", "locks=2", 2000, &r), &r,
		  own.name);
	check_invariants(&r, 8);
	assert_count(&r, "contended", 0);
	assert_count(&r, "handoffs", 0);
	result_release(&r);
}

static const struct variant *find_variant(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(variants); i++)
		if (!strcmp(variants[i].name, name))
			return &variants[i];
	fail_msg("no variant %s", name);
	return NULL;
}

static void test_spins_only_where_counted(void **state)
{
	const struct variant *pthread = find_variant("spinlock pthread");
	const struct variant *ticket = find_variant("spinlock ticket");
	struct result r;

	(void)state;
	/* glibc spins inside pthread_spin_lock: no count, no metric. */
	expect_ok(run_variant(pthread, "threads=2", "locks=1", 1000, &r), &r,
		  pthread->name);
	assert_true(isnan(result_value(&r, "spins")));
	result_release(&r);
	expect_ok(run_variant(ticket, "threads=2", "locks=1", 1000, &r), &r,
		  ticket->name);
	/* Every contended acquisition spun at least once. */
	assert_true(metric(&r, "spins") >= metric(&r, "contended"));
	result_release(&r);
}

/* threads x locks <= 4096, enforced by every lock workload. */
static void test_validate_thread_limit(void **state)
{
	static const char *const names[] = { "futex-mutex", "pthread-mutex",
					     "spinlock", "rwlock" };
	static const struct {
		const char *threads, *locks;
		int ret;
	} cases[] = {
		{ "threads=64", "locks=64", 0 },
		{ "threads=4096", "locks=1", 0 },
		{ "threads=1", "locks=4096", 0 },
		{ "threads=4096", "locks=2", -1 },
		{ "threads=65", "locks=64", -1 },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const struct workload *wl = workload_find(names[i]);

		assert_non_null(wl);
		for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
			const char *kv[] = { cases[k].threads, cases[k].locks };
			struct wl_args a;

			args_build(wl, kv, 2, 0, &a);
			err[0] = 0;
			assert_int_equal(wl->validate(&a, NULL, err,
						      sizeof(err)),
					 cases[k].ret);
			if (cases[k].ret)
				assert_non_null(strstr(err, "exceeds 4096"));
			args_release(&a);
		}
	}
}

/*
 * hold_ns goes inside the lock; worklen and think_ns add up outside, in
 * loops of the calibration handed to the run.
 */
static void test_cfg_resolves_work(void **state)
{
	const struct workload *wl = workload_find("futex-mutex");
	const char *kv[] = { "threads=3", "locks=5", "worklen=500",
			     "hold_ns=2000", "think_ns=3000" };
	struct lock_cfg c;
	struct wl_args a;

	(void)state;
	args_build(wl, kv, 5, 0, &a);
	a.loops_per_us = 1500;
	locks_cfg_init(&c, &a);
	assert_int_equal(c.per_group, 3);
	assert_int_equal(c.groups, 5);
	assert_int_equal(c.nworkers, 15);
	assert_true(fabs(c.loops_per_us - 1500) < 1e-9);
	assert_int_equal(c.hold, 3000);
	assert_int_equal(c.outside, 500 + 4500);
	assert_true(c.calibrated_work);
	args_release(&a);
}

/* Without hold_ns and think_ns no calibration is measured nor reported. */
static void test_cfg_needs_no_calibration(void **state)
{
	const struct workload *wl = workload_find("pthread-mutex");
	const char *kv[] = { "threads=1", "worklen=7" };
	struct lock_cfg c;
	struct result r;
	struct wl_args a;

	(void)state;
	args_build(wl, kv, 2, 100, &a);
	locks_cfg_init(&c, &a);
	assert_true(c.loops_per_us <= 0);
	assert_false(c.calibrated_work);
	assert_int_equal(c.outside, 7);
	result_init(&r);
	assert_int_equal(wl->run(&a, &r), 0);
	assert_true(isnan(result_value(&r, "loops_per_us")));
	assert_true(isnan(result_value(&r, "loops_per_us_now")));
	result_release(&r);
	args_release(&a);
}

/* A calibrated parameter and nothing handed: the run measures its own. */
static void test_cfg_measures_when_needed(void **state)
{
	const struct workload *wl = workload_find("pthread-mutex");
	const char *kv[] = { "threads=1", "contended_delay_ns=100" };
	struct result r;
	struct wl_args a;

	(void)state;
	args_build(wl, kv, 2, 100, &a);
	result_init(&r);
	assert_int_equal(wl->run(&a, &r), 0);
	assert_true(metric(&r, "loops_per_us") > 0);
	assert_true(metric(&r, "loops_per_us_now") > 0);
	result_release(&r);
	args_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_thread_never_contends),
		cmocka_unit_test(test_independent_groups_never_contend),
		cmocka_unit_test(test_threads_keep_mutual_exclusion),
		cmocka_unit_test(test_jobs_exact_ops),
		cmocka_unit_test(test_handoffs_count_changes_of_holder),
		cmocka_unit_test(test_check_catches_broken_counts),
		cmocka_unit_test(test_broken_lock_fails_the_run),
		cmocka_unit_test(test_sleep_delay_lowers_contention),
		cmocka_unit_test(test_rwlock_writers_and_sharing),
		cmocka_unit_test(test_spins_only_where_counted),
		cmocka_unit_test(test_validate_thread_limit),
		cmocka_unit_test(test_cfg_resolves_work),
		cmocka_unit_test(test_cfg_needs_no_calibration),
		cmocka_unit_test(test_cfg_measures_when_needed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
