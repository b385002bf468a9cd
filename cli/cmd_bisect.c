/*
 * cmd_bisect.c - `contend bisect CONFIG.ini --baseline SELECTOR
 * --regression PCT`: one step of `git bisect run`.  Runs CONFIG's
 * experiment on the booted kernel in rounds, and after every look the
 * sequential decision of lib/seqtest.h against the stored baseline (the
 * good kernel's boots, analysis/bisectbase.h): bad (exit 1), good (exit
 * 0) or, at the cap, can't tell (exit 125, git bisect's skip); anything
 * that is not a decision exits 128 or more (lib/util.h), so that git
 * aborts instead of blaming a commit.  The experiment and every look are
 * stored (runner/bisect.h).  docs/AB-KERNEL.md has the workflow.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "analysis/bisectbase.h"
#include "lib/escape.h"
#include "analysis/calibrate.h"
#include "cli/commands.h"
#include "db/select.h"
#include "db/contract.h"
#include "db/store.h"
#include "db/vocab.h"
#include "lib/escape.h"
#include "lib/numfmt.h"
#include "lib/util.h"
#include "runner/bisect.h"
#include "runner/session.h"

struct bisect_args {
	const char *config, *db, *label, *baseline, *regression;
	struct bisect_spec spec;
	bool confirm, dry_run, quiet, cont;
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
	{ "continue", 0, NULL, "after a reboot into the same kernel: add the "
	  "runs of its skipped steps (this label, this kernel release and "
	  "version) as earlier boots of the candidate", NULL, FIELD(cont), 0,
	  0 },
	{ "dry-run", 0, NULL, "check the config and the baseline, print "
	  "them, run nothing", NULL, FIELD(dry_run), 0, 0 },
	{ "quiet", 'q', NULL, "no progress on stderr", NULL, FIELD(quiet), 0,
	  0 },
};

const struct opt_cmd bisect_cli = {
	"bisect", "one step of git bisect run: is the booted kernel bad?",
	bisect_rows, ARRAY_SIZE(bisect_rows),
	"Exit 1 (bad) when a loss against the baseline is shown (any loss, "
	"or runs that collapse: fail or give 0 where the baseline's did "
	"not), 0 (good) when a loss of PCT is ruled out, 125 (skip) when "
	"the runs reach --max-runs first; 128 for bad input, 129 for a "
	"database or I/O error, 130 when interrupted (run the same command "
	"again), so that git bisect run stops instead of blaming a commit. "
	"Sequential: looks after every --look-every runs, and the error "
	"rates --alpha and --beta hold over all the looks.",
};

/* ---- the baseline ---- */

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
		enum direction dir = config_direction(e,
						      config_primary_metric(e));
		struct seq_baseline b;

		if (dir == DIR_UNKNOWN) {
			error("bisect: [%s]: whether more %s is better is not "
			      "known: set `primary` or `direction` in %s",
			      e->section, config_primary_metric(e), a->config);
			ret = EXIT_USAGE;
		} else if (bisect_base_of(ds, loaded, e->wl->name, e->canon,
					  config_primary_metric(e), e->section,
					  &b)) {
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

/* Is d an earlier step of this label that skipped on the kernel u? */
static bool skipped_here(const struct dataset *d, const struct utsname *u)
{
	const char *dec = experiment_meta(&d->exp, BISECT_DECISION);
	const char *rel = experiment_meta(&d->exp, MK_KERNEL_RELEASE);
	const char *ver = experiment_meta(&d->exp, MK_KERNEL_VERSION);

	return dec && !strcmp(dec, "skip") && rel && !strcmp(rel, u->release) &&
	       ver && !strcmp(ver, u->version);
}

/* The datasets of --continue's earlier steps into ds (n of them): 0, or
 * an exit status after its message. */
static int earlier_steps(const struct bisect_args *a, struct dataset **ds,
			 size_t *n)
{
	struct selector sel;
	struct store *s = NULL;
	int64_t *ids = NULL;
	size_t nids = 0, i;
	struct utsname u;
	char err[512] = "";
	int ret;

	*ds = NULL;
	*n = 0;
	if (uname(&u)) {
		error("bisect: --continue: uname failed");
		return EXIT_RUNTIME;
	}
	ret = select_open(a->label, a->db ? a->db : store_default_path(), &sel,
			  &s, &ids, &nids, err, sizeof(err));
	*ds = xcalloc(nids + 1, sizeof(**ds));
	for (i = 0; !ret && i < nids; i++) {
		if (store_load(s, ids[i], &(*ds)[*n]))
			ret = EXIT_RUNTIME;
		else if (skipped_here(&(*ds)[*n], &u))
			(*n)++;
		else
			dataset_release(&(*ds)[*n]);
	}
	if (!ret && !*n) {
		error("bisect: --continue: no step labelled '%.80s' skipped on "
		      "this kernel (%.60s %.60s)", a->label, u.release,
		      u.version);
		ret = EXIT_USAGE;
	} else if (ret && *err) {
		error("bisect: --continue: %s", err);
	}
	free(ids);
	store_close(s);
	select_release(&sel);
	return ret;
}

/* --continue: every entry's earlier boots; 0, or an exit status. */
static int priors(struct runner *r, const struct bisect_args *a)
{
	struct dataset *ds;
	size_t n, i;
	int ret = earlier_steps(a, &ds, &n);

	for (i = 0; !ret && i < r->cfg.nentries; i++) {
		const struct config_entry *e = &r->cfg.entries[i];
		struct seq_prior p;

		bisect_prior_of(ds, n, e->wl->name, e->canon,
				config_primary_metric(e), &p);
		bisect_prior(r, i, &p);
	}
	if (!ret && !a->quiet)
		fprintf(stderr, "contend: bisect: continuing %zu earlier "
				"step%s of this kernel\n", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		dataset_release(&ds[i]);
	free(ds);
	return ret;
}

/* ---- the decision ---- */

/* A loss in percent of the baseline from r = log(base / cand). */
static double loss_pct(double r)
{
	return -100 * expm1(-r);
}

/* A skip: what would decide, at the baseline's between-boot variance. */
static void print_more_boots(const struct bisect_entry *b)
{
	size_t need = seq_boots_needed(&b->base, &b->design);
	size_t have = b->prior.boots + 1;

	if (!need)
		fprintf(stderr, "    more boots of this kernel cannot decide at "
				"this host's between-boot\n    variance: "
				"the baseline needs more boots of the good "
				"kernel\n");
	else
		fprintf(stderr, "    boot this kernel again and rerun with "
				"--continue: about %zu more boot%s\n    at "
				"this host's between-boot variance would "
				"decide\n", need > have ? need - have : 1,
			need > have + 1 ? "s" : "");
}

/* Why entry c's decision is what it is, in words (the rule, collapses,
 * zero spread, a loss between 0 and PCT). */
static void print_why(const struct bisect_entry *b, double pct)
{
	const struct seq_look *l = &b->last;
	double lo = loss_pct(l->ci_low), hi = loss_pct(l->ci_high);
	double est = loss_pct(l->regression);
	char x[NUMFMT_LEN], y[NUMFMT_LEN], p[NUMFMT_LEN];

	numfmt_sig(p, sizeof(p), pct, 3);
	fprintf(stderr, "    the rule: bad when a loss is shown, good when a "
			"loss of %s%% is ruled out\n", p);
	if (l->collapsed || !isnan(l->p_collapse))
		fprintf(stderr, "    collapsed runs (failed, or not above 0): "
				"%zu of %zu; the baseline's %zu of %zu\n%s",
			l->collapsed, l->n + l->collapsed, b->base.collapsed,
			b->base.runs, l->reason == SEQ_BY_COLLAPSE ?
			"    more than chance allows (Fisher's exact test): "
			"bad\n" : l->decision == SEQ_GOOD ? "" :
			"    more often than the baseline: it cannot be "
			"good\n");
	if (l->reason == SEQ_BY_EXACT)
		fprintf(stderr, "    every run of both sides gave the same "
				"value: the difference is exact\n");
	if (l->decision == SEQ_CAP)
		print_more_boots(b);
	if (l->reason != SEQ_BY_LEVEL || !(est > 0 && est < pct))
		return;
	numfmt_sig(x, sizeof(x), fmax(0, lo), 2);
	numfmt_sig(y, sizeof(y), hi, 2);
	if (l->decision == SEQ_BAD)
		fprintf(stderr, "    a loss of %s-%s%% is likely, below the "
				"%s%% hunted; bad only because\n    the rule "
				"calls any loss that is shown bad\n", x, y, p);
	else if (l->decision == SEQ_GOOD && hi < pct)
		fprintf(stderr, "    a loss of up to %s%% is possible; good "
				"because %s%% is ruled out\n", y, p);
	else if (l->decision == SEQ_GOOD)
		/* good rules PCT out at --beta, the interval is 1 - 2 alpha */
		fprintf(stderr, "    a loss below %s%% is likely; good because "
				"%s%% is ruled out at --beta\n", p, p);
}

static void print_entry(const struct runner *r, size_t c, double pct)
{
	const struct bisect_entry *b = &r->bisect[c];
	const struct seq_look *l = &b->last;
	const struct config_entry *e = &r->cfg.entries[c];
	struct calib_profile p;
	int64_t from;
	char ci[NUMFMT_CI_LEN], x[NUMFMT_LEN];
	char *sec = escape_text_dup(e->section);

	if (l->n >= 2 && l->reason == SEQ_BY_EXACT)
		snprintf(ci, sizeof(ci), "%s (exact)",
			 numfmt_pct(x, sizeof(x), loss_pct(l->regression)));
	else if (l->n >= 2)
		numfmt_pct_ci(ci, sizeof(ci), loss_pct(l->regression),
			      loss_pct(l->ci_low), loss_pct(l->ci_high));
	else
		snprintf(ci, sizeof(ci), "unknown (%zu values)", l->n);
	if (l->n >= 2 && l->reason != SEQ_BY_EXACT)
		snprintf(x, sizeof(x), " (%g%% CI)",
			 100 * (1 - 2 * b->design.alpha));
	else
		*x = 0;
	fprintf(stderr, "  [%.40s] %s: regression %s%s\n"
			"    after %zu runs, %d look%s%s; baseline %zu boots of "
			"%.3g runs\n", sec ? sec : "?",
		seq_decision_names[l->decision], ci, x, l->n + l->collapsed,
		b->st.looks, b->st.looks == 1 ? "" : "s",
		b->prior.j ? " (and earlier boots)" : "", b->base.k,
		b->base.n0);
	free(sec);
	if (b->prior.boots)
		fprintf(stderr, "    boot %zu of this kernel: bad at alpha %.2g, "
				"good at beta %.2g\n    (the step's alpha "
				"and beta are shared over its boots)\n",
			b->prior.boots + 1,
			seq_boot_level(b->design.alpha, b->prior.boots + 1),
			seq_boot_level(b->design.beta, b->prior.boots + 1));
	print_why(b, pct);
	/* this host's own A/A profile, where `contend calibrate` left one */
	if (!calib_find(r->st, experiment_meta(&r->exp, MK_HOSTNAME),
			e->wl->name, e->canon, &p, &from)) {
		char *line = calib_cite(&p, NULL, from, 0);

		fprintf(stderr, "    %s\n", line);
		free(line);
	}
}

/* The step's decision from its entries: 1 bad, 0 good, 125 skip. */
static int decision_of(const struct runner *r)
{
	size_t c, bad = 0, good = 0;

	for (c = 0; c < r->cfg.nentries; c++) {
		bad += r->bisect[c].last.decision == SEQ_BAD;
		good += r->bisect[c].last.decision == SEQ_GOOD;
	}
	return bad ? EXIT_BISECT_BAD : good == r->cfg.nentries ?
		EXIT_BISECT_GOOD : EXIT_BISECT_SKIP;
}

static void print_plan(const struct runner *r, const struct bisect_args *a)
{
	size_t c;

	for (c = 0; c < r->cfg.nentries; c++)
		printf("[%s] baseline: %zu boots, %.3g runs each; looks every "
		       "%d runs up to %d\n", r->cfg.entries[c].section,
		       r->bisect[c].base.k, r->bisect[c].base.n0,
		       a->spec.look_every, a->spec.max_runs);
}

/*
 * One experiment.  Returns 0 with its decision in *dec (0, 1, 125), or
 * the status of what stopped it, in the project's table (lib/util.h).
 */
static int step(const struct bisect_args *a, const char *label, int *dec)
{
	struct runner_opts ro = { .db = a->db, .label = label,
				  .quiet = a->quiet, .bisect = &a->spec };
	struct runner r;
	size_t c;
	int ret = runner_load(&r, &ro, a->config);

	if (!ret)
		ret = baselines(&r, a);
	if (!ret && a->cont)
		ret = priors(&r, a);
	if (!ret && a->dry_run) {
		print_plan(&r, a);
		*dec = EXIT_BISECT_GOOD;
		goto out;
	}
	if (!ret)
		ret = runner_fresh(&r);
	/* one instruction: a step is not resumed (its looks are its own) */
	if (ret == EXIT_INTERRUPTED)
		error("bisect: interrupted, no decision: run the same command "
		      "again");
	if (ret)
		goto out;
	*dec = decision_of(&r);
	if (store_meta_set(r.st, r.exp.id, BISECT_DECISION,
			   *dec == EXIT_BISECT_BAD ? "bad" :
			   *dec == EXIT_BISECT_GOOD ? "good" : "skip")) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	fprintf(stderr, "contend: bisect: experiment %lld: %s (exit %d)\n",
		(long long)r.exp.id, *dec == EXIT_BISECT_BAD ? "bad" :
		*dec == EXIT_BISECT_GOOD ? "good" : "can't tell: skip", *dec);
	for (c = 0; c < r.cfg.nentries; c++)
		print_entry(&r, c, 100 * a->spec.pct);
out:
	runner_release(&r);
	return ret;
}

/* A status of the project's table that is not a decision, in git bisect
 * run's terms: 128 or more, so that git stops. */
static int not_a_decision(int status)
{
	if (status == EXIT_USAGE)
		return EXIT_BISECT_USAGE;
	if (status == EXIT_INTERRUPTED)
		return EXIT_BISECT_INTERRUPTED;
	return EXIT_BISECT_RUNTIME;
}

/* The step, confirmed under --confirm: a decision or not_a_decision. */
static int decide(struct bisect_args *a)
{
	char *again;
	int dec = EXIT_BISECT_SKIP, ret;

	ret = step(a, a->label, &dec);
	if (ret)
		return not_a_decision(ret);
	if (dec != EXIT_BISECT_BAD || !a->confirm || a->dry_run)
		return dec;
	/* KernelCI's rule: a bad result stands when it repeats */
	again = xasprintf("%s-confirm", a->label);
	ret = step(a, again, &dec);
	free(again);
	if (ret)
		return not_a_decision(ret);
	if (dec != EXIT_BISECT_BAD) {
		fprintf(stderr, "contend: bisect: the confirmation did not "
				"repeat the bad decision: skip (exit 125)\n");
		return EXIT_BISECT_SKIP;
	}
	return dec;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect_args a = { .label = "bisect",
				 .spec = { .alpha = 0.05, .beta = 0.10,
					   .look_every = 5, .max_runs = 40 } };
	int p, ret;

	p = opt_parse(&bisect_cli, argc, argv, &a);
	if (p)
		return p == OPT_HELP ? 0 : EXIT_BISECT_USAGE;
	if (!a.baseline || !(a.spec.pct > 0)) {
		error("bisect: --baseline SELECTOR and --regression PCT are "
		      "both needed");
		return EXIT_BISECT_USAGE;
	}
	a.spec.pct /= 100; /* a fraction from here on */
	if (a.spec.max_runs < a.spec.look_every) {
		error("bisect: --max-runs %d is below --look-every %d",
		      a.spec.max_runs, a.spec.look_every);
		return EXIT_BISECT_USAGE;
	}
	ret = decide(&a);
	/* main would turn a failed write to stdout into 1, "bad" */
	if (fflush(stdout) || ferror(stdout)) {
		error("bisect: cannot write to standard output");
		clearerr(stdout);
		return EXIT_BISECT_RUNTIME;
	}
	return ret;
}
