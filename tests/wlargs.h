/*
 * wlargs.h - builds struct wl_args for workload tests with the real
 * parameter parser (param.h): the table's defaults, then "key", "value"
 * overrides, so tests need neither an INI file nor `contend exec`.
 * Include after <cmocka.h>.
 */
#ifndef CONTEND_TESTS_WLARGS_H
#define CONTEND_TESTS_WLARGS_H

#include <string.h>

#include "runner/param.h"
#include "runner/workload.h"

/* Defaults of every parameter; fixed work of `jobs` per worker, else a
 * 50 ms runtime. */
static void targs_init(struct wl_args *a, const struct workload *wl,
		       uint64_t jobs)
{
	char err[256] = "";

	if (args_from_kv(wl, 0, NULL, a, err, sizeof(err)))
		fail_msg("%s defaults: %s", wl->name, err);
	a->jobs = jobs;
	a->runtime_s = jobs ? 0 : 0.05;
}

static void targs_set(struct wl_args *a, const char *key, const char *value)
{
	int i = workload_param_index(a->wl, key);
	char err[256] = "";

	if (i < 0)
		fail_msg("%s has no parameter %s", a->wl->name, key);
	if (a->wl->params[i].type == PT_STRING ||
	    a->wl->params[i].type == PT_CPUS)
		free(a->v[i].s);
	if (param_parse(&a->wl->params[i], value, &a->v[i], err, sizeof(err)))
		fail_msg("%s = %s: %s", key, value, err);
}

static void targs_release(struct wl_args *a)
{
	args_release(a);
}

#endif
