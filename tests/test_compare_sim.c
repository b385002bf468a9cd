/*
 * test_compare_sim.c - the claims of compare's two-level model checked by
 * seeded simulation (no timing): sides of k invocations x n runs drawn
 * with known between- and within-invocation spread and a known true
 * change, judged by compare_model() and compare_gate() exactly as
 * `contend compare` judges them.
 *
 * Values are x = L exp(b_i + e_ij), b_i ~ N(0, s_b^2), e_ij ~ N(0, s_w^2),
 * s_w = the within-invocation CV (2%), s_b^2 = ICC / (1 - ICC) s_w^2; the
 * candidate's L is (1 + change) times the baseline's.  Checked:
 *  - the 95% interval of the change covers the true change in 93-97% of
 *    trials at 3 x 10 (ICC 0.5), 2 x 10 (ICC 0), an unbalanced design,
 *    and the small designs of issue #28 (2 x 10 vs 1 x 10 at ICC 0.1-0.5,
 *    3 x 10 vs 1 x 10 and 2 x 10 vs 2 x 10 at ICC 0.3);
 *  - the gate (--fail-on-regression 0, the boundary of its null
 *    hypothesis, Holm over 9 configurations) fails at most 5% of A/A
 *    builds (plus two standard errors of the simulation) in every design
 *    of 3 or more invocations, and at a 1% margin over a mix of ICCs; with
 *    one invocation a side its rate is printed (not guaranteed);
 *  - the power for a 2% change at 2 x 10, ICC 0, CV 2% exceeds 35% (the
 *    invocation means alone give about 20%).
 * CONTEND_SIM_TRIALS sets the trials per design (default 2000, `make sim`
 * runs 20000); the figures are printed for docs/STATISTICS.md.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/compare.h"
#include "lib/util.h"

#define CV_WITHIN 0.02
#define NCONFIGS 9
#define MAXV 256

/* Trials of the design table when not 0 (test_gate_aa_designs). */
static size_t trials_override;

static size_t trials(void)
{
	const char *t = getenv("CONTEND_SIM_TRIALS");
	long long n;

	if (trials_override)
		return trials_override;
	if (t && parse_ll(t, &n) == 0 && n > 0)
		return (size_t)n;
	return 2000;
}

/* A design of one side: k invocations of sizes[i] runs. */
struct design {
	size_t k;
	size_t sizes[8];
};

struct side {
	double x[MAXV];
	struct compare_groups g;
};

static void draw(gsl_rng *rng, const struct design *d, double level,
		 double icc, struct side *s)
{
	double sb = sqrt(icc / (1 - icc)) * CV_WITHIN, off;
	size_t i, j, at = 0;

	for (i = 0; i < d->k; i++) {
		off = sb > 0 ? gsl_ran_gaussian(rng, sb) : 0;
		for (j = 0; j < d->sizes[i]; j++)
			s->x[at++] = level * exp(off + gsl_ran_gaussian(rng,
								  CV_WITHIN));
	}
	s->g = (struct compare_groups){ s->x, d->sizes, d->k };
}

static struct compare_opts sim_opts(void)
{
	struct compare_opts o;

	compare_opts_default(&o);
	o.dir = DIR_HIGHER;
	o.threshold_pct = 1;
	o.confidence = 0.95;
	return o;
}

/* Fraction of trials whose interval covers the true change in %. */
static double coverage(unsigned long seed, const struct design *db,
		       const struct design *dc, double icc, double change)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct compare_opts o = sim_opts();
	size_t t, n = trials(), hit = 0;
	struct side b, c;

	gsl_rng_set(rng, seed);
	for (t = 0; t < n; t++) {
		struct compare_stats st;

		draw(rng, db, 1e6, icc, &b);
		draw(rng, dc, 1e6 * (1 + change / 100), icc, &c);
		assert_int_equal(compare_model(&b.g, &c.g, &o, &st), 0);
		hit += st.change_ci_low_pct <= change &&
		       change <= st.change_ci_high_pct;
	}
	gsl_rng_free(rng);
	return (double)hit / (double)n;
}

