/*
 * cmd_run.c - `contend run CONFIG.ini` and `contend run --resume
 * EXPERIMENT`: the options, then the session of runner/session.h (which
 * describes the protocol: one transaction for the plan, one per run,
 * interrupts, calibration).  --dry-run prints the plan and touches no
 * database.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

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
};

/* ---- options ---- */

enum { OPT_DB = 256, OPT_LABEL, OPT_SEED, OPT_DRY, OPT_QUIET, OPT_FAILFAST,
       OPT_RESUME, OPT_CALFROM };

static const struct option long_opts[] = {
	{ "db", required_argument, NULL, OPT_DB },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "dry-run", no_argument, NULL, OPT_DRY },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "fail-fast", no_argument, NULL, OPT_FAILFAST },
	{ "resume", required_argument, NULL, OPT_RESUME },
	{ "calibration-from", required_argument, NULL, OPT_CALFROM },
	{ NULL, 0, NULL, 0 },
};

static int opt_set(struct run_opts *o, int c, const char *arg)
{
	switch (c) {
	case OPT_DB:
		o->db = arg;
		break;
	case OPT_LABEL:
		o->label = arg;
		break;
	case OPT_SEED:
		if (parse_u64(arg, &o->seed))
			return error("--seed: '%s' is not an unsigned 64-bit "
				     "integer", arg);
		o->has_seed = true;
		break;
	case OPT_DRY:
		o->dry_run = true;
		break;
	case OPT_QUIET:
		o->quiet = true;
		break;
	case OPT_FAILFAST:
		o->fail_fast = true;
		break;
	case OPT_RESUME:
		o->resume = arg;
		break;
	case OPT_CALFROM:
		o->calibration_from = arg;
		break;
	default:
		return -1; /* getopt printed why */
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "q", long_opts, NULL)) != -1)
		if (opt_set(o, c == 'q' ? OPT_QUIET : c, optarg))
			return -1;
	if (optind < argc)
		o->config = argv[optind++];
	if (optind < argc)
		return error("run: unexpected argument '%s'", argv[optind]);
	if (!o->config == !o->resume)
		return error("usage: contend run CONFIG.ini [options] | "
			     "contend run --resume EXPERIMENT [--db PATH]");
	if (o->resume && (o->has_seed || o->label || o->dry_run ||
			  o->calibration_from))
		return error("run: --resume takes the seed, label, plan and "
			     "calibration of the stored experiment");
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
	};
}

static int dry_run(const struct runner *r)
{
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
	int ret;

	if (parse_opts(argc, argv, &o))
		return EXIT_USAGE;
	runner_opts_of(&o, &ro);
	if (o.resume)
		ret = runner_resume(&r, &ro, o.resume);
	else if (!(ret = runner_load(&r, &ro, o.config)))
		ret = o.dry_run ? dry_run(&r) : runner_fresh(&r);
	runner_release(&r);
	return ret;
}
