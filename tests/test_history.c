/*
 * test_history.c - change points over a series (analysis/history.h): a
 * hand-worked series whose permutation p and adjusted interval are known
 * in closed form, bad arguments, and seeded simulations of what
 * docs/STATISTICS.md ("History") claims: a series without a change shows
 * one in at most alpha of series (K = 20 and 50), a transient +3% over
 * the middle third of 20 experiments at 1% CV is found in at least 60%,
 * a 3% step within one position in at least 90% with no spurious second
 * change beyond alpha, the sizes' intervals cover the true change after
 * the search, and --fail-on-change over 9 configurations fails at most
 * alpha of nightlies without a change (Holm).  CONTEND_SIM_TRIALS scales
 * the simulations; `make sim` runs them at full size and prints the
 * table of docs/STATISTICS.md.
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
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/history.h"
#include "lib/util.h"

static size_t trials(size_t quick)
{
	const char *t = getenv("CONTEND_SIM_TRIALS");
	long long n;

	if (t && parse_ll(t, &n) == 0 && n > 0)
		return (size_t)n;
	return quick;
}

/* The bound a rate of at most p shows over n trials: two standard errors. */
static double within(double p, size_t n)
{
	return p + 2 * sqrt(p * (1 - p) / (double)n);
}

/*
 * Six points, the first three 0.01 apart and the last three 0.06 higher.
 * The any-change statistic (largest n log(RSS0 / RSSk) / k) is 6 ln(58/4)
 * at the split 3|3 (RSS0 = 58e-4, RSS1 = 4e-4); the only other partition
 * with k <= 2 and two points a segment, 2|2|2, has RSS 9e-4 at best, and
 * a split 2|4 of any order leaves RSS >= 20.75e-4, so a permutation
 * reaches the statistic only when it keeps {0, .01, .02} on one side:
 * 2 x 3! x 3! of 6! = 0.1.  So at alpha 0.05 no change, at 0.2 one at
 * index 3, of exp(0.06) - 1 = +6.1837%, its interval on the fit's
 * residual sd 0.01 (4 df), se 0.01 sqrt(2/3), and Bonferroni over the 3
 * splits the search had: t(4) at 1 - 0.05/6 = 3.9607865 (the closed
 * form of the t(4) CDF, by bisection): [+2.8046%, +9.6737%].
 */
