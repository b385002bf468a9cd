/*
 * flags_pair.c - the flags that judge two samples: configurations of one
 * sweep that differ in one parameter (misleading throughput: a gain bought
 * by the lock changing hands less; contention-coupled), and compare's
 * fairness and latency A/B (analysis/abfair.h).  The per-configuration
 * detectors and the flag table are in flags.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "analysis/abfair.h"
#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "analysis/flagtab.h"
#include "lib/numfmt.h"
#include "lib/util.h"

/* ---- pairs of one sweep: misleading throughput ---- */

const char *flags_num(double v)
{
	static char ring[16][24];
	static unsigned next;
	char *b = ring[next++ % ARRAY_SIZE(ring)];

	return numfmt(b, sizeof(ring[0]), v);
}

static const struct welch welch_nan = { NAN, NAN, NAN, NAN, NAN, NAN, NAN };

void analysis_handoff_check(const struct pair_side *a,
			    const struct pair_side *b,
			    const struct analysis_opts *o, double confidence,
			    struct handoff_check *out)
{
	/* what cannot be computed is NaN (stats.h; one value: no difference) */
	*out = (struct handoff_check){ .tput = welch_nan };
	if (a->ntput >= 2 && b->ntput >= 2)
		stats_welch(a->tput, a->ntput, b->tput, b->ntput, confidence,
			    &out->tput);
	/* counts and rates: the ratio of means, its interval on the log scale */
	stats_ratio_welch(a->rate, a->nrate, b->rate, b->nrate, confidence,
			  &out->rate);
	stats_ratio_welch(a->cont, a->ncont, b->cont, b->ncont, confidence,
			  &out->cont);
	out->drop = -out->rate.change_pct / 100;
	out->gain = out->tput.p < o->alpha && out->tput.diff > 0;
	out->misleading = out->gain && out->rate.p < o->alpha &&
			  out->rate.change_pct < 0 &&
			  out->drop >= o->handoff_drop;
	out->coupled = out->gain && !out->misleading &&
		       out->cont.p < o->alpha && out->cont.change_pct < 0;
}

/*
 * Every swept parameter is judged except fewer workers and load
 * parameters (vocab_param_rule, db/vocab.h); why: docs/USER-GUIDE.md,
 * "Flags: what each means and what to do".
 *
 * Each configuration's measured series, loaded once, shared by its pairs.
 * S_CPS: contended acquisitions/s; S_KPS, S_KPO: kernel lock contentions
 * per second, per op; S_KWS: the kernel wait share.
 */
enum { S_TPUT, S_RATE, S_CONT, S_CPS, S_KPS, S_KPO, S_KWS, S_N };

static double (*const series_get[S_N])(const struct dataset *, size_t) = {
	analysis_throughput, analysis_handoff_rate, analysis_contention_rate,
	analysis_contended_rate, analysis_klock_rate, analysis_klock_per_op,
	analysis_kwait_share,
};

struct series_set {
	double *x[S_N];
	size_t n[S_N];
};

struct side {
	size_t c;
	const struct series_set *ss;
	struct pair_side ps;
};

/*
 * The rate the pair check watches, the first both sides have:
 *   hand-offs/s (the lock workloads count them);
 *   contended acquisitions/s (throughput x contention rate), the nearest
 *     thing a workload with a user-space lock but no hand-off count has;
 *   kernel lock contentions/s (klock_contended / elapsed_s), with the
 *     kernel wait share (the runner's BPF program: klock_wait_s / (tasks x
 *     window), docs/KLOCK.md) as the contention rate, or without it the
 *     kernel contentions per operation, for a workload with no user-space
 *     lock counter at all (creat, chat, command): its serialization
 *     happens in the kernel's locks.
 */
static bool both(const struct side *lo, const struct side *hi, int k)
{
	return lo->ss->n[k] >= 2 && hi->ss->n[k] >= 2;
}

