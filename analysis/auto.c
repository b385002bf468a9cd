/*
 * auto.c - why a `repetitions = auto` configuration stopped, stated in the
 * report: the stopping rule (lib/stoprule.h) applied to the stored runs,
 * with the settings the runner stored with the experiment:
 * repetitions.SECTION and auto.SECTION.* (docs/STORAGE.md).
 *
 * An experiment stored before those keys existed (no repetitions.SECTION)
 * has the four settings read from its stored config text by a small inih
 * reader (legacy_rule), with the defaults those versions had; what that
 * reader cannot read leaves the configuration without a stated reason.
 */
#include <ctype.h>
#include <limits.h>
#include <ini.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/stoprule.h"
#include "lib/util.h"

/* The settings a section's rule is made of, as text. */
enum { K_REPETITIONS, K_PRECISION, K_MIN, K_MAX, NKEYS };

static const char *const rule_keys[NKEYS] = {
	[K_REPETITIONS] = "repetitions",
	[K_PRECISION] = "precision",
	[K_MIN] = "min_repetitions",
	[K_MAX] = "max_repetitions",
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

	if (!val[K_REPETITIONS] || strcmp(val[K_REPETITIONS], "auto") ||
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

/*
 * The rule the runner stored for section: 1 with *rule, 0 when the
 * section is not auto, -1 when the experiment has no such keys.
 */
static int stored_rule(const struct experiment_row *e, const char *section,
		       double confidence, struct stop_rule *rule)
{
	const char *val[NKEYS];
	size_t k;

	for (k = 0; k < NKEYS; k++) {
		char *key = k == K_REPETITIONS
				    ? xasprintf("repetitions.%s", section)
				    : xasprintf("auto.%s.%s", section,
						rule_keys[k]);

		val[k] = experiment_meta(e, key);
		free(key);
	}
	if (!val[K_REPETITIONS])
		return -1;
	return rule_of(val, confidence, rule);
}

/* ---- experiments stored before the settings were ---- */

struct legacy {
	const char *section;  /* the [workload SECTION] looked for */
	char *val[2][NKEYS];  /* [experiment]'s, then the section's */
};

static int on_pair(void *user, const char *section, const char *name,
		   const char *value)
{
	struct legacy *l = user;
	size_t k;
	int w;

	if (!strcmp(section, "experiment")) {
		w = 0;
	} else if (!strncmp(section, "workload", 8) &&
		   isspace((unsigned char)section[8])) {
		for (section += 8; isspace((unsigned char)*section); section++)
			;
		if (strcmp(section, l->section))
			return 1;
		w = 1;
	} else {
		return 1;
	}
	for (k = 0; k < NKEYS; k++)
		if (!strcmp(name, rule_keys[k])) {
			free(l->val[w][k]);
			l->val[w][k] = xstrdup(value);
		}
	return 1;
}

/*
 * The rule of section in the stored config text, as the versions that did
 * not store it read it: a section's key over [experiment]'s over the
 * defaults they had (repetitions 10, precision 0.02, min_repetitions 5,
 * max_repetitions 30).  True with *rule for an auto section.
 */
static bool legacy_rule(const struct experiment_row *e, const char *section,
		       double confidence, struct stop_rule *rule)
{
	static const char *const defaults[NKEYS] = { "10", "0.02", "5", "30" };
	struct legacy l = { .section = section };
	const char *val[NKEYS];
	size_t k;
	bool ret = false;

	/* Cheap test first: most experiments never used auto. */
	if (!e->config_text || !strstr(e->config_text, "auto"))
		return false;
	/* A line inih rejects (none did, or the config was refused) is
	 * skipped: the keys of the other lines still count. */
	if (ini_parse_string(e->config_text, on_pair, &l) >= 0) {
		for (k = 0; k < NKEYS; k++)
			val[k] = l.val[1][k] ? l.val[1][k]
			       : l.val[0][k] ? l.val[0][k] : defaults[k];
		ret = rule_of(val, confidence, rule);
	}
	for (k = 0; k < NKEYS; k++) {
		free(l.val[0][k]);
		free(l.val[1][k]);
	}
	return ret;
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
		int found = stored_rule(e, section, confidence, &rule);

		if (found < 0)
			found = legacy_rule(e, section, confidence, &rule);
		if (found > 0)
			auto_config(a, c, &rule);
	}
}
