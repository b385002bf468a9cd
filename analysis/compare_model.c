/*
 * compare_model.c - the statistical judgement of an A/B comparison: two
 * sides' samples (runs within experiments, or bare numbers) through the
 * two-level model to a change with its interval and a verdict, the rank
 * tests and the power figures beside it, the hand-off check, and the
 * three-way CI gate over all comparisons.  Sees nothing but samples,
 * options and results (compare.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/compare.h"
#include "lib/holm.h"
#include "lib/util.h"

double ministat_median(const double *x, size_t n)
{
	double *y, m;

	if (!n)
		return NAN;
	y = xmalloc(n * sizeof(*y));
	memcpy(y, x, n * sizeof(*y));
	gsl_sort(y, 1, n);
	m = y[n / 2];
	free(y);
	return m;
}

/* The verdict from the CI of the change, turned so that + is better. */
static enum verdict decide(double lo_pct, double hi_pct, enum direction dir,
			   double thr)
{
	double lo = dir == DIR_LOWER ? -hi_pct : lo_pct;
	double hi = dir == DIR_LOWER ? -lo_pct : hi_pct;

	if (isnan(lo) || isnan(hi))
		return VERDICT_INCONCLUSIVE;
	if (lo > thr)
		return VERDICT_FASTER;
	if (hi < -thr)
		return VERDICT_SLOWER;
	if (lo >= -thr && hi <= thr)
		return VERDICT_NO_CHANGE;
	return VERDICT_INCONCLUSIVE;
}

static size_t groups_total(const struct compare_groups *g)
{
	size_t i, n = 0;

	for (i = 0; i < g->k; i++)
		n += g->sizes[i];
	return n;
}

static bool all_positive(const struct compare_groups *g)
{
	size_t i, n = groups_total(g);

	for (i = 0; i < n; i++)
		if (!(g->x[i] > 0))
			return false;
	return true;
}

/* The values on the analysed scale (malloc'd). */
static double *scaled(const struct compare_groups *g, bool log_scale)
{
	size_t i, n = groups_total(g);
	double *y = xcalloc(n ? n : 1, sizeof(*y));

	for (i = 0; i < n; i++)
		y[i] = log_scale ? log(g->x[i]) : g->x[i];
	return y;
}

/* The model on the analysed scale, both sides. */
static int model_fit(const struct compare_groups *b,
		     const struct compare_groups *c, bool log_scale,
		     double confidence, struct nested_diff *m)
{
	double *yb = scaled(b, log_scale), *yc = scaled(c, log_scale);
	int ret = stats_nested_diff(yb, b->sizes, b->k, yc, c->sizes, c->k,
				    confidence, m);

	free(yb);
	free(yc);
	return ret;
}

/* A difference on the analysed scale as % of the baseline level. */
static double change_of(double d, double base_level, bool log_scale)
{
	if (log_scale)
		return 100 * expm1(d);
	return fabs(base_level) > 0 ? 100 * d / fabs(base_level) : NAN;
}

static void side_summary(const struct compare_groups *g, const struct nested *s,
			 bool log_scale, double confidence,
			 struct compare_summary *cs)
{
	size_t n = groups_total(g);
	double lo, hi;

	cs->n = n;
	cs->sd = n >= 2 ? gsl_stats_sd(g->x, 1, n) : NAN;
	stats_nested_ci(s, confidence, &lo, &hi);
	cs->mean = log_scale ? exp(s->mean) : s->mean;
	cs->ci_low = log_scale ? exp(lo) : lo;
	cs->ci_high = log_scale ? exp(hi) : hi;
}

/*
 * The unit sample of the rank test and Hedges' g: the invocation means
 * when both sides have several invocations, else the runs.
 */
