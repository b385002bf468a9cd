/*
 * compare.c - A/B comparison.  compare_samples() is the whole statistical
 * judgement and sees nothing but two arrays, a direction, a threshold and a
 * confidence, so number files and databases are judged by the same code;
 * compare_sides() only matches configurations, forms each side's sample
 * and attaches the flags.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "analysis/compare.h"
#include "runner/util.h"

const char *const verdict_names[] = {
	[VERDICT_FASTER] = "faster",
	[VERDICT_SLOWER] = "slower",
	[VERDICT_NO_CHANGE] = "no-change",
	[VERDICT_INCONCLUSIVE] = "inconclusive",
};

/* DESIGN-CHANGES.md: the host facts runner/host.c records under these. */
const char *const compare_host_keys[] = {
	"cpu_model", "cpus_online", "governor", "smt",
};
const size_t ncompare_host_keys = ARRAY_SIZE(compare_host_keys);

/* Analysis flags that describe one side and travel with a comparison. */
static const char *const carried_flags[] = { "noisy", "drift", "unfair" };

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
}

/* ---- two samples ---- */

static void summarize(const double *x, size_t n, double confidence,
		      struct compare_summary *cs)
{
	struct summary s;

	cs->n = n;
	cs->mean = cs->sd = cs->ci_low = cs->ci_high = NAN;
	if (n == 1) {
		cs->mean = x[0];        /* no spread, no interval */
		return;
	}
	if (stats_summarize(x, n, confidence, &s) < 0)
		return;
	cs->mean = s.mean;
	cs->sd = s.sd;
	cs->ci_low = s.ci_low;
	cs->ci_high = s.ci_high;
}

static double pct_of(double x, double base)
{
	double scale = fabs(base);

	return scale > 0 ? 100 * x / scale : NAN;
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

/* Welch CI and p, Mann-Whitney, Hedges' g: both sides have n >= 2. */
static void two_sample_tests(const double *b, size_t nb, const double *c,
			     size_t nc, const struct compare_opts *o,
			     struct compare_stats *r)
{
	struct mannwhitney mw;
	struct welch w;

	if (!(r->base.sd > 0) && !(r->cand.sd > 0)) {
		/* Constant samples: the difference is known exactly. */
		r->diff_ci_low = r->diff_ci_high = r->diff;
	} else if (stats_welch(b, nb, c, nc, o->confidence, &w) == 0) {
		r->diff_ci_low = w.ci_low;
		r->diff_ci_high = w.ci_high;
		r->df = w.df;
		r->p_welch = w.p;
	}
	if (stats_mannwhitney(b, nb, c, nc, &mw) == 0) {
		r->p_mannwhitney = mw.p;
		r->mw_exact = mw.exact;
	}
	r->hedges_g = stats_hedges_g(b, nb, c, nc);
}

/* Power figures use the sd of two equal groups with both variances. */
static void power_figures(const struct compare_opts *o,
			  struct compare_stats *r)
{
	double sd = sqrt((r->base.sd * r->base.sd +
			  r->cand.sd * r->cand.sd) / 2);
	double alpha = 1 - o->confidence;
	double delta = o->threshold_pct / 100 * fabs(r->base.mean);
	size_t n = r->base.n < r->cand.n ? r->base.n : r->cand.n;

	if (isnan(sd))
		return;
	r->mde_pct = pct_of(stats_mde(sd, n, alpha, o->power), r->base.mean);
	if (r->verdict == VERDICT_INCONCLUSIVE && delta > 0)
		r->needed_runs = stats_needed_n(sd, delta, alpha, o->power);
}

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

int compare_samples(const double *base, size_t nb, const double *cand,
		    size_t nc, const struct compare_opts *o,
		    struct compare_stats *r)
{
	if (!nb || !nc)
		return error("compare: the %s has no values",
			     nb ? "candidate" : "baseline");
	if (check_opts(o) < 0)
		return -1;
	memset(r, 0, sizeof(*r));
	r->diff_ci_low = r->diff_ci_high = r->df = r->p_welch = NAN;
	r->p_mannwhitney = r->hedges_g = r->mde_pct = NAN;
	summarize(base, nb, o->confidence, &r->base);
	summarize(cand, nc, o->confidence, &r->cand);
	r->diff = r->cand.mean - r->base.mean;
	r->change_pct = pct_of(r->diff, r->base.mean);
	if (nb >= 2 && nc >= 2)
		two_sample_tests(base, nb, cand, nc, o, r);
	r->change_ci_low_pct = pct_of(r->diff_ci_low, r->base.mean);
	r->change_ci_high_pct = pct_of(r->diff_ci_high, r->base.mean);
	r->verdict = decide(r->change_ci_low_pct, r->change_ci_high_pct,
			    o->dir, o->threshold_pct);
	r->improved = o->dir == DIR_HIGHER ? r->diff_ci_low > 0
					   : r->diff_ci_high < 0;
	power_figures(o, r);
	return 0;
}

int compare_handoffs(const double *base, size_t nb, const double *cand,
		     size_t nc, const struct compare_opts *o,
		     struct handoff_change *h)
{
	struct welch w;

	if (nb < 2 || nc < 2)
		return -1;
	if (stats_welch(base, nb, cand, nc, o->confidence, &w) < 0)
		return -1;
	h->base_mean = gsl_stats_mean(base, 1, nb);
	h->cand_mean = gsl_stats_mean(cand, 1, nc);
	h->change_pct = pct_of(h->cand_mean - h->base_mean, h->base_mean);
	h->p = w.p;
	h->fell = h->p < o->alpha &&
		  h->change_pct <= -100 * o->handoff_drop;
	return 0;
}

/* ---- selections: matching, samples, flags ---- */

/* One experiment's copy of a configuration. */
struct inv {
	size_t set, config;
};

/* A configuration key (workload type + canonical parameters) on a side. */
struct group {
	const char *workload, *canon, *section;
	size_t n;
	struct inv *inv;
	bool matched;
};

static long group_find(const struct group *g, size_t n, const char *workload,
		       const char *canon)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(g[i].workload, workload) &&
		    !strcmp(g[i].canon, canon))
			return (long)i;
	return -1;
}