static void check_coverage(const char *name, double cov)
{
	print_message("  coverage %s: %.2f%% (%zu trials)\n", name, 100 * cov,
		      trials());
	if (!(cov >= 0.93 && cov <= 0.97))
		fail_msg("coverage %s %.4f outside [0.93, 0.97]", name, cov);
}

static void test_coverage_3x10_icc05(void **state)
{
	const struct design d = { 3, { 10, 10, 10 } };

	(void)state;
	check_coverage("3x10 ICC 0.5", coverage(1, &d, &d, 0.5, 2));
}

static void test_coverage_2x10_icc0(void **state)
{
	const struct design d = { 2, { 10, 10 } };

	(void)state;
	check_coverage("2x10 ICC 0", coverage(2, &d, &d, 0, 2));
}

/* Unbalanced: 4 invocations of 6-14 runs against 3 of 8-12, ICC 0.3. */
static void test_coverage_unbalanced(void **state)
{
	const struct design db = { 4, { 6, 10, 14, 9 } };
	const struct design dc = { 3, { 8, 12, 10 } };

	(void)state;
	check_coverage("unbalanced 4 vs 3 ICC 0.3",
		       coverage(3, &db, &dc, 0.3, -3));
}

/*
 * Small designs (issue #28): at least 2 invocations on one side, the
 * other of 1 or 2, at ICC 0.1 to 0.5.  Before the df cap at K - 2 and the
 * untruncated s2_b these covered 0.86-0.93 (an independent check in R).
 */
