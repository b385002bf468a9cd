/*
 * compare.h - A/B comparison of a candidate against a baseline: the
 * judgement of two samples under the two-level model (compare_model), the
 * matching of two selections configuration by configuration (grouped by
 * analysis.h) with the flags a reviewer must see, and the CI gate; the
 * sides as the user names them (a selector in a database, a `contend
 * export` CSV file, number files, "-"), loaded; the output.
 *
 * Call sequence: each side's experiments loaded and analysed into a
 * struct compare_side -> compare_sides() -> compare_gate() -> format the
 * struct compare_result -> compare_result_release().  For `contend
 * compare`, one entry point: a struct compare_request -> compare_run
 * (each side compare_input_load'ed, matched, its metric and options
 * settled, number sides compare_input_number_side'd, compare_sides,
 * compare_gate) -> print the struct compare_outcome ->
 * compare_outcome_say -> compare_outcome_release.
 */
#ifndef CONTEND_COMPARE_H
#define CONTEND_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/abfair.h"
#include "analysis/calibrate.h"
#include "db/select.h"
#include "lib/json.h"

enum verdict {
	VERDICT_FASTER,         /* better beyond the threshold, significant */
	VERDICT_SLOWER,         /* worse beyond the threshold, significant */
	VERDICT_NO_CHANGE,      /* interval within +-threshold: equivalence */
	VERDICT_INCONCLUSIVE,   /* neither: the data cannot tell */
	VERDICT_N
};
extern const char *const verdict_names[]; /* "faster", ... "no-change" */

struct compare_opts {
	enum direction dir;     /* DIR_HIGHER or DIR_LOWER (not DIR_UNKNOWN) */
	double threshold_pct;   /* smallest change that matters, % (1) */
	double confidence;      /* of every interval (0.95) */
	double power;           /* of needed_runs and mde_pct (0.8) */
	double alpha;           /* significance of between-side flags, and */
	double handoff_drop;    /* misleading-throughput: fall >= this; both
				 * from analysis_opts_default (0.05, 0.25) */
	int linear;             /* 1: values, never ratios (0; an int for
				 * opt_choice's auto|linear) */
	double boot_cost;       /* seconds a new invocation (boot) costs, for
				 * the plan (COMPARE_BOOT_COST) */
	double run_cost;        /* seconds a run costs; 0: each
				 * configuration's mean run wall time */
};
#define COMPARE_BOOT_COST 120.0
void compare_opts_default(struct compare_opts *o);

/*
 * One side of a comparison under the two-level model: n runs in all, the
 * model's estimate of the side's level (the geometric mean on the log
 * scale) and its interval, and sd the standard deviation of all its runs.
 */
struct compare_summary {
	size_t n;
	double mean, sd, ci_low, ci_high;
};

/*
 * One side's values of one configuration: k invocations back to back,
 * sizes[i] runs in invocation i.
 */
struct compare_groups {
	const double *x;
	const size_t *sizes;
	size_t k;
};

/*
 * Everything computed from the two sides.  Differences are cand - base;
 * percentages are of |mean_base|.  NAN where a figure cannot be computed
 * (a side with one value, a zero baseline mean).
 */
struct compare_stats {
	struct compare_summary base, cand;
	bool log_scale;         /* every value > 0: ratios, on log values */
	struct nested_diff model; /* on the analysed (log or linear) scale */
	double change_pct;      /* 100 (mean_c / mean_b - 1) */
	double diff, diff_ci_low, diff_ci_high; /* in the metric's unit */
	double change_ci_low_pct, change_ci_high_pct;
	double df;              /* the model's Satterthwaite df */
	double p_welch;         /* the model's two-sided p (name kept) */
	double p_mannwhitney;   /* two-sided, on the unit sample (below) */
	bool mw_exact;          /* exact U distribution; else normal approx.
				 * with tie and continuity correction */
	double hedges_g;        /* of cand vs base on the unit sample */
	double mde_pct;         /* smallest change detectable at these n */
	enum verdict verdict;
	size_t needed_runs;     /* inconclusive only: runs per side (in
				 * needed_invocations invocations) at which
				 * a change of threshold_pct is detected with
				 * the given power; 0 when not applicable */
	size_t needed_invocations;
	struct boot_plan plan;  /* inconclusive only: B boots of R runs */
	bool improved;          /* the whole interval on the better side */
};