static void rank_tests(const struct compare_groups *b,
		       const struct compare_groups *c, struct compare_stats *r)
{
	const struct compare_groups *g[2] = { b, c };
	bool means = b->k >= 2 && c->k >= 2;
	double *m[2] = { NULL, NULL };
	size_t n[2], i, j, off;
	struct mannwhitney mw;

	for (i = 0; i < 2; i++) {
		n[i] = means ? g[i]->k : groups_total(g[i]);
		if (!means)
			continue;
		m[i] = xcalloc(n[i], sizeof(*m[i]));
		for (j = 0, off = 0; j < n[i]; off += g[i]->sizes[j], j++)
			m[i][j] = gsl_stats_mean(g[i]->x + off, 1,
						 g[i]->sizes[j]);
	}
	if (n[0] >= 2 && n[1] >= 2) {
		const double *ub = means ? m[0] : b->x;
		const double *uc = means ? m[1] : c->x;

		if (stats_mannwhitney(ub, n[0], uc, n[1], &mw) == 0) {
			r->p_mannwhitney = mw.p;
			r->mw_exact = mw.exact;
		}
		r->hedges_g = stats_hedges_g(ub, n[0], uc, n[1]);
	}
	free(m[0]);
	free(m[1]);
}

/*
 * The two sides' variance components averaged (*sb between, *sw within
 * invocations) and the runs an invocation, about: what the plans and the
 * detectable change are figured from (stats_boot_plan, the one levels
 * prints); 0 when they are unknown.
 */
static size_t components(const struct compare_stats *st, double *sb,
			 double *sw)
{
	const struct nested *a = &st->model.a, *b = &st->model.b;

	*sb = (a->var_between + b->var_between) / 2;
	*sw = (a->var_within + b->var_within) / 2;
	if (!isfinite(*sb) || !isfinite(*sw) || !(a->k + b->k))
		return 0;
	return (size_t)lround((double)(a->n + b->n) / (double)(a->k + b->k));
}

/*
 * The smallest change detectable now, and the plan that would resolve
 * the threshold: B boots of R runs a side.
 */
static void power_figures(const struct compare_opts *o,
			  struct compare_stats *r)
{
	double sb, sw, alpha = 1 - o->confidence, mde, delta;
	size_t k = (r->model.a.k + r->model.b.k + 1) / 2; /* a side, about */
	size_t n = components(r, &sb, &sw);

	if (!n)
		return;
	/*
	 * Detectable now: from the interval's own se and df, so the figure
	 * agrees with the interval printed beside it (a side of one
	 * invocation against two is on K - 2 = 1 df, not a design of 2 a
	 * side); the components' formula when the model has no se.
	 */
	if (r->model.se > 0 && isfinite(r->model.df))
		mde = (gsl_cdf_tdist_Pinv(1 - alpha / 2, r->model.df) +
		       gsl_cdf_tdist_Pinv(o->power, r->model.df)) *
		      r->model.se;
	else
		mde = stats_nested_mde(sb, sw, n, k, alpha, o->power);
	r->mde_pct = change_of(mde, r->model.a.mean, r->log_scale);
	if (r->verdict != VERDICT_INCONCLUSIVE)
		return;
	delta = r->log_scale ? log1p(o->threshold_pct / 100)
			     : o->threshold_pct / 100 * fabs(r->model.a.mean);
	if (stats_boot_plan(sb, sw, o->boot_cost, o->run_cost, n, delta, alpha,
			    o->power, &r->plan) < 0 || !r->plan.boots)
		return;
	r->needed_invocations = r->plan.boots;
	r->needed_runs = r->plan.boots * r->plan.runs;
}

/* 0 when o can be judged by, else -1 after error(). */
static int check_opts(const struct compare_opts *o)
{
	if (o->dir != DIR_HIGHER && o->dir != DIR_LOWER)
		return error("compare: the metric's direction is unknown");
	if (!(o->confidence > 0 && o->confidence < 1))
		return error("compare: confidence must lie in (0, 1)");
	if (!(o->threshold_pct >= 0) || !(o->power > 0 && o->power < 1))
		return error("compare: threshold must be >= 0, power in (0, 1)");
	return 0;
}

