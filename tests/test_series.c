/*
 * test_series.c - the one model of runs (analysis/values.c): which runs
 * count and how they group, an experiment being one invocation however
 * many of its sections hold a configuration; and its readers, compare,
 * levels and calibrate, on experiments with two identical sections.  A
 * seeded simulation of such experiments, one or two a side, checks the
 * interval's coverage and the gate's A/A failure rate through
 * compare_sides (as `contend compare` judges).
 *
 * Independent values: the groupings are counted by hand from the runs
 * each case lists; the level of a balanced side is the geometric mean of
 * its runs (every invocation the same size), computed here from the
 * values.
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

#include "analysis/calibrate.h"
#include "analysis/compare.h"
#include "analysis/levels.h"
#include "analysis/analysis.h"
#include "tests/checks.h"
#include "tests/dataset_fixture.h"

/* ---- experiments of identical sections ---- */

/*
 * Experiment id: nsec sections s1.. of (w, a=1), nrun runs each whose
 * throughput is x[] in order (NULL: 1, 2, ...), then section other of
 * (w, a=2) with one run of 50.
 */
static void experiment(struct fixture *fx, int64_t id, size_t nsec,
		       size_t nrun, const double *x)
{
	char sec[16], m[64];
	size_t s, r;

	fx_init(fx, "exp");
	fx->d.exp.id = id;
	for (s = 0; s < nsec; s++) {
		snprintf(sec, sizeof(sec), "s%zu", s + 1);
		fx_config(fx, sec, "w", "a=1");
		for (r = 0; r < nrun; r++) {
			snprintf(m, sizeof(m), "throughput=%.17g",
				 x ? x[s * nrun + r] : (double)(s * nrun + r + 1));
			fx_run(fx, false, RUN_OK, m, NULL, 0);
		}
	}
	fx_config(fx, "other", "w", "a=2");
	fx_run(fx, false, RUN_OK, "throughput=50", NULL, 0);
	fx_finish(fx);
}

/* ---- the model ---- */

/*
 * Two experiments, each with sections s1 and s2 of (w, a=1): one series
 * of four members and two invocations; warm-up, failed and excluded runs
 * do not count.
 */
static void test_identical_sections(void **state)
{
	static const double x1[] = { 10, 11, 12, 13 }, x2[] = { 20, 21, 22, 23 };
	static const double want[] = { 11, 12, 13, 20, 21, 23 };
	struct fixture fx[2];
	struct dataset sets[2];
	struct series_list l;
	struct series_sample v;
	size_t i;

	(void)state;
	experiment(&fx[0], 1, 2, 2, x1);
	experiment(&fx[1], 2, 2, 2, x2);
	fx[0].d.runs[0].warmup = true;          /* 10 */
	fx[1].d.runs[2].status = RUN_FAILED;    /* 22 */
	for (i = 0; i < 2; i++)
		sets[i] = fx[i].d;
	series_build(sets, 2, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.s[0].canon, "a=1");
	assert_string_equal(l.s[0].section, "s1");
	assert_int_equal(l.s[0].n, 4);
	assert_int_equal(l.s[0].ninv, 2);
	assert_string_equal(l.s[1].canon, "a=2");
	assert_int_equal(l.s[1].ninv, 2);
	assert_int_equal(series_find(&l, "w", "a=2"), 1);
	assert_int_equal(series_find(&l, "w", "a=1"), 0);
	assert_int_equal(series_find(&l, "w", "a=3"), -1);
	assert_int_equal(series_find(&l, "v", "a=1"), -1);

	series_sample_metric(sets, &l.s[0], "throughput", &v);
	assert_int_equal(v.k, 2);
	assert_int_equal(v.sizes[0], 3);
	assert_int_equal(v.sizes[1], 3);
	assert_int_equal(v.set[0], 0);
	assert_int_equal(v.set[1], 1);
	assert_int_equal(v.n, 6);
	for (i = 0; i < 6; i++)
		check_close("value", v.x[i], want[i], 0, 0);
	assert_int_equal(v.nwall, 6);
	series_sample_release(&v);

	/* excluded (kwarn_exclude) does not count either */
	sets[1].runs[0].excluded = true;        /* 20 */
	series_sample_metric(sets, &l.s[0], "throughput", &v);
	assert_int_equal(v.sizes[1], 2);
	check_close("value", v.x[3], 21, 0, 0);
	series_sample_release(&v);
	series_release(&l);
	for (i = 0; i < 2; i++)
		fx_free(&fx[i]);
}

