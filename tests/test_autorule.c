/*
 * test_autorule.c - what the session keeps for `repetitions = auto`
 * (runner/autorule.c): each auto configuration's primary value by
 * measured repetition, from the runs as they end and, on resume, from
 * the stored runs; warm-ups, failed runs and fixed configurations leave
 * nothing.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runner/autorule.h"
#include "runner/config.h"
#include "dataset_fixture.h"

static const char ini[] =
	"[experiment]\nname = autorule\nrepetitions = auto\nwarmup = 1\n"
	"runtime = 10ms\n"
	"[workload a]\ntype = noop\n"
	"[workload b]\ntype = noop\nrepetitions = 3\n";

static void load(struct experiment_config *c)
{
	assert_int_equal(config_load_buffer("autorule.ini", ini,
					    strlen(ini), c), 0);
	assert_int_equal(c->nentries, 2);
}

static void note(struct autorule *a, const struct experiment_config *c,
		 size_t config, int rep, bool warmup, enum run_status st,
		 double v)
{
	struct pending_run p = { .repetition = rep, .warmup = warmup };
	struct result res;

	result_init(&res);
	result_add(&res, "throughput", v);
	autorule_note(a, c, config, &p, st, &res);
	result_release(&res);
}

/* The values kept for config, NAN for none, must be want[0..n-1]. */
static void assert_values(const struct autorule *a, size_t config,
			  const double *want, size_t n)
{
	const struct auto_values *av = &a->values[config];
	size_t i;

	assert_true(av->n >= n);
	for (i = 0; i < av->n; i++) {
		double w = i < n ? want[i] : NAN;

		if (isnan(w))
			assert_true(isnan(av->x[i]));
		else /* the very value: it is what the store holds */
			assert_memory_equal(&av->x[i], &w, sizeof(w));
	}
}

static void test_note(void **state)
{
	static const double want[] = { 4, 5, NAN, 7 };
	struct experiment_config c;
	struct autorule a;

	(void)state;
	load(&c);
	autorule_init(&a, &c);
	assert_true(a.any);
	note(&a, &c, 0, 1, false, RUN_OK, 5);    /* out of order */
	note(&a, &c, 0, 0, true, RUN_OK, 99);    /* warm-up */
	note(&a, &c, 0, 0, false, RUN_OK, 4);
	note(&a, &c, 0, 2, false, RUN_CRASHED, 6);
	note(&a, &c, 0, 3, false, RUN_OK, 7);
	note(&a, &c, 1, 0, false, RUN_OK, 8);    /* fixed */
	assert_values(&a, 0, want, ARRAY_SIZE(want));
	assert_int_equal(a.values[1].n, 0);
	autorule_release(&a);
	config_release(&c);
}

static void test_restore(void **state)
{
	static const double want[] = { 4, NAN, 6 };
	struct experiment_config c;
	struct autorule a;
	struct fixture fx;

	(void)state;
	load(&c);
	fx_init(&fx, "autorule");
	fx_config(&fx, "a", "noop", c.entries[0].canon);
	fx_run(&fx, true, RUN_OK, "throughput=99", NULL, 0);
	fx_run(&fx, false, RUN_OK, "throughput=4", NULL, 0);
	fx_run(&fx, false, RUN_TIMEOUT, NULL, NULL, 0);
	fx_run(&fx, false, RUN_OK, "throughput=6", NULL, 0);
	fx_run(&fx, false, RUN_PLANNED, NULL, NULL, 0);
	fx_config(&fx, "b", "noop", c.entries[1].canon);
	fx_run(&fx, false, RUN_OK, "throughput=8", NULL, 0);
	fx_finish(&fx);
	/* fx_run numbers repetitions with the warm-up: 1, 2, 3 here */
	for (size_t i = 1; i < 5; i++)
		fx.d.runs[i].repetition = (int)i - 1;
	autorule_restore(&a, &c, &fx.d);
	assert_true(a.any);
	assert_values(&a, 0, want, ARRAY_SIZE(want));
	assert_int_equal(a.values[1].n, 0);
	/* The session goes on where the store left off. */
	note(&a, &c, 0, 3, false, RUN_OK, 7);
	assert_values(&a, 0, (const double[]){ 4, NAN, 6, 7 }, 4);
	autorule_release(&a);
	fx_free(&fx);
	config_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_note),
		cmocka_unit_test(test_restore),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