int compare_model(const struct compare_groups *base,
		  const struct compare_groups *cand,
		  const struct compare_opts *o, struct compare_stats *r)
{
	size_t nb = groups_total(base), nc = groups_total(cand);
	const struct nested_diff *m = &r->model;

	if (!nb || !nc)
		return error("compare: the %s has no values",
			     nb ? "candidate" : "baseline");
	if (check_opts(o) < 0)
		return -1;
	memset(r, 0, sizeof(*r));
	r->plan.runs_opt = NAN;
	r->p_mannwhitney = r->hedges_g = r->mde_pct = NAN;
	r->log_scale = !o->linear && all_positive(base) && all_positive(cand);
	if (model_fit(base, cand, r->log_scale, o->confidence,
		      &r->model) < 0)
		return -1;
	side_summary(base, &m->a, r->log_scale, o->confidence, &r->base);
	side_summary(cand, &m->b, r->log_scale, o->confidence, &r->cand);
	r->df = m->df;
	r->p_welch = m->p;
	r->change_pct = change_of(m->diff, m->a.mean, r->log_scale);
	r->change_ci_low_pct = change_of(m->ci_low, m->a.mean, r->log_scale);
	r->change_ci_high_pct = change_of(m->ci_high, m->a.mean, r->log_scale);
	r->diff = r->cand.mean - r->base.mean;
	r->diff_ci_low = r->change_ci_low_pct / 100 * fabs(r->base.mean);
	r->diff_ci_high = r->change_ci_high_pct / 100 * fabs(r->base.mean);
	rank_tests(base, cand, r);
	r->verdict = decide(r->change_ci_low_pct, r->change_ci_high_pct,
			    o->dir, o->threshold_pct);
	r->improved = o->dir == DIR_HIGHER ? m->ci_low > 0 : m->ci_high < 0;
	power_figures(o, r);
	return 0;
}

/*
 * The fall in every pair of invocations: for each baseline invocation i
 * and candidate invocation j, the ratio of their runs' means
 * (stats_ratio_welch, the report's estimator) is significantly below 1
 * (p < alpha) and by >= handoff_drop.  Each pair shares no boot, so its
 * test is valid; requiring all of them is conservative.
 */
static bool fell_everywhere(const struct compare_groups *b,
			    const struct compare_groups *c,
			    const struct compare_opts *o)
{
	const double *xb = b->x, *xc;
	size_t i, j, nb, nc;

	for (i = 0; i < b->k; xb += nb, i++) {
		nb = b->sizes[i];
		for (j = 0, xc = c->x; j < c->k; xc += nc, j++) {
			struct ratio q;

			nc = c->sizes[j];
			if (nb < 2 || nc < 2 ||
			    stats_ratio_welch(xb, nb, xc, nc, o->confidence,
					      &q) < 0 ||
			    !(q.p < o->alpha) ||
			    !(q.change_pct <= -100 * o->handoff_drop))
				return false;
		}
	}
	return b->k && c->k;
}

int compare_handoffs(const struct compare_groups *base,
		     const struct compare_groups *cand,
		     const struct compare_opts *o, struct handoff_change *h)
{
	struct nested_diff m;
	struct ratio q;

	if (groups_total(base) < 2 || groups_total(cand) < 2)
		return -1;
	/*
	 * A count's level is its arithmetic mean (ratios of totals), not a
	 * geometric one: hand-offs are heavy-tailed and the report's pair
	 * check judges the same ratio.  The model on the values gives each
	 * side's mean, its variance and df; the change and its interval are
	 * on the log scale (stats_ratio), so they stay above -100%.
	 */
	if (model_fit(base, cand, false, o->confidence, &m) < 0 ||
	    !isfinite(m.a.var_mean) || !isfinite(m.b.var_mean) ||
	    stats_ratio(m.a.mean, m.a.var_mean, m.a.df, m.b.mean,
			m.b.var_mean, m.b.df, m.df_between, o->confidence,
			&q) < 0 ||
	    !isfinite(q.ci_low_pct))
		return -1;
	h->base_mean = m.a.mean;
	h->cand_mean = m.b.mean;
	h->change_pct = q.change_pct;
	h->ci_low_pct = q.ci_low_pct;
	h->ci_high_pct = q.ci_high_pct;
	h->p = q.p;
	h->significant = h->p < o->alpha &&
			 h->change_pct <= -100 * o->handoff_drop;
	h->everywhere = fell_everywhere(base, cand, o);
	h->fell = h->significant || h->everywhere;
	return 0;
}

