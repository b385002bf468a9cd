/*
 * history_report.c - a history's change points as text for a person and
 * as JSON for a script (history.h; docs/report-json.md, "history").
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/history.h"
#include "analysis/report_impl.h"
#include "db/vocab.h"
#include "lib/escape.h"
#include "lib/json.h"
#include "lib/numfmt.h"
#include "lib/util.h"

/* "better", "worse" or "" for a change of pct in metric. */
static const char *judged(const char *metric, double pct)
{
	enum direction d = metric_direction(metric);

	if (d == DIR_UNKNOWN || !isfinite(pct))
		return "";
	return (pct > 0) == (d == DIR_HIGHER) ? ", better" : ", worse";
}

/* Experiment labels (else names) are cut to this many bytes, escaped. */
#define NAME_MAX_COLS 35

/*
 * One line (wrapped) about point i: "WHAT #i, experiment ID NAME: REST";
 * REST NULL: its runs <= 0 and their mean.
 */
static void text_point(FILE *f, const struct history *h,
		       const struct history_config *c, size_t i,
		       const char *what, const char *rest)
{
	const struct history_point *p = &c->points[i];
	const struct experiment_row *e = &h->exps[p->exp].exp;
	char name[NAME_MAX_COLS + 1], mean[32], tail[96];

	escape_clip(name, sizeof(name), e->label && *e->label ? e->label
				      : e->name, NAME_MAX_COLS);
	if (!rest) {
		snprintf(tail, sizeof(tail), "%zu of %zu runs <= 0, mean %s",
			 p->nonpos, p->n, numfmt(mean, sizeof(mean), p->mean));
		rest = tail;
	}
	report_wrap(f, "  ", 4, "%s #%zu, experiment %" PRId64 " %s: %s", what,
		    i + 1, e->id, name, rest);
}

static void text_cp(FILE *f, const struct history *h,
		    const struct history_config *c, const struct change_point *cp)
{
	char pct[64], rest[96];

	if (cp->kind != CP_LEVEL) {
		text_point(f, h, c, cp->index, cp->kind == CP_COLLAPSE ?
			   "collapse at" : "recovery at", cp->kind ==
			   CP_COLLAPSE ? NULL : "values > 0 again");
		return;
	}
	numfmt_pct_ci(pct, sizeof(pct), cp->change_pct, cp->ci_low_pct,
		      cp->ci_high_pct);
	snprintf(rest, sizeof(rest), "%s%s", pct,
		 judged(h->opts.metric, cp->change_pct));
	text_point(f, h, c, cp->index, "change from", rest);
}

/* The points without a level that are not change points: shown, never
 * dropped. */
static void text_unlevelled(FILE *f, const struct history *h,
			    const struct history_config *c)
{
	size_t i, j;

	for (i = 0; i < c->npoints; i++) {
		bool listed = false;

		for (j = 0; j < c->ncps; j++)
			listed |= c->cps[j].index == i;
		if (c->points[i].state == HP_OK || listed)
			continue;
		if (c->points[i].state == HP_MISSING)
			text_point(f, h, c, i, "missing at",
				   "no measured run with the metric");
		else
			text_point(f, h, c, i, "collapsed at", NULL);
	}
}

/*
 * The level of each segment: geometric mean of its points with a level
 * (no change point is at #1, so no segment is empty).
 */
static void text_segments(FILE *f, const struct history *h,
			  const struct history_config *c)
{
	size_t j, a = 0;
	char *line = xstrdup("");

	for (j = 0; j <= c->ncps; j++) {
		size_t b = j < c->ncps ? c->cps[j].index : c->npoints, i, n = 0;
		double s = 0;
		char v[32];

		for (i = a; i < b; i++)
			if (c->points[i].state == HP_OK) {
				s += c->points[i].level;
				n++;
			}
		line = report_cat(line, ", ", "#%zu-%zu %s", a + 1, b,
				  n ? numfmt(v, sizeof(v), exp(s / (double)n))
				    : "collapsed");
		a = b;
	}
	report_wrap(f, "  ", 4, "levels: %s %s", line,
		    metric_unit(h->opts.metric));
	free(line);
}

