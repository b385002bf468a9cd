/*
 * test_probe.c - the lock workloads' instruments without threads or
 * timing: the sampled latency's quantiles on known samples, the timeline's
 * rows turned into per-interval counts (idle rows before and after
 * trimmed), its halving when full, the interval `timeline = auto` picks,
 * and the probed loop of a real run
 * leaving a timeline whose counts add up to the run's operations.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runner/workload.h"
#include "runner/workloads/locks.h"
#include "runner/workloads/probe.h"
#include "runner/workloads/workloads.h"
#include "tests/wlargs.h"

/*
 * 1..100 ns in two workers.  GSL's quantile interpolates between order
 * statistics at (n - 1) p: p50 = x[49.5] = 50.5, p99 = x[98.01] = 99.01.
 */
static void test_latency_quantiles(void **state)
{
	struct probe *p = probe_alloc(2, 1);
	struct result r;

	(void)state;
	result_init(&r);
	for (uint64_t v = 1; v <= 100; v++)
		probe_record(&p[v % 2], v);
	probe_report(p, 2, &r);
	assert_float_equal(result_value(&r, "acquire_p50_ns"), 50.5, 1e-9);
	assert_float_equal(result_value(&r, "acquire_p99_ns"), 99.01, 1e-9);
	assert_float_equal(result_value(&r, "acquire_max_ns"), 100, 0);
	assert_float_equal(result_value(&r, "acquire_samples"), 100, 0);
	result_release(&r);
	probe_free(p, 2);
}

/* Every `every`-th call of probe_begin returns a clock reading. */
static void test_one_in_every(void **state)
{
	struct probe *p = probe_alloc(1, 4), *none = probe_alloc(1, 0);
	uint64_t left = probe_every(p), never = probe_every(none);
	int timed = 0;

	(void)state;
	for (int i = 0; i < 40; i++) {
		timed += probe_begin(p, &left) != 0;
		assert_int_equal(probe_begin(none, &never), 0);
	}
	assert_int_equal(timed, 10);
	assert_null(none[0].lat);
	probe_free(p, 1);
	probe_free(none, 1);
}

/* Rows of cumulative counts as the sampler would have read them. */
static void fill(struct timeline *t, size_t n, size_t rows, const uint64_t *cum)
{
	memset(t, 0, sizeof(*t));
	t->n = n;
	t->interval = 0.01;
	t->rows = rows;
	t->cap = rows;
	t->cum = calloc(rows * n, sizeof(*t->cum));
	assert_non_null(t->cum);
	memcpy(t->cum, cum, rows * n * sizeof(*cum));
}

static void test_timeline_rows(void **state)
{
	/* two idle rows before the gate, two unchanged after the end */
	static const uint64_t cum[] = { 0, 0, 0, 0, 4, 0, 9, 3, 9, 8,
					9, 8, 9, 8 };
	static const uint64_t want[] = { 4, 5, 0, 0, 3, 5 };
	struct timeline t;
	struct result r;

	(void)state;
	fill(&t, 2, 7, cum);
	result_init(&r);
	timeline_report(&t, &r);
	assert_null(t.cum);
	assert_int_equal(r.tick_threads, 2);
	assert_int_equal(r.nticks, 3);
	assert_memory_equal(r.timeline, want, sizeof(want));
	result_release(&r);
}

/* Full, the rows halve: each kept row ends a merged pair. */
static void test_timeline_halving(void **state)
{
	static const uint64_t cum[] = { 1, 3, 6, 10, 15, 21 };
	static const uint64_t want[] = { 3, 7, 11 };
	struct timeline t;
	struct result r;

	(void)state;
	fill(&t, 1, 6, cum);
	timeline_halve(&t);
	assert_int_equal(t.rows, 3);
	assert_float_equal(t.interval, 0.02, 1e-12);
	result_init(&r);
	timeline_report(&t, &r);
	assert_float_equal(r.tick_s, 0.02, 1e-12);
	assert_memory_equal(r.timeline, want, sizeof(want));
	result_release(&r);
}

/* Through the probed loop of a real workload: the counts add up. */
static void test_probed_run(void **state)
{
	struct wl_args a;
	struct result r;
	uint64_t sum = 0, ops = 0;

	(void)state;
	targs_init(&a, &futex_mutex_workload, 200000);
	targs_set(&a, "threads", "2");
	targs_set(&a, "timeline", "1ms");
	targs_set(&a, "latency_every", "64");
	result_init(&r);
	assert_int_equal(a.wl->run(&a, &r), 0);
	for (size_t i = 0; i < r.nthreads; i++)
		ops += r.thread_ops[i];
	for (size_t i = 0; i < r.tick_threads * r.nticks; i++)
		sum += r.timeline[i];
	/* The sampler may miss the last operations after its final row. */
	assert_true(sum <= ops);
	assert_true(r.nticks == 0 || r.tick_threads == 2);
	assert_true(result_value(&r, "acquire_samples") > 0);
	assert_true(result_value(&r, "acquire_max_ns") >=
		    result_value(&r, "acquire_p50_ns"));
	result_release(&r);
	targs_release(&a);
}

/*
 * timeline = auto: 1 ms, doubled until 1.25 x the runtime fits the cell
 * budget.  2 workers keep 16384 rows (16.4 s at 1 ms): a 1 s run stays at
 * 1 ms.  64 keep 512: 1.25 s needs 4 ms (512 x 4 ms = 2.048 s; 2 ms gives
 * 1.024 s).  4096 keep 8: 12.5 s needs 2.048 s intervals.  Fixed work
 * (runtime 0) starts at 1 ms.  The cap stops doubling at the parameter's
 * 10 s maximum (8.192 s).
 */
static void test_auto_interval(void **state)
{
	struct wl_args a;
	struct lock_cfg c;

	(void)state;
	assert_float_equal(timeline_auto_interval(1, 2), 0.001, 1e-12);
	assert_float_equal(timeline_auto_interval(1, 64), 0.004, 1e-12);
	assert_float_equal(timeline_auto_interval(10, 4096), 2.048, 1e-12);
	assert_float_equal(timeline_auto_interval(0, 64), 0.001, 1e-12);
	assert_float_equal(timeline_auto_interval(1e6, 4096), 8.192, 1e-12);
	/* the parameter: the word parses, and the workload resolves it */
	targs_init(&a, &futex_mutex_workload, 0);
	targs_set(&a, "timeline", "auto");
	targs_set(&a, "threads", "64");
	a.runtime_s = 1;
	locks_cfg_init(&c, &a);
	assert_float_equal(c.timeline_s, 0.004, 1e-12);
	assert_true(locks_probed(&c));
	targs_set(&a, "timeline", "0");
	locks_cfg_init(&c, &a);
	assert_false(locks_probed(&c));
	targs_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency_quantiles),
		cmocka_unit_test(test_one_in_every),
		cmocka_unit_test(test_timeline_rows),
		cmocka_unit_test(test_timeline_halving),
		cmocka_unit_test(test_probed_run),
		cmocka_unit_test(test_auto_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