/* An experiment whose runs of a configuration all failed forms none. */
static void test_experiment_without_values(void **state)
{
	struct fixture fx[2];
	struct dataset sets[2];
	struct series_list l;
	struct series_sample v;
	size_t r;

	(void)state;
	experiment(&fx[0], 1, 2, 2, NULL);
	experiment(&fx[1], 2, 1, 3, NULL);
	for (r = 0; r < 4; r++)
		fx[0].d.runs[r].status = RUN_TIMEOUT;
	sets[0] = fx[0].d;
	sets[1] = fx[1].d;
	series_build(sets, 2, &l);
	assert_int_equal(l.s[0].ninv, 2);
	series_sample_metric(sets, &l.s[0], "throughput", &v);
	assert_int_equal(v.k, 1);
	assert_int_equal(v.set[0], 1);
	assert_int_equal(v.sizes[0], 3);
	series_sample_release(&v);
	/* a metric no run has: nothing */
	series_sample_metric(sets, &l.s[0], "nope", &v);
	assert_int_equal(v.k, 0);
	assert_int_equal(v.n, 0);
	series_sample_release(&v);
	series_release(&l);
	fx_free(&fx[0]);
	fx_free(&fx[1]);
}

/* ---- compare ---- */

struct side {
	struct dataset *sets;
	struct analysis *an;
	struct compare_side side;
};

/* A side of the fixtures' datasets (borrowed), with empty analyses. */
static void side_of(struct side *s, struct fixture *fx, size_t n,
		    const char *name)
{
	size_t i;

	s->sets = xcalloc(n, sizeof(*s->sets));
	s->an = xcalloc(n, sizeof(*s->an));
	for (i = 0; i < n; i++) {
		s->sets[i] = fx[i].d;
		s->an[i].d = &fx[i].d;
		s->an[i].nconfigs = fx[i].d.nconfigs;
		s->an[i].configs = xcalloc(fx[i].d.nconfigs,
					   sizeof(*s->an[i].configs));
		for (size_t c = 0; c < fx[i].d.nconfigs; c++)
			s->an[i].configs[c].config = c;
	}
	s->side = (struct compare_side){ name, false, n, s->sets, s->an };
}

static void side_free(struct side *s)
{
	for (size_t i = 0; i < s->side.nsets; i++)
		free(s->an[i].configs);
	free(s->an);
	free(s->sets);
}

static const struct compare_flag *find_flag(const struct comparison *c,
					    const char *name)
{
	for (size_t i = 0; i < c->nflags; i++)
		if (!strcmp(c->flags[i].name, name))
			return &c->flags[i];
	return NULL;
}

static int compare(struct side *b, struct side *c, struct compare_result *r)
{
	struct compare_opts o;

	compare_opts_default(&o);
	return compare_sides(&b->side, &c->side, "throughput", &o, r);
}

/*
 * Two experiments a side, two identical sections of 3 runs each: two
 * invocations of 6 runs a side, not four of 3.  The level of a balanced
 * side is the geometric mean of its 12 runs.
 */