static const char *const verdict_words[] = {
	[GATE_NONE] = "not judged: not in the newest experiment",
	[GATE_PASS] = "no worse level",
	[GATE_FAIL] = "WORSE",
	[GATE_INCONCLUSIVE] = "inconclusive",
};

/* The gate's line of one configuration. */
static void text_gate(FILE *f, const struct history *h,
		      const struct history_config *c)
{
	const struct history_point *p = &c->points[c->npoints - 1];
	const struct change_point *g = &c->gate;
	char pct[64];

	if (c->verdict == GATE_NONE || isnan(g->change_pct)) {
		report_wrap(f, "  ", 4, "gate: %s%s", verdict_words[c->verdict],
			    c->verdict == GATE_NONE ? "" :
			    p->state == HP_COLLAPSED ? " (the newest collapsed)"
			    : p->state == HP_MISSING ?
			    " (the newest has no value)" :
			    " (too few experiments at the old level)");
		return;
	}
	numfmt_pct_ci(pct, sizeof(pct), g->change_pct, g->ci_low_pct,
		      g->ci_high_pct);
	report_wrap(f, "  ", 4, "gate: newest %s against the old level: %s (p "
		    "%.2g of worse by more than %g%%, Holm %.2g)", pct,
		    verdict_words[c->verdict], g->p, h->gate, c->gate_p_holm);
}

static void text_config(FILE *f, const struct history *h,
			const struct history_config *hc)
{
	size_t j, nok = 0;
	char sp[32] = "";       /* the series' p, when it has level changes */

	fputc('\n', f);
	report_wrap(f, "", 4, "[%s] %s %s", hc->section, hc->workload,
		    hc->canon);
	for (j = 0; j < hc->npoints; j++)
		nok += hc->points[j].state == HP_OK;
	for (j = 0; j < hc->ncps; j++)
		if (hc->cps[j].kind == CP_LEVEL)
			snprintf(sp, sizeof(sp), " (p %.2g)", hc->cps[j].p);
	fprintf(f, "  %zu experiment%s, %zu with a level", hc->npoints,
		hc->npoints == 1 ? "" : "s", nok);
	if (nok < 2 * HISTORY_MINSEG && !hc->ncps)
		fprintf(f, ": too few to look for a change (%zu or more)\n",
			2 * HISTORY_MINSEG);
	else if (!hc->ncps)
		fprintf(f, ": no change point\n");
	else
		fprintf(f, ": %zu change point%s%s\n", hc->ncps,
			hc->ncps == 1 ? "" : "s", sp);
	for (j = 0; j < hc->ncps; j++)
		text_cp(f, h, hc, &hc->cps[j]);
	text_unlevelled(f, h, hc);
	if (hc->ncps)
		text_segments(f, h, hc);
	if (h->gate >= 0)
		text_gate(f, h, hc);
}

int history_write_text(FILE *f, const struct history *h)
{
	size_t c;

	report_wrap(f, "", 2, "history of %zu experiments matching '%s', "
		    "oldest first (#1 to #%zu); metric %s", h->nexps,
		    h->pattern, h->nexps, h->opts.metric);
	for (c = 0; c < h->nconfigs; c++)
		text_config(f, h, &h->configs[c]);
	fputc('\n', f);
	report_wrap(f, "", 0, "Method: each experiment is one point, its "
		    "level the mean of log(%s) over its measured runs; a value "
		    "<= 0 is a collapse, a change point without a test.  The "
		    "levels are segmented by least squares with a penalty per "
		    "change set, by %u permutations of each series, so that a "
		    "series without a change shows one with probability <= %g, "
		    "however many changes it has.  A change is the ratio of the "
		    "geometric means either side, its %g%% interval widened for "
		    "the search (Bonferroni over the splits between its "
		    "neighbours).%s", h->opts.metric, h->opts.perms,
		    h->opts.alpha, 100 * h->opts.confidence,
		    h->gate >= 0 ? "  The gate: the newest level against the "
		    "last segment before it (a prediction interval), Holm over "
		    "the configurations." : "");
	return ferror(f) ? error("writing the history: I/O error") : 0;
}

