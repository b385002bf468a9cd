/*
 * test_seqtest.c - the sequential decision of `contend bisect`
 * (lib/seqtest.h): a look worked by hand, bad arguments, and seeded
 * simulations of its error rates on the two-level model: a candidate
 * boot of the good kernel (A/A) called bad in at most alpha of trials, a
 * 5% regression at 2% within-boot CV called bad in at least 90%, with the
 * mean number of runs to a decision against the fixed design's cap;
 * collapsed runs (Fisher's exact test, by hand and simulated) and zero
 * spread.
 * CONTEND_SIM_TRIALS scales the simulations (`make sim`).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/seqtest.h"
#include "lib/util.h"

static size_t trials(size_t quick)
{
	const char *t = getenv("CONTEND_SIM_TRIALS");
	long long n;

	if (t && parse_ll(t, &n) == 0 && n > 0)
		return (size_t)n;
	return quick;
}

/*
 * A baseline of 2 boots of 2 runs: boot means 0 and 0.02 (runs +-0.01),
 * so MSB = 2 x 0.0002 = 0.0004, SSW = 4 x 0.0001 = 0.0004 on 2 df; the
 * candidate -0.05 +- 0.01 (2 runs): SS 0.0002, MSW = 0.0006 / 3 = 0.0002,
 * s2_b = (0.0004 - 0.0002) / 2 = 0.0001 > 0.  V = 0.0004 (1.5 / 2) +
 * 0.0002 (1/2 - 1/2) = 0.0003; r = 0.01 - (-0.05) = 0.06 (higher is
 * better); df = 0.0003^2 / (0.0003^2 / 1) = 1.
 */
static void test_hand_worked(void **state)
{
	const struct seq_baseline b = { .k = 2, .n0 = 2, .mean = 0.01,
					.msb = 0.0004, .df_b = 1,
					.ssw = 0.0004, .df_w = 2 };
	const struct seq_design d = { .delta = -log(0.95), .dir = 1,
				      .alpha = 0.05, .beta = 0.1,
				      .max_runs = 2 };
	const double x[] = { -0.06, -0.04 };
	struct seq_state st = { 0 };
	struct seq_look l;

	(void)state;
	assert_int_equal(seq_look(&b, &d, x, 2, 0, &st, &l), 0);
	assert_true(fabs(l.regression - 0.06) < 1e-12);
	assert_true(fabs(l.se - sqrt(0.0003)) < 1e-12);
	assert_true(fabs(l.df - 1) < 1e-9);
	/* the last look spends all of the first boot's share, 3/4 of alpha:
	 * t_{0.9625, 1} = 8.4 > 0.06 / 0.0173 = 3.46, so neither bad nor
	 * good: the cap */
	assert_true(fabs(l.a - 0.0375) < 1e-12);
	assert_true(fabs(l.b - 0.075) < 1e-12);
	assert_int_equal(l.decision, SEQ_CAP);
}

static void test_bad_arguments(void **state)
{
	const struct seq_baseline one = { .k = 1, .n0 = 5, .msb = 1,
					  .df_b = 0, .ssw = 1, .df_w = 4 };
	struct seq_baseline b = one;
	const struct seq_design d = { .delta = 0.05, .dir = 1, .alpha = 0.05,
				      .beta = 0.1, .max_runs = 10 };
	struct seq_design bad = d;
	const double x[] = { 1, 2, 3 };
	struct seq_state st = { 0 };
	struct seq_look l;

	(void)state;
	assert_int_equal(seq_look(&one, &d, x, 3, 0, &st, &l), -1);
	b.k = 2;
	b.df_b = 1;
	assert_int_equal(seq_look(&b, &d, x, 1, 0, &st, &l), -1);
	bad.delta = 0;
	assert_int_equal(seq_look(&b, &bad, x, 3, 0, &st, &l), -1);
	bad = d;
	bad.alpha = 0.5;
	assert_int_equal(seq_look(&b, &bad, x, 3, 0, &st, &l), -1);
	assert_int_equal(seq_look(&b, &d, x, 3, 0, &st, &l), 0);
}