static void test_coverage_small(void **state)
{
	static const struct design d1 = { 1, { 10 } };
	static const struct design d2 = { 2, { 10, 10 } };
	static const struct design d3 = { 3, { 10, 10, 10 } };
	static const struct {
		const char *name;
		const struct design *b, *c;
		double icc;
	} cases[] = {
		{ "2x10 vs 1x10 ICC 0.1", &d2, &d1, 0.1 },
		{ "2x10 vs 1x10 ICC 0.3", &d2, &d1, 0.3 },
		{ "2x10 vs 1x10 ICC 0.5", &d2, &d1, 0.5 },
		{ "3x10 vs 1x10 ICC 0.3", &d3, &d1, 0.3 },
		{ "2x10 vs 2x10 ICC 0.3", &d2, &d2, 0.3 },
		{ "1x10 vs 2x10 ICC 0.5", &d1, &d2, 0.5 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_coverage(cases[i].name,
			       coverage(20 + i, cases[i].b, cases[i].c,
					cases[i].icc, -2));
}

/*
 * A/A builds: 9 configurations, k x 10 runs a side, no true change; the
 * gate at pct.  A build fails when any configuration fails after Holm.
 * Returns the fraction of builds that fail.
 */
static double gate_rate(unsigned long seed, const struct design *d,
			const struct design *dc, const double *icc,
			double pct, double shift0, double *raw_rate)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct compare_opts o = sim_opts();
	size_t t, n = trials(), failed = 0, raw = 0, i;
	struct comparison cmp[NCONFIGS];
	struct compare_result r;
	struct side b, c;

	gsl_rng_set(rng, seed);
	for (t = 0; t < n; t++) {
		memset(&r, 0, sizeof(r));
		memset(cmp, 0, sizeof(cmp));
		r.opts = o;
		r.n = NCONFIGS;
		r.cmp = cmp;
		for (i = 0; i < NCONFIGS; i++) {
			draw(rng, d, 1e6, icc[i], &b);
			draw(rng, dc, 1e6 * (i ? 1 : 1 + shift0 / 100), icc[i],
			     &c);
			assert_int_equal(compare_model(&b.g, &c.g, &o,
						       &cmp[i].st), 0);
		}
		failed += compare_gate(&r, pct) > 0 &&
			  (shift0 >= 0 || cmp[0].gate_fail);
		for (i = 0; i < NCONFIGS; i++)
			raw += cmp[i].gate_p < 0.05;
	}
	gsl_rng_free(rng);
	*raw_rate = (double)raw / (double)(n * NCONFIGS);
	return (double)failed / (double)n;
}

static double aa_rate(unsigned long seed, const struct design *d,
		      const double *icc, double pct, double *raw_rate)
{
	return gate_rate(seed, d, d, icc, pct, 0, raw_rate);
}

static void check_aa(const char *name, double rate, double raw)
{
	print_message("  gate A/A %s: %.2f%% of builds fail (%zu trials; "
		      "uncorrected, %.2f%% of configurations would)\n", name,
		      100 * rate, trials(), 100 * raw);
	/*
	 * The gate is exact at PCT 0 in a balanced design (Holm over 9 true
	 * nulls: 4.9%), so the check allows the Monte Carlo error of the
	 * estimate, two standard errors of a 5% rate.
	 */
	if (!(rate <= 0.05 + 2 * sqrt(0.05 * 0.95 / (double)trials())))
		fail_msg("gate fails %.4f of A/A builds (%s)", rate, name);
}

/* The designs of the coverage checks, at PCT 0 (the least favourable). */
static void test_gate_aa(void **state)
{
	static const double icc0[NCONFIGS], icc05[NCONFIGS] = {
		0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 };
	const struct design d2 = { 2, { 10, 10 } };
	const struct design d3 = { 3, { 10, 10, 10 } };
	double raw, rate;

	(void)state;
	rate = aa_rate(4, &d2, icc0, 0, &raw);
	check_aa("9 x (2x10, ICC 0), PCT 0", rate, raw);
	rate = aa_rate(6, &d3, icc05, 0, &raw);
	check_aa("9 x (3x10, ICC 0.5), PCT 0", rate, raw);
}

/* The CI use case: a baseline of 3 boots, one candidate build. */
static void test_gate_aa_ci(void **state)
{
	static const double icc05[NCONFIGS] = {
		0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 };
	const struct design d3 = { 3, { 10, 10, 10 } };
	const struct design d1 = { 1, { 10 } };
	double raw, rate;

	(void)state;
	rate = gate_rate(10, &d3, &d1, icc05, 0, 0, &raw);
	check_aa("9 x (3x10 vs 1x10, ICC 0.5), PCT 0", rate, raw);
}

/*
 * The A/A rate of the gate for each design at ICC 0 to 0.5 (PCT 0, 9
 * configurations a build), for docs/AB-KERNEL.md: a quarter of the trials
 * (all of them under `make sim`).  With one invocation a side the gate
 * has no between-invocation variance and says its bound is not
 * guaranteed; that rate is printed, not bounded.  Every design with 3 or
 * more invocations in all is checked against 5%.
 */
static void test_gate_aa_designs(void **state)
{
	static const struct design d1 = { 1, { 10 } };
	static const struct design d2 = { 2, { 10, 10 } };
	static const struct design d3 = { 3, { 10, 10, 10 } };
	static const struct {
		const char *name;
		const struct design *b, *c;
	} designs[] = {
		{ "1x10 vs 1x10", &d1, &d1 }, { "2x10 vs 1x10", &d2, &d1 },
		{ "3x10 vs 1x10", &d3, &d1 }, { "2x10 vs 2x10", &d2, &d2 },
	};
	static const double iccs[] = { 0, 0.1, 0.3, 0.5 };
	size_t i, j, k, n = getenv("CONTEND_SIM_TRIALS") ? trials()
							 : trials() / 4;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(designs); i++) {
		for (j = 0; j < ARRAY_SIZE(iccs); j++) {
			double icc[NCONFIGS], raw, rate, tol;
			bool one = designs[i].b->k + designs[i].c->k < 3;

			for (k = 0; k < NCONFIGS; k++)
				icc[k] = iccs[j];
			trials_override = n;
			rate = gate_rate(40 + 4 * i + j, designs[i].b,
					 designs[i].c, icc, 0, 0, &raw);
			trials_override = 0;
			print_message("  gate A/A design %s ICC %.1f: %.2f%% "
				      "of builds fail (%zu trials)%s\n",
				      designs[i].name, iccs[j], 100 * rate, n,
				      one ? ", not guaranteed" : "");
			tol = 2 * sqrt(0.05 * 0.95 / (double)n);
			if (!one && !(rate <= 0.05 + tol))
				fail_msg("gate A/A %s ICC %.1f: %.4f",
					 designs[i].name, iccs[j], rate);
		}
	}
}

/*
 * The gate is not vacuous: a real -10% in one of 9 configurations (2 x 10,
 * ICC 0, CV 2%) fails the build, naming that configuration, nearly always;
 * the power for -5% is printed.
 */
