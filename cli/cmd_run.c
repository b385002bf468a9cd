/*
 * cmd_run.c - `contend run`: load and check the whole config, record the
 * host and write the whole plan in one transaction, then run every planned
 * run as its own `contend exec` process and store each result in one
 * transaction; `--resume` continues an unfinished experiment.
 *
 * Interrupts: SIGINT/SIGTERM only write a byte to a self-pipe.  The poll
 * loop of the run in flight sees it, kills the run's process group, and the
 * run is stored as `interrupted`; the experiment is marked interrupted and
 * the command exits 130.  A signal during the plan write is acted on once
 * the plan has been committed, so the database always holds a whole plan
 * or none.  docs/RUNNING.md describes the protocol and the statuses.
 *
 * Calibration: the busy loop is calibrated once per experiment, before the
 * first run (or taken from `calibration = N`, or --calibration-from
 * another experiment), stored as the experiment's meta key
 * calibration_loops_per_us and handed to every run (exec's
 * --calibration); --resume hands on the stored value.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "db/store.h"
#include "lib/escape.h"
#include "runner/claim.h"
#include "cli/commands.h"
#include "runner/config.h"
#include "runner/guard.h"
#include "runner/hook.h"
#include "runner/host.h"
#include "runner/klock.h"
#include "runner/param.h"
#include "runner/plan.h"
#include "runner/profile.h"
#include "runner/progress.h"
#include "runner/protocol.h"
#include "runner/scratch.h"
#include "runner/spawn.h"
#include "lib/util.h"
#include "runner/workloads/harness.h"

/* The runner's SQLite page cache, KiB (store_cache_limit). */
#define RUNNER_CACHE_KIB 256
/* The experiment_meta key of the busy-loop calibration (loops per us). */
#define CALIBRATION_KEY "calibration_loops_per_us"
/* randomize_env: CONTEND_PAD holds 0 .. ENV_PAD_MAX - 1 bytes. */
#define ENV_PAD_MAX 4096
/* The plan_seed32 streams of env padding: seq with the top bit set. */
#define ENV_PAD_STREAM (UINT64_C(1) << 63)

extern char **environ;

struct run_opts {
	const char *config;
	const char *db;
	const char *label;
	const char *resume;
	const char *calibration_from; /* --calibration-from EXPERIMENT */
	bool has_seed;
	uint64_t seed;
	bool dry_run, quiet, fail_fast;
};

struct id_index {
	int64_t id;
	size_t entry;
};

struct runner {
	const struct run_opts *o;
	struct experiment_config cfg;
	struct store *st;
	struct experiment_row exp;
	int64_t *config_ids;     /* by entry index (pos) */
	struct id_index *by_id;  /* config_ids sorted, for entry_of() */
	struct plan plan;
	struct progress prog;
	bool any_auto;
	int stop_fd;             /* read end of the signal self-pipe */
	char calibration[32];    /* loops per us, as handed to runs; "" none */
	/* Runs by status as this runner left them; planned and interrupted
	 * (both still to do) are counted as planned (verify_store). */
	long expect[RUN_NSTATUS];
};

/* ---- signals ---- */

static volatile sig_atomic_t stop_signal;
static int stop_pipe[2] = { -1, -1 };

static void on_stop(int sig)
{
	int saved = errno;

	stop_signal = sig;
	if (write(stop_pipe[1], "", 1) < 0) {
		/* Full pipe: a byte is already waiting, which is enough. */
	}
	errno = saved;
}

static int signals_install(void)
{
	/* SIGHUP: the terminal closed; the experiment is interrupted. */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK))
		return error("pipe: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return error("sigaction: %s", strerror(errno));
	return 0;
}

/* ---- options ---- */

static int set_seed(const char *opt, const char *arg, void *field,
		    int value)
{
	struct run_opts *o = field;

	(void)value;
	if (parse_u64(arg, &o->seed))
		return error("%s: '%s' is not an unsigned 64-bit integer", opt,
			     arg);
	o->has_seed = true;
	return 0;
}

#define FIELD(f) offsetof(struct run_opts, f)

static const struct opt run_rows[] = {
	{ NULL, 0, "CONFIG.ini", "the experiment file (docs/INI.md); not "
	  "with --resume", NULL, FIELD(config), 0, OPT_OPTIONAL },
	DB_ROW(FIELD(db)),
	{ "label", 0, "L", "the experiment's label (a kernel version, a "
	  "branch)", NULL, FIELD(label), 0, 0 },
	{ "seed", 0, "N", "the seed of the run order (default: random, "
	  "stored)", set_seed, 0, 0, 0 },
	{ "dry-run", 0, NULL, "print the plan, run nothing, store nothing",
	  NULL, FIELD(dry_run), 0, 0 },
	{ "quiet", 'q', NULL, "no progress on stderr", NULL, FIELD(quiet), 0,
	  0 },
	{ "fail-fast", 0, NULL, "stop at the first failed run (resumable)",
	  NULL, FIELD(fail_fast), 0, 0 },
	{ "resume", 0, "EXPERIMENT", "continue an unfinished experiment with "
	  "its stored config, seed and plan", NULL, FIELD(resume), 0, 0 },
	{ "calibration-from", 0, "EXPERIMENT", "take the busy loop's "
	  "calibration from that experiment instead of measuring it", NULL,
	  FIELD(calibration_from), 0, 0 },
};

