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
#include "db/vocab.h"
#include "lib/escape.h"
#include "lib/json.h"
#include "lib/numfmt.h"
#include "lib/util.h"
#include "lib/wrap.h"

/* "better", "worse" or "" for a change of pct in metric. */
static const char *judged(const char *metric, double pct)
{
	enum direction d = metric_direction(metric);

	if (d == DIR_UNKNOWN || !isfinite(pct))
		return "";
	return (pct > 0) == (d == DIR_HIGHER) ? ", better" : ", worse";
}

static void text_point_line(FILE *f, const struct history *h,
			    const struct history_config *c, size_t j)
{
	const struct change_point *cp = &c->cps[j];
	const struct history_point *p = &c->points[cp->index];
	const struct experiment_row *e = &h->exps[p->exp].exp;
	char pct[64];

	numfmt_pct_ci(pct, sizeof(pct), cp->change_pct, cp->ci_low_pct,
		      cp->ci_high_pct);
	fprintf(f, "  change from #%zu, experiment %" PRId64 " ", cp->index + 1,
		e->id);
	escape_fputs(f, e->label && *e->label ? e->label : e->name);
	fprintf(f, ": %s%s, p %.3g\n", pct, judged(h->opts.metric,
						   cp->change_pct), cp->p);
}

/* The level of each segment, geometric mean of its points' levels. */
static void text_segments(FILE *f, const struct history *h,
			  const struct history_config *c)
{
	size_t j, a = 0;

	fprintf(f, "  levels:");
	for (j = 0; j <= c->ncps; j++) {
		size_t b = j < c->ncps ? c->cps[j].index : c->npoints, i;
		double s = 0;
		char v[32];

		for (i = a; i < b; i++)
			s += c->points[i].level;
		fprintf(f, "%s #%zu-%zu %s", j ? "," : "", a + 1, b,
			numfmt(v, sizeof(v), exp(s / (double)(b - a))));
		a = b;
	}
	fprintf(f, " %s\n", metric_unit(h->opts.metric));
}

int history_write_text(FILE *f, const struct history *h)
{
	size_t c;
	char *line, *esc;

	line = xasprintf("history of %zu experiments matching '%s', oldest "
			 "first (#1 to #%zu); metric %s", h->nexps, h->pattern,
			 h->nexps, h->opts.metric);
	wrap_print(f, line, 0, 2, 78);
	free(line);
	for (c = 0; c < h->nconfigs; c++) {
		const struct history_config *hc = &h->configs[c];
		size_t j;

		line = xasprintf("[%s] %s %s", hc->section, hc->workload,
				 hc->canon);
		esc = escape_text_dup(line);
		fputc('\n', f);
		wrap_print(f, esc, 0, 4, 78);
		free(esc);
		free(line);
		fprintf(f, "  %zu experiment%s with runs", hc->npoints,
			hc->npoints == 1 ? "" : "s");
		if (hc->npoints < 2 * HISTORY_MINSEG) {
			fprintf(f, ": too few to look for a change (%zu or "
				   "more)\n", 2 * HISTORY_MINSEG);
			continue;
		}
		if (!hc->ncps) {
			fprintf(f, ": no change point\n");
			continue;
		}
		fprintf(f, ": %zu change point%s\n", hc->ncps,
			hc->ncps == 1 ? "" : "s");
		for (j = 0; j < hc->ncps; j++)
			text_point_line(f, h, hc, j);
		text_segments(f, h, hc);
	}
	line = xasprintf("Method: each experiment's level is the mean of "
			 "log(%s) over its measured runs; change points by "
			 "binary segmentation, each split kept when a "
			 "permutation test of the largest two-sample t (%u "
			 "permutations) gives p <= %g, so a series without a "
			 "change shows one with probability <= %g; a change "
			 "is the ratio of the geometric means of the segments "
			 "either side, %g%% Welch interval on the log scale.",
			 h->opts.metric, h->opts.perms, h->opts.alpha,
			 h->opts.alpha, 100 * h->opts.confidence);
	fputc('\n', f);
	wrap_print(f, line, 0, 0, 78);
	free(line);
	return ferror(f) ? error("writing the history: I/O error") : 0;
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
		json_int(w, "runs", (long long)p->n);
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
		json_int(w, "experiment_id",
			 h->exps[c->points[cp->index].exp].exp.id);
		json_num(w, "change_pct", cp->change_pct);
		json_num(w, "ci_low_pct", cp->ci_low_pct);
		json_num(w, "ci_high_pct", cp->ci_high_pct);
		json_num(w, "p", cp->p);
		json_close(w, '}');
	}
	json_close(w, ']');
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
	json_str(&w, "change_points", "binary segmentation; permutation "
		 "test of the largest two-sample t over the splits");
	json_num(&w, "alpha", h->opts.alpha);
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
