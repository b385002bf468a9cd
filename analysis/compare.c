/*
 * compare.c - A/B comparison: compare_sides() matches configurations,
 * forms each side's sample, has it judged (compare_model.c, which sees
 * only samples, so number files and databases are judged alike) and
 * attaches what a reviewer must see beside each verdict: the carried
 * flags, host, instrumentation, regimes, fairness.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "analysis/flagtab.h"
#include "lib/escape.h"
#include "lib/numfmt.h"
#include "db/contract.h"
#include "lib/util.h"

const char *const verdict_names[] = {
	[VERDICT_FASTER] = "faster",
	[VERDICT_SLOWER] = "slower",
	[VERDICT_NO_CHANGE] = "no-change",
	[VERDICT_INCONCLUSIVE] = "inconclusive",
};

/* Host metadata keys that must agree between the sides (host-mismatch):
 * the host facts runner/host.c records under these (DESIGN-CHANGES.md). */
static const char *const compare_host_keys[] = {
	MK_CPU_MODEL, MK_CPUS_ONLINE, MK_GOVERNOR, MK_SMT,
};

void compare_opts_default(struct compare_opts *o)
{
	struct analysis_opts ao;

	/* The misleading-throughput rule is the analysis flag's. */
	analysis_opts_default(&ao);
	o->dir = DIR_HIGHER;
	o->threshold_pct = 1;
	o->confidence = 0.95;
	o->power = 0.8;
	o->alpha = ao.alpha;
	o->handoff_drop = ao.handoff_drop;
	o->linear = false;
	o->boot_cost = COMPARE_BOOT_COST;
	o->run_cost = 0;
}

/* ---- selections: matching, samples, flags ---- */

/*
 * Per-run quantities compare judges besides the metric, by name: the
 * name goes where a series_extract takes a metric (analysis_values_of).
 */
static const struct {
	const char *name;
	double (*get)(const struct dataset *d, size_t r);
} per_run[] = {
	{ "handoff", analysis_handoff_rate },   /* as the analysis flag */
	{ "contended", analysis_contended_rate }, /* its stand-in */
	{ "jain", analysis_jain },              /* abfair.h */
	{ "max_share", abfair_max_share },
	{ "starved", abfair_starved },
};

static size_t extract_per_run(const struct dataset *d, size_t c,
			      const char *name, double **out)
{
	size_t i = 0;

	while (strcmp(per_run[i].name, name))
		i++;
	return analysis_values_of(d, c, per_run[i].get, out);
}

/* The mean wall time of a configuration's runs on both sides (NAN: none). */
static double run_cost(const struct compare_side *b, const struct series *gb,
		       const struct compare_side *c, const struct series *gc)
{
	const struct compare_side *s[2] = { b, c };
	const struct series *g[2] = { gb, gc };
	double sum = 0;
	size_t n = 0, i, j, r;

	for (i = 0; i < 2; i++)
		for (j = 0; j < g[i]->n; j++) {
			const struct dataset *d = &s[i]->sets[g[i]->member[j].set];
			const struct ds_config *dc =
				&d->configs[g[i]->member[j].config];

			for (r = dc->run0; r < dc->run0 + dc->nruns; r++)
				if (d->runs[r].wall_s > 0 &&
				    isfinite(d->runs[r].wall_s)) {
					sum += d->runs[r].wall_s;
					n++;
				}
		}
	return n ? sum / (double)n : NAN;
}

/* The carried flags (flagtab.h) of any invocation, once per side. */
static void carry_flags(struct comparison *c, const struct compare_side *s,
			const struct series *g, const char *metric,
			const char *side)
{
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		const struct dataset *d = &s->sets[g->member[i].set];
		const struct config_analysis *ca =
			&s->an[g->member[i].set].configs[g->member[i].config];
		int m = dataset_metric(d, metric);

		for (k = 0; k < ca->nflags; k++) {
			const struct flag *f = &ca->flags[k];

			if (!flag_carried(f->name) ||
			    (f->metric >= 0 && f->metric != m) ||
			    compare_has_flag(c, f->name, side))
				continue;
			comparison_flag(c, f->name, side,
					xasprintf("%s, experiment %lld: %s",
						  side, (long long)d->exp.id,
						  f->message ? f->message : ""));
		}
	}
}

/* runner/host.c records "unknown" for what it could not read. */
static const char *host_value(const struct dataset *d, const char *key)
{
	const char *v = experiment_meta(&d->exp, key);

	return v && strcmp(v, "unknown") ? v : NULL;
}

/* The first differing value of key between the sides' experiments,
 * appended to *msg ("; " between). */
