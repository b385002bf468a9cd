/*
 * ref_spin.c - the reference of `contend exec spinlock` (its default, kind
 * = ttas with pause = yes) for bench/fidelity.sh: test-and-test-and-set
 * with PAUSE in the read-only spin, in the loop of bench/ref.h.
 */
#include <stdatomic.h>

#define REF_NAME "ref_spin"

struct ref_lock {
	atomic_uint word;
};

static void ref_init(struct ref_lock *l)
{
	(void)l; /* zeroed: free */
}

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

static inline int ref_lock(struct ref_lock *l)
{
	int contended = 0;

	while (atomic_exchange_explicit(&l->word, 1, memory_order_acquire)) {
		contended = 1;
		do
			relax();
		while (atomic_load_explicit(&l->word, memory_order_relaxed));
	}
	return contended;
}

static inline void ref_unlock(struct ref_lock *l)
{
	atomic_store_explicit(&l->word, 0, memory_order_release);
}

#include "bench/ref.h"
