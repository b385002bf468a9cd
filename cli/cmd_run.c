/*
 * cmd_run.c - `contend run CONFIG.ini` and `contend run --resume
 * EXPERIMENT`: the options, then the session of runner/session.h (which
 * describes the protocol: one transaction for the plan, one per run,
 * interrupts, calibration).  --dry-run prints the plan and touches no
 * database.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lib/escape.h"
#include "cli/commands.h"
#include "runner/session.h"
#include "lib/util.h"

struct run_opts {
	const char *config;
	const char *db;
	const char *label;
	const char *resume;
	const char *calibration_from; /* --calibration-from EXPERIMENT */
	bool has_seed;
	uint64_t seed;
	bool dry_run, quiet, fail_fast;
	bool force, allow_stored_commands; /* --resume only */
};

/* ---- options ---- */

static int set_seed(const char *opt, const char *arg, void *field,
		    int value)
{
	struct run_opts *o = field;

	(void)value;
	if (parse_u64(arg, &o->seed))
		return error("%s: '%s' is not an unsigned 64-bit integer", opt,
			     escape_quote(arg));
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
	{ "force", 0, NULL, "--resume: go on although the boot, kernel, "
	  "kernel instrument or contend version differs from the stored "
	  "session (recorded as resume_forced)", NULL, FIELD(force), 0, 0 },
	{ "allow-stored-commands", 0, NULL, "--resume: run the prepare, "
	  "cleanup and command stored with an experiment made in another "
	  "database", NULL, FIELD(allow_stored_commands), 0, 0 },
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
	if (!o->resume && (o->force || o->allow_stored_commands))
		return error("run: --force and --allow-stored-commands go "
			     "with --resume");
	return 0;
}

/* ---- the command ---- */

static void runner_opts_of(const struct run_opts *o, struct runner_opts *ro)
{
	*ro = (struct runner_opts){
		.db = o->db,
		.label = o->label,
		.calibration_from = o->calibration_from,
		.has_seed = o->has_seed,
		.seed = o->seed,
		.dry_run = o->dry_run,
		.quiet = o->quiet,
		.fail_fast = o->fail_fast,
		.force = o->force,
		.allow_stored_commands = o->allow_stored_commands,
	};
}

static int dry_run(const struct runner *r)
{
	if (runner_check_hooks(r))
		return EXIT_USAGE;
	config_print(&r->cfg, stdout);
	runner_print_plan(r, stdout);
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write the plan to standard output: %s",
		      strerror(errno));
		return EXIT_RUNTIME;
	}
	return 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct runner_opts ro;
	struct runner r;
	int ret = parse_opts(argc, argv, &o);

	if (ret)
		return opt_exit(ret);
	runner_opts_of(&o, &ro);
	if (o.resume)
		ret = runner_resume(&r, &ro, o.resume);
	else if (!(ret = runner_load(&r, &ro, o.config)))
		ret = o.dry_run ? dry_run(&r) : runner_fresh(&r);
	runner_release(&r);
	return ret;
}
