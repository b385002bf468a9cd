/*
 * cmd_history.c - `contend history PATTERN`: the change points of every
 * configuration's level over a series of experiments (analysis/history.h),
 * as text or JSON, with an optional figure (plots/plot.h).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/history.h"
#include "analysis/report.h"
#include "cli/commands.h"
#include "db/store.h"
#include "lib/util.h"
#include "plots/plot.h"
#include "runner/param.h"
#include "runner/workload.h"

struct history_args {
	const char *db, *pattern, *plot;
	enum report_format format;      /* text or json */
	double fail_pct;                /* --fail-on-change; < 0: none */
	struct history_opts opts;
};

#define FIELD(f) offsetof(struct history_args, f)

static const struct opt history_rows[] = {
	DB_ROW(FIELD(db)),
	{ NULL, 0, "PATTERN", "the series: experiments whose label or name "
	  "matches this glob ('nightly-*'), in creation order", NULL,
	  FIELD(pattern), 0, 0 },
	{ "metric", 0, "M", "the metric (default throughput)", NULL,
	  FIELD(opts.metric), 0, 0 },
	{ "format", 0, "text|json", "the output (default text)", opt_choice,
	  FIELD(format), 0, 0 },
	{ "alpha", 0, "A", "the false-alarm rate of a series without a "
	  "change, in (0, 1) (default 0.05)", opt_confidence,
	  FIELD(opts.alpha), 0, 0 },
	{ "confidence", 0, "C", "of each change's interval, in (0, 1) "
	  "(default 0.95)", opt_confidence, FIELD(opts.confidence), 0, 0 },
	{ "fail-on-change", 0, "PCT", "exit 3 when the newest experiment "
	  "starts a level worse than the old by more than PCT (Holm over the "
	  "configurations), 4 when that can be neither shown nor ruled out",
	  opt_percent, FIELD(fail_pct), 1, 0 },
	{ "plot", 0, "DIR", "also draw the levels and their change points, "
	  "DIR/history-N.png per configuration", NULL, FIELD(plot), 0, 0 },
};

const struct opt_cmd history_cli = {
	"history", "change points of each level over a series of experiments",
	history_rows, ARRAY_SIZE(history_rows),
	"Each experiment of the series is one invocation (a nightly build, "
	"a boot of one kernel of a bisection); the change points are found "
	"by optimal partitioning with a penalty calibrated by permutation, so "
	"a series without a change shows one with probability at most "
	"--alpha.  An experiment with a value <= 0 is a collapse, itself a "
	"change point.  Exit status with --fail-on-change: 0 no worse level, "
	"3 a worse level shown, 4 inconclusive.  docs/AB-KERNEL.md has the "
	"workflow.",
};

/* The canonical text of text as parameter p, malloc'd; NULL when it
 * does not parse. */
static char *canonical(const struct param_def *p, const char *text)
{
	union param_value v;
	char err[256], *out;

	if (param_parse(p, text, &v, err, sizeof(err)) < 0)
		return NULL;
	out = param_format(p, &v);
	if (param_holds_string(p->type))
		free(v.s);
	return out;
}

/* The history figure's title leaves out what is the registry's default
 * (plot_param_default_fn); a key the registry does not know is shown. */
static bool param_is_default(const char *workload, const char *key,
			     const char *value)
{
	const struct workload *wl = workload_find(workload);
	int i = wl ? workload_param_index(wl, key) : -1;
	char *def, *val;
	bool same;

	if (i < 0 || !wl->params[i].def)
		return false;
	def = canonical(&wl->params[i], wl->params[i].def);
	val = canonical(&wl->params[i], value);
	same = def && val && !strcmp(def, val);
	free(def);
	free(val);
	return same;
}

int cmd_history(int argc, char **argv)
{
	struct history_args ha = { .db = store_default_path(),
				   .format = REPORT_TEXT, .fail_pct = -1 };
	struct store *s = NULL;
	struct history h = { 0 };
	int ret = EXIT_RUNTIME, p, gate = EXIT_OK;

	history_opts_default(&ha.opts);
	p = opt_parse(&history_cli, argc, argv, &ha);
	if (p)
		return opt_exit(p);
	p = store_open(ha.db, STORE_RDONLY, &s);
	if (p) {
		ret = store_exit_status(p);
		goto out;
	}
	p = history_load(s, ha.pattern, &h);
	if (p == 0)
		p = history_analyze(&h, &ha.opts);
	if (p == 0 && ha.fail_pct >= 0)
		gate = p = history_gate(&h, ha.fail_pct);
	if (p < 0) {
		ret = p == -2 ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	p = ha.format == REPORT_JSON ? history_write_json(stdout, &h)
				     : history_write_text(stdout, &h);
	if (p == 0 && ha.plot)
		p = fflush(stdout) ? -1 : plot_history(&h, ha.plot, param_is_default);
	if (p == 0 && fflush(stdout) == 0)
		ret = gate;
out:
	history_release(&h);
	if (s)
		store_close(s);
	return ret;
}