/* Groups a side's configurations by key, in order of first appearance. */
static struct group *groups_build(const struct compare_side *s, size_t *n)
{
	struct group *g = NULL;
	size_t i, c;

	*n = 0;
	for (i = 0; i < s->nsets; i++) {
		for (c = 0; c < s->sets[i].nconfigs; c++) {
			const struct ds_config *dc = &s->sets[i].configs[c];
			long k = group_find(g, *n, dc->workload, dc->canon);
			struct group *gr;

			if (k < 0) {
				g = xrealloc(g, (*n + 1) * sizeof(*g));
				k = (long)(*n)++;
				memset(&g[k], 0, sizeof(g[k]));
				g[k].workload = dc->workload;
				g[k].canon = dc->canon;
				g[k].section = dc->section;
			}
			gr = &g[k];
			gr->inv = xrealloc(gr->inv,
					   (gr->n + 1) * sizeof(*gr->inv));
			gr->inv[gr->n++] = (struct inv){ i, c };
		}
	}
	return g;
}

static void groups_free(struct group *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(g[i].inv);
	free(g);
}

/* Pulls the measured ok values of one configuration of one dataset. */
typedef size_t (*extract_fn)(const struct dataset *d, size_t c,
			     const char *metric, double **out);

static size_t extract_metric(const struct dataset *d, size_t c,
			     const char *metric, double **out)
{
	int m = dataset_metric(d, metric);

	*out = NULL;
	return m < 0 ? 0 : analysis_values(d, c, m, out);
}

/* Hand-offs per second as the analysis flag reads them. */
static size_t extract_handoff_rate(const struct dataset *d, size_t c,
				   const char *unused, double **out)
{
	(void)unused;
	return analysis_values_of(d, c, analysis_handoff_rate, out);
}

/* The analysis flag's stand-in when a side has no hand-off rate. */
static size_t extract_contended_rate(const struct dataset *d, size_t c,
				     const char *unused, double **out)
{
	(void)unused;
	return analysis_values_of(d, c, analysis_contended_rate, out);
}