/* Binds each side's pair_side to that rate; returns its name. */
static const char *side_bind(struct side *lo, struct side *hi)
{
	struct side *s[2] = { lo, hi };
	int rate = S_RATE, cont = S_CONT;
	const char *name = "hand-offs/s";

	if (!both(lo, hi, S_RATE) && (both(lo, hi, S_CPS) ||
				      !both(lo, hi, S_KPS))) {
		rate = S_CPS;
		name = "contended acquisitions/s";
	} else if (!both(lo, hi, S_RATE)) {
		rate = S_KPS;
		cont = both(lo, hi, S_KWS) ? S_KWS : S_KPO;
		name = "kernel lock contentions/s";
	}
	for (int i = 0; i < 2; i++) {
		const struct series_set *ss = s[i]->ss;

		s[i]->ps = (struct pair_side){ ss->x[S_TPUT], ss->x[rate],
					       ss->x[cont], ss->n[S_TPUT],
					       ss->n[rate], ss->n[cont] };
	}
	return name;
}

/* The one parameter in which configurations i and j differ, or -1. */
static long one_difference(const struct ds_config *ci, const struct ds_config *cj)
{
	size_t k, ndiff = 0;
	long at = -1;

	if (ci->nparams != cj->nparams)
		return -1;
	for (k = 0; k < ci->nparams; k++) {
		const char *v = ds_config_param(cj, ci->params[k].key);

		if (!v)
			return -1;
		if (strcmp(ci->params[k].value, v)) {
			ndiff++;
			at = (long)k;
		}
	}
	return ndiff == 1 ? at : -1;
}

/* The faster side has fewer workers: not judged (fake scaling, more
 * workers, still is). */
static bool fewer_workers(const struct param_rule *r, const char *lo,
			  const char *hi)
{
	double vl, vh;

	return r && r->role == PR_WORKERS && !parse_double(lo, &vl) &&
	       !parse_double(hi, &vh) && vh < vl;
}

/* "13.70M [13.55M, 13.85M]": the mean of x with its Student-t interval,
 * into b; the mean into *mean. */
static char *mean_ci(char *b, size_t len, const double *x, size_t n,
		     double confidence, double *mean)
{
	double lo, hi;

	/* Not stats_summarize: its sorts made this the report's hot spot. */
	if (!n || stats_mean_ci(x, n, confidence, mean, &lo, &hi) < 0) {
		*mean = NAN;
		snprintf(b, len, "-");
		return b;
	}
	snprintf(b, len, "%s [%s, %s]", flags_num(*mean), flags_num(lo),
		 flags_num(hi));
	return b;
}

struct pair {
	const struct ds_config *clo, *chi;
	const char *key;
	const struct param_rule *rule;  /* the key's declaration, or NULL */
	struct side *lo, *hi;
	const char *rate_name;          /* the rate side_bind chose */
	struct handoff_check chk;
};

/* Each side's mean, the change, its interval and p: throughput, rate. */
static void pair_nums(struct flag *f, const double v[2][6])
{
	static const char *const keys[2][6] = {
		{ "throughput_a", "throughput_b", "throughput_change_pct",
		  "throughput_change_low_pct", "throughput_change_high_pct",
		  "throughput_p" },
		{ "rate_a", "rate_b", "rate_change_pct", "rate_change_low_pct",
		  "rate_change_high_pct", "rate_p" },
	};

	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 6; k++)
			flag_num(f, keys[i][k], v[i][k]);
}

/* A pair of an observer against observer = none (runner/observer.h). */
static bool observed(const struct pair *p)
{
	return !strcmp(p->key, "observer") &&
	       !strcmp(ds_config_param(p->clo, p->key), "none");
}

