/*
 * calibrate.h - this host's own A/A profile of a configuration, from K
 * invocations of the same experiment (`contend calibrate`): the variance
 * between invocations and within them, how often compare's model flags
 * a difference between two halves of the same invocations (the observed
 * false-alarm rate of the gate at 0%), and the smallest change a design
 * of B boots of R runs detects here.  The statistics on grouped logs
 * and the invocations of a configuration; running the experiment is
 * cli/cmd_calibrate.c's.
 */
#ifndef CONTEND_CALIBRATE_H
#define CONTEND_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/store.h"

#define CALIB_MAX_SPLITS 500    /* A/A splits compared, at most */

struct calib_profile {
	size_t k, n;            /* invocations, runs in all */
	double s2_b, s2_w;      /* variance components, log scale */
	size_t splits, alarms;  /* A/A: halves compared, p < alpha */
	size_t boots, runs;     /* the design the MDE is for */
	double mde_pct;         /* its minimum detectable change, % */
};

/*
 * x holds k >= 4 groups of logs back to back, sizes[i] each (>= 2);
 * boots and runs the design of the MDE (80% power, two-sided alpha).
 * Every split of the invocations into halves (the first invocation in
 * the first half, so each split is counted once; at most
 * CALIB_MAX_SPLITS) is compared with stats_nested_diff.  Returns 0, or
 * -1 on a bad argument.
 */
int calib_compute(const double *x, const size_t *sizes, size_t k,
		  size_t boots, size_t runs, double alpha,
		  struct calib_profile *p);

/*
 * The profile of configuration (workload, canon) over the experiments
 * ds[0..nds), each one invocation whatever its sections (the one model
 * of runs, analysis/analysis.h): calib_compute on the logs of its counted
 * runs' positive values of metric, alpha 0.05.  *k is the invocations
 * with a value, *two those with two or more.  0, or -1 when there is no
 * profile (fewer than 4 invocations of 2 runs).
 */
int calib_profile_of(const struct dataset *ds, size_t nds,
		     const char *workload, const char *canon,
		     const char *metric, size_t boots, size_t runs,
		     struct calib_profile *p, size_t *k, size_t *two);

/*
 * The profile as stored with the last calibrate experiment (experiment
 * meta calibrate.SECTION.KEY, docs/STORAGE.md).  calib_valid:
 * calib_compute's bounds, every number finite.  calib_store stores only
 * a valid profile, all its keys in one transaction (a full disk leaves
 * none of them).  calib_find reads the newest whole, valid one of this
 * host for workload and canon (a partial or hand-edited one is skipped
 * for the next older), with the id of the experiment that holds it: 0
 * found, 1 none, -1 on a database error.
 */
bool calib_valid(const struct calib_profile *p);
int calib_store(struct store *s, int64_t experiment, const char *section,
		const char *workload, const char *canon,
		const struct calib_profile *p);
int calib_find(struct store *s, const char *hostname, const char *workload,
	       const char *canon, struct calib_profile *p, int64_t *experiment);
/*
 * The same in two steps, for many look-ups in one store: calib_load
 * reads every calibrate experiment with its meta, newest first (*rows
 * malloc'd: experiment_row_release each, then free), and returns their
 * number or -1 on a database error; calib_pick gives the index in rows
 * of the newest holding hostname's profile of workload and canon (in
 * *p), or -1.
 */
int calib_load(struct store *s, struct experiment_row **rows);
int calib_pick(const struct experiment_row *rows, size_t n,
	       const char *hostname, const char *workload, const char *canon,
	       struct calib_profile *p);
/*
 * The profile in one sentence, malloc'd: "on host H (calibrated
 * YYYY-MM-DD HH:MM UTC, experiment N: K invocations) a 2.9% change is
 * detectable ...", created the experiment's created_at (Unix seconds;
 * <= 0: no date); host NULL: "on this host (calibrate experiment N: ...".
 */
char *calib_cite(const struct calib_profile *p, const char *host,
		 int64_t experiment, double created);

#endif
