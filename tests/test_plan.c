/*
 * test_plan.c - run orders: structure of each order, reproducibility from
 * the seed, uniformity of positions over many seeds (chi-square with a
 * fixed master seed, so the verdict is deterministic), growth by rounds,
 * and the auto stopping rule on injected sample sequences.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

#include "runner/plan.h"
#include "lib/util.h"

static const char *const plan_stop_names[] = {
	[PLAN_CONTINUE] = "continue",
	[PLAN_PRECISION] = "precision reached",
	[PLAN_CAP] = "cap reached",
};

static void fill_spec(struct plan_spec *spec, size_t n, int warmup, int reps)
{
	for (size_t i = 0; i < n; i++)
		spec[i] = (struct plan_spec){ warmup, reps };
}

/* Every run's seq is its index, and each (config, kind, repetition) once. */
static void assert_well_formed(const struct plan *p,
			       const struct plan_spec *spec)
{
	size_t c, i, total = 0;

	for (c = 0; c < p->nconfigs; c++)
		total += (size_t)(spec[c].warmup + spec[c].repetitions);
	assert_int_equal(p->nruns, total);
	for (c = 0; c < p->nconfigs; c++) {
		int nw = 0, nm = 0;

		for (i = 0; i < p->nruns; i++) {
			const struct plan_run *r = &p->runs[i];

			assert_int_equal(r->seq, (long)i);
			if (r->config != c)
				continue;
			/* Repetitions count up in plan order. */
			if (r->warmup) {
				assert_int_equal(r->repetition, nw++);
				assert_int_equal(nm, 0); /* warm-ups first */
			} else {
				assert_int_equal(r->repetition, nm++);
			}
		}
		assert_int_equal(nw, spec[c].warmup);
		assert_int_equal(nm, spec[c].repetitions);
		assert_int_equal(p->measured[c], spec[c].repetitions);
	}
}

static void test_blocked_rounds(void **state)
{
	enum { K = 5, W = 2, R = 4 };
	struct plan_spec spec[K];
	struct plan p;
	size_t round, i;

	(void)state;
	fill_spec(spec, K, W, R);
	assert_int_equal(plan_build(&p, ORDER_BLOCKED, 42, K, spec), 0);
	assert_well_formed(&p, spec);
	for (round = 0; round < W + R; round++) {
		int seen[K] = { 0 };

		for (i = 0; i < K; i++) {
			const struct plan_run *r = &p.runs[round * K + i];

			seen[r->config]++;
			assert_true(r->warmup == (round < W));
			assert_int_equal(r->repetition,
					 (int)(round < W ? round : round - W));
		}
		for (i = 0; i < K; i++)
			assert_int_equal(seen[i], 1);
	}
	plan_release(&p);
}

/* Configurations may override warmup and repetitions: rounds shrink. */
static void test_blocked_uneven(void **state)
{
	const struct plan_spec spec[3] = { { 0, 1 }, { 2, 3 }, { 1, 2 } };
	/* Warm-up rounds {1,2} {1}; measured rounds {0,1,2} {1,2} {1}. */
	const size_t round_len[] = { 2, 1, 3, 2, 1 };
	const bool round_has[][3] = {
		{ false, true, true }, { false, true, false },
		{ true, true, true }, { false, true, true },
		{ false, true, false },
	};
	struct plan p;
	size_t r, i, at = 0;

	(void)state;
	assert_int_equal(plan_build(&p, ORDER_BLOCKED, 7, 3, spec), 0);
	assert_well_formed(&p, spec);
	for (r = 0; r < 5; r++) {
		bool seen[3] = { false, false, false };

		for (i = 0; i < round_len[r]; i++, at++) {
			assert_false(seen[p.runs[at].config]);
			seen[p.runs[at].config] = true;
			assert_true(p.runs[at].warmup == (r < 2));
		}
		assert_memory_equal(seen, round_has[r], sizeof(seen));
	}
	plan_release(&p);
}

static void test_random_warmups_first(void **state)
{
	enum { K = 4 };
	struct plan_spec spec[K] = { { 2, 5 }, { 1, 1 }, { 0, 3 }, { 3, 2 } };
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 50; seed++) {
		struct plan p;

		assert_int_equal(plan_build(&p, ORDER_RANDOM, seed, K, spec), 0);
		assert_well_formed(&p, spec);
		plan_release(&p);
	}
}

