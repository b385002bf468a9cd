/*
 * config_settings.c - the keys whose meaning is the runner's own: the
 * table of [experiment] settings (a [workload] section may override
 * some), prepare/cleanup hooks, primary and direction.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/contract.h"
#include "runner/config_impl.h"
#include "runner/param.h"
#include "lib/proc.h"
#include "lib/util.h"
#include "runner/workloads/workloads.h"

/* ---- [experiment] settings -------------------------------------------- */

enum { W_EXP, W_SET }; /* stored in experiment_config or run_settings */

#define S_OVERRIDE 0x1 /* a [workload] section may override it */
#define S_AUTO 0x2     /* "auto" is accepted, stored as 0 */
#define S_OPEN_MIN 0x4 /* the minimum itself is excluded */
#define S_OPEN_MAX 0x8 /* the maximum itself is excluded */

struct setting {
	const struct param_def *def;
	unsigned flags;
	int where;
	size_t off;
	/* a value that is not one param_def value (a list): parsed into the
	 * field by this instead; 0, or -1 with the reason in err */
	int (*parse)(const char *text, void *field, char *err, size_t errlen);
};

#define EXP(f) W_EXP, offsetof(struct experiment_config, f), NULL
#define SET(f) W_SET, offsetof(struct run_settings, f), NULL
/* an [experiment] setting with its own parser */
#define EXP_PARSED(f, p) W_EXP, offsetof(struct experiment_config, f), p

const char *const order_names[] = {
	[ORDER_BLOCKED] = "blocked",
	[ORDER_RANDOM] = "random",
	[ORDER_SEQUENTIAL] = "sequential",
	NULL, /* so it can serve as the choices of the order key */
};

static const char *const profile_names[] = { "none", "lock", NULL };

static const struct setting settings[] = {
	{ &(const struct param_def){ "name", PT_STRING, NULL, 0, 0, NULL,
				     "the experiment's name (required)" },
	  0, EXP(name) },
	{ &(const struct param_def){ "repetitions", PT_INT, "10", 1,
				     CONFIG_MAX_RUNS, NULL,
				     "measured runs per configuration, or "
				     "auto" },
	  S_OVERRIDE | S_AUTO, SET(repetitions) },
	{ &(const struct param_def){ "warmup", PT_INT, "1", 0,
				     CONFIG_MAX_RUNS, NULL,
				     "warm-up runs per configuration" },
	  S_OVERRIDE, SET(warmup) },
	{ &(const struct param_def){ "order", PT_ENUM, "blocked", 0, 0,
				     order_names, "order of the runs" },
	  0, EXP(order) },
	{ &(const struct param_def){ "seed", PT_U64, NULL, 0, 0, NULL,
				     "seed of the run order" },
	  0, EXP(seed) },
	{ &harness_params[HARNESS_RUNTIME], S_OVERRIDE, SET(runtime_s) },
	{ &harness_params[HARNESS_JOBS], S_OVERRIDE, SET(jobs) },
	{ &(const struct param_def){ "confidence", PT_DOUBLE, "0.95", 0, 1,
				     NULL, "confidence level of intervals" },
	  S_OPEN_MIN | S_OPEN_MAX, EXP(confidence) },
	{ &(const struct param_def){ "calibration", PT_DOUBLE, NULL, 0, 0,
				     NULL, "busy loops per microsecond for "
					   "every run (default: measured "
					   "once by the runner)" },
	  S_OPEN_MIN, EXP(calibration) },
	{ &(const struct param_def){ "noise", PT_DOUBLE, "0.05", 0, 0,
				     NULL, "CV above which a configuration "
					   "is noisy" },
	  S_OVERRIDE | S_OPEN_MIN, SET(noise) },
	{ &(const struct param_def){ "timeout", PT_DURATION, NULL, 0.001,
				     CONFIG_MAX_SECONDS, NULL,
				     "a run longer than this is killed" },
	  S_OVERRIDE, SET(timeout_s) },
	{ &(const struct param_def){ "randomize_env", PT_BOOL, "no", 0, 0,
				     NULL, "vary the environment size of "
					   "runs" },
	  S_OVERRIDE, SET(randomize_env) },
	{ &(const struct param_def){ "precision", PT_DOUBLE, "0.02", 0, 1,
				     NULL, "auto: target CI half-width / "
					   "mean" },
	  S_OVERRIDE | S_OPEN_MIN | S_OPEN_MAX, SET(precision) },
	{ &(const struct param_def){ "min_repetitions", PT_INT, "5", 2,
				     CONFIG_MAX_RUNS, NULL,
				     "auto: fewest measured runs" },
	  S_OVERRIDE, SET(min_repetitions) },
	{ &(const struct param_def){ "max_repetitions", PT_INT, "30", 2,
				     CONFIG_MAX_RUNS, NULL,
				     "auto: most measured runs" },
	  S_OVERRIDE, SET(max_repetitions) },
	{ &(const struct param_def){ "profile", PT_ENUM, "none", 0, 0,
				     profile_names,
				     "lock: one extra, unmeasured run per "
				     "configuration under perf lock contention, "
				     "its top kernel locks stored" },
	  S_OVERRIDE, SET(profile) },
	{ &(const struct param_def){ "kernel_instruments", PT_ENUM, "none", 0,
				     0, kinstr_names,
				     "kernel lock instrument of every run, or "
				     "a list by preference (bpf, count): "
				     "count (one counter on "
				     "lock:contention_begin), kinds (one per "
				     "lock kind), bpf (wait per lock and "
				     "caller); refused where none listed can "
				     "run; each changes what it measures "
				     "(docs/KLOCK.md)" },
	  0, EXP_PARSED(kinstr, kinstr_parse) },
};

