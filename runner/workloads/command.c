/*
 * command.c - runs an existing benchmark (perf bench, sysbench,
 * will-it-scale, a user's own) as a workload and extracts its figures from
 * its output with POSIX extended regexes.
 *
 * No shell unless the config says `shell = yes`: argv is split by
 * lib/proc (whitespace, double-quote grouping) and handed to execvpe
 * (proc_run in `contend exec`, spawn.c in the runner), so a `;` or a
 * `$` in it is just a character.  Output (stdout and stderr together) is
 * captured up to COMMAND_MAX_OUTPUT; more fails the run.  The child stays
 * in our process group, so the runner's kill of the run's group reaches
 * it and anything it forked, and it has PR_SET_PDEATHSIG, so it dies even
 * when only we are killed.
 *
 * More metrics come as `metric.NAME = REGEX` with `scale.NAME`, two
 * families of keys (workload.h).  Taking the metrics out of the output is
 * command_extract.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "runner/workloads/command_impl.h"
#include "runner/param.h"
#include "lib/proc.h"
#include "lib/util.h"
#include "runner/workloads/workloads.h"

extern char **environ;

#define COMMAND_MAX_OUTPUT (16u << 20)
/* Why a run past COMMAND_MAX_OUTPUT failed (keep the two in step). */
#define COMMAND_OVERFLOW "command: output exceeds 16 MiB; killed it"

static const struct param_def command_params[] = {
	[P_ARGV] = { "argv", PT_STRING, "", 0, 0, NULL,
		     "the command: split on blanks, \"double quotes\" group, "
		     "\\\" and \\\\ escape; no shell" },
	[P_SHELL] = { "shell", PT_BOOL, "no", 0, 0, NULL,
		      "yes: run argv with sh -c (deliberately)" },
	[P_ENV] = { "env", PT_STRING, "", 0, 0, NULL,
		    "environment additions: NAME=VALUE ... (quoted as argv)" },
	[P_METRIC] = { "metric", PT_STRING, "", 0, 0, NULL,
		       "POSIX extended regex; its first capture group is "
		       "throughput" },
	[P_SCALE] = { "scale", PT_DOUBLE, "1", 0, 0, NULL,
		      "multiplier of the metric regex's number (e.g. 1e6)" },
	[P_CONTENTION] = { "contention", PT_STRING, "", 0, 0, NULL,
			   "regex whose first capture group is "
			   "contention_rate" },
	[P_CSCALE] = { "contention_scale", PT_DOUBLE, "1", 0, 0, NULL,
		       "multiplier of the contention regex's number" },
	[P_OK_STATUS] = { "ok_status", PT_STRING, "0", 0, 0, NULL,
			  "the exit statuses that mean success, comma-"
			  "separated (0..255): 0,1 for a program that exits 1 "
			  "after a good run" },
	[P_METRICS] = { "metric.NAME", PT_STRING, NULL, 0, 0, NULL,
			"another metric, NAME: a regex whose first capture "
			"group is its value (any number of these)" },
	[P_SCALES] = { "scale.NAME", PT_DOUBLE, NULL, 0, 0, NULL,
		       "multiplier of metric.NAME's number (default 1)" },
};

/* env: every word NAME=VALUE. */
/* An unquoted comma: env = T=1, T=2 reads as a sweep, and is not one. */
static int env_comma(const char *text, char *err, size_t errlen)
{
	const char *p;
	bool quoted = false;
	int name;

	for (p = text; *p && (quoted || *p != ','); p++) {
		if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
			p++;
		else if (*p == '"')
			quoted = !quoted;
	}
	if (*p != ',')
		return 0;
	name = (int)strcspn(text, "= \t");
	snprintf(err, errlen, "env: a comma in '%.40s': env is one value, never "
			      "a sweep; to sweep %.*s, declare param.%.*s = 1, 2 "
			      "and write env = %.*s={%.*s} (a comma that belongs "
			      "to a value goes in double quotes)",
		 text, name, text, name, text, name, text, name, text);
	return -1;
}

static int env_check(const char *text, char *err, size_t errlen)
{
	char **v;
	size_t n, i;
	int ret = 0;

	if (env_comma(text, err, errlen))
		return -1;
	if (proc_split(text, &v, &n, err, errlen)) {
		snprintf(err, errlen, "env: unterminated double quote");
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		const char *eq = strchr(v[i], '=');

		if (!eq || !param_name_ok(v[i], (size_t)(eq - v[i]))) {
			snprintf(err, errlen, "env: '%s' is not NAME=VALUE", v[i]);
			ret = -1;
		}
	}
	proc_argv_free(v);
	return ret;
}

