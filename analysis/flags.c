/*
 * flags.c - the per-configuration detectors that stop bad conclusions
 * (they judge the primary metric only), the one table of flags
 * (flagtab.h) and analysis_flag, which runs the table's detectors.  Each
 * flag carries the numbers that raised it and what to do, in words
 * (message) and as named numbers (for json).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/flagtab.h"
#include "db/contract.h"
#include "lib/util.h"

/* Up to this many outliers are named in a message (all are in json). */
#define LIST_OUTLIERS 8

static const struct metric_summary *primary(const struct config_analysis *ca)
{
	return ca->primary >= 0 ? &ca->metrics[ca->primary] : NULL;
}

/* ---- per-configuration flags ---- */

static void flag_few_runs(const struct analysis *a, struct config_analysis *ca)
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

/*
 * The minimum detectable difference of two groups of this n (two-sided
 * alpha, power 0.8) and the runs per side that resolve --resolve percent:
 * the two numbers a reader needs to know what this noise level allows.
 */
static void flag_noisy(const struct analysis *a, struct config_analysis *ca)
{
	const struct metric_summary *ms = primary(ca);
	const struct analysis_opts *o = &a->opts;
	double noise = a->d->configs[ca->config].noise, mde, mde_pct;
	size_t need;
	struct flag *f;
	char *cause;

	if (!(noise > 0))
		noise = 0.05;
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
		100 * ms->s.cv, a->d->metrics[ms->metric], 100 * noise,
		ms->s.n, mde_pct, flags_num(mde),
		metric_unit(a->d->metrics[ms->metric]), o->alpha, o->power, o->resolve_pct, need, cause ? " " : "",
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

static void flag_drift(const struct analysis *a, struct config_analysis *ca)
{
	const struct ds_config *cf = &a->d->configs[ca->config];
	double *x = xmalloc(2 * (cf->nruns + 1) * sizeof(*x));
	double *seq = x + cf->nruns + 1;
	size_t *runs = xmalloc((cf->nruns + 1) * sizeof(*runs)), n = 0, i;
	struct correlation rho;
	struct flag *f;

	if (ca->primary >= 0)
		n = analysis_collect(a->d, ca->config, ca->primary, NULL, x,
				     runs);
	for (i = 0; i < n; i++)
		seq[i] = (double)a->d->runs[runs[i]].seq;
	if (n < 8 || stats_spearman(seq, x, n, &rho) < 0 ||
	    !(rho.p < a->opts.drift_alpha))
		goto out;
	f = analysis_flag_add(ca, "drift", ca->primary, -1,
		"%s trends with run order: Spearman rho %+.2f against the "
		"sequence number (p %.2g < %g, n %zu); first run %s, last run %s. "
		"Look for thermal throttling, a filling filesystem or state "
		"carried between runs; plot the run order (contend plot) and "
		"use order = random so drift cannot masquerade as a difference.",
		a->d->metrics[ca->primary], rho.r, rho.p, a->opts.drift_alpha,
		n, flags_num(x[0]), flags_num(x[n - 1]));
	flag_num(f, "rho", rho.r);
	flag_num(f, "p", rho.p);
	flag_num(f, "n", (double)n);
out:
	free(x);
	free(runs);
}

static void flag_outliers(const struct analysis *a, struct config_analysis *ca)
{
	const struct metric_summary *ms = primary(ca);
	char list[512] = "";
	size_t i, len = 0;
	struct flag *f;

	/* two regimes: the smaller one's runs are not outliers */
	if (!ms || !ms->s.noutliers || regimes_flagged(ca, ms->metric))
		return;
	for (i = 0; i < ms->s.noutliers && i < LIST_OUTLIERS &&
		    len < sizeof(list); i++) {
		size_t r = ms->outliers[i];
		double v = dataset_value(a->d, r, ms->metric);
		char z[24] = "";

		/* With MAD 0 stats scales by the mean deviation: no z here. */
		if (ms->s.mad > 0)
			snprintf(z, sizeof(z), " (z %+.1f)",
				 0.6745 * (v - ms->s.median) / ms->s.mad);
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"%sseq %ld = %s%s", i ? ", " : "",
					a->d->runs[r].seq, flags_num(v), z);
	}
	f = analysis_flag_add(ca, "outliers", ms->metric, -1,
		"%zu of %zu runs of %s have a modified z-score above %.1f "
		"(median %s, MAD %s): %s%s. They are kept in every statistic; the "
		"median and its interval are robust to them. Check those runs "
		"(errors, other load on the host) before trusting the mean.",
		ms->s.noutliers, ms->s.n, a->d->metrics[ms->metric],
		STATS_OUTLIER_Z, flags_num(ms->s.median), flags_num(ms->s.mad), list,
		ms->s.noutliers > LIST_OUTLIERS ? ", ..." : "");
	flag_num(f, "outliers", (double)ms->s.noutliers);
	flag_num(f, "n", (double)ms->s.n);
	flag_num(f, "threshold", STATS_OUTLIER_Z);
}