struct sim {
	size_t k, n0;           /* baseline boots x runs */
	double sd_b, sd_w;      /* log scale */
	double regression;      /* true, as a fraction (0.05: 5% worse) */
	double pct;             /* hunted */
	int min_runs, max_runs; /* a look every min_runs runs */
	double p_base, p_cand;  /* each run's chance to collapse */
};

/* One bisect step: the baseline drawn, then the candidate's looks. */
static enum seq_decision one_step(const struct sim *s, gsl_rng *rng,
				  size_t *runs, enum seq_reason *why)
{
	double *x = xmalloc((size_t)s->max_runs * sizeof(*x));
	double sum_means = 0, ssb = 0, ssw = 0, means[16] = { 0 }, bc;
	struct seq_baseline b = { .k = s->k, .n0 = (double)s->n0 };
	struct seq_design d = { .delta = -log1p(-s->pct), .dir = 1,
				.alpha = 0.05, .beta = 0.10,
				.max_runs = s->max_runs,
				.looks = s->max_runs / s->min_runs };
	struct seq_state st = { 0 };
	struct seq_look l = { .decision = SEQ_CONTINUE };
	size_t i, j, n, nx = 0;

	assert_true(s->k <= 16 && s->n0 <= 64);
	for (i = 0; i < s->k; i++) {
		double bi = gsl_ran_gaussian(rng, s->sd_b), m = 0, y[64];

		for (j = 0; j < s->n0; j++) {
			y[j] = bi + gsl_ran_gaussian(rng, s->sd_w);
			m += y[j];
		}
		means[i] = m / (double)s->n0;
		for (j = 0; j < s->n0; j++)
			ssw += (y[j] - means[i]) * (y[j] - means[i]);
		sum_means += means[i];
	}
	b.mean = sum_means / (double)s->k;
	for (i = 0; i < s->k; i++)
		ssb += (means[i] - b.mean) * (means[i] - b.mean);
	b.msb = (double)s->n0 * ssb / (double)(s->k - 1);
	b.df_b = (double)(s->k - 1);
	b.ssw = ssw;
	b.df_w = (double)(s->k * (s->n0 - 1));
	b.runs = s->k * s->n0;
	/* collapses, besides the values (no draw at 0: the seeds of the
	 * simulations without collapses stay as they were) */
	b.collapsed = s->p_base > 0 ? gsl_ran_binomial(rng, s->p_base,
						      (unsigned)b.runs) : 0;
	/* the candidate's boot: higher is better, so a regression lowers it */
	bc = gsl_ran_gaussian(rng, s->sd_b) + log1p(-s->regression);
	for (n = 0; n < (size_t)s->max_runs; n++) {
		if (!(s->p_cand > 0) || gsl_rng_uniform(rng) >= s->p_cand)
			x[nx++] = bc + gsl_ran_gaussian(rng, s->sd_w);
		if (n + 1 < (size_t)s->min_runs || (n + 1) % (size_t)s->min_runs)
			continue;
		assert_int_equal(seq_look(&b, &d, x, nx, n + 1 - nx, &st, &l),
				 0);
		if (l.decision != SEQ_CONTINUE)
			break;
	}
	*runs = l.n + l.collapsed;
	*why = l.reason;
	free(x);
	return l.decision;
}

/* Shares of decisions over ntrials steps; mean runs into *mean_runs. */
static size_t by_collapse;      /* bad decisions the collapse test made */

static void simulate(const struct sim *s, size_t ntrials, unsigned long seed,
		     double share[4], double *mean_runs)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t t, count[4] = { 0 }, total = 0;

	gsl_rng_set(rng, seed);
	by_collapse = 0;
	for (t = 0; t < ntrials; t++) {
		size_t runs;
		enum seq_reason why;
		enum seq_decision dec = one_step(s, rng, &runs, &why);

		count[dec]++;
		by_collapse += dec == SEQ_BAD && why == SEQ_BY_COLLAPSE;
		total += runs;
	}
	for (t = 0; t < 4; t++)
		share[t] = (double)count[t] / (double)ntrials;
	*mean_runs = (double)total / (double)ntrials;
	gsl_rng_free(rng);
}

