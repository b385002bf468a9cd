/*
 * spawn_impl.h - what runner/spawn.c and runner/orphans.c share; nothing
 * else includes it.
 */
#ifndef CONTEND_SPAWN_IMPL_H
#define CONTEND_SPAWN_IMPL_H

#include <sys/resource.h>
#include <sys/types.h>

/* orphans.c.  wait4(pid) again while EINTR; its result. */
pid_t spawn_reap(pid_t pid, int *wstatus, struct rusage *ru);
/* orphans.c.  SIGKILLs and reaps every child of this process but the
 * kept ones (runner/spawn.h, spawn_subreaper); how many had escaped. */
int spawn_kill_orphans(void);

#endif