static void host_diff(const struct compare_side *b, const struct series *gb,
		      const struct compare_side *c, const struct series *gc,
		      const char *key, char **msg)
{
	size_t i, j;
	char *t;

	for (i = 0; i < gb->n; i++) {
		const char *vb = host_value(&b->sets[gb->member[i].set], key);

		for (j = 0; vb && j < gc->n; j++) {
			const char *vc = host_value(&c->sets[gc->member[j].set],
						    key);

			if (!vc || !strcmp(vb, vc))
				continue;
			t = xasprintf("%s%s%s '%s' vs '%s'", *msg ? *msg : "",
				      *msg ? "; " : "", key, vb, vc);
			free(*msg);
			*msg = t;
			return;
		}
	}
}

static void host_mismatch(struct comparison *cmp, const struct compare_side *b,
			  const struct series *gb, const struct compare_side *c,
			  const struct series *gc)
{
	char *msg = NULL;

	for (size_t k = 0; k < ARRAY_SIZE(compare_host_keys); k++)
		host_diff(b, gb, c, gc, compare_host_keys[k], &msg);
	if (msg)
		comparison_flag(cmp, "host-mismatch", "both",
				xasprintf("baseline and candidate ran on "
					  "different hosts: %s", msg));
	free(msg);
}

static void misleading(struct comparison *cmp, const struct compare_opts *o,
		       const struct compare_side *b, const struct series *gb,
		       const struct compare_side *c, const struct series *gc)
{
	struct sample sb, sc;
	struct handoff_change h;
	char hb[NUMFMT_LEN], hc[NUMFMT_LEN];
	const char *what = "hand-offs/s";

	if (!cmp->st.improved)
		return;
	/* the hand-off rate of both sides: handoff_rate, else contended/s */
	compare_sample_build(b, gb, extract_per_run, "handoff", &sb);
	compare_sample_build(c, gc, extract_per_run, "handoff", &sc);
	if (sb.n < 2 || sc.n < 2) {
		compare_sample_release(&sb);
		compare_sample_release(&sc);
		compare_sample_build(b, gb, extract_per_run, "contended", &sb);
		compare_sample_build(c, gc, extract_per_run, "contended", &sc);
		what = "contended acquisitions/s (throughput x contention_rate)";
	}
	if (compare_handoffs(&sb.g, &sc.g, o, &h) == 0 && h.fell)
		comparison_flag(cmp, "misleading-throughput", "both",
			xasprintf("the candidate is faster while its %s fell "
				  "%.1f%% [%+.1f%%, %+.1f%%] (means %s -> "
				  "%s, %zu/%zu invocations, p = %.2g%s): the "
				  "lock changes hands less often, as when its "
				  "contended path is slowed (the lockdep "
				  "effect); do not read this as a speed-up",
				  what, -h.change_pct, h.ci_low_pct,
				  h.ci_high_pct,
				  numfmt(hb, sizeof(hb), h.base_mean),
				  numfmt(hc, sizeof(hc), h.cand_mean),
				  sb.g.k, sc.g.k, h.p,
				  h.significant ? ""
				  : "; not significant over the invocations, "
				    "but in each pair of a baseline and a "
				    "candidate invocation the fall is at least "
				    "the rule's, p < alpha on its runs"));
	compare_sample_release(&sb);
	compare_sample_release(&sc);
}

static void unit_flags(struct comparison *cmp, const struct compare_side *b,
		       const struct compare_side *c)
{
	/* One number file says nothing of how its values were invoked. */
	bool b1 = !(b->numbers && b->nsets == 1) && cmp->ubase.invocations < 2;
	bool c1 = !(c->numbers && c->nsets == 1) && cmp->ucand.invocations < 2;
	const struct nested_diff *m = &cmp->st.model;

	if (cmp->st.base.n < 2 || cmp->st.cand.n < 2)
		comparison_flag(cmp, "too-few-runs",
				cmp->st.base.n < 2 ? "baseline" : "candidate",
				xasprintf("a side with a single value has no "
					  "spread: no interval, nothing can be "
					  "concluded; at least 2 runs a side "
					  "are needed, 2 invocations of 10 "
					  "runs to judge the variance"));
	if (!b1 && !c1)
		return;
	if (m->a.borrowed || m->b.borrowed)
		comparison_flag(cmp, "single-invocation",
				m->a.borrowed ? "baseline" : "candidate",
				xasprintf("the %s is one experiment (one "
					  "invocation, one boot): its "
					  "interval uses the %s's "
					  "between-invocation variance",
					  m->a.borrowed ? "baseline"
							: "candidate",
					  m->a.borrowed ? "candidate"
							: "baseline"));
	else
		comparison_flag(cmp, "single-invocation",
				b1 && c1 ? "both" : b1 ? "baseline"
						       : "candidate",
				xasprintf("%s (one invocation, one boot) and "
					  "the other side cannot lend its "
					  "between-invocation variance: the "
					  "interval ignores the variance "
					  "between boots and may be too narrow; "
					  "repeat the experiment (after a "
					  "reboot) under the same name and label",
					  b1 && c1 ? "one experiment a side"
					  : b1 ? "the baseline is one experiment"
					       : "the candidate is one "
						 "experiment"));
}

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