static void test_compare_two_experiments(void **state)
{
	static const double v[4][6] = {
		{ 100, 101, 99, 102, 98, 100 }, { 103, 104, 102, 101, 105, 103 },
		{ 110, 111, 109, 112, 108, 110 }, { 113, 112, 114, 111, 115, 113 },
	};
	struct fixture fb[2], fc[2];
	struct side b, c;
	struct compare_result r;
	double lsum = 0;
	size_t i, j;

	(void)state;
	for (i = 0; i < 2; i++) {
		experiment(&fb[i], (int64_t)i + 1, 2, 3, v[i]);
		experiment(&fc[i], (int64_t)i + 3, 2, 3, v[i + 2]);
		for (j = 0; j < 6; j++)
			lsum += log(v[i][j]);
	}
	side_of(&b, fb, 2, "A");
	side_of(&c, fc, 2, "B");
	assert_int_equal(compare(&b, &c, &r), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.cmp[0].canon, "a=1");
	assert_int_equal(r.cmp[0].ubase.invocations, 2);
	assert_int_equal(r.cmp[0].ucand.invocations, 2);
	assert_int_equal(r.cmp[0].ubase.runs, 12);
	assert_int_equal(r.cmp[0].ucand.runs, 12);
	check_close("base level", r.cmp[0].st.base.mean, exp(lsum / 12),
		    1e-9, 0);
	assert_null(find_flag(&r.cmp[0], "single-invocation"));
	compare_result_release(&r);
	side_free(&b);
	side_free(&c);
	for (i = 0; i < 2; i++) {
		fx_free(&fb[i]);
		fx_free(&fc[i]);
	}
}

/* compare's text or JSON of r, malloc'd. */
static char *printed(const struct compare_result *r, struct side *b,
		     struct side *c, bool json)
{
	struct compare_input ib = { .text = "A", .role = "baseline",
				    .kind = INPUT_DB, .db = (char *)"x.db",
				    .nsets = b->side.nsets, .sets = b->sets };
	struct compare_input ic = { .text = "B", .role = "candidate",
				    .kind = INPUT_DB, .db = (char *)"x.db",
				    .nsets = c->side.nsets, .sets = c->sets };
	char *txt = NULL;
	size_t len;
	FILE *f = open_memstream(&txt, &len);

	assert_non_null(f);
	if (json)
		compare_print_json(f, r, &ib, &ic);
	else
		compare_print_text(f, r, &ib, &ic);
	assert_int_equal(fclose(f), 0);
	return txt;
}

/* One experiment a side, two identical sections: it says so. */
static void test_compare_one_experiment(void **state)
{
	static const double vb[] = { 100, 101, 99, 102, 98, 100 };
	static const double vc[] = { 110, 111, 109, 112, 108, 110 };
	struct fixture fb, fc;
	struct side b, c;
	struct compare_result r;
	const struct compare_flag *fl;
	char *txt;

	(void)state;
	experiment(&fb, 1, 2, 3, vb);
	experiment(&fc, 2, 2, 3, vc);
	side_of(&b, &fb, 1, "A");
	side_of(&c, &fc, 1, "B");
	assert_int_equal(compare(&b, &c, &r), 0);
	assert_int_equal(r.cmp[0].ubase.invocations, 1);
	assert_int_equal(r.cmp[0].ucand.invocations, 1);
	assert_int_equal(r.cmp[0].ubase.runs, 6);
	fl = find_flag(&r.cmp[0], "single-invocation");
	assert_non_null(fl);
	assert_string_equal(fl->side, "both");
	assert_contains(fl->message, "one experiment a side");
	txt = printed(&r, &b, &c, false);
	assert_contains(txt, "one experiment a side");
	assert_fits_80(txt);
	free(txt);
	txt = printed(&r, &b, &c, true);
	assert_contains(txt, "one experiment a side");
	free(txt);
	compare_result_release(&r);
	side_free(&b);
	side_free(&c);
	fx_free(&fb);
	fx_free(&fc);
}

/* ---- levels and calibrate ---- */

