/*
 * vocab.c - the data dictionary's tables (db/vocab.h): metric directions
 * and units, parameter roles, fixed-work workloads.
 */
#include <string.h>

#include "db/vocab.h"
#include "lib/util.h"

static const struct {
	const char *name;
	enum direction dir;
	const char *unit;
} metrics[] = {
	{ "throughput", DIR_HIGHER, "ops/s" },
	{ "ops", DIR_HIGHER, "ops" },
	{ "ops_per_process", DIR_HIGHER, "ops/s" },
	{ "messages", DIR_HIGHER, "messages" },
	{ "elapsed_s", DIR_LOWER, "s" },
	{ "user_s", DIR_LOWER, "s" },
	{ "sys_s", DIR_LOWER, "s" },
	{ "wall_s", DIR_LOWER, "s" },
	/* the run's observer starting and stopping (runner/observer.h) */
	{ "observer_start_s", DIR_LOWER, "s" },
	{ "observer_stop_s", DIR_LOWER, "s" },
	{ "latency", DIR_LOWER, "s" },
	{ "contended", DIR_LOWER, "acquisitions" },
	{ "contention_rate", DIR_LOWER, "fraction" },
	{ "handoffs", DIR_UNKNOWN, "acquisitions" },
	{ "handoff_rate", DIR_UNKNOWN, "hand-offs/s" },
	{ "futex_waits", DIR_LOWER, "calls" },
	{ "futex_wakes", DIR_LOWER, "calls" },
	/* the process's private futex hash (runner/workloads/futexhash.h) */
	{ "futex_hash_slots", DIR_UNKNOWN, "slots" },
	{ "futex_hash_auto", DIR_UNKNOWN, "boolean" },
	{ "vcsw", DIR_LOWER, "switches" },
	{ "ivcsw", DIR_LOWER, "switches" },
	{ "maxrss_kb", DIR_LOWER, "KiB" },
	{ "spins", DIR_LOWER, "spin iterations" },
	{ "writes", DIR_UNKNOWN, "write operations" },
	{ "start_latency_s", DIR_LOWER, "s" },
	/* the kernel's contended locks (runner/kinstr/count.h) */
	{ "klock_contended", DIR_LOWER, "contentions" },
	{ "klock_contended_per_op", DIR_LOWER, "contentions/op" },
	{ "klock_spin", DIR_LOWER, "contentions" },
	{ "klock_mutex", DIR_LOWER, "contentions" },
	{ "klock_rwsem_read", DIR_LOWER, "contentions" },
	{ "klock_rwsem_write", DIR_LOWER, "contentions" },
	{ "klock_rwlock_read", DIR_LOWER, "contentions" },
	{ "klock_rwlock_write", DIR_LOWER, "contentions" },
	{ "klock_rt", DIR_LOWER, "contentions" },
	{ "klock_rate", DIR_LOWER, "contentions/s" },
	/* the machine during the run (runner/sentinel.h) */
	{ "steal_s", DIR_LOWER, "s" },
	{ "idle_share", DIR_UNKNOWN, "fraction" },
	{ "cpu_mhz", DIR_UNKNOWN, "MHz" },
	{ "kmsg_lockdep", DIR_LOWER, "messages" },
	{ "kmsg_rcu_stall", DIR_LOWER, "messages" },
	{ "kmsg_soft_lockup", DIR_LOWER, "messages" },
	{ "kmsg_hard_lockup", DIR_LOWER, "messages" },
	{ "kmsg_hung_task", DIR_LOWER, "messages" },
	{ "kmsg_perf_irq", DIR_LOWER, "messages" },
	{ "kmsg_thermal", DIR_LOWER, "messages" },
	{ "kmsg_oom_kill", DIR_LOWER, "messages" },
	{ "kmsg_segfault", DIR_LOWER, "messages" },
	{ "kmsg_bug", DIR_LOWER, "messages" },
	/* their wait, timed by the runner's BPF program (runner/kinstr/bpf.h) */
	{ "klock_wait_s", DIR_LOWER, "s" },
	{ "klock_wait_max_s", DIR_LOWER, "s" },
	/* acquisitions kernel_delay busy-waited after */
	{ "klock_delayed", DIR_LOWER, "acquisitions" },
	/* ... and those it refused, by reason (runner/kinstr/bpf.h) */
	{ "klock_delay_refused_irq", DIR_UNKNOWN, "acquisitions" },
	{ "klock_delay_refused_spin", DIR_UNKNOWN, "acquisitions" },
	{ "klock_delay_refused_share", DIR_UNKNOWN, "acquisitions" },
	{ "klock_delay_refused_total", DIR_UNKNOWN, "acquisitions" },
	{ "klock_wait_spin_s", DIR_LOWER, "s" },
	{ "klock_wait_mutex_s", DIR_LOWER, "s" },
	{ "klock_wait_rwsem_read_s", DIR_LOWER, "s" },
	{ "klock_wait_rwsem_write_s", DIR_LOWER, "s" },
	{ "klock_wait_rwlock_read_s", DIR_LOWER, "s" },
	{ "klock_wait_rwlock_write_s", DIR_LOWER, "s" },
	{ "klock_wait_rt_s", DIR_LOWER, "s" },
	/* Calibration and identity, not performance: no direction. */
	{ "loops_per_us", DIR_UNKNOWN, "loops/us" },
	{ "fs_magic", DIR_UNKNOWN, "" },
	{ "processes", DIR_UNKNOWN, "processes" },
};