/* instrumentation-differs: kernel state keys (instrument.c). */
static void compare_instrumentation(struct comparison *cmp,
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

/* Fairness and latency A/B, and fairness-traded (analysis/abfair.h). */
static void compare_fairness(struct comparison *cmp, const struct compare_opts *o,
		      const struct compare_side *b, const struct series *gb,
		      const struct compare_side *c, const struct series *gc)
{
	static const struct {
		extract_fn fn;
		const char *metric;
		int dir;
	} ms[ABFAIR_N + 1] = {
		[ABFAIR_JAIN] = { extract_per_run, "jain", DIR_HIGHER },
		[ABFAIR_MAX_SHARE] = { extract_per_run, "max_share", DIR_LOWER },
		[ABFAIR_P99] = { series_metric_values, "acquire_p99_ns", DIR_LOWER },
		[ABFAIR_N] = { extract_per_run, "starved", DIR_UNKNOWN },
	};
	struct abfair *f = &cmp->fair;
	struct sample sb, sc;
	char *text;
	size_t i;

	for (i = 0; i <= ABFAIR_N; i++) {
		compare_sample_build(b, gb, ms[i].fn, ms[i].metric, &sb);
		compare_sample_build(c, gc, ms[i].fn, ms[i].metric, &sc);
		if (i < ABFAIR_N)
			abfair_judge(&sb.g, &sc.g, o, ms[i].dir, &f->m[i]);
		/* kept from the last row, starved */
		f->starved_base = abfair_mean(sb.x, sb.n);
		f->starved_cand = abfair_mean(sc.x, sc.n);
		compare_sample_release(&sb);
		compare_sample_release(&sc);
	}
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

static void add_unmatched(struct compare_result *r, const char *side,
			  const struct series *g, const char *reason)
{
	r->unmatched = xgrow(r->unmatched, r->nunmatched,
			     sizeof(*r->unmatched));
	r->unmatched[r->nunmatched++] = (struct compare_unmatched){
		side, g->workload, g->canon, g->section, reason };
}

static int match_one(struct compare_result *r, const struct compare_side *b,
		     const struct series *gb, const struct compare_side *c,
		     const struct series *gc)
{
	struct comparison *cmp;
	struct compare_opts o;
	struct sample sb, sc;
	struct regimes_cmp rc;
	int ret = -1;

	compare_sample_build(b, gb, series_metric_values, r->metric, &sb);
	compare_sample_build(c, gc, series_metric_values, r->metric, &sc);
	if (!sb.n || !sc.n) {
		add_unmatched(r, sb.n ? "candidate" : "baseline",
			      sb.n ? gc : gb, "no measured ok run has the metric");
		ret = 0;
		goto out;
	}
	r->cmp = xrealloc(r->cmp, (r->n + 1) * sizeof(*r->cmp));
	cmp = memset(&r->cmp[r->n++], 0, sizeof(*cmp));
	cmp->workload = gb->workload;
	cmp->canon = gb->canon;
	cmp->section = gb->section;
	cmp->config = &b->sets[gb->member[0].set].configs[gb->member[0].config];
	cmp->ubase = sb.u;
	cmp->ucand = sc.u;
	cmp->gate_p = cmp->gate_p_holm = NAN;
	o = r->opts;
	if (!(o.run_cost > 0))
		o.run_cost = run_cost(b, gb, c, gc);
	cmp->run_cost = o.run_cost;
	if (stats_summarize(sb.x, sb.n, r->opts.confidence, &cmp->runs_base) ||
	    stats_summarize(sc.x, sc.n, r->opts.confidence, &cmp->runs_cand) ||
	    compare_model(&sb.g, &sc.g, &o, &cmp->st) < 0)
		goto out;
	/* ministat's row of the runs: its median, the upper middle value. */
	cmp->runs_base.median = ministat_median(sb.x, sb.n);
	cmp->runs_cand.median = ministat_median(sc.x, sc.n);
	r->count[cmp->st.verdict]++;
	unit_flags(cmp, b, c);
	carry_flags(cmp, b, gb, r->metric, "baseline");
	carry_flags(cmp, c, gc, r->metric, "candidate");
	misleading(cmp, &r->opts, b, gb, c, gc);
	compare_klock(cmp, &r->opts, b, gb, c, gc); /* compare_extra.c */
	host_mismatch(cmp, b, gb, c, gc);
	compare_instrumentation(cmp, b, gb, c, gc);
	compare_futex_hash(cmp, b, gb, c, gc);   /* compare_sideflags.c */
	/* multimodal and regime-shift: the sides' runs in two regimes */
	if (!regimes_compare(sb.x, sb.n, sc.x, sc.n, r->opts.confidence, &rc) &&
	    rc.message)
		comparison_flag(cmp, rc.differ ? "regime-shift" : "multimodal",
				"both", rc.message);
	compare_fairness(cmp, &r->opts, b, gb, c, gc);
	compare_extras(cmp, &r->opts, r->metric, &sb, &sc, b, gb, c, gc);
	ret = 0;
out:
	compare_sample_release(&sb);
	compare_sample_release(&sc);
	return ret;
}

int compare_side_has_metric(const struct compare_side *s,
			    const char *metric, const char *side)
{
	char qm[ESCAPE_QUOTE_BUF], qn[ESCAPE_QUOTE_BUF], qh[ESCAPE_QUOTE_BUF];
	char *have = NULL;
	size_t i, k, n = 0;

	for (i = 0; i < s->nsets; i++)
		if (dataset_metric(&s->sets[i], metric) >= 0)
			return 0;
	for (i = 0; i < s->nsets; i++) {
		for (k = 0; k < s->sets[i].nmetrics; k++, n++) {
			char *t = xasprintf("%s%s%s", have ? have : "",
					    have ? ", " : "",
					    s->sets[i].metrics[k]);

			free(have);
			have = t;
		}
	}
	/* Names from a database or a command line: shown, never obeyed,
	 * and each quote capped, so the message stays a line. */
	escape_clip(qm, sizeof(qm), metric, ESCAPE_QUOTE_MAX);
	escape_clip(qn, sizeof(qn), s->name, ESCAPE_QUOTE_MAX);
	escape_clip(qh, sizeof(qh), have ? have : "none", ESCAPE_QUOTE_MAX);
	error("metric '%s' is not recorded in the %s (%s); it has %zu: %s",
	      qm, side, qn, n, qh);
	free(have);
	return -1;
}

/* ---- per-side flags, summarised once ---- */

int compare_sides(const struct compare_side *base,
		  const struct compare_side *cand, const char *metric,
		  const struct compare_opts *o, struct compare_result *r)
{
	struct series_list gb = { 0 }, gc = { 0 };
	bool *matched = NULL;
	size_t i;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	r->opts = *o;
	r->metric = metric;
	if (compare_side_has_metric(base, metric, "baseline") < 0 ||
	    compare_side_has_metric(cand, metric, "candidate") < 0)
		return -1;
	series_build(base->sets, base->nsets, &gb);
	series_build(cand->sets, cand->nsets, &gc);
	matched = xcalloc(gc.n + 1, sizeof(*matched));
	for (i = 0; i < gb.n; i++) {
		long j = series_find(&gc, gb.s[i].workload, gb.s[i].canon);

		if (j < 0) {
			add_unmatched(r, "baseline", &gb.s[i],
				      "not in the candidate");
			continue;
		}
		matched[j] = true;
		if (match_one(r, base, &gb.s[i], cand, &gc.s[j]) < 0)
			goto out;
	}
	for (i = 0; i < gc.n; i++)
		if (!matched[i])
			add_unmatched(r, "candidate", &gc.s[i],
				      "not in the baseline");
	compare_side_flags(r, base, cand);
	r->gate_pct = -1;
	ret = 0;
out:
	free(matched);
	series_release(&gb);
	series_release(&gc);
	if (ret < 0)
		compare_result_release(r);
	return ret;
}

void compare_result_release(struct compare_result *r)
{
	size_t i, k;

	for (i = 0; i < r->n; i++) {
		for (k = 0; k < r->cmp[i].nflags; k++)
			free(r->cmp[i].flags[k].message);
		free(r->cmp[i].flags);
		free(r->cmp[i].klock);
		compare_second_release(&r->cmp[i]);
	}
	free(r->cmp);
	free(r->unmatched);
	for (i = 0; i < r->nside_flags; i++)
		free(r->side_flags[i].message);
	free(r->side_flags);
	memset(r, 0, sizeof(*r));
}
