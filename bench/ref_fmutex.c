/*
 * ref_fmutex.c - the reference of `contend exec futex-mutex` for
 * bench/fidelity.sh: the futex seed (OSv misc-futex-perf) in plain C11,
 * Drepper's mutex take 2, in the loop of bench/ref.h.
 */
#include <linux/futex.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#define REF_NAME "ref_fmutex"

enum { UNLOCKED, LOCKED, WAITERS };

struct ref_lock {
	atomic_uint word;
};

static unsigned cmpxchg(atomic_uint *p, unsigned expected, unsigned desired)
{
	atomic_compare_exchange_strong(p, &expected, desired);
	return expected;
}

static void ref_init(struct ref_lock *l)
{
	(void)l; /* zeroed: UNLOCKED */
}

static inline int ref_lock(struct ref_lock *l)
{
	atomic_uint *m = &l->word;
	unsigned c = cmpxchg(m, UNLOCKED, LOCKED);

	if (c == UNLOCKED)
		return 0;
	do {
		if (c == WAITERS || cmpxchg(m, LOCKED, WAITERS) != UNLOCKED)
			syscall(SYS_futex, m, FUTEX_WAIT_PRIVATE, WAITERS,
				NULL, NULL, 0);
	} while ((c = cmpxchg(m, UNLOCKED, WAITERS)) != UNLOCKED);
	return 1;
}

static inline void ref_unlock(struct ref_lock *l)
{
	atomic_uint *m = &l->word;

	if (atomic_fetch_sub(m, 1) != LOCKED) {
		atomic_store_explicit(m, UNLOCKED, memory_order_release);
		syscall(SYS_futex, m, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
}

#include "bench/ref.h"
