/*
 * test_compare_extra.c - what a reviewer asks beside the verdict
 * (analysis/compare_extra.c): Benjamini-Hochberg against values worked by
 * hand (R's p.adjust(p, "BH") step by step), the beat count of invocation
 * pairs counted by hand, the secondary metrics of a configuration ranked
 * with the delayed contended path's hand-offs first, the mail format
 * within 72 columns, and a seeded A/A simulation of 15 secondary metrics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/compare.h"
#include "tests/checks.h"
#include "tests/dataset_fixture.h"
#include "tests/golden.h"

/*
 * p = 0.01 0.04 0.03 0.005 0.5 (and a NaN, left out): sorted 0.005 0.01
 * 0.03 0.04 0.5, m = 5, m p_(k) / k = 0.025 0.025 0.05 0.05 0.5, the
 * running minimum from the top leaves them so.
 */
static void test_bh_hand(void **state)
{
	const double p[] = { 0.01, 0.04, NAN, 0.03, 0.005, 0.5 };
	const double want[] = { 0.025, 0.05, NAN, 0.05, 0.025, 0.5 };
	double q[6];

	(void)state;
	compare_bh(p, 6, q);
	for (size_t i = 0; i < 6; i++)
		if (isnan(want[i]))
			assert_true(isnan(q[i]));
		else
			assert_true(fabs(q[i] - want[i]) < 1e-12);
	/* the running minimum: 0.04 * 2 / 2 = 0.04 falls under 0.03 * 2 = 0.06 */
	{
		const double p2[] = { 0.03, 0.04 }, w2[] = { 0.04, 0.04 };
		double q2[2];

		compare_bh(p2, 2, q2);
		for (size_t i = 0; i < 2; i++)
			assert_true(fabs(q2[i] - w2[i]) < 1e-12);
	}
	/* in place, as compare_extras calls it: the same q */
	{
		double pq[] = { 0.01, 0.04, NAN, 0.03, 0.005, 0.5 };

		compare_bh(pq, 6, pq);
		for (size_t i = 0; i < 6; i++)
			if (isnan(want[i]))
				assert_true(isnan(pq[i]));
			else
				assert_true(fabs(pq[i] - want[i]) < 1e-12);
	}
}

/*
 * Baseline invocation means 10 20 30 (runs 9,11 / 20 / 29,31), candidate
 * 15 25 35 20: higher is better, B wins 1 + 2 + 3 + 1 = 7 of 12, one tie
 * (20 against 20); lower is better, 2 + 1 + 0 + 1 = 4.  The exact rank
 * test of 3 against 4 reaches at best 2 / C(7, 3) = 2 / 35 > 0.05.
 */
static void test_beat_hand(void **state)
{
	const double xb[] = { 9, 11, 20, 29, 31 }, xc[] = { 15, 25, 35, 20 };
	const size_t sb[] = { 2, 1, 2 }, sc[] = { 1, 1, 1, 1 };
	struct compare_groups b = { xb, sb, 3 }, c = { xc, sc, 4 };
	struct compare_beat bt;

	(void)state;
	compare_beat_count(&b, &c, DIR_HIGHER, 0.95, &bt);
	assert_int_equal(bt.pairs, 12);
	assert_int_equal(bt.wins, 7);
	assert_int_equal(bt.ties, 1);
	assert_true(fabs(bt.p_min - 2.0 / 35) < 1e-12);
	assert_false(bt.reachable);
	compare_beat_count(&b, &c, DIR_LOWER, 0.95, &bt);
	assert_int_equal(bt.wins, 4);
	/* 4 against 4: 2 / 70 < 0.05 */
	c.k = 4;
	b = (struct compare_groups){ xc, sc, 4 };
	compare_beat_count(&b, &c, DIR_HIGHER, 0.95, &bt);
	assert_true(fabs(bt.p_min - 2.0 / 70) < 1e-12);
	assert_true(bt.reachable);
	/* one invocation a side: no pairs to count */
	b.k = 1;
	compare_beat_count(&b, &c, DIR_HIGHER, 0.95, &bt);
	assert_int_equal(bt.pairs, 0);
}

/* ---- whole comparisons of fixtures ---- */

#define NSEC 15                 /* secondary metrics beside handoff_rate */