/* 5 boots of 10 runs of the good kernel, 2% CV within, 0.5% between. */
static const struct sim base = { .k = 5, .n0 = 10, .sd_b = 0.005,
				 .sd_w = 0.02, .pct = 0.05, .min_runs = 5,
				 .max_runs = 40 };

static void test_sim_aa(void **state)
{
	size_t n = trials(1000);
	double share[4], runs;

	(void)state;
	simulate(&base, n, 31, share, &runs);
	printf("  bisect A/A (5x10 baseline, CV 2%% within, 0.5%% between, "
	       "PCT 5%%): bad %.3f, good %.3f, skip %.3f, mean runs %.1f of "
	       "%d (%zu trials)\n", share[SEQ_BAD], share[SEQ_GOOD],
	       share[SEQ_CAP], runs, base.max_runs, n);
	/* <= 0.05 by construction; 1000 trials: sd 0.007 */
	assert_true(share[SEQ_BAD] <= 0.07);
	assert_true(share[SEQ_GOOD] >= 0.80);
}

static void test_sim_regression(void **state)
{
	struct sim s = base;
	size_t n = trials(1000);
	double share[4], runs;

	(void)state;
	s.regression = 0.05;
	simulate(&s, n, 32, share, &runs);
	printf("  bisect 5%% regression: bad %.3f, good %.3f, skip %.3f, "
	       "mean runs %.1f of %d (%zu trials)\n", share[SEQ_BAD],
	       share[SEQ_GOOD], share[SEQ_CAP], runs, s.max_runs, n);
	assert_true(share[SEQ_BAD] >= 0.90);
	assert_true(share[SEQ_GOOD] <= 0.10);
}

/*
 * A harder host: 3 boots, 1% between boots.  The error guarantee holds
 * (A/A bad <= alpha); the power is what the baseline's 2 df allow,
 * printed for docs/STATISTICS.md.
 */
static void test_sim_few_boots(void **state)
{
	struct sim s = base;
	size_t n = trials(1000);
	double aa[4], reg[4], raa, rreg;

	(void)state;
	s.k = 3;
	s.sd_b = 0.01;
	simulate(&s, n, 33, aa, &raa);
	s.regression = 0.05;
	simulate(&s, n, 34, reg, &rreg);
	printf("  bisect 3x10 baseline, 1%% between: A/A bad %.3f (skip "
	       "%.3f); 5%% regression bad %.3f (skip %.3f), mean runs %.1f "
	       "(%zu trials)\n", aa[SEQ_BAD], aa[SEQ_CAP], reg[SEQ_BAD],
	       reg[SEQ_CAP], rreg, n);
	assert_true(aa[SEQ_BAD] <= 0.07);
	assert_true(reg[SEQ_GOOD] <= 0.12);
}

/*
 * Fisher's one-sided p, by hand: 5 of 5 candidate runs collapsed, none of
 * the baseline's 30: P = 1 / C(35, 5) = 1 / 324632; 2 of 10 against 0 of
 * 30: C(10, 2) / C(40, 2) = 45 / 780; 2 of 3 against 1 of 4: X of the 3
 * collapses among the 3 candidate runs of 7, P(X >= 2) = (C(3,2) C(4,1) +
 * C(3,3)) / C(7,3) = 13 / 35.
 */
static void test_collapse_p(void **state)
{
	(void)state;
	assert_true(fabs(seq_collapse_p(0, 30, 5, 5) - 1.0 / 324632) < 1e-15);
	assert_true(fabs(seq_collapse_p(0, 30, 2, 10) - 45.0 / 780) < 1e-12);
	assert_true(fabs(seq_collapse_p(1, 4, 2, 3) - 13.0 / 35) < 1e-12);
	assert_true(fabs(seq_collapse_p(3, 30, 0, 5) - 1) < 1e-15);
	assert_true(isnan(seq_collapse_p(0, 0, 1, 5)));
}

