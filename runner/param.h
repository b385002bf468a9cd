/*
 * param.h - the one generic parser of workload parameters: typed values,
 * min/max, enums, cpu lists; and the harness keys every workload honours
 * (runtime, jobs, cpus).  Used by the INI loader and by `contend exec`.
 * The typed values are param.c's; a workload's arguments built from
 * "key=value" items (args_*, harness_runner_only, param_name_ok) are
 * args.c's.
 */
#ifndef CONTEND_PARAM_H
#define CONTEND_PARAM_H

#include "runner/workload.h"

/* Keys every workload accepts besides its own table. */
extern const struct param_def harness_params[];
extern const size_t nharness_params;
/* Their indexes in harness_params. */
enum { HARNESS_RUNTIME, HARNESS_JOBS, HARNESS_CPUS, HARNESS_KDELAY,
       HARNESS_OBSERVER };
/* kernel_delay's longest TIME (the BPF program's cap, runner/kinstr/bpf.h) */
#define KDELAY_MAX_S 0.01
/* and its shortest: the program's wait loop reads the clock each turn,
 * which takes tens of ns, so a shorter TIME would be the loop's own cost
 * and not the delay its label claims (docs/KLOCK.md) */
#define KDELAY_MIN_S 1e-7
/* PT_STRING, PT_CPUS and PT_KDELAY: a parsed value holds text in v->s. */
bool param_holds_string(enum param_type t);

/* "int", "u64", "double", ...: indexed by enum param_type. */
extern const char *const param_type_names[];

/*
 * Parses one value of parameter p into *v.  Returns 0, or -1 with a
 * message in err (without file/line: the caller adds where).
 * PT_STRING and PT_CPUS values are strdup'ed into v->s.
 */
int param_parse(const struct param_def *p, const char *text,
		union param_value *v, char *err, size_t errlen);
/*
 * Canonical text of a value, malloc'd (normalised: "2s" -> "2", "1,0" ->
 * "0-1", "on" -> "yes"); param_parse accepts it back and yields the same
 * value.
 */
char *param_format(const struct param_def *p, const union param_value *v);
/* "0-3,6" -> set; -1 on malformed list or a cpu >= CPU_SETSIZE. */
int cpulist_parse(const char *text, cpu_set_t *set);
/* The canonical text of a set: ascending, ranges merged ("0-3,6"). */
char *cpulist_format(const cpu_set_t *set);

/*
 * For humans (contend list, messages): the accepted values of p, e.g.
 * "1 .. 4096", ">= 1", "1ms .. 24h", "none | segv"; the default as text
 * ("-" when there is none, "optional, any number" for a family).  Both
 * malloc'd.
 */
char *param_describe_range(const struct param_def *p);
char *param_describe_default(const struct param_def *p);
/*
 * escape_clip (lib/escape.h), the one escaping and cap of quoted data,
 * under the name the runner's many callers know: at most max bytes of
 * src, escaped (\x1b, \ufeff: 'name' and 'na\u200bme' differ), cut on a
 * whole escape or character with "..." when cut.
 */
void param_clip(char *dst, size_t dstlen, const char *src, size_t max);

/*
 * runner/args.c.  Builds wl_args from "key=value" strings: defaults first, then each pair.
 * Unknown keys get a "did you mean" suggestion; a key given twice, a
 * parameter without a default (def NULL: required) left out, and runtime
 * together with jobs, are errors; with neither, runtime is its default.
 * A WL_OWN_DURATION workload takes neither (both stay 0).
 * Returns 0, or -1 with err and nothing left allocated.  Release a
 * successful result with args_release.
 */
int args_from_kv(const struct workload *wl, size_t n, char *const *kv,
		 struct wl_args *a, char *err, size_t errlen);
/* As args_from_kv, and on error *at is the index in kv of the item at
 * fault, n when none is (a required parameter left out, a bad default). */
int args_from_kv_at(const struct workload *wl, size_t n, char *const *kv,
		    struct wl_args *a, size_t *at, char *err, size_t errlen);
void args_release(struct wl_args *a);
/*
 * Whether item ("key=value") is a key the runner applies and no workload
 * does (kernel_delay: the session's BPF program, runner/kbpf.h; observer:
 * runner/observer.h), so that
 * the runner leaves it out of the `contend exec` it spawns; with
 * asks_something, only when its value asks for something (not 0, not
 * none), so
 * that `contend exec` by hand, which would run without it under a label
 * that claims it, refuses it.  A value that does not parse: false
 * (args_from_kv says what is wrong).
 */
bool harness_runner_only(const char *item, bool asks_something);
/*
 * A name a user gives (a family key's NAME, an environment variable):
 * the len bytes at s are letters, digits and '_', not a digit first, and
 * fewer than METRIC_NAME_MAX.
 */
bool param_name_ok(const char *s, size_t len);

#endif
