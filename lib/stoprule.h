/*
 * stoprule.h - the stopping rule of `repetitions = auto`: after each round
 * of an auto configuration, whether to plan another, judged on the
 * measured values it has so far.  Pure statistics on an array, below both
 * users: the runner applies it to the results of its session
 * (runner/autorule.c), the report to the stored runs to say why a
 * configuration stopped (analysis/values.c), with the settings the runner
 * stored (docs/STORAGE.md, auto.SECTION.*).
 */
#ifndef CONTEND_STOPRULE_H
#define CONTEND_STOPRULE_H

#include <stddef.h>

/* The settings of one auto configuration. */
struct stop_rule {
	double precision;     /* target relative CI half-width, (0, 1) */
	int min_repetitions;
	int max_repetitions;
	double confidence;    /* of the interval, e.g. 0.95 */
};

enum plan_stop {
	PLAN_CONTINUE,     /* plan another round */
	PLAN_PRECISION,    /* the CI half-width reached the target */
	PLAN_CAP,          /* max_repetitions planned without reaching it */
};

/*
 * x[0..n-1] are the configuration's measured ok values of its primary
 * metric so far, in the order of their runs, and planned its measured
 * runs planned (failed runs count against the cap but give no value).
 * With n >= max(2, min_repetitions), the relative half-width
 * t(1-(1-confidence)/2, n-1) * sd / sqrt(n) / |mean|  is compared with
 * the precision; it is stored in *rel_hw (NAN when it cannot be
 * computed).  Precision reached wins over the cap.
 */
enum plan_stop stop_rule_decide(const double *x, size_t n, int planned,
				const struct stop_rule *rule, double *rel_hw);

#endif
