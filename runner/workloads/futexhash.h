/*
 * futexhash.h - the process's private futex hash (Linux 6.16,
 * CONFIG_FUTEX_PRIVATE_HASH): the lock workloads' `futex_hash_slots`
 * parameter, set in the run's process before its threads start and read
 * back after they end, so that every run stores the size it got
 * (docs/WORKLOADS.md, "The futex hash").
 *
 * Semantics, as the running kernel answers prctl(PR_FUTEX_HASH, ...)
 * (checked on 6.18): GET_SLOTS is 0 while the process uses the global
 * hash (a single-threaded process, or after SET_SLOTS 0); the first
 * thread created allocates a private hash of an automatic size (16 or
 * more, growing with threads and CPUs) unless SET_SLOTS asked for one;
 * SET_SLOTS takes 0 (the global hash, for good: a later SET fails with
 * EBUSY) or a power of two from 2.  A kernel without the private hash
 * fails GET_SLOTS with EINVAL.
 */
#ifndef CONTEND_FUTEXHASH_H
#define CONTEND_FUTEXHASH_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/workload.h"

/* futex_hash_slots's one word, parsed as -1: the kernel's own size. */
#define FUTEXHASH_AUTO (-1LL)
extern const char *const futexhash_words[];

/* The parameter row, for a workload's table (locks.h). */
#define FUTEXHASH_PARAM_ROW                                                   \
	{ "futex_hash_slots", PT_INT, "auto", 0, 1 << 20, futexhash_words,    \
	  "the process's private futex hash: auto (the kernel's size), a "    \
	  "power of two from 2, or 0 (the global hash); the run stores the "  \
	  "slots it ended with (needs Linux 6.16 with "                       \
	  "CONFIG_FUTEX_PRIVATE_HASH)" }

/*
 * The load-time check of a value: auto always passes (it asks for
 * nothing; where the kernel has no private hash nothing is recorded);
 * any other value must be 0 or a power of two and the kernel must have
 * the private hash.  Returns 0, or -1 with err naming the key.
 */
int futexhash_validate(long long slots, char *err, size_t errlen);

/* Sets the process's hash to slots (nothing for auto).  Returns 0, or -1
 * with r->error set. */
int futexhash_apply(long long slots, struct result *r);

/*
 * Adds futex_hash_slots (the slots now, 0 for the global hash) and
 * futex_hash_auto (1 when slots is auto) to r; nothing where the kernel
 * has no private hash.
 */
void futexhash_report(long long slots, struct result *r);

/*
 * The seam for tests: prctl(PR_FUTEX_HASH, op, arg, 0) is made through
 * fn (NULL: the real call), so a test can be a kernel without the hash.
 */
typedef int (*futexhash_prctl_fn)(int op, unsigned long arg);
void futexhash_set_prctl(futexhash_prctl_fn fn);

#endif
