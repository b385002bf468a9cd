/*
 * regimes_flag.c - the multimodal flag: a configuration whose runs fall
 * into two regimes of its primary metric, or whose contention rates are
 * an order of magnitude or more apart between runs (analysis/regimes.h).
 * Each regime is described by its share, level and interval; the runs of
 * the other regime are then not outliers (analysis/flags.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/regimes.h"
#include "lib/numfmt.h"
#include "lib/util.h"

/* Contention rates this many times apart are regimes. */
#define RATE_RATIO 10

static void add_numbers(struct flag *f, const struct regimes *g)
{
	flag_num(f, "d", g->d);
	flag_num(f, "critical", g->critical);
	flag_num(f, "n_low", (double)g->r[0].n);
	flag_num(f, "share_low", g->r[0].share);
	flag_num(f, "level_low", g->r[0].level);
	flag_num(f, "low_ci_low", g->r[0].lo);
	flag_num(f, "low_ci_high", g->r[0].hi);
	flag_num(f, "n_high", (double)g->r[1].n);
	flag_num(f, "share_high", g->r[1].share);
	flag_num(f, "level_high", g->r[1].level);
	flag_num(f, "high_ci_low", g->r[1].lo);
	flag_num(f, "high_ci_high", g->r[1].hi);
}

/* "70% (21 runs) at 100.0 [99.9, 100.1]" */
static char *regime_text(const struct regime *r)
{
	char ci[96];

	return xasprintf("%.0f%% (%zu run%s) at %s", 100 * r->share, r->n,
			 r->n == 1 ? "" : "s",
			 numfmt_ci(ci, sizeof(ci), r->level, r->lo, r->hi));
}

static void raise(const struct analysis *a, struct config_analysis *ca,
		  int m, const struct regimes *g, double mean, bool rates)
{
	char *lo = regime_text(&g->r[0]), *hi = regime_text(&g->r[1]);
	char mbuf[32], *why;
	struct flag *f;

	why = rates ? xstrdup("the runs did not contend alike")
		    : xasprintf("their mean %s describes no run, and the runs "
				"of the smaller regime are not outliers",
				numfmt(mbuf, sizeof(mbuf), mean));
	f = analysis_flag_add(ca, "multimodal", m, -1,
		"the runs of %s fall into two regimes: %s and %s (the groups "
		"are %.1f standard deviations of the wider one apart on the "
		"log scale, above the 5%% critical value %.2f at n = %zu%s): "
		"%s. "
		"Find what switches the regime (thread placement, a lock's "
		"fast or slow path, the frequency) and pin it, or compare the "
		"regimes one by one.",
		a->d->metrics[m], lo, hi, g->d, g->critical, g->n,
		rates ? ", and more than ten times apart" : "", why);
	add_numbers(f, g);
	free(why);
	free(lo);
	free(hi);
}

/* The measured values of metric m of ca, tested; false without them. */
static bool test_metric(const struct analysis *a,
			const struct config_analysis *ca, int m,
			struct regimes *g, double *mean)
{
	double *x = NULL;
	size_t n, i;
	double sum = 0;

	if (m < 0)
		return false;
	n = analysis_values(a->d, ca->config, m, &x);
	for (i = 0; i < n; i++)
		sum += x[i];
	*mean = n ? sum / (double)n : NAN;
	regimes_detect(x, n, a->opts.confidence, g);
	free(x);
	return g->tested;
}

bool regimes_flagged(const struct config_analysis *ca, int metric)
{
	size_t i;

	for (i = 0; i < ca->nflags; i++)
		if (!strcmp(ca->flags[i].name, "multimodal") &&
		    ca->flags[i].metric == metric)
			return true;
	return false;
}

void regimes_flag(const struct analysis *a, struct config_analysis *ca)
{
	int rate = dataset_metric(a->d, "contention_rate");
	struct regimes g;
	double mean;

	if (test_metric(a, ca, ca->primary, &g, &mean) && g.multimodal) {
		raise(a, ca, ca->primary, &g, mean, false);
		return;
	}
	if (rate >= 0 && rate != ca->primary &&
	    test_metric(a, ca, rate, &g, &mean) && g.multimodal &&
	    g.r[1].level > RATE_RATIO * g.r[0].level)
		raise(a, ca, rate, &g, mean, true);
}
