/*
 * workloads.h - the descriptors registry.c lists, one per file in this
 * directory, and helpers the workloads share.
 */
#ifndef CONTEND_WORKLOADS_H
#define CONTEND_WORKLOADS_H

#include "runner/workload.h"

extern const struct workload noop_workload;
extern const struct workload futex_mutex_workload;   /* futex_mutex.c */
extern const struct workload pthread_mutex_workload; /* pthread_mutex.c */
extern const struct workload spinlock_workload;      /* spinlock.c */
extern const struct workload rwlock_workload;        /* rwlock.c */
extern const struct workload paramtest_workload;
extern const struct workload creat_workload;
extern const struct workload chat_workload;
extern const struct workload command_workload;

/*
 * command_extract.c: what a run does with the command's output, without the
 * command: applies a's regexes (metric, contention, metric1..8) to
 * out[0..len-1], which must be NUL-terminated and is modified in place
 * (NUL bytes become blanks).  0 with each metric added to r, or -1 with
 * r->error set (a regex that does not compile or match, a capture that is
 * not a number).  For tests and the fuzz target.
 */
int command_extract(const struct wl_args *a, char *out, size_t len,
		    struct result *r);

#endif
