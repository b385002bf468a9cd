/*
 * flags.c - the detectors that stop bad conclusions.  Each flag carries the
 * numbers that raised it and what to do, in words (message) and as named
 * numbers (for json).  Per-configuration flags judge the primary metric
 * only; the pair flags compare configurations of one sweep.  Each flag has
 * its row in the flag table (flagtab.c), which runs these detectors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "analysis/analysis.h"
#include "analysis/flagtab.h"
#include "analysis/kwarn.h"
#include "analysis/regimes.h"
#include "lib/numfmt.h"
#include "db/contract.h"
#include "lib/util.h"

/* Up to this many outliers are named in a message (all are in json). */
#define LIST_OUTLIERS 8

/*
 * A ring of buffers so one printf can format several numbers: each
 * message uses at most 16 at once (flag_outliers: 8 listed + 2).
 */
static const char *num(double v)
{
	static char ring[16][24];
	static unsigned next;
	char *b = ring[next++ % ARRAY_SIZE(ring)];

	return numfmt(b, sizeof(ring[0]), v);
}

static const struct metric_summary *primary(const struct config_analysis *ca)
{
	return ca->primary >= 0 ? &ca->metrics[ca->primary] : NULL;
}

static const char *metric_name(const struct analysis *a, int m)
{
	return m >= 0 ? a->d->metrics[m] : "?";
}

/* ---- per-configuration flags ---- */

void flag_few_runs(const struct analysis *a, struct config_analysis *ca)
{
	struct flag *f;

	if (ca->measured >= a->opts.min_runs)
		return;
	f = analysis_flag_add(ca, "few-runs", -1, -1,
		"only %zu measured run%s (%zu warm-up, %zu failed, %zu not run): "
		"below %zu, intervals are wide and the noise cannot be judged. "
		"Use repetitions >= %zu (10 or more to compare two builds).",
		ca->measured, ca->measured == 1 ? "" : "s", ca->warmup,
		ca->failed, ca->pending, a->opts.min_runs, a->opts.min_runs);
	flag_num(f, "measured", (double)ca->measured);
	flag_num(f, "min_runs", (double)a->opts.min_runs);
}

static double noise_threshold(const struct analysis *a,
			      const struct config_analysis *ca)
{
	double noise = a->d->configs[ca->config].noise;

	return noise > 0 ? noise : 0.05;
}

/*
 * The minimum detectable difference of two groups of this n (two-sided
 * alpha, power 0.8) and the runs per side that resolve --resolve percent:
 * the two numbers a reader needs to know what this noise level allows.
 */
void flag_noisy(const struct analysis *a, struct config_analysis *ca)
{
	const struct metric_summary *ms = primary(ca);
	const struct analysis_opts *o = &a->opts;
	double noise = noise_threshold(a, ca), mde, mde_pct;
	size_t need;
	struct flag *f;
	char *cause;

	if (!ms || ms->s.n < 2 || !(ms->s.cv > noise))
		return;
	mde = stats_mde(ms->s.sd, ms->s.n, o->alpha, o->power);
	mde_pct = 100 * mde / fabs(ms->s.mean);
	need = stats_needed_n(ms->s.sd, o->resolve_pct / 100 * fabs(ms->s.mean),
			      o->alpha, o->power);
	cause = kwarn_noise_cause(a, ca);   /* what the sentinels saw */
	f = analysis_flag_add(ca, "noisy", ms->metric, -1,
		"CV %.1f%% of %s is above the noise threshold %.1f%%: with %zu "
		"runs per side a comparison can only resolve a difference of "
		"%.1f%% (%s %s; two-sided alpha %g, power %g); resolving %g%% "
		"needs %zu runs per side.%s%s Add repetitions (or repetitions = "
		"auto), pin cpus, fix the frequency governor, quiet the machine.",
		100 * ms->s.cv, metric_name(a, ms->metric), 100 * noise,
		ms->s.n, mde_pct, num(mde), metric_unit(metric_name(a, ms->metric)),
		o->alpha, o->power, o->resolve_pct, need, cause ? " " : "",
		cause ? cause : "");
	free(cause);
	flag_num(f, "cv", ms->s.cv);
	flag_num(f, "threshold", noise);
	flag_num(f, "n", (double)ms->s.n);
	flag_num(f, "mde", mde);
	flag_num(f, "mde_pct", mde_pct);
	flag_num(f, "resolve_pct", o->resolve_pct);
	flag_num(f, "needed_n", (double)need);
}

