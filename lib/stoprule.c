/*
 * stoprule.c - the stopping rule of `repetitions = auto` (stoprule.h):
 * a t interval of the mean, by GSL.
 */
#include <math.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "lib/stoprule.h"

enum plan_stop stop_rule_decide(const double *x, size_t n, int planned,
				const struct stop_rule *rule, double *rel_hw)
{
	size_t need = rule->min_repetitions > 2 ? (size_t)rule->min_repetitions
						: 2;

	*rel_hw = NAN;
	if (n >= need) {
		double mean = gsl_stats_mean(x, 1, n);
		double sd = gsl_stats_sd_m(x, 1, n, mean);
		double t = gsl_cdf_tdist_Pinv(1 - (1 - rule->confidence) / 2,
					      (double)(n - 1));

		if (fabs(mean) > 0)
			*rel_hw = t * sd / sqrt((double)n) / fabs(mean);
		if (*rel_hw <= rule->precision)
			return PLAN_PRECISION;
	}
	if (planned >= rule->max_repetitions)
		return PLAN_CAP;
	return PLAN_CONTINUE;
}
