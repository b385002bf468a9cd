/*
 * metrics.c - the one place a metric's direction and unit are declared, so
 * compare can say `faster` or `slower` and plots can label their axes.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/util.h"

static const struct {
	const char *name;
	enum direction dir;
	const char *unit;
} vocabulary[] = {
	{ "throughput", DIR_HIGHER, "ops/s" },
	{ "ops", DIR_HIGHER, "ops" },
	{ "ops_per_process", DIR_HIGHER, "ops/s" },
	{ "messages", DIR_HIGHER, "messages" },
	{ "elapsed_s", DIR_LOWER, "s" },
	{ "user_s", DIR_LOWER, "s" },
	{ "sys_s", DIR_LOWER, "s" },
	{ "wall_s", DIR_LOWER, "s" },
	{ "latency", DIR_LOWER, "s" },
	{ "contended", DIR_LOWER, "acquisitions" },
	{ "contention_rate", DIR_LOWER, "fraction" },
	{ "handoffs", DIR_UNKNOWN, "acquisitions" },
	{ "handoff_rate", DIR_UNKNOWN, "hand-offs/s" },
	{ "futex_waits", DIR_LOWER, "calls" },
	{ "futex_wakes", DIR_LOWER, "calls" },
	{ "vcsw", DIR_LOWER, "switches" },
	{ "ivcsw", DIR_LOWER, "switches" },
	{ "maxrss_kb", DIR_LOWER, "KiB" },
	{ "spins", DIR_LOWER, "spin iterations" },
	{ "writes", DIR_UNKNOWN, "write operations" },
	{ "start_latency_s", DIR_LOWER, "s" },
	/* the kernel's contended locks (runner/klock.h) */
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
	/* Calibration and identity, not performance: no direction. */
	{ "loops_per_us", DIR_UNKNOWN, "loops/us" },
	{ "fs_magic", DIR_UNKNOWN, "" },
	{ "processes", DIR_UNKNOWN, "processes" },
};

static int lookup(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vocabulary); i++)
		if (!strcmp(vocabulary[i].name, name))
			return (int)i;
	return -1;
}

enum direction metric_direction(const char *name)
{
	int i = lookup(name);
	size_t len = strlen(name);

	if (i >= 0)
		return vocabulary[i].dir;
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

	return i >= 0 ? vocabulary[i].unit : "";
}

const char *analysis_declared_primary(const struct dataset *d, size_t c)
{
	char *key = xasprintf("primary.%s", d->configs[c].section);
	const char *v = experiment_meta(&d->exp, key);

	free(key);
	return v;
}

enum direction analysis_direction(const struct dataset *d, size_t c,
				  const char *name)
{
	char *key = xasprintf("direction.%s.%s", d->configs[c].section, name);
	const char *v = experiment_meta(&d->exp, key);

	free(key);
	if (v && !strcmp(v, "higher"))
		return DIR_HIGHER;
	if (v && !strcmp(v, "lower"))
		return DIR_LOWER;
	return metric_direction(name);
}