/* Values of the primary metric and their sequence numbers, in seq order. */
static size_t primary_series(const struct analysis *a,
			     const struct config_analysis *ca, double *x,
			     double *seq)
{
	const struct dataset *d = a->d;
	const struct ds_config *cf = &d->configs[ca->config];
	size_t r, n = 0;

	for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
		double v = dataset_value(d, r, ca->primary);

		if (!analysis_measured(d, r) || isnan(v))
			continue;
		x[n] = v;
		seq[n++] = (double)d->runs[r].seq;
	}
	return n;
}

void flag_drift(const struct analysis *a, struct config_analysis *ca)
{
	const struct ds_config *cf = &a->d->configs[ca->config];
	double *x = xmalloc((cf->nruns + 1) * sizeof(*x));
	double *seq = xmalloc((cf->nruns + 1) * sizeof(*seq));
	struct correlation rho;
	struct flag *f;
	size_t n;

	if (ca->primary < 0)
		goto out;
	n = primary_series(a, ca, x, seq);
	if (n < 8 || stats_spearman(seq, x, n, &rho) < 0 ||
	    !(rho.p < a->opts.drift_alpha))
		goto out;
	f = analysis_flag_add(ca, "drift", ca->primary, -1,
		"%s trends with run order: Spearman rho %+.2f against the "
		"sequence number (p %.2g < %g, n %zu); first run %s, last run %s. "
		"Look for thermal throttling, a filling filesystem or state "
		"carried between runs; plot the run order (contend plot) and "
		"use order = random so drift cannot masquerade as a difference.",
		metric_name(a, ca->primary), rho.r, rho.p, a->opts.drift_alpha,
		n, num(x[0]), num(x[n - 1]));
	flag_num(f, "rho", rho.r);
	flag_num(f, "p", rho.p);
	flag_num(f, "n", (double)n);
out:
	free(x);
	free(seq);
}

void flag_outliers(const struct analysis *a, struct config_analysis *ca)
{
	const struct metric_summary *ms = primary(ca);
	char list[512] = "";
	size_t i, len = 0;
	struct flag *f;

	/* two regimes: the smaller one's runs are not outliers */
	if (!ms || !ms->s.noutliers || regimes_flagged(ca, ms->metric))
		return;
	for (i = 0; i < ms->s.noutliers && i < LIST_OUTLIERS; i++) {
		size_t r = ms->outliers[i];
		double v = dataset_value(a->d, r, ms->metric);
		char z[24] = "";
		int k;

		/* With MAD 0 stats scales by the mean deviation: no z here. */
		if (ms->s.mad > 0)
			snprintf(z, sizeof(z), " (z %+.1f)",
				 0.6745 * (v - ms->s.median) / ms->s.mad);
		k = snprintf(list + len, sizeof(list) - len, "%sseq %ld = %s%s",
			     i ? ", " : "", a->d->runs[r].seq, num(v), z);

		if (k < 0 || (size_t)k >= sizeof(list) - len)
			break;
		len += (size_t)k;
	}
	f = analysis_flag_add(ca, "outliers", ms->metric, -1,
		"%zu of %zu runs of %s have a modified z-score above %.1f "
		"(median %s, MAD %s): %s%s. They are kept in every statistic; the "
		"median and its interval are robust to them. Check those runs "
		"(errors, other load on the host) before trusting the mean.",
		ms->s.noutliers, ms->s.n, metric_name(a, ms->metric),
		STATS_OUTLIER_Z, num(ms->s.median), num(ms->s.mad), list,
		ms->s.noutliers > LIST_OUTLIERS ? ", ..." : "");
	flag_num(f, "outliers", (double)ms->s.noutliers);
	flag_num(f, "n", (double)ms->s.n);
	flag_num(f, "threshold", STATS_OUTLIER_Z);
}

