/*
 * flagtab.c - the one table of flags (flagtab.h says what reads it) and
 * analysis_flag, which runs the table's detectors.  Adding a flag is a
 * row here and its test (docs/ARCHITECTURE.md, "How to add ...").
 */
#include <string.h>

#include "analysis/flagtab.h"
#include "analysis/analysis.h"
#include "analysis/regimes.h"
#include "lib/util.h"

#define RANK(report, compare, column) { report, compare, column }

/*
 * In the order the detectors run.  The ranks keep the orders each output
 * had before the table: the report lists what is not what it seems first,
 * compare's overview what invalidates a verdict first, its column the
 * letters as they were introduced.
 */
const struct flag_def flag_defs[] = {
	{ "few-runs", 0, FLAG_MID, FLAG_REPORT, RANK(80, 0, 0), flag_few_runs,
	  NULL,
	  "fewer measured runs than the minimum (5): intervals are wide and "
	  "the noise cannot be judged; add repetitions" },
	{ "noisy", 'N', FLAG_MID, FLAG_CARRIED, RANK(30, 100, 20), flag_noisy,
	  NULL,
	  "the primary metric's coefficient of variation is above the "
	  "experiment's `noise` (5%); the message gives the smallest "
	  "difference a comparison of this many runs can resolve and the runs "
	  "that would resolve `--resolve` (compare: the boots x runs a side "
	  "that would resolve the threshold)" },
	{ "drift", 'D', FLAG_MID, FLAG_CARRIED, RANK(40, 110, 30), flag_drift,
	  NULL,
	  "the primary metric trends with run order (Spearman against the "
	  "sequence number, p < 0.01, at least 8 runs): heat, a filling disk, "
	  "state carried between runs" },
	{ "multimodal", 'R', FLAG_LOW, FLAG_BOTH, RANK(110, 80, 100), regimes_flag,
	  "the runs fall into two regimes: compare within each regime",
	  "the runs fall into two regimes (docs/STATISTICS.md, \"Regimes\"): "
	  "the mean describes no run; compare within each regime" },
	{ "outliers", 0, FLAG_LOW, FLAG_REPORT, RANK(60, 0, 0), flag_outliers,
	  NULL,
	  "runs whose modified z-score exceeds 3.5, kept in every statistic "
	  "(a smaller regime's runs are not outliers): check them before "
	  "trusting the mean" },
	{ "non-normal", 0, FLAG_LOW, FLAG_REPORT, RANK(70, 0, 0), flag_non_normal,
	  NULL,
	  "D'Agostino's K^2 rejects a normal distribution (p < 0.05, at least "
	  "8 runs): quote the median, compare with a rank test" },
	{ "unfair", 'U', FLAG_MID, FLAG_CARRIED, RANK(50, 120, 40), flag_unfair,
	  NULL,
	  "Jain's index of the per-thread operations is below 0.8, or with 4 "
	  "or more threads one thread did more than half the work: the "
	  "throughput is the winners'" },
	{ "miscalibrated", 0, FLAG_HIGH, FLAG_REPORT, RANK(20, 0, 0),
	  flag_miscalibrated, NULL,
	  "the runs' own check of the busy loop (`loops_per_us_now`) is more "
	  "than 10% off the experiment's calibration: the calibrated "
	  "durations are not those the runs spun" },
	{ "kernel-warning", 'K', FLAG_LOW, FLAG_CARRIED, RANK(100, 60, 90),
	  kwarn_flag, NULL,
	  "the kernel logged a warning (a lockdep splat, an RCU stall, a "
	  "lockup, throttling ...) while a run ran; `--exclude-kernel-warnings` "
	  "leaves such runs out" },
	{ "kernel-log-unread", 0, FLAG_LOW, FLAG_REPORT, RANK(105, 0, 0),
	  kwarn_unread_flag, NULL,
	  "the kernel log was not followed (`kernel_log`: no permission, "
	  "no /dev/kmsg), or runs lost records of it (`klog_unread`): a "
	  "kernel warning there would not be flagged" },
	{ "misleading-throughput", 'M', FLAG_HIGH, FLAG_BOTH, RANK(10, 10, 10),
	  NULL,
	  "the candidate is faster while the lock changes hands less often "
	  "(the lockdep effect): do not read it as a speed-up",
	  "higher throughput while lock hand-offs per second fell by 25% or "
	  "more: threads ran alone in streaks (the lockdep effect), not a "
	  "faster lock; the report judges pairs of one sweep, compare the two "
	  "sides" },
	{ "contention-coupled", 0, FLAG_LOW, FLAG_REPORT, RANK(90, 0, 0), NULL,
	  NULL,
	  "a pair's throughput gain came with less contention while hand-offs "
	  "did not fall by 25% (the gain looks genuine), or the pair differs "
	  "in a load parameter; informational" },
	{ "too-few-runs", 'F', FLAG_MID, FLAG_COMPARE, RANK(0, 70, 70), NULL,
	  "a side has a single value: no interval, nothing can be concluded",
	  "a side has a single value: no interval, nothing can be concluded" },
	{ "single-invocation", 'S', FLAG_MID, FLAG_COMPARE, RANK(0, 90, 50), NULL,
	  NULL,
	  "a side holds the configuration in one experiment (boot) only: the "
	  "variance between boots is borrowed from the other side, or not "
	  "measured" },
	{ "host-mismatch", 'H', FLAG_MID, FLAG_COMPARE, RANK(0, 50, 60), NULL,
	  NULL,
	  "CPU model, online CPUs, frequency governor or SMT differ between "
	  "the sides" },
	{ "instrumentation-differs", 'I', FLAG_HIGH, FLAG_COMPARE, RANK(0, 40, 80),
	  NULL, NULL,
	  "the kernel's instrumentation or lock-relevant state (`kstate.*`: "
	  "tracing, lockdep, lock_stat, mitigations ...) differs between the "
	  "sides, or changed during an experiment" },
	{ "futex-hash-differs", 'Z', FLAG_MID, FLAG_COMPARE, RANK(0, 45, 130),
	  NULL, NULL,
	  "the sides' runs stored different private futex hash sizes "
	  "(`futex_hash_slots`, Linux 6.16 on): a futex-heavy result can "
	  "change with the hash alone" },
	{ "regime-shift", 'X', FLAG_HIGH, FLAG_COMPARE, RANK(0, 30, 110), NULL,
	  "the runs fall into two regimes and the sides' shares of them "
	  "differ: the change of the mean is a change of the mix",
	  "the runs fall into two regimes and the sides' shares of them differ "
	  "(Fisher's exact test): the change of the mean is a change of the "
	  "mix" },
	{ "fairness-traded", 'T', FLAG_HIGH, FLAG_COMPARE, RANK(0, 20, 120), NULL,
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

static bool in_view(const struct flag_def *d, enum flag_view v)
{
	if (v == FV_HTML)
		return d->rank[FV_REPORT] > 0;
	return v < FV_HTML && d->rank[v] > 0;
}

/* The HTML report: the most severe level first, each in the report's order. */
static unsigned long sort_key(const struct flag_def *d, enum flag_view v)
{
	if (v == FV_HTML)
		return (unsigned long)d->level * 100000 + d->rank[FV_REPORT];
	return d->rank[v];
}

size_t flag_count(enum flag_view v)
{
	size_t i, n = 0;

	for (i = 0; i < nflag_defs; i++)
		n += in_view(&flag_defs[i], v);
	return n;
}

static size_t place_of(const struct flag_def *d, enum flag_view v)
{
	size_t i, n = 0;

	for (i = 0; i < nflag_defs; i++)
		n += in_view(&flag_defs[i], v) &&
		     sort_key(&flag_defs[i], v) < sort_key(d, v);
	return n;
}

size_t flag_place(enum flag_view v, const char *name)
{
	const struct flag_def *d = flag_def_find(name);

	return d && in_view(d, v) ? place_of(d, v) : flag_count(v);
}

const struct flag_def *flag_nth(enum flag_view v, size_t i)
{
	size_t k;

	for (k = 0; k < nflag_defs; k++)
		if (in_view(&flag_defs[k], v) && place_of(&flag_defs[k], v) == i)
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