struct side {
	struct fixture fx[8];
	struct dataset sets[8];
	struct analysis an[8];
	struct compare_side side;
	size_t k;
};

/*
 * k experiments of one configuration, runs of throughput tput, handoff_rate
 * hand and NSEC noise metrics m01.. (log-normal: invocation sd 0.05, run
 * sd 0.1), from rng.
 */
static void side_build(struct side *s, const char *name, size_t k,
		       size_t runs, double tput, double hand, gsl_rng *rng)
{
	memset(s, 0, sizeof(*s));
	s->k = k;
	for (size_t i = 0; i < k; i++) {
		struct fixture *fx = &s->fx[i];
		double inv[NSEC + 2];

		fx_init(fx, "ld");
		fx->d.exp.id = (int64_t)(name[0] * 10 + (int)i);
		fx_meta(fx, "kernel_release", name[0] == 'A' ? "6.8.0"
							     : "6.8.0-lockdep");
		fx_meta(fx, "cpu_model", "Test CPU");
		fx_meta(fx, "ncpus", "2");
		fx_config(fx, "spin", "pthread-mutex", "threads=2");
		for (size_t m = 0; m < NSEC + 2; m++)
			inv[m] = gsl_ran_gaussian(rng, 0.05);
		for (size_t r = 0; r < runs; r++) {
			char buf[1024];
			/* drawn in order: the order a call's arguments are
			 * evaluated in differs between compilers */
			double et = gsl_ran_gaussian(rng, 0.1);
			double eh = gsl_ran_gaussian(rng, 0.1);
			int at = snprintf(buf, sizeof(buf),
					  "throughput=%.17g handoff_rate=%.17g",
					  tput * exp(inv[0] + et),
					  hand * exp(inv[1] + eh));

			for (size_t m = 0; m < NSEC; m++)
				at += snprintf(buf + at, sizeof(buf) - (size_t)at,
					       " m%02zu=%.17g", m + 1,
					       100 * exp(inv[m + 2] +
							 gsl_ran_gaussian(rng,
									  0.1)));
			fx_run(fx, false, RUN_OK, buf, NULL, 0);
		}
		fx_finish(fx);
		s->sets[i] = fx->d;
		s->an[i].d = &s->sets[i];
		s->an[i].nconfigs = 1;
		s->an[i].configs = xcalloc(1, sizeof(*s->an[i].configs));
	}
	s->side = (struct compare_side){ name, false, k, s->sets, s->an };
}

static void side_free(struct side *s)
{
	for (size_t i = 0; i < s->k; i++) {
		free(s->an[i].configs);
		fx_free(&s->fx[i]);
	}
}

static void compare_of(struct side *b, struct side *c,
		       struct compare_result *r)
{
	struct compare_opts o;

	compare_opts_default(&o);
	o.dir = DIR_HIGHER;
	assert_int_equal(compare_sides(&b->side, &c->side, "throughput", &o,
				       r), 0);
	assert_int_equal(r->n, 1);
}

static void assert_fits(const char *txt, int width)
{
	int cols = 0;

	for (; *txt; txt++) {
		if (*txt == '\n')
			cols = 0;
		else if (((unsigned char)*txt & 0xc0) != 0x80 &&
			 ++cols > width)
			fail_msg("a line passes %d columns: %.100s", width,
				 txt - width);
	}
}

/*
 * The delayed contended path: throughput up 15%, hand-offs down 90%, 15
 * other metrics unchanged.  handoff_rate comes first with q < 0.05; the
 * mail stays within 72 columns and shows the star, the beat count and
 * handoff_rate under the row; JSON has every secondary metric.
 */
