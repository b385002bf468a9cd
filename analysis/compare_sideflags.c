/*
 * compare_sideflags.c - what compare's files share, below them: a
 * side's sample of one configuration by invocation (analysis.h), a
 * flag added to a comparison, and the flags between the sides: those
 * carried per side (FLAG_CARRIED) summarised, futex-hash-differs, and
 * two regimes (analysis.h; docs/STATISTICS.md), so that a change of the
 * mix is not read as a change of speed.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "analysis/flagtab.h"
#include "analysis/report_impl.h"
#include "analysis/stats.h"
#include "lib/numfmt.h"
#include "lib/util.h"

/* ---- samples and flags ---- */

void compare_sample_build(const struct compare_side *s,
			  const struct series *g, extract_fn fn,
			  const char *metric, struct sample *out)
{
	memset(out, 0, sizeof(*out));
	series_sample(s->sets, g, fn, metric, &out->v);
	out->x = out->v.x;
	out->n = out->v.n;
	out->u.invocations = out->v.k;
	out->u.runs = out->n;
	out->g = (struct compare_groups){ out->x, out->v.sizes, out->v.k };
}

void compare_sample_release(struct sample *s)
{
	series_sample_release(&s->v);
}

void comparison_flag(struct comparison *c, const char *name,
		     const char *side, char *message)
{
	struct compare_flag *f;

	c->flags = xgrow(c->flags, c->nflags, sizeof(*c->flags));
	f = &c->flags[c->nflags++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->side = side;
	f->message = message;
}

/* ---- futex-hash-differs ---- */

/* The side's stored futex_hash_slots (whole numbers) as "16" or "16-64";
 * NULL: none. */
static char *slots_range(const struct sample *s)
{
	double lo, hi;

	if (!s->n)
		return NULL;
	gsl_stats_minmax(&lo, &hi, s->x, 1, s->n);
	return lo < hi ? xasprintf("%.0f-%.0f", lo, hi) : xasprintf("%.0f", lo);
}

void compare_futex_hash(struct comparison *cmp, const struct compare_side *b,
			const struct series *gb, const struct compare_side *c,
			const struct series *gc)
{
	struct sample sb, sc;
	char *tb, *tc;

	compare_sample_build(b, gb, series_metric_values, "futex_hash_slots",
			     &sb);
	compare_sample_build(c, gc, series_metric_values, "futex_hash_slots",
			     &sc);
	tb = slots_range(&sb);
	tc = slots_range(&sc);
	/* a side that recorded none (an older kernel or contend) is unknown */
	if (tb && tc && strcmp(tb, tc))
		comparison_flag(cmp, "futex-hash-differs", "both",
			xasprintf("the sides' processes had different private "
				  "futex hash sizes: baseline %s slots, "
				  "candidate %s slots (0 is the global hash); "
				  "give both the same futex_hash_slots", tb,
				  tc));
	free(tb);
	free(tc);
	compare_sample_release(&sb);
	compare_sample_release(&sc);
}

/* ---- the carried flags of each side ---- */

bool compare_has_flag(const struct comparison *c, const char *name,
		      const char *side)
{
	size_t i;

	for (i = 0; i < c->nflags; i++)
		if (!strcmp(c->flags[i].name, name) &&
		    !strcmp(c->flags[i].side, side))
			return true;
	return false;
}

/* Experiments of the side whose analysis carries flag name for metric. */
static char *flag_experiments(const struct compare_side *s, const char *name,
			      const char *metric, const char **example)
{
	char *ids = NULL;
	size_t i, c, k;

	*example = NULL;
	for (i = 0; i < s->nsets; i++) {
		int m = dataset_metric(&s->sets[i], metric);
		const char *has = NULL;

		for (c = 0; c < s->an[i].nconfigs; c++)
			for (k = 0; k < s->an[i].configs[c].nflags; k++) {
				const struct flag *f =
					&s->an[i].configs[c].flags[k];

				if (!has && !strcmp(f->name, name) &&
				    (f->metric < 0 || f->metric == m))
					has = f->message;
			}
		if (!has)
			continue;
		*example = *example ? *example : has;
		ids = report_cat(ids ? ids : xstrdup(""), ", ", "%lld",
				 (long long)s->sets[i].exp.id);
	}
	return ids;
}

/* The length of s up to its first ':' or ';' outside parentheses. */
static int example_len(const char *s)
{
	int depth = 0, i;

	for (i = 0; s[i]; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && depth)
			depth--;
		else if ((s[i] == ':' || s[i] == ';') && !depth)
			break;
	}
	return i;
}

static void side_flag(struct compare_result *r, const struct compare_side *s,
		      const char *name, const char *side)
{
	const struct comparison *need = NULL;
	struct compare_side_flag *f;
	const char *example;
	char *ids, *advice = NULL;
	size_t i, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct comparison *x = &r->cmp[i];

		if (!compare_has_flag(x, name, side))
			continue;
		n++;
		/* more runs are the remedy of noise only: the most needed */
		if (!strcmp(name, "noisy") && x->st.needed_runs &&
		    (!need || x->st.needed_runs > need->st.needed_runs))
			need = x;
	}
	if (!n)
		return;
	ids = flag_experiments(s, name, r->metric, &example);
	if (need)
		advice = xasprintf("; resolving %g%% needs up to %zu boots of "
				   "%zu runs a side (%s %s)",
				   r->opts.threshold_pct,
				   need->st.plan.boots, need->st.plan.runs,
				   need->section, need->canon);
	r->side_flags = xgrow(r->side_flags, r->nside_flags,
			      sizeof(*r->side_flags));
	f = &r->side_flags[r->nside_flags++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->side = side;
	f->nconfigs = n;
	/* The example's numbers, not its advice: up to its first ':'. */
	f->message = xasprintf("%zu of %zu configurations, experiment%s %s; "
			       "e.g. %.*s%s", n, r->n,
			       ids && strchr(ids, ',') ? "s" : "",
			       ids ? ids : "?",
			       example ? example_len(example) : 0,
			       example ? example : "", advice ? advice : "");
	free(ids);
	free(advice);
}

