/*
 * args.c - a workload's arguments (struct wl_args) from "key=value"
 * items: its defaults, then each item through the typed parser of
 * param.c, the harness keys (runtime, jobs, cpus, kernel_delay) and the
 * family keys; declared in param.h.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "runner/param.h"
#include "lib/util.h"

#define QUOTE_MAX ESCAPE_QUOTE_MAX /* lib/escape.h: the one cap */

static bool holds_string(enum param_type t)
{
	return param_holds_string(t);
}

void args_release(struct wl_args *a)
{
	size_t i;

	if (a->wl) {
		for (i = 0; i < a->wl->nparams && i < WL_MAX_PARAMS; i++)
			if (holds_string(a->wl->params[i].type))
				free(a->v[i].s);
		for (i = 0; i < a->nmembers; i++) {
			if (holds_string(a->wl->params[a->members[i].param].type))
				free(a->members[i].v.s);
			free(a->members[i].key);
		}
	}
	memset(a, 0, sizeof(*a));
}

static int args_defaults(struct wl_args *a, char *err, size_t errlen)
{
	const struct workload *wl = a->wl;
	size_t i;

	for (i = 0; i < wl->nparams; i++) {
		const struct param_def *p = &wl->params[i];
		char why[256];

		if (!p->def)
			continue; /* zero, or NULL for strings */
		if (param_parse(p, p->def, &a->v[i], why, sizeof(why)))
			return error_buf(err, errlen,
					 "workload %s: bad default: %s",
					 wl->name, why);
	}
	return 0;
}

static int harness_index(const char *key)
{
	size_t i;

	for (i = 0; i < nharness_params; i++)
		if (!strcmp(harness_params[i].name, key))
			return (int)i;
	return -1;
}

static int unknown_key(const struct workload *wl, const char *key,
		       char *err, size_t errlen)
{
	const char *names[WL_MAX_PARAMS + 8];
	char hint[SUGGEST_MAX];
	char q[QUOTE_MAX + 4];
	size_t n = 0, i;

	for (i = 0; i < wl->nparams && n < WL_MAX_PARAMS; i++)
		names[n++] = wl->params[i].name;
	for (i = 0; i < nharness_params; i++)
		names[n++] = harness_params[i].name;
	suggest_hint(hint, sizeof(hint), key, names, n, NULL, NULL);
	param_clip(q, sizeof(q), key, QUOTE_MAX);
	return error_buf(err, errlen, "unknown parameter '%s' for workload "
			 "%s%s", q, wl->name, hint);
}

/* Stores a parsed harness value h into a. */
static void args_set_harness(struct wl_args *a, int h, union param_value *v)
{
	switch (h) {
	case HARNESS_RUNTIME:
		a->runtime_s = v->d;
		break;
	case HARNESS_JOBS:
		a->jobs = v->u;
		break;
	case HARNESS_CPUS:
		cpulist_parse(v->s, &a->cpus);
		a->has_cpus = true;
		free(v->s);
		break;
	case HARNESS_KDELAY:
	case HARNESS_OBSERVER:
		/* the runner's to apply (runner/kinstr/bpf.h,
		 * runner/observer.h), not the workload's */
		free(v->s);
		break;
	}
}

bool param_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= METRIC_NAME_MAX || isdigit((unsigned char)*s))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* key=text of family f into a->members, kept ordered by key. */
static int args_set_member(struct wl_args *a, int f, char *key,
			   const char *text, char *err, size_t errlen)
{
	const struct param_def *p = &a->wl->params[f];
	const char *name = key + strlen(p->name) -
			   strlen(PARAM_FAMILY_SUFFIX) + 1;
	struct param_def member;
	char q[QUOTE_MAX + 4];
	union param_value v;
	size_t i;

	param_clip(q, sizeof(q), key, QUOTE_MAX);
	if (!param_name_ok(name, strlen(name)))
		return error_buf(err, errlen, "'%s': the NAME of %s is letters, "
				 "digits and _, not a digit first, under %d "
				 "characters", q, p->name, METRIC_NAME_MAX);
	for (i = 0; i < a->nmembers && strcmp(a->members[i].key, key) < 0;)
		i++;
	if (i < a->nmembers && !strcmp(a->members[i].key, key))
		return error_buf(err, errlen, "'%s' is given twice", q);
	if (a->nmembers == WL_MAX_MEMBERS)
		return error_buf(err, errlen, "'%s': at most %d keys of "
				 "families (like %s) in one configuration", q,
				 WL_MAX_MEMBERS, p->name);
	member = *p;
	member.name = key; /* messages name the key given */
	if (param_parse(&member, text, &v, err, errlen))
		return -1;
	memmove(&a->members[i + 1], &a->members[i],
		(a->nmembers - i) * sizeof(a->members[0]));
	a->nmembers++;
	a->members[i] = (struct wl_member){ .key = xstrdup(key), .param = f,
					    .v = v };
	a->members[i].name = a->members[i].key + (name - key);
	return 0;
}