static void test_hand_worked(void **state)
{
	static const double y[] = { 0, 0.01, 0.02, 0.06, 0.07, 0.08 };
	struct history_opts o;
	struct change_point *cp;
	size_t n;

	(void)state;
	history_opts_default(&o);
	o.perms = 9999;
	assert_int_equal(history_change_points(y, 6, &o, &cp, &n), 0);
	assert_int_equal(n, 0);
	o.alpha = 0.2;
	assert_int_equal(history_change_points(y, 6, &o, &cp, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cp[0].index, 3);
	assert_int_equal(cp[0].kind, CP_LEVEL);
	/* 0.1, within Monte Carlo error of 9999 permutations (sd 0.003) */
	assert_true(fabs(cp[0].p - 0.1) < 0.012);
	assert_true(fabs(cp[0].change_pct - 6.183655) < 1e-5);
	assert_true(fabs(cp[0].ci_low_pct - 2.804641) < 1e-4);
	assert_true(fabs(cp[0].ci_high_pct - 9.673731) < 1e-4);
	free(cp);
}

/* Two changes, each a segment of eight, found where they are. */
static void test_two_steps(void **state)
{
	double y[24];
	struct history_opts o;
	struct change_point *cp;
	size_t n, i;

	(void)state;
	for (i = 0; i < 24; i++)
		y[i] = (i >= 8 ? 0.05 : 0) + (i >= 16 ? -0.10 : 0) +
		       0.002 * (double)((i * 7) % 5);
	history_opts_default(&o);
	assert_int_equal(history_change_points(y, 24, &o, &cp, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(cp[0].index, 8);
	assert_int_equal(cp[1].index, 16);
	assert_true(cp[0].change_pct > 4 && cp[0].change_pct < 6.5);
	/* a fall of 10% on the log scale: -9.5%, and never below -100% */
	assert_true(cp[1].change_pct < -8 && cp[1].change_pct > -11);
	assert_true(cp[1].ci_low_pct > -100);
	free(cp);
}

static void test_bad_arguments(void **state)
{
	static const double y[] = { 1, 2, 3, 4, 5 };
	struct history_opts o;
	struct change_point *cp;
	size_t n;

	(void)state;
	history_opts_default(&o);
	o.alpha = 0;
	assert_int_equal(history_change_points(y, 5, &o, &cp, &n), -1);
	history_opts_default(&o);
	o.perms = 0;
	assert_int_equal(history_change_points(y, 5, &o, &cp, &n), -1);
	/* too short to split with two points a side: nothing, no error */
	history_opts_default(&o);
	assert_int_equal(history_change_points(y, 3, &o, &cp, &n), 0);
	assert_int_equal(n, 0);
}

/* ---- seeded simulations ---- */

enum shape { NONE, STEP, TRANSIENT, STAIRCASE, DRIFT };
static const char *const shape_names[] = {
	"none", "step", "transient", "staircase", "drift",
};

/* What the simulation of one design found, as shares of its series. */
struct sim {
	double any;             /* some change point */
	double one, both;       /* one edge / both edges within one place */
	double extra;           /* a change point not within one of an edge */
	double more;            /* more change points than true changes */
	double two;             /* two change points or more */
	double cover;           /* intervals of changes found at an edge
				 * that hold the true change */
	size_t ncover;
};

/* The true log level of point i of len under shape, of size step. */
static double level_at(enum shape s, size_t i, size_t len, double step)
{
	size_t a = len / 3, b = 2 * len / 3;

	switch (s) {
	case STEP:
		return i >= len / 2 ? log1p(step) : 0;
	case TRANSIENT:
		return i >= a && i < b ? log1p(step) : 0;
	case STAIRCASE:
		return (i >= a) * log1p(step) + (i >= b) * log1p(step);
	case DRIFT:
		return log1p(step) * (double)i / (double)(len - 1);
	default:
		return 0;
	}
}

/* Does change point cp sit within one place of edge e (0: none)? */
static bool near(const struct change_point *cp, size_t e)
{
	return e && cp->index + 1 >= e && cp->index <= e + 1;
}

/* Tallies one series' change points into *r (counts, not shares). */
static void tally(const struct change_point *cp, size_t n, enum shape s,
		  size_t len, double step, struct sim *r)
{
	size_t a = s == STEP ? len / 2 : s == NONE || s == DRIFT ? 0 : len / 3;
	size_t b = s == TRANSIENT || s == STAIRCASE ? 2 * len / 3 : 0, i;
	/* the true change at an edge, in % */
	double truth = 100 * (s == TRANSIENT ? step : step);
	bool ea = false, eb = false, extra = false;

	for (i = 0; i < n; i++) {
		bool at_b = near(&cp[i], b), at_a = near(&cp[i], a);

		ea |= at_a;
		eb |= at_b;
		extra |= !at_a && !at_b;
		if (cp[i].index == (at_b ? b : a) && (at_a || at_b)) {
			double t = s == TRANSIENT && at_b ?
				100 * (1 / (1 + step) - 1) : truth;

			r->ncover++;
			r->cover += cp[i].ci_low_pct <= t &&
				    t <= cp[i].ci_high_pct;
		}
	}
	r->any += n > 0;
	r->one += ea || eb;
	r->both += b ? ea && eb : ea;
	r->extra += extra;
	r->more += n > (b ? 2u : a ? 1u : 0u);
	r->two += n >= 2;
}

/* ntrials series of len points, 1% CV, shape s of size step. */
static struct sim simulate(size_t ntrials, size_t len, enum shape s,
			   double step, unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double *y = xmalloc(len * sizeof(*y));
	struct history_opts o;
	struct sim r = { 0 };
	size_t t, i;

	gsl_rng_set(rng, seed);
	history_opts_default(&o);
	o.perms = 199;
	for (t = 0; t < ntrials; t++) {
		struct change_point *cp;
		size_t n;

		for (i = 0; i < len; i++)
			y[i] = level_at(s, i, len, step) +
			       gsl_ran_gaussian(rng, 0.01);
		o.seed = seed * 1000003 + t; /* not the data's stream */
		assert_int_equal(history_change_points(y, len, &o, &cp, &n), 0);
		tally(cp, n, s, len, step, &r);
		free(cp);
	}
	free(y);
	gsl_rng_free(rng);
	r.any /= (double)ntrials;
	r.one /= (double)ntrials;
	r.both /= (double)ntrials;
	r.extra /= (double)ntrials;
	r.more /= (double)ntrials;
	r.two /= (double)ntrials;
	r.cover = r.ncover ? r.cover / (double)r.ncover : NAN;
	return r;
}

static void print_sim(const char *what, size_t len, enum shape s,
		      double step, size_t n, const struct sim *r)
{
	printf("  history %-9s %+2.0f%% K=%-2zu any %.3f one edge %.3f both "
	       "%.3f elsewhere %.3f more %.3f two+ %.3f cover %.3f (%zu) of %zu\n",
	       shape_names[s], 100 * step, len, r->any, r->one, r->both,
	       r->extra, r->more, r->two, r->cover, r->ncover, n);
	(void)what;
}

/* A/A: at most alpha, for the whole series, at K = 20 and 50. */
static void test_sim_false_alarms(void **state)
{
	size_t n = trials(400);
	struct sim r20 = simulate(n, 20, NONE, 0, 1011);
	struct sim r50 = simulate(n / 2, 50, NONE, 0, 5012);

	(void)state;
	print_sim("A/A", 20, NONE, 0, n, &r20);
	print_sim("A/A", 50, NONE, 0, n / 2, &r50);
	assert_true(r20.any <= within(0.05, n));
	assert_true(r50.any <= within(0.05, n / 2));
}

/* A transient +3% over the middle third of 20 experiments at 1% CV. */
static void test_sim_transient(void **state)
{
	size_t n = trials(300);
	struct sim r = simulate(n, 20, TRANSIENT, 0.03, 31);

	(void)state;
	print_sim("transient", 20, TRANSIENT, 0.03, n, &r);
	assert_true(r.one >= 0.60);
	assert_true(r.both >= 0.60);
}

/*
 * A 3% step in the middle: found within one place in 90% at K = 20; at
 * K = 50 a second change point in at most alpha of series; and the
 * intervals of the changes found at the step hold it in >= 95% (1% and
 * 3% steps), after the search.
 */
static void test_sim_step(void **state)
{
	size_t n = trials(200);
	struct sim s20 = simulate(n, 20, STEP, 0.03, 21);
	struct sim s50 = simulate(n / 2, 50, STEP, 0.03, 22);
	struct sim s1 = simulate(n, 50, STEP, 0.01, 23);

	(void)state;
	print_sim("step", 20, STEP, 0.03, n, &s20);
	print_sim("step", 50, STEP, 0.03, n / 2, &s50);
	print_sim("step", 50, STEP, 0.01, n, &s1);
	assert_true(s20.one >= 0.90);
	assert_true(s50.more <= within(0.05, n / 2));
	assert_true(s20.cover >= 0.95 && s50.cover >= 0.95);
	assert_true(s1.ncover >= 20 && s1.cover >= 0.95);
}

/* A staircase of two +2% steps at K = 20: some change in nearly every
 * series, both steps in a quarter at least (34% at 400 series:
 * docs/STATISTICS.md, "History"). */
static void test_sim_staircase(void **state)
{
	size_t n = trials(200);
	struct sim r = simulate(n, 20, STAIRCASE, 0.02, 41);

	(void)state;
	print_sim("staircase", 20, STAIRCASE, 0.02, n, &r);
	assert_true(r.any >= 0.95);
	assert_true(r.both >= 0.25);
}

/*
 * The staircase's oracle: told both change positions (len/3, 2 len/3),
 * it tests each step with the two-sample t of the segments either side
 * (the residual sd of the true three-segment fit, len - 3 df) at 5%
 * two-sided; the share of series where both are shown.  What any search
 * that must also find the positions gives up is the difference.
 */
static double staircase_oracle(size_t ntrials, size_t len, double step,
			       unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const size_t e[4] = { 0, len / 3, 2 * len / 3, len };
	double tq = gsl_cdf_tdist_Qinv(0.025, (double)len - 3), y[64];
	size_t t, i, j, both = 0;

	assert_true(len <= 64);
	gsl_rng_set(rng, seed);
	for (t = 0; t < ntrials; t++) {
		double m[3] = { 0 }, ss = 0, sd;
		bool shown = true;

		for (i = 0; i < len; i++)
			y[i] = level_at(STAIRCASE, i, len, step) +
			       gsl_ran_gaussian(rng, 0.01);
		for (j = 0; j < 3; j++) {
			for (i = e[j]; i < e[j + 1]; i++)
				m[j] += y[i] / (double)(e[j + 1] - e[j]);
			for (i = e[j]; i < e[j + 1]; i++)
				ss += (y[i] - m[j]) * (y[i] - m[j]);
		}
		sd = sqrt(ss / ((double)len - 3));
		for (j = 0; j < 2; j++)
			shown &= fabs(m[j + 1] - m[j]) >
				 tq * sd * sqrt(1.0 / (double)(e[j + 1] - e[j]) +
						1.0 / (double)(e[j + 2] - e[j + 1]));
		both += shown;
	}
	gsl_rng_free(rng);
	return (double)both / (double)ntrials;
}

/*
 * The table of docs/STATISTICS.md, "History" (`make sim`: only when
 * CONTEND_SIM_TRIALS is set): every shape at K = 10, 20 and 50.
 */
static void test_sim_table(void **state)
{
	static const struct {
		enum shape s;
		double step;
	} rows[] = {
		{ NONE, 0 }, { STEP, 0.03 }, { STEP, 0.01 },
		{ TRANSIENT, 0.03 }, { STAIRCASE, 0.02 }, { DRIFT, 0.03 },
	};
	static const size_t lens[] = { 10, 20, 50 };
	size_t i, j, n;

	(void)state;
	if (!getenv("CONTEND_SIM_TRIALS"))
		return;
	n = trials(0);
	for (j = 0; j < ARRAY_SIZE(lens); j++)
		for (i = 0; i < ARRAY_SIZE(rows); i++) {
			struct sim r = simulate(n, lens[j], rows[i].s,
						rows[i].step, 100 * j + i + 1);

			print_sim("table", lens[j], rows[i].s, rows[i].step,
				  n, &r);
		}
	for (j = 0; j < ARRAY_SIZE(lens); j++)
		printf("  history staircase oracle +2%% K=%-2zu both %.3f of "
		       "%zu\n", lens[j],
		       staircase_oracle(n, lens[j], 0.02, 900 + j), n);
}

/* ---- --fail-on-change ---- */

/*
 * A nightly of nc configurations of len experiments at 1% CV, the newest
 * of configuration 0 moved by step: the share of nightlies history_gate
 * answers with each exit status (0, 3, 4).
 */
static void gate_sim(size_t ntrials, size_t nc, size_t len, double step,
		     double pct, unsigned long seed, double out[3])
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct history h;
	size_t t, c, i;

	memset(&h, 0, sizeof(h));
	memset(out, 0, 3 * sizeof(*out));
	history_opts_default(&h.opts);
	h.opts.perms = 199;
	h.nexps = len;
	h.nconfigs = nc;
	h.configs = xcalloc(nc, sizeof(*h.configs));
	for (c = 0; c < nc; c++) {
		h.configs[c].npoints = len;
		h.configs[c].points = xcalloc(len, sizeof(struct history_point));
	}
	gsl_rng_set(rng, seed);
	for (t = 0; t < ntrials; t++) {
		int ret;

		for (c = 0; c < nc; c++)
			for (i = 0; i < len; i++) {
				struct history_point *p =
					&h.configs[c].points[i];

				p->exp = i;
				p->state = HP_OK;
				p->level = gsl_ran_gaussian(rng, 0.01) +
					   (!c && i + 1 == len ? log1p(step) : 0);
			}
		h.opts.seed = seed + t;
		ret = history_gate(&h, pct);
		out[0] += ret == EXIT_OK;
		out[1] += ret == EXIT_REGRESSION;
		out[2] += ret == EXIT_INCONCLUSIVE;
	}
	for (i = 0; i < 3; i++)
		out[i] /= (double)ntrials;
	for (c = 0; c < nc; c++)
		free(h.configs[c].points);
	free(h.configs);
	gsl_rng_free(rng);
}

/*
 * Nine configurations, 20 experiments, 1% CV: without a change the gate
 * fails at most alpha of nightlies (Holm); with the newest of one 10%
 * worse it fails in >= 90% (at PCT 3); at PCT 5 a flat nightly passes in
 * >= 90% (each prediction interval +-2.2% or so).
 */
static void test_sim_gate(void **state)
{
	size_t n = trials(200);
	double aa[3], bad[3], wide[3];

	(void)state;
	gate_sim(n, 9, 20, 0, 0.5, 51, aa);
	gate_sim(n / 2, 9, 20, -0.10, 3, 52, bad);
	gate_sim(n / 2, 9, 20, 0, 5, 53, wide);
	printf("  history gate, 9 configurations of 20: no change, PCT 0.5: "
	       "exit 0 %.3f, 3 %.3f, 4 %.3f; newest -10%%, PCT 3: 3 %.3f; "
	       "no change, PCT 5: 0 %.3f\n", aa[0], aa[1], aa[2], bad[1],
	       wide[0]);
	assert_true(aa[1] <= within(0.05, n));
	assert_true(bad[1] >= 0.90);
	assert_true(wide[0] >= 0.90);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_worked),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_sim_false_alarms),
		cmocka_unit_test(test_sim_transient),
		cmocka_unit_test(test_sim_step),
		cmocka_unit_test(test_sim_staircase),
		cmocka_unit_test(test_sim_gate),
		cmocka_unit_test(test_sim_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