static void test_sequential(void **state)
{
	const struct plan_spec spec[2] = { { 1, 2 }, { 0, 2 } };
	const struct plan_run want[] = {
		{ 0, 0, true, 0 },  { 0, 0, false, 1 }, { 0, 1, false, 2 },
		{ 1, 0, false, 3 }, { 1, 1, false, 4 },
	};
	struct plan p;
	size_t i;

	(void)state;
	assert_int_equal(plan_build(&p, ORDER_SEQUENTIAL, 99, 2, spec), 0);
	assert_int_equal(p.nruns, ARRAY_SIZE(want));
	for (i = 0; i < p.nruns; i++) {
		assert_int_equal(p.runs[i].config, want[i].config);
		assert_int_equal(p.runs[i].repetition, want[i].repetition);
		assert_int_equal(p.runs[i].warmup, want[i].warmup);
		assert_int_equal(p.runs[i].seq, want[i].seq);
	}
	plan_release(&p);
}

/* Field by field: struct padding is not part of the order. */
static bool same_order(const struct plan *a, const struct plan *b)
{
	size_t i;

	if (a->nruns != b->nruns)
		return false;
	for (i = 0; i < a->nruns; i++) {
		const struct plan_run *x = &a->runs[i], *y = &b->runs[i];

		if (x->config != y->config || x->repetition != y->repetition ||
		    x->warmup != y->warmup || x->seq != y->seq)
			return false;
	}
	return true;
}

/* Same config + seed gives the same order; another seed another order. */
static void test_seed_reproduces(void **state)
{
	static const enum run_order orders[] = { ORDER_BLOCKED, ORDER_RANDOM };
	enum { K = 8 };
	struct plan_spec spec[K];
	size_t o;

	(void)state;
	fill_spec(spec, K, 1, 4);
	for (o = 0; o < ARRAY_SIZE(orders); o++) {
		struct plan a, b, c;

		assert_int_equal(plan_build(&a, orders[o], 0xdeadbeefcafeULL, K,
					    spec), 0);
		assert_int_equal(plan_build(&b, orders[o], 0xdeadbeefcafeULL, K,
					    spec), 0);
		/* Differs from the first seed only above bit 32. */
		assert_int_equal(plan_build(&c, orders[o],
					    0xdeadbeefcafeULL ^ (1ULL << 40), K,
					    spec), 0);
		assert_true(same_order(&a, &b));
		/* 5 rounds of 8! orders each: equal by chance ~ 1e-23. */
		assert_false(same_order(&a, &c));
		plan_release(&a);
		plan_release(&b);
		plan_release(&c);
	}
}

/*
 * The seed mapping against a published value: SplitMix64 from state 0
 * first returns 0xE220A8397B1DCDAF (Vigna's splitmix64.c; also the first
 * output of java.util.SplittableRandom(0)), and stream 0 of seed 0 is that
 * state + golden gamma, so its seed32 is 0xE220A839.  The others were
 * computed with the formula of plan.h in Python's arbitrary-precision ints.
 */
