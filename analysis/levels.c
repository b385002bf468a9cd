/*
 * levels.c - invocations of one level: selecting and loading them, matching
 * configurations across them, and the per-configuration computation
 * (variance components, the CI from invocation means, Kalibera & Jones's
 * runs-per-boot advice).  Output and the command live in levels_report.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "lib/escape.h"
#include "analysis/levels.h"
#include "analysis/analysis.h"
#include "db/select.h"
#include "lib/util.h"

const char *const levels_advice_names[] = {
	[ADVICE_INSUFFICIENT] = "insufficient",
	[ADVICE_NO_COST] = "no-run-cost",
	[ADVICE_NO_SPREAD] = "no-spread",
	[ADVICE_ONE_INVOCATION] = "one-invocation",
	[ADVICE_MORE_BOOTS] = "more-boots",
	[ADVICE_MORE_RUNS] = "more-runs",
	[ADVICE_KEEP] = "keep",
};

void levels_opts_default(struct levels_opts *o)
{
	*o = (struct levels_opts){
		.metric = "throughput",
		.boot_cost = LEVELS_BOOT_COST,
		.threshold_pct = 1,
	};
}

/* ---- the advice ---- */

/* Variance of the grand mean times the cost, up to the constant 1/time. */
static double plan_cost(double sb, double sw, double cr, double ci, double n)
{
	return (sb + sw / n) * (ci + n * cr);
}


void levels_advise(const struct anova *a, double n_now, double run_cost,
		   double boot_cost, struct level_plan *p)
{
	double sb = a->var_between, sw = a->var_within;
	bool cost_known = run_cost > 0 && isfinite(run_cost) &&
			  boot_cost >= 0 && isfinite(boot_cost);
	long now;

	*p = (struct level_plan){ .run_cost = run_cost, .boot_cost = boot_cost,
				  .n_now = n_now, .n_opt = NAN, .n_best = 0,
				  .gain = NAN, .advice = ADVICE_INSUFFICIENT };
	if (a->k < 2 || !isfinite(sb) || !isfinite(sw))
		return;
	if (!(sb + sw > 0)) {
		p->advice = ADVICE_NO_SPREAD;
		return;
	}
	/* With s2_b = 0 every extra boot only adds its cost. */
	if (!(sb > 0)) {
		p->n_opt = INFINITY;
		p->advice = ADVICE_ONE_INVOCATION;
		return;
	}
	if (cost_known)
		p->n_opt = sqrt(boot_cost * sw / (run_cost * sb));
	/* A positive estimate the F test cannot tell from 0 is not acted on. */
	if (isfinite(a->p) && a->p >= LEVELS_ALPHA) {
		p->advice = ADVICE_ONE_INVOCATION;
		return;
	}
	if (!cost_known) {
		p->advice = ADVICE_NO_COST;
		return;
	}
	/* compare's plan rounds r* the same way (stats_boot_plan). */
	p->n_best = stats_runs_best(sb, sw, boot_cost, run_cost, p->n_opt);
	p->gain = sqrt(plan_cost(sb, sw, run_cost, boot_cost, n_now) /
		       plan_cost(sb, sw, run_cost, boot_cost,
				 (double)p->n_best));
	now = lround(n_now);
	p->advice = p->n_best == now ? ADVICE_KEEP
		    : p->n_best < now ? ADVICE_MORE_BOOTS : ADVICE_MORE_RUNS;
}

/* ---- one configuration ---- */

static void config_derive(struct level_config *c)
{
	const struct anova *a = &c->anova;
	double tot = a->var_between + a->var_within;

	c->share_between = c->share_within = NAN;
	if (tot > 0) {
		c->share_between = a->var_between / tot;
		c->share_within = a->var_within / tot;
	}
	/* Kish's design effect: runs sharing a boot count as fewer runs. */
	c->n_eff = isfinite(a->icc) && isfinite(a->n0)
			   ? (double)c->n / (1.0 + (a->n0 - 1.0) * a->icc)
			   : NAN;
}

/* The values on compare's scale: logs when all are > 0 (malloc'd). */
static double *on_scale(const double *x, size_t n, bool linear, bool *log_scale)
{
	double *y = xcalloc(n ? n : 1, sizeof(*y));
	size_t i;

	*log_scale = !linear && n > 0;
	for (i = 0; i < n; i++)
		*log_scale = *log_scale && x[i] > 0;
	for (i = 0; i < n; i++)
		y[i] = *log_scale ? log(x[i]) : x[i];
	return y;
}

static void unscale_summary(struct summary *s)
{
	s->mean = exp(s->mean);
	s->ci_low = exp(s->ci_low);
	s->ci_high = exp(s->ci_high);
}