static void test_gate_power(void **state)
{
	static const double icc0[NCONFIGS], icc05[NCONFIGS] = {
		0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5 };
	const struct design d2 = { 2, { 10, 10 } };
	const struct design d3 = { 3, { 10, 10, 10 } };
	double raw, p10, p5, p5b;

	(void)state;
	p10 = gate_rate(11, &d2, &d2, icc0, 0, -10, &raw);
	p5 = gate_rate(12, &d2, &d2, icc0, 0, -5, &raw);
	p5b = gate_rate(13, &d3, &d3, icc05, 0, -5, &raw);
	print_message("  gate power, one configuration of 9 at -10%% (2x10, "
		      "ICC 0): %.1f%%; at -5%%: %.1f%%; at -5%% (3x10, ICC "
		      "0.5): %.1f%%\n", 100 * p10, 100 * p5, 100 * p5b);
	if (!(p10 > 0.9))
		fail_msg("the gate misses a 10%% regression: %.3f", p10);
}

/*
 * The known weakness, reported, not hidden: with 2 invocations a side the
 * between-invocation variance rests on 2 df, is often estimated as 0 when
 * it is not, and the pooled interval is then too narrow in its tails.
 * Printed for docs/STATISTICS.md; the bound checked is the one the docs
 * state for this case at PCT 1 (a 1% margin).
 */
static void test_gate_aa_mixed(void **state)
{
	static const double icc[NCONFIGS] = { 0, 0.1, 0.2, 0.3, 0.4, 0.5,
					      0.6, 0.7, 0.8 };
	const struct design d2 = { 2, { 10, 10 } };
	const struct design d3 = { 3, { 10, 10, 10 } };
	double raw, rate;

	(void)state;
	rate = aa_rate(7, &d2, icc, 0, &raw);
	print_message("  gate A/A 9 x (2x10, ICC 0-0.8), PCT 0: %.2f%% of "
		      "builds fail (uncorrected %.2f%%)\n", 100 * rate,
		      100 * raw);
	rate = aa_rate(8, &d3, icc, 0, &raw);
	print_message("  gate A/A 9 x (3x10, ICC 0-0.8), PCT 0: %.2f%% of "
		      "builds fail (uncorrected %.2f%%)\n", 100 * rate,
		      100 * raw);
	rate = aa_rate(9, &d2, icc, 1, &raw);
	check_aa("9 x (2x10, ICC 0-0.8), PCT 1", rate, raw);
}

/*
 * Power for a true +2% at 2 x 10, ICC 0, CV 2%: the fraction of trials
 * whose interval lies above 0.  Invocation means alone (Welch on 2 vs 2
 * means, about 2 df) find it about 20% of the time.
 */
static void test_power_2x10(void **state)
{
	const struct design d = { 2, { 10, 10 } };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct compare_opts o = sim_opts();
	size_t t, n = trials(), found = 0;
	struct side b, c;
	double power;

	(void)state;
	gsl_rng_set(rng, 5);
	for (t = 0; t < n; t++) {
		struct compare_stats st;

		draw(rng, &d, 1e6, 0, &b);
		draw(rng, &d, 1.02e6, 0, &c);
		assert_int_equal(compare_model(&b.g, &c.g, &o, &st), 0);
		found += st.change_ci_low_pct > 0;
	}
	gsl_rng_free(rng);
	power = (double)found / (double)n;
	print_message("  power, +2%% at 2x10 ICC 0 CV 2%%: %.1f%%\n",
		      100 * power);
	if (!(power > 0.35))
		fail_msg("power %.3f: no better than invocation means", power);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coverage_3x10_icc05),
		cmocka_unit_test(test_coverage_2x10_icc0),
		cmocka_unit_test(test_coverage_unbalanced),
		cmocka_unit_test(test_coverage_small),
		cmocka_unit_test(test_gate_aa),
		cmocka_unit_test(test_gate_aa_mixed),
		cmocka_unit_test(test_gate_aa_ci),
		cmocka_unit_test(test_gate_aa_designs),
		cmocka_unit_test(test_gate_power),
		cmocka_unit_test(test_power_2x10),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