static void test_seed32_reference(void **state)
{
	static const struct {
		uint64_t seed, stream;
		uint32_t want;
	} cases[] = {
		{ 0, 0, 0xE220A839u },
		{ 42, 0, 3184996902u },
		{ 42, 7, 3438687726u },
		{ UINT64_MAX, 123456789, 3437399019u },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(plan_seed32(cases[i].seed, cases[i].stream),
				 cases[i].want);
}

/* Seeds for the uniformity tests, from a fixed master generator. */
static uint64_t next_seed(gsl_rng *master)
{
	return (uint64_t)gsl_rng_get(master) << 32 | gsl_rng_get(master);
}

/* Pearson's X^2 of observed counts against a common expected count. */
static double chisq(const long *obs, size_t n, double expected)
{
	double x2 = 0;

	for (size_t i = 0; i < n; i++)
		x2 += (obs[i] - expected) * (obs[i] - expected) / expected;
	return x2;
}

/*
 * Blocked order, K configurations, N seeds.  (a) The position of each
 * configuration in round 0: a K x K table whose rows and columns all sum
 * to N, so (K-1)^2 degrees of freedom.  (b) Config 0's position in round
 * 0 against its position in round 1: K^2 cells, uniform if the rounds are
 * shuffled independently, K^2 - 1 degrees of freedom.  The master seed is
 * fixed, so the verdict is the same on every run; p > 0.001 is the bar.
 */
static void test_blocked_uniform(void **state)
{
	enum { K = 5, N = 5000 };
	long pos[K * K] = { 0 }, joint[K * K] = { 0 };
	struct plan_spec spec[K];
	gsl_rng *master = gsl_rng_alloc(gsl_rng_mt19937);
	double p_pos, p_joint;
	int t;

	(void)state;
	gsl_rng_set(master, 20240501);
	fill_spec(spec, K, 0, 2);
	for (t = 0; t < N; t++) {
		struct plan p;
		size_t i, first = 0, second = 0;

		assert_int_equal(plan_build(&p, ORDER_BLOCKED, next_seed(master),
					    K, spec), 0);
		for (i = 0; i < K; i++) {
			pos[p.runs[i].config * K + i]++;
			if (p.runs[i].config == 0)
				first = i;
			if (p.runs[K + i].config == 0)
				second = i;
		}
		joint[first * K + second]++;
		plan_release(&p);
	}
	p_pos = gsl_cdf_chisq_Q(chisq(pos, K * K, (double)N / K),
				(K - 1) * (K - 1));
	p_joint = gsl_cdf_chisq_Q(chisq(joint, K * K, (double)N / (K * K)),
				  K * K - 1);
	print_message("blocked: position p = %.3f, round independence p = %.3f\n",
		      p_pos, p_joint);
	assert_true(p_pos > 0.001);
	assert_true(p_joint > 0.001);
	gsl_rng_free(master);
}

/*
 * Random order: which configuration sits at each of the P positions.  Each
 * configuration has the same number of runs, so every cell of the P x K
 * table expects N / K; rows sum to N and columns to N * P / K, giving
 * (P-1)(K-1) degrees of freedom.  The same statistic on the sequential
 * order shows the test has power: it must reject that one.
 */
static double random_positions_p(enum run_order order)
{
	enum { K = 3, PER = 4, P = K * PER, N = 3000 };
	long cell[P * K] = { 0 };
	struct plan_spec spec[K];
	gsl_rng *master = gsl_rng_alloc(gsl_rng_mt19937);
	int t;

	gsl_rng_set(master, 777);
	fill_spec(spec, K, 1, PER - 1);
	for (t = 0; t < N; t++) {
		struct plan p;
		size_t i;

		assert_int_equal(plan_build(&p, order, next_seed(master), K,
					    spec), 0);
		for (i = 0; i < P; i++)
			cell[i * K + p.runs[i].config]++;
		plan_release(&p);
	}
	gsl_rng_free(master);
	return gsl_cdf_chisq_Q(chisq(cell, P * K, (double)N / K),
			       (P - 1) * (K - 1));
}

static void test_random_uniform(void **state)
{
	double p_random = random_positions_p(ORDER_RANDOM);
	double p_seq = random_positions_p(ORDER_SEQUENTIAL);

	(void)state;
	print_message("random: p = %.3f; sequential: p = %.3g\n", p_random,
		      p_seq);
	assert_true(p_random > 0.001);
	assert_true(p_seq < 1e-6);
}

/*
 * Growing by rounds gives the order a bigger plan would have had: each
 * shuffle is seeded by its first seq, so 3 rounds + 2 added rounds equal 5
 * rounds built at once, also after a restore from the stored runs.
 */
static void test_grow_matches_build(void **state)
{
	enum { K = 6 };
	struct plan_spec spec3[K], spec5[K];
	bool all[K];
	struct plan small, big, restored;
	size_t i;

	(void)state;
	fill_spec(spec3, K, 1, 3);
	fill_spec(spec5, K, 1, 5);
	for (i = 0; i < K; i++)
		all[i] = true;
	assert_int_equal(plan_build(&big, ORDER_BLOCKED, 5, K, spec5), 0);
	assert_int_equal(plan_build(&small, ORDER_BLOCKED, 5, K, spec3), 0);
	assert_int_equal(plan_restore(&restored, ORDER_BLOCKED, 5, K,
				      small.runs, small.nruns), 0);
	assert_int_equal(plan_add_round(&small, all), K);
	assert_int_equal(plan_add_round(&small, all), K);
	assert_true(same_order(&small, &big));
	assert_int_equal(plan_add_round(&restored, all), K);
	assert_int_equal(plan_add_round(&restored, all), K);
	assert_true(same_order(&restored, &big));
	for (i = 0; i < K; i++)
		assert_int_equal(restored.measured[i], 5);
	plan_release(&big);
	plan_release(&small);
	plan_release(&restored);
}

static void test_grow_active_only(void **state)
{
	const struct plan_spec spec[4] = { { 0, 2 }, { 0, 2 }, { 0, 2 },
					   { 0, 2 } };
	const bool active[4] = { false, true, false, true };
	bool none[4] = { false, false, false, false };
	struct plan p;
	size_t i;

	(void)state;
	assert_int_equal(plan_build(&p, ORDER_BLOCKED, 11, 4, spec), 0);
	assert_int_equal(plan_add_round(&p, active), 2);
	assert_int_equal(p.nruns, 10);
	for (i = 8; i < 10; i++) {
		assert_true(active[p.runs[i].config]);
		assert_int_equal(p.runs[i].repetition, 2);
		assert_int_equal(p.runs[i].seq, (long)i);
		assert_false(p.runs[i].warmup);
	}
	assert_int_not_equal(p.runs[8].config, p.runs[9].config);
	assert_int_equal(plan_add_round(&p, none), 0);
	assert_int_equal(p.nruns, 10);
	plan_release(&p);
}

static void test_restore_rejects_gaps(void **state)
{
	const struct plan_run runs[] = { { 0, 0, false, 0 }, { 0, 1, false, 2 } };
	const struct plan_run dup[] = { { 0, 0, false, 0 }, { 0, 1, false, 0 } };
	struct plan p;

	(void)state;
	assert_int_equal(plan_restore(&p, ORDER_BLOCKED, 1, 1, runs, 2), -1);
	assert_int_equal(plan_restore(&p, ORDER_BLOCKED, 1, 1, dup, 2), -1);
}

static void test_limit(void **state)
{
	const struct plan_spec spec[2] = { { 0, CONFIG_MAX_RUNS }, { 1, 0 } };
	const struct plan_spec fits[1] = { { 0, CONFIG_MAX_RUNS } };
	bool on = true;
	struct plan p;

	(void)state;
	assert_int_equal(plan_build(&p, ORDER_BLOCKED, 1, 2, spec), -1);
	assert_int_equal(plan_build(&p, ORDER_SEQUENTIAL, 1, 1, fits), 0);
	assert_int_equal(plan_add_round(&p, &on), -1);
	assert_int_equal(p.nruns, CONFIG_MAX_RUNS);
	plan_release(&p);
}

/*
 * The auto stopping rule on an injected sequence, precision 0.02 at 95%.
 * By hand, with t quantiles from a printed Student-t table (t.975: df 2
 * 4.303, 3 3.182, 4 2.776, 5 2.571, 6 2.447, 7 2.365) and
 * 100 104 96 101 99 100 100 100:
 *   n  mean    sd     t*sd/sqrt(n)/mean
 *   3  100     4.000  0.0994
 *   4  100.25  3.304  0.0524
 *   5  100     2.915  0.0362
 *   6  100     2.608  0.0274
 *   7  100     2.380  0.0220
 *   8  100     2.204  0.0184  <= 0.02: stop for precision at n = 8
 */
static void test_auto_stops_when_rule_says(void **state)
{
	static const double x[] = { 100, 104, 96, 101, 99, 100, 100, 100 };
	static const double want_hw[] = { 0, 0, 0, 0.0994, 0.0524, 0.0362,
					  0.0274, 0.0220, 0.0184 };
	static const struct {
		const char *name;
		int max;
		size_t stop_n;
		enum plan_stop why;
	} cases[] = {
		{ "precision at 8", 100, 8, PLAN_PRECISION },
		{ "precision wins at the cap", 8, 8, PLAN_PRECISION },
		{ "cap at 7", 7, 7, PLAN_CAP },
		{ "cap at 5", 5, 5, PLAN_CAP },
	};
	size_t i, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct run_settings set = { .precision = 0.02,
					    .min_repetitions = 3,
					    .max_repetitions = cases[i].max };
		enum plan_stop why = PLAN_CONTINUE;
		double hw = NAN;

		/* Feed one more value per round, as the runner does. */
		for (n = 3; n <= ARRAY_SIZE(x); n++) {
			why = plan_auto_decide(x, n, (int)n, &set, 0.95, &hw);
			assert_true(fabs(hw - want_hw[n]) < 5e-4);
			if (why != PLAN_CONTINUE)
				break;
		}
		print_message("%s: stopped at %zu (%s)\n", cases[i].name, n,
			      plan_stop_names[why]);
		assert_int_equal(n, cases[i].stop_n);
		assert_int_equal(why, cases[i].why);
	}
}