int levels_config_compute(const double *x, double run_cost,
			  const struct levels_opts *o, struct level_config *c)
{
	double conf = o->confidence > 0 ? o->confidence : 0.95, delta;
	size_t *sizes = xcalloc(c->k ? c->k : 1, sizeof(*sizes));
	const double *g = x;
	double *y = NULL;
	size_t i;
	int ret = -1;

	c->n = 0;
	c->boot = (struct boot_plan){ NAN, 0, 0, NAN, NAN };
	for (i = 0; i < c->k; g += c->inv[i].n, i++) {
		struct level_invocation *v = &c->inv[i];

		if (v->n == 0) {
			error("levels: invocation %zu of %zu has no values",
			      i + 1, c->k);
			goto out;
		}
		sizes[i] = v->n;
		c->n += v->n;
		v->mean = gsl_stats_mean(g, 1, v->n);
		v->sd = v->n > 1 ? gsl_stats_sd_m(g, 1, v->n, v->mean) : NAN;
	}
	y = on_scale(x, c->n, o->linear, &c->log_scale);
	if (stats_anova(y, sizes, c->k, &c->anova) < 0 ||
	    stats_summarize(y, c->n, conf, &c->pooled) < 0)
		goto out;
	/* The level and its interval as compare computes them. */
	c->grand = (struct summary){ .n = c->k, .mean = NAN };
	if (c->k) {
		if (stats_nested(y, sizes, c->k, &c->model) < 0)
			goto out;
		c->grand.mean = c->model.mean;
		stats_nested_ci(&c->model, conf, &c->grand.ci_low,
				&c->grand.ci_high);
	}
	if (c->log_scale) {
		unscale_summary(&c->grand);
		unscale_summary(&c->pooled);
	}
	/* One invocation says nothing of invocations: no interval here. */
	if (c->k < 2)
		c->grand.ci_low = c->grand.ci_high = NAN;
	config_derive(c);
	levels_advise(&c->anova, (double)c->n / (double)c->k, run_cost,
		      o->boot_cost, &c->plan);
	/* compare's plan from this level's components, compare's target. */
	delta = c->log_scale ? log1p(o->threshold_pct / 100)
			     : o->threshold_pct / 100 * fabs(c->grand.mean);
	if (c->k >= 2)
		stats_boot_plan(c->anova.var_between, c->anova.var_within,
				o->boot_cost, run_cost,
				(size_t)lround((double)c->n / (double)c->k),
				delta, 1 - conf, LEVELS_POWER, &c->boot);
	ret = 0;
out:
	free(y);
	free(sizes);
	return ret;
}

/* ---- selecting and loading the invocations ---- */

static bool same_level(const struct experiment_row *a,
		       const struct experiment_row *b)
{
	return !strcmp(a->name, b->name) && !strcmp(a->label, b->label);
}

static bool id_in(int64_t id, const int64_t *ids, int n)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static int level_cmp(const void *pa, const void *pb)
{
	const struct level *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : strcmp(a->label, b->label);
}

/* Loads experiment e into its level, appended when new (rows are oldest
 * first); an invocation the filters keep nothing of is left out. */
static int level_add(struct store *s, struct levels *l,
		     const struct experiment_row *e, const struct selector *pick)
{
	struct level *lv = NULL;
	struct dataset d;

	if (store_load(s, e->id, &d) < 0)
		return -1;
	if (pick && !select_filter_dataset(pick, &d)) {
		dataset_release(&d);
		return 0;
	}
	for (size_t i = 0; i < l->nlevels && !lv; i++)
		if (same_level(&l->levels[i].inv[0].exp, e))
			lv = &l->levels[i];
	if (!lv) {
		l->levels = xrealloc(l->levels,
				     (l->nlevels + 1) * sizeof(*l->levels));
		lv = memset(&l->levels[l->nlevels++], 0, sizeof(*lv));
	}
	lv->inv = xrealloc(lv->inv, (lv->ninv + 1) * sizeof(*lv->inv));
	lv->inv[lv->ninv++] = d;
	lv->name = lv->inv[0].exp.name;
	lv->label = lv->inv[0].exp.label;
	return 0;
}

static int levels_load_what(struct store *s, const char *selector,
			    const struct selector *pick, struct levels *l)
{
	int64_t *found = NULL, *all = NULL;
	struct experiment_row *rows = NULL;
	int nfound, nall = 0, i, j, ret = -1;
	bool sel;

	nfound = store_experiment_find(s, selector, &found);
	if (nfound <= 0) {
		if (nfound == 0) {
			error("no experiment matches '%s'",
			      escape_quote(selector));
			ret = -2;
		}
		goto out;
	}
	nall = store_experiment_list(s, &all);
	if (nall < 0)
		goto out;
	rows = xcalloc((size_t)nall + 1, sizeof(*rows));
	for (i = 0; i < nall; i++)
		if (store_experiment_get(s, all[i], &rows[i]) < 0)
			goto out;
	/* every experiment sharing a (name, label) with one the selector
	 * found: an id or uuid thereby selects its whole level */
	for (i = 0; i < nall; i++) {
		for (sel = false, j = 0; j < nall && !sel; j++)
			sel = id_in(rows[j].id, found, nfound) &&
			      same_level(&rows[i], &rows[j]);
		if (sel && level_add(s, l, &rows[i], pick) < 0)
			goto out;
	}
	if (l->nlevels)
		qsort(l->levels, l->nlevels, sizeof(*l->levels), level_cmp);
	ret = 0;
out:
	for (i = 0; i < nall; i++)
		experiment_row_release(&rows[i]);
	free(rows);
	free(found);
	free(all);
	return ret;
}

