/*
 * workloads.h - the descriptors registry.c lists, one per file in this
 * directory, and helpers the workloads share.
 */
#ifndef CONTEND_WORKLOADS_H
#define CONTEND_WORKLOADS_H

#include "runner/workload.h"

extern const struct workload noop_workload;
extern const struct workload paramtest_workload;

#endif