static const struct setting *setting_find(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settings); i++)
		if (!strcmp(settings[i].def->name, key))
			return &settings[i];
	return NULL;
}

static int setting_parse(const struct setting *s, const char *text,
			 union param_value *v, char *err, size_t errlen)
{
	const struct param_def *p = s->def;

	if ((s->flags & S_AUTO) && !strcmp(text, "auto")) {
		v->i = 0;
		return 0;
	}
	if (p->type != PT_STRING && strchr(text, ',')) {
		snprintf(err, errlen, "%s takes a single value: only workload "
				      "parameters, runtime and jobs are swept, "
				      "in [workload] sections", p->name);
		return -1;
	}
	if (param_parse(p, text, v, err, errlen))
		return -1;
	if ((s->flags & S_OPEN_MAX) && v->d >= p->max) {
		snprintf(err, errlen, "%s: %s must be above %g and below %g",
			 p->name, text, p->min, p->max);
		return -1;
	}
	if ((s->flags & S_OPEN_MIN) && v->d <= p->min) {
		if (s->flags & S_OPEN_MAX)
			snprintf(err, errlen, "%s: %s must be above %g and "
					      "below %g", p->name, text, p->min,
				 p->max);
		else
			snprintf(err, errlen, "%s: %s must be above %g",
				 p->name, text, p->min);
		return -1;
	}
	return 0;
}

/* Stores v where s says; takes over a string. */
static void setting_store(const struct setting *s,
			  struct experiment_config *c,
			  struct run_settings *set, union param_value *v)
{
	char *field = (s->where == W_EXP ? (char *)c : (char *)set) + s->off;

	switch (s->def->type) {
	case PT_INT: /* int fields; every int setting is capped far below */
		*(int *)(void *)field = (int)v->i;
		break;
	case PT_U64:
		*(uint64_t *)(void *)field = v->u;
		break;
	case PT_DOUBLE:
	case PT_DURATION:
		*(double *)(void *)field = v->d;
		break;
	case PT_BOOL:
		*(bool *)(void *)field = v->b;
		break;
	case PT_ENUM: /* order and profile: enums stored as int-sized */
		*(enum run_order *)(void *)field = (enum run_order)v->e;
		break;
	case PT_STRING:
		free(*(char **)(void *)field);
		*(char **)(void *)field = v->s;
		v->s = NULL;
		break;
	default:
		break;
	}
}

/* The table's defaults; they parse by construction. */
static void settings_defaults(struct experiment_config *c)
{
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settings); i++) {
		union param_value v;

		if (settings[i].parse)
			settings[i].parse(settings[i].def->def,
					  (char *)c + settings[i].off, err,
					  sizeof(err));
		else if (settings[i].def->def &&
		    !setting_parse(&settings[i], settings[i].def->def, &v, err,
				   sizeof(err)))
			setting_store(&settings[i], c, &c->defaults, &v);
	}
}

/* Applies one key of section s as a setting; -1 after reporting. */
static int setting_apply(struct loader *L, const struct setting *st,
			 const struct kv_line *k, struct run_settings *set)
{
	union param_value v;
	char err[512];

	if (st->parse) {
		/* only [experiment] settings have one */
		if (!st->parse(k->value, (char *)L->c + st->off, err,
			       sizeof(err)))
			return 0;
		report(L, k->line, "%s", err);
		return -1;
	}
	if (setting_parse(st, k->value, &v, err, sizeof(err))) {
		report(L, k->line, "%s", err);
		return -1;
	}
	setting_store(st, L->c, set, &v);
	return 0;
}

