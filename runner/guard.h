/*
 * guard.h - nothing the runner started outlives it: a small guard
 * process, forked once per `contend run`, ends what is in flight when the
 * runner is gone, even killed by SIGKILL, and removes its scratch
 * directories and its cgroup.
 *
 * A run's leader dies with the runner by itself (spawn.c's
 * PR_SET_PDEATHSIG), but what it forked would live on, and a hook's or
 * the profile run's children too.  The guard sleeps in a read of a pipe
 * whose only write end the runner holds, and when that read ends -- the
 * runner exited or died -- it kills everything in the runner's cgroup
 * (cgroup.h: setsid children included) and the process group the runner
 * last published (without a cgroup, all there is), waits for them to
 * exit, removes the scratch directories the runner last published, and
 * removes the cgroup.  Publishing is a store to pages the two share: no
 * system call and no wake-up per run.  The guard is in a session of its
 * own, so a kill of the runner's process group does not take it along.
 *
 * Call sequence: guard_start(cg) once, before any child is spawned (cg:
 * the runner's cgroup, or NULL); per child, guard_publish(pgid) as soon
 * as its process group exists (spawn's started hook: guard_started does
 * it), guard_publish(0) once it has been reaped; guard_scratch(path,
 * true) once a scratch directory exists, guard_scratch(path, false) once
 * it has been removed.
 */
#ifndef CONTEND_GUARD_H
#define CONTEND_GUARD_H

#include <stdbool.h>
#include <sys/types.h>

struct cgroup;
struct child;

/* Scratch directories the guard can know at once. */
#define GUARD_SCRATCH_MAX 4

/* Forks the guard (once; later calls do nothing).  0, or -1 after an
 * error (the runner goes on unguarded, as it did before). */
int guard_start(const struct cgroup *cg);
/* The process group the guard kills should the runner die; 0: none. */
void guard_publish(pid_t pgid);
/* guard_publish(c->pid), as a struct child's started hook (spawn.h). */
void guard_started(const struct child *c, void *arg);
/* Path (at most PATH_MAX bytes) is a scratch directory to remove should
 * the runner die (on), or not any more (off).  Beyond GUARD_SCRATCH_MAX,
 * a later runner's scratch_sweep finds it. */
void guard_scratch(const char *path, bool on);

#endif
