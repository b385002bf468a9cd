/*
 * analysis_fixture.h - what the analysis tests (tests/test_analysis.c,
 * tests/test_analysis_pairs.c) build their datasets with: runs from a
 * deterministic noise pattern, runs of given values, and lookups of the
 * flags analysis_run raised.  Include after <cmocka.h>.
 */
#ifndef CONTEND_TESTS_ANALYSIS_FIXTURE_H
#define CONTEND_TESTS_ANALYSIS_FIXTURE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "tests/dataset_fixture.h"

#define assert_near(a, b, tol) \
	assert_true(fabs((double)(a) - (double)(b)) <= (tol))

/*
 * Deterministic "noise": a fixed pattern with mean 0 and sample sd
 * sqrt(234 / 9) = sqrt(26), scaled to sd 1.  Phases decorrelate metrics.
 */
static const double pattern[10] = { 3, -1, 4, -1, -5, 9, -2, -6, 5, -6 };

static inline double z(size_t i, size_t phase)
{
	return pattern[(i + phase) % 10] / sqrt(26.0);
}

/* One configuration's runs: means and CVs; rate < 0 omits hand-offs. */
struct spec {
	double tput, tput_cv;
	double rate, rate_cv;
	double cont, cont_cv;
};

static const uint64_t fair2[2] = { 1000000, 1000400 };

static inline void add_runs(struct fixture *fx, size_t n, const struct spec *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char m[256];
		int k = snprintf(m, sizeof(m), "throughput=%.17g contention_rate=%.17g "
				 "elapsed_s=2",
				 s->tput * (1 + s->tput_cv * z(i, 0)),
				 s->cont * (1 + s->cont_cv * z(i, 3)));

		if (s->rate >= 0)
			snprintf(m + k, sizeof(m) - (size_t)k, " handoff_rate=%.17g",
				 s->rate * (1 + s->rate_cv * z(i, 7)));
		fx_run(fx, false, RUN_OK, m, fair2, 2);
	}
}

/* Runs with exactly these throughput values (and equal thread ops). */
static inline void add_values(struct fixture *fx, const double *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char m[64];

		snprintf(m, sizeof(m), "throughput=%.17g", x[i]);
		fx_run(fx, false, RUN_OK, m, fair2, 2);
	}
}

static inline const struct flag *find_flag(const struct analysis *a, size_t c,
				    const char *name)
{
	size_t i;

	for (i = 0; i < a->configs[c].nflags; i++)
		if (!strcmp(a->configs[c].flags[i].name, name))
			return &a->configs[c].flags[i];
	return NULL;
}

static inline size_t count_flags(const struct analysis *a, const char *name)
{
	size_t c, i, n = 0;

	for (c = 0; c < a->nconfigs; c++)
		for (i = 0; i < a->configs[c].nflags; i++)
			n += !strcmp(a->configs[c].flags[i].name, name);
	return n;
}

static inline double flag_value(const struct flag *f, const char *key)
{
	size_t i;

	for (i = 0; i < f->nnums; i++)
		if (!strcmp(f->nums[i].key, key))
			return f->nums[i].value;
	fail_msg("flag %s has no number '%s'", f->name, key);
	return NAN;
}

static inline void analyse(struct fixture *fx, const struct analysis_opts *o,
		    struct analysis *a)
{
	fx_finish(fx);
	assert_int_equal(analysis_run(&fx->d, o, a), 0);
}

static inline void done(struct fixture *fx, struct analysis *a)
{
	analysis_release(a);
	fx_free(fx);
}

#endif
