/*
 * onerun.c - one planned run of a session (onerun.h): its process (the
 * workload's own program, or `contend exec`), environment, hooks and
 * timers, the status it is judged to have, its result stored in one
 * transaction, and what the session keeps of it (progress, auto rule).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "db/store.h"
#include "runner/cgroup.h"
#include "runner/guard.h"
#include "runner/hook.h"
#include "runner/interrupt.h"
#include "runner/kinstr/bpf.h"
#include "runner/kinstr/count.h"
#include "runner/observer.h"
#include "runner/onerun.h"
#include "runner/param.h"
#include "runner/protocol.h"
#include "runner/scratch.h"
#include "runner/spawn.h"
#include "db/contract.h"
#include "lib/util.h"

/* randomize_env: CONTEND_PAD holds 0 .. ENV_PAD_MAX - 1 bytes. */
#define ENV_PAD_MAX 4096
/* The plan_seed32 streams of env padding: seq with the top bit set. */
#define ENV_PAD_STREAM (UINT64_C(1) << 63)

extern char **environ;

struct one_run {
	const struct config_entry *e;
	const struct pending_run *p;
	char *scratch;
	char **argv;
	char **envp;
	/* a workload the runner spawns itself (wl->spawn): its arguments
	 * and program; argv and envp above are then the program's */
	bool direct;
	struct wl_args args;
	struct wl_program prog;
	long env_pad;
	char *pad;            /* its CONTEND_PAD entry, or NULL */
	struct child child;
	bool ran;             /* the run was spawned (its prepare passed) */
	int prepare_escaped;  /* processes that left the prepare hook's group */
	struct result res;
	enum run_status status;
	char err[1024];
	double started_at;
	char stamp[sizeof(SPAWN_NS_ENV "=") + 20]; /* the env's spawn stamp */
	/* a directly spawned program's kernel lock counts (runner/kinstr/count.h);
	 * contend exec counts its own runs */
	struct kcount klock;
	bool klock_on;
	struct sentinel_window win;   /* the kernel log and CPU time */
	/* the session's BPF program (runner/kinstr/bpf.h), or NULL; the run's top
	 * kernel locks it found */
	struct kbpf *kbpf;
	struct kbpf_top top;
	enum kinstr kinstr;   /* the session's kernel instrument */
	struct observer_run obs; /* the run's observer (runner/observer.h) */
};

/*
 * The argv of `contend exec` for entry e (NULL-terminated; its strings
 * belong to e, the array to the caller): with scratch, --scratch DIR;
 * with a calibration ("" none), --calibration LOOPS; with k count or
 * kinds, --kernel-instrument K (the counters the run opens itself).
 */
static char **exec_argv(const struct config_entry *e, const char *scratch,
		 const char *calibration, enum kinstr k)
{
	char **argv = xcalloc(e->nkv + 10, sizeof(*argv));
	size_t n = 0, i;

	argv[n++] = (char *)"contend";
	argv[n++] = (char *)"exec";
	argv[n++] = (char *)e->wl->name;
	for (i = 0; i < e->nkv; i++)
		if (!harness_runner_only(e->kv[i], false))
			argv[n++] = e->kv[i];
	if (scratch) {
		argv[n++] = (char *)"--scratch";
		argv[n++] = (char *)scratch;
	}
	if (*calibration) {
		argv[n++] = (char *)"--calibration";
		argv[n++] = (char *)calibration;
	}
	/* the counters are the run's own; bpf is the runner's program */
	if (k == KINSTR_COUNT || k == KINSTR_KINDS) {
		argv[n++] = (char *)"--kernel-instrument";
		argv[n++] = (char *)kinstr_names[k];
	}
	return argv;
}

/* CONTEND_PAD of a length drawn from the seed and the run's seq. */
static char *env_pad(uint64_t seed, long seq, long *len)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	char *pad;

	if (!rng)
		abort();
	gsl_rng_set(rng, plan_seed32(seed, ENV_PAD_STREAM | (uint64_t)seq));
	*len = (long)gsl_rng_uniform_int(rng, ENV_PAD_MAX);
	gsl_rng_free(rng);
	pad = xmalloc(12 + (size_t)*len + 1);
	memcpy(pad, "CONTEND_PAD=", 12);
	memset(pad + 12, 'x', (size_t)*len);
	pad[12 + *len] = '\0';
	return pad;
}

/*
 * The run's environment: the runner's, less any CONTEND_PAD or spawn
 * stamp it inherited, plus stamp (the spawn stamp, filled in just before
 * the fork by stamp_spawn) and, with pad, CONTEND_PAD (*pad, malloc'd)
 * of a length drawn from the seed and the run's seq, so a resumed or
 * repeated experiment pads each run alike.
 */