static int argv_check(const struct wl_args *a, char *err, size_t errlen)
{
	char **v, *found = NULL;
	size_t n;
	int ret = -1;

	if (!*command_str(a, P_ARGV)) {
		snprintf(err, errlen, "argv: the command to run is missing");
		return -1;
	}
	if (a->v[P_SHELL].b)
		return 0;
	if (proc_split(command_str(a, P_ARGV), &v, &n, err, errlen)) {
		snprintf(err, errlen, "argv: unterminated double quote");
		return -1;
	}
	if (!n)
		snprintf(err, errlen, "argv: the command to run is missing");
	else if (strchr(v[0], '/') && proc_unrunnable(v[0]))
		snprintf(err, errlen, "argv: '%s' %s", v[0],
			 proc_unrunnable(v[0]));
	else if (!(found = proc_path_find(v[0])))
		snprintf(err, errlen, "argv: '%s' is not installed (not found "
			 "on PATH)", v[0]);
	else
		ret = 0;
	free(found);
	proc_argv_free(v);
	return ret;
}

/*
 * ok_status's list into ok[status]: 0, or -1 with err for a word that is
 * not a status 0..255.
 */
static int ok_status_parse(const char *s, bool ok[256], char *err,
			   size_t errlen)
{
	char *copy = xstrdup(s), *w, *save = NULL;
	int ret = 0, n = 0;

	memset(ok, 0, 256 * sizeof(*ok));
	for (w = strtok_r(copy, ", \t", &save); w && !ret;
	     w = strtok_r(NULL, ", \t", &save)) {
		long long v;

		if (parse_ll(w, &v) < 0 || v < 0 || v > 255)
			ret = error_buf(err, errlen, "ok_status: '%s' is not an "
					"exit status (0..255)", w);
		else
			ok[v] = true, n++;
	}
	if (!ret && !n)
		ret = error_buf(err, errlen, "ok_status: no exit status given "
				"(the default is 0)");
	free(copy);
	return ret;
}

static int command_validate(const struct wl_args *a, struct wl_blame *blame,
			    char *err, size_t errlen)
{
	struct extracts x;
	const char *key;
	bool ok[256];

	if (argv_check(a, err, errlen))
		return wl_blame(blame, "argv", NULL);
	if (ok_status_parse(command_str(a, P_OK_STATUS), ok, err, errlen))
		return wl_blame(blame, "ok_status", NULL);
	if (env_check(command_str(a, P_ENV), err, errlen))
		return wl_blame(blame, "env", NULL);
	if (extracts_build(a, &x, &key, err, errlen))
		return wl_blame(blame, key, NULL);
	extracts_release(&x);
	return 0;
}

/*
 * The environment of the command: base, with env's NAME=VALUE words
 * replacing or adding.  A NULL-terminated malloc'd array of malloc'd
 * strings.
 */
static char **env_build(const char *text, char *const *base)
{
	char **add, **envp;
	size_t nadd, n = 0, i, j;
	char err[64];

	if (proc_split(text, &add, &nadd, err, sizeof(err)))
		nadd = 0, add = xcalloc(1, sizeof(*add));
	for (i = 0; base[i]; i++)
		;
	envp = xcalloc(i + nadd + 1, sizeof(*envp));
	for (i = 0; base[i]; i++) {
		size_t klen = strcspn(base[i], "=");
		bool replaced = false;

		for (j = 0; j < nadd && !replaced; j++)
			replaced = !strncmp(add[j], base[i], klen) &&
				   add[j][klen] == '=';
		if (!replaced)
			envp[n++] = xstrdup(base[i]);
	}
	for (j = 0; j < nadd; j++)
		envp[n++] = add[j];
	free(add);
	return envp;
}

