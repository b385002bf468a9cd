/*
 * cmd_bisect.c - `contend bisect CONFIG.ini --baseline SELECTOR
 * --regression PCT`: one step of `git bisect run`.  Runs CONFIG's
 * experiment on the booted kernel in rounds, and after every look the
 * sequential decision of lib/seqtest.h against the stored baseline (the
 * good kernel's boots): bad (exit 1), good (exit 0) or, at the cap,
 * can't tell (exit 125, git bisect's skip).  The experiment and every
 * look are stored (runner/bisect.h).  docs/AB-KERNEL.md has the workflow.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "analysis/calibrate.h"
#include "analysis/stats.h"
#include "cli/commands.h"
#include "db/select.h"
#include "db/contract.h"
#include "db/store.h"
#include "db/vocab.h"
#include "lib/numfmt.h"
#include "lib/util.h"
#include "runner/session.h"

#define EXIT_SKIP 125           /* git bisect run: this commit can't tell */

struct bisect_args {
	const char *config, *db, *label, *baseline, *regression;
	struct bisect_spec spec;
	bool confirm, dry_run, quiet;
};

/* An error rate in (0, 0.5). */
static int set_rate(const char *opt, const char *arg, void *field, int value)
{
	double v;

	(void)value;
	if (parse_double(arg, &v) || !(v > 0 && v < 0.5))
		return error("%s: '%s' is not a rate in (0, 0.5)", opt,
			     escape_quote(arg));
	*(double *)field = v;
	return 0;
}

/* A count of runs, 2 to 100000. */
static int set_runs(const char *opt, const char *arg, void *field, int value)
{
	long long v;

	(void)value;
	if (parse_ll(arg, &v) || v < 2 || v > 100000)
		return error("%s: '%s' is not a number of runs from 2 to "
			     "100000", opt, escape_quote(arg));
	*(int *)field = (int)v;
	return 0;
}

#define FIELD(f) offsetof(struct bisect_args, f)

static const struct opt bisect_rows[] = {
	{ NULL, 0, "CONFIG.ini", "the experiment run on the booted kernel",
	  NULL, FIELD(config), 0, 0 },
	{ "baseline", 0, "SELECTOR", "the good kernel's experiments, "
	  "several boots (" SELECTOR_TEXT ")", NULL, FIELD(baseline), 0, 0 },
	{ "regression", 0, "PCT", "the regression hunted, in percent of the "
	  "primary metric (5 or 5%)", opt_percent, FIELD(spec.pct), 0, 0 },
	DB_ROW(FIELD(db)),
	{ "label", 0, "L", "this step's label (default bisect)", NULL,
	  FIELD(label), 0, 0 },
	{ "alpha", 0, "A", "probability of calling an unchanged kernel bad "
	  "(default 0.05)", set_rate, FIELD(spec.alpha), 0, 0 },
	{ "beta", 0, "B", "probability of calling a kernel that regressed "
	  "by PCT good (default 0.10)", set_rate, FIELD(spec.beta), 0, 0 },
	{ "look-every", 0, "N", "runs between looks, and before the first "
	  "(default 5)", set_runs, FIELD(spec.look_every), 0, 0 },
	{ "max-runs", 0, "N", "runs per configuration before giving up: "
	  "exit 125 (default 40)", set_runs, FIELD(spec.max_runs), 0, 0 },
	{ "confirm", 0, NULL, "run a bad decision again; bad only when both "
	  "say so", NULL, FIELD(confirm), 0, 0 },
	{ "dry-run", 0, NULL, "check the config and the baseline, print "
	  "them, run nothing", NULL, FIELD(dry_run), 0, 0 },
	{ "quiet", 'q', NULL, "no progress on stderr", NULL, FIELD(quiet), 0,
	  0 },
};

const struct opt_cmd bisect_cli = {
	"bisect", "one step of git bisect run: is the booted kernel bad?",
	bisect_rows, ARRAY_SIZE(bisect_rows),
	"Exit 1 (bad) when a regression of PCT against the baseline is "
	"shown, 0 (good) when it is ruled out, 125 (skip) when the runs "
	"reach --max-runs first; 2 for bad input, 130 when interrupted (the "
	"runs so far stay stored; run the command again for a decision). "
	"Sequential: looks after every --look-every runs, and the error "
	"rates --alpha and --beta hold over all the looks.",
};

