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

#endif