/*
 * Compares cand against base under the two-level model, on the log scale
 * when every value is > 0; the verdict from where the interval of the
 * change lies against +-threshold in o->dir (docs/STATISTICS.md,
 * "Two-level model").  -1 (with error()) on an empty side or bad options.
 */
int compare_model(const struct compare_groups *base,
		  const struct compare_groups *cand,
		  const struct compare_opts *o, struct compare_stats *r);

/* ministat's median, x[n/2] of the sorted values (NAN when n = 0), of
 * compare's rows of the runs and ministat's table. */
double ministat_median(const double *x, size_t n);

/* The hand-off rate between the sides (misleading-throughput rule). */
struct handoff_change {
	double base_mean, cand_mean; /* the model's estimates */
	double change_pct;      /* 100 (cand / base - 1) */
	double ci_low_pct, ci_high_pct; /* its interval at o->confidence */
	double p;               /* two-sided, of the log ratio */
	bool significant;       /* p < alpha and a fall of >= handoff_drop */
	bool everywhere;        /* every invocation pair: the ratio of its
				 * runs' means p < alpha, a fall >= handoff_drop */
	bool fell;              /* significant or everywhere */
};
/*
 * Whether the candidate's hand-offs per second fell (the analysis flag's
 * rule: p < o->alpha, a fall >= o->handoff_drop) over the sides' levels
 * (stats_ratio), or in every pair of a baseline and a candidate
 * invocation.  -1 when a side has a single value.
 */
int compare_handoffs(const struct compare_groups *base,
		     const struct compare_groups *cand,
		     const struct compare_opts *o, struct handoff_change *h);

/* ---- selections of experiments ---- */

/*
 * One side: every experiment a selector matched, loaded and analysed.
 * sets[i] and an[i] belong together; an[i].d == &sets[i].
 */
struct compare_side {
	const char *name;       /* as the user wrote it, for messages */
	bool numbers;           /* a number file: no invocations, no host */
	size_t nsets;
	const struct dataset *sets;
	const struct analysis *an;
};

struct compare_flag {
	char name[32];          /* a flag of the flag table (flagtab.h) */
	const char *side;       /* "baseline", "candidate" or "both" */
	char *message;          /* the numbers that raised it */
};

/* How a side's sample was formed for one configuration. */
struct compare_unit {
	size_t invocations;     /* experiments holding the configuration */
	size_t runs;            /* measured ok runs with the metric */
};

/* One kernel lock's wait a run, baseline against candidate (docs/KLOCK.md). */
struct compare_klock {
	const char *kind, *caller;   /* point into a side's dataset */
	double base_mean, cand_mean; /* the model's estimates, s a run */
	double change_pct, ci_low_pct, ci_high_pct, p;
	double p_holm;               /* Holm-adjusted over the rows */
};

/*
 * How often B beat A: every pair of a baseline and a candidate invocation
 * compared by their means of the metric, in its direction.  pairs is 0
 * when a side has fewer than 2 invocations.  The exact rank test of the
 * invocation means (st.p_mannwhitney) can reach at best p_min, two-sided;
 * reachable is p_min < 1 - confidence: with fewer invocations no rank
 * statement reaches the level, and the printers say so instead.
 */
struct compare_beat {
	size_t pairs, wins, ties;
	size_t kb, kc;
	double p_min;
	bool reachable;
};

/*
 * One secondary metric of a configuration (a stored metric other than the
 * compared one, or a kernel lock's wait): its change under compare_model,
 * z the model's t, q its Benjamini-Hochberg p over the configuration's.
 */
struct compare_second {
	char *name;                 /* malloc'd, unescaped */
	double base, cand;          /* the model's levels */
	double change_pct, ci_low_pct, ci_high_pct;
	double z, p, q;
};