void flag_non_normal(const struct analysis *a, struct config_analysis *ca)
{
	const struct metric_summary *ms = primary(ca);
	struct flag *f;

	if (!ms || ms->s.n < 8 || !(ms->s.k2_p < a->opts.alpha))
		return;
	f = analysis_flag_add(ca, "non-normal", ms->metric, -1,
		"D'Agostino K^2 %.2f (p %.2g, n %zu; skewness %+.2f, excess "
		"kurtosis %+.2f) rejects a normal distribution of %s: quote the "
		"median %s [%s, %s] (distribution-free, %.1f%%) rather than the "
		"mean, and compare with Mann-Whitney rather than the t test alone.",
		ms->s.k2, ms->s.k2_p, ms->s.n, ms->s.skewness, ms->s.kurtosis,
		metric_name(a, ms->metric), num(ms->s.median),
		num(ms->s.median_ci_low), num(ms->s.median_ci_high),
		100 * ms->s.median_ci_level);
	flag_num(f, "k2", ms->s.k2);
	flag_num(f, "p", ms->s.k2_p);
	flag_num(f, "n", (double)ms->s.n);
	flag_num(f, "skewness", ms->s.skewness);
	flag_num(f, "kurtosis", ms->s.kurtosis);
}

void flag_unfair(const struct analysis *a, struct config_analysis *ca)
{
	const struct analysis_opts *o = &a->opts;
	bool low_jain = ca->mean_jain < o->jain_min;
	bool hog = ca->threads >= o->share_threads && ca->max_share > o->max_share;
	struct flag *f;

	if (!low_jain && !hog)
		return;
	f = analysis_flag_add(ca, "unfair", -1, -1,
		"Jain's fairness index %.3f over %zu threads (mean of %zu runs; "
		"1 = every thread did equal work)%s; the busiest thread did "
		"%.1f%% of the work%s. The throughput of an unfair lock is that "
		"of the threads that won: check per-thread ops, and whether a "
		"fixed-work run (jobs = N) takes longer than the rate suggests.",
		ca->mean_jain, ca->threads, ca->measured,
		low_jain ? " is below the threshold" : "",
		100 * ca->max_share, hog ? ", more than the threshold" : "");
	flag_num(f, "mean_jain", ca->mean_jain);
	flag_num(f, "jain_min", o->jain_min);
	flag_num(f, "max_share", ca->max_share);
	flag_num(f, "max_share_limit", o->max_share);
	flag_num(f, "threads", (double)ca->threads);
}

/*
 * The busy loop's calibration against the runs' own check of it: a run
 * that did calibrated work (hold_ns, think_ns, contended_delay_ns in spin
 * mode) converts its nanoseconds to loops with the experiment's
 * calibration (loops_per_us) and measures the loop's speed again after
 * its window (loops_per_us_now).  More than CALIBRATION_OFF apart, the
 * nanoseconds the configuration names are not those its runs spun.
 */
#define CALIBRATION_OFF 0.10

static const char *param_of(const struct ds_config *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nparams; i++)
		if (!strcmp(c->params[i].key, key))
			return c->params[i].value;
	return NULL;
}

/* "contended_delay_ns = 10000 spun about 7.6 us, ...": the calibrated
 * parameters of c and the time they took at speed now (malloc'd). */
static char *calibrated_params(const struct ds_config *c, double factor)
{
	static const char *const keys[] = { "hold_ns", "think_ns",
					    "contended_delay_ns" };
	const char *mode = param_of(c, "contended_delay_mode");
	char *s = xstrdup(""), *t;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		const char *v = param_of(c, keys[k]);
		double ns;

		if (!v || parse_double(v, &ns) < 0 || !(ns > 0))
			continue;
		if (!strcmp(keys[k], "contended_delay_ns") && mode &&
		    strcmp(mode, "spin"))
			continue;
		t = xasprintf("%s%s%s = %s spun about %s us", s, *s ? ", " : "",
			      keys[k], v, num(ns * factor / 1000));
		free(s);
		s = t;
	}
	return s;
}

