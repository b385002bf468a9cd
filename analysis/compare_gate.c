/*
 * compare_gate.c - the CI gate of `compare --fail-on-regression PCT`,
 * three-way (compare.h): fail when a loss beyond PCT is shown (Holm over
 * the configurations), pass when it is ruled out for each, inconclusive
 * otherwise, with the plan that would decide.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/compare.h"
#include "lib/holm.h"
#include "lib/util.h"

const char *const gate_result_names[] = {
	[GATE_PASS] = "pass",
	[GATE_FAIL] = "fail",
	[GATE_INCONCLUSIVE] = "inconclusive",
	[GATE_NONE] = "none",
};

/* The margin "worse by pct %" on the scale of the model's difference. */
static double margin_of(const struct compare_stats *st, bool lower,
			double pct)
{
	double frac = pct / 100;

	if (st->log_scale)
		return lower ? (frac < 1 ? log1p(-frac) : -INFINITY)
			     : log1p(frac);
	return (lower ? -frac : frac) * fabs(st->model.a.mean);
}

/*
 * One-sided p of "worse than -pct %" (worse) or of "not worse than that"
 * (!worse) for one comparison; NAN when there is nothing to test.
 */
static double gate_p(const struct compare_stats *st, enum direction dir,
		     double pct, bool worse)
{
	const struct nested_diff *m = &st->model;
	bool lower = dir == DIR_HIGHER;   /* worse = down */
	double margin = margin_of(st, lower, pct);

	if (isfinite(m->se) && !(m->se > 0)) {
		/* No spread: the change is known. */
		bool beyond = lower ? m->diff < margin : m->diff > margin;

		return beyond == worse ? 0 : 1;
	}
	return stats_nested_p_beyond(m, margin, worse ? lower : !lower);
}

/*
 * The plan that would decide: B boots x R runs a side that detect a loss
 * of pct with the comparison's power (stats_boot_plan, as compare's own
 * plan for its threshold).
 */
static void gate_plan(const struct compare_opts *o,
		      const struct comparison *cmp, double pct,
		      struct boot_plan *p)
{
	const struct compare_stats *st = &cmp->st;
	const struct nested *a = &st->model.a, *b = &st->model.b;
	double sb = (a->var_between + b->var_between) / 2;
	double sw = (a->var_within + b->var_within) / 2, delta;
	size_t n = a->k + b->k ? (size_t)lround((double)(a->n + b->n) /
						(double)(a->k + b->k)) : 0;

	*p = (struct boot_plan){ .runs_opt = NAN };
	if (!isfinite(sb) || !isfinite(sw) || !n || !(pct > 0 && pct < 100))
		return;
	delta = st->log_scale ? -log1p(-pct / 100)
			      : pct / 100 * fabs(a->mean);
	if (stats_boot_plan(sb, sw, o->boot_cost, cmp->run_cost, n, delta,
			    1 - o->confidence, o->power, p) < 0)
		p->boots = 0;
}

/* Holm over the comparisons' gate_p (lib/holm.h): sets gate_p_holm and
 * gate_fail. */
static void holm(struct compare_result *r, double alpha)
{
	double *p = xcalloc(r->n ? r->n : 1, sizeof(*p));
	size_t i;

	for (i = 0; i < r->n; i++)
		p[i] = r->cmp[i].gate_p;
	holm_adjust(p, r->n, p);
	for (i = 0; i < r->n; i++) {
		r->cmp[i].gate_p_holm = p[i];
		r->cmp[i].gate_fail = p[i] < alpha; /* NaN: nothing to fail */
	}
	free(p);
}

size_t compare_gate(struct compare_result *r, double pct)
{
	double alpha = 1 - r->opts.confidence;
	size_t i;

	r->gate_pct = pct;
	r->gate_failures = 0;
	r->gate_inconclusive = 0;
	r->gate_unguaranteed = 0;
	for (i = 0; i < r->n; i++) {
		struct comparison *c = &r->cmp[i];

		c->gate_p = gate_p(&c->st, r->opts.dir, pct, true);
		c->gate_p_pass = gate_p(&c->st, r->opts.dir, pct, false);
		/* No MSB (one invocation a side): alpha holds only at ICC 0. */
		r->gate_unguaranteed += !isnan(c->gate_p) &&
					!(c->st.model.df_between >= 1) &&
					c->st.model.se > 0;
		c->gate_p_holm = NAN;
		c->gate_fail = false;
	}
	holm(r, alpha);
	for (i = 0; i < r->n; i++) {
		struct comparison *c = &r->cmp[i];

		c->gate = c->gate_fail ? GATE_FAIL :
			  c->gate_p_pass < alpha ? GATE_PASS :
			  GATE_INCONCLUSIVE;
		r->gate_failures += c->gate == GATE_FAIL;
		r->gate_inconclusive += c->gate == GATE_INCONCLUSIVE;
		if (c->gate == GATE_INCONCLUSIVE)
			gate_plan(&r->opts, c, pct, &c->gate_plan);
	}
	return r->gate_failures;
}

int compare_gate_status(const struct compare_result *r)
{
	if (r->gate_pct < 0)
		return EXIT_OK;
	return r->gate_failures ? EXIT_REGRESSION :
	       r->gate_inconclusive ? EXIT_INCONCLUSIVE : EXIT_OK;
}
