/*
 * param.h - the one generic parser of workload parameters: typed values,
 * min/max, enums, cpu lists; and the harness keys every workload honours
 * (runtime, jobs, cpus).  Used by the INI loader and by `contend exec`.
 */
#ifndef CONTEND_PARAM_H
#define CONTEND_PARAM_H

#include "runner/workload.h"

/* Keys every workload accepts besides its own table. */
extern const struct param_def harness_params[];
extern const size_t nharness_params;

/*
 * Parses one value of parameter p into *v.  Returns 0, or -1 with a
 * message in err (without file/line: the caller adds where).
 * PT_STRING and PT_CPUS values are strdup'ed into v->s.
 */
int param_parse(const struct param_def *p, const char *text,
		union param_value *v, char *err, size_t errlen);
/* Canonical text of a value (normalised: "2s" -> "2", "0-1" -> "0-1"). */
char *param_format(const struct param_def *p, const union param_value *v);
/* "0-3,6" -> set; -1 on malformed list or a cpu >= CPU_SETSIZE. */
int cpulist_parse(const char *text, cpu_set_t *set);

/*
 * Builds wl_args from "key=value" strings: defaults first, then each pair.
 * Unknown keys get a "did you mean" suggestion.  Returns 0 or -1 with err.
 */
int args_from_kv(const struct workload *wl, size_t n, char *const *kv,
		 struct wl_args *a, char *err, size_t errlen);
void args_release(struct wl_args *a);

#endif
