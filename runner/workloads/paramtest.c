/*
 * paramtest.c - a hidden testing aid with one parameter of every type, so
 * the parameter parser, the INI loader and `contend exec` can be tested on
 * all of them.  Its run measures nothing: it reports the values it was
 * given, so a test can check what reached the workload.
 */
#include <stdio.h>
#include <string.h>

#include "runner/param.h"
#include "runner/workloads/workloads.h"

enum {
	P_COUNT, P_BIG, P_RATIO, P_PERIOD, P_FLAG, P_MODE, P_LABEL, P_MASK,
	P_THREADS, P_NPARAMS
};

static const char *const modes[] = { "alpha", "beta", "gamma", NULL };

static const struct param_def paramtest_params[] = {
	[P_COUNT] = { "count", PT_INT, "4", -10, 100, NULL,
		      "an int in -10 .. 100" },
	[P_BIG] = { "big", PT_U64, "1000", 1, 0, NULL,
		    "a u64 of at least 1, no upper limit" },
	[P_RATIO] = { "ratio", PT_DOUBLE, "0.5", 0, 1, NULL,
		      "a double in 0 .. 1" },
	[P_PERIOD] = { "period", PT_DURATION, "10ms", 0.001, 60, NULL,
		       "a duration in 1ms .. 1m" },
	[P_FLAG] = { "flag", PT_BOOL, "no", 0, 0, NULL, "a boolean" },
	[P_MODE] = { "mode", PT_ENUM, "alpha", 0, 0, modes,
		     "an enum; gamma needs flag = yes (a cross-parameter "
		     "check)" },
	[P_LABEL] = { "label", PT_STRING, "hello world", 0, 0, NULL,
		      "free text: commas are literal, blanks get quoted" },
	[P_MASK] = { "mask", PT_CPUS, "0", 0, 0, NULL, "a cpu list" },
	/* No maximum: the loader's own cap on workers must catch 100000. */
	[P_THREADS] = { "threads", PT_INT, "1", 1, 0, NULL,
			"workers (capped by the loader, not by this table)" },
};

static int paramtest_validate(const struct wl_args *a,
			      struct wl_blame *blame, char *err, size_t errlen)
{
	if (a->v[P_MODE].e == 2 && !a->v[P_FLAG].b) {
		snprintf(err, errlen, "mode = gamma needs flag = yes");
		return wl_blame(blame, "mode", "flag");
	}
	return 0;
}

static int paramtest_run(const struct wl_args *a, struct result *r)
{
	const uint64_t one = 1;
	cpu_set_t set;

	if (cpulist_parse(a->v[P_MASK].s, &set))
		return result_fail(r, "bad mask '%s'", a->v[P_MASK].s);
	result_add(r, "count", (double)a->v[P_COUNT].i);
	result_add(r, "big", (double)a->v[P_BIG].u);
	result_add(r, "ratio", a->v[P_RATIO].d);
	result_add(r, "period_s", a->v[P_PERIOD].d);
	result_add(r, "flag", a->v[P_FLAG].b);
	result_add(r, "mode", a->v[P_MODE].e);
	result_add(r, "label_bytes", (double)strlen(a->v[P_LABEL].s));
	result_add(r, "mask_cpus", CPU_COUNT(&set));
	result_add(r, "threads", (double)a->v[P_THREADS].i);
	result_add(r, "runtime_s", a->runtime_s);
	result_add(r, "jobs", (double)a->jobs);
	return result_set_threads(r, 1, &one);
}

const struct workload paramtest_workload = {
	.name = "paramtest",
	.summary = "testing aid: one parameter of every type, echoed back",
	.help = "Reports the values it received as metrics.  Hidden from "
		"`contend list`; it exists for the tests of the parser, the "
		"INI loader and exec.",
	.params = paramtest_params,
	.nparams = P_NPARAMS,
	.flags = WL_HIDDEN,
	.validate = paramtest_validate,
	.run = paramtest_run,
};