/* A baseline of 3 boots of 10 runs of the good kernel, none collapsed. */
static const struct seq_baseline base3 = {
	.k = 3, .n0 = 10, .mean = 0, .msb = 0.0004, .df_b = 2,
	.ssw = 27 * 0.0004, .df_w = 27, .runs = 30, .collapsed = 0,
};
static const struct seq_design design5 = {
	.delta = 0.0513, .dir = 1, .alpha = 0.05, .beta = 0.1,
	.max_runs = 40, .looks = 8,
};

/*
 * Every run of the first look collapsed: p = 1/324632 < 0.05 / 8, bad
 * there.  5 values and 2 collapsed at the last look (max_runs 7): p =
 * C(7,2) / C(37,2) = 21/666 = 0.0315 > 0.00625: no decision, the cap,
 * though the same 5 values alone (max_runs 5) are good: never good while
 * the candidate collapses more often than the baseline.
 */
static void test_collapse_decides(void **state)
{
	const double fine[] = { 0.001, -0.001, 0, 0.002, -0.002 };
	struct seq_design d = design5;
	struct seq_state st = { 0 };
	struct seq_look l;

	(void)state;
	assert_int_equal(seq_look(&base3, &d, NULL, 0, 5, &st, &l), 0);
	assert_int_equal(l.decision, SEQ_BAD);
	assert_int_equal(l.reason, SEQ_BY_COLLAPSE);
	assert_true(isnan(l.regression));
	st = (struct seq_state){ 0 };
	d.max_runs = 7;
	assert_int_equal(seq_look(&base3, &d, fine, 5, 2, &st, &l), 0);
	assert_true(fabs(l.p_collapse - 21.0 / 666) < 1e-12);
	assert_int_equal(l.decision, SEQ_CAP);
	st = (struct seq_state){ 0 };
	d.max_runs = 5;
	assert_int_equal(seq_look(&base3, &d, fine, 5, 0, &st, &l), 0);
	assert_int_equal(l.decision, SEQ_GOOD);
	assert_true(isnan(l.p_collapse));
}

/*
 * Zero spread (issue 37 item 9): a constant 1000 against a baseline that
 * was a constant 500 when more is better is a known gain: good at the
 * first look; a constant 500 against 1000 a known loss: bad; the same
 * constant: good (r = 0, below PCT).
 */
static void test_zero_spread(void **state)
{
	struct seq_baseline b = { .k = 3, .n0 = 5, .mean = log(500),
				  .msb = 0, .df_b = 2, .ssw = 0, .df_w = 12,
				  .runs = 15 };
	const double hi[] = { log(1000), log(1000), log(1000), log(1000),
			      log(1000) };
	const double lo[] = { log(250), log(250), log(250), log(250),
			      log(250) };
	const double same[] = { log(500), log(500), log(500), log(500),
				log(500) };
	struct seq_state st = { 0 };
	struct seq_look l;

	(void)state;
	assert_int_equal(seq_look(&b, &design5, hi, 5, 0, &st, &l), 0);
	assert_int_equal(l.decision, SEQ_GOOD);
	assert_int_equal(l.reason, SEQ_BY_EXACT);
	st = (struct seq_state){ 0 };
	assert_int_equal(seq_look(&b, &design5, lo, 5, 0, &st, &l), 0);
	assert_int_equal(l.decision, SEQ_BAD);
	assert_int_equal(l.reason, SEQ_BY_EXACT);
	/* a loss of 50%: r = log 2 */
	assert_true(fabs(l.regression - log(2)) < 1e-12);
	st = (struct seq_state){ 0 };
	assert_int_equal(seq_look(&b, &design5, same, 5, 0, &st, &l), 0);
	assert_int_equal(l.decision, SEQ_GOOD);
}