const struct opt_cmd run_cli = {
	"run", "run an experiment described by an INI file", run_rows,
	ARRAY_SIZE(run_rows),
	"Every run is its own 'contend exec' process, stored as it ends. "
	"SIGINT or SIGTERM stop the experiment, resumable, with exit status "
	"130.",
};

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	int p;

	memset(o, 0, sizeof(*o));
	p = opt_parse(&run_cli, argc, argv, o);
	if (p)
		return p;
	if (!o->config == !o->resume) {
		error("run: give CONFIG.ini, or --resume EXPERIMENT");
		opt_usage(stderr, &run_cli);
		return -1;
	}
	if (o->resume && (o->has_seed || o->label || o->dry_run ||
			  o->calibration_from))
		return error("run: --resume takes the seed, label, plan and "
			     "calibration of the stored experiment");
	return 0;
}

/* ---- describing entries ---- */

/* The value of key in an entry's kv list, or NULL. */
static const char *entry_value(const struct config_entry *e, const char *key)
{
	size_t i, n = strlen(key);

	for (i = 0; i < e->nkv; i++)
		if (!strncmp(e->kv[i], key, n) && e->kv[i][n] == '=')
			return e->kv[i] + n + 1;
	return NULL;
}

static bool is_auto(const struct config_entry *e)
{
	return e->set.repetitions == 0;
}

static void plan_specs(const struct experiment_config *c,
		       struct plan_spec *spec)
{
	size_t i;

	for (i = 0; i < c->nentries; i++) {
		const struct run_settings *s = &c->entries[i].set;

		spec[i].warmup = s->warmup;
		spec[i].repetitions = s->repetitions ? s->repetitions
						     : s->min_repetitions;
	}
}

static int build_plan(struct runner *r)
{
	struct plan_spec *spec = xcalloc(r->cfg.nentries, sizeof(*spec));
	int ret;

	plan_specs(&r->cfg, spec);
	ret = plan_build(&r->plan, r->cfg.order, r->cfg.seed, r->cfg.nentries,
			 spec);
	free(spec);
	return ret;
}

