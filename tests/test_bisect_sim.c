/*
 * test_bisect_sim.c - bisect's operating characteristics by seeded
 * simulation: whole steps of `contend bisect` on the two-level model,
 * one boot of the candidate or a step continued over three boots
 * (`--continue` after each skip), driving the decision code the command
 * runs: lib/seqtest.h's seq_look_prior at every look, each earlier boot
 * added by seq_prior_add as bisect_prior_of adds it, a fresh sequential
 * state per boot as each `contend bisect` process starts one, looks
 * every 5 runs up to 40 (the defaults), PCT 5%, alpha 0.05, beta 0.10.
 *
 * The host: total CV 2% on the log scale split by the intraclass
 * correlation (ICC: the between-boot share of the variance); the
 * baseline k boots of 10 runs of the good kernel, drawn afresh in each
 * trial.  make check asserts the bound: at ICC 0.3 and a
 * baseline of 5 boots, a step continued over three boots calls a 5%
 * loss bad in at least 80% of steps and an unchanged kernel (A/A) bad
 * in at most 5% (each within two standard errors); and that over the
 * whole sequence (the first boot and up to 4 continuations, each boot
 * spending its share of alpha and beta, seq_boot_level) an unchanged
 * kernel is ever called bad in at most alpha and a 5% loss ever good in
 * at most beta.
 *
 * `--figures` (make sim) prints the table of docs/STATISTICS.md
 * "Bisect": P(bad), P(good), P(skip) and mean runs for ICC 0, 0.1, 0.3,
 * 0.5 x baseline 3 and 5 boots x one-boot and three-boot steps x A/A
 * and a 5% loss, and P(ever bad | A/A), P(ever good | 5% loss) over up
 * to five boots, CONTEND_SIM_TRIALS steps a cell (10000 by default).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/seqtest.h"
#include "lib/util.h"

#define N0 10           /* baseline runs per boot */
#define EVERY 5         /* --look-every */
#define MAX_RUNS 40     /* --max-runs */
#define PCT 0.05        /* --regression */

static size_t trials(size_t quick)
{
	const char *t = getenv("CONTEND_SIM_TRIALS");
	long long n;

	if (t && parse_ll(t, &n) == 0 && n > 0)
		return (size_t)n;
	return quick;
}

struct cell {
	double cv;      /* total spread, log scale */
	double icc;     /* s2_b / (s2_b + s2_w) */
	size_t k;       /* baseline boots */
	size_t boots;   /* candidate boots at most (1, or 3 continued) */
	double loss;    /* true, 0 or 0.05 */
};

struct outcome {
	double share[4];        /* by enum seq_decision (CAP: skip) */
	double runs;            /* mean candidate runs over all its boots */
};

/* The baseline: k boots of N0 runs, as bisect_base_of summarises it. */
static void draw_baseline(gsl_rng *rng, size_t k, double sb, double sw,
			  struct seq_baseline *b)
{
	double means[16] = { 0 }, sum = 0, ssb = 0, ssw = 0, y[N0];
	size_t i, j;

	assert_true(k <= 16);
	for (i = 0; i < k; i++) {
		double bi = gsl_ran_gaussian(rng, sb);

		means[i] = 0;
		for (j = 0; j < N0; j++) {
			y[j] = bi + gsl_ran_gaussian(rng, sw);
			means[i] += y[j] / N0;
		}
		for (j = 0; j < N0; j++)
			ssw += (y[j] - means[i]) * (y[j] - means[i]);
		sum += means[i];
	}
	*b = (struct seq_baseline){ .k = k, .n0 = N0, .mean = sum / (double)k,
				    .df_b = (double)(k - 1),
				    .df_w = (double)(k * (N0 - 1)),
				    .runs = k * N0 };
	for (i = 0; i < k; i++)
		ssb += (means[i] - b->mean) * (means[i] - b->mean);
	b->msb = N0 * ssb / (double)(k - 1);
	b->ssw = ssw;
}

/*
 * One step: boot after boot of the candidate (higher is better, so a
 * loss lowers its level), each a `contend bisect` run (--continue from
 * the second on) with looks every EVERY runs up to MAX_RUNS; the next
 * boot only after a skip.  Returns the decision; *runs all the runs.
 */
