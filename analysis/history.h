/*
 * history.h - change points in a configuration's level over a series of
 * experiments (a nightly series, the kernels of a bisection): where the
 * level moved, by how much, with its interval, from a test whose
 * false-alarm rate is stated and checked by simulation.
 *
 * Each experiment is one point (one invocation, analysis.h): its level the
 * mean of the log of the metric over its measured runs, a collapse where
 * a value is <= 0, missing where none was measured.  The levels are
 * segmented by least squares with a penalty calibrated by permutation
 * (the method and its rates: docs/STATISTICS.md, "History").
 *
 * Call sequence: history_load (the store) -> history_analyze ->
 * [history_gate] -> history_write_text / history_write_json ->
 * history_release.  history_change_points is the pure core, for tests
 * and simulations.
 */
#ifndef CONTEND_HISTORY_H
#define CONTEND_HISTORY_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "db/store.h"

#define HISTORY_MINSEG ((size_t)2) /* points each side of a change, at least */
#define HISTORY_KMAX ((size_t)8)   /* changes of one series, at most */

struct history_opts {
	double alpha;           /* 0.05: false-alarm rate of a series */
	double confidence;      /* 0.95: of each change's interval */
	unsigned perms;         /* 999 */
	unsigned long seed;     /* of the permutations (reproducible output) */
	const char *metric;     /* "throughput" */
};
void history_opts_default(struct history_opts *o);

enum cp_kind {
	CP_LEVEL,               /* the level moved (the segmentation) */
	CP_COLLAPSE,            /* a value <= 0 from here: a fact, no test */
	CP_RECOVERY,            /* values > 0 again after a collapse */
};

struct change_point {
	size_t index;           /* the first point of the new level */
	enum cp_kind kind;
	double p;               /* the series' permutation p (any change);
				 * NAN for a collapse or a recovery */
	double change_pct, ci_low_pct, ci_high_pct; /* NAN: not given */
};

/*
 * The change points of y[0..n) (log levels), in index order, into *out
 * (malloc'd, NULL when none) and *nout.  Returns 0, or -1 on a bad
 * argument (alpha or confidence outside (0, 1), perms 0).
 */
int history_change_points(const double *y, size_t n,
			  const struct history_opts *o,
			  struct change_point **out, size_t *nout);

enum hp_state {
	HP_OK,                  /* every value > 0: a log level */
	HP_COLLAPSED,           /* some value <= 0 */
	HP_MISSING,             /* the configuration ran, no value measured */
};

/* One experiment's level for one configuration. */
struct history_point {
	size_t exp;             /* index into history.exps */
	enum hp_state state;
	size_t n;               /* measured runs with the metric */
	size_t nonpos;          /* of them, values <= 0 */
	double mean;            /* arithmetic mean of the values (NAN: none) */
	double level;           /* HP_OK: mean of log(value); else NAN */
	double lo, hi;          /* its interval over the runs, log scale */
};

struct history_config {
	const char *workload, *section, *canon; /* borrowed from a dataset */
	size_t npoints;
	struct history_point *points; /* the experiments that have it, oldest first */
	size_t ncps;
	struct change_point *cps;
	/* the gate: the newest point against the level before it, in %
	 * (change_pct NAN: none), p one-sided of "worse by more than PCT" */
	struct change_point gate;
	double gate_p_holm;
	enum gate_result verdict;  /* --fail-on-change's decision (history_gate) */
};

struct history {
	char *pattern;
	size_t nexps;
	struct dataset *exps;   /* the series, oldest first */
	size_t nconfigs;
	struct history_config *configs;
	struct history_opts opts;
	double gate;            /* --fail-on-change PCT; < 0: none */
};

/*
 * The experiments whose label or name matches pattern (a glob, fnmatch;
 * an exact name or label matches itself), or whose id it is, in creation
 * order, loaded.  Returns 0; -2 (after error()) when fewer than two
 * match; -1 on a database error.
 */
int history_load(struct store *s, const char *pattern, struct history *h);
/* Series per configuration and their change points; -2 unknown metric. */
int history_analyze(struct history *h, const struct history_opts *o);
void history_release(struct history *h);

/*
 * --fail-on-change PCT over every configuration of an analysed history:
 * the newest experiment's level against the level of the last segment
 * before it (a prediction interval: that segment's spread between
 * experiments).  A configuration fails when "worse by more than PCT" is
 * shown at 1 - confidence after Holm over the configurations (a collapse
 * of a higher-is-better metric fails outright); passes when its one-sided
 * bound rules it out; else is inconclusive.  Returns EXIT_OK,
 * EXIT_REGRESSION (any fails), EXIT_INCONCLUSIVE (none fails, some
 * inconclusive), or -2 (after error()) for a metric without a direction.
 */
int history_gate(struct history *h, double pct);

int history_write_text(FILE *f, const struct history *h);
int history_write_json(FILE *f, const struct history *h);

#endif