/* runtime and jobs exclude each other; the later key is reported. */
int check_runtime_jobs(struct loader *L, const struct section *s)
{
	const struct kv_line *r = key_find(s, "runtime");
	const struct kv_line *j = key_find(s, "jobs");

	if (!r || !j)
		return 0;
	report(L, r->line > j->line ? r->line : j->line,
	       "runtime and jobs are mutually exclusive (the other is at "
	       "line %ld): give one", r->line > j->line ? j->line : r->line);
	return -1;
}

void check_repetitions(struct loader *L, const struct section *s,
		       const struct run_settings *set)
{
	const struct kv_line *k = key_find(s, "max_repetitions");

	if (!k)
		k = key_find(s, "min_repetitions");
	if (set->min_repetitions > set->max_repetitions)
		report(L, k ? k->line : s->line,
		       "min_repetitions (%d) is above max_repetitions (%d)",
		       set->min_repetitions, set->max_repetitions);
}

/* An explicit timeout must outlast the runtime it would cut short. */
static void check_timeout(struct loader *L, const struct section *s,
			  const struct run_settings *set)
{
	const struct kv_line *k = key_find(s, "timeout");

	if (k && set->timeout_s > 0 && set->runtime_s >= set->timeout_s)
		report(L, k->line, "timeout %gs is not longer than runtime %gs",
		       set->timeout_s, set->runtime_s);
}

/*
 * prepare, cleanup and prepare_timeout, in [experiment] or a [workload]
 * section: 0 when k was one of them (into h), -1 after reporting, 1 when
 * it is none of them.
 */
static int hook_key(struct loader *L, const struct kv_line *k,
		    struct hooks *h)
{
	const struct param_def pt = { "prepare_timeout", PT_DURATION, NULL,
				      0.001, CONFIG_MAX_SECONDS, NULL, NULL };
	union param_value v;
	char err[512];

	if (!strcmp(k->key, "prepare") || !strcmp(k->key, "cleanup")) {
		char **argv;
		size_t n;

		*(k->key[0] == 'p' ? &h->prepare : &h->cleanup) = k;
		if (proc_split(k->value, &argv, &n, err, sizeof(err))) {
			report(L, k->line, "%s: %s", k->key, err);
			return -1;
		}
		proc_argv_free(argv);
		return 0;
	}
	if (!strcmp(k->key, "prepare_timeout")) {
		if (param_parse(&pt, k->value, &v, err, sizeof(err))) {
			report(L, k->line, "%s", err);
			return -1;
		}
		h->timeout_s = v.d;
		return 0;
	}
	return 1;
}

static void unknown_experiment_key(struct loader *L, const struct kv_line *k)
{
	static const char *const hook_keys[] = { "prepare", "cleanup",
						 "prepare_timeout" };
	const char *names[ARRAY_SIZE(settings) + ARRAY_SIZE(hook_keys)];
	char hint[SUGGEST_MAX];
	char q[QUOTE_MAX + 4];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settings); i++)
		names[i] = settings[i].def->name;
	for (i = 0; i < ARRAY_SIZE(hook_keys); i++)
		names[ARRAY_SIZE(settings) + i] = hook_keys[i];
	suggest_hint(hint, sizeof(hint), k->key, names, ARRAY_SIZE(names),
		     NULL, NULL);
	param_clip(q, sizeof(q), k->key, QUOTE_MAX);
	if (*hint)
		report(L, k->line, "unknown key '%s' in [experiment]%s", q,
		       hint);
	else
		report(L, k->line, "unknown key '%s' in [experiment] "
				   "(workload parameters go in [workload NAME] "
				   "sections)", q);
}

static void check_name(struct loader *L, const struct section *s)
{
	const struct kv_line *k = key_find(s, "name");
	const char *name = L->c->name;

	if (!k)
		report(L, s->line, "[experiment] has no name: add name = ...");
	else if (!name || !*name)
		report(L, k->line, "name is empty");
	else if (strlen(name) > NAME_MAX_BYTES)
		report(L, k->line, "name is longer than %d bytes",
		       NAME_MAX_BYTES);
}

