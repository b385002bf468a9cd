/*
 * kwarn.h - what the runner's sentinels saw during the runs
 * (runner/sentinel.h, docs/STORAGE.md "Sentinels"), for the report: the
 * kernel-warning flag, the likely cause of a noisy configuration, and the
 * runs left out under --exclude-kernel-warnings.
 */
#ifndef CONTEND_KWARN_H
#define CONTEND_KWARN_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"

/*
 * Marks every run with a kernel warning excluded (ds_run.excluded), so
 * that no summary counts it; returns how many.  Call before analysis_run.
 */
size_t kwarn_exclude(struct dataset *d);

/* Raises kernel-warning on ca when a run of it (ok, not warm-up) logged
 * a kernel warning: which runs, how many of each class, the first line. */
void kwarn_flag(const struct analysis *a, struct config_analysis *ca);

/*
 * Raises kernel-log-unread on ca when the kernel log was not followed
 * during the experiment (MK_KERNEL_LOG not "followed": the word and what
 * it means), or when runs of ca (ok, not warm-up) lost records of it
 * (klog_unread): a warning there would not have been flagged.
 */
void kwarn_unread_flag(const struct analysis *a, struct config_analysis *ca);

/*
 * The likely cause of ca's noise, a sentence with its numbers, malloc'd:
 * stolen time above 1% of the runs' wall time, a thermal message, or a
 * mean frequency that moved by more than 5% between runs; NULL when the
 * sentinels saw none of these.
 */
char *kwarn_noise_cause(const struct analysis *a,
			const struct config_analysis *ca);

#endif