/* Levels reads both sections of an experiment as its one invocation. */
static void test_levels_identical_sections(void **state)
{
	struct levels l = { 0 };
	struct level *lv;
	struct levels_opts o;
	struct fixture fx;
	size_t i;

	(void)state;
	l.nlevels = 1;
	l.levels = lv = xcalloc(1, sizeof(*lv));
	lv->ninv = 2;
	lv->inv = xcalloc(2, sizeof(*lv->inv));
	for (i = 0; i < 2; i++) {
		experiment(&fx, (int64_t)i + 1, 2, 2 + i, NULL);
		lv->inv[i] = fx.d;      /* owned by the level now */
	}
	lv->name = lv->inv[0].exp.name;
	lv->label = lv->inv[0].exp.label;
	levels_opts_default(&o);
	assert_int_equal(levels_analyze(&l, &o), 0);
	assert_int_equal(lv->nconfigs, 2);
	assert_string_equal(lv->configs[0].canon, "a=1");
	assert_int_equal(lv->configs[0].k, 2);
	assert_int_equal(lv->configs[0].inv[0].n, 4);
	assert_int_equal(lv->configs[0].inv[1].n, 6);
	/* the invocation means: (1+2+3+4)/4 and (1+...+6)/6 */
	check_close("mean 1", lv->configs[0].inv[0].mean, 2.5, 1e-12, 0);
	check_close("mean 2", lv->configs[0].inv[1].mean, 3.5, 1e-12, 0);
	assert_int_equal(lv->configs[1].k, 2);
	levels_release(&l);
}

/* Calibrate's invocations: experiments, sections pooled, excluded out. */
static void test_calibrate_identical_sections(void **state)
{
	struct fixture fx[4];
	struct dataset sets[4];
	struct calib_profile p;
	size_t i, k, two;

	(void)state;
	for (i = 0; i < 4; i++) {
		experiment(&fx[i], (int64_t)i + 1, 2, 2, NULL);
		sets[i] = fx[i].d;
	}
	sets[0].runs[1].excluded = true;
	assert_int_equal(calib_profile_of(sets, 4, "w", "a=1", "throughput",
					  3, 10, &p, &k, &two), 0);
	assert_int_equal(k, 4);
	assert_int_equal(two, 4);
	assert_int_equal(p.k, 4);
	assert_int_equal(p.n, 15);
	/* a configuration of one run an experiment has no profile */
	assert_int_equal(calib_profile_of(sets, 4, "w", "a=2", "throughput",
					  3, 10, &p, &k, &two), -1);
	assert_int_equal(k, 4);
	assert_int_equal(two, 0);
	for (i = 0; i < 4; i++)
		fx_free(&fx[i]);
}

/*
 * Calibrate reads logs: a value <= 0 is left out, and an experiment with
 * none above 0 is no invocation (4 invocations of 3 + 4 + 4 + 4 runs).
 */
static void test_calibrate_positive_only(void **state)
{
	static const double x[5][4] = {
		{ 0, -1, 0, 0 }, { 1, 2, -3, 4 }, { 1, 2, 3, 4 },
		{ 2, 3, 4, 5 }, { 3, 4, 5, 6 },
	};
	struct fixture fx[5];
	struct dataset sets[5];
	struct calib_profile p;
	size_t i, k, two;

	(void)state;
	for (i = 0; i < 5; i++) {
		experiment(&fx[i], (int64_t)i + 1, 2, 2, x[i]);
		sets[i] = fx[i].d;
	}
	assert_int_equal(calib_profile_of(sets, 5, "w", "a=1", "throughput",
					  3, 10, &p, &k, &two), 0);
	assert_int_equal(k, 4);
	assert_int_equal(two, 4);
	assert_int_equal(p.k, 4);
	assert_int_equal(p.n, 15);
	for (i = 0; i < 5; i++)
		fx_free(&fx[i]);
}

/* ---- simulation: two identical sections an experiment ---- */

#define SIM_SECTIONS 2
#define SIM_RUNS 5              /* a section's runs */
#define SIM_CV 0.02

static size_t trials(void)
{
	const char *t = getenv("CONTEND_SIM_TRIALS");
	long long n;

	if (t && parse_ll(t, &n) == 0 && n > 0)
		return (size_t)n;
	return 2000;
}

/* New values for every run of (w, a=1): one boot's offset an experiment. */
static void draw(gsl_rng *rng, struct fixture *fx, size_t n, double sb)
{
	for (size_t i = 0; i < n; i++) {
		double off = sb > 0 ? gsl_ran_gaussian(rng, sb) : 0;
		struct dataset *d = &fx[i].d;

		for (size_t r = 0; r < SIM_SECTIONS * SIM_RUNS; r++)
			d->values[r * d->nmetrics] =
				1e6 * exp(off + gsl_ran_gaussian(rng, SIM_CV));
	}
}