/* One "key=value" into a; seen[] holds params then harness keys. */
static int args_set(struct wl_args *a, const char *item, bool *seen,
		    char *err, size_t errlen)
{
	const struct workload *wl = a->wl;
	const char *eq = strchr(item, '=');
	char q[QUOTE_MAX + 4], *key;
	union param_value v;
	int idx, f, h = -1, ret = -1;

	param_clip(q, sizeof(q), item, QUOTE_MAX);
	if (!eq)
		return error_buf(err, errlen, "expected key=value, got '%s'",
				 q);
	key = xstrndup(item, (size_t)(eq - item));
	idx = workload_param_index(wl, key);
	if (idx < 0 && (f = workload_family_index(wl, key)) >= 0) {
		ret = args_set_member(a, f, key, eq + 1, err, errlen);
		goto out;
	}
	if (idx < 0 && (h = harness_index(key)) < 0) {
		unknown_key(wl, key, err, errlen);
		goto out;
	}
	if (seen[idx >= 0 ? idx : (int)wl->nparams + h]) {
		param_clip(q, sizeof(q), key, QUOTE_MAX);
		error_buf(err, errlen, "'%s' is given twice", q);
		goto out;
	}
	seen[idx >= 0 ? idx : (int)wl->nparams + h] = true;
	if (param_parse(idx >= 0 ? &wl->params[idx] : &harness_params[h],
			eq + 1, &v, err, errlen))
		goto out;
	if (idx >= 0) {
		if (holds_string(wl->params[idx].type))
			free(a->v[idx].s);
		a->v[idx] = v;
	} else {
		args_set_harness(a, h, &v);
	}
	ret = 0;
out:
	free(key);
	return ret;
}

bool harness_runner_only(const char *item, bool asks_something)
{
	static const int keys[] = { HARNESS_KDELAY, HARNESS_OBSERVER };
	const struct param_def *p = NULL;
	size_t len = 0, i;
	union param_value v = { 0 };
	char err[256];
	bool ret;

	for (i = 0; i < ARRAY_SIZE(keys) && !p; i++) {
		p = &harness_params[keys[i]];
		len = strlen(p->name);
		if (strncmp(item, p->name, len) || item[len] != '=')
			p = NULL;
	}
	if (!p || !asks_something)
		return p != NULL;
	if (param_parse(p, item + len + 1, &v, err, sizeof(err)))
		return false;
	ret = v.s && strcmp(v.s, "0") && strcmp(v.s, "none");
	free(v.s);
	return ret;
}

/* The index in kv of key's item, n when there is none. */
static size_t kv_index(size_t n, char *const *kv, const char *key)
{
	size_t i, len = strlen(key);

	for (i = 0; i < n; i++)
		if (!strncmp(kv[i], key, len) && kv[i][len] == '=')
			return i;
	return n;
}

int args_from_kv(const struct workload *wl, size_t n, char *const *kv,
		 struct wl_args *a, char *err, size_t errlen)
{
	size_t at;

	return args_from_kv_at(wl, n, kv, a, &at, err, errlen);
}

int args_from_kv_at(const struct workload *wl, size_t n, char *const *kv,
		    struct wl_args *a, size_t *at, char *err, size_t errlen)
{
	bool seen[WL_MAX_PARAMS + 3] = { false };
	bool *hseen = seen + wl->nparams;
	size_t i;

	memset(a, 0, sizeof(*a));
	*at = n;
	if (wl->nparams > WL_MAX_PARAMS)
		return error_buf(err, errlen,
				 "workload %s has more than %d "
				 "parameters",
				 wl->name, WL_MAX_PARAMS);
	a->wl = wl;
	if (args_defaults(a, err, errlen))
		goto fail;
	for (i = 0; i < n; i++) {
		*at = i;
		if (args_set(a, kv[i], seen, err, errlen))
			goto fail;
	}
	*at = n;
	for (i = 0; i < wl->nparams; i++) {
		if (!wl->params[i].def && !seen[i] &&
		    !param_is_family(&wl->params[i])) {
			error_buf(err, errlen,
				  "workload %s needs a value for '%s' "
				  "(it has no default)",
				  wl->name, wl->params[i].name);
			goto fail;
		}
	}
	if ((wl->flags & WL_OWN_DURATION) &&
	    (hseen[HARNESS_RUNTIME] || hseen[HARNESS_JOBS])) {
		const char *key = hseen[HARNESS_RUNTIME] ? "runtime" : "jobs";

		error_buf(err, errlen, "%s: workload %s runs for as long as "
			  "its own parameters say: runtime and jobs do not "
			  "apply", key, wl->name);
		*at = kv_index(n, kv, key);
		goto fail;
	}
	if (hseen[HARNESS_RUNTIME] && hseen[HARNESS_JOBS]) {
		error_buf(err, errlen,
			  "runtime and jobs are mutually exclusive: "
			  "give one");
		*at = kv_index(n, kv, "runtime");
		goto fail;
	}
	if (!hseen[HARNESS_RUNTIME] && !hseen[HARNESS_JOBS] &&
	    !(wl->flags & WL_OWN_DURATION))
		parse_duration(harness_params[HARNESS_RUNTIME].def,
			       &a->runtime_s);
	return 0;
fail:
	args_release(a);
	return -1;
}
