/*
 * contract.h - the runner-analysis contract: every key the runner stores
 * with an experiment (experiment_meta) for analysis to read back, declared
 * here once and written and read through this API on both sides
 * (docs/ARCHITECTURE.md, "The runner-analysis contract"; the values in
 * docs/STORAGE.md).
 *
 * A section's settings are keys built from the section's name (its
 * `[workload NAME]`): contract_set writes one into an experiment row
 * before it is stored, contract_get reads one back.  The experiment's own
 * keys are the MK_ names below, given to meta_set and experiment_meta as
 * they are.
 */
#ifndef CONTEND_CONTRACT_H
#define CONTEND_CONTRACT_H

#include <stdbool.h>

#include "db/store.h"

/* What a section is judged by and how its measured runs were counted. */
enum contract_key {
	CK_PRIMARY,        /* primary.SECTION: the metric judged */
	CK_DIRECTION,      /* direction.SECTION.METRIC: higher | lower */
	CK_REPETITIONS,    /* repetitions.SECTION: N | auto */
	CK_AUTO_PRECISION, /* auto.SECTION.precision (auto sections only) */
	CK_AUTO_MIN,       /* auto.SECTION.min_repetitions */
	CK_AUTO_MAX,       /* auto.SECTION.max_repetitions */
	CK_COUNT
};

/* The values of CK_DIRECTION and CK_REPETITIONS that are words. */
#define CV_HIGHER "higher"
#define CV_LOWER "lower"
#define CV_AUTO "auto"

/*
 * The stored name of key k for section (and metric, CK_DIRECTION's
 * third part; NULL for the others), malloc'd.
 */
char *contract_key(enum contract_key k, const char *section,
		   const char *metric);
/* Sets (replaces) key k of section in e's meta. */
void contract_set(struct experiment_row *e, enum contract_key k,
		  const char *section, const char *metric, const char *value);
/* Key k of section in e's meta; NULL when absent. */
const char *contract_get(const struct experiment_row *e, enum contract_key k,
			 const char *section, const char *metric);
/* Whether a stored key is one of a section's (any CK_ key). */
bool contract_section_key(const char *key);

/*
 * The experiment's own keys that one layer writes and another reads.
 * Host facts are written by runner/host.c, runner/kstate.c and
 * runner/sentinel.c ("unknown" for what could not be read).
 */
#define MK_CALIBRATION "calibration_loops_per_us" /* the busy loop's */
#define MK_CALIBRATION_SOURCE "calibration_source" /* config | measured ... */
#define MK_SEED_SOURCE "seed_source"
/* the machine (runner/host.c) */
#define MK_HOSTNAME "hostname"
#define MK_TOOL_VERSION "tool_version"   /* contend's version that ran it */
#define MK_KERNEL_RELEASE "kernel_release"
#define MK_KERNEL_VERSION "kernel_version"
#define MK_NCPUS "ncpus"
#define MK_CPUS_ONLINE "cpus_online"
#define MK_SMT "smt"
#define MK_CPU_MODEL "cpu_model"
#define MK_GOVERNOR "governor"
#define MK_AFFINITY "affinity"
#define MK_CPUSET "cpuset"
#define MK_LOAD_START "load_start" /* 1-minute load average at the start */
#define MK_LOAD_END "load_end"
#define MK_LOADAVG "loadavg"       /* load_start under its old name */
/* the kernel's instrumentation (runner/host.c, runner/start.c) */
#define MK_PREEMPT "preempt"
#define MK_LOCKDEP "lockdep"
#define MK_LOCK_STAT "lock_stat"
#define MK_KCONFIG_LOCKDEP "kconfig_lockdep"
#define MK_KCONFIG_LOCK_STAT "kconfig_lock_stat"
#define MK_KERNEL_INSTRUMENTS "kernel_instruments"
#define MK_KERNEL_SPIN_VISIBLE "kernel_spin_visible"
#define MK_KERNEL_LOCK_EVENTS "kernel_lock_events"
/* the session's kernel lock instrument, a word: none | count | kinds |
 * bpf (runner/kinstr/kinstr.h); and why the ones listed before it did not run */
#define MK_KERNEL_LOCK_INSTRUMENT "kernel_lock_instrument"
#define MK_KERNEL_LOCK_FALLBACK "kernel_lock_fallback"
/* what a resume must find unchanged (runner/start.c) */
#define MK_BOOT_ID "boot_id"           /* runner/host.c: this boot's id */
#define MK_TOOL_VERSION "tool_version" /* contend's version */
#define MK_MERGED_INTO "merged_into"   /* contend merge: the database */
#define MK_RESUME_FORCED "resume_forced" /* --force: what differed */
/* runner/kstate.c: kstate.NAME at the start, kstate_end.NAME when changed */
#define MK_KSTATE_PREFIX "kstate."
#define MK_KSTATE_END_PREFIX "kstate_end."
/* runner/claim.c: the live runner of the experiment (lib/procid.h's
 * text); read by the store too, which upgrades no schema under it */
#define MK_CLAIM "runner"
/* runner/onerun.c: kmsg.SEQ, the first kernel warning of run SEQ */
#define MK_KMSG_PREFIX "kmsg."
/* runner/sentinel.c: whether the kernel log was followed, a word:
 * followed, denied, absent, unreadable (runner/sentinel.h); read by
 * analysis/kwarn.c */
#define MK_KERNEL_LOG "kernel_log"
#define KERNEL_LOG_FOLLOWED "followed"
#define KERNEL_LOG_DENIED "denied"         /* not root, dmesg_restrict */
#define KERNEL_LOG_ABSENT "absent"         /* no /dev/kmsg */
#define KERNEL_LOG_UNREADABLE "unreadable" /* any other failure */

/*
 * Experiments stored before a section's repetitions and stopping rule
 * were (schema version below STORE_CONTRACT_VERSION): the keys those
 * versions would have written, from the stored config text as they read
 * it (a section's key over [experiment]'s over their defaults), added to
 * e's meta for each auto section that has no repetitions.SECTION.  The
 * store calls it: on each such experiment when it upgrades a database
 * (and merges from an older one) and on each it loads from a database
 * opened read-only, not upgraded.
 */
#define STORE_CONTRACT_VERSION 4
/*
 * The INI loader's limits (runner/config.h, docs/LIMITS.md), declared here
 * so that contract_from_config is bounded by them too: a stored config
 * text no contend would have loaded (a received file's) is read no
 * further than one it would, a text over CONFIG_MAX_FILE bytes not at
 * all, the sections past CONFIG_MAX_SECTIONS not.
 */
#define CONFIG_MAX_FILE     (16 << 20) /* bytes per INI file */
#define CONFIG_MAX_SECTIONS 1000     /* sections per file */
void contract_from_config(struct experiment_row *e);

#endif