static const char *const state_names[] = {
	[HP_OK] = "ok", [HP_COLLAPSED] = "collapsed", [HP_MISSING] = "missing",
};
static const char *const kind_names[] = {
	[CP_LEVEL] = "level", [CP_COLLAPSE] = "collapse",
	[CP_RECOVERY] = "recovery",
};

/* A change's size, interval and p: a change point's, or the gate's. */
static void json_change(struct json_writer *w, const struct change_point *cp)
{
	json_num(w, "change_pct", cp->change_pct);
	json_num(w, "ci_low_pct", cp->ci_low_pct);
	json_num(w, "ci_high_pct", cp->ci_high_pct);
	json_num(w, "p", cp->p);
}

static void json_config(struct json_writer *w, const struct history *h,
			const struct history_config *c)
{
	size_t i;

	json_open(w, NULL, '{');
	json_str(w, "workload", c->workload);
	json_str(w, "section", c->section);
	json_str(w, "params", c->canon);
	json_open(w, "points", '[');
	for (i = 0; i < c->npoints; i++) {
		const struct history_point *p = &c->points[i];

		json_open(w, NULL, '{');
		json_int(w, "experiment_id", h->exps[p->exp].exp.id);
		json_str(w, "state", state_names[p->state]);
		json_int(w, "runs", (long long)p->n);
		json_int(w, "runs_nonpositive", (long long)p->nonpos);
		json_num(w, "mean", p->mean);
		json_num(w, "level", exp(p->level));
		json_num(w, "ci_low", exp(p->lo));
		json_num(w, "ci_high", exp(p->hi));
		json_close(w, '}');
	}
	json_close(w, ']');
	json_open(w, "change_points", '[');
	for (i = 0; i < c->ncps; i++) {
		const struct change_point *cp = &c->cps[i];

		json_open(w, NULL, '{');
		json_int(w, "index", (long long)cp->index);
		json_str(w, "kind", kind_names[cp->kind]);
		json_int(w, "experiment_id",
			 h->exps[c->points[cp->index].exp].exp.id);
		json_change(w, cp);
		json_close(w, '}');
	}
	json_close(w, ']');
	if (h->gate >= 0) {
		json_open(w, "gate", '{');
		json_str(w, "verdict", gate_result_names[c->verdict]);
		json_change(w, &c->gate);
		json_num(w, "p_holm", c->gate_p_holm);
		json_close(w, '}');
	}
	json_close(w, '}');
}

int history_write_json(FILE *f, const struct history *h)
{
	struct json_writer w = { .f = f };
	size_t i;

	json_open(&w, NULL, '{');
	json_str(&w, "pattern", h->pattern);
	json_str(&w, "metric", h->opts.metric);
	json_open(&w, "experiments", '[');
	for (i = 0; i < h->nexps; i++) {
		const struct experiment_row *e = &h->exps[i].exp;

		json_open(&w, NULL, '{');
		json_int(&w, "id", e->id);
		json_str(&w, "name", e->name);
		json_str(&w, "label", e->label);
		json_close(&w, '}');
	}
	json_close(&w, ']');
	json_open(&w, "method", '{');
	json_str(&w, "change_points", "optimal partitioning (least squares) "
		 "with a penalty per change calibrated by permutation; "
		 "intervals Bonferroni over the splits between neighbours");
	json_num(&w, "alpha", h->opts.alpha);
	if (h->gate >= 0)
		json_num(&w, "fail_on_change_pct", h->gate);
	json_int(&w, "permutations", h->opts.perms);
	json_num(&w, "confidence", h->opts.confidence);
	json_close(&w, '}');
	json_open(&w, "configs", '[');
	for (i = 0; i < h->nconfigs; i++)
		json_config(&w, h, &h->configs[i]);
	json_close(&w, ']');
	json_close(&w, '}');
	fputc('\n', f);
	return ferror(f) ? error("writing the history: I/O error") : 0;
}
