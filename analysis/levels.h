/*
 * levels.h - invocations of one level: experiments with the same name and
 * label (e.g. one per boot of the same kernel) read as a two-level design
 * after Kalibera & Jones, "Rigorous Benchmarking in Reasonable Time" (ISMM
 * 2013): how much of the variance lies between invocations and how much
 * within, the CI of the mean under compare's two-level model (stats.h,
 * struct nested), and whether more runs per boot or more boots buy more
 * precision for the time.  Methods: docs/USER-GUIDE.md, "Invocations and boots".
 *
 * Call sequence: levels_opts_default -> levels_load (reads the store) ->
 * levels_analyze -> levels_write_text / levels_write_json -> levels_release.
 */
#ifndef CONTEND_LEVELS_H
#define CONTEND_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/stats.h"
#include "db/store.h"

#define LEVELS_BOOT_COST 120.0   /* seconds a new boot costs, by default */
#define LEVELS_ALPHA 0.05        /* between-invocation variance "detected" */
#define LEVELS_POWER 0.8         /* of the plan, as compare's */

struct levels_opts {
	const char *metric;     /* "throughput" */
	double boot_cost;       /* c_i, seconds (LEVELS_BOOT_COST) */
	double run_cost;        /* c_r, seconds; 0 = mean run wall time */
	double confidence;      /* 0 = the first invocation's */
	double threshold_pct;   /* the change the plan resolves (1) */
	bool linear;            /* values, never logs (false: logs when every
				 * value is > 0, as compare) */
};
void levels_opts_default(struct levels_opts *o);

enum levels_advice {
	ADVICE_INSUFFICIENT,    /* < 2 invocations, or no invocation has 2 runs */
	ADVICE_NO_COST,         /* run cost unknown: no wall times, no --run-cost */
	ADVICE_NO_SPREAD,       /* every run gave the same value */
	ADVICE_ONE_INVOCATION,  /* no between-invocation variance detected */
	ADVICE_MORE_BOOTS,
	ADVICE_MORE_RUNS,
	ADVICE_KEEP,            /* the runs per boot are already the best */
};
extern const char *const levels_advice_names[]; /* "more-boots", ... */

/* Runs per boot for the least f(n) = (s2_b + s2_w / n)(c_i + n c_r), the
 * variance at equal time (docs/USER-GUIDE.md, "The advice"). */
struct level_plan {
	double run_cost, boot_cost; /* c_r, c_i in seconds */
	double n_now;               /* mean runs per invocation */
	double n_opt;               /* real optimum; INFINITY when s2_b = 0 */
	long n_best;                /* integer >= 1 minimising f; 0 = unbounded */
	double gain;                /* SE now / SE at n_best, equal time (>= 1) */
	enum levels_advice advice;
};

/* ONE_INVOCATION when s2_b is 0 or its F test has p >= LEVELS_ALPHA;
 * otherwise n_best and gain.  NAN/0 where a value does not apply. */
void levels_advise(const struct anova *a, double n_now, double run_cost,
		   double boot_cost, struct level_plan *p);

struct level_invocation {
	size_t inv;             /* index into level.inv */
	size_t n;               /* measured ok runs with the metric */
	double mean, sd;        /* sd NAN when n < 2 */
};

struct level_config {
	const char *workload, *section, *canon; /* borrowed from a dataset */
	size_t k;               /* invocations holding values */
	struct level_invocation *inv; /* k entries, oldest invocation first */
	size_t n;               /* values in all */
	struct anova anova;
	double share_between, share_within; /* of s2_b + s2_w, NAN when 0 */
	double n_eff;           /* N / (1 + (n0 - 1) ICC) */
	struct nested model;    /* the two-level model compare uses */
	struct summary grand;   /* the model's level and CI (mean, ci_*) */
	struct summary pooled;  /* every run as if independent, to contrast */
	struct level_plan plan;
	bool log_scale;         /* on logs (compare's scale): the level a
				 * geometric mean, the components of logs */
	struct boot_plan boot;  /* compare's plan (stats_boot_plan) */
};

struct level {
	const char *name, *label; /* borrowed from inv[0].exp */
	size_t ninv;
	struct dataset *inv;    /* the invocations, oldest first */
	size_t nconfigs;
	struct level_config *configs; /* matched by workload + canon */
};

struct levels {
	struct levels_opts opts; /* as analysed: confidence resolved */
	size_t nlevels;
	struct level *levels;   /* by name, then label */
	char *filter;           /* the selector's "KEY=VALUE,...", or NULL */
};

/*
 * Loads the experiments what names (as store_experiment_find resolves it)
 * and every other sharing a name and label with one of them, grouped into
 * levels by (name, label).  pick: the parsed selector what is the WHAT
 * of, whose @KEY=VALUE filters (db/select.h) keep only the configurations
 * with those parameters, and the invocations that have one; NULL: what is
 * a whole selector, parsed here.  -1 on a database error; -2 (after
 * error()) when nothing matches or the selector is malformed.
 */
struct selector;
int levels_load(struct store *s, const char *what,
		const struct selector *pick, struct levels *l);
/* Matches configurations and computes each; -2 when the metric is unknown. */
int levels_analyze(struct levels *l, const struct levels_opts *o);
/*
 * The computation for one configuration: x holds c->k groups back to back,
 * c->inv[i].n values each (the caller sets inv and n); fills everything
 * else (k = 0: every figure unknown).  run_cost <= 0 or NAN means unknown.
 */
int levels_config_compute(const double *x, double run_cost,
			  const struct levels_opts *o, struct level_config *c);
void levels_release(struct levels *l);

int levels_write_text(FILE *f, const struct levels *l);
int levels_write_json(FILE *f, const struct levels *l);

#endif
