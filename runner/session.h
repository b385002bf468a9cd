/*
 * session.h - one `contend run`: load and check the whole config, record
 * the host and write the whole plan in one transaction, then run every
 * planned run as its own process and store each result in one
 * transaction; or continue an unfinished experiment from the database.
 *
 * Call sequence (cli/cmd_run.c):
 *     runner_load -> runner_print_plan (a dry run) or runner_fresh
 *     runner_resume
 *     -> runner_release (always, after either)
 *
 * Where each part lives: runner/start.c starts an experiment (config,
 * seed, plan, the experiment row, calibration; the stored plan on
 * resume); runner/session.c the loop over the plan and the end of the
 * session; runner/onerun.c one run (spawn, timers, result, store);
 * runner/autorule.c `repetitions = auto`; runner/interrupt.c signals.
 *
 * Interrupts: a signal during the plan write is acted on once the plan
 * has been committed, so the database always holds a whole plan or none;
 * one during a run ends it as `interrupted` and the session exits
 * EXIT_INTERRUPTED (lib/util.h, docs/RUNNING.md).
 *
 * Calibration: the busy loop is calibrated once per experiment, before
 * the first run (or taken from `calibration = N`, or from another
 * experiment), stored as the experiment's meta key
 * calibration_loops_per_us and handed to every run (exec's
 * --calibration); a resumed session hands on the stored value.
 */
#ifndef CONTEND_SESSION_H
#define CONTEND_SESSION_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "db/store.h"
#include "runner/autorule.h"
#include "runner/bisect.h"
#include "runner/config.h"
#include "runner/kinstr/kinstr.h"
#include "runner/plan.h"
#include "runner/progress.h"
#include "runner/sentinel.h"

/*
 * The page cache of each of the runner's SQLite connections, KiB
 * (store_cache_limit): SQLite's default 2 MiB was most of the runner's
 * memory growth over a 10,000-run plan (docs/PERFORMANCE.md).
 */
#define RUNNER_CACHE_KIB 256

/* What the command line decides for a session. */
struct runner_opts {
	const char *db;               /* NULL: store_default_path() */
	const char *label;
	const char *calibration_from; /* an experiment selector, or NULL */
	bool has_seed;
	uint64_t seed;
	bool dry_run;                 /* only the plan: offline cpus warn */
	bool quiet, fail_fast;
	/* --resume: go on where the stored session differs (recorded), run
	 * the stored commands of an experiment made in another database */
	bool force, allow_stored_commands;
	const struct bisect_spec *bisect; /* `contend bisect` (bisect.h) */
};

struct id_index;
struct cgroup;
struct kbpf;

struct runner {
	const struct runner_opts *o;
	struct experiment_config cfg;
	struct store *st;
	struct experiment_row exp;
	int64_t *config_ids;     /* by entry index (pos) */
	struct id_index *by_id;  /* config_ids sorted (session.c) */
	const char *seed_source; /* "option", "config" or "random" */
	struct plan plan;
	struct progress prog;
	struct autorule autorule;
	int stop_fd;             /* read end of the signal self-pipe */
	int kcount_hold;          /* the tracepoint held (count.h); -1 none */
	struct sentinel sentinel; /* the kernel log and CPU time (sentinel.h) */
	struct bisect_entry *bisect; /* by entry, under `contend bisect` */
	/* the cgroup every child of the runner runs in (runner/cgroup.h),
	 * NULL without one: process groups and the subreaper then */
	struct cgroup *cg;
	char calibration[32];    /* loops per us, as handed to runs; "" none */
	/* the kernel lock wait of every run (runner/kinstr/bpf.h), loaded for the
	 * session; NULL: the perf events of runner/kinstr/count.h count instead */
	struct kbpf *kbpf;
	/* the kernel lock instrument of every run (runner/kinstr/kinstr.h), chosen
	 * before anything is written; why those listed before it did not
	 * run ("" none) */
	enum kinstr kinstr;
	char kinstr_skipped[400];
	/* Runs by status as this runner left them; planned and interrupted
	 * (both still to do) are counted as planned (verify_store). */
	long expect[RUN_NSTATUS];
};

/*
 * Loads and checks the config at path, chooses the seed and builds the
 * plan; no database is touched.  Returns 0, or the exit status.
 */
int runner_load(struct runner *r, const struct runner_opts *o,
		const char *path);
/* What a dry run prints after config_print: seed, time, the first runs. */
void runner_print_plan(const struct runner *r, FILE *f);
/*
 * For a dry run: every configuration's prepare and cleanup, {NAME}
 * replaced, as hook_run checks it before starting it (its program
 * installed).  A run would fail each of its runs on such a hook, so the
 * dry run says so: 0, or EXIT_USAGE after "FILE:LINE: [workload S]
 * prepare: ..." once per section and reason.
 */
int runner_check_hooks(const struct runner *r);
/* Stores the loaded experiment and runs it.  Returns the exit status. */
int runner_fresh(struct runner *r);
/* Continues the experiment selector names.  Returns the exit status. */
int runner_resume(struct runner *r, const struct runner_opts *o,
		  const char *selector);
void runner_release(struct runner *r);

/* ---- between the files of the session ---- */

/* runner/session.c: every run still to do, then the end.  Exit status. */
int runner_execute(struct runner *r);

/*
 * runner/start_checks.c, before anything is written or run; each returns
 * 0 or the exit status after saying why.  choose_instrument: the first
 * instrument of the file's list (or KINSTR_ENV's) that can run here
 * into r->kinstr (runner/kinstr/kinstr.h), EXIT_USAGE where none can.
 * instrument_open: the BPF program loaded when that is bpf.
 * instrument_meta: what the experiment stores of it.
 * resume_commands: a resumed experiment made in another database runs no
 * stored command without --allow-stored-commands.  resume_same: a
 * resumed experiment on another boot, kernel, instrument or contend
 * version is refused without --force (recorded).
 */
int choose_instrument(struct runner *r);
int instrument_open(struct runner *r);
void instrument_meta(struct runner *r);
int resume_commands(struct runner *r);
int resume_same(struct runner *r);

#endif
