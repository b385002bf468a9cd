/*
 * stats_impl.h - what stats.c and stats_nested.c share: argument checks
 * and the Student-t quantile and p-value.  Private to them.
 */
#ifndef CONTEND_STATS_IMPL_H
#define CONTEND_STATS_IMPL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_cdf.h>

#include "lib/util.h"

/* Exact equality without -Wfloat-equal's complaint: ties are exact here. */
static inline bool same(double a, double b)
{
	return !(a < b) && !(a > b);
}

static inline bool valid_confidence(double c)
{
	return c > 0.0 && c < 1.0;
}

static inline int check_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return error("stats: sample %zu of %zu is not a finite number",
				     i + 1, n);
	return 0;
}

/* Two-sided Student-t quantile t_{(1+c)/2, df}. */
static inline double t_crit(double confidence, double df)
{
	return gsl_cdf_tdist_Pinv((1.0 + confidence) / 2.0, df);
}

/* Two-sided p of a t statistic with df degrees of freedom. */
static inline double t_pvalue(double t, double df)
{
	return fmin(1.0, 2.0 * gsl_cdf_tdist_Q(fabs(t), df));
}

#endif
