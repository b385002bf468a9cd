/*
 * start.c - starting a session (session.h): a fresh experiment from its
 * config (seed, plan, the experiment row with what analysis needs stored
 * as data, calibration, the plan written in one transaction), or a stored
 * one resumed (its config expanded again, its plan restored).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "db/contract.h"
#include "db/store.h"
#include "lib/escape.h"
#include "runner/hook.h"
#include "runner/host.h"
#include "runner/kstate.h"
#include "runner/interrupt.h"
#include "runner/kinstr/bpf.h"
#include "runner/kinstr/count.h"
#include "runner/scratch.h"
#include "runner/session.h"
#include "runner/spawn.h"
#include "runner/workloads/harness.h"
#include "lib/wrap.h"
#include "lib/util.h"

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

int runner_check_hooks(const struct runner *r)
{
	const struct config_entry *prev = NULL;
	char why[512], last[512] = "";
	const char *lastsec = NULL;
	int ret = 0;

	for (size_t i = 0; i < r->cfg.nentries; prev = &r->cfg.entries[i++]) {
		const struct config_entry *e = &r->cfg.entries[i];
		const char *text[2] = { e->prepare, e->cleanup };
		const char *was[2] = { prev ? prev->prepare : NULL,
				       prev ? prev->cleanup : NULL };
		static const char *const what[2] = { "prepare", "cleanup" };

		for (int k = 0; k < 2; k++) {
			/* a hook as the previous configuration's: checked */
			if (!text[k] || (was[k] && !strcmp(was[k], text[k])))
				continue;
			if (!hook_check(what[k], text[k], why, sizeof(why)))
				continue;
			ret = EXIT_USAGE;
			if (lastsec && !strcmp(lastsec, e->section) &&
			    !strcmp(last, why))
				continue; /* said for this section */
			error_at(r->cfg.path, e->line, "[workload %s] %s: "
				 "every run of the configuration would fail "
				 "on it", e->section, why);
			lastsec = e->section;
			snprintf(last, sizeof(last), "%s", why);
		}
	}
	return ret;
}