/* ---- the CI gate of --fail-on-regression PCT (compare.h) ---- */

const char *const gate_result_names[] = {
	[GATE_PASS] = "pass",
	[GATE_FAIL] = "fail",
	[GATE_INCONCLUSIVE] = "inconclusive",
	[GATE_NONE] = "none",
};

/*
 * One-sided p of "worse than -pct %" (worse) or of "not worse than that"
 * (!worse) for one comparison; NAN when there is nothing to test.
 */
static double gate_p(const struct compare_stats *st, enum direction dir,
		     double pct, bool worse)
{
	const struct nested_diff *m = &st->model;
	bool lower = dir == DIR_HIGHER;   /* worse = down */
	double frac = pct / 100, margin;

	/* "worse by pct %" on the scale of the model's difference */
	if (!st->log_scale)
		margin = (lower ? -frac : frac) * fabs(m->a.mean);
	else
		margin = lower ? (frac < 1 ? log1p(-frac) : -INFINITY)
			       : log1p(frac);
	if (isfinite(m->se) && !(m->se > 0)) {
		/* No spread: the change is known. */
		bool beyond = lower ? m->diff < margin : m->diff > margin;

		return beyond == worse ? 0 : 1;
	}
	return stats_nested_p_beyond(m, margin, worse ? lower : !lower);
}

/* The plan that would decide: B boots x R runs a side that detect a
 * loss of pct with the comparison's power, as compare's own plan. */
static void gate_plan(const struct compare_opts *o,
		      const struct comparison *cmp, double pct,
		      struct boot_plan *p)
{
	const struct compare_stats *st = &cmp->st;
	double sb, sw, delta;
	size_t n = components(st, &sb, &sw);

	*p = (struct boot_plan){ .runs_opt = NAN };
	if (!n || !(pct > 0 && pct < 100))
		return;
	delta = st->log_scale ? -log1p(-pct / 100)
			      : pct / 100 * fabs(st->model.a.mean);
	if (stats_boot_plan(sb, sw, o->boot_cost, cmp->run_cost, n, delta,
			    1 - o->confidence, o->power, p) < 0)
		p->boots = 0;
}

size_t compare_gate(struct compare_result *r, double pct)
{
	double alpha = 1 - r->opts.confidence;
	double *p = xcalloc(r->n ? r->n : 1, sizeof(*p));
	size_t i;

	r->gate_pct = pct;
	r->gate_failures = 0;
	r->gate_inconclusive = 0;
	r->gate_unguaranteed = 0;
	for (i = 0; i < r->n; i++) {
		struct comparison *c = &r->cmp[i];

		c->gate_p = p[i] = gate_p(&c->st, r->opts.dir, pct, true);
		c->gate_p_pass = gate_p(&c->st, r->opts.dir, pct, false);
		/* No MSB (one invocation a side): alpha holds only at ICC 0. */
		r->gate_unguaranteed += !isnan(c->gate_p) &&
					!(c->st.model.df_between >= 1) &&
					c->st.model.se > 0;
	}
	holm_adjust(p, r->n, p);
	for (i = 0; i < r->n; i++) {
		struct comparison *c = &r->cmp[i];

		c->gate_p_holm = p[i];
		c->gate_fail = p[i] < alpha; /* NaN: nothing to fail */
		c->gate = c->gate_fail ? GATE_FAIL :
			  c->gate_p_pass < alpha ? GATE_PASS :
			  GATE_INCONCLUSIVE;
		r->gate_failures += c->gate == GATE_FAIL;
		r->gate_inconclusive += c->gate == GATE_INCONCLUSIVE;
		if (c->gate == GATE_INCONCLUSIVE)
			gate_plan(&r->opts, c, pct, &c->gate_plan);
	}
	free(p);
	return r->gate_failures;
}

int compare_gate_status(const struct compare_result *r)
{
	return r->gate_failures ? EXIT_REGRESSION :
	       r->gate_inconclusive ? EXIT_INCONCLUSIVE : EXIT_OK;
}
