/*
 * host.h - what the machine was like when an experiment started: kernel,
 * CPU, governor, load, lock debugging, tool version; stored as the
 * experiment's metadata, with the warnings a careful benchmarker heeds.
 *
 * Everything is read from files (/proc, /sys) under a root directory, so
 * tests can point it at a fake tree; the live system is root "/".
 */
#ifndef CONTEND_HOST_H
#define CONTEND_HOST_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <zlib.h>

#include "db/store.h"

/* Keys written (absent facts are stored as "unknown"):
 *   hostname, kernel_release, kernel_version, arch, cpu_model,
 *   cpus_online (a cpu list), ncpus, smt (active | inactive | notsupported
 *   | ...), governor (one name, the distinct names "a,b" when CPUs differ, or
 *   "none" without cpufreq),
 *   affinity (the CPUs this process may run on, a cpu list), cpuset (its
 *   cpuset cgroup), cpuset_cpus (that cgroup's effective CPUs), boot_id,
 *   cmdline (/proc/cmdline), load_start (1-minute, at the start), preempt
 *   (none | voluntary | full | lazy | rt, " (dynamic)" when switchable at
 *   boot), lockdep, lock_stat (yes | no: /proc/lockdep and /proc/lock_stat
 *   exist), tool_version, compiler.  affinity is this process's, whatever
 *   root is.  Each key has its row in the one table of host facts
 *   (db/facts.h); the kernel's CONFIG options are kstate.kconfig.NAME
 *   (runner/kstate.h).                                                    */

/* Appends the host facts to e->meta (e owns the copies).  Returns 0. */
int host_collect(const char *root, struct experiment_row *e);
/*
 * Adds "fs_type" for the directories the workloads will write in: the
 * type when all agree ("ext4"), else "dir=type" pairs joined by ",".
 * Nothing when ndirs is 0.
 */
void host_fs_types(struct experiment_row *e, const char *const *dirs,
		   size_t ndirs);
/*
 * Prints the warnings the facts in e call for (load_start above 0.5 per
 * online CPU; a governor other than performance) and returns how many.
 */
int host_warn(const struct experiment_row *e);

/*
 * The kernel's log as /dev/kmsg holds it now, the text of each record on
 * its own line, malloc'd; NULL where it cannot be read.  At most max
 * bytes, the oldest records first.
 */
char *host_kernel_log(size_t max);

/* Stores load_end, the 1-minute load average now, for experiment. */
int host_load_end(struct store *s, int64_t experiment);

/*
 * The kernel's build configuration, read line by line with gzgets:
 * /boot/config-RELEASE, else /proc/config.gz, both through zlib (a plain
 * file reads as it is); NULL when neither is readable.  Closed with
 * gzclose.
 */
gzFile host_kconfig_open(const char *root);

#endif
