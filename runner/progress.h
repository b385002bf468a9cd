/*
 * progress.h - the runner's one updating status line on a terminal (runs
 * done/total, the configuration running, elapsed, ETA) and the summary
 * printed at the end.  Silent on a pipe and with --quiet.
 *
 * Call sequence: progress_init -> (progress_begin, progress_end) per run,
 * progress_grow when an auto plan adds runs -> progress_summary.
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
/* Seconds still to go, from the planned durations scaled by what the
 * finished runs actually took; negative when nothing is known yet. */
double progress_eta(const struct progress *p);
/* "12 runs: 10 ok, 1 failed, 1 timeout; 0:42 wall" to f. */
void progress_summary(const struct progress *p, FILE *f);

#endif
