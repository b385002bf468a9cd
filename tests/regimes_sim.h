/*
 * regimes_sim.h - the shapes of data the regimes test is calibrated and
 * validated on (tests/test_regimes_sim.c, tests/test_regimes.c): values
 * as a run's metric has them, drawn from one seeded generator.
 */
#ifndef CONTEND_TESTS_REGIMES_SIM_H
#define CONTEND_TESTS_REGIMES_SIM_H

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/util.h"

enum shape {
	SH_NORMAL,      /* 100 + 2 N */
	SH_LOGNORMAL,   /* 100 exp(0.5 N): normal on the log scale */
	SH_T3,          /* 100 + 2 t(3) */
	SH_LOG_T3,      /* exp(t(3)): t(3) on the log scale */
	SH_GAMMA2,      /* gamma, shape 2, from 0 */
	SH_FAR_GAMMA2,  /* 1000 + gamma(2): gamma(2) on the log scale */
	SH_EXP,         /* exponential from 0 */
	SH_FAR_EXP,     /* 1000 + exponential */
	SH_UNIFORM,     /* 1000 + U(0, 1): flat on the log scale */
	SH_UNIFORM0,    /* U(0, 1): its log is minus an exponential */
	SH_SLOW,        /* 1000 + N, 10% of runs 3 to 5 sd slower */
	SH_MIX,         /* share p at 100, the rest at 110, CV cv each */
	NSHAPES
};

static const char *const shape_names[NSHAPES] = {
	"normal", "log-normal", "t(3)", "exp(t(3))", "gamma(2)",
	"1000+gamma(2)", "exponential", "1000+exponential", "uniform",
	"U(0,1)", "slow-run tail", "mixture",
};

/* One value of shape f (p and cv: the mixture's). */
static inline double shape_draw(gsl_rng *r, enum shape f, double p, double cv)
{
	double slow;

	switch (f) {
	case SH_NORMAL:
		return 100 + 2 * gsl_ran_gaussian(r, 1);
	case SH_LOGNORMAL:
		return 100 * exp(0.5 * gsl_ran_gaussian(r, 1));
	case SH_T3:
		return 100 + 2 * gsl_ran_tdist(r, 3);
	case SH_LOG_T3:
		return exp(gsl_ran_tdist(r, 3));
	case SH_GAMMA2:
		return gsl_ran_gamma(r, 2, 1);
	case SH_FAR_GAMMA2:
		return 1000 + gsl_ran_gamma(r, 2, 1);
	case SH_EXP:
		return gsl_ran_exponential(r, 1);
	case SH_FAR_EXP:
		return 1000 + gsl_ran_exponential(r, 1);
	case SH_UNIFORM:
		return 1000 + gsl_rng_uniform(r);
	case SH_UNIFORM0:
		return gsl_rng_uniform_pos(r);
	case SH_SLOW:
		/* both draws always, so the stream does not depend on p */
		slow = gsl_rng_uniform(r);
		return 1000 + gsl_ran_gaussian(r, 1) +
		       (slow < 0.1 ? 3 + 20 * slow : 0);
	case SH_MIX:
		return (gsl_rng_uniform(r) < p ? 100 : 110) *
		       (1 + cv * gsl_ran_gaussian(r, 1));
	case NSHAPES:
		break;
	}
	return NAN;
}

/* The binomial standard error of a rate p over reps samples. */
static inline double sim_se(double p, size_t reps)
{
	return sqrt(p * (1 - p) / (double)reps);
}

/* CONTEND_SIM_TRIALS when it is a positive integer, else def. */
static inline size_t sim_trials(size_t def)
{
	const char *env = getenv("CONTEND_SIM_TRIALS");
	long long v;

	return env && !parse_ll(env, &v) && v > 0 ? (size_t)v : def;
}

#endif
