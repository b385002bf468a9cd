/*
 * cmd_exec.c - `contend exec WORKLOAD key=value ... [--scratch DIR]
 * [--calibration LOOPS_PER_US]`: one run of one configuration in the
 * foreground, its metrics printed in the exec protocol (runner/protocol.h).
 * The runner spawns exactly this for every planned run, with its
 * experiment's calibration, so any run can be reproduced by hand.
 *
 * Exit status: 0 with the metrics on stdout; 1 when the run failed (the
 * reason on stderr); 2 on bad arguments.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/escape.h"
#include "cli/commands.h"
#include "runner/kinstr/count.h"
#include "runner/param.h"
#include "runner/scratch.h"
#include "lib/escape.h"
#include "lib/util.h"
#include "runner/workload.h"
#include "runner/workloads/harness.h"

struct exec_opts {
	const char *workload;
	struct opt_words kv;     /* key=value ..., in argv */
	const char *scratch;     /* --scratch DIR, or NULL */
	double calibration;      /* --calibration N; 0: measure if needed */
	int kinstr;              /* --kernel-instrument: none, count, kinds */
};

/* The instruments a run opens itself; bpf is the runner's program. */
static int set_kinstr(const char *opt, const char *arg, void *field,
		      int value)
{
	char *safe;
	int k;

	(void)value;
	for (k = KINSTR_NONE; k < KINSTR_BPF; k++)
		if (!strcmp(arg, kinstr_names[k])) {
			*(int *)field = k;
			return 0;
		}
	safe = escape_text_dup(arg);
	error("exec: %s: '%.40s' is not none, count or kinds", opt,
	      safe ? safe : "?");
	free(safe);
	return -1;
}

static int set_calibration(const char *opt, const char *arg, void *field,
			   int value)
{
	(void)value;
	if (harness_calibration_parse(arg, field))
		return error("exec: %s: '%s' is not a number of loops per "
			     "microsecond above 0", opt, escape_quote(arg));
	return 0;
}

#define FIELD(f) offsetof(struct exec_opts, f)

static const struct opt exec_rows[] = {
	{ NULL, 0, "WORKLOAD", "the workload to run ('contend list')", NULL,
	  FIELD(workload), 0, 0 },
	{ NULL, 0, "key=value", "its parameters and harness keys", NULL,
	  FIELD(kv), 0, OPT_OPTIONAL | OPT_MANY },
	{ "scratch", 0, "DIR", "make the run's scratch directory in DIR",
	  NULL, FIELD(scratch), 0, 0 },
	{ "calibration", 0, "N",
	  "the busy loop's loops per microsecond (default: measured when "
	  "the workload needs it)", set_calibration, FIELD(calibration), 0,
	  0 },
	{ "kernel-instrument", 0, "K", "count the kernel's lock contentions "
	  "of the run: none (default), count (one counter), kinds (one per "
	  "lock kind too) (docs/KLOCK.md)", set_kinstr, FIELD(kinstr), 0, 0 },
};

const struct opt_cmd exec_cli = {
	"exec", "run one configuration in the foreground, print metrics",
	exec_rows, ARRAY_SIZE(exec_rows),
	"Prints the metrics in the exec protocol; the runner spawns exactly "
	"this for every run. Exit status 1 when the run failed.",
};

static const struct workload *find_workload(const char *name)
{
	const struct workload *wl = workload_find(name);
	const char **names;
	char hint[SUGGEST_MAX];
	size_t i;

	if (wl)
		return wl;
	names = xcalloc(nworkloads, sizeof(*names));
	for (i = 0; i < nworkloads; i++)
		names[i] = workloads[i]->name;
	suggest_hint(hint, sizeof(hint), name, names, nworkloads, NULL, NULL);
	error("unknown workload '%s' ('contend list' shows them)%s",
	      escape_quote(name), hint);
	free(names);
	return NULL;
}

/* The workload's `dir` parameter, when it has one and it is set. */
static const char *dir_param(const struct wl_args *a)
{
	int i = workload_param_index(a->wl, "dir");

	if (i < 0 || a->wl->params[i].type != PT_STRING)
		return NULL;
	return a->v[i].s && *a->v[i].s ? a->v[i].s : NULL;
}

static void on_runner_death(int sig)
{
	(void)sig;
	kill(0, SIGKILL); /* our process group: us and all we forked */
}