/* One matched configuration.  Strings borrow from the sides' datasets. */
struct comparison {
	const char *workload, *canon, *section;
	const struct ds_config *config;         /* baseline's first, for params */
	struct compare_unit ubase, ucand;
	struct summary runs_base, runs_cand;    /* of the runs, unscaled; the
						 * median is ministat's, x[n/2] */
	struct compare_stats st;
	double gate_p;          /* one-sided p of "worse by more than PCT" */
	double gate_p_holm;     /* Holm-adjusted over the comparisons */
	bool gate_fail;         /* gate_p_holm < 1 - confidence */
	double gate_p_pass;     /* one-sided p of "not worse by PCT" */
	enum gate_result gate;  /* what the gate made of it */
	struct boot_plan gate_plan; /* GATE_INCONCLUSIVE: B boots x R runs a
				 * side that would show a loss of PCT */
	double run_cost;        /* s, what its plans take one run to cost */
	size_t nflags;
	struct compare_flag *flags;
	struct abfair fair;     /* fairness and latency A/B (abfair.h) */
	size_t nklock;          /* every kernel lock of both sides' runs */
	struct compare_klock *klock; /* compared where the BPF program timed
				 * them: the changed first, then by wait */
	size_t klock_shown;     /* the first of them the text shows */
	struct compare_beat beat;    /* how often B beat A (compare_extra.c) */
	size_t nsecond;              /* the secondary metrics, by |z| */
	struct compare_second *second;
};

/*
 * A flag of one side summarised over every configuration and experiment
 * of that side (noisy, drift, unfair), printed once.
 */
struct compare_side_flag {
	char name[32];
	const char *side;       /* "baseline" or "candidate" */
	size_t nconfigs;        /* configurations carrying it */
	char *message;
};

/* A configuration present on one side only, or without the metric. */
struct compare_unmatched {
	const char *side;       /* "baseline" or "candidate" */
	const char *workload, *canon, *section;
	const char *reason;
};

struct compare_result {
	struct compare_opts opts;
	const char *metric;
	size_t n;
	struct comparison *cmp;
	size_t nunmatched;
	struct compare_unmatched *unmatched;
	size_t count[VERDICT_N];
	size_t nside_flags;
	struct compare_side_flag *side_flags;
	double gate_pct;        /* < 0: no gate applied */
	size_t gate_failures;
	size_t gate_inconclusive; /* neither pass nor fail */
	size_t gate_unguaranteed; /* comparisons of one invocation a side:
				 * no between-invocation variance, so the
				 * false-alarm rate is not guaranteed */
};

/*
 * The CI gate, three-way (docs/STATISTICS.md, "The gate"): a comparison
 * fails when "worse than -pct %" is shown (Holm over all r->n), passes
 * when it is ruled out, else is inconclusive, with the plan that would
 * decide.  Sets the gate_* fields; returns the number that fail.
 */
size_t compare_gate(struct compare_result *r, double pct);
/* The gate's exit status: EXIT_REGRESSION when one fails, else
 * EXIT_INCONCLUSIVE when one is inconclusive, else EXIT_OK. */
int compare_gate_status(const struct compare_result *r);

/*
 * Matches the configurations of base and cand by workload type and
 * canonical parameters and compares metric on each match, an experiment
 * an invocation; carries either side's flags (summarised once a side in
 * r->side_flags) and raises those between them.  -1 with error() when a
 * side does not record the metric at all (the message lists what it has).
 */
int compare_sides(const struct compare_side *base,
		  const struct compare_side *cand, const char *metric,
		  const struct compare_opts *o, struct compare_result *r);
/*
 * 0 when some experiment of the side records metric, else -1 after an
 * error() naming the side ("baseline"/"candidate") and the metrics it has.
 */
int compare_side_has_metric(const struct compare_side *s,
			    const char *metric, const char *side);
/* Appends a flag to a comparison (message is taken over). */
void comparison_flag(struct comparison *c, const char *name,
		     const char *side, char *message);
void compare_result_release(struct compare_result *r);

/* ---- compare_extra.c: what else a reviewer asks ---- */

/* The beat count of two sides' invocations (cand better in o's dir). */
void compare_beat_count(const struct compare_groups *b,
			const struct compare_groups *c, enum direction dir,
			double confidence, struct compare_beat *out);
