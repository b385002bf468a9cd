/*
 * hook.h - a section's prepare and cleanup commands: argv run by the
 * runner before and after each run, outside its measured window (the run
 * has not started, or has been reaped), each under its own timeout.
 */
#ifndef CONTEND_HOOK_H
#define CONTEND_HOOK_H

#include <stddef.h>

/* How a hook ended. */
enum hook_fate { HOOK_OK, HOOK_FAILED, HOOK_INTERRUPTED };

struct cgroup;

/*
 * Runs text (split as command's argv is: blanks separate, "double quotes"
 * group; no shell) with the runner's environment, stdin from /dev/null,
 * killed after timeout_s or when cancel_fd (-1: none) becomes readable,
 * in cgroup cg (NULL: none).  Whatever it leaves behind is killed once it
 * has ended, as a run's is (spawn.h), and *escaped (not NULL) counts the
 * processes of it that had left its process group: the hook's, not the
 * next run's.  The guard (guard.h) knows it while it runs.
 * HOOK_OK when it exited 0; otherwise why is filled ("prepare: exit
 * status 1; stderr: ..."), what naming the hook.  Returns HOOK_FAILED
 * too when it could not be started (the reason printed and in why).
 */
enum hook_fate hook_run(const char *what, const char *text, double timeout_s,
			int cancel_fd, const struct cgroup *cg, int *escaped,
			char *why, size_t whylen);
/*
 * What hook_run checks before it starts text: it splits, and its program
 * is found (on PATH, or the path given is executable).  0, or -1 with why
 * filled as hook_run fills it.  --dry-run checks every configuration's
 * hooks, {NAME} replaced, with it (runner_check_hooks), so it refuses
 * what every run of a configuration would fail on.
 */
int hook_check(const char *what, const char *text, char *why, size_t whylen);

#endif
