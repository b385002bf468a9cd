/*
 * observer.c - the observer-effect table (report.h): each observed
 * configuration paired with its observer = none twin of the same section,
 * the two ratios computed by the estimators the report's pair check uses;
 * and the table in the text and JSON reports, the misleading ones
 * explained.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report_impl.h"
#include "lib/json.h"
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
	stats_ratio_welch(tb, row->nbase, to, row->nobs, conf, &row->tput);
	stats_ratio_welch(hb, nhb, ho, nho, conf, &row->handoffs);
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

size_t observer_rows(const struct analysis *a, struct observer_row **rows)
{
	const struct dataset *d = a->d;
	size_t c, n = 0;

	*rows = NULL;
	for (c = 0; c < d->nconfigs; c++) {
		const char *o = ds_config_param(&d->configs[c], OBSERVER_KEY);
		long b;

		if (!o || !strcmp(o, OBSERVER_NONE))
			continue;
		b = base_of(d, c);
		if (b < 0)
			continue;
		*rows = xrealloc(*rows, (n + 1) * sizeof(**rows));
		(*rows)[n] = (struct observer_row){ .base = (size_t)b,
						    .config = c,
						    .observer = o };
		row_fill(a, &(*rows)[n++]);
	}
	return n;
}

/* ---- in the text and JSON reports ---- */

#define OBS_COL 13 /* observer names are cut to this many columns */

/* "0.950 [0.933, 0.968]", or "-" where it cannot be computed. */
static const char *ratio_cell(char *b, size_t len, const struct ratio *r)
{
	if (isnan(r->ratio))
		snprintf(b, len, "-");
	else if (isnan(r->ci_low_pct))
		snprintf(b, len, "%.3f", r->ratio);
	else
		snprintf(b, len, "%.3f [%.3f, %.3f]", r->ratio,
			 1 + r->ci_low_pct / 100, 1 + r->ci_high_pct / 100);
	return b;
}

void report_observer_text(FILE *f, const struct analysis *a)
{
	struct observer_row *rows;
	bool misleading = false;
	size_t n = observer_rows(a, &rows), i;

	if (!n)
		goto out;
	fprintf(f, "\nobserver effect: each observer / observer = none, "
		   "ratio of the runs' means\n(%g%% interval, log scale):\n",
		100 * a->opts.confidence);
	fprintf(f, "  %-8s %-*s %-21s %s\n", "config", OBS_COL, "observer",
		"throughput", "hand-offs/s");
	for (i = 0; i < n; i++) {
		const struct observer_row *r = &rows[i];
		char vs[24], tp[48], ho[48], *name = report_esc(r->observer);

		snprintf(vs, sizeof(vs), "%zu/%zu", r->config + 1, r->base + 1);
		cut(name, OBS_COL);
		fprintf(f, "  %-8s ", vs);
		pad(f, name, OBS_COL, false);
		fprintf(f, " %-21s %-*s%s\n",
			ratio_cell(tp, sizeof(tp), &r->tput),
			r->misleading ? 21 : 0,
			ratio_cell(ho, sizeof(ho), &r->handoffs),
			r->misleading ? " misleading" : "");
		misleading |= r->misleading;
		free(name);
	}
	fprintf(f, "  (config: observed/none, as numbered above; throughput "
		   "is each one's primary\n  metric)\n");
	if (misleading)
		fprintf(f, "  misleading: the observer raised throughput while "
			   "hand-offs per second fell:\n  it slowed the lock's "
			   "contended path, so waiters slept and one thread "
			   "ran\n  alone, as lockdep and lock tracing do; the "
			   "gain is the observer's, not the\n  lock's "
			   "(misleading-throughput below).\n");
out:
	free(rows);
}

static void json_ratio(struct json_writer *w, const char *key,
		       const struct ratio *r)
{
	json_open(w, key, '{');
	json_num(w, "ratio", r->ratio);
	json_num(w, "ci_low", 1 + r->ci_low_pct / 100);
	json_num(w, "ci_high", 1 + r->ci_high_pct / 100);
	json_num(w, "p", r->p);
	json_close(w, '}');
}

void report_observer_json(struct json_writer *w, const struct analysis *a)
{
	struct observer_row *rows;
	size_t n = observer_rows(a, &rows), i;

	if (!n)
		goto out;
	json_open(w, "observer_effect", '[');
	for (i = 0; i < n; i++) {
		const struct observer_row *r = &rows[i];

		json_open(w, NULL, '{');
		json_int(w, "config", cfg(a, r->config)->id);
		json_int(w, "base_config", cfg(a, r->base)->id);
		json_str(w, "observer", r->observer);
		json_str(w, "metric", r->metric);
		json_int(w, "n_base", (long long)r->nbase);
		json_int(w, "n_observed", (long long)r->nobs);
		json_ratio(w, "throughput", &r->tput);
		json_ratio(w, "handoff_rate", &r->handoffs);
		json_bool(w, "misleading", r->misleading);
		json_close(w, '}');
	}
	json_close(w, ']');
out:
	free(rows);
}