void experiment_load(struct loader *L)
{
	struct experiment_config *c = L->c;
	const struct section *s = section_find(L, SEC_EXPERIMENT, NULL);
	const struct kv_line *k;
	size_t i;

	settings_defaults(c);
	if (!s) {
		report(L, 0, "no [experiment] section (it must give the "
			     "experiment a name)");
		return;
	}
	for (i = 0; i < s->nkeys; i++) {
		const struct setting *st = setting_find(s->keys[i].key);

		if (st)
			setting_apply(L, st, &s->keys[i], &c->defaults);
		else if (hook_key(L, &s->keys[i], &L->hooks) > 0)
			unknown_experiment_key(L, &s->keys[i]);
	}
	check_name(L, s);
	if (!check_runtime_jobs(L, s) && key_find(s, "jobs"))
		c->defaults.runtime_s = 0;
	c->has_seed = key_find(s, "seed") != NULL;
	k = key_find(s, "kernel_instruments");
	c->kinstr_line = k ? k->line : 0;
	check_repetitions(L, s, &c->defaults);
	check_timeout(L, s, &c->defaults);
}

/* ---- the runner's keys in a [workload] section ------------------------- */

static const char *const directions[] = { CV_HIGHER, CV_LOWER, NULL };

/* higher | lower, or -1 after reporting. */
static int direction_check(struct wsec *w, const struct kv_line *k)
{
	const struct param_def p = { k->key, PT_ENUM, NULL, 0, 0, directions,
				     NULL };
	union param_value v;
	char err[512];

	if (param_parse(&p, k->value, &v, err, sizeof(err))) {
		report(w->L, k->line, "%s", err);
		return -1;
	}
	return 0;
}

/* A metric's name, as primary and direction.NAME take it. */
static int metric_name_check(struct wsec *w, const struct kv_line *k,
			     const char *name)
{
	char q[QUOTE_MAX + 4];

	if (param_name_ok(name, strlen(name)))
		return 0;
	param_clip(q, sizeof(q), name, QUOTE_MAX);
	report(w->L, k->line, "%s: '%s' is not a metric name (letters, digits "
			      "and _, not a digit first, under %d bytes)",
	       k->key, q, METRIC_NAME_MAX);
	return -1;
}

int runner_key(struct wsec *w, const struct kv_line *k)
{
	int ret = hook_key(w->L, k, &w->hooks);

	if (ret <= 0)
		return ret;
	if (!strcmp(k->key, "primary")) {
		w->primary = k;
		return metric_name_check(w, k, k->value);
	}
	if (!strcmp(k->key, "direction")) {
		w->direction = k;
		return direction_check(w, k);
	}
	if (strncmp(k->key, "direction.", 10))
		return 1;
	if (metric_name_check(w, k, k->key + 10) || direction_check(w, k))
		return -1;
	if (w->ndirs == WL_MAX_MEMBERS) {
		report(w->L, k->line, "%s: at most %d direction.NAME keys in one "
				      "section", k->key, WL_MAX_MEMBERS);
		return -1;
	}
	w->dirs[w->ndirs++] = k;
	return 0;
}

/* For "did you mean": the keys runner_key and user_param take. */
static const char *const runner_keys[] = {
	"prepare", "cleanup", "prepare_timeout", "primary", "direction",
	"param.NAME", "direction.NAME",
};

static void unknown_workload_key(struct wsec *w, const struct kv_line *k)
{
	const char *names[WL_MAX_PARAMS + ARRAY_SIZE(settings) +
			  ARRAY_SIZE(runner_keys) + 4];
	char hint[SUGGEST_MAX];
	char q[QUOTE_MAX + 4];
	size_t i, n = 0;

	names[n++] = "type";
	for (i = 0; i < w->wl->nparams; i++)
		names[n++] = w->wl->params[i].name;
	for (i = 0; i < nharness_params; i++)
		names[n++] = harness_params[i].name;
	for (i = 0; i < ARRAY_SIZE(settings); i++)
		if (settings[i].flags & S_OVERRIDE)
			names[n++] = settings[i].def->name;
	for (i = 0; i < ARRAY_SIZE(runner_keys); i++)
		names[n++] = runner_keys[i];
	suggest_hint(hint, sizeof(hint), k->key, names, n, NULL, NULL);
	param_clip(q, sizeof(q), k->key, QUOTE_MAX);
	report(w->L, k->line, "unknown key '%s' for workload %s%s", q,
	       w->wl->name, hint);
}

int override_key(struct wsec *w, const struct kv_line *k)
{
	const struct setting *st = setting_find(k->key);

	if (st && (st->flags & S_OVERRIDE))
		return setting_apply(w->L, st, k, &w->set);
	if (st) {
		report(w->L, k->line, "%s can be set only in [experiment]",
		       k->key);
		return -1;
	}
	unknown_workload_key(w, k);
	return -1;
}
