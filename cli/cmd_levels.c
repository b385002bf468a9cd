/*
 * cmd_levels.c - `contend levels NAME`: the experiments with the same name
 * and label as invocations of one level (analysis/levels.h), as text or
 * JSON.  `contend report --levels NAME` is the same command, kept for the
 * scripts that use it.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "analysis/levels.h"
#include "analysis/report.h"
#include "cli/commands.h"
#include "db/store.h"
#include "lib/util.h"

struct levels_args {
	const char *db, *selector;
	enum report_format format;      /* text or json */
	struct levels_opts opts;
};

static int set_scale(const char *opt, const char *arg, void *field, int value)
{
	(void)value;
	if (strcmp(arg, "auto") && strcmp(arg, "linear"))
		return error("%s: '%s' is not auto or linear", opt,
			     escape_quote(arg));
	*(bool *)field = !strcmp(arg, "linear");
	return 0;
}

#define FIELD(f) offsetof(struct levels_args, f)

static const struct opt levels_rows[] = {
	DB_ROW(FIELD(db)),
	{ NULL, 0, "NAME", "an experiment name (its labels are the levels), "
	  "a label, or an id or uuid (its name and label)", NULL,
	  FIELD(selector), 0, OPT_OPTIONAL },
	/* `report --levels NAME` hands its whole command line here. */
	{ "levels", 0, "NAME", NULL, NULL, FIELD(selector), 0, 0 },
	{ "metric", 0, "M", "the metric (default throughput)", NULL,
	  FIELD(opts.metric), 0, 0 },
	{ "format", 0, "text|json", "the output (default text)", opt_choice,
	  FIELD(format), 0, 0 },
	/* 0: invocations cost nothing beyond their runs. */
	{ "boot-cost", 0, "SECONDS", "what one more invocation (a boot) "
	  "costs, a duration such as 90 or 2m (default 120)", opt_duration,
	  FIELD(opts.boot_cost), 1, 0 },
	{ "run-cost", 0, "SECONDS", "what one more run costs, above 0 "
	  "(default: the runs' mean wall time)", opt_duration,
	  FIELD(opts.run_cost), 0, 0 },
	{ "confidence", 0, "C", "of the intervals, in (0, 1) (default: the "
	  "first invocation's)", opt_confidence, FIELD(opts.confidence), 0,
	  0 },
	{ "threshold", 0, "PCT", "the change the plan resolves, as compare's "
	  "(default 1)", opt_percent, FIELD(opts.threshold_pct), 0, 0 },
	{ "scale", 0, "auto|linear", "auto: logs when every value is > 0, as "
	  "compare (default); linear: the values", set_scale,
	  FIELD(opts.linear), 0, 0 },
};

const struct opt_cmd levels_cli = {
	"levels", "invocations of a level: variance between and within boots",
	levels_rows, ARRAY_SIZE(levels_rows),
	"Experiments with the same name and label are invocations of one "
	"level (one per boot, say): how much of the variance lies between "
	"them, and whether more runs per boot or more boots buy more "
	"precision for the time. 'contend report --levels NAME' is the "
	"same.",
};

int levels_print(struct store *s, const char *selector,
		 const struct selector *pick, const struct levels_opts *o,
		 bool json)
{
	struct levels l = { 0 };
	int ret = EXIT_RUNTIME, p;

	p = levels_load(s, selector, pick, &l);
	if (p == 0)
		p = levels_analyze(&l, o);
	if (p < 0) {
		ret = p == -2 ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	p = json ? levels_write_json(stdout, &l) : levels_write_text(stdout, &l);
	if (p == 0 && fflush(stdout) == 0)
		ret = 0;
out:
	levels_release(&l);
	return ret;
}

int cmd_levels(int argc, char **argv)
{
	struct levels_args la = { store_default_path(), NULL, REPORT_TEXT,
				  { 0 } };
	struct store *s = NULL;
	int ret, p;

	levels_opts_default(&la.opts);
	p = opt_parse(&levels_cli, argc, argv, &la);
	if (p)
		return opt_exit(p);
	/* NAME is optional in the table only because --levels may give it. */
	if (!la.selector && !strcmp(argv[0], "report")) {
		error("report: --levels needs an experiment name or label");
		return EXIT_USAGE;
	}
	if (!la.selector) {
		error("levels: NAME is missing (an experiment name or label)");
		opt_usage(stderr, &levels_cli);
		return EXIT_USAGE;
	}
	p = store_open(la.db, STORE_RDONLY, &s);
	if (p)
		return store_exit_status(p);
	ret = levels_print(s, la.selector, NULL, &la.opts,
			   la.format == REPORT_JSON);
	store_close(s);
	return ret;
}