static void flag_non_normal(const struct analysis *a, struct config_analysis *ca)
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
		a->d->metrics[ms->metric], flags_num(ms->s.median),
		flags_num(ms->s.median_ci_low), flags_num(ms->s.median_ci_high),
		100 * ms->s.median_ci_level);
	flag_num(f, "k2", ms->s.k2);
	flag_num(f, "p", ms->s.k2_p);
	flag_num(f, "n", (double)ms->s.n);
	flag_num(f, "skewness", ms->s.skewness);
	flag_num(f, "kurtosis", ms->s.kurtosis);
}

static void flag_unfair(const struct analysis *a, struct config_analysis *ca)
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

/* "contended_delay_ns = 10000 spun about 7.6 us, ...": the calibrated
 * parameters of c and the time they took at speed now, appended to b
 * (capped). */
static void calibrated_params(const struct ds_config *c, double factor,
			      char *b, size_t size)
{
	static const char *const keys[] = { "hold_ns", "think_ns",
					    "contended_delay_ns" };
	const char *mode = ds_config_param(c, "contended_delay_mode");
	size_t k, len = 0;

	for (k = 0; k < ARRAY_SIZE(keys) && len < size; k++) {
		const char *v = ds_config_param(c, keys[k]);
		double ns;

		if (!v || parse_double(v, &ns) < 0 || !(ns > 0))
			continue;
		if (!strcmp(keys[k], "contended_delay_ns") && mode &&
		    strcmp(mode, "spin"))
			continue;
		len += (size_t)snprintf(b + len, size - len,
					"%s%s = %s spun about %s us",
					len ? ", " : "", keys[k], v,
					flags_num(ns * factor / 1000));
	}
}

static void flag_miscalibrated(const struct analysis *a,
			       struct config_analysis *ca)
{
	const struct metric_summary *cal = analysis_metric(a, ca->config,
							   "loops_per_us");
	const struct metric_summary *now = analysis_metric(a, ca->config,
							   "loops_per_us_now");
	const char *load = experiment_meta(&a->d->exp, MK_LOAD_START);
	double ratio, factor;
	struct flag *f;
	char params[512] = "";

	if (!cal || !now || !cal->s.n || !now->s.n || !(cal->s.mean > 0) ||
	    !(now->s.median > 0))
		return;
	ratio = now->s.median / cal->s.mean;
	if (fabs(ratio - 1) <= CALIBRATION_OFF)
		return;
	/* a loop count made for cal loops/us, run at now loops/us */
	factor = 1 / ratio;
	calibrated_params(&a->d->configs[ca->config], factor, params,
			  sizeof(params));
	f = analysis_flag_add(ca, "miscalibrated", now->metric, -1,
		"the busy loop was calibrated at %s loops/us%s%s%s, but this "
		"configuration's runs measured %s loops/us after their windows "
		"(median loops_per_us_now of %zu runs, %+.1f%%): the CPU ran "
		"%s than when it was calibrated, so every calibrated parameter "
		"lasted %.0f%% of the time it names%s%s. Its durations are not "
		"those of the runs: quiet the machine and fix the frequency "
		"governor, then run again with a fresh calibration (or pin one "
		"taken on a quiet machine: calibration = N).",
		flags_num(cal->s.mean), load ? " (load " : "", load ? load : "",
		load ? " at the start)" : "", flags_num(now->s.median), now->s.n,
		100 * (ratio - 1), ratio > 1 ? "faster" : "slower",
		100 * factor, *params ? ": " : "", params);
	flag_num(f, "loops_per_us", cal->s.mean);
	flag_num(f, "loops_per_us_now", now->s.median);
	flag_num(f, "ratio", ratio);
	flag_num(f, "threshold", CALIBRATION_OFF);
	flag_num(f, "n", (double)now->s.n);
}

