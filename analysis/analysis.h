/*
 * analysis.h - from a loaded dataset to what a reviewer needs: per
 * configuration and metric summaries over measured ok runs, fairness,
 * correlations per workload section, and the flags (each with the numbers
 * that raised it).  Knows nothing of processes; report.c formats it.
 */
#ifndef CONTEND_ANALYSIS_H
#define CONTEND_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/stats.h"
#include "db/store.h"
#include "db/vocab.h"   /* metric_direction, metric_unit, parameter roles */

/* Configuration c's primary metric as stored (primary.SECTION), or NULL. */
const char *analysis_declared_primary(const struct dataset *d, size_t c);
/* The direction.SECTION.METRIC stored for c, else the vocabulary's. */
enum direction analysis_direction(const struct dataset *d, size_t c,
				  const char *name);

struct analysis_opts {
	double confidence;      /* 0 = the experiment's (analysis_run
				 * stores the level it used in a->opts) */
	double resolve_pct;     /* --resolve: difference to resolve, % (5) */
	double handoff_drop;    /* --handoff-drop: fraction (0.25) */
	double jain_min;        /* unfair below this mean Jain index (0.8) */
	double max_share;       /* unfair above this share at >= 4 thr (0.5) */
	double alpha;           /* significance for flags (0.05) */
	size_t share_threads;   /* max_share applies from this many thr (4) */
	double power;           /* power of the noisy flag's MDE (0.8) */
	double drift_alpha;     /* drift: Spearman p below this (0.01) */
	size_t min_runs;        /* few-runs below this many measured (5) */
};
void analysis_opts_default(struct analysis_opts *o);

#define FLAG_MAX_NUMS 16

/* A number that raised a flag, by name, for json (e.g. "cv", "p"). */
struct flag_num {
	const char *key;        /* static string */
	double value;
};

struct flag {
	char name[32];          /* "noisy", "misleading-throughput", ... */
	char *message;          /* the numbers that raised it, what to do */
	int metric;             /* dataset metric index, or -1 */
	long other_config;      /* the other configuration of a pair, or -1 */
	size_t nnums;
	struct flag_num nums[FLAG_MAX_NUMS]; /* the same numbers, machine-read */
};

struct metric_summary {
	int metric;             /* index into dataset.metrics */
	struct summary s;       /* measured ok runs with the metric present */
	bool harmonic;          /* mean is total work / total time (jobs) */
	size_t *outliers;       /* run indices (dataset.runs) of outliers */
};

/*
 * Run counts partition the configuration's runs: measured = ok and not
 * warm-up, warmup = ok warm-up, failed = finished without ok (failed,
 * crashed, timeout, protocol), pending = not run yet (planned, interrupted).
 */
struct config_analysis {
	size_t config;          /* index into dataset.configs */
	size_t measured, warmup, failed, pending; /* run counts */
	size_t nmetrics;
	struct metric_summary *metrics; /* one per dataset metric */
	double mean_jain, max_share;    /* NAN without thread counts;
					 * max_share: mean over runs of the
					 * largest thread's share */
	size_t nflags;
	struct flag *flags;
	size_t threads;         /* most per-thread counts in a run (0: none) */
	bool fixed_work;        /* a jobs= parameter: rates are harmonic */
	int primary;            /* metric the flags judge (throughput...), -1 */
	const char *primary_name; /* its name, even when no run reported it;
				   * NULL when there is none */
	/* repetitions = auto: why the configuration stopped (values.c). */
	bool is_auto;
	const char *auto_stop;  /* "precision reached", "cap reached", ... */
	double auto_rel_hw;     /* relative CI half-width reached */
	double auto_precision;  /* the target */
	int auto_min, auto_max; /* min_repetitions, max_repetitions */
};

struct corr_row {
	const char *section;    /* workload section, or a config's canon */
	long config;            /* -1: across the whole section */
	const char *x, *y;      /* metric names */
	struct correlation pearson, spearman;
};

struct analysis {
	const struct dataset *d;
	struct analysis_opts opts;
	size_t nconfigs;
	struct config_analysis *configs; /* parallel to dataset.configs */
	size_t ncorr;
	struct corr_row *corr;
};

int analysis_run(const struct dataset *d, const struct analysis_opts *o,
		 struct analysis *a);

/*
 * A kernel lock of a configuration (kind and caller, as the runner's BPF
 * program stored them in run_klock, runner/kinstr/bpf.h) over its measured runs
 * that the program timed: contentions and wait per run, mean and interval
 * at the analysis's confidence (on the log scale: above 0), a run where
 * the lock is not among its top rows counting 0.  Strings point into the
 * dataset.
 */
