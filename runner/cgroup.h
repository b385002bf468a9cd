/*
 * cgroup.h - one cgroup v2 per `contend run`, holding every process the
 * runner starts (runs, hooks, the profile run) and all they fork, setsid
 * or double fork included: what a process group cannot hold, a cgroup
 * does, and cgroup.kill ends all of it at once.
 *
 * Call sequence (runner/session.c, runner/spawn.c, runner/guard.c):
 *
 *     struct cgroup cg;
 *     cgroup_sweep(NULL);                  stale cgroups of dead runners
 *     switch (cgroup_create(&cg, NULL, why, sizeof(why))) {
 *     case 1: ... fall back (why says what is missing) ...
 *     }
 *     per child, born there (clone3 CLONE_INTO_CGROUP with
 *     cgroup_fd(), spawn.c) or moved there between its fork and its exec
 *     (async-signal-safe, but an RCU grace period, milliseconds):
 *         cgroup_place(&cg, 0)
 *     per child, once it has been reaped:
 *         n = cgroup_kill(&cg, pgid)       what is left, killed; n escaped
 *     cgroup_fd(&cg), cgroup_id(&cg)       for perf (PERF_FLAG_PID_CGROUP)
 *                                          and BPF (bpf_get_current_cgroup_id)
 *     cgroup_remove(&cg)                   at the end (killed, rmdir'd)
 *
 * The runner itself stays outside (cgroup.kill would take it along), and
 * so does its guard (guard.h), which kills and removes the cgroup should
 * the runner die.  The cgroup is named "contend-PID-STARTTIME" after its
 * runner (claim.h's procid_tag) in the runner's own cgroup v2 directory,
 * so a later runner finds one left by a runner that died with its guard
 * (cgroup_sweep), and leaves a live runner's alone.
 *
 * CONTEND_CGROUP in the environment: "off" disables it all (cgroup_create
 * returns 1: the runner falls back to process groups and its subreaper);
 * an absolute path names the directory to make it in instead of the one
 * /proc/self/mountinfo and /proc/self/cgroup lead to.
 */
#ifndef CONTEND_CGROUP_H
#define CONTEND_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How long cgroup_kill and cgroup_remove wait for the killed to exit. */
#define CGROUP_WAIT_S 2.0

struct cgroup {
	int parent_fd;    /* the directory it was made in */
	int dir_fd;       /* the cgroup's own directory */
	int procs_fd;     /* its cgroup.procs, open for writing */
	uint64_t id;      /* its inode number: the kernel's cgroup id */
	char *path;       /* malloc'd */
	const char *name; /* the last component of path */
};

/*
 * Makes this runner's cgroup under parent (NULL: CONTEND_CGROUP, else
 * this process's own cgroup v2 directory) and checks that a process can
 * be moved into it and killed there.  0: made; 1: cgroup v2 cannot be
 * used here (not mounted, not writable, no cgroup.kill before Linux
 * 5.14, CONTEND_CGROUP=off), nothing left behind, why says which; -1
 * after error().  cg is all -1 and NULL unless 0 is returned.
 */
int cgroup_create(struct cgroup *cg, const char *parent, char *why,
		  size_t whylen);
/*
 * Moves process pid (0: the caller) into cg.  Async-signal-safe, for the
 * child between fork (or clone) and exec: 0, or -1 with errno set and
 * nothing printed.
 */
int cgroup_place(const struct cgroup *cg, pid_t pid);
/*
 * Kills every process left in cg and waits, up to CGROUP_WAIT_S, until
 * none is (SIGKILL to each: not cgroup.kill, after which Linux 6.x kills
 * what is born into the cgroup, cgroup.c).  Returns how many of them had left the
 * process group pgid (0: counts them all): a run's escapees, the rest
 * of its group being already dead or dying; -1 after error().
 */
int cgroup_kill(const struct cgroup *cg, pid_t pgid);
/* Kills what is left (cgroup.kill: nothing may be spawned into cg
 * after), removes the directory and releases cg: 0 or -1. */
int cgroup_remove(struct cgroup *cg);
/* An O_DIRECTORY descriptor of cg (owned by cg), as perf_event_open
 * takes with PERF_FLAG_PID_CGROUP. */
int cgroup_fd(const struct cgroup *cg);
/* cg's id, as bpf_get_current_cgroup_id() returns it for its processes. */
uint64_t cgroup_id(const struct cgroup *cg);

/*
 * Removes the cgroups "contend-PID-STARTTIME" under parent (NULL: as
 * cgroup_create finds it) whose runner is dead, killing what is left in
 * them; says so on stderr for each.  Returns how many it removed.
 */
int cgroup_sweep(const char *parent);

/* For tests: the cgroup v2 mount point in a /proc/self/mountinfo text,
 * and the directory of a /proc/self/cgroup text ("0::PATH") below it.
 * 0, or -1 when there is none. */
int cgroup_mount_of(const char *mountinfo, char *mnt, size_t mntlen,
		    char *root, size_t rootlen);
int cgroup_path_of(const char *proc_cgroup, char *path, size_t len);

#endif
