/*
 * test_kwait_top.c - a configuration's kernel locks over its runs
 * (analysis_kwait_top, analysis/kwarn.c) and the kernel wait share of
 * a run (analysis_kwait_share), on datasets built in memory, the means and
 * intervals worked out by hand (t(0.975, 2) = 4.302653).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "tests/dataset_fixture.h"

static void klock_row(struct ds_config *cf, size_t run, const char *kind,
		      const char *caller, const char *lock, double n, double w)
{
	struct ds_klock *k;

	cf->klock = xrealloc(cf->klock, (cf->nklock + 1) * sizeof(*cf->klock));
	k = &cf->klock[cf->nklock++];
	k->run = run;
	k->kind = xstrdup(kind);
	k->caller = xstrdup(caller);
	k->lock = lock ? xstrdup(lock) : NULL;
	k->nlocks = lock ? 1 : 2;
	k->contentions = n;
	k->wait_s = w;
}

/*
 * Three measured runs (a warm-up and a failed run besides, left out):
 * rwsem_write/do_unlinkat waits 0.3, 0.1 and (absent) 0 s: mean 0.13333,
 * sd 0.152753, half-width 4.302653 * 0.152753 / sqrt(3) = 0.379458;
 * spin/try_to_wake_up 0.001 in each run: mean 0.001, interval of width 0.
 */
static void test_top(void **state)
{
	struct fixture fx;
	struct analysis a;
	struct kwait_top *t;
	struct ds_config *cf;
	size_t r[5], n;

	(void)state;
	fx_init(&fx, "klock-top");
	fx_config(&fx, "creat", "creat", "processes=4 runtime=1");
	r[0] = fx_run(&fx, true, RUN_OK, "throughput=1 klock_wait_s=9", NULL, 0);
	r[1] = fx_run(&fx, false, RUN_OK, "throughput=1 klock_wait_s=0.4", NULL, 0);
	r[2] = fx_run(&fx, false, RUN_OK, "throughput=1 klock_wait_s=0.2", NULL, 0);
	r[3] = fx_run(&fx, false, RUN_OK, "throughput=1 klock_wait_s=0.1", NULL, 0);
	r[4] = fx_run(&fx, false, RUN_FAILED, NULL, NULL, 0);
	fx_config(&fx, "plain", "noop", "threads=1 runtime=1");
	fx_run(&fx, false, RUN_OK, "throughput=2", NULL, 0);
	fx_finish(&fx);
	cf = &fx.d.configs[0];
	klock_row(cf, r[0], "rwsem_write", "do_unlinkat", "0xffff1", 50, 9);
	klock_row(cf, r[1], "rwsem_write", "do_unlinkat", "0xffff1", 6, 0.3);
	klock_row(cf, r[1], "spin", "try_to_wake_up", NULL, 3, 0.001);
	klock_row(cf, r[2], "spin", "try_to_wake_up", NULL, 5, 0.001);
	klock_row(cf, r[2], "rwsem_write", "do_unlinkat", "0xffff1", 2, 0.1);
	klock_row(cf, r[3], "spin", "try_to_wake_up", NULL, 1, 0.001);
	klock_row(cf, r[4], "mutex", "only_in_a_failed_run", NULL, 1, 5);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);

	n = analysis_kwait_top(&a, 0, 10, &t);
	assert_int_equal(n, 2);
	assert_string_equal(t[0].kind, "rwsem_write");
	assert_string_equal(t[0].caller, "do_unlinkat");
	assert_string_equal(t[0].lock, "0xffff1");
	assert_int_equal(t[0].nruns, 3);
	assert_float_equal(t[0].wait_s, 0.4 / 3, 1e-12);
	/* the t half-width 4.3027 * sd 0.152753 / sqrt(3) = 0.379458 on
	 * the log scale: 0.4 / 3 exp(-+0.379458 / (0.4 / 3)), above 0 */
	assert_float_equal(t[0].wait_lo, 0.0077440, 1e-6);
	assert_float_equal(t[0].wait_hi, 2.295687, 1e-5);
	assert_float_equal(t[0].contentions, 8.0 / 3, 1e-12);
	assert_string_equal(t[1].kind, "spin");
	assert_null(t[1].lock);
	assert_float_equal(t[1].wait_s, 0.001, 1e-12);
	assert_float_equal(t[1].wait_lo, 0.001, 1e-12);
	assert_float_equal(t[1].contentions, 3, 1e-12);
	free(t);
	/* max cuts; a configuration without rows has none */
	assert_int_equal(analysis_kwait_top(&a, 0, 1, &t), 1);
	assert_string_equal(t[0].caller, "do_unlinkat");
	free(t);
	assert_int_equal(analysis_kwait_top(&a, 1, 10, &t), 0);
	free(t);
	/* compare's per-run waits: the measured runs the program timed, in
	 * order, 0 where the lock has no row; the warm-up's and the failed
	 * run's rows left out */
	{
		double *w;

		assert_int_equal(analysis_klock_waits(&fx.d, 0, "rwsem_write",
						      "do_unlinkat", &w), 3);
		assert_float_equal(w[0], 0.3, 1e-12);
		assert_float_equal(w[1], 0.1, 1e-12);
		assert_float_equal(w[2], 0, 0);
		free(w);
		assert_int_equal(analysis_klock_waits(&fx.d, 0, "mutex",
						      "only_in_a_failed_run",
						      &w), 3);
		assert_float_equal(w[0] + w[1] + w[2], 0, 0);
		free(w);
		assert_int_equal(analysis_klock_waits(&fx.d, 1, "spin",
						      "try_to_wake_up", &w), 0);
		free(w);
	}
	analysis_release(&a);
	fx_free(&fx);
}

/*
 * Share: 0.6 s of wait over 3 threads and elapsed 0.5 s is 0.4; without
 * elapsed_s the runner's wall_s (the fixture's 1 s) and one task: 0.3;
 * without klock_wait_s none.
 */
static void test_share(void **state)
{
	static const uint64_t ops[3] = { 1, 1, 1 };
	struct fixture fx;
	size_t r0, r1, r2;

	(void)state;
	fx_init(&fx, "share");
	fx_config(&fx, "x", "noop", "threads=3 runtime=1");
	r0 = fx_run(&fx, false, RUN_OK, "klock_wait_s=0.6 elapsed_s=0.5", ops, 3);
	r1 = fx_run(&fx, false, RUN_OK, "klock_wait_s=0.3 wall_s=1", NULL, 0);
	r2 = fx_run(&fx, false, RUN_OK, "elapsed_s=1", ops, 3);
	fx_finish(&fx);
	assert_float_equal(analysis_kwait_share(&fx.d, r0), 0.4, 1e-12);
	assert_float_equal(analysis_kwait_share(&fx.d, r1), 0.3, 1e-12);
	assert_true(isnan(analysis_kwait_share(&fx.d, r2)));
	fx_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_top),
		cmocka_unit_test(test_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