struct kwait_top {
	const char *kind, *caller;
	const char *lock;       /* the one lock every row names, or NULL */
	size_t nruns;
	double contentions, contentions_lo, contentions_hi;
	double wait_s, wait_lo, wait_hi;
};
/*
 * Configuration c's kernel locks by mean wait into *out (malloc'd; free
 * it); returns how many to show, at most max; 0 when its runs have none.
 */
size_t analysis_kwait_top(const struct analysis *a, size_t c, size_t max,
			  struct kwait_top **out);
/*
 * The wait (kind, caller) had in each measured run of configuration c
 * that the program timed, 0 where not among the run's rows, into *out
 * (malloc'd); returns the count.
 */
size_t analysis_klock_waits(const struct dataset *d, size_t c,
			    const char *kind, const char *caller,
			    double **out);
/* Why repetitions = auto configurations stopped (lib/stoprule.h's rule). */
void analysis_auto(struct analysis *a);
void analysis_release(struct analysis *a);
/* The summary of a metric by name for configuration c, or NULL. */
const struct metric_summary *analysis_metric(const struct analysis *a,
					     size_t c, const char *name);
/*
 * Values of metric m (or, with m < 0, of get) over the measured runs of
 * configuration c into x (room for its nruns), skipping NANs; run indices
 * into runs when not NULL.  Returns the count.
 */
size_t analysis_collect(const struct dataset *d, size_t c, int m,
			double (*get)(const struct dataset *, size_t),
			double *x, size_t *runs);
/* analysis_collect into *out (malloc'd), of metric m or of get. */
size_t analysis_values(const struct dataset *d, size_t c, int m,
		       double **out);
size_t analysis_values_of(const struct dataset *d, size_t c,
			  double (*get)(const struct dataset *, size_t),
			  double **out);

/*
 * Per-run quantities, getters for analysis_values_of (NAN when the run
 * lacks the data); contended acquisitions (throughput x contention_rate)
 * stand in for hand-offs, the kernel's contended locks (per second, per
 * operation) for a workload with no lock counter (creat, chat, command).
 */
double analysis_throughput(const struct dataset *d, size_t r);
double analysis_contention_rate(const struct dataset *d, size_t r);
double analysis_handoff_rate(const struct dataset *d, size_t r);
double analysis_contended_rate(const struct dataset *d, size_t r);
double analysis_klock_rate(const struct dataset *d, size_t r);
double analysis_klock_per_op(const struct dataset *d, size_t r);
/*
 * Run r's kernel wait share: klock_wait_s / (tasks x window), tasks its
 * threads or processes (1 without per-thread counts), window elapsed_s
 * or else wall_s; NaN without klock_wait_s (docs/KLOCK.md).
 */
double analysis_kwait_share(const struct dataset *d, size_t r);
double analysis_jain(const struct dataset *d, size_t r);
/* True for a measured run: not warm-up, status ok, not excluded. */
bool analysis_measured(const struct dataset *d, size_t r);

/*
 * The misleading-throughput test of two samples, a before b: usable by
 * compare as well as by the sweep check.  rate is hand-offs per second
 * (or contended acquisitions per second when a workload counts no
 * hand-offs); cont is the contention rate (ncont may be 0).
 */
struct pair_side {
	const double *tput, *rate, *cont;
	size_t ntput, nrate, ncont;
};
struct handoff_check {
	struct welch tput;      /* b - a; p NAN when not computable */
	struct ratio rate, cont; /* b / a, stats_ratio_welch: the estimator
				 * compare's hand-off check uses too */
	double drop;            /* (mean rate a - mean rate b) / mean rate a */
	bool gain;              /* b's throughput significantly higher */
	bool misleading;        /* gain, and rate significantly lower by drop */
	bool coupled;           /* gain, contention fell, rate did not */
};
void analysis_handoff_check(const struct pair_side *a,
			    const struct pair_side *b,
			    const struct analysis_opts *o, double confidence,
			    struct handoff_check *out);