static void flag_pair(struct analysis *a, const struct pair *p)
{
	struct config_analysis *ca = &a->configs[p->hi->c];
	struct config_analysis *co = &a->configs[p->lo->c];
	const struct pair_side *lo = &p->lo->ps, *hi = &p->hi->ps;
	const struct welch *w = &p->chk.tput;
	double conf = a->opts.confidence, v[2][6], *t = v[0] + 2, *h = v[1] + 2;
	char stlo[80], sthi[80], shlo[80], shhi[80], gain[1024], drop[512];
	int m = dataset_metric(a->d, "throughput");
	bool load = p->rule && p->rule->role == PR_LOAD;
	struct flag *f;

	mean_ci(stlo, sizeof(stlo), lo->tput, lo->ntput, conf, &v[0][0]);
	mean_ci(sthi, sizeof(sthi), hi->tput, hi->ntput, conf, &v[0][1]);
	mean_ci(shlo, sizeof(shlo), lo->rate, lo->nrate, conf, &v[1][0]);
	mean_ci(shhi, sizeof(shhi), hi->rate, hi->nrate, conf, &v[1][1]);
	/* the changes in percent of the lower side's mean */
	t[0] = 100 * w->diff / v[0][0];
	t[1] = 100 * w->ci_low / v[0][0];
	t[2] = 100 * w->ci_high / v[0][0];
	v[0][5] = w->p;
	h[0] = p->chk.rate.change_pct;
	h[1] = p->chk.rate.ci_low_pct;
	h[2] = p->chk.rate.ci_high_pct;
	v[1][5] = p->chk.rate.p;
	/* what every pair message starts with, and the hand-off change */
	snprintf(gain, sizeof(gain), "%s %s -> %s raised throughput %+.1f%% "
		 "[%+.1f%%, %+.1f%%] (%s -> %s ops/s, Welch p %.2g)", p->key,
		 ds_config_param(p->clo, p->key), ds_config_param(p->chi, p->key),
		 t[0], t[1], t[2], stlo, sthi, p->chk.tput.p);
	snprintf(drop, sizeof(drop), "%s changed %+.1f%% [%+.1f%%, %+.1f%%] "
		 "(%s -> %s, p %.2g)", p->rate_name, h[0], h[1], h[2],
		 shlo, shhi, p->chk.rate.p);
	if (p->chk.misleading && load)
		f = analysis_flag_add(ca, "contention-coupled", m, (long)p->lo->c,
			"%s while %s. Not judged misleading: %s %s; lower "
			"contention is its intended effect and the two "
			"configurations do different work, while the "
			"misleading-throughput check is for changes to the lock's "
			"serialized path (contended_delay_ns, hold_ns, a kernel). "
			"Informational.", gain, drop, p->key, p->rule->why);
	else if (p->chk.misleading && observed(p))
		f = analysis_flag_add(ca, "misleading-throughput", m, (long)p->lo->c,
			"%s while %s: the observer slowed the lock's contended "
			"path, so waiters slept and threads ran alone in longer "
			"streaks, as lockdep and lock tracing do (a mutex "
			"benchmark 15%% faster while its contended acquisitions "
			"halved); the gain is the observer's effect, not a faster "
			"lock. Judge what an observer shows by hand-offs per "
			"second, and quote no throughput measured under it.",
			gain, drop);
	else if (p->chk.misleading)
		f = analysis_flag_add(ca, "misleading-throughput", m, (long)p->lo->c,
			"%s while %s: the gain comes from the lock changing hands "
			"less often (threads running alone in long streaks), not "
			"from a faster lock; whole-run fairness cannot show it "
			"(Jain %.3f -> %.3f). Check with fixed-work runs (jobs = "
			"N) and per-thread progress over time before claiming a "
			"speed-up.", gain, drop, co->mean_jain, ca->mean_jain);
	else
		f = analysis_flag_add(ca, "contention-coupled", m, (long)p->lo->c,
			"%s and the contention rate fell (p %.2g), but %s did not "
			"fall by %.0f%% or more (%+.1f%% [%+.1f%%, %+.1f%%], %s -> "
			"%s, p %.2g): the lock changes hands as often as before, "
			"so the gain looks genuine (e.g. a shorter critical "
			"section). Informational.", gain, p->chk.cont.p,
			p->rate_name, 100 * a->opts.handoff_drop, h[0], h[1],
			h[2], shlo, shhi, p->chk.rate.p);
	pair_nums(f, v);
	flag_num(f, "contention_p", p->chk.cont.p);
	flag_num(f, "handoff_drop", a->opts.handoff_drop);
	if (p->chk.misleading && load)
		flag_num(f, "load_param", 1);
}