void flag_miscalibrated(const struct analysis *a,
			       struct config_analysis *ca)
{
	const struct metric_summary *cal = analysis_metric(a, ca->config,
							   "loops_per_us");
	const struct metric_summary *now = analysis_metric(a, ca->config,
							   "loops_per_us_now");
	const char *load = experiment_meta(&a->d->exp, MK_LOAD_START);
	double ratio, factor;
	struct flag *f;
	char *params;

	if (!cal || !now || !cal->s.n || !now->s.n || !(cal->s.mean > 0) ||
	    !(now->s.median > 0))
		return;
	ratio = now->s.median / cal->s.mean;
	if (fabs(ratio - 1) <= CALIBRATION_OFF)
		return;
	/* a loop count made for cal loops/us, run at now loops/us */
	factor = 1 / ratio;
	params = calibrated_params(&a->d->configs[ca->config], factor);
	f = analysis_flag_add(ca, "miscalibrated", now->metric, -1,
		"the busy loop was calibrated at %s loops/us%s%s%s, but this "
		"configuration's runs measured %s loops/us after their windows "
		"(median loops_per_us_now of %zu runs, %+.1f%%): the CPU ran "
		"%s than when it was calibrated, so every calibrated parameter "
		"lasted %.0f%% of the time it names%s%s. Its durations are not "
		"those of the runs: quiet the machine and fix the frequency "
		"governor, then run again with a fresh calibration (or pin one "
		"taken on a quiet machine: calibration = N).",
		num(cal->s.mean), load ? " (load " : "", load ? load : "",
		load ? " at the start)" : "", num(now->s.median), now->s.n,
		100 * (ratio - 1), ratio > 1 ? "faster" : "slower",
		100 * factor, *params ? ": " : "", params);
	free(params);
	flag_num(f, "loops_per_us", cal->s.mean);
	flag_num(f, "loops_per_us_now", now->s.median);
	flag_num(f, "ratio", ratio);
	flag_num(f, "threshold", CALIBRATION_OFF);
	flag_num(f, "n", (double)now->s.n);
}

/* ---- pairs of one sweep: misleading throughput ---- */

static double mean_of(const double *x, size_t n)
{
	return n ? gsl_stats_mean(x, 1, n) : NAN;
}

static void welch_nan(struct welch *w)
{
	w->diff = w->se = w->df = w->t = w->p = NAN;
	w->ci_low = w->ci_high = NAN;
}

static void welch_or_nan(const double *a, size_t na, const double *b, size_t nb,
			 double confidence, struct welch *w)
{
	welch_nan(w);
	if (na >= 2 && nb >= 2 && stats_welch(a, na, b, nb, confidence, w) < 0)
		welch_nan(w);
}