/*
 * Collapses on both kernels alike (10% of runs, A/A): the collapse test
 * calls bad in at most alpha of trials; a kernel whose runs collapse 30%
 * of the time where the baseline's never do is bad in at least 80%; one
 * at 15% is good only where no collapse showed before the decision (the
 * limit of a sequential step, docs/STATISTICS.md).
 */
static void test_sim_collapse(void **state)
{
	struct sim s = base;
	size_t n = trials(1000);
	double aa[4], col[4], low[4], raa, rcol, rlow, aa_collapse;

	(void)state;
	s.p_base = s.p_cand = 0.10;
	simulate(&s, n, 35, aa, &raa);
	aa_collapse = (double)by_collapse / (double)n;
	s.p_base = 0;
	s.p_cand = 0.15;
	simulate(&s, n, 37, low, &rlow);
	s.p_cand = 0.30;
	simulate(&s, n, 36, col, &rcol);
	printf("  bisect collapses: A/A at 10%% bad %.3f (by collapse %.3f); "
	       "against none, 15%% bad %.3f (mean runs %.1f), 30%% bad %.3f "
	       "(mean runs %.1f) (%zu trials)\n", aa[SEQ_BAD], aa_collapse,
	       low[SEQ_BAD], rlow, col[SEQ_BAD], rcol, n);
	assert_true(aa_collapse <= 0.07);
	/* good only where no collapse showed before it: at most the chance
	 * of none in the first look's 5 runs, 0.85^5 = 0.444 (sd 0.016) */
	assert_true(low[SEQ_GOOD] <= 0.49);
	assert_true(col[SEQ_BAD] >= 0.80);
}

/*
 * A step continued on a second boot: the hand-worked baseline above (k
 * 2, n0 2, MSB 0.0004, SSW 0.0004 on 2 df, mean 0.01); the candidate's
 * earlier boot -0.07, -0.05 (mean -0.06, SS 0.0002), this boot -0.06,
 * -0.04 (mean -0.05, SS 0.0002).  MSW = 0.0008 / 4 = 0.0002.  s2_b from
 * both kernels' boots: the baseline's MSB / n0 = 0.0002 on 1 df, the
 * candidate's boot means' variance Qc = 2 x 0.005^2 / 1 = 0.00005 on 1
 * df (it estimates s2_b + s2_w S / J, S = 1/2 + 1/2 = 1, J = 2), so
 * s2_b = ((0.0002 - 0.0001) + (0.00005 - 0.0001)) / 2 = 0.000025 and
 * V = s2_b (1/2 + 1/2) + s2_w (1/4 + 1/4) = 0.000025 + 0.0001 =
 * 0.000125.  As mean squares: V = 0.25 MSB + 0.5 Qc + 0 MSW, so
 * Satterthwaite's df = 0.000125^2 / (0.0001^2 / 1 + 0.000025^2 / 1) =
 * 1.5625 / 1.0625 = 1.470588; r = 0.01 - (-0.055) = 0.065.  (From the
 * baseline's MSB alone it was V = 0.0002 on 1 df.)
 */
static void test_prior_hand_worked(void **state)
{
	const struct seq_baseline b = { .k = 2, .n0 = 2, .mean = 0.01,
					.msb = 0.0004, .df_b = 1,
					.ssw = 0.0004, .df_w = 2, .runs = 4 };
	const struct seq_design d = { .delta = -log(0.95), .dir = 1,
				      .alpha = 0.05, .beta = 0.1,
				      .max_runs = 2, .looks = 1 };
	const struct seq_prior p = { .j = 1, .sum_means = -0.06,
				     .sum_sq_means = 0.0036, .sum_inv_n = 0.5,
				     .ss = 0.0002, .df = 1, .runs = 2,
				     .boots = 1 };
	const double x[] = { -0.06, -0.04 };
	struct seq_state st = { 0 };
	struct seq_look l;

	(void)state;
	assert_int_equal(seq_look_prior(&b, &d, &p, x, 2, 0, &st, &l), 0);
	assert_true(fabs(l.regression - 0.065) < 1e-12);
	assert_true(fabs(l.se - sqrt(0.000125)) < 1e-12);
	assert_true(fabs(l.df - 1.5625 / 1.0625) < 1e-9);
	/* the second boot spends 5/36 of alpha and beta at its last look */
	assert_true(fabs(l.a - 0.05 * 5 / 36) < 1e-12);
	assert_true(fabs(l.b - 0.1 * 5 / 36) < 1e-12);
}