static void test_delayed_path(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct side b, c;
	struct compare_result r;
	struct compare_input ib = { 0 }, ic = { 0 };
	char *txt = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	gsl_rng_set(rng, 7);
	side_build(&b, "A", 4, 10, 1e7, 1e6, rng);
	side_build(&c, "B", 4, 10, 1.15e7, 1e5, rng);
	compare_of(&b, &c, &r);
	assert_int_equal(r.cmp[0].nsecond, NSEC + 1);
	assert_string_equal(r.cmp[0].second[0].name, "handoff_rate");
	assert_true(r.cmp[0].second[0].q < 0.05);
	assert_true(r.cmp[0].second[0].change_pct < -80);
	assert_int_equal(r.cmp[0].beat.pairs, 16);
	assert_true(r.cmp[0].beat.reachable);
	ib.text = "lockdep-off";
	ib.side = b.side;
	ic.text = "lockdep-on";
	ic.side = c.side;
	f = open_memstream(&txt, &len);
	compare_print_mail(f, &r, &ib, &ic, false);
	fclose(f);
	assert_fits(txt, 72);
	golden_check("tests/data/compare-mail.txt", txt, len);
	assert_non_null(strstr(txt, "A: 6.8.0, label none\n"));
	assert_non_null(strstr(txt, "B: 6.8.0-lockdep, label"));
	assert_non_null(strstr(txt, "design: A 4 x 10 runs, B 4 x 10 runs"));
	assert_non_null(strstr(txt, "] *\n"));
	assert_non_null(strstr(txt, "B beat A in "));
	assert_non_null(strstr(txt, "of 16 invocation pairs"));
	assert_non_null(strstr(strstr(txt, "also changed"), "handoff_rate"));
	assert_non_null(strstr(txt, "contend compare \\\n    lockdep-off \\\n"));
	free(txt);
	txt = NULL;
	f = open_memstream(&txt, &len);
	compare_print_json(f, &r, &ib, &ic);
	fclose(f);
	assert_non_null(strstr(txt, "\"secondary\":"));
	assert_non_null(strstr(txt, "\"m15\""));
	assert_non_null(strstr(txt, "\"wins\":"));
	free(txt);
	compare_result_release(&r);
	side_free(&b);
	side_free(&c);
	gsl_rng_free(rng);
}

/* Three invocations a side: the count is given, and why no rank test. */
static void test_beat_too_few(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct side b, c;
	struct compare_result r;
	char *t;

	(void)state;
	gsl_rng_set(rng, 11);
	side_build(&b, "A", 3, 5, 1e7, 1e6, rng);
	side_build(&c, "B", 3, 5, 1e7, 1e6, rng);
	compare_of(&b, &c, &r);
	t = compare_beat_text(&r.cmp[0], 0.95);
	assert_non_null(t);
	assert_non_null(strstr(t, "of 9 invocation pairs"));
	assert_non_null(strstr(t, "3 and 3 invocations are too few for a "
				  "rank test to reach 95% (at best p = 0.1)"));
	free(t);
	compare_result_release(&r);
	side_free(&b);
	side_free(&c);
	gsl_rng_free(rng);
}

/*
 * A/A, seeded: 16 secondary metrics (handoff_rate and m01..m15), 3
 * invocations of 5 runs a side, nothing changed.  Over the seeds the
 * metrics reported changed (q < 0.05) number at most one on average.
 */
static void test_aa_secondary(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t seeds = 200, flagged = 0, any = 0;

	(void)state;
	for (size_t s = 0; s < seeds; s++) {
		struct side b, c;
		struct compare_result r;
		size_t n = 0;

		gsl_rng_set(rng, 1000 + s);
		side_build(&b, "A", 3, 5, 1e7, 1e6, rng);
		side_build(&c, "B", 3, 5, 1e7, 1e6, rng);
		compare_of(&b, &c, &r);
		assert_int_equal(r.cmp[0].nsecond, NSEC + 1);
		for (size_t i = 0; i < r.cmp[0].nsecond; i++)
			n += r.cmp[0].second[i].q < 0.05;
		flagged += n;
		any += n > 0;
		compare_result_release(&r);
		side_free(&b);
		side_free(&c);
	}
	print_message("A/A: %zu flagged over %zu seeds (%zu with any)\n",
		      flagged, seeds, any);
	assert_true((double)flagged / (double)seeds <= 1.0);
	gsl_rng_free(rng);
}