void compare_side_flags(struct compare_result *r, const struct compare_side *b,
			const struct compare_side *c)
{
	size_t i;

	/* the analysis flags that describe one side, in the table's order */
	for (i = 0; i < nflag_defs; i++) {
		if (flag_defs[i].shows != FLAG_CARRIED)
			continue;
		side_flag(r, b, flag_defs[i].name, "baseline");
		side_flag(r, c, flag_defs[i].name, "candidate");
	}
}

/* ---- two regimes ---- */

/* A regime both sides need this many runs in to be compared within. */
#define WITHIN_MIN 3

/*
 * Fisher's exact test of a 2x2 table (a b / c d), two-sided: the summed
 * probability of every table with the same margins no more probable than
 * the one observed (Agresti, Categorical Data Analysis, 3.5.1).
 */
double regimes_fisher(unsigned a, unsigned b, unsigned c, unsigned d)
{
	unsigned n1 = a + b, n2 = c + d, t = a + c, lo, hi, k;
	double p0 = gsl_ran_hypergeometric_pdf(a, n1, n2, t), p = 0;

	lo = t > n2 ? t - n2 : 0;
	hi = t < n1 ? t : n1;
	for (k = lo; k <= hi; k++) {
		double pk = gsl_ran_hypergeometric_pdf(k, n1, n2, t);

		if (pk <= p0 * (1 + 1e-7))
			p += pk;
	}
	return p > 1 ? 1 : p;
}

/* The values of x in regime r of g, malloc'd, as logs; their count. */
static size_t pick(const struct regimes *g, int r, const double *x, size_t n,
		   double **out)
{
	size_t i, k = 0;

	*out = xmalloc((n + 1) * sizeof(**out));
	for (i = 0; i < n; i++)
		if (regimes_which(g, x[i]) == r)
			(*out)[k++] = log(x[i]);
	return k;
}

/* "within the low regime (21 and 9 runs): +0.2% [-0.3%, +0.7%]" */
static char *within(const struct regimes *g, int r, const double *b,
		    size_t nb, const double *c, size_t nc, double confidence)
{
	static const char *const names[] = { "low", "high" };
	double *xb, *xc;
	size_t kb = pick(g, r, b, nb, &xb), kc = pick(g, r, c, nc, &xc);
	char buf[96], *ret = NULL;
	struct welch w;

	if (kb >= WITHIN_MIN && kc >= WITHIN_MIN &&
	    !stats_welch(xb, kb, xc, kc, confidence, &w) && !isnan(w.ci_low))
		ret = xasprintf("within the %s regime (%zu and %zu runs) the "
				"candidate changed %s", names[r], kb, kc,
				numfmt_pct_ci(buf, sizeof(buf),
					      100 * expm1(w.diff),
					      100 * expm1(w.ci_low),
					      100 * expm1(w.ci_high)));
	free(xb);
	free(xc);
	return ret;
}

int regimes_compare(const double *b, size_t nb, const double *c, size_t nc,
		    double confidence, struct regimes_cmp *out)
{
	double *all;
	unsigned hb = 0, hc = 0;
	char lvl[2][32], *w0, *w1;
	size_t i;
	int ret;

	memset(out, 0, sizeof(*out));
	/* Two sides each in one regime, apart, are a change, not regimes:
	 * one side at least must be multimodal by itself. */
	if (regimes_detect(b, nb, confidence, &out->g) < 0)
		return -1;
	if (!out->g.multimodal)
		regimes_detect(c, nc, confidence, &out->g);
	if (!out->g.multimodal)
		return 0;
	all = xmalloc((nb + nc + 1) * sizeof(*all));
	memcpy(all, b, nb * sizeof(*b));
	memcpy(all + nb, c, nc * sizeof(*c));
	ret = regimes_detect(all, nb + nc, confidence, &out->g);
	free(all);
	if (ret < 0 || !out->g.multimodal)
		return ret;
	for (i = 0; i < nb; i++)
		hb += (unsigned)regimes_which(&out->g, b[i]);
	for (i = 0; i < nc; i++)
		hc += (unsigned)regimes_which(&out->g, c[i]);
	out->share_high_base = (double)hb / (double)nb;
	out->share_high_cand = (double)hc / (double)nc;
	out->p = regimes_fisher((unsigned)nb - hb, hb, (unsigned)nc - hc, hc);
	out->differ = out->p < 1 - confidence;
	w0 = within(&out->g, 0, b, nb, c, nc, confidence);
	w1 = within(&out->g, 1, b, nb, c, nc, confidence);
	out->message = xasprintf(
		"the runs of both sides fall into two regimes, at %s and %s: "
		"the baseline has %.0f%% of its runs in the high one, the "
		"candidate %.0f%% (Fisher's exact p = %.2g%s)%s%s%s%s%s",
		numfmt(lvl[0], sizeof(lvl[0]), out->g.r[0].level),
		numfmt(lvl[1], sizeof(lvl[1]), out->g.r[1].level),
		100 * out->share_high_base, 100 * out->share_high_cand, out->p,
		out->differ ? ": the shares differ, and a change of the mean "
			      "is a change of the mix" : "",
		w0 || w1 ? "; " : "", w0 ? w0 : "", w0 && w1 ? "; " : "",
		w1 ? w1 : "",
		w0 || w1 ? "" : "; no regime has 3 runs of each side to "
				"compare within");
	free(w0);
	free(w1);
	return 0;
}
