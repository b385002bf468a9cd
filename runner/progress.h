/*
 * progress.h - the runner's one updating status line on a terminal (runs
 * done/total, the configuration running, elapsed, ETA) and the summary
 * printed at the end.  Silent on a pipe and with --quiet.
 *
 * Call sequence: progress_init -> (progress_begin, progress_end,
 * progress_outcome) per run, progress_grow when an auto plan adds runs ->
 * progress_summary -> progress_release.
 *
 * Failures are never silent: each failed run's reason is printed as it
 * happens (unless --quiet), the summary counts them by reason, and
 * progress_all_failed names a configuration none of whose runs succeeded.
 */
#ifndef CONTEND_PROGRESS_H
#define CONTEND_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "db/store.h"

struct progress {
	FILE *tty;                 /* NULL: no status line */
	size_t total, done;        /* runs of the plan, runs finished */
	size_t count[RUN_NSTATUS]; /* finished runs by status (this session) */
	double t0;                 /* monotonic start of this session */
	double planned_left;       /* planned seconds of timed runs to do */
	double timed_planned, timed_wall; /* timed runs done: plan vs real */
	size_t jobs_done;          /* fixed-work runs done ... */
	double jobs_wall;          /* ... and the wall time they took */
	size_t jobs_left;
	double run_t0;
	bool quiet;
	/* Outcomes by configuration, and the distinct failure reasons. */
	size_t nconfigs;
	struct progress_config {
		size_t ok, failed;
		char *first_error;
	} *configs;
	size_t nreasons;
	struct progress_reason {
		char *text;        /* "crashed: killed by signal 11" */
		size_t count;
	} *reasons;
};

/*
 * total runs in the plan of which done are already finished (resume);
 * planned_s is the sum of runtime over the runs still to do, jobs_left the
 * number of those that do fixed work (no planned duration).
 */
void progress_init(struct progress *p, size_t total, size_t done,
		   double planned_s, size_t jobs_left, bool quiet);
/* A run starts: what is "section k=v ..."; planned_s its runtime or 0. */
void progress_begin(struct progress *p, const char *what);
void progress_end(struct progress *p, enum run_status st, double planned_s,
		  double wall_s);
void progress_grow(struct progress *p, size_t runs, double planned_s,
		   size_t jobs);
/*
 * What run seq (of configuration config, described by what) came to: on
 * a status other than ok and interrupted, one line "run SEQ STATUS:
 * REASON  [WHAT]" on stderr, control characters escaped, cut to the
 * terminal's width on a terminal; counted by reason for the summary.
 */
void progress_outcome(struct progress *p, size_t config, long seq,
		      const char *what, enum run_status st, const char *reason);
/*
 * True when configuration config had runs in this session and none
 * succeeded; *first is then the first failure's reason.
 */
bool progress_all_failed(const struct progress *p, size_t config,
			 size_t *failed, const char **first);
void progress_release(struct progress *p);
/* "12 runs: 10 ok, 1 failed, 1 timeout; 0:42 wall" to f, then one line
 * per distinct failure reason with its count, the most frequent first. */
void progress_summary(const struct progress *p, FILE *f);

#endif
