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

#include "db/store.h"

#define CLAIM_KEY "runner"

/*
 * Claims experiment for this process, atomically (one write transaction):
 * 0, or -1 after error() - naming the pid - when a live process holds it.
 */
int claim_take(struct store *s, int64_t experiment);
/* Drops this process's claim (any other claim is left alone). */
int claim_release(struct store *s, int64_t experiment);

/*
 * The claim text of process pid ("BOOTID PID STARTTIME"), malloc'd; NULL
 * when the process does not exist.  For tests.
 */
char *claim_text(pid_t pid);
/* True when text names a process that is alive now (the same boot, pid
 * and start time); *pid is set from the text when it parses. */
bool claim_alive(const char *text, pid_t *pid);

/*
 * A process as a part of a name ("PID-STARTTIME"), for what a runner
 * leaves in shared places (its cgroup, its scratch directories) and a
 * later runner must tell from a live one's: 0, or -1 when pid is gone.
 */
int claim_tag(pid_t pid, char *buf, size_t len);
/* True only when tag is well formed and names no live process (a pid
 * reused since has another start time). */
bool claim_tag_dead(const char *tag);

#endif
