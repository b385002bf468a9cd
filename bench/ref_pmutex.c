/*
 * ref_pmutex.c - the reference of `contend exec pthread-mutex` for
 * bench/fidelity.sh: a PTHREAD_MUTEX_NORMAL mutex taken as the workload
 * takes it -- pthread_mutex_trylock, and pthread_mutex_lock when that
 * failed (a contended acquisition) -- in the loop of bench/ref.h.
 */
#include <pthread.h>

#define REF_NAME "ref_pmutex"

struct ref_lock {
	pthread_mutex_t m;
};

static void ref_init(struct ref_lock *l)
{
	pthread_mutex_init(&l->m, NULL);
}

static inline int ref_lock(struct ref_lock *l)
{
	if (!pthread_mutex_trylock(&l->m))
		return 0;
	pthread_mutex_lock(&l->m);
	return 1;
}

static inline void ref_unlock(struct ref_lock *l)
{
	pthread_mutex_unlock(&l->m);
}

#include "bench/ref.h"
