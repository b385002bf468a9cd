/*
 * lockstat.h - contention counts of kernel lock classes from /proc/lock_stat
 * (CONFIG_LOCK_STAT), snapshotted before and after a run so a workload can
 * report which kernel locks it contended and how much.
 *
 * Call sequence: lockstat_read(&before) (may find nothing: the file is
 * absent or unreadable on most kernels, and that is not an error), run,
 * lockstat_read(&after), lockstat_report(r, &before, &after, k),
 * lockstat_release both.
 */
#ifndef CONTEND_LOCKSTAT_H
#define CONTEND_LOCKSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "runner/workload.h"

struct lockstat_class {
	char *name;            /* as the kernel prints it, e.g. "&rq->lock" */
	uint64_t contentions;
};

struct lockstat {
	size_t n;
	struct lockstat_class *classes;
};

/*
 * Parses the text of /proc/lock_stat (format version 0.4): every class
 * line "NAME: con-bounces contentions ...".  Contention-point lines,
 * separators and headers are skipped.  Returns the number of classes.
 */
size_t lockstat_parse(const char *text, struct lockstat *ls);
/* Reads /proc/lock_stat; 0 classes (not an error) when it is unreadable. */
size_t lockstat_read(struct lockstat *ls);
void lockstat_release(struct lockstat *ls);

/*
 * Adds a metric "lockstat_<class>" with the growth of contentions for at
 * most k classes, those that grew most (growth > 0 only).  Class names are
 * reduced to [A-Za-z0-9_] and cut to fit METRIC_NAME_MAX; classes whose
 * names collide after that are summed.  Returns the number of metrics.
 */
size_t lockstat_report(struct result *r, const struct lockstat *before,
		       const struct lockstat *after, size_t k);
/* "&(&zone->lock)->rlock" -> "lockstat_zone_lock_rlock" into out. */
void lockstat_metric_name(const char *cls, char *out, size_t outlen);

#endif
