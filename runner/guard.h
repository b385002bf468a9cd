/*
 * guard.h - the run in flight dies with the runner, whole: a small guard
 * process, forked once per `contend run`, kills the process group of the
 * run in flight when the runner is gone, even killed by SIGKILL.
 *
 * A run's leader dies with the runner by itself (spawn.c's
 * PR_SET_PDEATHSIG), but what it forked would live on.  `contend exec`
 * sees to its own group (cmd_exec.c); a program the runner spawns
 * directly (the command workload) cannot, so the guard does: it sleeps in
 * a read of a pipe whose only write end the runner holds, and when that
 * read ends -- the runner exited or died -- it kills the group the runner
 * last published.  Publishing is a store to a page the two share: no
 * system call and no wake-up per run.
 *
 * Call sequence: guard_start() once, before any run; guard_publish(pgid)
 * as soon as a run's process group exists (spawn's started hook),
 * guard_publish(0) once it has been reaped.
 */
#ifndef CONTEND_GUARD_H
#define CONTEND_GUARD_H

#include <sys/types.h>

/* Forks the guard (once; later calls do nothing).  0, or -1 after an
 * error (the runner goes on unguarded, as it did before). */
int guard_start(void);
/* The process group the guard kills should the runner die; 0: none. */
void guard_publish(pid_t pgid);

#endif
