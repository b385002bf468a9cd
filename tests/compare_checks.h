/*
 * compare_checks.h - what the comparison tests (tests/test_compare.c,
 * tests/test_compare_model.c) share: a value within a tolerance, the
 * options of a case, and the synthetic samples of the verdict cases,
 * which the dataset cases reuse.  Include after <cmocka.h>.
 */
#ifndef CONTEND_TESTS_COMPARE_CHECKS_H
#define CONTEND_TESTS_COMPARE_CHECKS_H

#include <math.h>

#include "analysis/compare.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static inline void close_to(const char *what, double got, double want,
			    double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: got %.10g, want %.10g (+-%g)", what, got, want,
			 tol);
}

static inline struct compare_opts opts(enum direction dir, double thr)
{
	struct compare_opts o;

	compare_opts_default(&o);
	o.dir = dir;
	o.threshold_pct = thr;
	/*
	 * The published and hand-worked cases are about values: on the
	 * linear scale, one invocation a side, the model is Welch's test.
	 */
	o.linear = true;
	return o;
}

/*
 * Three values per side with sd 1 (or 0.1, or 10) on both sides: the
 * Welch standard error is sd sqrt(2/3), df = 4 exactly, t(0.975, 4) =
 * 2.7764451 (R: qt(0.975, 4)), so the half-width is 2.2669579 sd.
 */
static const double b100[] = { 99, 100, 101 };
static const double c110[] = { 109, 110, 111 };
static const double b100s[] = { 99.9, 100, 100.1 };
static const double c100s[] = { 100, 100.1, 100.2 };
static const double b100w[] = { 90, 100, 110 };
static const double c102w[] = { 92, 102, 112 };
static const double e10[] = { 10.0, 10.1, 9.9 };
static const double e9[] = { 9.0, 9.1, 8.9 };

#endif