/*
 * The boots' shares of a level, G(j) - G(j - 1) with G(j) = 1 - 1/(j +
 * 1)^2: 1 - 1/4 = 3/4, 1/4 - 1/9 = 5/36, 1/9 - 1/16 = 7/144; the 10th
 * 1/100 - 1/121 = 21/12100; 0 for boot 0; their sum over 1000 boots
 * 1 - 1/1001^2 < 1.
 */
static void test_boot_level(void **state)
{
	double sum = 0;
	size_t j;

	(void)state;
	assert_true(fabs(seq_boot_level(0.05, 1) - 0.0375) < 1e-15);
	assert_true(fabs(seq_boot_level(0.05, 2) - 0.05 * 5 / 36) < 1e-15);
	assert_true(fabs(seq_boot_level(0.1, 3) - 0.1 * 7 / 144) < 1e-15);
	assert_true(fabs(seq_boot_level(1, 10) - 21.0 / 12100) < 1e-15);
	assert_true(fabs(seq_boot_level(0.05, 0)) < 1e-300);
	for (j = 1; j <= 1000; j++)
		sum += seq_boot_level(1, j);
	assert_true(fabs(sum - (1 - 1 / (1001.0 * 1001.0))) < 1e-12);
	assert_true(sum < 1);
}

/*
 * Boots that would decide: a baseline of 5 boots of 10 runs, MSW 0.0004
 * (2% within), s2_b from MSB = MSW + 10 s2_b; delta = -ln 0.95 =
 * 0.051293, V_J = s2_b (1/J + 1/5) + 0.0004 (1/(40 J) + 1/50).  The J-th
 * boot's shares (3/4, 5/36, 7/144 of alpha 0.05 and beta 0.1) give z_J =
 * max(z_{1-a_J} + 1.2816, z_{1-b_J} + 1.6449): z_1 = max(1.7805 +
 * 1.2816, 1.4395 + 1.6449) = 3.0844, z_2 = max(2.4601 + 1.2816, 2.2004 +
 * 1.6449) = 3.8453, z_3 = max(2.8161 + 1.2816, 2.5856 + 1.6449) =
 * 4.2304, so V_J <= (delta / z_J)^2 = 0.00027656, 0.00017794,
 * 0.00014701.  s2_b 0.0001: V_1 = 0.000138: 1 boot; s2_b 0.00025: V_1 =
 * 0.000318, V_2 = 0.000188, V_3 = 0.00014467: 3; s2_b 0.0003: V_J >
 * 0.000068 + 0.0003 / J against a bound that falls with J (V_4 =
 * 0.0001455 > 0.0001308): none (0).  Under one alpha for every boot
 * (z = 2.9264 throughout) s2_b 0.0003 needed 2 boots.
 */
static void test_boots_needed(void **state)
{
	struct seq_baseline b = { .k = 5, .n0 = 10, .ssw = 0.0004 * 45,
				  .df_w = 45, .df_b = 4 };
	const struct seq_design d = { .delta = -log(0.95), .dir = 1,
				      .alpha = 0.05, .beta = 0.1,
				      .max_runs = 40, .looks = 8 };

	(void)state;
	b.msb = 0.0004 + 10 * 0.0001;
	assert_int_equal(seq_boots_needed(&b, &d), 1);
	b.msb = 0.0004 + 10 * 0.00025;
	assert_int_equal(seq_boots_needed(&b, &d), 3);
	b.msb = 0.0004 + 10 * 0.0003;
	assert_int_equal(seq_boots_needed(&b, &d), 0);
}

