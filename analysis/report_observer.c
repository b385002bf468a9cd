/*
 * report_observer.c - the observer-effect table (analysis/observer.h) in
 * the text and JSON reports: each observed configuration against its
 * observer = none twin, the ratios of throughput and of hand-offs per
 * second with their intervals, and the misleading ones explained.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/observer.h"
#include "analysis/report_impl.h"
#include "lib/json.h"

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
	struct observer_table t;
	bool misleading = false;
	size_t i;

	observer_table_build(a, &t);
	if (!t.n)
		goto out;
	fprintf(f, "\nobserver effect: each observer / observer = none, "
		   "ratio of the runs' means\n(%g%% interval, log scale):\n",
		100 * a->opts.confidence);
	fprintf(f, "  %-8s %-*s %-21s %s\n", "config", OBS_COL, "observer",
		"throughput", "hand-offs/s");
	for (i = 0; i < t.n; i++) {
		const struct observer_row *r = &t.rows[i];
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
	observer_table_release(&t);
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
	struct observer_table t;
	size_t i;

	observer_table_build(a, &t);
	if (!t.n)
		goto out;
	json_open(w, "observer_effect", '[');
	for (i = 0; i < t.n; i++) {
		const struct observer_row *r = &t.rows[i];

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
	observer_table_release(&t);
}
