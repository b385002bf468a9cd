/*
 * hook.c - prepare and cleanup: one child through spawn.c, judged by its
 * exit status alone (its output is not a run's protocol); its argv split
 * and found on PATH by lib/proc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/guard.h"
#include "runner/hook.h"
#include "runner/spawn.h"
#include "lib/proc.h"
#include "lib/util.h"

/* The child's fate in words; HOOK_OK with why empty when it exited 0. */
static enum hook_fate judge(const char *what, const struct child *c,
			    char *why, size_t whylen)
{
	char sig[32];
	int n = 0;

	why[0] = '\0';
	if (c->killed == KILL_CANCEL) {
		snprintf(why, whylen, "%s: interrupted", what);
		return HOOK_INTERRUPTED;
	}
	if (c->killed == KILL_TIMEOUT)
		n = snprintf(why, whylen, "%s: timed out after %gs", what,
			     c->timeout_s);
	else if (c->killed == KILL_OVERFLOW)
		n = snprintf(why, whylen, "%s: output longer than %zu bytes",
			     what, c->out_max);
	else if (WIFSIGNALED(c->wstatus))
		n = snprintf(why, whylen, "%s: killed by %s", what,
			     spawn_signame(WTERMSIG(c->wstatus), sig,
					   sizeof(sig)));
	else if (WEXITSTATUS(c->wstatus))
		n = snprintf(why, whylen, "%s: exit status %d", what,
			     WEXITSTATUS(c->wstatus));
	else
		return HOOK_OK;
	if (c->errlen && n > 0 && (size_t)n < whylen) {
		size_t len = strlen(c->err);

		while (len && (c->err[len - 1] == '\n' || c->err[len - 1] == ' '))
			len--;
		snprintf(why + n, whylen - (size_t)n, "; stderr ends: %.*s",
			 (int)len, c->err);
	}
	return HOOK_FAILED;
}

/*
 * text split into *argv and its program found as *exe, or why filled
 * (a quote left open, an empty command, a program not on PATH): -1.
 */
static int hook_argv(const char *what, const char *text, char ***argv,
		     char **exe, char *why, size_t whylen)
{
	char err[128];
	size_t n = 0;

	*argv = NULL;
	*exe = NULL;
	if (proc_split(text, argv, &n, err, sizeof(err))) {
		snprintf(why, whylen, "%s: %s", what, err);
		return -1;
	}
	if (!n || !(*exe = proc_path_find((*argv)[0]))) {
		snprintf(why, whylen, "%s: %s%s", what, n ? (*argv)[0] : "",
			 n ? " is not installed (not found on PATH)"
			   : "empty command");
		proc_argv_free(*argv);
		*argv = NULL;
		return -1;
	}
	return 0;
}

int hook_check(const char *what, const char *text, char *why, size_t whylen)
{
	char **argv, *exe;

	if (hook_argv(what, text, &argv, &exe, why, whylen))
		return -1;
	free(exe);
	proc_argv_free(argv);
	return 0;
}

enum hook_fate hook_run(const char *what, const char *text, double timeout_s,
			int cancel_fd, const struct cgroup *cg, int *escaped,
			char *why, size_t whylen)
{
	enum hook_fate fate = HOOK_FAILED;
	struct child c;
	char **argv, *exe;

	if (escaped)
		*escaped = 0;
	if (hook_argv(what, text, &argv, &exe, why, whylen))
		return HOOK_FAILED;
	child_init(&c);
	c.path = exe;
	c.argv = argv;
	c.timeout_s = timeout_s;
	c.cancel_fd = cancel_fd;
	c.cgroup = cg;
	c.kill_orphans = true;
	c.started = guard_started;
	if (spawn_run(&c))
		snprintf(why, whylen, "%s: could not start %s", what, exe);
	else
		fate = judge(what, &c, why, whylen);
	guard_publish(0);
	if (escaped)
		*escaped = c.orphans;
	child_release(&c);
	free(exe);
	proc_argv_free(argv);
	return fate;
}
