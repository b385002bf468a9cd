/*
 * test_vocab.c - the data dictionary (db/vocab.h) against the runner it
 * describes: the load parameters against the workload registry's rows,
 * the fixed-work workloads against the registry, and the metrics the
 * in-process workloads report against the metric table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "db/vocab.h"
#include "lib/util.h"
#include "runner/param.h"
#include "runner/workload.h"

/* A load parameter of workload: declared with the role PR_LOAD. */
static bool is_load(const char *workload, const char *param)
{
	const struct param_rule *r = vocab_param_rule(workload, param);

	return r && r->role == PR_LOAD;
}

static void test_metric_direction(void **state)
{
	(void)state;
	assert_int_equal(metric_direction("throughput"), DIR_HIGHER);
	assert_int_equal(metric_direction("elapsed_s"), DIR_LOWER);
}

/*
 * The declarations against the registry: in every registered workload,
 * exactly the rows of runner/workloads/locks.h that add independent work
 * (locks, worklen, think_ns) are load parameters -- so a new lock workload
 * missing from db/vocab.c's list, or a renamed row, fails here -- and no
 * other parameter is (threads, hold_ns, contended_delay_ns, kind ... stay
 * judged).
 */
static void test_load_params_registry(void **state)
{
	static const char *const load[] = { "locks", "worklen", "think_ns" };
	size_t w, k, l, nlock = 0;

	(void)state;
	for (w = 0; w < nworkloads; w++) {
		const struct workload *wl = workloads[w];
		bool is_lock = workload_param_index(wl, "locks") >= 0;

		nlock += is_lock;
		for (k = 0; k < wl->nparams; k++) {
			const char *name = wl->params[k].name;
			bool want = false;

			for (l = 0; l < ARRAY_SIZE(load); l++)
				want |= is_lock && !strcmp(name, load[l]);
			if (want != (is_load(wl->name, name)))
				fail_msg("%s: %s should %sbe a load parameter",
					 wl->name, name, want ? "" : "not ");
		}
	}
	/* futex-mutex, pthread-mutex, spinlock, rwlock */
	assert_true(nlock >= 4);
	assert_false(is_load("pthread-mutex", "contended_delay_ns"));
	assert_false(is_load("pthread-mutex", "threads"));
}

/*
 * Every worker-count declaration names a parameter some registered
 * workload has, so a renamed row cannot leave a declaration behind.
 */
static void test_worker_params_registry(void **state)
{
	static const char *const workers[] = { "threads", "processes", "users",
					       "rooms" };
	size_t i, w;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(workers); i++) {
		const struct param_rule *r = vocab_param_rule("", workers[i]);
		bool found = false;

		assert_non_null(r);
		assert_int_equal(r->role, PR_WORKERS);
		for (w = 0; w < nworkloads; w++)
			found |= workload_param_index(workloads[w], workers[i]) >= 0;
		if (!found)
			fail_msg("%s: declared a worker count, no workload has it",
				 workers[i]);
	}
}

/*
 * Fixed work by its own parameters: chat, and only chat, of the registered
 * workloads -- a renamed chat fails here -- and a fixed-work workload says
 * how long it runs itself (WL_OWN_DURATION: no runtime, no jobs).
 */
static void test_fixed_work_registry(void **state)
{
	size_t w, n = 0;

	(void)state;
	for (w = 0; w < nworkloads; w++) {
		const struct workload *wl = workloads[w];

		if (!vocab_fixed_work(wl->name))
			continue;
		n++;
		assert_string_equal(wl->name, "chat");
		assert_true(wl->flags & WL_OWN_DURATION);
	}
	assert_int_equal(n, 1);
	assert_false(vocab_fixed_work("command"));
	assert_false(vocab_fixed_work("noop"));
}

/*
 * A parameter declared as added later has that value as its default in
 * every registered workload that has it (the runs before it existed ran
 * as its default runs now), and some workload has it.
 */
static void test_added_params_registry(void **state)
{
	static const char *const added[] = { "timeline", "latency_every",
					     "futex_hash_slots" };
	size_t i, w;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(added); i++) {
		const char *v = vocab_added_param(added[i]);
		size_t n = 0;

		assert_non_null(v);
		for (w = 0; w < nworkloads; w++) {
			int k = workload_param_index(workloads[w], added[i]);

			if (k < 0)
				continue;
			n++;
			assert_string_equal(workloads[w]->params[k].def, v);
		}
		if (!n)
			fail_msg("%s: declared as added, no workload has it",
				 added[i]);
	}
	assert_null(vocab_added_param("threads"));
	assert_null(vocab_added_param("contended_delay_ns"));
}

/*
 * The metrics the in-process workloads report (defaults, 100 jobs per
 * worker) are all in the metric table, with a unit: a new metric, or a
 * renamed one, fails here until the dictionary declares it.
 */
static void test_workload_metrics_declared(void **state)
{
	static const char *const names[] = { "noop", "futex-mutex",
					     "pthread-mutex", "spinlock",
					     "rwlock" };
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const struct workload *wl = workload_find(names[i]);
		struct wl_args a;
		struct result r;
		char err[256] = "";

		assert_non_null(wl);
		if (args_from_kv(wl, 0, NULL, &a, err, sizeof(err)))
			fail_msg("%s defaults: %s", names[i], err);
		a.jobs = 100;
		a.loops_per_us = 100; /* no calibration: nothing is timed */
		result_init(&r);
		if (wl->run(&a, &r))
			fail_msg("%s failed: %s", names[i], r.error);
		assert_true(r.nmetrics > 0);
		for (k = 0; k < r.nmetrics; k++)
			if (!*metric_unit(r.metrics[k].name))
				fail_msg("%s reports %s, not in db/vocab.c",
					 names[i], r.metrics[k].name);
		result_release(&r);
		args_release(&a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_direction),
		cmocka_unit_test(test_load_params_registry),
		cmocka_unit_test(test_worker_params_registry),
		cmocka_unit_test(test_fixed_work_registry),
		cmocka_unit_test(test_added_params_registry),
		cmocka_unit_test(test_workload_metrics_declared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
