/*
 * workload.h - the workload descriptor, its typed parameter table, and the
 * result a run hands back.  Workloads know nothing of SQLite or the runner.
 *
 * A workload is one file under runner/workloads/ that ends in one const
 * struct workload; registry.c lists them all in one array.  Parameters are
 * data: a row per key (name, type, default, min, max, help) that one generic
 * parser (param.c) validates, so `contend list`, the INI loader and
 * `contend exec` all speak the same language.
 */
#ifndef CONTEND_WORKLOAD_H
#define CONTEND_WORKLOAD_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum param_type {
	PT_INT,      /* long long, min/max enforced */
	PT_U64,      /* uint64_t, min/max enforced */
	PT_DOUBLE,   /* double, min/max enforced */
	PT_DURATION, /* seconds as double; accepts ns, us, ms, s, m, h */
	PT_BOOL,     /* yes/no, true/false, on/off, 1/0 */
	PT_ENUM,     /* one of param_def.choices */
	PT_STRING,   /* free text (never a sweep: commas are literal) */
	PT_CPUS,     /* cpu list like 0-3,6 */
	PT_KDELAY,   /* TIME@FUNCTION or 0 (kernel_delay, runner/kinstr/bpf.h) */
};

/*
 * One row of a workload's parameter table.
 *
 * A row named "PREFIX.NAME" is a family: it stands for any number of keys
 * PREFIX.X, X chosen by the user (letters, digits and '_', not a digit
 * first, under METRIC_NAME_MAX), each a value of the row's type.  command's
 * `metric.NAME = REGEX` is one.  A family has no default and is never
 * required; its keys arrive in wl_args.members.
 */
#define PARAM_FAMILY_SUFFIX ".NAME"

struct param_def {
	const char *name;
	enum param_type type;
	const char *def;             /* default, as it would be written in INI */
	double min, max;             /* numeric types; max 0 means no limit */
	/* PT_ENUM: the values, NULL-terminated; PT_DURATION and PT_INT:
	 * words accepted besides numbers, choices[k] parsed as -(k + 1)
	 * (timeline's and futex_hash_slots' "auto"), or NULL */
	const char *const *choices;
	const char *help;
};

/* A parsed parameter value; which member is live follows the type. */
union param_value {
	long long i;
	uint64_t u;
	double d;   /* PT_DOUBLE and PT_DURATION (seconds) */
	bool b;
	int e;      /* PT_ENUM: index into choices */
	char *s;    /* PT_STRING; PT_CPUS and PT_KDELAY keep the text here */
};

#define WL_MAX_PARAMS 32
#define WL_MAX_MEMBERS 32   /* keys of all families together, per run */

/* One key of a family, e.g. "metric.ops". */
struct wl_member {
	char *key;          /* the whole key, malloc'd */
	const char *name;   /* within key: the part after the prefix */
	int param;          /* the family's row in the table */
	union param_value v;
};

/*
 * The measured window's marks, for instruments that count only inside it
 * (runner/kinstr/count.h).  A workload with a window calls window_mark(a, true)
 * just before it releases its workers and window_mark(a, false) as soon as
 * the last has finished; one without (command) never calls it.
 */
struct run_window {
	void (*mark)(void *ctx, bool open);
	void *ctx;
};

/*
 * Arguments of one run: the workload's own parameters, in table order, and
 * the harness parameters every workload honours.
 */
struct wl_args {
	const struct workload *wl;
	union param_value v[WL_MAX_PARAMS];     /* families' slots unused */
	struct wl_member members[WL_MAX_MEMBERS]; /* ordered by key */
	size_t nmembers;
	double runtime_s;      /* fixed time; 0 when jobs is set */
	uint64_t jobs;         /* fixed work per thread/process; 0 for runtime */
	bool has_cpus;
	cpu_set_t cpus;        /* affinity of the run (already applied by exec) */
	const char *scratch;   /* private directory for WL_SCRATCH workloads */
	const struct run_window *window; /* NULL: nothing watches the window */
	double loops_per_us;   /* the experiment's busy-loop calibration;
				  0: measure it if needed (harness.h) */
};

static inline void window_mark(const struct wl_args *a, bool open)
{
	if (a->window)
		a->window->mark(a->window->ctx, open);
}

#define RESULT_MAX_METRICS 101
#define METRIC_NAME_MAX 48

struct metric {
	char name[METRIC_NAME_MAX];
	double value;
};

/* What a run reports: named metrics and per-thread (or per-process) ops. */
struct result {
	size_t nmetrics;
	struct metric metrics[RESULT_MAX_METRICS];
	size_t nthreads;
	uint64_t *thread_ops;   /* malloc'd by result_set_threads() */
	/*
	 * Per-thread operations in fixed intervals of tick_s seconds
	 * (runner/workloads/probe.h), thread-major: thread t's count in
	 * interval k is timeline[t * nticks + k].  nticks 0: none recorded.
	 */
	double tick_s;
	size_t tick_threads, nticks;
	uint64_t *timeline;     /* malloc'd by result_set_timeline() */
	char error[512];        /* why the run failed, when run() returns -1 */
};

/* Descriptor flags. */
#define WL_SCRATCH 0x1  /* needs a private scratch directory from the runner */
#define WL_HIDDEN  0x2  /* testing aid: not shown by `contend list` */
/*
 * Its own parameters say how long it runs (chat's messages, command's
 * argv): runtime and jobs do not apply, and its configurations have no
 * runtime or jobs key.
 */
