/*
 * procid.h - which process is alive: a process named by boot id, pid and
 * start time, so that a record naming it (the runner's claim on an
 * experiment, runner/claim.h; the owner of a scratch directory, a cgroup
 * or a read-only copy of a database) is judged live or stale without
 * mistaking a reused pid for its owner.
 */
#ifndef CONTEND_LIB_PROCID_H
#define CONTEND_LIB_PROCID_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"

/*
 * The text of process pid ("BOOTID PID STARTTIME"), malloc'd; NULL
 * when the process does not exist.
 */
char *procid_text(pid_t pid);
/* True when text names a process that is alive now (the same boot, pid
 * and start time); *pid is set from the text when it parses. */
bool procid_alive(const char *text, pid_t *pid);
/*
 * A process as a part of a name ("PID-STARTTIME"), for what a process
 * leaves in shared places (a cgroup, scratch directories, a database's
 * private copy) and a later one must tell from a live one's: 0, or -1
 * when pid is gone.
 */
int procid_tag(pid_t pid, char *buf, size_t len);
/* True only when tag is well formed and names no live process (a pid
 * reused since has another start time). */
bool procid_tag_dead(const char *tag);

#endif