/* The workloads built on runner/workloads/locks.h's common rows. */
static const char *const lock_workloads[] = {
	"futex-mutex", "pthread-mutex", "spinlock", "rwlock", NULL,
};

static const struct param_rule param_rules[] = {
	{ "threads", PR_WORKERS, NULL, NULL },
	{ "processes", PR_WORKERS, NULL, NULL },
	{ "users", PR_WORKERS, NULL, NULL },
	{ "rooms", PR_WORKERS, NULL, NULL },
	{ "locks", PR_LOAD, lock_workloads,
	  "sets how many independent lock groups run, each with its own lock "
	  "and threads" },
	{ "worklen", PR_LOAD, lock_workloads,
	  "sets the work each thread does outside the lock (empty loops)" },
	{ "think_ns", PR_LOAD, lock_workloads,
	  "sets the work each thread does outside the lock (ns)" },
};

/* Fixed work by their own parameters (chat: messages per user). */
static const char *const fixed_work[] = { "chat", NULL };

static int lookup(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(metrics); i++)
		if (!strcmp(metrics[i].name, name))
			return (int)i;
	return -1;
}

enum direction metric_direction(const char *name)
{
	int i = lookup(name);
	size_t len = strlen(name);

	if (i >= 0)
		return metrics[i].dir;
	/* Conventions for metrics a command workload names itself. */
	if (len > 2 && !strcmp(name + len - 2, "_s"))
		return DIR_LOWER;
	if (strstr(name, "latency") || strstr(name, "_ns") || strstr(name, "_us"))
		return DIR_LOWER;
	return DIR_UNKNOWN;
}

const char *metric_unit(const char *name)
{
	int i = lookup(name);

	return i >= 0 ? metrics[i].unit : "";
}

static bool in_names(const char *const *names, const char *name)
{
	for (; *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

const struct param_rule *vocab_param_rule(const char *workload,
					  const char *param)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(param_rules); i++) {
		const struct param_rule *r = &param_rules[i];

		if (!strcmp(r->param, param) &&
		    (!r->workloads || in_names(r->workloads, workload)))
			return r;
	}
	return NULL;
}

bool vocab_fixed_work(const char *workload)
{
	return in_names(fixed_work, workload);
}

/* The lock workloads' probes (issue 19), off in every earlier run; the
 * command workload's ok_status (issue 28), 0 alone before it; the lock
 * workloads' futex_hash_slots (issue 40), the kernel's own size before. */
static const struct {
	const char *param, *value;
} added_params[] = {
	{ "timeline", "0" },
	{ "latency_every", "0" },
	{ "ok_status", "0" },
	{ "futex_hash_slots", "auto" },
};

const char *vocab_added_param(const char *param)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(added_params); i++)
		if (!strcmp(added_params[i].param, param))
			return added_params[i].value;
	return NULL;
}
