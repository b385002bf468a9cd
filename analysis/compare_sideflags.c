/*
 * compare_sideflags.c - what compare's files share, below them: a
 * side's sample of one configuration by invocation (series.h), a
 * flag added to a comparison, the flags carried per side (FLAG_CARRIED)
 * summarised for compare's overview, and futex-hash-differs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "analysis/compare.h"
#include "analysis/flagtab.h"
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

	c->flags = xrealloc(c->flags, (c->nflags + 1) * sizeof(*c->flags));
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

static bool side_stored(const struct compare_side *s, const char *metric)
{
	size_t i;

	for (i = 0; i < s->nsets; i++)
		if (dataset_metric(&s->sets[i], metric) >= 0)
			return true;
	return false;
}

void compare_futex_hash(struct comparison *cmp, const struct compare_side *b,
			const struct series *gb, const struct compare_side *c,
			const struct series *gc)
{
	struct sample sb, sc;
	char *tb, *tc;

	if (!side_stored(b, "futex_hash_slots") ||
	    !side_stored(c, "futex_hash_slots"))
		return;
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
		bool has = false;

		for (c = 0; c < s->an[i].nconfigs; c++) {
			const struct config_analysis *ca = &s->an[i].configs[c];

			for (k = 0; k < ca->nflags; k++) {
				const struct flag *f = &ca->flags[k];

				if (strcmp(f->name, name) ||
				    (f->metric >= 0 && f->metric != m))
					continue;
				has = true;
				if (!*example)
					*example = f->message;
			}
		}
		if (has) {
			char *t = xasprintf("%s%s%lld", ids ? ids : "",
					    ids ? ", " : "",
					    (long long)s->sets[i].exp.id);

			free(ids);
			ids = t;
		}
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
	r->side_flags = xrealloc(r->side_flags, (r->nside_flags + 1) *
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