/* flags.c: every flag of the experiment, for analysis_run. */
int analysis_flag(struct analysis *a);
/* values.c: appends a flag to ca (message printf-style). */
struct flag *analysis_flag_add(struct config_analysis *ca, const char *name,
			       int metric, long other, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Records a number of f for machine readers (ignored when full). */
void flag_num(struct flag *f, const char *key, double value);

/*
 * What a gate decided (compare_model.c): compare --fail-on-regression and
 * history --fail-on-change use the same three words (and their exit
 * statuses 0, 3, 4: lib/util.h), and `none` where no gate judged.
 */
enum gate_result { GATE_PASS, GATE_FAIL, GATE_INCONCLUSIVE, GATE_NONE };
extern const char *const gate_result_names[]; /* "pass", "fail", ... */

/*
 * flags.c, for the detectors: v formatted for a message (lib/numfmt.h),
 * from a ring of 16 buffers so that one printf can format several.
 */
const char *flags_num(double v);

/*
 * kwarn.c: what the runner's sentinels saw (docs/STORAGE.md,
 * "Sentinels").  Marks every run with a kernel warning excluded; returns
 * how many.  Call before analysis_run.
 */
size_t kwarn_exclude(struct dataset *d);

/* Raises kernel-warning on ca when a run of it (ok, not warm-up) logged
 * a kernel warning: which runs, how many of each class, the first line. */
void kwarn_flag(const struct analysis *a, struct config_analysis *ca);

/*
 * Raises kernel-log-unread on ca when the kernel log was not followed
 * during the experiment (MK_KERNEL_LOG not "followed": the word and what
 * it means), or when runs of ca (ok, not warm-up) lost records of it
 * (klog_unread): a warning there would not have been flagged.
 */
void kwarn_unread_flag(const struct analysis *a, struct config_analysis *ca);

/*
 * The likely cause of ca's noise, a sentence with its numbers, malloc'd:
 * stolen time above 1% of the runs' wall time, a thermal message, or a
 * mean frequency that moved by more than 5% between runs; NULL when the
 * sentinels saw none of these.
 */
char *kwarn_noise_cause(const struct analysis *a,
			const struct config_analysis *ca);

/*
 * instrument.c: the kernel's instrumentation as experiment_meta stores it
 * (docs/STORAGE.md, "Kernel state").  "KEY 'a' vs 'b'; ..." for each
 * instrumentation key whose value differs between an experiment of b and
 * one of c (the first pair), then "KEY changed from 'a' to 'b' during
 * experiment N"; malloc'd, NULL when nothing differs.  "unknown" or a
 * key one side lacks is no difference.
 */
char *instrument_diff(const struct experiment_row *b, size_t nb,
		      const struct experiment_row *c, size_t nc);

/* "KEY changed from 'a' to 'b'; ..." within e; malloc'd, or NULL. */
char *instrument_changes(const struct experiment_row *e);

/*
 * "kstate.trace_lock=1, ..." for the tracefs instruments active when e
 * started, then "; changed during the experiment: ..."; malloc'd, or NULL.
 */
char *instrument_active(const struct experiment_row *e);

/* The sentence compare prints with the flag: the seed's trap. */
extern const char instrument_why[];

/*
 * values.c: the one model of runs, for every reader of more than one
 * run (compare, levels, calibrate).  A series is one configuration - a
 * workload type and its canonical parameters - over a list of
 * experiments; each experiment that holds it is one invocation (a boot,
 * one `contend run`), never a section: sections of one experiment with
 * the same workload type and parameters are one invocation, their runs
 * pooled (docs/STATISTICS.md, "One model of runs").  Its runs are those
 * analysis_measured counts.
 *
 * Call sequence: series_build(sets, nsets, &l) -> series_find or a walk
 * of l.s -> series_sample (a metric's values, or an extractor's, grouped
 * by invocation) -> series_sample_release -> series_release(&l).  The
 * list borrows its strings from the sets, which must outlive it.
 */
/* One configuration of one experiment: sets[set].configs[config]. */
struct series_member {
	size_t set, config;
};

struct series {
	const char *workload, *canon, *section; /* the first member's */
	size_t first;           /* the first member's place among every
				 * set's configurations, in set order */
	size_t n;               /* members, by experiment, then place */
	struct series_member *member;
	size_t ninv;            /* the experiments among them: invocations */
};

struct series_key;              /* private: the sorted index */

struct series_list {
	size_t n;
	struct series *s;       /* in order of first appearance */
	struct series_key *index;
};

/* Groups every configuration of sets[0..nsets) into series (n log n). */
void series_build(const struct dataset *sets, size_t nsets,
		  struct series_list *l);
/* The index in l->s of the series of (workload, canon), or -1. */
long series_find(const struct series_list *l, const char *workload,
		 const char *canon);
void series_release(struct series_list *l);

/*
 * The values of one configuration of one dataset, one per run that
 * counts (series_metric_values for a stored metric; compare's
 * extractors for derived ones): returns their number, *out malloc'd.
 */
typedef size_t (*series_extract)(const struct dataset *d, size_t c,
				 const char *arg, double **out);

/* A series' values grouped by invocation (experiment). */
struct series_sample {
	double *x;              /* n values, invocation by invocation */
	size_t n;
	size_t k;               /* invocations with at least one value */
	size_t *sizes;          /* k: values of each */
	size_t *set;            /* k: the experiment (index into sets) */
	double wall;            /* the counted runs' known wall times: sum */
	size_t nwall;           /* and count (series_sample_metric only) */
};

/*
 * fn's values of every member, the members of one experiment forming one
 * invocation; an experiment without a value forms none.
 */
void series_sample(const struct dataset *sets, const struct series *s,
		   series_extract fn, const char *arg,
		   struct series_sample *out);
/* The same for a stored metric, with the counted runs' wall times. */
void series_sample_metric(const struct dataset *sets, const struct series *s,
			  const char *metric, struct series_sample *out);
void series_sample_release(struct series_sample *v);

/* The values of stored metric arg of configuration c's counted runs. */
size_t series_metric_values(const struct dataset *d, size_t c,
			      const char *metric, double **out);

/*
 * regimes.c: runs that fall into two regimes (a bimodal metric: 70% of
 * the runs at 100, 30% at 115), told from one noisy regime by a split
 * test calibrated by simulation (docs/STATISTICS.md, "Regimes"): on the
 * logs,
 *     D = max_k (mean_high - mean_low) / max(s_low,k, s_high,k)
 * over the splits into groups of at least max(3, 15% of n), against its
 * critical value at n.  Samples of fewer than REGIMES_MIN_N values, or
 * with a value <= 0, are not tested (tested false).
 */
#define REGIMES_MIN_N 8

struct regime {
	size_t n;
	double share;           /* n / all values */
	double level, lo, hi;   /* mean, Student-t interval, in x's units */
	double min, max;
};

struct regimes {
	size_t n;               /* values */
	bool tested;
	bool multimodal;        /* d > critical */
	double d, critical;
	double cut;             /* a value <= cut is in regime 0 (low) */
	struct regime r[2];     /* low, high: the best split, tested or not */
};

/* The 5% critical value of D at n (n >= REGIMES_MIN_N; NAN below). */
double regimes_critical(size_t n);

/*
 * D of x[0..n-1] alone (x is not modified): the split's statistic, NAN
 * when it cannot be computed; for the simulations of the tests.
 */
double regimes_statistic(const double *x, size_t n);

/*
 * Tests x[0..n-1] and describes its two groups at confidence.  Returns 0
 * (-1 only for a confidence outside (0, 1)).
 */
int regimes_detect(const double *x, size_t n, double confidence,
		   struct regimes *g);

/* 0 for a value of the low regime, 1 for the high one. */
int regimes_which(const struct regimes *g, double v);

/*
 * Raises multimodal on ca when its primary metric's
 * measured runs are multimodal, else when its contention rates are, with
 * the high regime's level more than 10 times the low one's.  Call after
 * the summaries and before the outliers flag.
 */
void regimes_flag(const struct analysis *a, struct config_analysis *ca);
/* Whether ca carries multimodal on metric. */
bool regimes_flagged(const struct config_analysis *ca, int metric);

/* compare_sideflags.c: two sides' runs against the regimes of both. */
struct regimes_cmp {
	struct regimes g;       /* of the pooled runs */
	double share_high_base, share_high_cand;
	double p;               /* Fisher's exact test of the shares */
	bool differ;            /* p < 1 - confidence */
	char *message;          /* malloc'd when g.multimodal, else NULL:
				 * shares, p, the changes within regimes */
};
/*
 * When b[0..nb-1] or c[0..nc-1] is multimodal by itself and the two
 * together are, fills the shares of the pooled regimes, the test and the
 * message (the caller frees it); else leaves g.multimodal false (two
 * sides each in one regime, apart, are a change, not two regimes).
 * Returns 0, or -1 for a bad confidence.
 */
int regimes_compare(const double *b, size_t nb, const double *c, size_t nc,
		    double confidence, struct regimes_cmp *out);
/* Fisher's exact test, two-sided, of the table (a b / c d). */
double regimes_fisher(unsigned a, unsigned b, unsigned c, unsigned d);

/*
 * export.c: the long-format writer of `contend export`, one row per run
 * and metric, as CSV or JSON; analysis/sidefile.c reads the CSV back as
 * compare sides.  Call sequence: export_begin (writes the header) ->
 * export_dataset or export_experiment, once per experiment -> export_end
 * (closes the JSON array).  Errors writing to f are the caller's to
 * check (ferror).
 */
struct selector;
/* The order of `export --format csv|json`'s words. */
enum export_format { EXPORT_CSV, EXPORT_JSON };

/* The writer's state: set by export_begin, private to export.c. */
struct exporter {
	FILE *f;
	enum export_format format;
	bool threads;
	size_t rows;
	size_t col;             /* the next field's column in the row */
};

void export_begin(struct exporter *x, FILE *f, enum export_format format,
		  bool threads);
/* Every run of d, in run (seq) order. */
void export_dataset(struct exporter *x, const struct dataset *d);
/*
 * Experiment id of s, of the configurations sel keeps (select_load; *kept
 * adds what it kept): 0, or -1 after reporting.
 */
int export_experiment(struct exporter *x, struct store *s, int64_t id,
		      const struct selector *sel, size_t *kept);
void export_end(struct exporter *x);

#endif