static enum seq_decision one_step(const struct cell *c, gsl_rng *rng,
				  size_t *runs)
{
	double sb = c->cv * sqrt(c->icc), sw = c->cv * sqrt(1 - c->icc);
	struct seq_baseline b;
	struct seq_design d = { .delta = -log1p(-PCT), .dir = 1,
				.alpha = 0.05, .beta = 0.10,
				.max_runs = MAX_RUNS,
				.looks = MAX_RUNS / EVERY };
	struct seq_prior p = { 0 };
	struct seq_look l = { .decision = SEQ_CAP };
	double x[MAX_RUNS];
	size_t boot, n;

	draw_baseline(rng, c->k, sb, sw, &b);
	*runs = 0;
	for (boot = 0; boot < c->boots; boot++) {
		struct seq_state st = { 0 };
		double level = gsl_ran_gaussian(rng, sb) + log1p(-c->loss);

		l.decision = SEQ_CONTINUE;
		for (n = 0; n < MAX_RUNS && l.decision == SEQ_CONTINUE; n++) {
			x[n] = level + gsl_ran_gaussian(rng, sw);
			if ((n + 1) % EVERY)
				continue;
			assert_int_equal(seq_look_prior(&b, &d, &p, x, n + 1,
							0, &st, &l), 0);
		}
		*runs += n;
		if (l.decision != SEQ_CAP)
			break;
		seq_prior_add(&p, x, n, 0);
	}
	return l.decision;
}

static void simulate(const struct cell *c, size_t ntrials,
		     unsigned long seed, struct outcome *o)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t t, count[4] = { 0 }, total = 0;

	gsl_rng_set(rng, seed);
	for (t = 0; t < ntrials; t++) {
		size_t runs;

		count[one_step(c, rng, &runs)]++;
		total += runs;
	}
	for (t = 0; t < 4; t++)
		o->share[t] = (double)count[t] / (double)ntrials;
	o->runs = (double)total / (double)ntrials;
	gsl_rng_free(rng);
}

/* Two standard errors of a share p over n trials. */
static double two_se(double p, size_t n)
{
	return 2 * sqrt(p * (1 - p) / (double)n);
}

/*
 * The bound: ICC 0.3, a baseline of 5 boots, three boots of the
 * candidate: a 5% loss bad in >= 80% of steps, A/A bad in <= 5%.
 */
static void test_three_boots(void **state)
{
	const struct cell aa = { .cv = 0.02, .icc = 0.3, .k = 5, .boots = 3 };
	struct cell loss = aa;
	size_t n = trials(1500);
	struct outcome o0, o1;

	(void)state;
	loss.loss = 0.05;
	simulate(&aa, n, 901, &o0);
	simulate(&loss, n, 902, &o1);
	printf("  bisect, ICC 0.3, CV 2%%, baseline 5 x 10, three boots: A/A "
	       "bad %.3f skip %.3f; 5%% loss bad %.3f skip %.3f, mean runs "
	       "%.1f (%zu steps)\n", o0.share[SEQ_BAD], o0.share[SEQ_CAP],
	       o1.share[SEQ_BAD], o1.share[SEQ_CAP], o1.runs, n);
	assert_true(o0.share[SEQ_BAD] <= 0.05 + two_se(0.05, n));
	assert_true(o1.share[SEQ_BAD] >= 0.80 - two_se(0.80, n));
}

/*
 * A harder host, CV 4%, ICC 0.3, a baseline of 3 boots: the three-boot
 * step estimates s2_b from both kernels' boots (2 + 2 df, not the
 * baseline's 2), which takes the 5% loss from bad in 17.6% of these 1500
 * steps (s2_b and its df from the baseline alone) to 22.1%.
 */
static void test_pooled_df(void **state)
{
	const struct cell loss = { .cv = 0.04, .icc = 0.3, .k = 3,
				   .boots = 3, .loss = 0.05 };
	size_t n = trials(1500);
	struct outcome o;

	(void)state;
	simulate(&loss, n, 903, &o);
	printf("  bisect, ICC 0.3, CV 4%%, baseline 3 x 10, three boots: 5%% "
	       "loss bad %.3f skip %.3f, mean runs %.1f (%zu steps)\n",
	       o.share[SEQ_BAD], o.share[SEQ_CAP], o.runs, n);
	assert_true(o.share[SEQ_BAD] >= 0.20);
}