/* Orders the two sides by mean throughput and runs the check. */
static void judge_pair(struct analysis *a, const struct series_set *cache,
		       size_t i, size_t j, long k)
{
	const struct dataset *d = a->d;
	struct side si = { i, &cache[i], { 0 } };
	struct side sj = { j, &cache[j], { 0 } };
	struct pair p;

	if (si.ss->n[S_TPUT] < 2 || sj.ss->n[S_TPUT] < 2)
		return;
	p.lo = gsl_stats_mean(si.ss->x[S_TPUT], 1, si.ss->n[S_TPUT]) <=
			gsl_stats_mean(sj.ss->x[S_TPUT], 1, sj.ss->n[S_TPUT])
		       ? &si : &sj;
	p.hi = p.lo == &si ? &sj : &si;
	p.clo = &d->configs[p.lo->c];
	p.chi = &d->configs[p.hi->c];
	p.key = d->configs[i].params[k].key;
	p.rule = vocab_param_rule(d->configs[i].workload, p.key);
	if (fewer_workers(p.rule, ds_config_param(p.clo, p.key),
			  ds_config_param(p.chi, p.key)))
		return;
	p.rate_name = side_bind(p.lo, p.hi);
	analysis_handoff_check(&p.lo->ps, &p.hi->ps, &a->opts,
			       a->opts.confidence, &p.chk);
	if (p.chk.misleading || p.chk.coupled)
		flag_pair(a, &p);
}

void flag_pairs(struct analysis *a)
{
	const struct dataset *d = a->d;
	struct series_set *cache;
	size_t i, j;
	long k;

	if (dataset_metric(d, "throughput") < 0)
		return;
	cache = xcalloc(d->nconfigs + 1, sizeof(*cache));
	for (i = 0; i < d->nconfigs; i++)
		for (k = 0; k < S_N; k++)
			cache[i].n[k] = analysis_values_of(d, i, series_get[k],
							   &cache[i].x[k]);
	for (i = 0; i < d->nconfigs; i++)
		for (j = i + 1; j < d->nconfigs; j++) {
			const struct ds_config *ci = &d->configs[i];
			const struct ds_config *cj = &d->configs[j];

			if (strcmp(ci->section, cj->section) ||
			    strcmp(ci->workload, cj->workload))
				continue;
			k = one_difference(ci, cj);
			if (k >= 0)
				judge_pair(a, cache, i, j, k);
		}
	for (i = 0; i < d->nconfigs; i++)
		for (k = 0; k < S_N; k++)
			free(cache[i].x[k]);
	free(cache);
}

/* ---- fairness and latency A/B (abfair.h) ---- */

static const char *const abfair_names[ABFAIR_N] = {
	[ABFAIR_JAIN] = "jain",
	[ABFAIR_MAX_SHARE] = "max_share",
	[ABFAIR_P99] = "acquire_p99_ns",
};

double abfair_max_share(const struct dataset *d, size_t r)
{
	const struct ds_run *run = &d->runs[r];

	if (run->nthreads < 2 || !d->thread_ops)
		return NAN;
	return stats_max_share(d->thread_ops + run->thread0, run->nthreads);
}

double abfair_starved(const struct dataset *d, size_t r)
{
	const struct ds_run *run = &d->runs[r];
	const uint64_t *ops;
	uint64_t lo, hi;
	size_t i;

	if (run->nthreads < 2 || !d->thread_ops)
		return NAN;
	ops = d->thread_ops + run->thread0;
	lo = hi = ops[0];
	for (i = 1; i < run->nthreads; i++) {
		lo = ops[i] < lo ? ops[i] : lo;
		hi = ops[i] > hi ? ops[i] : hi;
	}
	/* locktorture: "max/2 > min" is a starved run */
	return hi / 2 > lo ? 1 : 0;
}

