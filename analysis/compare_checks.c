/*
 * compare_checks.c - what compare tells beside each configuration's
 * verdict, from the sides' selections (compare_impl.h): whether they ran
 * under the same kernel instrumentation, whether their runs fall into
 * regimes, and their fairness and latency judged A/B.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/abfair.h"
#include "analysis/compare_impl.h"
#include "analysis/analysis.h"
#include "analysis/regimes.h"
#include "lib/util.h"

/* The distinct experiments of a group, for analysis/instrument.c:
 * shallow copies (rows[i].meta points into the side's dataset). */
static size_t group_rows(const struct compare_side *s, const struct series *g,
			 struct experiment_row *rows)
{
	size_t i, j, n = 0;

	for (i = 0; i < g->n; i++) {
		const struct experiment_row *e = &s->sets[g->member[i].set].exp;

		for (j = 0; j < n && rows[j].meta != e->meta; j++)
			;
		if (j == n)
			rows[n++] = *e;
	}
	return n;
}

/* instrumentation-differs: kernel state keys (analysis/analysis.h, instrument.c). */
void compare_instrumentation(struct comparison *cmp,
			     const struct compare_side *b, const struct series *gb,
			     const struct compare_side *c, const struct series *gc)
{
	struct experiment_row *rb = xcalloc(gb->n + 1, sizeof(*rb));
	struct experiment_row *rc = xcalloc(gc->n + 1, sizeof(*rc));
	size_t nb = group_rows(b, gb, rb), nc = group_rows(c, gc, rc);
	char *msg = instrument_diff(rb, nb, rc, nc);

	if (msg)
		comparison_flag(cmp, "instrumentation-differs", "both",
				xasprintf("%s; %s", msg, instrument_why));
	free(msg);
	free(rb);
	free(rc);
}

/* multimodal and regime-shift: the sides' runs in two regimes. */
void compare_regimes(struct comparison *cmp, const struct sample *sb,
		     const struct sample *sc, double confidence)
{
	struct regimes_cmp rc;

	if (regimes_compare(sb->x, sb->n, sc->x, sc->n, confidence, &rc) ||
	    !rc.message)
		return;
	comparison_flag(cmp, rc.differ ? "regime-shift" : "multimodal",
			"both", rc.message);
}

/* Per run, as analysis_values_of reads them (analysis/abfair.h). */
static size_t extract_jain(const struct dataset *d, size_t c,
			   const char *unused, double **out)
{
	(void)unused;
	return analysis_values_of(d, c, analysis_jain, out);
}

static size_t extract_max_share(const struct dataset *d, size_t c,
				const char *unused, double **out)
{
	(void)unused;
	return analysis_values_of(d, c, abfair_max_share, out);
}

static size_t extract_starved(const struct dataset *d, size_t c,
			      const char *unused, double **out)
{
	(void)unused;
	return analysis_values_of(d, c, abfair_starved, out);
}

/* Fairness and latency A/B, and fairness-traded (analysis/abfair.h). */
void compare_fairness(struct comparison *cmp, const struct compare_opts *o,
		      const struct compare_side *b, const struct series *gb,
		      const struct compare_side *c, const struct series *gc)
{
	static const struct {
		extract_fn fn;
		const char *metric;
		int dir;
	} ms[ABFAIR_N] = {
		[ABFAIR_JAIN] = { extract_jain, NULL, DIR_HIGHER },
		[ABFAIR_MAX_SHARE] = { extract_max_share, NULL, DIR_LOWER },
		[ABFAIR_P99] = { series_metric_values, "acquire_p99_ns", DIR_LOWER },
	};
	struct abfair *f = &cmp->fair;
	struct sample sb, sc;
	char *text;
	size_t i;

	for (i = 0; i < ABFAIR_N; i++) {
		compare_sample_build(b, gb, ms[i].fn, ms[i].metric, &sb);
		compare_sample_build(c, gc, ms[i].fn, ms[i].metric, &sc);
		abfair_judge(&sb.g, &sc.g, o, ms[i].dir, &f->m[i]);
		compare_sample_release(&sb);
		compare_sample_release(&sc);
	}
	compare_sample_build(b, gb, extract_starved, NULL, &sb);
	compare_sample_build(c, gc, extract_starved, NULL, &sc);
	f->starved_base = abfair_mean(sb.x, sb.n);
	f->starved_cand = abfair_mean(sc.x, sc.n);
	compare_sample_release(&sb);
	compare_sample_release(&sc);
	f->traded = abfair_traded(f, cmp->st.improved);
	text = f->traded ? abfair_text(f) : NULL;
	if (text)
		comparison_flag(cmp, "fairness-traded", "both",
			xasprintf("the candidate is better while it is "
				  "significantly less fair and its threads "
				  "starve (the busiest did more than twice "
				  "the work of the idlest, locktorture's "
				  "rule): %s; the gain may be one thread "
				  "running alone", text));
	free(text);
}