/* Counts and rates: the ratio of means, its interval on the log scale. */
static void ratio_or_nan(const double *a, size_t na, const double *b,
			 size_t nb, double confidence, struct ratio *r)
{
	if (stats_ratio_welch(a, na, b, nb, confidence, r) < 0)
		*r = (struct ratio){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
}

void analysis_handoff_check(const struct pair_side *a,
			    const struct pair_side *b,
			    const struct analysis_opts *o, double confidence,
			    struct handoff_check *out)
{
	memset(out, 0, sizeof(*out));
	welch_or_nan(a->tput, a->ntput, b->tput, b->ntput, confidence, &out->tput);
	ratio_or_nan(a->rate, a->nrate, b->rate, b->nrate, confidence, &out->rate);
	ratio_or_nan(a->cont, a->ncont, b->cont, b->ncont, confidence, &out->cont);
	out->drop = -out->rate.change_pct / 100;
	out->gain = out->tput.p < o->alpha && out->tput.diff > 0;
	out->misleading = out->gain && out->rate.p < o->alpha &&
			  out->rate.change_pct < 0 &&
			  out->drop >= o->handoff_drop;
	out->coupled = out->gain && !out->misleading &&
		       out->cont.p < o->alpha && out->cont.change_pct < 0;
}

/*
 * What a swept parameter changes, which decides whether a pair that differs
 * in it is judged.  The trap the pair check exists for is a change to the
 * lock's serialized path -- contended_delay_ns, hold_ns, lockdep, a kernel
 * -- that raises throughput by making the lock change hands less: the
 * benchmark then measures threads streaking alone, not a faster lock.
 * Every parameter is judged unless the data dictionary declares it
 * (vocab_param_rule, db/vocab.h):
 *
 *   PR_WORKERS  how many workers run.  Going down to fewer always means
 *               fewer hand-offs (a contention collapse relieved), so only
 *               a gain with *more* workers is judged (fake scaling).
 *   PR_LOAD     the independent work or parallelism: more independent
 *               locks, more work outside the lock.  Lowering contention is
 *               what such a parameter does, and the two configurations do
 *               different work per operation or in parallel, so a
 *               throughput difference between them is no claim about the
 *               lock.  Not judged in either direction; when the check
 *               would have fired the pair is noted contention-coupled
 *               with the reason, so the reader sees it was looked at.
 *
 * A declaration names the workloads whose parameter it is (NULL: any), so
 * a parameter of the same name elsewhere stays judged; tests/test_vocab.c
 * checks the declarations against the workload registry.
 */

/*
 * A configuration's measured series, loaded once and shared by every pair
 * it is in: loading them per pair (a lookup of each metric by name for
 * each run) was the report's hot spot at a million samples.
 */
struct series_set {
	bool loaded;
	double *tput, *rate, *cont, *cps; /* cps: contended acquisitions/s */
	double *kps, *kpo;   /* kernel lock contentions per second, per op */
	double *kws;         /* kernel wait share (analysis_kwait_share) */
	size_t ntput, nrate, ncont, ncps, nkps, nkpo, nkws;
};

struct side {
	size_t c;
	const struct series_set *ss;
	const double *rate;
	size_t nrate;
	struct pair_side ps;
	const char *rate_name;
};

/* The side of configuration c, its series loaded on first use. */
static void side_load(const struct dataset *d, struct series_set *cache,
		      size_t c, struct side *s)
{
	struct series_set *ss = &cache[c];

	if (!ss->loaded) {
		ss->ntput = analysis_values_of(d, c, analysis_throughput,
					       &ss->tput);
		ss->nrate = analysis_values_of(d, c, analysis_handoff_rate,
					       &ss->rate);
		ss->ncont = analysis_values_of(d, c, analysis_contention_rate,
					       &ss->cont);
		ss->ncps = analysis_values_of(d, c, analysis_contended_rate,
					      &ss->cps);
		ss->nkps = analysis_values_of(d, c, analysis_klock_rate,
					      &ss->kps);
		ss->nkpo = analysis_values_of(d, c, analysis_klock_per_op,
					      &ss->kpo);
		ss->nkws = analysis_values_of(d, c, analysis_kwait_share,
					      &ss->kws);
		ss->loaded = true;
	}
	s->c = c;
	s->ss = ss;
	s->rate = ss->rate;
	s->nrate = ss->nrate;
}

static void cache_free(struct series_set *cache, size_t n)
{
	for (size_t c = 0; c < n; c++) {
		free(cache[c].tput);
		free(cache[c].rate);
		free(cache[c].cont);
		free(cache[c].cps);
		free(cache[c].kps);
		free(cache[c].kpo);
		free(cache[c].kws);
	}
	free(cache);
}

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
enum { RATE_HANDOFFS, RATE_CONTENDED, RATE_KERNEL };

static const char *const rate_names[] = {
	[RATE_HANDOFFS] = "hand-offs/s",
	[RATE_CONTENDED] = "contended acquisitions/s",
	[RATE_KERNEL] = "kernel lock contentions/s",
};

static int rate_kind(const struct series_set *a, const struct series_set *b,
		     size_t nrate_a, size_t nrate_b)
{
	if (nrate_a >= 2 && nrate_b >= 2)
		return RATE_HANDOFFS;
	if ((a->ncps >= 2 && b->ncps >= 2) || a->nkps < 2 || b->nkps < 2)
		return RATE_CONTENDED;
	return RATE_KERNEL;
}

static void side_bind(struct side *lo, struct side *hi)
{
	struct side *s[2] = { lo, hi };
	int kind = rate_kind(lo->ss, hi->ss, lo->nrate, hi->nrate);
	size_t i;

	for (i = 0; i < 2; i++) {
		const struct series_set *ss = s[i]->ss;
		const double *cont = ss->cont;
		size_t ncont = ss->ncont;

		if (kind == RATE_CONTENDED) {
			s[i]->rate = ss->cps;
			s[i]->nrate = ss->ncps;
		} else if (kind == RATE_KERNEL) {
			bool wait = lo->ss->nkws >= 2 && hi->ss->nkws >= 2;

			s[i]->rate = ss->kps;
			s[i]->nrate = ss->nkps;
			cont = wait ? ss->kws : ss->kpo;
			ncont = wait ? ss->nkws : ss->nkpo;
		}
		s[i]->rate_name = rate_names[kind];
		s[i]->ps = (struct pair_side){ ss->tput, s[i]->rate, cont,
					       ss->ntput, s[i]->nrate, ncont };
	}
}

/* The one parameter in which configurations i and j differ, or -1. */
static long one_difference(const struct ds_config *ci, const struct ds_config *cj)
{
	size_t k, l, ndiff = 0;
	long at = -1;

	if (ci->nparams != cj->nparams)
		return -1;
	for (k = 0; k < ci->nparams; k++) {
		for (l = 0; l < cj->nparams; l++)
			if (!strcmp(ci->params[k].key, cj->params[l].key))
				break;
		if (l == cj->nparams)
			return -1;
		if (strcmp(ci->params[k].value, cj->params[l].value)) {
			ndiff++;
			at = (long)k;
		}
	}
	return ndiff == 1 ? at : -1;
}

static const char *param_value(const struct ds_config *c, const char *key)
{
	size_t k;

	for (k = 0; k < c->nparams; k++)
		if (!strcmp(c->params[k].key, key))
			return c->params[k].value;
	return "";
}

/*
 * Going down to fewer workers always means fewer hand-offs: that is a
 * contention collapse being relieved, not a lock getting faster, so such
 * a pair is not judged.  Fake scaling (more workers, more throughput,
 * fewer hand-offs) still is.
 */
static bool fewer_workers(const struct param_rule *r, const char *lo,
			  const char *hi)
{
	double vl, vh;

	if (!r || r->role != PR_WORKERS)
		return false;
	if (parse_double(lo, &vl) < 0 || parse_double(hi, &vh) < 0)
		return false;
	return vh < vl;
}

/*
 * "13.70M [13.55M, 13.85M]": the mean of x with its Student-t interval,
 * into b; the mean into *mean.
 */
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
	snprintf(b, len, "%s [%s, %s]", num(*mean), num(lo), num(hi));
	return b;
}