#define WL_OWN_DURATION 0x4
/* Which workloads do fixed work (chat) is data, in db/vocab.h. */

/*
 * A program the runner runs itself: path (found on PATH), argv and envp,
 * each malloc'd (envp's strings too: wl_program_release frees them all).
 */
struct wl_program {
	char *path;
	char **argv;
	char **envp;
};
void wl_program_release(struct wl_program *p);

/*
 * A workload that is an external program (command): the runner spawns the
 * program itself, with the run's timeout, process group and output cap,
 * instead of spawning `contend exec` to fork it -- one process and one
 * exec of contend less per run (docs/PERFORMANCE.md).  run stays for
 * `contend exec`, and must give the same result.
 */
struct wl_spawn {
	/*
	 * The program of a run: base is the environment the runner gives
	 * every run (the program's starts from it).  0, or -1 with err (the
	 * program cannot be run: the run fails with err).
	 */
	int (*program)(const struct wl_args *a, char *const *base,
		       struct wl_program *p, char *err, size_t errlen);
	/*
	 * The result of the finished program: wstatus as from wait4, wall_s
	 * from spawn to reap, out its stdout and stderr together
	 * (NUL-terminated, len bytes, modifiable).  0 with the metrics in r
	 * (elapsed_s among them), or -1 with r->error.
	 */
	int (*collect)(const struct wl_args *a, int wstatus, double wall_s,
		       char *out, size_t len, struct result *r);
	size_t out_max;      /* output cap; more fails the run */
	const char *overflow; /* why the run failed when out_max is passed */
};

/*
 * The keys a failed check is about, most to blame first (NULL: unused).
 * The INI loader points its message at the line of the first of them
 * the section gave, else at the section's header.
 */
#define WL_BLAME_MAX 2
struct wl_blame {
	const char *keys[WL_BLAME_MAX];
};

/* Sets *b (when b is not NULL: a caller that does not ask) and returns
 * -1, for `return wl_blame(b, "threads", "locks")` after err is set. */
static inline int wl_blame(struct wl_blame *b, const char *first,
			   const char *second)
{
	if (b) {
		b->keys[0] = first;
		b->keys[1] = second;
	}
	return -1;
}

struct workload {
	const char *name;
	const char *summary;                 /* one line */
	const char *help;                    /* a paragraph, may be NULL */
	const struct param_def *params;
	size_t nparams;
	unsigned flags;
	/* Non-NULL when this build or machine cannot run it (still listed). */
	const char *unsupported;
	/*
	 * Cross-parameter checks at config load time (e.g. a regex compiles,
	 * a directory exists).  Optional.  Returns 0, or -1 with a message
	 * in err naming the offending key, and the keys it is about in
	 * *blame (set with wl_blame; blame may be NULL).
	 */
	int (*validate)(const struct wl_args *a, struct wl_blame *blame,
			char *err, size_t errlen);
	/*
	 * Its PT_STRING parameters in which {NAME} stands for the user
	 * parameter param.NAME (docs/INI.md); NULL-terminated, may be NULL.
	 */
	const char *const *templates;
	/*
	 * The metric a configuration is judged by when its section names
	 * none (`primary`); keys are the section's keys in file order.
	 * Returns a name, which may point into keys, or NULL for
	 * throughput.  Optional.
	 */
	const char *(*primary)(const struct wl_args *a, const char *const *keys,
			       size_t nkeys);
	/*
	 * Runs the workload in the calling process (contend exec only).
	 * Returns 0 with the result filled, or -1 with result.error set.
	 */
	int (*run)(const struct wl_args *a, struct result *r);
	/* Non-NULL: the runner spawns the workload's program itself. */
	const struct wl_spawn *spawn;
};

/* registry.c */
extern const struct workload *const workloads[];
extern const size_t nworkloads;
const struct workload *workload_find(const char *name);
/* The row of a single parameter (families excluded), or -1. */
int workload_param_index(const struct workload *wl, const char *name);
/* The family row whose prefix key starts with ("metric." for "metric.ops"),
 * or -1; the part after the prefix is not checked here. */
int workload_family_index(const struct workload *wl, const char *key);
bool param_is_family(const struct param_def *p);

/* result.c */
void result_init(struct result *r);
void result_release(struct result *r);
/* Adds (or replaces) a metric; -1 when the table is full. */
int result_add(struct result *r, const char *name, double value);
/* The value of a metric, NAN when absent. */
double result_value(const struct result *r, const char *name);
int result_set_threads(struct result *r, size_t n, const uint64_t *ops);
void result_set_timeline(struct result *r, double tick_s, size_t nthreads,
			 size_t nticks, const uint64_t *ops);
/* Sets r->error printf-style and returns -1, for `return result_fail(...)`. */
int result_fail(struct result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints the exec protocol: "name value" lines, "thread I OPS", the
 * timeline lines, "end" (runner/protocol.h). */
int result_print(const struct result *r, int fd);

/*
 * Start latency.  The runner puts its CLOCK_MONOTONIC at the spawn of a
 * run, in nanoseconds, in the run's environment as SPAWN_NS_ENV; the
 * harness reports start_latency_s, from that stamp to the release of its
 * start barrier (docs/PERFORMANCE.md).  spawn_stamp() is the stamp in
 * seconds, NAN when absent or malformed (a run typed by hand).
 */
#define SPAWN_NS_ENV "CONTEND_SPAWN_NS"
double spawn_stamp(void);

#endif