/* The filters as the output names them, "KEY=VALUE,..."; -2 after
 * error() when they kept nothing. */
static int levels_filter(struct levels *l, const struct selector *pick,
			 const char *what)
{
	l->filter = xstrdup("");
	for (size_t i = 0; i < pick->nfilters; i++) {
		char *t = xasprintf("%s%s%s=%s", l->filter, i ? "," : "",
				    pick->filters[i].key,
				    pick->filters[i].value);

		free(l->filter);
		l->filter = t;
	}
	if (l->nlevels)
		return 0;
	error("no configuration of the experiments that '%s' selects has "
	      "%s=%s%s",
	      escape_quote(what), escape_quote(pick->filters[0].key),
	      escape_quote(pick->filters[0].value),
	      pick->nfilters > 1 ? " and the other filters" : "");
	return -2;
}

int levels_load(struct store *s, const char *what,
		const struct selector *pick, struct levels *l)
{
	struct selector parsed = { 0 };
	const struct selector *sel;
	char err[256], *head = NULL;
	int ret = -2;

	memset(l, 0, sizeof(*l));
	levels_opts_default(&l->opts);
	if (!what || !*what) {
		error("levels: no experiment name or label given");
		return -2;
	}
	if (!pick) {
		if (select_parse(what, &parsed, err, sizeof(err))) {
			error("%s", err);
			goto out;
		}
		/* the selector without its filters: [DB:]WHAT[~newest] */
		if (parsed.nfilters)
			what = head = xasprintf("%s%s", parsed.head,
						parsed.newest ? "~newest" : "");
	}
	sel = pick ? pick : &parsed;
	ret = levels_load_what(s, what, sel->nfilters ? sel : NULL, l);
	if (!ret && sel->nfilters)
		ret = levels_filter(l, sel, what);
out:
	if (ret)
		levels_release(l);
	free(head);
	select_release(&parsed);
	return ret;
}

/* ---- the level's configurations, from the one model of runs ---- */

static int config_analyze(struct level *lv, const struct series *sr,
			  struct level_config *lc, const struct levels_opts *o)
{
	struct series_sample g;
	double run_cost;
	int ret;

	lc->workload = sr->workload;
	lc->section = sr->section;
	lc->canon = sr->canon;
	series_sample_metric(lv->inv, sr, o->metric, &g);
	lc->inv = xcalloc(g.k + 1, sizeof(*lc->inv));
	for (lc->k = 0; lc->k < g.k; lc->k++) {
		lc->inv[lc->k].inv = g.set[lc->k];
		lc->inv[lc->k].n = g.sizes[lc->k];
	}
	run_cost = o->run_cost > 0 ? o->run_cost
				   : g.nwall ? g.wall / (double)g.nwall : NAN;
	ret = levels_config_compute(g.x, run_cost, o, lc);
	series_sample_release(&g);
	return ret;
}

static bool metric_anywhere(const struct levels *l, const char *metric)
{
	for (size_t i = 0; i < l->nlevels; i++)
		for (size_t j = 0; j < l->levels[i].ninv; j++)
			if (dataset_metric(&l->levels[i].inv[j], metric) >= 0)
				return true;
	return false;
}

int levels_analyze(struct levels *l, const struct levels_opts *o)
{
	double conf;

	l->opts = *o;
	if (!metric_anywhere(l, o->metric)) {
		error("metric '%s' is in none of the selected experiments",
		      escape_quote(o->metric));
		return -2;
	}
	conf = o->confidence;
	if (!(conf > 0 && conf < 1) && l->nlevels)
		conf = l->levels[0].inv[0].exp.confidence;
	l->opts.confidence = conf > 0 && conf < 1 ? conf : 0.95;
	for (size_t i = 0; i < l->nlevels; i++) {
		struct level *lv = &l->levels[i];
		struct series_list sl;
		int ret = 0;

		/* configurations in first-seen order over the invocations */
		series_build(lv->inv, lv->ninv, &sl);
		lv->configs = xcalloc(sl.n + 1, sizeof(*lv->configs));
		lv->nconfigs = sl.n;
		for (size_t c = 0; c < lv->nconfigs && !ret; c++)
			ret = config_analyze(lv, &sl.s[c], &lv->configs[c],
					     &l->opts);
		series_release(&sl);
		if (ret < 0)
			return -1;
	}
	return 0;
}

void levels_release(struct levels *l)
{
	for (size_t i = 0; i < l->nlevels; i++) {
		struct level *lv = &l->levels[i];

		for (size_t c = 0; c < lv->nconfigs; c++)
			free(lv->configs[c].inv);
		free(lv->configs);
		for (size_t j = 0; j < lv->ninv; j++)
			dataset_release(&lv->inv[j]);
		free(lv->inv);
	}
	free(l->levels);
	free(l->filter);
	memset(l, 0, sizeof(*l));
}