static void fmt_duration(char *buf, size_t len, double s)
{
	long t = (long)(s + 0.5);

	snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

/* What --dry-run prints after config_print: seed, time, the first runs. */
static void plan_summary(const struct runner *r, FILE *f)
{
	size_t i, jobs = 0, nauto = 0;
	double secs = 0;
	char d[32];

	for (i = 0; i < r->plan.nruns; i++) {
		double rt = r->cfg.entries[r->plan.runs[i].config].set.runtime_s;

		secs += rt;
		jobs += rt <= 0;
	}
	for (i = 0; i < r->cfg.nentries; i++)
		nauto += is_auto(&r->cfg.entries[i]);
	fmt_duration(d, sizeof(d), secs);
	fprintf(f, "\nplan: %zu runs in %s order with seed %" PRIu64 "%s\n",
		r->plan.nruns, order_names[r->cfg.order], r->cfg.seed,
		r->cfg.has_seed ? "" : " (drawn for this dry run only)");
	fprintf(f, "time: %s of measured windows", d);
	if (jobs)
		fprintf(f, " plus %zu fixed-work runs of unknown length", jobs);
	fprintf(f, ", plus process start-up per run\n");
	if (nauto)
		fprintf(f, "auto: %zu configuration%s start with "
			   "min_repetitions and grow by rounds until the "
			   "precision is reached or max_repetitions\n",
			nauto, nauto == 1 ? "" : "s");
	for (i = 0; i < r->plan.nruns && i < 20; i++) {
		const struct plan_run *p = &r->plan.runs[i];

		fprintf(f, "  %4ld  %s #%d  [%s] %s\n", p->seq,
			p->warmup ? "warm-up " : "measured", p->repetition,
			r->cfg.entries[p->config].section,
			r->cfg.entries[p->config].canon);
	}
	if (r->plan.nruns > 20)
		fprintf(f, "  ... %zu more\n", r->plan.nruns - 20);
}

/* ---- the experiment row ---- */

static void fs_types(struct runner *r)
{
	const char **dirs = xcalloc(r->cfg.nentries, sizeof(*dirs));
	size_t i, j, n = 0;

	for (i = 0; i < r->cfg.nentries; i++) {
		const struct config_entry *e = &r->cfg.entries[i];
		const char *d;

		if (!(e->wl->flags & WL_SCRATCH))
			continue;
		d = scratch_parent(entry_value(e, "dir"));
		for (j = 0; j < n && strcmp(dirs[j], d); j++)
			;
		if (j == n)
			dirs[n++] = d;
	}
	host_fs_types(&r->exp, dirs, n);
	free(dirs);
}

/*
 * What analysis judges each section by, stored as data with the
 * experiment (analysis does not read config files): primary.SECTION and
 * direction.SECTION.METRIC (docs/STORAGE.md).  A section's
 * configurations are consecutive and share these.
 */
static void judged_by(struct runner *r)
{
	size_t i, j;

	for (i = 0; i < r->cfg.nentries; i++) {
		const struct config_entry *e = &r->cfg.entries[i];
		char *key;

		if (i && !strcmp(e->section, r->cfg.entries[i - 1].section))
			continue;
		key = xasprintf("primary.%s", e->section);
		meta_set(&r->exp, key, e->primary);
		free(key);
		for (j = 0; j < e->ndirections; j++) {
			const char *eq = strchr(e->directions[j], '=');

			key = xasprintf("direction.%s.%.*s", e->section,
					(int)(eq - e->directions[j]),
					e->directions[j]);
			meta_set(&r->exp, key, eq + 1);
			free(key);
		}
	}
}

static void experiment_fill(struct runner *r, const char *seed_source)
{
	struct experiment_row *e = &r->exp;
	char klock[160];

	memset(e, 0, sizeof(*e));
	e->name = xstrdup(r->cfg.name ? r->cfg.name : "");
	e->label = xstrdup(r->o->label ? r->o->label : "");
	e->config_path = xstrdup(r->cfg.path ? r->cfg.path : "");
	e->config_text = xstrdup(r->cfg.text ? r->cfg.text : "");
	e->seed = r->cfg.seed;
	e->order = xstrdup(order_names[r->cfg.order]);
	e->confidence = r->cfg.confidence;
	e->status = xstrdup("planned");
	e->created_at = now_realtime();
	host_collect("/", e);
	meta_set(e, "kernel_lock_events",
		 klock_status(klock_backend(), klock, sizeof(klock)));
	fs_types(r);
	meta_set(e, "seed_source", seed_source);
	judged_by(r);
}

/* Experiment, configurations and every planned run: one transaction. */
static int write_plan(struct runner *r)
{
	size_t i;

	if (store_begin(r->st))
		return -1;
	if (store_experiment_create(r->st, &r->exp))
		goto fail;
	r->config_ids = xcalloc(r->cfg.nentries, sizeof(*r->config_ids));
	for (i = 0; i < r->cfg.nentries; i++) {
		const struct config_entry *e = &r->cfg.entries[i];
		/* the user's parameters are stored after the workload's */
		char **kv = xcalloc(e->nkv + e->nuser + 1, sizeof(*kv));
		int ret;

		memcpy(kv, e->kv, e->nkv * sizeof(*kv));
		memcpy(kv + e->nkv, e->user, e->nuser * sizeof(*kv));
		ret = store_config_add(r->st, r->exp.id, (int)i, e->wl->name,
				       e->section, e->canon, e->set.noise,
				       e->set.timeout_s, e->nkv + e->nuser, kv,
				       &r->config_ids[i]);
		free(kv);
		if (ret)
			goto fail;
	}
	for (i = 0; i < r->plan.nruns; i++) {
		const struct plan_run *p = &r->plan.runs[i];
		int64_t id;

		if (store_run_plan(r->st, r->exp.id, r->config_ids[p->config],
				   p->seq, p->repetition, p->warmup, &id))
			goto fail;
	}
	return store_commit(r->st);
fail:
	store_rollback(r->st);
	return -1;
}

/* ---- the calibration ---- */

/* The calibration stored with the experiment selector names; 0, or -1. */
static int calibration_of(struct runner *r, const char *selector,
			  double *lpus)
{
	int64_t *ids = NULL;
	int n = store_experiment_find(r->st, selector, &ids);
	char *v = NULL;
	int ret = -1;

	if (n == 0)
		error("--calibration-from: no experiment '%s' in the database",
		      selector);
	else if (n > 1)
		error("--calibration-from: '%s' names %d experiments (the "
		      "newest is %" PRId64 "); give its id", selector, n,
		      ids[n - 1]);
	else if (n == 1 && !store_meta_get(r->st, ids[0], CALIBRATION_KEY, &v)) {
		if (v && !harness_calibration_parse(v, lpus))
			ret = 0;
		else
			error("--calibration-from: experiment %" PRId64 " has "
			      "no calibration stored (%s)", ids[0],
			      CALIBRATION_KEY);
	}
	free(v);
	free(ids);
	return ret;
}

/*
 * The experiment's calibration, into r->calibration and its meta:
 * --calibration-from, else `calibration = N`, else measured now (once:
 * every run gets this value).  Returns 0, or -1 after an error.
 */
static int choose_calibration(struct runner *r)
{
	double lpus = r->cfg.calibration;
	char *source;

	if (r->o->calibration_from) {
		if (calibration_of(r, r->o->calibration_from, &lpus))
			return -1;
		source = xasprintf("experiment %s", r->o->calibration_from);
	} else if (lpus > 0) {
		source = xstrdup("config");
	} else {
		lpus = harness_calibrate();
		source = xstrdup("measured");
	}
	snprintf(r->calibration, sizeof(r->calibration), "%.17g", lpus);
	meta_set(&r->exp, CALIBRATION_KEY, r->calibration);
	meta_set(&r->exp, "calibration_source", source);
	free(source);
	return 0;
}

/* The stored calibration of a resumed experiment ("" when it has none:
 * it was made before calibrations were stored, and its runs measure). */
static void resume_calibration(struct runner *r)
{
	const char *v = experiment_meta(&r->exp, CALIBRATION_KEY);
	double lpus;

	if (v && !harness_calibration_parse(v, &lpus))
		snprintf(r->calibration, sizeof(r->calibration), "%s", v);
}

/* ---- one run ---- */

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
	struct child child;
	bool ran;             /* the run was spawned (its prepare passed) */
	struct result res;
	enum run_status status;
	char err[1024];
	double started_at;
	char stamp[sizeof(SPAWN_NS_ENV "=") + 20]; /* the env's spawn stamp */
	/* a directly spawned program's kernel lock counts (runner/klock.h);
	 * contend exec counts its own runs */
	struct klock klock;
	bool klock_on;
};