/* ---- the table ---- */

/*
 * In the order the detectors run.  The report lists what is not what it
 * seems first, compare's overview what invalidates a verdict first.
 */
const struct flag_def flag_defs[] = {
	{ "few-runs", 0, FLAG_MID, FLAG_REPORT, { 80, 0, 0 }, flag_few_runs,
	  NULL,
	  "fewer measured runs than the minimum (5): intervals are wide and "
	  "the noise cannot be judged; add repetitions" },
	{ "noisy", 'N', FLAG_MID, FLAG_CARRIED, { 30, 100, 20 }, flag_noisy,
	  NULL,
	  "the primary metric's coefficient of variation is above the "
	  "experiment's `noise` (5%); the message gives the smallest "
	  "difference a comparison of this many runs can resolve and the runs "
	  "that would resolve `--resolve` (compare: the boots x runs a side "
	  "that would resolve the threshold)" },
	{ "drift", 'D', FLAG_MID, FLAG_CARRIED, { 40, 110, 30 }, flag_drift,
	  NULL,
	  "the primary metric trends with run order (Spearman against the "
	  "sequence number, p < 0.01, at least 8 runs): heat, a filling disk, "
	  "state carried between runs" },
	{ "multimodal", 'R', FLAG_LOW, FLAG_BOTH, { 110, 80, 100 }, regimes_flag,
	  "the runs fall into two regimes: compare within each regime",
	  "the runs fall into two regimes (docs/STATISTICS.md, \"Regimes\"): "
	  "the mean describes no run; compare within each regime" },
	{ "outliers", 0, FLAG_LOW, FLAG_REPORT, { 60, 0, 0 }, flag_outliers,
	  NULL,
	  "runs whose modified z-score exceeds 3.5, kept in every statistic "
	  "(a smaller regime's runs are not outliers): check them before "
	  "trusting the mean" },
	{ "non-normal", 0, FLAG_LOW, FLAG_REPORT, { 70, 0, 0 }, flag_non_normal,
	  NULL,
	  "D'Agostino's K^2 rejects a normal distribution (p < 0.05, at least "
	  "8 runs): quote the median, compare with a rank test" },
	{ "unfair", 'U', FLAG_MID, FLAG_CARRIED, { 50, 120, 40 }, flag_unfair,
	  NULL,
	  "Jain's index of the per-thread operations is below 0.8, or with 4 "
	  "or more threads one thread did more than half the work: the "
	  "throughput is the winners'" },
	{ "miscalibrated", 0, FLAG_HIGH, FLAG_REPORT, { 20, 0, 0 },
	  flag_miscalibrated, NULL,
	  "the runs' own check of the busy loop (`loops_per_us_now`) is more "
	  "than 10% off the experiment's calibration: the calibrated "
	  "durations are not those the runs spun" },
	{ "kernel-warning", 'K', FLAG_LOW, FLAG_CARRIED, { 100, 60, 90 },
	  kwarn_flag, NULL,
	  "the kernel logged a warning (a lockdep splat, an RCU stall, a "
	  "lockup, throttling ...) while a run ran; `--exclude-kernel-warnings` "
	  "leaves such runs out" },
	{ "kernel-log-unread", 0, FLAG_LOW, FLAG_REPORT, { 105, 0, 0 },
	  kwarn_unread_flag, NULL,
	  "the kernel log was not followed (`kernel_log`: no permission, "
	  "no /dev/kmsg), or runs lost records of it (`klog_unread`): a "
	  "kernel warning there would not be flagged" },
	{ "misleading-throughput", 'M', FLAG_HIGH, FLAG_BOTH, { 10, 10, 10 },
	  NULL,
	  "the candidate is faster while the lock changes hands less often "
	  "(the lockdep effect): do not read it as a speed-up",
	  "higher throughput while lock hand-offs per second fell by 25% or "
	  "more: threads ran alone in streaks (the lockdep effect), not a "
	  "faster lock; the report judges pairs of one sweep, compare the two "
	  "sides" },
	{ "contention-coupled", 0, FLAG_LOW, FLAG_REPORT, { 90, 0, 0 }, NULL,
	  NULL,
	  "a pair's throughput gain came with less contention while hand-offs "
	  "did not fall by 25% (the gain looks genuine), or the pair differs "
	  "in a load parameter; informational" },
	{ "too-few-runs", 'F', FLAG_MID, FLAG_COMPARE, { 0, 70, 70 }, NULL,
	  "a side has a single value: no interval, nothing can be concluded",
	  "a side has a single value: no interval, nothing can be concluded" },
	{ "single-invocation", 'S', FLAG_MID, FLAG_COMPARE, { 0, 90, 50 }, NULL,
	  NULL,
	  "a side holds the configuration in one experiment (boot) only: the "
	  "variance between boots is borrowed from the other side, or not "
	  "measured" },
	{ "host-mismatch", 'H', FLAG_MID, FLAG_COMPARE, { 0, 50, 60 }, NULL,
	  NULL,
	  "CPU model, online CPUs, frequency governor or SMT differ between "
	  "the sides" },
	{ "instrumentation-differs", 'I', FLAG_HIGH, FLAG_COMPARE, { 0, 40, 80 },
	  NULL, NULL,
	  "the kernel's instrumentation or lock-relevant state (`kstate.*`: "
	  "tracing, lockdep, lock_stat, mitigations ...) differs between the "
	  "sides, or changed during an experiment" },
	{ "futex-hash-differs", 'Z', FLAG_MID, FLAG_COMPARE, { 0, 45, 130 },
	  NULL, NULL,
	  "the sides' runs stored different private futex hash sizes "
	  "(`futex_hash_slots`, Linux 6.16 on): a futex-heavy result can "
	  "change with the hash alone" },
	{ "regime-shift", 'X', FLAG_HIGH, FLAG_COMPARE, { 0, 30, 110 }, NULL,
	  "the runs fall into two regimes and the sides' shares of them "
	  "differ: the change of the mean is a change of the mix",
	  "the runs fall into two regimes and the sides' shares of them differ "
	  "(Fisher's exact test): the change of the mean is a change of the "
	  "mix" },
	{ "fairness-traded", 'T', FLAG_HIGH, FLAG_COMPARE, { 0, 20, 120 }, NULL,
	  "the candidate is better while it is significantly less fair and "
	  "its threads starve: the gain may be one thread running alone",
	  "the candidate is better while it is significantly less fair and "
	  "starves in at least half its runs: the gain may be one thread "
	  "running alone" },
};
const size_t nflag_defs = ARRAY_SIZE(flag_defs);

