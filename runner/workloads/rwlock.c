/*
 * rwlock.c - read-side sharing of a reader-writer lock, the "chat" seed's
 * finding (LSE, 2001): read-locking a shared rwlock writes its lock word
 * even when no writer ever comes, so read-mostly threads on different CPUs
 * ping-pong its cache line.  shared=no gives every thread its own rwlock:
 * the same instructions without the sharing, the control case.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runner/workloads/harness.h"
#include "runner/workloads/locks.h"
#include "runner/workloads/workloads.h"

enum { P_WRITERS = LP_NCOMMON, P_SHARED, P_KIND, P_NPARAMS };

static const char *const kinds[] = { "pthread", NULL };

static const struct param_def rw_params[P_NPARAMS] = {
	LOCKS_COMMON_PARAMS,
	[P_WRITERS] = { "writers", PT_INT, "0", 0, 100, NULL,
			"percentage of operations that take the write lock "
			"(each op draws from a per-thread xorshift)" },
	[P_SHARED] = { "shared", PT_BOOL, "yes", 0, 0, NULL,
		       "yes: `threads` threads share each rwlock; no: one "
		       "rwlock per thread (the control case)" },
	[P_KIND] = { "kind", PT_ENUM, "pthread", 0, 0, kinds,
		     "pthread: pthread_rwlock_t (glibc default, prefers "
		     "readers)" },
};

/* slot.aux[] of this workload */
enum { AUX_WRITES, AUX_SEEN };

/* One rwlock and what it protects. */
struct rgroup {
	_Alignas(2 * CACHELINE) pthread_rwlock_t lock;
	struct guarded data;
};

struct rctx {
	struct lock_cfg cfg;
	struct rgroup *groups;
	size_t per_lock;      /* threads sharing a lock: threads, or 1 */
	uint64_t write_below; /* an op writes when rand >> 32 is below this */
};

/* Marsaglia's xorshift64: a few cycles per draw, no shared state. */
static inline uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* A failed trylock, out of line: count it and block. */
static __attribute__((noinline, cold)) void
rw_lock_contended(struct slot *st, pthread_rwlock_t *l, bool write)
{
	st->contended++;
	if (write)
		pthread_rwlock_wrlock(l);
	else
		pthread_rwlock_rdlock(l);
}

/* The worker's loop; fixed (jobs or runtime) is a constant in each copy. */
static inline __attribute__((always_inline)) void
rw_loop(struct worker *w, const bool fixed)
{
	const struct rctx *x = w->ctx;
	struct rgroup *g = &x->groups[w->id / x->per_lock];
	const uint64_t me = w->id + 1, hold = x->cfg.hold,
		       outside = x->cfg.outside, below = x->write_below;
	/* Any non-zero seed; distinct per thread. */
	uint64_t rng = 0x9e3779b97f4a7c15ull * me;
	uint64_t done = 0, handoffs = 0, writes = 0, seen = 0, last = 0;
	const atomic_int *const stop = w->stop;
	const uint64_t jobs = w->jobs;

	while (locks_continue(stop, jobs, fixed, done)) {
		const bool write = (xorshift64(&rng) >> 32) < below;

		if (write) {
			if (pthread_rwlock_trywrlock(&g->lock))
				rw_lock_contended(w->slot, &g->lock, true);
			seen = guarded_update(&g->data);
		} else {
			if (pthread_rwlock_tryrdlock(&g->lock))
				rw_lock_contended(w->slot, &g->lock, false);
			/* The read side reads what writers protect. */
			seen = g->data.count;
		}
		busy_loops(hold);
		pthread_rwlock_unlock(&g->lock);
		if (write) {
			handoffs += handoff(&last, seen);
			writes++;
		}
		busy_loops(outside);
		done++;
	}
	w->slot->ops = done;
	w->slot->handoffs = handoffs;
	w->slot->aux[AUX_WRITES] = writes;
	w->slot->aux[AUX_SEEN] = seen;
}

static void rw_worker(struct worker *w)
{
	if (w->jobs)
		rw_loop(w, true);
	else
		rw_loop(w, false);
}

static int groups_init(struct rgroup *g, size_t n, struct result *r)
{
	size_t i, k;
	int err = 0;

	for (i = 0; !err && i < n; i++)
		err = pthread_rwlock_init(&g[i].lock, NULL);
	if (!err)
		return 0;
	for (k = 0; k + 1 < i; k++)
		pthread_rwlock_destroy(&g[k].lock);
	return result_fail(r, "pthread_rwlock_init: %s", strerror(err));
}

static int rw_run(const struct wl_args *a, struct result *r)
{
	struct rctx x;
	struct lock_run lr = { .slots = NULL };
	size_t nlocks, i;
	int ret;

	locks_cfg_init(&x.cfg, a);
	x.per_lock = a->v[P_SHARED].b ? x.cfg.per_group : 1;
	nlocks = x.cfg.nworkers / x.per_lock;
	/* writers% of the 2^32 values of the draw's top half. */
	x.write_below = ((uint64_t)a->v[P_WRITERS].i << 32) / 100;
	x.groups = harness_alloc_lines(nlocks, sizeof(*x.groups));
	ret = groups_init(x.groups, nlocks, r);
	if (ret)
		goto out;
	/* Writers increment the counter; readers only read it. */
	lr = (struct lock_run){ .fn = rw_worker, .ctx = &x,
				.groups = x.groups, .nlocks = nlocks,
				.per_lock = x.per_lock,
				.stride = sizeof(*x.groups),
				.data_off = offsetof(struct rgroup, data),
				.check_field = LOCKS_FIELD_AUX(AUX_WRITES) };
	ret = locks_run(a, &x.cfg, &lr, r);
	if (!ret)
		result_add(r, "writes",
			   (double)locks_sum_aux(lr.slots, x.cfg.nworkers,
						 AUX_WRITES));
	for (i = 0; i < nlocks; i++)
		pthread_rwlock_destroy(&x.groups[i].lock);
out:
	harness_slots_free(lr.slots);
	free(x.groups);
	return ret;
}

const struct workload rwlock_workload = {
	.name = "rwlock",
	.summary = "read-mostly threads on a shared (or per-thread) "
		   "pthread rwlock: read-side cache-line ping-pong",
	.help = "The chat seed (LSE 2001): fget() read-locked the shared "
		"files_struct lock with no writer anywhere, yet the lock word's "
		"cache line ping-ponged between CPUs and halved throughput.  "
		"Each operation takes the read lock (or, for `writers` percent "
		"of operations, the write lock and increments the counter).  "
		"Compare shared=yes with shared=no.  contended counts failed "
		"trylocks; handoffs counts write acquisitions after another "
		"thread's write; writes counts write operations.",
	.params = rw_params,
	.nparams = P_NPARAMS,
	.validate = locks_validate,
	.run = rw_run,
};
