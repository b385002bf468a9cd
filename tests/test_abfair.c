/*
 * test_abfair.c - fairness and latency judged A/B (analysis/abfair.h):
 * the per-run share and starvation rule worked out by hand, the direction
 * of each measure, and fairness-traded through compare_sides on two
 * experiments built in memory: raised for a faster candidate whose
 * threads starve, not for one that is faster and as fair.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/abfair.h"
#include "analysis/compare.h"
#include "tests/analysis_fixture.h"

static void test_per_run(void **state)
{
	static const uint64_t starved[2] = { 100, 40 }; /* 50 > 40 */
	static const uint64_t edge[2] = { 100, 50 };    /* 50 > 50: no */
	static const uint64_t three[3] = { 60, 30, 30 };
	struct fixture fx;

	(void)state;
	fx_init(&fx, "abfair");
	fx_config(&fx, "s", "futex-mutex", "threads=2");
	fx_run(&fx, false, RUN_OK, "throughput=1", starved, 2);
	fx_run(&fx, false, RUN_OK, "throughput=1", edge, 2);
	fx_run(&fx, false, RUN_OK, "throughput=1", three, 3);
	fx_run(&fx, false, RUN_OK, "throughput=1", NULL, 0);
	fx_finish(&fx);
	assert_float_equal(abfair_starved(&fx.d, 0), 1, 0);
	assert_float_equal(abfair_starved(&fx.d, 1), 0, 0);
	assert_float_equal(abfair_starved(&fx.d, 2), 0, 0); /* 30 > 30: no */
	assert_true(isnan(abfair_starved(&fx.d, 3)));
	assert_float_equal(abfair_max_share(&fx.d, 0), 100.0 / 140.0, 1e-12);
	assert_float_equal(abfair_max_share(&fx.d, 2), 0.5, 1e-12);
	assert_true(isnan(abfair_max_share(&fx.d, 3)));
	fx_free(&fx);
}

/* A rise of max_share is worse, a rise of Jain's index better. */
static void test_direction(void **state)
{
	static const double lo[6] = { 0.50, 0.51, 0.49, 0.50, 0.52, 0.48 };
	static const double hi[6] = { 0.80, 0.81, 0.79, 0.80, 0.82, 0.78 };
	size_t n6[1] = { 6 };
	struct compare_groups b = { lo, n6, 1 }, c = { hi, n6, 1 };
	struct compare_opts o;
	struct abfair_one m;
	struct abfair f;

	(void)state;
	compare_opts_default(&o);
	abfair_judge(&b, &c, &o, DIR_LOWER, &m);
	assert_true(m.have);
	assert_true(m.worse);
	assert_false(m.better);
	/* 0.8 / 0.5: +60% */
	assert_float_equal(m.change_pct, 60, 0.5);
	abfair_judge(&b, &c, &o, DIR_HIGHER, &m);
	assert_true(m.better);
	assert_false(m.worse);
	/* the rule: improved, worse, starved in at least half the runs */
	memset(&f, 0, sizeof(f));
	f.m[ABFAIR_JAIN].have = f.m[ABFAIR_JAIN].worse = true;
	f.starved_cand = 0.5;
	assert_true(abfair_traded(&f, true));
	assert_false(abfair_traded(&f, false));
	f.starved_cand = 0.4;
	assert_false(abfair_traded(&f, true));
	f.starved_cand = 1;
	f.m[ABFAIR_JAIN].worse = false;
	assert_false(abfair_traded(&f, true));
}

/* Ten runs of 2 threads: throughput thr + i, per-thread ops a and b. */
static void side(struct fixture *fx, int64_t id, double thr, uint64_t a,
		 uint64_t b, double p99)
{
	size_t i;

	fx_init(fx, "abfair");
	fx->d.exp.id = id;
	fx_config(fx, "s", "futex-mutex", "threads=2");
	for (i = 0; i < 10; i++) {
		uint64_t ops[2] = { a + i, b + (i % 3) };
		char m[96];

		snprintf(m, sizeof(m), "throughput=%g acquire_p99_ns=%g",
			 thr + (double)(i % 5), p99 + (double)(i % 4));
		fx_run(fx, false, RUN_OK, m, ops, 2);
	}
	fx_finish(fx);
}

static void compare(struct fixture *b, struct fixture *c,
		    struct compare_result *r)
{
	struct analysis ab, ac;
	struct analysis_opts ao;
	struct compare_side sb, sc;
	struct compare_opts o;

	analysis_opts_default(&ao);
	assert_int_equal(analysis_run(&b->d, &ao, &ab), 0);
	assert_int_equal(analysis_run(&c->d, &ao, &ac), 0);
	memset(&sb, 0, sizeof(sb));
	memset(&sc, 0, sizeof(sc));
	sb.name = "base";
	sb.nsets = 1;
	sb.sets = &b->d;
	sb.an = &ab;
	sc.name = "cand";
	sc.nsets = 1;
	sc.sets = &c->d;
	sc.an = &ac;
	compare_opts_default(&o);
	assert_int_equal(compare_sides(&sb, &sc, "throughput", &o, r), 0);
	analysis_release(&ab);
	analysis_release(&ac);
}

static const struct compare_flag *flag(const struct compare_result *r,
				       const char *name)
{
	size_t i;

	for (i = 0; i < r->cmp[0].nflags; i++)
		if (!strcmp(r->cmp[0].flags[i].name, name))
			return &r->cmp[0].flags[i];
	return NULL;
}

static void test_traded(void **state)
{
	struct fixture b, c, c2;
	struct compare_result r;
	const struct compare_flag *f;
	const struct abfair *fa;

	(void)state;
	/* fair baseline (1000 vs 1000), candidate 30% faster but one thread
	 * does 3 times the other's work (starved), p99 latency up 10x */
	side(&b, 1, 100, 1000, 1000, 1000);
	side(&c, 2, 130, 3000, 1000, 10000);
	compare(&b, &c, &r);
	assert_int_equal(r.n, 1);
	fa = &r.cmp[0].fair;
	assert_true(fa->m[ABFAIR_JAIN].have && fa->m[ABFAIR_JAIN].worse);
	assert_true(fa->m[ABFAIR_MAX_SHARE].worse);
	assert_true(fa->m[ABFAIR_P99].have && fa->m[ABFAIR_P99].worse);
	assert_float_equal(fa->starved_base, 0, 0);
	assert_float_equal(fa->starved_cand, 1, 0);
	f = flag(&r, "fairness-traded");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "starved runs (max/2 > min) 0% -> "
				"100%"));
	compare_result_release(&r);
	/* faster and as fair: no flag, the intervals still computed */
	side(&c2, 3, 130, 1000, 1000, 1000);
	compare(&b, &c2, &r);
	assert_null(flag(&r, "fairness-traded"));
	assert_true(r.cmp[0].fair.m[ABFAIR_JAIN].have);
	assert_false(r.cmp[0].fair.m[ABFAIR_JAIN].worse);
	compare_result_release(&r);
	fx_free(&b);
	fx_free(&c);
	fx_free(&c2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_run),
		cmocka_unit_test(test_direction),
		cmocka_unit_test(test_traded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
