/*
 * auto.c - why a `repetitions = auto` configuration stopped, stated in the
 * report: the stopping rule (lib/stoprule.h) applied to the stored runs,
 * with the settings the runner stored with the experiment:
 * repetitions.SECTION and auto.SECTION.* (db/contract.h).  An experiment
 * stored before those keys has them from its config text, written by the
 * store (contract_from_config).
 */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "db/contract.h"
#include "lib/stoprule.h"
#include "lib/util.h"

/* The settings a section's rule is made of, as text. */
enum { K_REPETITIONS, K_PRECISION, K_MIN, K_MAX, NKEYS };

static const enum contract_key rule_keys[NKEYS] = {
	[K_REPETITIONS] = CK_REPETITIONS,
	[K_PRECISION] = CK_AUTO_PRECISION,
	[K_MIN] = CK_AUTO_MIN,
	[K_MAX] = CK_AUTO_MAX,
};

/*
 * Text to rule: true with *rule when val names an auto section's
 * settings and they read as the runner checked them (precision in (0, 1),
 * counts of at least 2, min <= max).
 */
static bool rule_of(const char *const val[NKEYS], double confidence,
		    struct stop_rule *rule)
{
	long long min, max;

	if (!val[K_REPETITIONS] || strcmp(val[K_REPETITIONS], CV_AUTO) ||
	    !val[K_PRECISION] || !val[K_MIN] || !val[K_MAX] ||
	    parse_double(val[K_PRECISION], &rule->precision) ||
	    parse_ll(val[K_MIN], &min) || parse_ll(val[K_MAX], &max) ||
	    !(rule->precision > 0 && rule->precision < 1) || min < 2 ||
	    max < min || max > INT_MAX)
		return false;
	rule->min_repetitions = (int)min;
	rule->max_repetitions = (int)max;
	rule->confidence = confidence;
	return true;
}

/* The rule the runner stored for section: true with *rule when auto. */
static bool stored_rule(const struct experiment_row *e, const char *section,
			double confidence, struct stop_rule *rule)
{
	const char *val[NKEYS];
	size_t k;

	for (k = 0; k < NKEYS; k++)
		val[k] = contract_get(e, rule_keys[k], section, NULL);
	return rule_of(val, confidence, rule);
}

/* ---- the report's statement ---- */

static const char *stop_reason(enum plan_stop s, const struct config_analysis *ca)
{
	switch (s) {
	case PLAN_PRECISION:
		return "precision reached";
	case PLAN_CAP:
		return "cap reached (max_repetitions) before the precision";
	default:
		return ca->pending ? "unfinished (runs still planned)"
				   : "stopped before the rule was met";
	}
}

static void auto_config(struct analysis *a, size_t c,
			const struct stop_rule *rule)
{
	struct config_analysis *ca = &a->configs[c];
	int m = ca->primary; /* what the runner watched, as it stored it */
	double *x = NULL, rel = NAN;
	size_t n = m < 0 ? 0 : analysis_values(a->d, c, m, &x);
	int planned = (int)(ca->measured + ca->failed + ca->pending);
	enum plan_stop s = stop_rule_decide(x, n, planned, rule, &rel);

	ca->is_auto = true;
	ca->auto_stop = stop_reason(s, ca);
	ca->auto_rel_hw = rel;
	ca->auto_precision = rule->precision;
	ca->auto_min = rule->min_repetitions;
	ca->auto_max = rule->max_repetitions;
	free(x);
}

void analysis_auto(struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	/* The rule ran at the experiment's confidence, whatever the
	 * report's. */
	double confidence = e->confidence > 0 && e->confidence < 1
				    ? e->confidence : a->opts.confidence;
	struct stop_rule rule;
	size_t c;

	for (c = 0; c < a->nconfigs; c++) {
		const char *section = a->d->configs[c].section;

		if (stored_rule(e, section, confidence, &rule))
			auto_config(a, c, &rule);
	}
}