static void test_auto_edge_cases(void **state)
{
	static const double flat[] = { 5, 5, 5, 5, 5 };
	static const double zero_mean[] = { -1, 1, -1, 1 };
	struct run_settings set = { .precision = 0.01, .min_repetitions = 5,
				    .max_repetitions = 10 };
	double hw;

	(void)state;
	/* Below min_repetitions nothing stops, however precise. */
	assert_int_equal(plan_auto_decide(flat, 4, 4, &set, 0.95, &hw),
			 PLAN_CONTINUE);
	assert_true(isnan(hw));
	assert_int_equal(plan_auto_decide(flat, 5, 5, &set, 0.95, &hw),
			 PLAN_PRECISION);
	assert_true(hw < 1e-12);
	/* A mean of 0 has no relative precision: only the cap stops it. */
	set.min_repetitions = 2;
	assert_int_equal(plan_auto_decide(zero_mean, 4, 4, &set, 0.95, &hw),
			 PLAN_CONTINUE);
	assert_true(isnan(hw));
	/* Failed runs count against the cap: 2 values, 10 planned. */
	assert_int_equal(plan_auto_decide(zero_mean, 2, 10, &set, 0.95, &hw),
			 PLAN_CAP);
}

/*
 * The runner's loop with injected samples: config 0 is precise from the
 * start, config 1 never is; rounds keep only config 1 until its cap.
 */