static char **exec_argv(const struct config_entry *e, const char *scratch,
			const char *calibration)
{
	char **argv = xcalloc(e->nkv + 8, sizeof(*argv));
	size_t n = 0, i;

	argv[n++] = (char *)"contend";
	argv[n++] = (char *)"exec";
	argv[n++] = (char *)e->wl->name;
	for (i = 0; i < e->nkv; i++)
		argv[n++] = e->kv[i];
	if (scratch) {
		argv[n++] = (char *)"--scratch";
		argv[n++] = (char *)scratch;
	}
	if (*calibration) {
		argv[n++] = (char *)"--calibration";
		argv[n++] = (char *)calibration;
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
 * the fork by stamp_spawn) and, with pad, CONTEND_PAD of a length drawn
 * from the seed and the run's seq, so a resumed or repeated experiment
 * pads each run alike.
 */
static char **run_env(uint64_t seed, long seq, bool pad, char *stamp,
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
		env[j] = env_pad(seed, seq, len);
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

static void free_env(char **env)
{
	size_t i;

	if (!env)
		return;
	for (i = 0; env[i]; i++)
		if (!strncmp(env[i], "CONTEND_PAD=", 12))
			free(env[i]);
	free(env);
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
	if (o->direct)
		o->klock_on = klock_start(&o->klock, klock_backend(), c->pid,
					  0) == 0;
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
	o->child.started_arg = o;
	o->envp = run_env(r->cfg.seed, o->p->seq, e->set.randomize_env,
			  o->stamp, &o->env_pad);
	if (e->wl->spawn)
		return program_prepare(o);
	if (e->wl->flags & WL_SCRATCH) {
		o->scratch = scratch_create(scratch_parent(entry_value(e, "dir")));
		if (!o->scratch)
			return -1;
	}
	o->argv = exec_argv(e, o->scratch, r->calibration);
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

	if (o->ran && o->status != RUN_INTERRUPTED)
		add_rusage(&o->res, &o->child);
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
	ret = store_run_record(r->st, o->p->run_id, &rec);
	free(names);
	free(values);
	return ret;
}

static void one_release(struct one_run *o)
{
	if (o->scratch && scratch_remove(o->scratch))
		warning("scratch directory %s left behind", o->scratch);
	free(o->scratch);
	free(o->argv);
	free_env(o->envp);
	if (o->direct) {
		wl_program_release(&o->prog);
		args_release(&o->args);
	}
	child_release(&o->child);
	result_release(&o->res);
}

/*
 * A section's prepare (before the run is spawned) or cleanup (after it
 * was reaped): -1 when a prepare failed, the run then recorded failed (or
 * interrupted) with the reason; a failing cleanup leaves the run's data
 * as measured and is only a warning.
 */
static int run_hook(struct runner *r, struct one_run *o, const char *what,
		    const char *text)
{
	char why[sizeof(o->err)];
	enum hook_fate f;

	if (!text)
		return 0;
	f = hook_run(what, text, o->e->prepare_timeout_s, r->stop_fd, why,
		     sizeof(why));
	if (f == HOOK_OK)
		return 0;
	if (!strcmp(what, "cleanup")) {
		warning("%s", why);
		return 0;
	}
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
 * Runs and records one planned run.  Returns 0, or -1 when the run could
 * not be started or stored (a runtime error that ends the experiment).
 * A program that cannot be run (wl->spawn) is a failed run instead.
 */
static int run_one(struct runner *r, const struct config_entry *e,
		   const struct pending_run *p, enum run_status *st)
{
	struct one_run o = { .e = e, .p = p };
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

		stamp_spawn(o.stamp, sizeof(o.stamp));
		failed = spawn_run(&o.child) != 0;
		guard_publish(0);
		if (failed && !(o.direct && o.child.exec_err))
			goto out;
		o.ran = !failed;
		o.status = one_judge(&o, failed);
		if (o.klock_on)
			klock_stop(&o.klock, o.status == RUN_OK ? &o.res : NULL);
	}
	if (e->cleanup && o.status != RUN_INTERRUPTED)
		run_hook(r, &o, "cleanup", e->cleanup);
	if (o.status == RUN_INTERRUPTED && stop_signal) {
		char sig[32];

		snprintf(o.err, sizeof(o.err), "interrupted by %s",
			 spawn_signame(stop_signal, sig, sizeof(sig)));
	}
	if (o.child.orphans) {
		size_t n = strlen(o.err);

		/* Recorded with the run, whatever its status. */
		snprintf(o.err + n, sizeof(o.err) - n, "%s%d process%s left the "
			 "run's process group and %s killed after it",
			 n ? "; " : "", o.child.orphans,
			 o.child.orphans == 1 ? "" : "es",
			 o.child.orphans == 1 ? "was" : "were");
	}
	ret = one_record(r, &o);
	if (!ret && o.status != RUN_INTERRUPTED) {
		r->expect[RUN_PLANNED]--;
		r->expect[o.status]++;
	}
	*st = o.status;
	progress_end(&r->prog, o.status, e->set.runtime_s, o.child.wall_s);
	progress_outcome(&r->prog, (size_t)(e - r->cfg.entries), p->seq, what,
			 o.status, o.err);
out:
	free(what);
	one_release(&o);
	return ret;
}

/* ---- the loop ---- */

enum loop_end { LOOP_DONE, LOOP_STOPPED, LOOP_FAILFAST, LOOP_ERROR };

static int cmp_id(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Sorts the configuration ids once: a plan may hold 100000 runs. */
static void index_ids(struct runner *r)
{
	size_t i;

	r->by_id = xcalloc(r->cfg.nentries, sizeof(*r->by_id));
	for (i = 0; i < r->cfg.nentries; i++)
		r->by_id[i] = (struct id_index){ r->config_ids[i], i };
	qsort(r->by_id, r->cfg.nentries, sizeof(*r->by_id), cmp_id);
}

/* The entry index of a stored configuration id, or -1. */
static long entry_of(const struct runner *r, int64_t config_id)
{
	struct id_index key = { config_id, 0 };
	const struct id_index *hit;

	hit = bsearch(&key, r->by_id, r->cfg.nentries, sizeof(*r->by_id),
		      cmp_id);
	return hit ? (long)hit->entry : -1;
}

/* Every run still planned (or interrupted), in seq order. */
static enum loop_end run_pending(struct runner *r)
{
	enum loop_end end = LOOP_DONE;
	struct pending_run *pend;
	size_t n, i;

	if (store_pending_runs(r->st, r->exp.id, &pend, &n))
		return LOOP_ERROR;
	for (i = 0; i < n && end == LOOP_DONE; i++) {
		long c = entry_of(r, pend[i].config_id);
		enum run_status st = RUN_PLANNED;

		if (c < 0) {
			error("run %" PRId64 ": unknown configuration %" PRId64,
			      pend[i].run_id, pend[i].config_id);
			end = LOOP_ERROR;
		} else if (!stop_signal &&
			   run_one(r, &r->cfg.entries[c], &pend[i], &st)) {
			end = LOOP_ERROR;
		} else if (stop_signal) {
			/* Before the run, or the run it interrupted. */
			end = LOOP_STOPPED;
		} else if (r->o->fail_fast && st != RUN_OK) {
			error("run %ld: %s; stopping (--fail-fast)", pend[i].seq,
			      run_status_names[st]);
			end = LOOP_FAILFAST;
		}
	}
	free(pend);
	return end;
}

/* The stopping rule for every auto configuration, on the stored data. */
static int decide_auto(struct runner *r, const struct dataset *d,
		       bool *active)
{
	size_t c, i;

	if (d->nconfigs != r->cfg.nentries)
		return error("experiment %" PRId64 ": %zu configurations "
			     "stored, %zu in its config", r->exp.id,
			     d->nconfigs, r->cfg.nentries);
	for (c = 0; c < r->cfg.nentries; c++) {
		const struct config_entry *e = &r->cfg.entries[c];
		const struct ds_config *dc = &d->configs[c];
		int m = dataset_metric(d, config_primary_metric(e));
		double *x, hw;
		size_t n = 0;

		active[c] = false;
		if (!is_auto(e))
			continue;
		x = xcalloc(dc->nruns, sizeof(*x));
		for (i = dc->run0; i < dc->run0 + dc->nruns; i++) {
			double v = dataset_value(d, i, m);

			if (!d->runs[i].warmup && d->runs[i].status == RUN_OK &&
			    !isnan(v))
				x[n++] = v;
		}
		active[c] = plan_auto_decide(x, n, r->plan.measured[c], &e->set,
					     r->cfg.confidence, &hw) ==
			    PLAN_CONTINUE;
		free(x);
	}
	return 0;
}

/* Stores the runs the plan gained past index from, in one transaction. */
static int store_new_runs(struct runner *r, size_t from)
{
	size_t i;

	if (store_begin(r->st))
		return -1;
	for (i = from; i < r->plan.nruns; i++) {
		const struct plan_run *p = &r->plan.runs[i];
		int64_t id;

		if (store_run_plan(r->st, r->exp.id, r->config_ids[p->config],
				   p->seq, p->repetition, p->warmup, &id)) {
			store_rollback(r->st);
			return -1;
		}
	}
	return store_commit(r->st);
}

/* After a round: one more round of the auto configurations still short. */
static int grow(struct runner *r)
{
	bool *active = xcalloc(r->cfg.nentries, sizeof(*active));
	size_t from = r->plan.nruns, i, jobs = 0;
	double secs = 0;
	struct dataset d;
	int n = -1;

	if (store_load(r->st, r->exp.id, &d))
		goto out;
	if (decide_auto(r, &d, active))
		goto out_d;
	n = plan_add_round(&r->plan, active);
	if (n > 0 && store_new_runs(r, from))
		n = -1;
	if (n > 0)
		r->expect[RUN_PLANNED] += n;
	for (i = from; n > 0 && i < r->plan.nruns; i++) {
		double rt = r->cfg.entries[r->plan.runs[i].config].set.runtime_s;

		secs += rt;
		jobs += rt <= 0;
	}
	if (n > 0)
		progress_grow(&r->prog, (size_t)n, secs, jobs);
out_d:
	dataset_release(&d);
out:
	free(active);
	return n;
}

static void resume_hint(const struct runner *r)
{
	fprintf(stderr, "contend: continue with: contend run --resume %" PRId64
			"%s%s\n", r->exp.id, r->o->db ? " --db " : "",
		r->o->db ? r->o->db : "");
}

/* Counts by status, the two still to do (planned, interrupted) as one. */
static int run_counts(struct store *s, int64_t exp, long counts[RUN_NSTATUS])
{
	if (store_run_counts(s, exp, counts))
		return -1;
	counts[RUN_PLANNED] += counts[RUN_INTERRUPTED];
	counts[RUN_INTERRUPTED] = 0;
	return 0;
}

/*
 * At the end: the database file is still the one opened and, read by a
 * connection of its own as any later reader would, intact and holding
 * the runs as this runner wrote them.  Another program may have removed
 * it (the results then went to a file no name leads to), replaced it,
 * rewritten its WAL or its rows meanwhile (tests/faults/dbgone.sh).
 */
static int verify_store(struct runner *r)
{
	const char *path = r->o->db ? r->o->db : store_default_path();
	struct store *fresh = NULL;
	long now[RUN_NSTATUS];
	int i, ret = -1;

	if (store_check_file(r->st, false))
		return -1;
	if (store_open(path, STORE_RDONLY, &fresh)) {
		error("%s: the database cannot be read back after the runs: "
		      "it was damaged meanwhile", path);
		return -1;
	}
	if (store_check_file(fresh, true) || run_counts(fresh, r->exp.id, now))
		goto out;
	for (i = 0; i < RUN_NSTATUS; i++)
		if (now[i] != r->expect[i]) {
			error("%s: experiment %" PRId64 " was changed while it "
			      "ran: %ld runs %s where this runner left %ld",
			      path, r->exp.id, now[i], i == RUN_PLANNED
			      ? "still to do" : run_status_names[i],
			      r->expect[i]);
			goto out;
		}
	ret = 0;
out:
	store_close(fresh);
	return ret;
}

/* A configuration none of whose runs succeeded makes the run a failure. */
static bool all_failed(const struct runner *r)
{
	bool any = false;
	size_t c, n;

	for (c = 0; c < r->cfg.nentries; c++) {
		const struct config_entry *e = &r->cfg.entries[c];
		const char *first;
		char *what, *safe;

		if (!progress_all_failed(&r->prog, c, &n, &first))
			continue;
		what = xasprintf("configuration %zu [%s] %s: all %zu run%s failed "
				 "(first: %s)", c + 1, e->section, e->canon, n,
				 n == 1 ? "" : "s", first);
		safe = escape_text_dup(what);
		error("%s", safe ? safe : what);
		free(safe);
		free(what);
		any = true;
	}
	return any;
}

static int finish(struct runner *r, enum loop_end end)
{
	static const struct {
		const char *status;
		int exit;
	} ends[] = {
		[LOOP_DONE] = { "complete", 0 },
		[LOOP_STOPPED] = { "interrupted", EXIT_INTERRUPTED },
		[LOOP_FAILFAST] = { "failed", EXIT_RUNTIME },
		[LOOP_ERROR] = { "failed", EXIT_RUNTIME },
	};
	int ret = ends[end].exit;
	/* Changed behind our back: not complete, whatever the loop did. */
	bool changed = verify_store(r) != 0;

	if (changed)
		ret = EXIT_RUNTIME;
	if (store_experiment_status(r->st, r->exp.id,
				    changed ? "failed" : ends[end].status) ||
	    host_load_end(r->st, r->exp.id) ||
	    claim_release(r->st, r->exp.id))
		ret = EXIT_RUNTIME;
	if (!r->o->quiet)
		progress_summary(&r->prog, stdout);
	if (all_failed(r) && ret == 0)
		ret = EXIT_RUNTIME;
	progress_release(&r->prog);
	if (end == LOOP_STOPPED) {
		char sig[32];

		error("%s: experiment %" PRId64 " interrupted",
		      spawn_signame(stop_signal, sig, sizeof(sig)), r->exp.id);
	}
	if (end != LOOP_DONE)
		resume_hint(r);
	return ret;
}

/* ---- profile = lock ---- */

/* One configuration's unmeasured run under perf lock; its top callers. */
static void profile_one(struct runner *r, const char *perf, size_t i)
{
	const struct config_entry *e = &r->cfg.entries[i];
	char **argv = exec_argv(e, NULL, r->calibration), why[512];
	struct profile_row *rows;
	size_t n;

	if (!r->o->quiet)
		printf("profile: [%s] %s under perf lock contention\n",
		       e->section, e->canon);
	if (profile_run(perf, argv, e->set.timeout_s, r->stop_fd, &rows, &n,
			why, sizeof(why)))
		warning("profile of [%s] %s: %s", e->section, e->canon, why);
	else if (store_profile_put(r->st, r->config_ids[i], rows, n) == 0 &&
		 !r->o->quiet)
		printf("profile: %zu contended kernel lock caller%s stored\n",
		       n, n == 1 ? "" : "s");
	if (!rows || !n)
		free(rows);
	else
		store_profile_free(rows, n);
	free(argv);
}

/*
 * After the measured runs, one extra run per configuration that asks for
 * it (profile = lock), never stored as a run.  Without perf: one message,
 * and nothing else changes.
 */
static void profile_pass(struct runner *r)
{
	char why[256];
	char *perf = NULL;
	size_t i;

	for (i = 0; i < r->cfg.nentries && !stop_signal; i++) {
		if (r->cfg.entries[i].set.profile != PROFILE_LOCK)
			continue;
		if (!perf && !(perf = profile_find_perf(why, sizeof(why)))) {
			warning("profile = lock: %s", why);
			return;
		}
		profile_one(r, perf, i);
	}
	free(perf);
}

/* Pending runs, then (auto) further rounds until none is added. */
static int execute(struct runner *r)
{
	enum loop_end end = LOOP_DONE;
	double secs = 0;
	size_t i, left = 0, jobs = 0;
	struct pending_run *pend;

	index_ids(r);
	/* Unguarded, a runner killed would leave a run's children behind;
	 * running on is still better than not running. */
	if (guard_start())
		warning("runs that fork may outlive a killed runner");
	/* One runner per experiment: a second would run the same runs. */
	if (claim_take(r->st, r->exp.id) ||
	    run_counts(r->st, r->exp.id, r->expect) ||
	    store_experiment_status(r->st, r->exp.id, "running") ||
	    store_pending_runs(r->st, r->exp.id, &pend, &left))
		return EXIT_RUNTIME;
	for (i = 0; i < left; i++) {
		long c = entry_of(r, pend[i].config_id);
		double rt = c < 0 ? 0 : r->cfg.entries[c].set.runtime_s;

		secs += rt;
		jobs += rt <= 0;
	}
	free(pend);
	progress_init(&r->prog, r->plan.nruns, r->plan.nruns - left, secs, jobs,
		      r->o->quiet);
	for (;;) {
		int n;

		end = stop_signal ? LOOP_STOPPED : run_pending(r);
		if (end != LOOP_DONE || !r->any_auto)
			break;
		n = grow(r);
		if (n < 0)
			end = LOOP_ERROR;
		if (n <= 0)
			break;
	}
	if (end == LOOP_DONE)
		profile_pass(r);
	return finish(r, end);
}

/* ---- fresh and resumed experiments ---- */

static void runner_release(struct runner *r)
{
	plan_release(&r->plan);
	config_release(&r->cfg);
	experiment_row_release(&r->exp);
	free(r->config_ids);
	free(r->by_id);
	if (r->st)
		store_close(r->st);
}

static const char *choose_seed(struct runner *r)
{
	if (r->o->has_seed) {
		r->cfg.seed = r->o->seed;
		r->cfg.has_seed = true;
		return "option";
	}
	if (r->cfg.has_seed)
		return "config";
	if (getrandom(&r->cfg.seed, sizeof(r->cfg.seed), 0) !=
	    (ssize_t)sizeof(r->cfg.seed))
		r->cfg.seed = (uint64_t)now_realtime() ^ (uint64_t)getpid() << 32;
	return "random";
}

static bool any_auto(const struct experiment_config *c)
{
	size_t i;

	for (i = 0; i < c->nentries; i++)
		if (is_auto(&c->entries[i]))
			return true;
	return false;
}

/* Returns 0, or the exit status of the failure (store_exit_status). */
static int open_store(struct runner *r, unsigned flags)
{
	const char *path = r->o->db ? r->o->db : store_default_path();
	bool fresh = !r->o->db && (flags & STORE_CREATE) && access(path, F_OK);
	int ret;

	/* What leaves a run's process group is ours to kill (spawn.h). */
	if (signals_install() || spawn_subreaper())
		return EXIT_RUNTIME;
	r->stop_fd = stop_pipe[0];
	/* the default database is made where it belongs, on the first run */
	if (fresh && store_make_parent(path))
		return EXIT_RUNTIME;
	ret = store_open(path, flags, &r->st);
	if (ret)
		return store_exit_status(ret);
	if (fresh)
		fprintf(stderr, "contend: created the database %s (--db PATH or "
				"$CONTEND_DB choose another)\n", path);
	/*
	 * The runner appends a run at a time: a small page cache does, and
	 * SQLite's default 2 MiB was most of the runner's memory growth
	 * over a 10,000-run plan (docs/PERFORMANCE.md).
	 */
	return store_cache_limit(r->st, RUNNER_CACHE_KIB) ? EXIT_RUNTIME : 0;
}

static int run_fresh(const struct run_opts *o)
{
	struct runner r = { .o = o, .stop_fd = -1 };
	const char *seed_source;
	int ret = EXIT_USAGE;

	/* The whole config is checked before any database is touched. */
	if (config_load(o->config, &r.cfg))
		goto out;
	if (r.cfg.offline && !o->dry_run) {
		error_at(r.cfg.path, r.cfg.offline_line, "%s", r.cfg.offline);
		goto out;
	}
	if (r.cfg.offline)
		warning("%s:%ld: %s", r.cfg.path, r.cfg.offline_line,
			r.cfg.offline);
	seed_source = choose_seed(&r);
	r.any_auto = any_auto(&r.cfg);
	if (build_plan(&r))
		goto out;
	if (o->dry_run) {
		config_print(&r.cfg, stdout);
		plan_summary(&r, stdout);
		ret = 0;
		if (fflush(stdout) || ferror(stdout)) {
			error("cannot write the plan to standard output: %s",
			      strerror(errno));
			ret = EXIT_RUNTIME;
		}
		goto out;
	}
	ret = open_store(&r, STORE_CREATE);
	if (ret)
		goto out;
	ret = EXIT_RUNTIME;
	experiment_fill(&r, seed_source);
	if (choose_calibration(&r)) {
		ret = EXIT_USAGE;
		goto out;
	}
	host_warn(&r.exp);
	if (write_plan(&r))
		goto out;
	if (!o->quiet)
		fprintf(stderr, "contend: experiment %" PRId64 " (%s): %zu runs "
				"planned, seed %" PRIu64 "\n", r.exp.id,
			r.exp.uuid, r.plan.nruns, r.cfg.seed);
	ret = execute(&r);
out:
	runner_release(&r);
	return ret;
}

static int find_experiment(struct runner *r, const char *selector)
{
	int64_t *ids = NULL;
	int n = store_experiment_find(r->st, selector, &ids);
	int ret = -1;

	if (n == 0)
		error("no experiment '%s' in the database", selector);
	else if (n > 1)
		error("'%s' names %d experiments (the newest is %" PRId64
		      "); give its id", selector, n, ids[n - 1]);
	else if (n == 1)
		ret = store_experiment_get(r->st, ids[0], &r->exp);
	free(ids);
	return ret;
}

static int order_parse(const char *name)
{
	int i;

	for (i = 0; i <= ORDER_SEQUENTIAL; i++)
		if (!strcmp(order_names[i], name))
			return i;
	return -1;
}

/*
 * The stored config, expanded again by this version of contend, must give
 * the configurations that were stored; the plan is restored around them.
 */
static int restore(struct runner *r, const struct dataset *d)
{
	struct plan_run *runs = xcalloc(d->nruns, sizeof(*runs));
	size_t i;
	int order = order_parse(r->exp.order), ret;

	if (order < 0 || d->nconfigs != r->cfg.nentries) {
		free(runs);
		return error("experiment %" PRId64 ": its config no longer "
			     "expands to the %zu stored configurations",
			     r->exp.id, d->nconfigs);
	}
	r->config_ids = xcalloc(d->nconfigs, sizeof(*r->config_ids));
	for (i = 0; i < d->nconfigs; i++) {
		if (strcmp(d->configs[i].canon, r->cfg.entries[i].canon)) {
			free(runs);
			return error("experiment %" PRId64 ", configuration %zu: "
				     "stored as '%s', expanded now as '%s'",
				     r->exp.id, i, d->configs[i].canon,
				     r->cfg.entries[i].canon);
		}
		r->config_ids[i] = d->configs[i].id;
	}
	for (i = 0; i < d->nruns; i++)
		runs[i] = (struct plan_run){ .config = d->runs[i].config,
					     .repetition = d->runs[i].repetition,
					     .warmup = d->runs[i].warmup,
					     .seq = d->runs[i].seq };
	r->cfg.order = (enum run_order)order;
	r->cfg.seed = r->exp.seed;
	ret = plan_restore(&r->plan, r->cfg.order, r->cfg.seed, d->nconfigs,
			   runs, d->nruns);
	free(runs);
	return ret;
}

static int run_resume(const struct run_opts *o)
{
	struct runner r = { .o = o, .stop_fd = -1 };
	struct dataset d;
	int ret = EXIT_RUNTIME;

	memset(&d, 0, sizeof(d));
	ret = open_store(&r, 0);
	if (ret)
		goto out;
	ret = EXIT_RUNTIME;
	if (find_experiment(&r, o->resume)) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (!strcmp(r.exp.status, "complete")) {
		fprintf(stderr, "contend: experiment %" PRId64 " is complete; "
				"nothing to resume\n", r.exp.id);
		ret = 0;
		goto out;
	}
	if (!strcmp(r.exp.status, "running"))
		warning("experiment %" PRId64 " is marked running: its runner "
			"was killed (resuming is right) or is still running "
			"(then stop this one: both would run the same runs)",
			r.exp.id);
	if (config_load_buffer(r.exp.config_path, r.exp.config_text,
			       strlen(r.exp.config_text), &r.cfg))
		goto out;
	if (r.cfg.offline) {
		error_at(r.cfg.path, r.cfg.offline_line, "%s", r.cfg.offline);
		ret = EXIT_USAGE;
		goto out;
	}
	if (store_load(r.st, r.exp.id, &d) || restore(&r, &d))
		goto out;
	r.any_auto = any_auto(&r.cfg);
	resume_calibration(&r);
	if (!o->quiet)
		fprintf(stderr, "contend: resuming experiment %" PRId64 " (%s)\n",
			r.exp.id, r.exp.status);
	ret = execute(&r);
out:
	dataset_release(&d);
	runner_release(&r);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	int p = parse_opts(argc, argv, &o);

	if (p)
		return opt_exit(p);
	return o.resume ? run_resume(&o) : run_fresh(&o);
}
