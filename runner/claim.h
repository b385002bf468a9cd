/*
 * claim.h - which live process runs an experiment.  A runner records
 * itself in the experiment's meta ("runner" = boot id, pid, start time)
 * before its first run and removes the record when it ends, so that a
 * second runner - `contend run --resume` while the first still runs -
 * refuses instead of running the same runs beside it (two benchmarks at
 * once measure each other).  The record of a runner that died (SIGKILL,
 * a crash, a reboot) names no live process, and is taken over.
 */
#ifndef CONTEND_CLAIM_H
#define CONTEND_CLAIM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "db/contract.h"
#include "db/store.h"

#define CLAIM_KEY MK_CLAIM

/*
 * Claims experiment for this process, atomically (one write transaction):
 * 0, or -1 after error() - naming the pid - when a live process holds it.
 */
int claim_take(struct store *s, int64_t experiment);
/* Drops this process's claim (any other claim is left alone). */
int claim_release(struct store *s, int64_t experiment);

/* The claim's text is lib/procid.h's: procid_text(getpid()). */

#endif