static void test_auto_loop(void **state)
{
	const struct plan_spec spec[2] = { { 0, 3 }, { 0, 3 } };
	struct run_settings set = { .precision = 0.05, .min_repetitions = 3,
				    .max_repetitions = 6 };
	double vals[2][16];
	size_t nvals[2] = { 0, 0 }, done = 0, c;
	enum plan_stop why[2] = { PLAN_CONTINUE, PLAN_CONTINUE };
	struct plan p;

	(void)state;
	assert_int_equal(plan_build(&p, ORDER_BLOCKED, 3, 2, spec), 0);
	for (;;) {
		bool active[2];
		double hw;

		for (; done < p.nruns; done++) {
			c = p.runs[done].config;
			/* config 1 alternates 1, 100: never precise */
			vals[c][nvals[c]] = c ? (nvals[c] % 2 ? 100 : 1) : 10;
			nvals[c]++;
		}
		for (c = 0; c < 2; c++) {
			if (why[c] == PLAN_CONTINUE)
				why[c] = plan_auto_decide(vals[c], nvals[c],
							  p.measured[c], &set,
							  0.95, &hw);
			active[c] = why[c] == PLAN_CONTINUE;
		}
		if (plan_add_round(&p, active) <= 0)
			break;
	}
	assert_int_equal(why[0], PLAN_PRECISION);
	assert_int_equal(why[1], PLAN_CAP);
	assert_int_equal(nvals[0], 3);
	assert_int_equal(nvals[1], 6);
	assert_int_equal(p.nruns, 9);
	for (done = 6; done < 9; done++)
		assert_int_equal(p.runs[done].config, 1);
	plan_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocked_rounds),
		cmocka_unit_test(test_blocked_uneven),
		cmocka_unit_test(test_random_warmups_first),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_seed_reproduces),
		cmocka_unit_test(test_seed32_reference),
		cmocka_unit_test(test_blocked_uniform),
		cmocka_unit_test(test_random_uniform),
		cmocka_unit_test(test_grow_matches_build),
		cmocka_unit_test(test_grow_active_only),
		cmocka_unit_test(test_restore_rejects_gaps),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_auto_stops_when_rule_says),
		cmocka_unit_test(test_auto_edge_cases),
		cmocka_unit_test(test_auto_loop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