/* ---- the baseline ---- */

/* The logs of configuration (workload, canon)'s metric in dataset d,
 * appended to *x; how many. */
static size_t group_of(const struct dataset *d, const char *workload,
		       const char *canon, const char *metric, double **x,
		       size_t *nx)
{
	int m = dataset_metric(d, metric);
	size_t c, r, n = 0;

	for (c = 0; m >= 0 && c < d->nconfigs; c++) {
		const struct ds_config *cf = &d->configs[c];

		if (strcmp(cf->workload, workload) || strcmp(cf->canon, canon))
			continue;
		*x = xrealloc(*x, (*nx + cf->nruns + 1) * sizeof(**x));
		for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
			double v = dataset_value(d, r, m);

			if (d->runs[r].status == RUN_OK && !d->runs[r].warmup &&
			    isfinite(v) && v > 0)
				(*x)[(*nx)++] = log(v), n++;
		}
	}
	return n;
}

/* Entry e's baseline from the datasets: 0, or -1 after error(). */
static int baseline_of(const struct config_entry *e, const struct dataset *ds,
		       size_t nds, struct seq_baseline *b)
{
	const char *metric = config_primary_metric(e);
	size_t *sizes = xcalloc(nds + 1, sizeof(*sizes)), i, k = 0, nx = 0;
	double *x = NULL;
	struct nested nest;
	int ret = 0;

	for (i = 0; i < nds; i++) {
		size_t n = group_of(&ds[i], e->wl->name, e->canon, metric, &x,
				    &nx);

		if (n)
			sizes[k++] = n;
	}
	if (k < 2 || nx < k + 1 || stats_nested(x, sizes, k, &nest)) {
		ret = error("bisect: the baseline has %zu boot%s of [%s] with "
			    "%s values: bisect needs two or more boots of the "
			    "good kernel, each with runs", k, k == 1 ? "" : "s",
			    e->section, metric);
		goto out;
	}
	*b = (struct seq_baseline){
		.k = k, .n0 = (double)nx / (double)k, .mean = nest.mean,
		.msb = nest.anova.ms_between, .df_b = (double)(k - 1),
		.ssw = nest.anova.ms_within * (double)(nx - k),
		.df_w = (double)(nx - k),
	};
out:
	free(sizes);
	free(x);
	return ret;
}

/* Every entry's baseline from the selector: 0, or an exit status. */
static int baselines(struct runner *r, const struct bisect_args *a)
{
	struct selector sel;
	struct store *s = NULL;
	int64_t *ids = NULL;
	struct dataset *ds = NULL;
	size_t n = 0, i, loaded = 0;
	char err[512] = "";
	int ret;

	ret = select_open(a->baseline, a->db ? a->db : store_default_path(),
			  &sel, &s, &ids, &n, err, sizeof(err));
	if (ret) {
		if (*err)
			error("bisect: --baseline: %s", err);
		select_release(&sel);
		return ret;
	}
	ds = xcalloc(n + 1, sizeof(*ds));
	for (i = 0; i < n && !ret; i++, loaded++)
		if (store_load(s, ids[i], &ds[i]))
			ret = EXIT_RUNTIME;
	for (i = 0; i < r->cfg.nentries && !ret; i++) {
		const struct config_entry *e = &r->cfg.entries[i];
		enum direction dir = metric_direction(config_primary_metric(e));
		struct seq_baseline b;

		if (dir == DIR_UNKNOWN) {
			error("bisect: [%s]: whether more %s is better is not "
			      "known: set `primary` or `direction` in %s",
			      e->section, config_primary_metric(e), a->config);
			ret = EXIT_USAGE;
		} else if (baseline_of(e, ds, loaded, &b)) {
			ret = EXIT_USAGE;
		} else {
			bisect_baseline(r, i, &b, dir == DIR_HIGHER ? 1 : -1);
		}
	}
	for (i = 0; i < loaded; i++)
		dataset_release(&ds[i]);
	free(ds);
	free(ids);
	store_close(s);
	select_release(&sel);
	return ret;
}

/* ---- the decision ---- */