/* Two experiments of 4 runs, throughput and sys_s from sys[][]. */
static void side_sys(struct side *s, const char *name,
		     const double sys[2][4])
{
	memset(s, 0, sizeof(*s));
	s->k = 2;
	for (size_t i = 0; i < 2; i++) {
		struct fixture *fx = &s->fx[i];

		fx_init(fx, "sys");
		fx->d.exp.id = (int64_t)(name[0] * 10 + (int)i);
		fx_config(fx, "spin", "pthread-mutex", "threads=2");
		for (size_t k = 0; k < 4; k++) {
			char buf[128];

			snprintf(buf, sizeof(buf), "throughput=%zu sys_s=%g",
				 1000 + k, sys[i][k]);
			fx_run(fx, false, RUN_OK, buf, NULL, 0);
		}
		fx_finish(fx);
		s->sets[i] = fx->d;
		s->an[i].d = &s->sets[i];
		s->an[i].nconfigs = 1;
		s->an[i].configs = xcalloc(1, sizeof(*s->an[i].configs));
	}
	s->side = (struct compare_side){ name, false, 2, s->sets, s->an };
}

/*
 * A secondary metric that is never below 0 but has zeros (a system time):
 * it is analysed on the linear scale, whose interval for a fall of 95%
 * with this spread reaches below -100%; a quantity of 0 or more cannot
 * fall by more than all of it, so the bound shown is -100%.
 */
static void test_second_floor(void **state)
{
	static const double sys_b[2][4] = { { 0, 4, 0, 4 }, { 4, 0, 6, 0 } };
	static const double sys_c[2][4] = { { 0, 0.2, 0, 0 }, { 0, 0, 0.2, 0 } };
	struct side b, c;
	struct compare_result r;
	size_t i;

	(void)state;
	side_sys(&b, "A", sys_b);
	side_sys(&c, "B", sys_c);
	compare_of(&b, &c, &r);
	for (i = 0; i < r.cmp[0].nsecond; i++)
		if (!strcmp(r.cmp[0].second[i].name, "sys_s"))
			break;
	assert_true(i < r.cmp[0].nsecond);
	assert_true(r.cmp[0].second[i].change_pct < -90);
	assert_true(r.cmp[0].second[i].change_pct > -100);
	assert_true(r.cmp[0].second[i].ci_low_pct >= -100 &&
		    r.cmp[0].second[i].ci_low_pct <= -100);
	compare_result_release(&r);
	side_free(&b);
	side_free(&c);
}

/*
 * The mail's stars: Holm over the rows' Welch p at 95%, worked by hand.
 * p 0.01 0.04 0.03: 3 x 0.01 = 0.03 < 0.05 stars the first; 2 x 0.03 =
 * 0.06 stops there.  p 0.03 and a row without one: the row counts, so
 * 2 x 0.03 = 0.06 stars nothing (counted as 1 row, 0.03 would pass).
 */
static char *mail_of(const double *p, size_t n)
{
	static const char *const names[] = { "one", "two", "three" };
	struct comparison cmp[3];
	struct compare_result r = { .n = n, .cmp = cmp };
	struct compare_input ib = { .text = "a" }, ic = { .text = "b" };
	char *txt = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&txt, &len);

	memset(cmp, 0, sizeof(cmp));
	r.opts.confidence = 0.95;
	for (i = 0; i < n; i++) {
		cmp[i].section = names[i];
		cmp[i].st.p_welch = p[i];
	}
	compare_print_mail(f, &r, &ib, &ic, false);
	fclose(f);
	return txt;
}

static void test_mail_holm(void **state)
{
	const double p3[] = { 0.01, 0.04, 0.03 }, p2[] = { 0.03, NAN };
	char *txt;

	(void)state;
	txt = mail_of(p3, 3);
	assert_non_null(strstr(txt, "\none "));
	assert_non_null(strstr(txt, "] *\ntwo "));
	assert_non_null(strstr(txt, "]\nthree "));
	assert_null(strstr(strstr(txt, "] *") + 3, "] *"));
	free(txt);
	txt = mail_of(p2, 2);
	assert_null(strstr(txt, "] *"));
	assert_non_null(strstr(txt, "Holm's correction for 2 rows"));
	free(txt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bh_hand),
		cmocka_unit_test(test_beat_hand),
		cmocka_unit_test(test_delayed_path),
		cmocka_unit_test(test_beat_too_few),
		cmocka_unit_test(test_aa_secondary),
		cmocka_unit_test(test_second_floor),
		cmocka_unit_test(test_mail_holm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
