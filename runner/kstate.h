/*
 * kstate.h - the kernel's instrumentation and the state that changes its
 * lock slow paths, recorded with an experiment at its start and checked
 * again at its end: tracing enabled in tracefs (lock, sched and irq
 * events, the tracer, kprobes), lockdep and lock_stat active, mitigations,
 * isolated and nohz_full CPUs, transparent huge pages, and the CONFIG
 * options of the lock slow paths.
 *
 * Every key is "kstate.NAME" in experiment_meta (docs/STORAGE.md,
 * "Kernel state"); a fact that cannot be read is "unknown", which compare
 * never counts as a difference.  A key whose value at the end of the
 * experiment differs is stored again as "kstate_end.NAME" with the end's
 * value.  Files are read under a root directory ("" or "/" for the live
 * system), as runner/host.c reads its facts, so tests use a fake tree.
 */
#ifndef CONTEND_KSTATE_H
#define CONTEND_KSTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "db/contract.h"
#include "db/store.h"

/* The prefixes of the keys at the start and of the changed ones at the end. */
#define KSTATE_PREFIX MK_KSTATE_PREFIX
#define KSTATE_END_PREFIX MK_KSTATE_END_PREFIX

/*
 * Appends the kernel state to e->meta as "kstate.NAME" rows.  kconfig:
 * also read the build configuration (/boot/config-RELEASE or
 * /proc/config.gz, through zlib); false at the end, where it
 * cannot have changed.  Returns 0.
 */
int kstate_collect(const char *root, bool kconfig, struct experiment_row *e);

/*
 * Reads the state again and stores "kstate_end.NAME" for every key of
 * start whose value differs now (nothing when nothing changed), and
 * "kstate_checked" = "start, end".  Returns 0, or -1 when the store fails.
 */
int kstate_end(const char *root, struct store *s,
	       const struct experiment_row *start);

#endif