/* The change b - a in percent of a's mean, with its Welch interval. */
static void change_pct(const struct welch *w, double base, double out[3])
{
	out[0] = 100 * w->diff / base;
	out[1] = 100 * w->ci_low / base;
	out[2] = 100 * w->ci_high / base;
}

struct pair {
	const struct ds_config *clo, *chi;
	const char *key;
	const struct param_rule *rule;  /* the key's declaration, or NULL */
	struct side *lo, *hi;
	struct handoff_check chk;
};

static void pair_nums(struct flag *f, const struct pair *p, const double t[3],
		      const double h[3], double tlo, double thi, double hlo,
		      double hhi)
{
	flag_num(f, "throughput_a", tlo);
	flag_num(f, "throughput_b", thi);
	flag_num(f, "throughput_change_pct", t[0]);
	flag_num(f, "throughput_change_low_pct", t[1]);
	flag_num(f, "throughput_change_high_pct", t[2]);
	flag_num(f, "throughput_p", p->chk.tput.p);
	flag_num(f, "rate_a", hlo);
	flag_num(f, "rate_b", hhi);
	flag_num(f, "rate_change_pct", h[0]);
	flag_num(f, "rate_change_low_pct", h[1]);
	flag_num(f, "rate_change_high_pct", h[2]);
	flag_num(f, "rate_p", p->chk.rate.p);
	flag_num(f, "contention_p", p->chk.cont.p);
}