double abfair_mean(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : NAN;
}

void abfair_judge(const struct compare_groups *b, const struct compare_groups *c,
		  const struct compare_opts *o, int dir, struct abfair_one *out)
{
	struct compare_opts oo = *o;
	struct compare_stats st;
	size_t nb = 0, nc = 0, i;

	memset(out, 0, sizeof(*out));
	out->base = out->cand = out->change_pct = NAN;
	out->ci_low_pct = out->ci_high_pct = NAN;
	for (i = 0; i < b->k; i++)
		nb += b->sizes[i];
	for (i = 0; i < c->k; i++)
		nc += c->sizes[i];
	if (nb < 2 || nc < 2)
		return;
	oo.dir = (enum direction)dir;
	if (compare_model(b, c, &oo, &st) < 0)
		return;
	out->have = true;
	out->base = st.base.mean;
	out->cand = st.cand.mean;
	out->change_pct = st.change_pct;
	out->ci_low_pct = st.change_ci_low_pct;
	out->ci_high_pct = st.change_ci_high_pct;
	out->worse = dir == DIR_HIGHER ? st.change_ci_high_pct < 0
				       : st.change_ci_low_pct > 0;
	out->better = dir == DIR_HIGHER ? st.change_ci_low_pct > 0
					: st.change_ci_high_pct < 0;
}

bool abfair_traded(const struct abfair *f, bool improved)
{
	bool worse = (f->m[ABFAIR_JAIN].have && f->m[ABFAIR_JAIN].worse) ||
		     (f->m[ABFAIR_MAX_SHARE].have &&
		      f->m[ABFAIR_MAX_SHARE].worse);

	return improved && worse && f->starved_cand >= 0.5;
}

char *abfair_text(const struct abfair *f)
{
	char out[1024] = "", buf[96], b[32], c[32];
	size_t i, len = 0;

	for (i = 0; i < ABFAIR_N; i++) {
		const struct abfair_one *m = &f->m[i];

		if (m->have)
			len += (size_t)snprintf(out + len, sizeof(out) - len,
				"%s%s %s -> %s, %s%s", len ? "; " : "",
				abfair_names[i], numfmt(b, sizeof(b), m->base),
				numfmt(c, sizeof(c), m->cand),
				isnan(m->ci_low_pct) ? "no interval" :
				numfmt_pct_ci(buf, sizeof(buf), m->change_pct,
					      m->ci_low_pct, m->ci_high_pct),
				m->worse ? " (worse)" : m->better ? " (better)" : "");
	}
	if (!isnan(f->starved_base) && !isnan(f->starved_cand))
		len += (size_t)snprintf(out + len, sizeof(out) - len,
			"%sstarved runs (max/2 > min) %.0f%% -> %.0f%%",
			len ? "; " : "", 100 * f->starved_base,
			100 * f->starved_cand);
	return len ? xstrdup(out) : NULL;
}

/* Full precision (%.17g), null when not finite. */
static void num(struct json_writer *w, const char *key, double v)
{
	if (isfinite(v)) {
		json_key(w, key);
		fprintf(w->f, "%.17g", v);
	} else {
		json_null(w, key);
	}
}

void abfair_json(struct json_writer *w, const struct abfair *a)
{
	size_t i;

	for (i = 0; i < ABFAIR_N; i++) {
		const struct abfair_one *m = &a->m[i];

		if (!m->have) {
			json_null(w, abfair_names[i]);
			continue;
		}
		json_open(w, abfair_names[i], '{');
		num(w, "base", m->base);
		num(w, "cand", m->cand);
		num(w, "change_pct", m->change_pct);
		num(w, "ci_low_pct", m->ci_low_pct);
		num(w, "ci_high_pct", m->ci_high_pct);
		json_bool(w, "worse", m->worse);
		json_bool(w, "better", m->better);
		json_close(w, '}');
	}
	num(w, "starved_base", a->starved_base);
	num(w, "starved_cand", a->starved_cand);
}