static char **run_env(uint64_t seed, long seq, char **pad, char *stamp,
		      long *len)
{
	static const char spawn_key[] = SPAWN_NS_ENV "=";
	size_t n = 0, i, j = 0;
	char **env;

	while (environ[n])
		n++;
	env = xcalloc(n + 3, sizeof(*env));
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "CONTEND_PAD=", 12) &&
		    strncmp(environ[i], spawn_key, sizeof(spawn_key) - 1))
			env[j++] = environ[i];
	env[j++] = stamp;
	if (pad)
		env[j] = *pad = env_pad(seed, seq, len);
	return env;
}

/* Writes the runner's CLOCK_MONOTONIC, in ns, into the run's stamp. */
static void stamp_spawn(char *stamp, size_t size)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(stamp, size, SPAWN_NS_ENV "=%" PRIu64,
		 (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

/*
 * The instruments of one run attach here: run_started() as soon as the
 * run's process exists (spawn's started hook: it has exec'd, nothing of
 * it has run), and the return of spawn_run() once it has been reaped.
 * The guard is one: it must know the group to kill should we die.
 */
static void run_started(const struct child *c, void *arg)
{
	struct one_run *o = arg;

	guard_publish(c->pid);
	if (o->kbpf)
		kbpf_track(o->kbpf, c->pid);
	if (o->direct)
		o->klock_on = kcount_start(&o->klock, kcount_backend(o->kinstr),
					  c->pid, o->kinstr == KINSTR_KINDS ?
					  KLOCK_KINDS : 0) == 0;
}

/*
 * A workload with its own program (wl->spawn, the command workload) is
 * spawned as that program, with the run's environment; every other as
 * `contend exec`.  Returns 0; -1 when the run cannot start (a runtime
 * error); 1 when the program cannot be run (o->err: the run fails).
 */
static int program_prepare(struct one_run *o)
{
	const struct wl_spawn *sp = o->e->wl->spawn;

	o->direct = true;
	/* The program's environment is a copy: stamp it now. */
	stamp_spawn(o->stamp, sizeof(o->stamp));
	if (args_from_kv(o->e->wl, o->e->nkv, o->e->kv, &o->args, o->err,
			 sizeof(o->err)))
		return 1;
	if (sp->program(&o->args, o->envp, &o->prog, o->err, sizeof(o->err)))
		return 1;
	o->child.path = o->prog.path;
	o->child.argv = o->prog.argv;
	o->child.envp = o->prog.envp;
	o->child.out_max = sp->out_max;
	o->child.merge_err = true;
	o->child.cpus = o->args.has_cpus ? &o->args.cpus : NULL;
	return 0;
}

static int one_prepare(struct runner *r, struct one_run *o)
{
	const struct config_entry *e = o->e;

	o->env_pad = -1;
	child_init(&o->child);
	o->child.timeout_s = e->set.timeout_s;
	o->child.cancel_fd = r->stop_fd;
	o->child.started = run_started;
	o->child.kill_orphans = true;
	o->child.cgroup = r->cg;
	o->child.started_arg = o;
	o->envp = run_env(r->cfg.seed, o->p->seq,
			  e->set.randomize_env ? &o->pad : NULL, o->stamp,
			  &o->env_pad);
	if (e->wl->spawn)
		return program_prepare(o);
	if (e->wl->flags & WL_SCRATCH) {
		o->scratch = scratch_create_owned(scratch_parent(entry_value(e, "dir")));
		if (!o->scratch)
			return -1;
		guard_scratch(o->scratch, true);
	}
	o->argv = exec_argv(e, o->scratch, r->calibration, r->kinstr);
	o->child.path = "/proc/self/exe";
	o->child.argv = o->argv;
	o->child.envp = o->envp;
	return 0;
}

/*
 * rusage and wall time as metrics, for every run that ran to its end: the
 * names of protocol_runner_metrics, for which the parser keeps room.
 */
static void add_rusage(struct result *res, const struct child *c)
{
	const struct rusage *ru = &c->ru;

	result_add(res, "user_s", (double)ru->ru_utime.tv_sec +
					  (double)ru->ru_utime.tv_usec * 1e-6);
	result_add(res, "sys_s", (double)ru->ru_stime.tv_sec +
					 (double)ru->ru_stime.tv_usec * 1e-6);
	result_add(res, "vcsw", (double)ru->ru_nvcsw);
	result_add(res, "ivcsw", (double)ru->ru_nivcsw);
	result_add(res, "maxrss_kb", (double)ru->ru_maxrss);
	result_add(res, "wall_s", c->wall_s);
}

/* The first kernel warning of the run's window, as "kmsg.SEQ". */
static int record_kmsg(struct runner *r, struct one_run *o)
{
	char *first = sentinel_first(&o->win), *key;
	int ret;

	if (!first)
		return 0;
	key = xasprintf(MK_KMSG_PREFIX "%ld", o->p->seq);
	ret = store_meta_set(r->st, r->exp.id, key, first);
	free(key);
	free(first);
	return ret;
}

static int one_record(struct runner *r, struct one_run *o)
{
	const char **names = xcalloc(RESULT_MAX_METRICS, sizeof(*names));
	double *values = xcalloc(RESULT_MAX_METRICS, sizeof(*values));
	struct run_record rec = {
		.status = o->status,
		.error = o->err[0] ? o->err : NULL,
		.started_at = o->started_at,
		.wall_s = o->child.wall_s,
		.env_pad = o->env_pad,
		.metric = names,
		.value = values,
	};
	size_t i;
	int ret;

	if (o->ran && o->status != RUN_INTERRUPTED) {
		add_rusage(&o->res, &o->child);
		sentinel_add(&o->win, &o->res);
	}
	for (i = 0; i < o->res.nmetrics; i++) {
		names[i] = o->res.metrics[i].name;
		values[i] = o->res.metrics[i].value;
	}
	rec.nsamples = o->res.nmetrics;
	rec.nthreads = o->res.nthreads;
	rec.thread_ops = o->res.thread_ops;
	rec.tick_s = o->res.tick_s;
	rec.tick_threads = o->res.tick_threads;
	rec.nticks = o->res.nticks;
	rec.timeline = o->res.timeline;
	rec.nklock = o->top.n;
	rec.klock = o->top.row;
	ret = store_run_record(r->st, o->p->run_id, &rec);
	if (!ret && o->ran)
		ret = record_kmsg(r, o);
	free(names);
	free(values);
	return ret;
}

static void one_release(struct one_run *o)
{
	if (o->scratch && scratch_remove(o->scratch))
		warning("scratch directory %s left behind", o->scratch);
	if (o->scratch)
		guard_scratch(o->scratch, false);
	free(o->scratch);
	free(o->argv);
	free(o->pad);
	free(o->envp);
	if (o->direct) {
		wl_program_release(&o->prog);
		args_release(&o->args);
	}
	child_release(&o->child);
	result_release(&o->res);
}

/* Appends to the run's error, recorded whatever its status: n processes
 * of who (the run, a hook) left its process group and were killed. */
static void note_escaped(struct one_run *o, const char *who, int n)
{
	size_t len = strlen(o->err);

	if (n > 0)
		snprintf(o->err + len, sizeof(o->err) - len, "%s%s%d process%s "
			 "left the %s process group and %s killed after it",
			 len ? "; " : "", strcmp(who, "run") ? who : "",
			 n, n == 1 ? "" : "es",
			 strcmp(who, "run") ? "hook's" : "run's",
			 n == 1 ? "was" : "were");
}

/*
 * A section's prepare (before the run is spawned) or cleanup (after it
 * was reaped): -1 when a prepare failed, the run then recorded failed (or
 * interrupted) with the reason; a failing cleanup leaves the run's data
 * as measured and is only a warning.  What left the hook's process group
 * is the hook's, noted with the run (the prepare's once the run's own
 * error is known).
 */
static int run_hook(struct runner *r, struct one_run *o, const char *what,
		    const char *text)
{
	char why[sizeof(o->err)];
	bool cleanup = !strcmp(what, "cleanup");
	enum hook_fate f;
	int escaped;

	if (!text)
		return 0;
	f = hook_run(what, text, o->e->prepare_timeout_s, r->stop_fd, r->cg,
		     &escaped, why, sizeof(why));
	if (cleanup) {
		if (f != HOOK_OK)
			warning("%s", why);
		note_escaped(o, "cleanup: ", escaped);
		return 0;
	}
	/* noted once the run's own error is known */
	o->prepare_escaped = escaped;
	if (f == HOOK_OK)
		return 0;
	o->status = f == HOOK_INTERRUPTED ? RUN_INTERRUPTED : RUN_FAILED;
	snprintf(o->err, sizeof(o->err), "%s", why);
	return -1;
}

/*
 * The status of a run that was spawned (spawn_failed: its program's exec
 * failed) and reaped, with its metrics in o->res and the reason in o->err.
 */
static enum run_status one_judge(struct one_run *o, bool spawn_failed)
{
	if (spawn_failed) {
		snprintf(o->err, sizeof(o->err), "cannot run '%s': %s",
			 o->child.path, strerror(o->child.exec_err));
		return RUN_FAILED;
	}
	if (o->direct)
		return protocol_judge_program(&o->child, &o->args, &o->res,
					      o->err, sizeof(o->err));
	return protocol_judge(&o->child, &o->res, o->err, sizeof(o->err));
}

/*
 * The session's BPF program, reset for the run, with the run's
 * kernel_delay (TIME@FUNCTION, checked by the INI loader; "0" none).
 * -1 with o->err when the run cannot have what it asks for.
 */
static int kbpf_begin(struct one_run *o)
{
	const char *v = entry_value(o->e, "kernel_delay");
	struct kbpf_delay d = { 0, NULL };
	char *time = NULL;
	double s;
	int ret;

	if (v && strcmp(v, "0")) {
		const char *at = strchr(v, '@');

		if (!o->kbpf) {
			snprintf(o->err, sizeof(o->err), "kernel_delay: the "
				 "kernel lock BPF program is not loaded "
				 "(kernel_lock_instrument says why)");
			return -1;
		}
		time = xstrndup(v, at ? (size_t)(at - v) : 0);
		if (!at || parse_duration(time, &s)) {
			free(time);
			snprintf(o->err, sizeof(o->err), "kernel_delay: bad "
				 "value '%s'", v);
			return -1;
		}
		d.ns = (uint64_t)llround(s * 1e9);
		d.function = at + 1;
	}
	if (!o->kbpf)
		return 0;
	ret = kbpf_run_begin(o->kbpf, &d, o->err, sizeof(o->err));
	free(time);
	return ret;
}

/*
 * The run's observer started and ready, outside its window (before the
 * spawn): -1 with o->err when it cannot be (the run fails).  bpf: the
 * run is counted by the program loaded for it.
 */
static int observe_begin(struct runner *r, struct one_run *o)
{
	const char *name = entry_value(o->e, "observer");
	const struct observer_def *d = name ? config_observer(&r->cfg, name)
					    : NULL;

	if (!d)
		return 0;
	if (observer_start(&o->obs, d, r->cg ? cgroup_id(r->cg) : 0,
			   r->stop_fd, o->err, sizeof(o->err))) {
		if (interrupt_signal())
			o->status = RUN_INTERRUPTED;
		return -1;
	}
	if (o->obs.kbpf)
		o->kbpf = o->obs.kbpf;
	return 0;
}

int onerun(struct runner *r, const struct config_entry *e,
	   const struct pending_run *p, enum run_status *st)
{
	struct one_run o = { .e = e, .p = p, .win = { .first_class = -1 },
			      .kbpf = r->kbpf, .kinstr = r->kinstr };
	size_t c = (size_t)(e - r->cfg.entries);
	char *what = xasprintf("%s%s %s", e->section, p->warmup ? " (warm-up)"
							       : "", e->canon);
	int ret = -1, prep;

	result_init(&o.res);
	progress_begin(&r->prog, what);
	o.started_at = now_realtime();
	prep = one_prepare(r, &o);
	if (prep < 0)
		goto out;
	o.status = RUN_FAILED; /* prep > 0: o.err says why */
	if (prep == 0 && !run_hook(r, &o, "prepare", e->prepare)) {
		bool failed;

		if (observe_begin(r, &o) || kbpf_begin(&o))
			goto record;
		sentinel_begin(&r->sentinel, o.child.cpus);
		stamp_spawn(o.stamp, sizeof(o.stamp));
		failed = spawn_run(&o.child) != 0;
		sentinel_end(&r->sentinel, o.child.pid, &o.win);
		guard_publish(0);
		if (failed && !(o.direct && o.child.exec_err))
			goto out;
		o.ran = !failed;
		o.status = one_judge(&o, failed);
		if (o.klock_on)
			kcount_stop(&o.klock, o.status == RUN_OK ? &o.res : NULL);
		if (o.kbpf)
			kbpf_run_end(o.kbpf, o.status == RUN_OK ? &o.res : NULL,
				     &o.top);
	}
record:
	observer_stop(&o.obs, o.status == RUN_OK ? &o.res : NULL);
	if (o.status == RUN_INTERRUPTED && interrupt_signal()) {
		char sig[32];

		snprintf(o.err, sizeof(o.err), "interrupted by %s",
			 spawn_signame(interrupt_signal(), sig, sizeof(sig)));
	}
	note_escaped(&o, "prepare: ", o.prepare_escaped);
	note_escaped(&o, "run", o.child.orphans);
	if (e->cleanup && o.status != RUN_INTERRUPTED)
		run_hook(r, &o, "cleanup", e->cleanup);
	ret = one_record(r, &o);
	if (!ret && o.status != RUN_INTERRUPTED) {
		r->expect[RUN_PLANNED]--;
		r->expect[o.status]++;
	}
	if (!ret)
		autorule_note(&r->autorule, &r->cfg, c, p, o.status, &o.res);
	*st = o.status;
	progress_end(&r->prog, o.status, e->set.runtime_s, o.child.wall_s);
	progress_outcome(&r->prog, c, p->seq, what, o.status, o.err);
out:
	free(what);
	one_release(&o);
	return ret;
}