/* Benjamini-Hochberg adjusted p-values q[0..n) of p[0..n) (NAN kept). */
void compare_bh(const double *p, size_t n, double *q);
/* The secondary metrics of cmp shown by default: q < alpha, at most this
 * many, by |z|; all of them with --verbose and in JSON. */
#define COMPARE_SECOND_TOP 3
size_t compare_second_shown(const struct comparison *cmp, double alpha,
			    bool all);
/* "B beat A in x of y invocation pairs..." (malloc'd), NULL: pairs 0. */
char *compare_beat_text(const struct comparison *cmp, double confidence);
void compare_second_release(struct comparison *cmp);

/*
 * ---- compare_calib.c ----
 * The A/A profiles (`contend calibrate`) of the hosts a comparison ran
 * on, cited under its verdicts and gate.  compare_calib_load(side) while
 * its store is open and before the sides are matched (load_db) ->
 * compare_sides() -> compare_calib_print / _json -> compare_calib_release.
 */
struct compare_input;

/* The profile of one (host, workload, canonical parameters) of a side. */
struct compare_calib {
	const char *host;       /* the experiment's hostname meta (borrowed) */
	const char *workload;   /* borrowed from the side's dataset */
	char *canon;            /* the configuration's own, before matching */
	char *config;           /* the experiment's config file as stored,
				 * never opened; NULL: none to show (no
				 * hint) */
	bool found;             /* a profile of this host exists */
	struct calib_profile p;
	int64_t experiment;     /* the calibrate experiment holding it */
	double created;         /* its created_at, Unix seconds */
};

/* A side's profiles: at[] one per configuration of every dataset, in
 * order (set by set), an index into c or SIZE_MAX (no hostname). */
struct compare_calibs {
	size_t n, nat;
	struct compare_calib *c;
	size_t *at;
};

/*
 * For every configuration of the side's datasets, the newest profile of
 * its experiment's host in the side's store.  0, or -1 after error() when
 * the store cannot be read.  Sides without a store have none.
 */
int compare_calib_load(struct compare_input *s);
void compare_calib_release(struct compare_calibs *cc);

/*
 * Text: an "A/A:" paragraph per comparison with a profile to cite (the
 * candidate's host, and the baseline's when it differs), then a hint per
 * host without one; nothing when there is neither.  JSON: the member
 * "calibrations": [...] (docs/compare-json.md), always present.
 */
void compare_calib_print(FILE *f, const struct compare_result *r,
			 const struct compare_input *b,
			 const struct compare_input *c);
void compare_calib_json(struct json_writer *w, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);

/*
 * ---- the files that are sides (sidefile.c) ----
 * Number files, ministat's: a value a line from one column of fields
 * split at DELIMS, '#' comments (docs/USER-GUIDE.md, "Comparing"); the
 * default delimiters split at runs of blanks, as awk, any other set at
 * every delimiter, as cut(1).  The limits are docs/LIMITS.md's: bytes
 * read, and numbers a side holds (each costs compare about 130 bytes).
 */
#define NUMFILE_DEFAULT_DELIMS " \t"
#define NUMFILE_MAX_BYTES (256 << 20)
#define NUMFILE_MAX_VALUES 1000000

struct numfile_opts {
	long column;            /* 1-based field number (1) */
	const char *delims;     /* field delimiters (NUMFILE_DEFAULT_DELIMS) */
};
void numfile_opts_default(struct numfile_opts *o);

/* *values a malloc'd array of *n >= 1 numbers in file order, or -1
 * after "contend: NAME:LINE: ..." (*values NULL). */
int numfile_parse(const char *name, const char *text, size_t len,
		  const struct numfile_opts *o, double **values, size_t *n);

/* A whole file (or FIFO) of at most NUMFILE_MAX_BYTES in a malloc'd
 * buffer; -1 after "contend: PATH: ..." (buffer freed). */
int numfile_slurp(const char *path, char **buf, size_t *len);