static void print_entry(const struct runner *r, size_t c)
{
	const struct bisect_entry *b = &r->bisect[c];
	const struct seq_look *l = &b->last;
	const struct config_entry *e = &r->cfg.entries[c];
	struct calib_profile p;
	int64_t from;
	char pct[64];

	/* the loss as a share of the baseline: r = log(base / cand) */
	numfmt_pct_ci(pct, sizeof(pct), -100 * expm1(-l->regression),
		      -100 * expm1(-l->ci_low), -100 * expm1(-l->ci_high));
	fprintf(stderr, "  [%s] %s: regression %s (%g%% CI) after %zu runs, "
			"%d look%s; baseline %zu boots of %.3g runs\n",
		r->cfg.entries[c].section, seq_decision_names[l->decision],
		pct, 100 * (1 - 2 * b->design.alpha), l->n, b->st.looks,
		b->st.looks == 1 ? "" : "s", b->base.k, b->base.n0);
	/* this host's own A/A profile, where `contend calibrate` left one */
	if (!calib_find(r->st, experiment_meta(&r->exp, MK_HOSTNAME),
			e->wl->name, e->canon, &p, &from)) {
		char *line = calib_sentence(&p, from);

		fprintf(stderr, "    %s\n", line);
		free(line);
	}
}

/* One experiment: its decision as an exit status (0, 1, 125) or error. */
static int step(const struct bisect_args *a, const char *label)
{
	struct runner_opts ro = { .db = a->db, .label = label,
				  .quiet = a->quiet, .bisect = &a->spec };
	struct runner r;
	size_t c, bad = 0, good = 0;
	int ret = runner_load(&r, &ro, a->config);

	if (!ret)
		ret = baselines(&r, a);
	if (!ret && a->dry_run) {
		for (c = 0; c < r.cfg.nentries; c++)
			printf("[%s] baseline: %zu boots, %.3g runs each; "
			       "looks every %d runs up to %d\n",
			       r.cfg.entries[c].section, r.bisect[c].base.k,
			       r.bisect[c].base.n0, a->spec.look_every,
			       a->spec.max_runs);
		goto out;
	}
	if (!ret)
		ret = runner_fresh(&r);
	if (ret == EXIT_INTERRUPTED) {
		error("bisect: interrupted; experiment %lld keeps the runs so "
		      "far: run the same command again for a decision",
		      (long long)r.exp.id);
		goto out;
	}
	if (ret && r.exp.id <= 0)
		goto out;
	for (c = 0; c < r.cfg.nentries; c++) {
		bad += r.bisect[c].last.decision == SEQ_BAD;
		good += r.bisect[c].last.decision == SEQ_GOOD;
	}
	ret = bad ? 1 : good == r.cfg.nentries ? 0 : EXIT_SKIP;
	store_meta_set(r.st, r.exp.id, "bisect.decision",
		       ret == 1 ? "bad" : ret == 0 ? "good" : "skip");
	fprintf(stderr, "contend: bisect: experiment %lld: %s (exit %d)\n",
		(long long)r.exp.id, ret == 1 ? "bad" : ret == 0 ? "good" :
		"can't tell: skip", ret);
	for (c = 0; c < r.cfg.nentries; c++)
		print_entry(&r, c);
out:
	runner_release(&r);
	return ret;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_args a = { .label = "bisect",
				 .spec = { .alpha = 0.05, .beta = 0.10,
					   .look_every = 5, .max_runs = 40 } };
	char *again;
	int p, ret;

	p = opt_parse(&bisect_cli, argc, argv, &a);
	if (p)
		return opt_exit(p);
	if (!a.baseline || !(a.spec.pct > 0)) {
		error("bisect: --baseline SELECTOR and --regression PCT are "
		      "both needed");
		return EXIT_USAGE;
	}
	a.spec.pct /= 100; /* a fraction from here on */
	if (a.spec.max_runs < a.spec.look_every) {
		error("bisect: --max-runs %d is below --look-every %d",
		      a.spec.max_runs, a.spec.look_every);
		return EXIT_USAGE;
	}
	ret = step(&a, a.label);
	if (ret != 1 || !a.confirm || a.dry_run)
		return ret;
	/* KernelCI's rule: a bad result stands when it repeats */
	again = xasprintf("%s-confirm", a.label);
	ret = step(&a, again);
	free(again);
	if (ret == 1)
		return 1;
	if (ret == 0 || ret == EXIT_SKIP) {
		fprintf(stderr, "contend: bisect: the confirmation did not "
				"repeat the bad decision: skip (exit 125)\n");
		return EXIT_SKIP;
	}
	return ret;
}