/*
 * A step continued on J = 2 boots of an unchanged kernel (A/A), on a
 * host whose boots differ more than runs do (3% between, 1% within): the
 * continued test calls it bad in at most alpha of trials, because the
 * candidate's boot variance stays in V (without its s2_b / J term the
 * same trials gave 9.3%); the first boot's 40 runs are taken as they
 * come.
 */
static void test_sim_continued(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t n = trials(1000), t, i, j, bad = 0, good = 0;
	const size_t k = 3, n0 = 10;
	const double sd_b = 0.03, sd_w = 0.01;

	(void)state;
	gsl_rng_set(rng, 38);
	for (t = 0; t < n; t++) {
		struct seq_baseline b = { .k = k, .n0 = (double)n0,
					  .runs = k * n0 };
		struct seq_design d = { .delta = -log1p(-0.05), .dir = 1,
					.alpha = 0.05, .beta = 0.10,
					.max_runs = 40, .looks = 8 };
		struct seq_prior p = { 0 };
		struct seq_state st = { 0 };
		struct seq_look l = { .decision = SEQ_CONTINUE };
		double means[3], sum = 0, ssb = 0, ssw = 0, x[40], bc;

		for (i = 0; i < k; i++) {
			double bi = gsl_ran_gaussian(rng, sd_b), y[10];

			means[i] = 0;
			for (j = 0; j < n0; j++) {
				y[j] = bi + gsl_ran_gaussian(rng, sd_w);
				means[i] += y[j] / (double)n0;
			}
			for (j = 0; j < n0; j++)
				ssw += (y[j] - means[i]) * (y[j] - means[i]);
			sum += means[i];
		}
		b.mean = sum / (double)k;
		for (i = 0; i < k; i++)
			ssb += (means[i] - b.mean) * (means[i] - b.mean);
		b.msb = (double)n0 * ssb / (double)(k - 1);
		b.df_b = (double)(k - 1);
		b.ssw = ssw;
		b.df_w = (double)(k * (n0 - 1));
		/* the first boot: 40 runs */
		bc = gsl_ran_gaussian(rng, sd_b);
		for (j = 0; j < 40; j++)
			x[j] = bc + gsl_ran_gaussian(rng, sd_w);
		seq_prior_add(&p, x, 40, 0);
		/* the second boot, looked at every 5 runs */
		bc = gsl_ran_gaussian(rng, sd_b);
		for (j = 0; j < 40 && l.decision == SEQ_CONTINUE; j++) {
			x[j] = bc + gsl_ran_gaussian(rng, sd_w);
			if ((j + 1) % 5)
				continue;
			assert_int_equal(seq_look_prior(&b, &d, &p, x, j + 1,
							0, &st, &l), 0);
		}
		bad += l.decision == SEQ_BAD;
		good += l.decision == SEQ_GOOD;
	}
	printf("  bisect continued on a 2nd boot, A/A, 3%% between, 1%% "
	       "within: bad %.3f, good %.3f (%zu trials)\n",
	       (double)bad / (double)n, (double)good / (double)n, n);
	/* <= 0.05 by construction; 1000 trials: sd 0.007 */
	assert_true((double)bad / (double)n <= 0.07);
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_sim_aa),
		cmocka_unit_test(test_sim_regression),
		cmocka_unit_test(test_sim_few_boots),
		cmocka_unit_test(test_collapse_p),
		cmocka_unit_test(test_collapse_decides),
		cmocka_unit_test(test_zero_spread),
		cmocka_unit_test(test_sim_collapse),
		cmocka_unit_test(test_prior_hand_worked),
		cmocka_unit_test(test_boot_level),
		cmocka_unit_test(test_boots_needed),
		cmocka_unit_test(test_sim_continued),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