/*
 * Export files: `contend export --format csv` read back as a side, each
 * uuid an invocation, through an in-memory store (db/store.h, "rows").
 * An invocation of more runs x metrics cells than EXPORT_CELLS_PER_VALUE
 * a value (and EXPORT_CELLS_MIN) is refused: memory follows the values
 * (docs/LIMITS.md).
 */
#define EXPORT_CELLS_PER_VALUE 8
#define EXPORT_CELLS_MIN 65536

/* True when the first line of text is a header naming uuid and metric. */
bool exportside_is_export(const char *text, size_t len);
/* *sets a malloc'd array of *nsets datasets (each dataset_release'd),
 * oldest experiment_id first; -1 after "contend: NAME:LINE: ...". */
int exportside_parse(const char *name, const char *text, size_t len,
		     struct dataset **sets, size_t *nsets);

/* ---- the sides ---- */
enum compare_input_kind { INPUT_DB, INPUT_NUMBERS, INPUT_EXPORT };

/*
 * The files sides name that are not regular (a FIFO, /dev/fd/N), read
 * whole once and kept: a second open of a FIFO waits for a writer that
 * is gone.  One for the whole command; zeroed, then compare_files_release.
 */
struct compare_file {
	char *path;
	char *buf;                      /* NULL: reading it failed (said) */
	size_t len;
};
struct compare_files {
	struct compare_file *f;
	size_t n;
};
void compare_files_release(struct compare_files *files);

/* One side as the user named it, and what it loaded. */
struct compare_input {
	const char *text;
	const char *role;               /* "baseline" or "candidate" */
	struct compare_files *files;    /* NULL: every file read afresh */
	enum compare_input_kind kind;
	char *db;                       /* INPUT_DB only */
	char *sel;                      /* selector in db; NULL = newest */
	struct selector pick;           /* the grammar's ~newest, @filters */
	struct store *st;
	int64_t *ids;
	size_t nsets;
	struct dataset *sets;
	struct analysis *an;
	double *values;                 /* number files, back to back */
	size_t nvalues;
	size_t nfiles, *sizes;          /* values per file (invocation) */
	struct compare_side side;
	struct compare_calibs calib;    /* the hosts' A/A profiles */
};

struct compare_request;
/*
 * Loads side s (s->text, s->role and s->files set by the caller) as q
 * reads sides: a database side or an export analysed, numbers read (q->in:
 * standard input, for the side "-").  numbers_only: s->kind set, only a
 * number side loaded.  0, or the exit status (2 bad input, 1 the machine
 * failed) after error().
 */
int compare_input_load(struct compare_input *s,
		       const struct compare_request *q, bool numbers_only);
void compare_input_release(struct compare_input *s);

/*
 * A number side loaded as an export side is, through an in-memory store,
 * its configuration shaped like the other side's only one; -1 after
 * error().
 */
int compare_input_number_side(struct compare_input *s,
			      const struct compare_input *other,
			      const char *metric);

/* ---- the one entry point (compare_run.c) ---- */

/* What `contend compare BASE CAND` is asked, one candidate. */
struct compare_request {
	const char *base, *cand;        /* the sides as the user named them */
	const char *db;                 /* the default database */
	const char *metric;             /* NULL: settled from the sides */
	struct compare_opts opts;       /* dir DIR_UNKNOWN: the baseline's
					 * declared, else the metric's;
					 * confidence 0: the baseline's, else
					 * 0.95 */
	double fail_pct;                /* the gate's PCT; < 0: no gate */
	bool strict;                    /* refuse an unguaranteed gate */
	struct numfile_opts nf;         /* how number files are read */
	char *in;                       /* standard input, for a side "-" */
	size_t inlen;
	struct compare_files *files;    /* FIFOs read once, shared by the
					 * requests of one command */
};

struct compare_outcome {
	struct compare_input base, cand; /* loaded, for the printers */
	bool compared;                  /* r holds a result to print */
	struct compare_result r;
};

/*
 * Loads both sides, settles the metric and options, compares them,
 * applies the gate (fail_pct >= 0) and --strict.  The exit status (2 also
 * when nothing matched, said by compare_outcome_say after the result).
 * o->compared: o->r is to be printed.  Release o in every case.
 */