static void flag_pair(struct analysis *a, const struct pair *p)
{
	struct config_analysis *ca = &a->configs[p->hi->c];
	struct config_analysis *co = &a->configs[p->lo->c];
	double conf = a->opts.confidence, tlo, thi, hlo, hhi, t[3], h[3];
	char stlo[80], sthi[80], shlo[80], shhi[80], gain[1024], drop[512];
	int m = dataset_metric(a->d, "throughput");
	bool load = p->rule && p->rule->role == PR_LOAD;
	struct flag *f;

	mean_ci(stlo, sizeof(stlo), p->lo->ss->tput, p->lo->ss->ntput, conf, &tlo);
	mean_ci(sthi, sizeof(sthi), p->hi->ss->tput, p->hi->ss->ntput, conf, &thi);
	mean_ci(shlo, sizeof(shlo), p->lo->rate, p->lo->nrate, conf, &hlo);
	mean_ci(shhi, sizeof(shhi), p->hi->rate, p->hi->nrate, conf, &hhi);
	change_pct(&p->chk.tput, tlo, t);
	h[0] = p->chk.rate.change_pct;
	h[1] = p->chk.rate.ci_low_pct;
	h[2] = p->chk.rate.ci_high_pct;
	/* what every pair message starts with, and the hand-off change */
	snprintf(gain, sizeof(gain), "%s %s -> %s raised throughput %+.1f%% "
		 "[%+.1f%%, %+.1f%%] (%s -> %s ops/s, Welch p %.2g)", p->key,
		 param_value(p->clo, p->key), param_value(p->chi, p->key),
		 t[0], t[1], t[2], stlo, sthi, p->chk.tput.p);
	snprintf(drop, sizeof(drop), "%s changed %+.1f%% [%+.1f%%, %+.1f%%] "
		 "(%s -> %s, p %.2g)", p->lo->rate_name, h[0], h[1], h[2],
		 shlo, shhi, p->chk.rate.p);
	if (p->chk.misleading && load)
		f = analysis_flag_add(ca, "contention-coupled", m, (long)p->lo->c,
			"%s while %s. Not judged misleading: %s %s; lower "
			"contention is its intended effect and the two "
			"configurations do different work, while the "
			"misleading-throughput check is for changes to the lock's "
			"serialized path (contended_delay_ns, hold_ns, a kernel). "
			"Informational.", gain, drop, p->key, p->rule->why);
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
			p->lo->rate_name, 100 * a->opts.handoff_drop, h[0], h[1],
			h[2], shlo, shhi, p->chk.rate.p);
	pair_nums(f, p, t, h, tlo, thi, hlo, hhi);
	flag_num(f, "handoff_drop", a->opts.handoff_drop);
	if (p->chk.misleading && load)
		flag_num(f, "load_param", 1);
}

/* Orders the two sides by mean throughput and runs the check. */
static void judge_pair(struct analysis *a, struct series_set *cache, size_t i,
		       size_t j, long k)
{
	const struct dataset *d = a->d;
	struct side si, sj;
	struct pair p;

	side_load(d, cache, i, &si);
	side_load(d, cache, j, &sj);
	if (si.ss->ntput < 2 || sj.ss->ntput < 2)
		return;
	p.lo = mean_of(si.ss->tput, si.ss->ntput) <=
			mean_of(sj.ss->tput, sj.ss->ntput) ? &si : &sj;
	p.hi = p.lo == &si ? &sj : &si;
	p.clo = &d->configs[p.lo->c];
	p.chi = &d->configs[p.hi->c];
	p.key = d->configs[i].params[k].key;
	p.rule = vocab_param_rule(d->configs[i].workload, p.key);
	if (fewer_workers(p.rule, param_value(p.clo, p.key),
			  param_value(p.chi, p.key)))
		return;
	side_bind(p.lo, p.hi);
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
	cache_free(cache, d->nconfigs);
}