struct sim {
	double coverage, aa;    /* of the 95% interval; gate at 0% */
};

static struct sim simulate(unsigned long seed, size_t kb, size_t kc,
			   double icc)
{
	double sb = sqrt(icc / (1 - icc)) * SIM_CV;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct fixture fb[2], fc[2];
	struct side b, c;
	size_t t, n = trials(), hit = 0, fail = 0, i;
	struct sim s;

	gsl_rng_set(rng, seed);
	for (i = 0; i < 2; i++) {
		experiment(&fb[i], (int64_t)i + 1, SIM_SECTIONS, SIM_RUNS, NULL);
		experiment(&fc[i], (int64_t)i + 3, SIM_SECTIONS, SIM_RUNS, NULL);
	}
	side_of(&b, fb, kb, "A");
	side_of(&c, fc, kc, "B");
	for (t = 0; t < n; t++) {
		struct compare_result r;

		draw(rng, fb, kb, sb);
		draw(rng, fc, kc, sb);
		assert_int_equal(compare(&b, &c, &r), 0);
		assert_int_equal(r.cmp[0].ubase.invocations, kb);
		assert_int_equal(r.cmp[0].ucand.invocations, kc);
		hit += r.cmp[0].st.change_ci_low_pct <= 0 &&
		       0 <= r.cmp[0].st.change_ci_high_pct;
		compare_gate(&r, 0);
		fail += r.cmp[0].gate_fail;
		compare_result_release(&r);
	}
	side_free(&b);
	side_free(&c);
	for (i = 0; i < 2; i++) {
		fx_free(&fb[i]);
		fx_free(&fc[i]);
	}
	gsl_rng_free(rng);
	s.coverage = (double)hit / (double)n;
	s.aa = (double)fail / (double)n;
	return s;
}

/*
 * The interval covers the true change (none) in 93-97% of trials and the
 * gate at 0% fails at most 5% of A/A builds plus two standard errors:
 * two experiments a side at ICC 0.3 and 0.5 (sections pooled: read as
 * two invocations each, the sections would hide the between-experiment
 * variance and the interval would be too narrow), two against one
 * at ICC 0.3 (the one borrows the other's between variance), one a side
 * at ICC 0 (no between variance to miss).
 */
static void test_sim_identical_sections(void **state)
{
	static const struct {
		const char *name;
		size_t kb, kc;
		double icc;
		bool gate;      /* its alpha is guaranteed: >= 3 in all */
	} d[] = {
		{ "2 vs 2, ICC 0.5", 2, 2, 0.5, true },
		{ "2 vs 2, ICC 0.3", 2, 2, 0.3, true },
		{ "2 vs 1, ICC 0.3", 2, 1, 0.3, true },
		{ "1 vs 1, ICC 0", 1, 1, 0, true },
	};
	double se = 2 * sqrt(0.05 * 0.95 / (double)trials());

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(d); i++) {
		struct sim s = simulate(4242 + i, d[i].kb, d[i].kc, d[i].icc);

		print_message("  %s: coverage %.2f%%, A/A gate failures "
			      "%.2f%% (%zu trials)\n", d[i].name,
			      100 * s.coverage, 100 * s.aa, trials());
		if (!(s.coverage >= 0.93 && s.coverage <= 0.97))
			fail_msg("%s: coverage %.4f outside [0.93, 0.97]",
				 d[i].name, s.coverage);
		if (d[i].gate && !(s.aa <= 0.05 + se))
			fail_msg("%s: the gate fails %.4f of A/A builds",
				 d[i].name, s.aa);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical_sections),
		cmocka_unit_test(test_experiment_without_values),
		cmocka_unit_test(test_compare_two_experiments),
		cmocka_unit_test(test_compare_one_experiment),
		cmocka_unit_test(test_levels_identical_sections),
		cmocka_unit_test(test_calibrate_identical_sections),
		cmocka_unit_test(test_calibrate_positive_only),
		cmocka_unit_test(test_sim_identical_sections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
