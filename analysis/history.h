/*
 * history.h - change points in a configuration's level over a series of
 * experiments (a nightly series, the kernels of a bisection): where the
 * level moved, by how much, with its interval, from a test whose
 * false-alarm rate is stated and checked by simulation.
 *
 * Each experiment of the series is one invocation: its level is the mean
 * of the log of the metric over its measured runs (the scale compare
 * uses), so the series' points are independent under "nothing changed"
 * and exchangeable, whatever the runs within an experiment share.  The
 * change points come from binary segmentation: in a segment, the split
 * with the largest two-sample t statistic (pooled within the two sides)
 * is a change point when a permutation test of that largest statistic
 * (the segment's points shuffled, HISTORY_PERMS times, seeded) gives
 * p <= alpha; then each side is searched the same way.  Under no change
 * the first test rejects with probability at most alpha, so a series
 * without a change gets a false change point with probability at most
 * alpha (docs/STATISTICS.md, "History").  Each change's size is the
 * ratio of the geometric means of the segments either side of it (up to
 * the neighbouring change points), with a Welch interval on the log
 * scale: a fall never reaches -100%.
 *
 * Call sequence: history_load (the store) -> history_analyze ->
 * history_write_text / history_write_json -> history_release.
 * history_change_points is the pure core, for tests and simulations.
 */
#ifndef CONTEND_HISTORY_H
#define CONTEND_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db/store.h"

#define HISTORY_PERMS 999
#define HISTORY_MINSEG ((size_t)2) /* points each side of a change, at least */

struct history_opts {
	double alpha;           /* 0.05: false-alarm rate of a series */
	double confidence;      /* 0.95: of each change's interval */
	unsigned perms;         /* HISTORY_PERMS */
	unsigned long seed;     /* of the permutations (reproducible output) */
	const char *metric;     /* "throughput" */
};
void history_opts_default(struct history_opts *o);

struct change_point {
	size_t index;           /* the first point of the new level */
	double p;               /* the permutation test's p */
	double change_pct, ci_low_pct, ci_high_pct;
};

/*
 * The change points of y[0..n) (log levels), in index order, into *out
 * (malloc'd, NULL when none) and *nout.  Returns 0, or -1 on a bad
 * argument (alpha or confidence outside (0, 1), perms 0).
 */
int history_change_points(const double *y, size_t n,
			  const struct history_opts *o,
			  struct change_point **out, size_t *nout);

/* One experiment's level for one configuration. */
struct history_point {
	size_t exp;             /* index into history.exps */
	size_t n;               /* measured ok runs with the metric */
	double level;           /* mean of log(value) */
	double lo, hi;          /* its interval over the runs, log scale */
};

struct history_config {
	const char *workload, *section, *canon; /* borrowed from a dataset */
	size_t npoints;
	struct history_point *points; /* the experiments that have it, oldest first */
	size_t ncps;
	struct change_point *cps;
};

struct history {
	char *pattern;
	size_t nexps;
	struct dataset *exps;   /* the series, oldest first */
	size_t nconfigs;
	struct history_config *configs;
	struct history_opts opts;
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

int history_write_text(FILE *f, const struct history *h);
int history_write_json(FILE *f, const struct history *h);

#endif