int compare_run(const struct compare_request *q, struct compare_outcome *o);
/* What is said after the result: the regression, or why nothing was
 * compared (stderr). */
void compare_outcome_say(const struct compare_outcome *o);
void compare_outcome_release(struct compare_outcome *o);
/*
 * ministat's legend, table (and with ascii its plot) of q->base and
 * cands[0..ncands) when every one is numbers: *done set.  0 with *done
 * false when one is not, or there are more than MINISTAT_SETS; else the
 * exit status after error().
 */
int compare_ministat(FILE *f, const struct compare_request *q,
		     char *const *cands, size_t ncands, bool ascii, bool *done);

/* ---- compare_text.c, compare_json.c (docs/compare-json.md), mail.c ---- */
void compare_print_text(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);
void compare_print_json(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);
/* The mail format (mail.c): at most 72 columns; verbose lists
 * every secondary metric of a row. */
void compare_print_mail(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c, bool verbose);
/* Under a row (text and mail): how often B beat A and the secondary
 * metrics that changed (all: every one), indented, within 72 columns. */
void compare_print_extras(FILE *f, const struct comparison *cmp,
			  double confidence, bool all);

/* ---- ministat (compare_run.c) ---- */
#define MINISTAT_SETS 7     /* symbols: x + * % # @ O */


/* ---- private to the files of compare ---- */

/* compare_sideflags.c: has comparison c flag name on side; the carried
 * flags of both sides into r->side_flags. */
bool compare_has_flag(const struct comparison *c, const char *name,
		      const char *side);
void compare_side_flags(struct compare_result *r, const struct compare_side *b,
			const struct compare_side *c);

/* ---- the selections of compare.c ---- */

/* Pulls the measured ok values of one configuration of one dataset. */
typedef series_extract extract_fn;

/* A side's values of one configuration, invocation (experiment) by
 * invocation: the one model's sample (analysis.h) and its views. */
struct sample {
	double *x;
	size_t n;
	struct series_sample v;
	struct compare_groups g;
	struct compare_unit u;
};

/* compare_sideflags.c: a side's sample of one configuration, by invocation,
 * and its release. */
void compare_sample_build(const struct compare_side *s,
			  const struct series *g, extract_fn fn,
			  const char *metric, struct sample *out);
void compare_sample_release(struct sample *s);
/* futex-hash-differs: the sides' stored futex_hash_slots differ. */
void compare_futex_hash(struct comparison *cmp, const struct compare_side *b,
			const struct series *gb, const struct compare_side *c,
			const struct series *gc);

/*
 * compare_extra.c: every kernel lock either side's runs waited on, A/B from
 * each run's wait (docs/KLOCK.md, "Comparing two builds"), into
 * cmp->klock: the changed first, then by wait; cmp->klock_shown of them
 * for the text.
 */
void compare_klock(struct comparison *cmp, const struct compare_opts *o,
		   const struct compare_side *b, const struct series *gb,
		   const struct compare_side *c, const struct series *gc);

/* compare_extra.c: the beat count and the secondary metrics of cmp. */
void compare_extras(struct comparison *cmp, const struct compare_opts *o,
		    const char *metric, const struct sample *sb,
		    const struct sample *sc, const struct compare_side *b,
		    const struct series *gb, const struct compare_side *c,
		    const struct series *gc);

/* compare_detail.c: the host facts that differ between two sides, and
 * the warnings they call for, at compare's width. */
void compare_print_hostdiff(FILE *f, const struct compare_input *b,
			    const struct compare_input *c);

/* compare's text (compare_detail.c): printf wrapped at its width; a
 * change with its interval (malloc'd); a configuration's label; one
 * configuration in detail. */
void compare_para(FILE *f, int indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
char *compare_change_text(const struct compare_stats *st);
/* "section k=v ..." ("[section]" with brackets), the
 * parameters that vary within the section, escaped (malloc'd). */
char *compare_label(const struct compare_result *r,
		    const struct comparison *cmp, bool numbers, bool brackets);
void compare_print_detail(FILE *f, const struct comparison *cmp,
		  const struct compare_result *r, bool numbers);

#endif
