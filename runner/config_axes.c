/*
 * config_axes.c - a [workload NAME] section's keys into its axes: each
 * key's sweep of values, in the field of struct axes its kind says
 * (a workload parameter, a family key, runtime or jobs, cpus, param.NAME),
 * and the defaults of the keys the section did not give.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config_impl.h"
#include "runner/kinstr/bpf.h"
#include "runner/param.h"
#include "lib/util.h"
#include "runner/workloads/workloads.h"

static char *known_workloads(void)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < nworkloads; i++)
		len += strlen(workloads[i]->name) + 2;
	s = xcalloc(1, len);
	for (i = 0; i < nworkloads; i++) {
		if (workloads[i]->flags & WL_HIDDEN)
			continue;
		if (*s)
			strcat(s, ", ");
		strcat(s, workloads[i]->name);
	}
	return s;
}

const struct workload *workload_of(struct loader *L,
				   const struct section *s)
{
	const struct kv_line *k = key_find(s, "type");
	const struct workload *wl;
	const char *names[64];
	char hint[SUGGEST_MAX], q[QUOTE_MAX + 4], *known = known_workloads();
	size_t i, n = 0;

	if (!k) {
		report(L, s->line, "[workload %s] has no type: add type = "
				   "WORKLOAD (known: %s)", s->label, known);
	} else if (!(wl = workload_find(k->value))) {
		for (i = 0; i < nworkloads && n < ARRAY_SIZE(names); i++)
			if (!(workloads[i]->flags & WL_HIDDEN))
				names[n++] = workloads[i]->name;
		suggest_hint(hint, sizeof(hint), k->value, names, n, NULL,
			     NULL);
		param_clip(q, sizeof(q), k->value, QUOTE_MAX);
		report(L, k->line, "unknown workload type '%s'%s (known: %s)",
		       q, hint, known);
	} else if (wl->unsupported) {
		report(L, k->line, "workload %s cannot run here: %s",
		       wl->name, wl->unsupported);
	} else if (wl->nparams > WL_MAX_PARAMS) {
		report(L, k->line, "workload %s has too many parameters",
		       wl->name);
	} else {
		free(known);
		return wl;
	}
	free(known);
	return NULL;
}

/* Keys whose value is a number of threads or processes in one run. */
static bool is_worker_key(const char *key)
{
	static const char *const keys[] = { "threads", "processes" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

static int check_workers(struct wsec *w, const struct axis *a)
{
	size_t i;

	if (!is_worker_key(a->key))
		return 0;
	for (i = 0; i < a->n; i++) {
		long long v;

		if (!parse_ll(a->vals[i], &v) && v > CONFIG_MAX_WORKERS) {
			report(w->L, a->line, "%s: %s is above the limit of "
					      "%d per run", a->key, a->vals[i],
			       CONFIG_MAX_WORKERS);
			return -1;
		}
	}
	return 0;
}

/* Expands a key's value into axis a; -1 after reporting. */
static int axis_sweep(struct wsec *w, struct axis *a,
		      const struct param_def *p, const struct kv_line *k)
{
	char err[512];

	a->key = p->name;
	a->line = k->line;
	if (sweep_expand(p, k->value, &a->vals, &a->n, err, sizeof(err))) {
		report(w->L, k->line, "%s", err);
		return -1;
	}
	return check_workers(w, a);
}

/*
 * The first cpu of the cpus axis this process may not run on (cpus =
 * 1023 on a 2-cpu machine: every run pinned there would fail), noted in
 * the config for the runner to refuse (config_offline); the file itself
 * is fine, and may be meant for a bigger machine.
 */
static void check_cpus_online(struct wsec *w, const struct axis *a)
{
	struct experiment_config *cfg = w->L->c;
	cpu_set_t here, want;
	size_t i;
	int c;

	if (cfg->offline || sched_getaffinity(0, sizeof(here), &here))
		return; /* one is enough; or cannot tell: the runs will say */
	for (i = 0; i < a->n; i++) {
		if (cpulist_parse(a->vals[i], &want))
			continue;
		for (c = 0; c < CPU_SETSIZE; c++) {
			char *list;

			if (!CPU_ISSET(c, &want) || CPU_ISSET(c, &here))
				continue;
			list = cpulist_format(&here);
			cfg->offline = xasprintf("cpus: cpu %d is not online here "
						 "(contend may run on cpus %s)",
						 c, list);
			cfg->offline_line = a->line;
			free(list);
			return;
		}
	}
}

/*
 * kernel_delay needs the runner's BPF program (runner/kinstr/bpf.h): where it
 * cannot run, noted like an offline cpu, for the runner to refuse and a
 * dry run to warn about.  A sweep of 0 alone asks for nothing.
 */
static void check_kdelay(struct wsec *w, const struct axis *a)
{
	struct experiment_config *cfg = w->L->c;
	char why[200];
	size_t i;

	for (i = 0; i < a->n && !strcmp(a->vals[i], "0"); i++)
		;
	if (cfg->offline || i == a->n || kbpf_usable(why, sizeof(why)))
		return;
	cfg->offline = xasprintf("kernel_delay: needs the kernel lock BPF "
				 "program, which cannot run here: %s", why);
	cfg->offline_line = a->line;
}

/* A single value, given as canonical text already. */
static void axis_single(struct axis *a, const char *key, char *val)
{
	a->key = key;
	a->vals = xmalloc(sizeof(*a->vals));
	a->vals[0] = val;
	a->n = 1;
	a->line = 0;
}

static int axis_default(struct wsec *w, struct axis *a,
			const struct param_def *p)
{
	union param_value v;
	char err[512];

	if (!p->def) {
		report(w->L, w->sec->line, "[workload %s] must set %s (it has "
					   "no default)", w->sec->label,
		       p->name);
		return -1;
	}
	if (param_parse(p, p->def, &v, err, sizeof(err))) {
		report(w->L, w->sec->line, "workload %s: bad default: %s",
		       w->wl->name, err);
		return -1;
	}
	axis_single(a, p->name, param_format(p, &v));
	if (param_holds_string(p->type))
		free(v.s);
	return 0;
}

/* param.NAME = SWEEP: one more axis, named by its whole key. */
static int user_param(struct wsec *w, const struct kv_line *k)
{
	const char *name = k->key + 6;
	struct axis *a;
	char err[512];

	if (!param_name_ok(name, strlen(name))) {
		report(w->L, k->line, "%s: the NAME of param.NAME is letters, "
				      "digits and _, not a digit first, under "
				      "%d bytes", k->key, METRIC_NAME_MAX);
		return -1;
	}
	if (w->ax.nuser == CONFIG_MAX_USER_PARAMS) {
		report(w->L, k->line, "%s: at most %d param.NAME keys in one "
				      "section", k->key, CONFIG_MAX_USER_PARAMS);
		return -1;
	}
	a = &w->ax.user[w->ax.nuser++];
	a->key = k->key;
	a->line = k->line;
	if (sweep_expand_user(k->key, k->value, &a->vals, &a->n, err,
			      sizeof(err))) {
		report(w->L, k->line, "%s", err);
		return -1;
	}
	return 0;
}

/* A family key (metric.NAME): an axis of its own, named by the key. */
static int member_key(struct wsec *w, const struct kv_line *k, int idx)
{
	struct param_def member = w->wl->params[idx];

	if (w->ax.nmembers == WL_MAX_MEMBERS) {
		report(w->L, k->line, "%s: at most %d keys of families (like "
				      "%s) in one section", k->key,
		       WL_MAX_MEMBERS, w->wl->params[idx].name);
		return -1;
	}
	/* messages and the axis name the key given, not the family */
	member.name = k->key;
	return axis_sweep(w, &w->ax.members[w->ax.nmembers++], &member, k);
}

int wsec_key(struct wsec *w, const struct kv_line *k)
{
	struct axes *ax = &w->ax;
	int idx = workload_param_index(w->wl, k->key);

	if (!strcmp(k->key, "type"))
		return 0;
	if (idx >= 0)
		return axis_sweep(w, &ax->params[idx], &w->wl->params[idx], k);
	idx = workload_family_index(w->wl, k->key);
	if (idx >= 0)
		return member_key(w, k, idx);
	/* runtime and jobs share the time axis (both: check_runtime_jobs) */
	if (!strcmp(k->key, "runtime") && !ax->time.n)
		return axis_sweep(w, &ax->time,
				  &harness_params[HARNESS_RUNTIME], k);
	if (!strcmp(k->key, "jobs") && !ax->time.n)
		return axis_sweep(w, &ax->time, &harness_params[HARNESS_JOBS],
				  k);
	if (!strcmp(k->key, "runtime") || !strcmp(k->key, "jobs"))
		return -1;
	if (!strcmp(k->key, "cpus")) {
		if (axis_sweep(w, &ax->cpus, &harness_params[HARNESS_CPUS], k))
			return -1;
		check_cpus_online(w, &ax->cpus);
		return 0;
	}
	if (!strcmp(k->key, "kernel_delay")) {
		if (axis_sweep(w, &ax->kdelay,
			       &harness_params[HARNESS_KDELAY], k))
			return -1;
		check_kdelay(w, &ax->kdelay);
		return 0;
	}
	if (!strcmp(k->key, "observer"))
		return observer_axis(w, &ax->observer, k);
	if (!strncmp(k->key, "param.", 6))
		return user_param(w, k);
	if (runner_key(w, k) <= 0)
		return 0;
	return override_key(w, k);
}

static int axis_key_cmp(const void *a, const void *b)
{
	const struct axis *x = a, *y = b;

	return strcmp(x->key, y->key);
}

/* ax->order: the canonical order of a configuration's keys. */
static void axes_order(struct axes *ax, const struct workload *wl)
{
	size_t i, n = 0;

	qsort(ax->members, ax->nmembers, sizeof(ax->members[0]),
	      axis_key_cmp);
	qsort(ax->user, ax->nuser, sizeof(ax->user[0]), axis_key_cmp);
	for (i = 0; i < wl->nparams; i++)
		if (!param_is_family(&wl->params[i]))
			ax->order[n++] = &ax->params[i];
	for (i = 0; i < ax->nmembers; i++)
		ax->order[n++] = &ax->members[i];
	if (ax->time.n) /* none with WL_OWN_DURATION */
		ax->order[n++] = &ax->time;
	if (ax->cpus.n) /* cpus: no key, no axis */
		ax->order[n++] = &ax->cpus;
	if (ax->kdelay.n)
		ax->order[n++] = &ax->kdelay;
	if (ax->observer.n)
		ax->order[n++] = &ax->observer;
	for (i = 0; i < ax->nuser; i++)
		ax->order[n++] = &ax->user[i];
	ax->n = n;
}

int wsec_fill(struct wsec *w)
{
	struct axes *ax = &w->ax;
	const struct param_def *p;
	union param_value v;
	size_t i;

	for (i = 0; i < w->wl->nparams; i++)
		if (!ax->params[i].n && !param_is_family(&w->wl->params[i]) &&
		    axis_default(w, &ax->params[i], &w->wl->params[i]))
			return -1;
	/* a workload of its own duration has no time axis (nor inherits one) */
	if (!ax->time.n && !(w->wl->flags & WL_OWN_DURATION)) {
		bool jobs = w->set.jobs != 0;

		p = &harness_params[jobs ? HARNESS_JOBS : HARNESS_RUNTIME];
		if (jobs)
			v.u = w->set.jobs;
		else
			v.d = w->set.runtime_s;
		axis_single(&ax->time, p->name, param_format(p, &v));
	}
	axes_order(ax, w->wl);
	return 0;
}

void wsec_release(struct wsec *w)
{
	struct axes *ax = &w->ax;
	size_t i;

	for (i = 0; i < WL_MAX_PARAMS; i++)
		sweep_free(ax->params[i].vals, ax->params[i].n);
	for (i = 0; i < ax->nmembers; i++)
		sweep_free(ax->members[i].vals, ax->members[i].n);
	sweep_free(ax->time.vals, ax->time.n);
	sweep_free(ax->cpus.vals, ax->cpus.n);
	sweep_free(ax->kdelay.vals, ax->kdelay.n);
	sweep_free(ax->observer.vals, ax->observer.n);
	for (i = 0; i < ax->nuser; i++)
		sweep_free(ax->user[i].vals, ax->user[i].n);
	for (i = 0; i < w->nmsgs; i++)
		free(w->msgs[i]);
}