struct sample {
	double *x;
	size_t n;
	struct compare_unit u;
	long exp;               /* the experiment, with one invocation */
};

/*
 * A side's sample for one configuration: the runs of its one invocation,
 * or the means of its invocations when it has several (Kalibera & Jones:
 * runs within one boot are not independent replicates of the boot).
 */
static void sample_build(const struct compare_side *s, const struct group *g,
			 extract_fn fn, const char *metric, struct sample *out)
{
	double *means = xcalloc(g->n, sizeof(double)), *runs = NULL;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < g->n; i++) {
		const struct dataset *d = &s->sets[g->inv[i].set];
		double *v;
		size_t k = fn(d, g->inv[i].config, metric, &v);

		if (!k) {
			free(v);
			continue;
		}
		means[out->u.invocations++] = gsl_stats_mean(v, 1, k);
		out->u.runs += k;
		out->exp = (long)d->exp.id;
		if (!runs) {
			runs = v;
			out->n = k;
		} else {
			free(v);
		}
	}
	out->u.means = out->u.invocations >= 2;
	if (out->u.means) {
		out->x = means;
		out->n = out->u.invocations;
		free(runs);
	} else {
		out->x = runs;
		free(means);
	}
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

static bool has_flag(const struct comparison *c, const char *name,
		     const char *side)
{
	size_t i;

	for (i = 0; i < c->nflags; i++)
		if (!strcmp(c->flags[i].name, name) &&
		    !strcmp(c->flags[i].side, side))
			return true;
	return false;
}

static bool is_carried(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(carried_flags); i++)
		if (!strcmp(carried_flags[i], name))
			return true;
	return false;
}