static const char *exit_reason(int status, char *b, size_t blen)
{
	if (WIFSIGNALED(status))
		snprintf(b, blen, "was killed by signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(b, blen, "exited with status %d", WEXITSTATUS(status));
	return b;
}

/*
 * How a finished command ended, in contend exec and in the runner alike:
 * elapsed_s, then -1 with the reason for an exit status not in a's
 * ok_status or a death by a signal, else 0 (its metrics are then taken
 * from out).
 */
static int command_status(const struct wl_args *a, int status,
			  double elapsed, const char *out, size_t len,
			  struct result *r)
{
	char why[96], tail[256];
	bool ok[256];

	result_add(r, "elapsed_s", elapsed);
	if (ok_status_parse(command_str(a, P_OK_STATUS), ok, why, sizeof(why)))
		return result_fail(r, "%s", why);
	if (WIFEXITED(status) && ok[WEXITSTATUS(status)])
		return 0;
	tail_lines(out, len, tail, sizeof(tail));
	return result_fail(r, "command %s; output ends:\n%s",
			   exit_reason(status, why, sizeof(why)), tail);
}

/* Turns the reaped child's output into metrics. */
static int command_finish(const struct wl_args *a, const struct proc *p,
			  const struct extracts *x, double t0, struct result *r)
{
	if (p->overflow) {
		result_add(r, "elapsed_s", now_monotonic() - t0);
		return result_fail(r, COMMAND_OVERFLOW);
	}
	return command_status(a, p->wstatus, now_monotonic() - t0, p->out,
			      p->outlen, r) ? -1 : extracts_apply(x, p->out,
								  p->outlen, r);
}

static char **command_argv(const struct wl_args *a, char *err, size_t errlen)
{
	char **v;
	size_t n;

	if (!a->v[P_SHELL].b)
		return proc_split(command_str(a, P_ARGV), &v, &n, err,
				     errlen) || !n ? NULL : v;
	v = xcalloc(4, sizeof(*v));
	v[0] = xstrdup("/bin/sh");
	v[1] = xstrdup("-c");
	v[2] = xstrdup(command_str(a, P_ARGV));
	return v;
}

static int command_run(const struct wl_args *a, struct result *r)
{
	char err[256], **argv = NULL, **envp = NULL;
	struct extracts x = { 0 };
	struct proc p = { .err = PROC_ERR_OUT, .out_max = COMMAND_MAX_OUTPUT,
			  .die_with_parent = true };
	const char *key;
	double t0;
	int ret = -1, e;

	if (command_validate(a, NULL, err, sizeof(err)) ||
	    extracts_build(a, &x, &key, err, sizeof(err)))
		return result_fail(r, "command: %s", err);
	argv = command_argv(a, err, sizeof(err));
	if (!argv) {
		result_fail(r, "command: argv: %s", err);
		goto out;
	}
	envp = env_build(command_str(a, P_ENV), environ);
	p.argv = argv;
	p.envp = envp;
	t0 = now_monotonic();
	if (proc_run(&p)) {
		e = errno;
		if (p.exec_err)
			result_fail(r, "command: cannot run '%s': %s%s", argv[0],
				    strerror(e), e == ENOENT ? " (not "
				    "installed? command not found)" : "");
		else
			result_fail(r, "command: fork: %s", strerror(e));
		goto out;
	}
	ret = command_finish(a, &p, &x, t0, r);
	proc_release(&p);
out:
	proc_argv_free(envp);
	proc_argv_free(argv);
	extracts_release(&x);
	return ret;
}

static const char *const command_templates[] = { "argv", "env", NULL };

/* throughput when metric is given, else the first metric.NAME written. */
static const char *command_primary(const struct wl_args *a,
				   const char *const *keys, size_t nkeys)
{
	size_t i;

	if (*command_str(a, P_METRIC))
		return "throughput";
	for (i = 0; i < nkeys; i++)
		if (!strncmp(keys[i], "metric.", 7))
			return keys[i] + 7;
	return NULL;
}

/* wl_spawn.program: argv with its executable found, env on base. */
static int command_program(const struct wl_args *a, char *const *base,
			   struct wl_program *p, char *err, size_t errlen)
{
	char e[256];

	memset(p, 0, sizeof(*p));
	p->argv = command_argv(a, e, sizeof(e));
	if (!p->argv) {
		snprintf(err, errlen, "command: argv: %s", e);
		return -1;
	}
	errno = 0;
	p->path = proc_path_find(p->argv[0]);
	if (!p->path) {
		if (strchr(p->argv[0], '/'))
			snprintf(err, errlen, "command: cannot run '%s': it %s",
				 p->argv[0], proc_unrunnable(p->argv[0]) ?
				 proc_unrunnable(p->argv[0]) : strerror(errno));
		else
			snprintf(err, errlen, "command: cannot run '%s': not "
				 "installed (not found on PATH)", p->argv[0]);
		wl_program_release(p);
		return -1;
	}
	p->envp = env_build(command_str(a, P_ENV), base);
	return 0;
}

/* wl_spawn.collect: command_run's result, from the runner's child. */
static int command_collect(const struct wl_args *a, int wstatus,
			   double wall_s, char *out, size_t len,
			   struct result *r)
{
	if (command_status(a, wstatus, wall_s, out, len, r))
		return -1;
	return command_extract(a, out, len, r);
}

static const struct wl_spawn command_spawn = {
	.program = command_program,
	.collect = command_collect,
	.out_max = COMMAND_MAX_OUTPUT,
	.overflow = COMMAND_OVERFLOW,
};

const struct workload command_workload = {
	.name = "command",
	.summary = "runs an external benchmark (argv, no shell) and extracts "
		   "metrics by regex",
	.help = "Bring perf bench, sysbench, will-it-scale or your own: argv "
		"is run with execvp (no shell unless shell = yes), its stdout "
		"and stderr are captured (at most 16 MiB), and POSIX extended "
		"regexes pick numbers out of them: metric -> throughput, "
		"contention -> contention_rate, metric.NAME -> NAME (as many "
		"as needed), each number being the first capture group times its "
		"scale. A regex that does not match, an exit status not in "
		"ok_status (default 0) or too much output fails the run. runtime and jobs do not apply: "
		"put the command's own duration in argv. A command not on "
		"PATH is a config error ('not installed').",
	.params = command_params,
	.nparams = P_NPARAMS,
	.flags = WL_OWN_DURATION,
	.validate = command_validate,
	.templates = command_templates,
	.primary = command_primary,
	.run = command_run,
	.spawn = &command_spawn,
};
