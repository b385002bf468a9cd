/*
 * observer.c - the observer-effect table (observer.h): each observed
 * configuration paired with its observer = none twin of the same
 * section, and the two ratios computed by the estimators the report's
 * pair check uses.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/observer.h"
#include "lib/util.h"

/* Whether b is a's twin: same section and parameters but the observer. */
static bool twins(const struct ds_config *a, const struct ds_config *b)
{
	size_t k;

	if (strcmp(a->section, b->section) || a->nparams != b->nparams)
		return false;
	for (k = 0; k < a->nparams; k++) {
		const char *v = ds_config_param(b, a->params[k].key);

		if (!v)
			return false;
		if (strcmp(a->params[k].key, OBSERVER_KEY) &&
		    strcmp(v, a->params[k].value))
			return false;
	}
	return true;
}

/* The none configuration of c's section with c's other parameters. */
static long base_of(const struct dataset *d, size_t c)
{
	size_t i;

	for (i = 0; i < d->nconfigs; i++) {
		const char *o = ds_config_param(&d->configs[i], OBSERVER_KEY);

		if (i != c && o && !strcmp(o, OBSERVER_NONE) &&
		    twins(&d->configs[c], &d->configs[i]))
			return (long)i;
	}
	return -1;
}

static void ratio_of(const double *a, size_t na, const double *b, size_t nb,
		     double confidence, struct ratio *r)
{
	if (stats_ratio_welch(a, na, b, nb, confidence, r) < 0)
		*r = (struct ratio){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
}

static void row_fill(const struct analysis *a, struct observer_row *row)
{
	const struct dataset *d = a->d;
	const struct config_analysis *ca = &a->configs[row->config];
	double *tb = NULL, *to = NULL, *hb = NULL, *ho = NULL;
	size_t nhb, nho;
	struct pair_side sb, so;
	struct handoff_check chk;
	double conf = a->opts.confidence;

	row->metric = ca->primary >= 0 ? d->metrics[ca->primary] : "-";
	row->nbase = ca->primary >= 0 ?
		analysis_values(d, row->base, ca->primary, &tb) : 0;
	row->nobs = ca->primary >= 0 ?
		analysis_values(d, row->config, ca->primary, &to) : 0;
	nhb = analysis_values_of(d, row->base, analysis_handoff_rate, &hb);
	nho = analysis_values_of(d, row->config, analysis_handoff_rate, &ho);
	ratio_of(tb, row->nbase, to, row->nobs, conf, &row->tput);
	ratio_of(hb, nhb, ho, nho, conf, &row->handoffs);
	/* the misleading-throughput rule, on throughput (never elapsed) */
	sb = (struct pair_side){ tb, hb, NULL, row->nbase, nhb, 0 };
	so = (struct pair_side){ to, ho, NULL, row->nobs, nho, 0 };
	if (ca->primary >= 0 && !strcmp(row->metric, "throughput") &&
	    row->nbase >= 2 && row->nobs >= 2) {
		analysis_handoff_check(&sb, &so, &a->opts, conf, &chk);
		row->misleading = chk.misleading;
	}
	free(tb);
	free(to);
	free(hb);
	free(ho);
}

void observer_table_build(const struct analysis *a, struct observer_table *t)
{
	const struct dataset *d = a->d;
	size_t c;

	memset(t, 0, sizeof(*t));
	for (c = 0; c < d->nconfigs; c++) {
		const char *o = ds_config_param(&d->configs[c], OBSERVER_KEY);
		long b;

		if (!o || !strcmp(o, OBSERVER_NONE))
			continue;
		b = base_of(d, c);
		if (b < 0)
			continue;
		t->rows = xrealloc(t->rows, (t->n + 1) * sizeof(*t->rows));
		t->rows[t->n] = (struct observer_row){ .base = (size_t)b,
						       .config = c,
						       .observer = o };
		row_fill(a, &t->rows[t->n++]);
	}
}

void observer_table_release(struct observer_table *t)
{
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
