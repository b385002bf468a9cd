/*
 * auto.c - why a `repetitions = auto` configuration stopped, stated in the
 * report: the runner's stopping rule (plan_auto_decide) applied to the
 * stored runs, with the settings of the experiment's own config text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "runner/config.h"
#include "runner/plan.h"
#include "lib/util.h"

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
			const struct config_entry *e, double confidence)
{
	struct config_analysis *ca = &a->configs[c];
	int m = ca->primary; /* what the runner watched, as it stored it */
	double *x = NULL, rel = NAN;
	size_t n = m < 0 ? 0 : analysis_values(a->d, c, m, &x);
	int planned = (int)(ca->measured + ca->failed + ca->pending);
	enum plan_stop s = plan_auto_decide(x, n, planned, &e->set,
					    confidence, &rel);

	ca->is_auto = true;
	ca->auto_stop = stop_reason(s, ca);
	ca->auto_rel_hw = rel;
	ca->auto_precision = e->set.precision;
	ca->auto_min = e->set.min_repetitions;
	ca->auto_max = e->set.max_repetitions;
	free(x);
}

void analysis_auto(struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	struct experiment_config cfg;
	size_t c, i;

	/* Cheap test first: most experiments never used auto. */
	if (!e->config_text || !strstr(e->config_text, "auto"))
		return;
	if (config_load_buffer(*e->config_path ? e->config_path : "(stored config)",
			       e->config_text, strlen(e->config_text), &cfg))
		return;
	/*
	 * Configurations are stored in expansion order (configs.pos), but a
	 * selector's filter may have dropped some: matched by identity.
	 */
	for (c = 0, i = 0; c < a->nconfigs; c++) {
		const struct ds_config *dc = &a->d->configs[c];

		while (i < cfg.nentries && (strcmp(cfg.entries[i].canon, dc->canon) ||
					    strcmp(cfg.entries[i].section,
						   dc->section)))
			i++;
		if (i == cfg.nentries)
			break;
		if (!cfg.entries[i].set.repetitions)
			auto_config(a, c, &cfg.entries[i], a->opts.confidence);
	}
	config_release(&cfg);
}
