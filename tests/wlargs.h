/*
 * wlargs.h - builds struct wl_args for workload tests from the parameter
 * table's defaults and "key", "value" overrides, so tests need neither the
 * INI loader nor `contend exec`.  Include after <cmocka.h>.
 */
#ifndef CONTEND_TESTS_WLARGS_H
#define CONTEND_TESTS_WLARGS_H

#include <stdlib.h>
#include <string.h>

#include "runner/util.h"
#include "runner/workload.h"

static void targs_parse(const struct param_def *p, const char *text,
			union param_value *v)
{
	int b = 0;
	size_t i;

	switch (p->type) {
	case PT_INT:
		assert_int_equal(parse_ll(text, &v->i), 0);
		break;
	case PT_U64:
		assert_int_equal(parse_u64(text, &v->u), 0);
		break;
	case PT_DOUBLE:
		assert_int_equal(parse_double(text, &v->d), 0);
		break;
	case PT_DURATION:
		assert_int_equal(parse_duration(text, &v->d), 0);
		break;
	case PT_BOOL:
		assert_int_equal(parse_bool(text, &b), 0);
		v->b = b;
		break;
	case PT_ENUM:
		for (i = 0; p->choices[i]; i++)
			if (!strcmp(p->choices[i], text))
				break;
		assert_non_null(p->choices[i]);
		v->e = (int)i;
		break;
	case PT_STRING:
	case PT_CPUS:
		free(v->s);
		v->s = xstrdup(text);
		break;
	}
}

/* Defaults of every parameter; fixed work of `jobs` per worker. */
static void targs_init(struct wl_args *a, const struct workload *wl,
		       uint64_t jobs)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	a->wl = wl;
	a->jobs = jobs;
	a->runtime_s = jobs ? 0 : 0.05;
	for (i = 0; i < wl->nparams; i++)
		targs_parse(&wl->params[i], wl->params[i].def, &a->v[i]);
}

static void targs_set(struct wl_args *a, const char *key, const char *value)
{
	int i = workload_param_index(a->wl, key);

	assert_true(i >= 0);
	targs_parse(&a->wl->params[i], value, &a->v[i]);
}

static void targs_release(struct wl_args *a)
{
	size_t i;

	for (i = 0; i < a->wl->nparams; i++)
		if (a->wl->params[i].type == PT_STRING ||
		    a->wl->params[i].type == PT_CPUS)
			free(a->v[i].s);
	memset(a->v, 0, sizeof(a->v));
}

#endif