/*
 * Spawned by the runner (spawn.c made us a process group leader and set
 * PR_SET_PDEATHSIG = SIGKILL), a runner killed with SIGKILL would take
 * only us along, and whatever the workload forked would live on as
 * orphans (tests/faults/procs.sh).  So trade the death signal for one
 * whose handler kills the whole group.  No window: until the prctl below,
 * SIGKILL is still the death signal.  Run by hand (no death signal set)
 * nothing changes: the group may be a shell's pipeline.
 */
static void group_dies_with_runner(void)
{
	struct sigaction sa;
	int sig = 0;

	if (prctl(PR_GET_PDEATHSIG, &sig) || sig != SIGKILL ||
	    getpgrp() != getpid())
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_runner_death;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGRTMIN + 1, &sa, NULL) == 0)
		prctl(PR_SET_PDEATHSIG, SIGRTMIN + 1);
}

/*
 * Applies affinity and scratch; *made is the directory to remove after:
 * a fresh one, also inside a --scratch DIR, whose files (the workload's
 * own names, p0, p1 ...) are never this run's to delete.
 */
static int prepare(struct wl_args *a, const char *scratch, char **made)
{
	*made = NULL;
	if (a->has_cpus && sched_setaffinity(0, sizeof(a->cpus), &a->cpus))
		return error("sched_setaffinity: %s", strerror(errno));
	if (!(a->wl->flags & WL_SCRATCH))
		return 0;
	*made = scratch_create(scratch ? scratch : scratch_parent(dir_param(a)));
	if (!*made)
		return -1;
	a->scratch = *made;
	return 0;
}

/*
 * Runs the workload with its kernel lock contentions counted (count.h):
 * the counters open before the workload starts a thread or a process, and
 * count its measured window when it marks one.
 */
static int run_and_print(struct wl_args *a, enum kinstr ki)
{
	struct result r;
	struct kcount k;
	struct run_window win;
	int ret = 0;

	result_init(&r);
	if (kcount_start(&k, kcount_backend(ki), 0,
			ki == KINSTR_KINDS ? KLOCK_KINDS : 0) == 0) {
		kcount_hook(&k, &win);
		a->window = &win;
	} else if (ki != KINSTR_NONE || isatty(STDERR_FILENO)) {
		fprintf(stderr, "contend: no kernel lock counts: %s\n",
			escape_quote(k.why));
	}
	if (a->wl->run(a, &r)) {
		kcount_stop(&k, NULL);
		fprintf(stderr, "contend: exec %s: %s\n",
			escape_quote(a->wl->name),
			r.error[0] ? escape_quote(r.error) : "failed");
		ret = EXIT_RUNTIME;
		goto out;
	}
	kcount_stop(&k, &r);
	if (result_print(&r, STDOUT_FILENO)) {
		error("exec: cannot write the result: %s", strerror(errno));
		ret = EXIT_RUNTIME;
	}
out:
	a->window = NULL;
	result_release(&r);
	return ret;
}

int cmd_exec(int argc, char **argv)
{
	struct exec_opts o = { 0 };
	const struct workload *wl;
	struct wl_args a;
	char err[512], *made = NULL;
	size_t i;
	int ret, p;

	memset(&a, 0, sizeof(a));
	group_dies_with_runner();
	p = opt_parse(&exec_cli, argc, argv, &o);
	if (p)
		return opt_exit(p);
	wl = find_workload(o.workload);
	if (!wl)
		return EXIT_USAGE;
	for (i = 0; i < o.kv.n; i++)
		if (harness_runner_only(o.kv.v[i], true)) {
			/* exec has no BPF program: it would run without
			 * the delay its argument claims */
			error("exec %s: %.*s is applied by 'contend run' "
			      "alone", wl->name,
			      (int)strcspn(o.kv.v[i], "="), o.kv.v[i]);
			return EXIT_USAGE;
		}
	if (args_from_kv(wl, o.kv.n, o.kv.v, &a, err, sizeof(err))) {
		error("exec %s: %s", wl->name, err);
		return EXIT_USAGE;
	}
	ret = EXIT_USAGE;
	if (wl->validate && wl->validate(&a, NULL, err, sizeof(err))) {
		error("exec %s: %s", wl->name, err);
		goto out;
	}
	ret = EXIT_RUNTIME;
	if (wl->unsupported) {
		error("workload '%s' cannot run here: %s", wl->name,
		      wl->unsupported);
		goto out;
	}
	a.loops_per_us = o.calibration;
	if (prepare(&a, o.scratch, &made))
		goto out;
	ret = run_and_print(&a, (enum kinstr)o.kinstr);
out:
	if (made && scratch_remove(made))
		ret = EXIT_RUNTIME;
	free(made);
	args_release(&a);
	return ret;
}