/*
 * The whole sequence of boots: a kernel continued after every skip, up
 * to the first boot and 4 more, is ever called bad when unchanged (A/A)
 * in at most alpha of steps, and a 5% loss ever called good in at most
 * beta, each within two standard errors, on the hosts where one alpha
 * and beta for every boot did worst (CV 4%, ICC 0.5, baselines of 3 and
 * 5 boots: A/A bad in 7.7% and 8.0% of 2000 steps, the loss good in
 * 14.1% and 15.3%).
 */
static void test_sequence(void **state)
{
	size_t n = trials(1500), k;

	(void)state;
	for (k = 3; k <= 5; k += 2) {
		struct cell aa = { .cv = 0.04, .icc = 0.5, .k = k,
				   .boots = 5 };
		struct cell loss = aa;
		struct outcome o0, o1;

		loss.loss = 0.05;
		simulate(&aa, n, 910 + k, &o0);
		simulate(&loss, n, 920 + k, &o1);
		printf("  bisect, ICC 0.5, CV 4%%, baseline %zu x 10, up to "
		       "five boots: A/A ever bad %.3f; 5%% loss ever good "
		       "%.3f (%zu steps)\n", k, o0.share[SEQ_BAD],
		       o1.share[SEQ_GOOD], n);
		assert_true(o0.share[SEQ_BAD] <= 0.05 + two_se(0.05, n));
		assert_true(o1.share[SEQ_GOOD] <= 0.10 + two_se(0.10, n));
	}
}

/* ---- the figures of docs/STATISTICS.md ---- */

static void figures(void)
{
	static const double cvs[] = { 0.02, 0.04 };
	static const double iccs[] = { 0, 0.1, 0.3, 0.5 };
	static const size_t ks[] = { 3, 5 }, boots[] = { 1, 3 };
	size_t n = trials(10000), row, q;
	struct outcome seq[2];

	printf("| CV | ICC | k | boots | A/A bad | good | skip | runs | "
	       "5%% loss bad | good | skip | runs | A/A bad, 5 | "
	       "loss good, 5 |\n"
	       "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	/* row = ((cv x 4 + icc) x 2 + k) x 2 + boots */
	for (row = 0; row < 2 * 4 * 2 * 2; row++) {
		size_t v = row / 16, i = row / 4 % 4, j = row / 2 % 2;
		size_t m = row % 2;

		printf("| %.0f%% | %.1f | %zu | %zu |", 100 * cvs[v], iccs[i],
		       ks[j], boots[m]);
		for (q = 0; q < 2; q++) {
			struct cell c = { cvs[v], iccs[i], ks[j], boots[m],
					  q ? 0.05 : 0 };
			struct outcome o;

			simulate(&c, n, 1000 + 1000 * v + 100 * i + 10 * j +
				 2 * m + q, &o);
			printf(" %.3f | %.3f | %.3f | %.1f |", o.share[SEQ_BAD],
			       o.share[SEQ_GOOD], o.share[SEQ_CAP], o.runs);
			/* the whole sequence: the first boot and 4 more */
			c.boots = 5;
			if (!m)
				simulate(&c, n, 5000 + 1000 * v + 100 * i +
					 10 * j + q, &seq[q]);
		}
		printf(" %.3f | %.3f |\n", seq[0].share[SEQ_BAD],
		       seq[1].share[SEQ_GOOD]);
		fflush(stdout);
	}
	printf("(%zu steps a cell; k baseline boots of %d runs; looks every "
	       "%d runs up to %d a boot; PCT 5%%; \"5\": over up to 5 "
	       "boots)\n", n, N0, EVERY, MAX_RUNS);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_boots),
		cmocka_unit_test(test_pooled_df),
		cmocka_unit_test(test_sequence),
	};

	if (argc > 1 && !strcmp(argv[1], "--figures")) {
		figures();
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