void runner_print_plan(const struct runner *r, FILE *f)
{
	size_t i, jobs = 0, nauto = 0;
	double secs = 0;
	char d[32], *t, *u;

	for (i = 0; i < r->plan.nruns; i++) {
		double rt = r->cfg.entries[r->plan.runs[i].config].set.runtime_s;

		secs += rt;
		jobs += rt <= 0;
	}
	for (i = 0; i < r->cfg.nentries; i++)
		nauto += entry_is_auto(&r->cfg.entries[i]);
	fmt_duration(d, sizeof(d), secs);
	fprintf(f, "\nplan: %zu runs in %s order with seed %" PRIu64 "%s\n",
		r->plan.nruns, order_names[r->cfg.order], r->cfg.seed,
		r->cfg.has_seed ? "" : " (drawn for this dry run only)");
	u = jobs ? xasprintf(" plus %zu fixed-work runs of unknown length",
			     jobs) : xstrdup("");
	t = xasprintf("%s of measured windows%s, plus process start-up per "
		      "run", d, u);
	wrap_lead(f, "time: ", t, 6, 78);
	free(t);
	free(u);
	/* what a run would do: the instrument it chose, and why not others */
	t = *r->kinstr_skipped ? xasprintf("%s (not %s)",
					   kinstr_names[r->kinstr],
					   r->kinstr_skipped)
			       : xstrdup(kinstr_names[r->kinstr]);
	wrap_lead(f, "kernel instrument: ", t, 19, 78);
	free(t);
	if (nauto)
		fprintf(f, "auto: %zu configuration%s start with "
			   "min_repetitions and grow by rounds until the "
			   "precision is reached or max_repetitions\n",
			nauto, nauto == 1 ? "" : "s");
	for (i = 0; i < r->plan.nruns && i < 20; i++) {
		const struct plan_run *p = &r->plan.runs[i];

		/* the configuration by its number in the list above */
		fprintf(f, "  %4ld  %s #%d  config %zu [%s]\n", p->seq,
			p->warmup ? "warm-up " : "measured", p->repetition,
			p->config + 1, r->cfg.entries[p->config].section);
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

/* Contract key k of section = the number v, to be read back exactly. */
static void meta_num(struct experiment_row *x, enum contract_key k,
		     const char *section, double v)
{
	char num[32];

	snprintf(num, sizeof(num), "%.17g", v);
	contract_set(x, k, section, NULL, num);
}

/*
 * How a section's measured runs were counted: repetitions.SECTION = N or
 * `auto`, and for auto the settings of its stopping rule,
 * auto.SECTION.precision, .min_repetitions and .max_repetitions (the
 * confidence is the experiment's), with which the report says why it
 * stopped (analysis/auto.c).
 */
static void counted_by(struct experiment_row *x, const struct config_entry *e)
{
	char num[16];

	snprintf(num, sizeof(num), "%d", e->set.repetitions);
	contract_set(x, CK_REPETITIONS, e->section, NULL,
		     entry_is_auto(e) ? CV_AUTO : num);
	if (!entry_is_auto(e))
		return;
	meta_num(x, CK_AUTO_PRECISION, e->section, e->set.precision);
	meta_num(x, CK_AUTO_MIN, e->section, e->set.min_repetitions);
	meta_num(x, CK_AUTO_MAX, e->section, e->set.max_repetitions);
}

/*
 * What analysis judges each section by, stored as data with the
 * experiment (analysis does not read config files): primary.SECTION,
 * direction.SECTION.METRIC and counted_by's keys (db/contract.h).  A
 * section's configurations are consecutive and share these.
 */
static void judged_by(struct runner *r)
{
	size_t i, j;

	for (i = 0; i < r->cfg.nentries; i++) {
		const struct config_entry *e = &r->cfg.entries[i];

		if (i && !strcmp(e->section, r->cfg.entries[i - 1].section))
			continue;
		contract_set(&r->exp, CK_PRIMARY, e->section, NULL, e->primary);
		counted_by(&r->exp, e);
		for (j = 0; j < e->ndirections; j++) {
			const char *eq = strchr(e->directions[j], '=');
			char *metric = xstrndup(e->directions[j],
						(size_t)(eq - e->directions[j]));

			contract_set(&r->exp, CK_DIRECTION, e->section, metric,
				     eq + 1);
			free(metric);
		}
	}
}

static void experiment_fill(struct runner *r, const char *seed_source)
{
	struct experiment_row *e = &r->exp;
	const char *ncpus;
	char *log;

	memset(e, 0, sizeof(*e));
	e->name = xstrdup(r->cfg.name ? r->cfg.name : "");
	e->label = xstrdup(r->o->label ? r->o->label : "");
	/* absolute, so that compare's calibrate hint (which shows it and
	 * never opens it) runs from anywhere */
	e->config_path = r->cfg.path ? realpath(r->cfg.path, NULL) : NULL;
	if (!e->config_path)
		e->config_path = xstrdup(r->cfg.path ? r->cfg.path : "");
	e->config_text = xstrdup(r->cfg.text ? r->cfg.text : "");
	e->seed = r->cfg.seed;
	e->order = xstrdup(order_names[r->cfg.order]);
	e->confidence = r->cfg.confidence;
	e->status = xstrdup("planned");
	e->created_at = now_realtime();
	host_collect("/", e);
	kstate_collect("/", true, e);
	instrument_meta(r);
	ncpus = experiment_meta(e, MK_NCPUS);
	log = host_kernel_log(1 << 20);
	meta_set(e, MK_KERNEL_SPIN_VISIBLE,
		 kcount_spin_visible(ncpus ? strtol(ncpus, NULL, 10) : 0, log));
	free(log);
	fs_types(r);
	meta_set(e, MK_SEED_SOURCE, seed_source);
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
	else if (n == 1 && !store_meta_get(r->st, ids[0], MK_CALIBRATION, &v)) {
		if (v && !harness_calibration_parse(v, lpus))
			ret = 0;
		else
			error("--calibration-from: experiment %" PRId64 " has "
			      "no calibration stored (%s)", ids[0],
			      MK_CALIBRATION);
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
	meta_set(&r->exp, MK_CALIBRATION, r->calibration);
	meta_set(&r->exp, MK_CALIBRATION_SOURCE, source);
	free(source);
	return 0;
}

/* The stored calibration of a resumed experiment ("" when it has none:
 * it was made before calibrations were stored, and its runs measure). */
static void resume_calibration(struct runner *r)
{
	const char *v = experiment_meta(&r->exp, MK_CALIBRATION);
	double lpus;

	if (v && !harness_calibration_parse(v, &lpus))
		snprintf(r->calibration, sizeof(r->calibration), "%s", v);
}
/* ---- fresh and resumed experiments ---- */

void runner_release(struct runner *r)
{
	plan_release(&r->plan);
	config_release(&r->cfg);
	experiment_row_release(&r->exp);
	autorule_release(&r->autorule);
	free(r->config_ids);
	free(r->bisect);
	free(r->by_id);
	kbpf_close(r->kbpf);
	if (r->st)
		store_close(r->st);
	memset(r, 0, sizeof(*r));
	r->stop_fd = -1;
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

/* Returns 0, or the exit status of the failure (store_exit_status). */
static int open_store(struct runner *r, unsigned flags)
{
	const char *path = r->o->db ? r->o->db : store_default_path();
	bool fresh = !r->o->db && (flags & STORE_CREATE) && access(path, F_OK);
	int ret;

	/* What leaves a run's process group is ours to kill (spawn.h). */
	r->stop_fd = interrupt_install();
	if (r->stop_fd < 0 || spawn_subreaper())
		return EXIT_RUNTIME;
	/* the default database is made where it belongs, on the first run */
	if (fresh && store_make_parent(path))
		return EXIT_RUNTIME;
	ret = store_open(path, flags, &r->st);
	if (ret)
		return store_exit_status(ret);
	if (fresh)
		fprintf(stderr, "contend: created the database %s (--db PATH or "
				"$CONTEND_DB choose another)\n",
			escape_quote(path));
	/* The runner appends a run at a time: a small page cache does. */
	return store_cache_limit(r->st, RUNNER_CACHE_KIB) ? EXIT_RUNTIME : 0;
}

int runner_load(struct runner *r, const struct runner_opts *o,
		const char *path)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->stop_fd = -1;
	/* The whole config is checked before any database is touched. */
	if (config_load(path, &r->cfg))
		return EXIT_USAGE;
	if (r->cfg.offline && !o->dry_run) {
		error_at(r->cfg.path, r->cfg.offline_line, "%s",
			 r->cfg.offline);
		return EXIT_USAGE;
	}
	if (r->cfg.offline)
		warning("%s:%ld: %s", r->cfg.path, r->cfg.offline_line,
			r->cfg.offline);
	ret = choose_instrument(r);
	if (ret)
		return ret;
	r->seed_source = choose_seed(r);
	if (o->bisect)
		bisect_prepare(r);
	autorule_init(&r->autorule, &r->cfg);
	return build_plan(r) ? EXIT_USAGE : 0;
}

int runner_fresh(struct runner *r)
{
	/* before the database is opened (or created): refused, it is not */
	int ret = instrument_open(r);

	if (!ret)
		ret = open_store(r, STORE_CREATE);
	if (ret)
		return ret;
	experiment_fill(r, r->seed_source);
	if (choose_calibration(r))
		return EXIT_USAGE;
	host_warn(&r->exp);
	if (write_plan(r))
		return EXIT_RUNTIME;
	if (!r->o->quiet)
		fprintf(stderr, "contend: experiment %" PRId64 " (%s): %zu runs "
				"planned, seed %" PRIu64 "\n", r->exp.id,
			escape_quote(r->exp.uuid), r->plan.nruns, r->cfg.seed);
	return runner_execute(r);
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

/* The session of the stored experiment r->exp, or the exit status. */
static int resume_load(struct runner *r)
{
	struct dataset d;
	int ret = EXIT_RUNTIME;

	if (config_load_buffer(r->exp.config_path, r->exp.config_text,
			       strlen(r->exp.config_text), &r->cfg))
		return EXIT_RUNTIME;
	if (r->cfg.offline) {
		error_at(r->cfg.path, r->cfg.offline_line, "%s",
			 r->cfg.offline);
		return EXIT_USAGE;
	}
	ret = choose_instrument(r);
	if (ret)
		return ret;
	ret = EXIT_RUNTIME;
	/* The earlier runs are read once, for the plan and the auto rule. */
	if (!store_load(r->st, r->exp.id, &d)) {
		if (!restore(r, &d)) {
			autorule_restore(&r->autorule, &r->cfg, &d);
			ret = 0;
		}
		dataset_release(&d);
	}
	return ret;
}

int runner_resume(struct runner *r, const struct runner_opts *o,
		  const char *selector)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->stop_fd = -1;
	ret = open_store(r, 0);
	if (ret)
		return ret;
	if (find_experiment(r, selector))
		return EXIT_USAGE;
	if (!strcmp(r->exp.status, "complete")) {
		fprintf(stderr, "contend: experiment %" PRId64 " is complete; "
				"nothing to resume\n", r->exp.id);
		return 0;
	}
	if (!strcmp(r->exp.status, "running"))
		warning("experiment %" PRId64 " is marked running: its runner "
			"was killed (resuming is right) or is still running "
			"(then stop this one: both would run the same runs)",
			r->exp.id);
	ret = resume_load(r);
	if (!ret)
		ret = resume_commands(r);
	if (!ret)
		ret = instrument_open(r);
	if (!ret)
		ret = resume_same(r);
	if (ret)
		return ret;
	resume_calibration(r);
	if (!o->quiet)
		fprintf(stderr, "contend: resuming experiment %" PRId64 " (%s)\n",
			r->exp.id, escape_quote(r->exp.status));
	return runner_execute(r);
}
