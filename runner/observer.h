/*
 * observer.h - the `observer` parameter of every workload: a system-wide
 * instrument the runner starts before a run, waits for until it is ready
 * (detected, not slept for), and stops once the run has been reaped, so
 * that its start and stop fall outside the run's measured window
 * (docs/KLOCK.md, "Observers").  Built in: none, tracefs-lock, perf-lock,
 * bpf (the session's kernel lock BPF program, runner/kinstr/bpf.h, loaded
 * for the run), bpftrace, klockstat; a file adds its own with
 * [observer NAME] (command, ready, stop, ready_timeout).
 *
 * Call sequence (runner/onerun.c):
 *	const struct observer_def *d = observer_find(&cfg, name);
 *	observer_start(&run, d, cgid, stop_fd, why, sizeof(why));  // -1: fails
 *	bpf: run.kbpf is the program the run is counted by (bpf.h)
 *	... spawn the run, reap it ...
 *	observer_stop(&run, &result);  // observer_start_s, observer_stop_s
 */
#ifndef CONTEND_OBSERVER_H
#define CONTEND_OBSERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runner/workload.h"

struct kbpf;

/* How an observer runs. */
enum observer_kind {
	OBS_NONE,    /* nothing */
	OBS_TRACEFS, /* the lock tracepoints into a tracefs buffer of ours */
	OBS_BPF,     /* the runner's kernel lock BPF program, for the run */
	OBS_COMMAND, /* a program: started, ready, stopped by a signal */
};

/* How a command observer shows that it is ready. */
enum observer_ready {
	OBS_READY_OUTPUT, /* arg appears in its stdout or stderr */
	OBS_READY_FILE,   /* the file arg (relative: in its directory) exists */
};

struct observer_def {
	const char *name;
	const char *command;   /* OBS_COMMAND: argv as a hook's (no shell) */
	const char *ready_arg;
	double ready_timeout_s;
	const char *package;   /* Debian's package providing it, or NULL */
	enum observer_kind kind;
	enum observer_ready ready;
	int stop_signal;       /* sent to its process group to stop it */
};

/* The built-in observers, "none" first. */
extern const struct observer_def observer_builtins[];
extern const size_t nobserver_builtins;

/*
 * Whether d can be started here: 1, or 0 with why filled.  missing is
 * set when its program is not installed (why then names the package and
 * says "is not installed (not found on PATH)"); otherwise why is what the
 * host lacks (root, tracefs, BPF).
 */
int observer_usable(const struct observer_def *d, bool *missing, char *why,
		    size_t whylen);

/* A started observer. */
struct observer_run {
	const struct observer_def *d;
	pid_t pid;            /* OBS_COMMAND: its process (group) */
	int out_fd;           /* its stdout and stderr; -1 none */
	char *dir;            /* its private directory, malloc'd */
	char *tracefs;        /* OBS_TRACEFS: our instance's path */
	struct kbpf *kbpf;    /* OBS_BPF: the program, loaded for the run */
	double start_s, stop_s;
	int cancel_fd;        /* readable: give up waiting (-1: none) */
};

/*
 * Starts d (OBS_NONE: nothing; OBS_BPF: kbpf_open, counting the tasks
 * of cgroup cgid, 0 none: the caller arms and reads it as the session's)
 * and waits until it is ready, its ready_timeout passes or cancel_fd
 * (-1: none; the session's signal pipe) becomes readable.  Returns 0, or
 * -1 with why filled and nothing left running.
 */
int observer_start(struct observer_run *o, const struct observer_def *d,
		   uint64_t cgid, int cancel_fd, char *why, size_t whylen);
/*
 * Stops o (its signal, then SIGKILL if it has not ended within 10 s),
 * removes its directory, and with r adds observer_start_s and
 * observer_stop_s (the seconds starting and stopping took) to r.
 */
void observer_stop(struct observer_run *o, struct result *r);

#endif