/* noisy, drift, unfair of any invocation, once per side. */
static void carry_flags(struct comparison *c, const struct compare_side *s,
			const struct group *g, const char *metric,
			const char *side)
{
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		const struct dataset *d = &s->sets[g->inv[i].set];
		const struct config_analysis *ca =
			&s->an[g->inv[i].set].configs[g->inv[i].config];
		int m = dataset_metric(d, metric);

		for (k = 0; k < ca->nflags; k++) {
			const struct flag *f = &ca->flags[k];

			if (!is_carried(f->name) ||
			    (f->metric >= 0 && f->metric != m) ||
			    has_flag(c, f->name, side))
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

/* First differing value of key between the sides' experiments, or NULL. */
static char *host_diff(const struct compare_side *b, const struct group *gb,
		       const struct compare_side *c, const struct group *gc,
		       const char *key)
{
	size_t i, j;

	for (i = 0; i < gb->n; i++) {
		const char *vb = host_value(&b->sets[gb->inv[i].set], key);

		for (j = 0; vb && j < gc->n; j++) {
			const char *vc = host_value(&c->sets[gc->inv[j].set],
						    key);

			if (vc && strcmp(vb, vc))
				return xasprintf("%s '%s' vs '%s'", key, vb,
						 vc);
		}
	}
	return NULL;
}

static void host_mismatch(struct comparison *cmp, const struct compare_side *b,
			  const struct group *gb, const struct compare_side *c,
			  const struct group *gc)
{
	char *msg = NULL, *d;
	size_t k;

	for (k = 0; k < ncompare_host_keys; k++) {
		d = host_diff(b, gb, c, gc, compare_host_keys[k]);
		if (!d)
			continue;
		if (msg) {
			char *joined = xasprintf("%s; %s", msg, d);

			free(msg);
			free(d);
			msg = joined;
		} else {
			msg = d;
		}
	}
	if (msg)
		comparison_flag(cmp, "host-mismatch", "both",
				xasprintf("baseline and candidate ran on "
					  "different hosts: %s", msg));
	free(msg);
}

/* The hand-off rate of both sides: handoff_rate, else contended/s. */
static const char *handoff_samples(const struct compare_side *b,
				   const struct group *gb,
				   const struct compare_side *c,
				   const struct group *gc, struct sample *sb,
				   struct sample *sc)
{
	sample_build(b, gb, extract_handoff_rate, NULL, sb);
	sample_build(c, gc, extract_handoff_rate, NULL, sc);
	if (sb->n >= 2 && sc->n >= 2)
		return "hand-offs/s";
	free(sb->x);
	free(sc->x);
	sample_build(b, gb, extract_contended_rate, NULL, sb);
	sample_build(c, gc, extract_contended_rate, NULL, sc);
	return "contended acquisitions/s (throughput x contention_rate)";
}

static void misleading(struct comparison *cmp, const struct compare_opts *o,
		       const struct compare_side *b, const struct group *gb,
		       const struct compare_side *c, const struct group *gc)
{
	struct sample sb, sc;
	struct handoff_change h;
	const char *what;

	if (!cmp->st.improved)
		return;
	what = handoff_samples(b, gb, c, gc, &sb, &sc);
	if (compare_handoffs(sb.x, sb.n, sc.x, sc.n, o, &h) == 0 && h.fell)
		comparison_flag(cmp, "misleading-throughput", "both",
			xasprintf("the candidate is faster while its %s fell "
				  "%.1f%% (%.4g -> %.4g, Welch p = %.2g): the "
				  "lock changes hands less often, as when its "
				  "contended path is slowed (the lockdep "
				  "effect); do not read this as a speed-up",
				  what, -h.change_pct, h.base_mean,
				  h.cand_mean, h.p));
	free(sb.x);
	free(sc.x);
}

static void unit_flags(struct comparison *cmp, const struct compare_side *b,
		       const struct compare_side *c)
{
	/* A number file says nothing of how its values were invoked. */
	bool b1 = !b->numbers && cmp->ubase.invocations < 2;
	bool c1 = !c->numbers && cmp->ucand.invocations < 2;

	if (cmp->st.base.n < 2 || cmp->st.cand.n < 2)
		comparison_flag(cmp, "too-few-runs",
				cmp->st.base.n < 2 ? "baseline" : "candidate",
				xasprintf("a side with fewer than 2 values has "
					  "no spread: nothing can be "
					  "concluded"));
	if (b1 || c1)
		comparison_flag(cmp, "single-invocation",
				b1 && c1 ? "both" : b1 ? "baseline"
						       : "candidate",
				xasprintf("%s one experiment (boot): the "
					  "variance between invocations is "
					  "unmeasured there, so the interval "
					  "may be too narrow; repeat the "
					  "experiment (e.g. after a reboot) "
					  "under the same name and label",
					  b1 && c1 ? "each side is"
					  : b1 ? "the baseline is"
					       : "the candidate is"));
}

static void add_unmatched(struct compare_result *r, const char *side,
			  const struct group *g, const char *reason)
{
	struct compare_unmatched *u;

	r->unmatched = xrealloc(r->unmatched,
				(r->nunmatched + 1) * sizeof(*r->unmatched));
	u = &r->unmatched[r->nunmatched++];
	u->side = side;
	u->workload = g->workload;
	u->canon = g->canon;
	u->section = g->section;
	u->reason = reason;
}

static int match_one(struct compare_result *r, const struct compare_side *b,
		     const struct group *gb, const struct compare_side *c,
		     const struct group *gc)
{
	struct comparison *cmp;
	struct sample sb, sc;
	int ret = -1;

	sample_build(b, gb, extract_metric, r->metric, &sb);
	sample_build(c, gc, extract_metric, r->metric, &sc);
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
	cmp->config = &b->sets[gb->inv[0].set].configs[gb->inv[0].config];
	cmp->ubase = sb.u;
	cmp->ucand = sc.u;
	if (compare_samples(sb.x, sb.n, sc.x, sc.n, &r->opts, &cmp->st) < 0)
		goto out;
	r->count[cmp->st.verdict]++;
	unit_flags(cmp, b, c);
	carry_flags(cmp, b, gb, r->metric, "baseline");
	carry_flags(cmp, c, gc, r->metric, "candidate");
	misleading(cmp, &r->opts, b, gb, c, gc);
	host_mismatch(cmp, b, gb, c, gc);
	ret = 0;
out:
	free(sb.x);
	free(sc.x);
	return ret;
}

int compare_side_has_metric(const struct compare_side *s,
			    const char *metric, const char *side)
{
	size_t i, k;
	char *have = NULL;

	for (i = 0; i < s->nsets; i++)
		if (dataset_metric(&s->sets[i], metric) >= 0)
			return 0;
	for (i = 0; i < s->nsets; i++) {
		for (k = 0; k < s->sets[i].nmetrics; k++) {
			char *t = xasprintf("%s%s%s", have ? have : "",
					    have ? ", " : "",
					    s->sets[i].metrics[k]);

			free(have);
			have = t;
		}
	}
	error("metric '%s' is not recorded in the %s (%s); it has: %s",
	      metric, side, s->name, have ? have : "none");
	free(have);
	return -1;
}

int compare_sides(const struct compare_side *base,
		  const struct compare_side *cand, const char *metric,
		  const struct compare_opts *o, struct compare_result *r)
{
	struct group *gb = NULL, *gc = NULL;
	size_t nb = 0, nc = 0, i;
	int ret = -1;

	memset(r, 0, sizeof(*r));
	r->opts = *o;
	r->metric = metric;
	if (check_opts(o) < 0 ||
	    compare_side_has_metric(base, metric, "baseline") < 0 ||
	    compare_side_has_metric(cand, metric, "candidate") < 0)
		return -1;
	gb = groups_build(base, &nb);
	gc = groups_build(cand, &nc);
	for (i = 0; i < nb; i++) {
		long j = group_find(gc, nc, gb[i].workload, gb[i].canon);

		if (j < 0) {
			add_unmatched(r, "baseline", &gb[i],
				      "not in the candidate");
			continue;
		}
		gc[j].matched = true;
		if (match_one(r, base, &gb[i], cand, &gc[j]) < 0)
			goto out;
	}
	for (i = 0; i < nc; i++)
		if (!gc[i].matched)
			add_unmatched(r, "candidate", &gc[i],
				      "not in the baseline");
	ret = 0;
out:
	groups_free(gb, nb);
	groups_free(gc, nc);
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
	}
	free(r->cmp);
	free(r->unmatched);
	memset(r, 0, sizeof(*r));
}

/* ---- number files as sides ---- */

void compare_numbers_init(struct compare_numbers *num, const char *name,
			  const char *metric, const double *x, size_t n,
			  const struct ds_config *like,
			  struct compare_side *side)
{
	size_t r;

	memset(num, 0, sizeof(*num));
	num->metrics[0] = (char *)metric;   /* never written through */
	num->config.workload = like ? like->workload : (char *)"";
	num->config.canon = like ? like->canon : (char *)"";
	num->config.section = like ? like->section : (char *)"";
	num->config.nruns = n;
	num->set.nconfigs = 1;
	num->set.configs = &num->config;
	num->set.nruns = n;
	num->set.runs = xcalloc(n, sizeof(*num->set.runs));
	for (r = 0; r < n; r++) {
		num->set.runs[r].seq = (long)r;
		num->set.runs[r].repetition = (int)r;
		num->set.runs[r].status = RUN_OK;
	}
	num->set.nmetrics = 1;
	num->set.metrics = num->metrics;
	num->set.values = (double *)x;      /* n x 1, read only */
	num->ca.measured = n;
	num->an.d = &num->set;
	num->an.nconfigs = 1;
	num->an.configs = &num->ca;
	memset(side, 0, sizeof(*side));
	side->name = name;
	side->numbers = true;
	side->nsets = 1;
	side->sets = &num->set;
	side->an = &num->an;
}

void compare_numbers_release(struct compare_numbers *num)
{
	free(num->set.runs);
	memset(num, 0, sizeof(*num));
}

size_t compare_side_configs(const struct compare_side *s,
			    const struct ds_config **first)
{
	struct group *g;
	size_t n;

	g = groups_build(s, &n);
	*first = n ? &s->sets[g[0].inv[0].set].configs[g[0].inv[0].config]
		   : NULL;
	groups_free(g, n);
	return n;
}