const struct flag_def *flag_def_find(const char *name)
{
	size_t i;

	for (i = 0; i < nflag_defs; i++)
		if (!strcmp(flag_defs[i].name, name))
			return &flag_defs[i];
	return NULL;
}

bool flag_carried(const char *name)
{
	const struct flag_def *d = flag_def_find(name);

	return d && d->shows == FLAG_CARRIED;
}

/* ---- the views' orders ---- */

/* A flag's place key in view v, lower first; 0: not in v.  The HTML
 * report: the most severe level first, each in the report's order. */
static unsigned long sort_key(const struct flag_def *d, enum flag_view v)
{
	if (v == FV_HTML)
		return d->rank[FV_REPORT] ? (unsigned long)d->level * 100000 +
						    d->rank[FV_REPORT]
					  : 0;
	return v < FV_HTML ? d->rank[v] : 0;
}

/* Name's place in view v: the flags of v before it; all of them when
 * name is not in v ("" counts them). */
size_t flag_place(enum flag_view v, const char *name)
{
	const struct flag_def *d = flag_def_find(name);
	unsigned long key = d ? sort_key(d, v) : 0, k;
	size_t i, n = 0;

	for (i = 0; i < nflag_defs; i++) {
		k = sort_key(&flag_defs[i], v);
		n += k > 0 && (!key || k < key);
	}
	return n;
}

size_t flag_count(enum flag_view v)
{
	return flag_place(v, "");
}

const struct flag_def *flag_nth(enum flag_view v, size_t i)
{
	size_t k;

	for (k = 0; k < nflag_defs; k++)
		if (sort_key(&flag_defs[k], v) > 0 &&
		    flag_place(v, flag_defs[k].name) == i)
			return &flag_defs[k];
	return NULL;
}

/* ---- running the detectors ---- */

int analysis_flag(struct analysis *a)
{
	size_t c, k;

	for (c = 0; c < a->nconfigs; c++)
		for (k = 0; k < nflag_defs; k++)
			if (flag_defs[k].raise)
				flag_defs[k].raise(a, &a->configs[c]);
	flag_pairs(a);
	return 0;
}
