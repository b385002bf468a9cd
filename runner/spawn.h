/*
 * spawn.h - one child process, start to reap: clone(CLONE_VM |
 * CLONE_VFORK) + exec as posix_spawn does (clone3 straight into a cgroup
 * when one is given, on x86-64; fork under a sanitizer), in its
 * own process group with stdout and stderr on pipes, a poll loop that drains
 * both under a timeout, and the whole group killed on the way out so that
 * nothing the child forked outlives it.  Modelled on git's run-command.
 *
 * Call sequence:
 *
 *     struct child c;
 *     child_init(&c);
 *     c.argv = argv;  c.timeout_s = 30;  ...   (inputs below)
 *     if (spawn_run(&c))          -> could not start: error() printed
 *         ...                         (c.exec_err: its exec failed)
 *     use c.fate, c.wstatus, c.out, c.err, c.ru, c.wall_s
 *     child_release(&c);
 *
 * Per-run instruments attach at two points: c.started(&c, c.started_arg)
 * is called in the parent as soon as the child has exec'd (c.pid is its
 * pid and its process group; nothing of it has run but its exec), before
 * any of its output is read; and spawn_run's return, once the child has
 * been reaped (c.wstatus, c.ru, c.wall_s set).
 *
 * File descriptors: the child gets stdin from /dev/null and the write ends
 * of two pipes as stdout and stderr (with merge_err, its stderr is the
 * stdout pipe too: both in c.out, in the order written); the parent owns the read ends for the
 * duration of spawn_run and closes them before it returns.  Every other
 * descriptor the parent opened with O_CLOEXEC stays out of the child.
 *
 * Killing: on timeout the group gets SIGTERM, then SIGKILL after grace_s;
 * on output overflow or cancellation it gets SIGKILL at once (the run is
 * not data any more); when the child itself exits, whatever is left of its
 * group gets SIGKILL before the child is reaped (its zombie keeps the
 * group id from being reused meanwhile); with kill_orphans, what left the
 * group is killed after the reap (runner/orphans.c, below); with a cgroup,
 * the child is moved into it before its exec, so that all it forks is
 * there too, setsid or not, and what is left there once it has been
 * reaped is killed (cgroup.h).  The child also asks the kernel
 * for SIGKILL should the parent die (PR_SET_PDEATHSIG), so a runner killed
 * with SIGKILL leaves no hung run behind.
 */
#ifndef CONTEND_SPAWN_H
#define CONTEND_SPAWN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#define SPAWN_OUT_MAX  (1 << 20)  /* default stdout cap, bytes */
#define SPAWN_ERR_TAIL 2048       /* stderr bytes kept (the last ones) */
#define SPAWN_GRACE_S  2.0        /* default SIGTERM -> SIGKILL delay */

/* Why the parent killed the child, if it did. */
enum spawn_kill {
	KILL_NONE,
	KILL_TIMEOUT,    /* ran past timeout_s */
	KILL_OVERFLOW,   /* wrote more than out_max bytes on stdout */
	KILL_CANCEL,     /* cancel_fd became readable */
};

struct cgroup;

struct child {
	/* inputs */
	const char *path;         /* executable; NULL: argv[0] */
	char *const *argv;
	char *const *envp;        /* NULL: the parent's environment */
	double timeout_s;         /* 0: none */
	double grace_s;           /* after SIGTERM; default SPAWN_GRACE_S */
	size_t out_max;           /* default SPAWN_OUT_MAX */
	int cancel_fd;            /* readable = stop now (self-pipe); -1 */
	bool merge_err;           /* stderr into out, as 2>&1 */
	const cpu_set_t *cpus;    /* the child's affinity; NULL: inherited */
	/* called once the child has exec'd; may be NULL (see above) */
	void (*started)(const struct child *c, void *arg);
	void *started_arg;
	bool kill_orphans;        /* after the reap, spawn_kill_orphans() */
	/* moved into this cgroup before its exec, and after the reap
	 * what is left in it killed (cgroup_kill); NULL: none */
	const struct cgroup *cgroup;

	/* outputs */
	pid_t pid;
	char *out;                /* stdout, NUL-terminated (NULs inside
				   * are kept: use outlen) */
	size_t outlen;
	char err[SPAWN_ERR_TAIL + 1]; /* tail of stderr, NUL-terminated */
	size_t errlen;
	bool err_truncated;       /* stderr was longer than the tail */
	enum spawn_kill killed;
	bool term_sent, kill_sent;
	int wstatus;              /* as from wait4() */
	struct rusage ru;
	double wall_s;            /* spawn to reap, CLOCK_MONOTONIC */
	int exec_err;             /* errno of a failed exec (spawn_run -1) */
	int orphans;              /* processes that had left its group,
				   * killed after the reap (cgroup_kill,
				   * spawn_kill_orphans) */
};

void child_init(struct child *c);
void child_release(struct child *c);

/*
 * Runs the child to completion (see above).  Returns 0 once it has been
 * reaped, whatever its fate; -1 when it could not be started (clone or
 * fork, pipe, or exec failed: the reason is printed, and a child whose
 * exec failed has been reaped).  The caller's signal mask is the same
 * after the call; the child starts with none blocked and every handler
 * back at its default.  Not for concurrent use from several threads of
 * one process that install signal handlers meanwhile.
 */
int spawn_run(struct child *c);

/*
 * Processes that leave the child's group (setsid, setpgid) escape the
 * group kill.  spawn_subreaper() makes this process their reaper
 * (PR_SET_CHILD_SUBREAPER): orphaned, they become its children rather
 * than init's.  spawn_kill_orphans() (runner/orphans.c, called by
 * spawn_run) then SIGKILLs and reaps every child this process has, again
 * until none is left (each one's own children come next), and returns
 * how many it killed; it is for a process whose only children are the
 * runs it spawned and those it named to spawn_keep() (a helper that
 * outlives the runs, such as the runner's guard), between two runs.  spawn_keep() keeps up to SPAWN_KEEP_MAX.
 */
#define SPAWN_KEEP_MAX 4
int spawn_subreaper(void);
void spawn_keep(pid_t pid);
/* pid is no longer kept (an observer, runner/observer.h, once reaped). */
void spawn_unkeep(pid_t pid);

/* "SIGSEGV" for SIGSEGV; "signal 42" when the name is unknown. */
const char *spawn_signame(int sig, char *buf, size_t len);

#endif
