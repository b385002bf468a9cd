/*
 * futex_mutex.c - the futex seed (OSv misc-futex-perf, 2022): `locks`
 * groups of `threads` threads loop lock / increment the group counter /
 * unlock / `worklen` empty loops, on the mutex of Drepper's "Futexes Are
 * Tricky" (mutex take 2).  It counts what the seed could not: slow-path
 * entries and the FUTEX_WAIT and FUTEX_WAKE calls ("futex called").
 *
 * ThreadSanitizer needs no annotation here: every ordering the mutex
 * relies on is a C11 atomic (acquire by cmpxchg, release by fetch_sub and
 * by the store of 0 before a wake); the futex calls only sleep and wake.
 */
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner/workloads/harness.h"
#include "runner/workloads/locks.h"
#include "runner/workloads/workloads.h"

enum { P_NPARAMS = LP_NCOMMON };

static const struct param_def fmutex_params[P_NPARAMS] = {
	LOCKS_COMMON_PARAMS,
};

/* slot.aux[] of this workload */
enum { AUX_WAITS, AUX_WAKES };

/*
 * FUTEX_WAIT_PRIVATE: sleep while *uaddr == val (the kernel checks that
 * atomically with queueing us, so a wake between our check and the call
 * is not lost: it returns EAGAIN at once).  Spurious returns are fine, the
 * caller re-checks.  PRIVATE: the futex is not shared between processes,
 * which lets the kernel skip the mm-wide hash key.
 */
static inline long futex_wait(atomic_uint *uaddr, unsigned val)
{
	return syscall(SYS_futex, uaddr, FUTEX_WAIT_PRIVATE, val, NULL, NULL,
		       0);
}

/* FUTEX_WAKE_PRIVATE: wake at most nr waiters of uaddr. */
static inline long futex_wake(atomic_uint *uaddr, int nr)
{
	return syscall(SYS_futex, uaddr, FUTEX_WAKE_PRIVATE, nr, NULL, NULL,
		       0);
}

/* The three states of Drepper's mutex. */
enum { UNLOCKED = 0, LOCKED = 1, WAITERS = 2 /* locked, maybe waiters */ };

/* Drepper's cmpxchg: returns the value found, stores desired if expected. */
static inline unsigned cmpxchg(atomic_uint *p, unsigned expected,
			       unsigned desired)
{
	atomic_compare_exchange_strong(p, &expected, desired);
	return expected;
}

/*
 * The lock's paths inline, as the reference has them, counting into the
 * loop's locals (registers): contended acquisitions, waits and wakes.
 */
static inline __attribute__((always_inline)) void
fmutex_lock(atomic_uint *m, uint64_t *contended, uint64_t *waits)
{
	unsigned c = cmpxchg(m, UNLOCKED, LOCKED);

	if (__builtin_expect(c == UNLOCKED, 1))
		return;
	++*contended;
	do {
		/* Mark it WAITERS (unless it just came free) and sleep. */
		if (c == WAITERS || cmpxchg(m, LOCKED, WAITERS) != UNLOCKED) {
			futex_wait(m, WAITERS);
			++*waits;
		}
		/* Take it as WAITERS: we cannot know no one else sleeps. */
	} while ((c = cmpxchg(m, UNLOCKED, WAITERS)) != UNLOCKED);
}

/* If it was WAITERS (not LOCKED), someone may sleep: wake one. */
static inline __attribute__((always_inline)) void
fmutex_unlock(atomic_uint *m, uint64_t *wakes)
{
	if (__builtin_expect(atomic_fetch_sub(m, 1) == LOCKED, 1))
		return;
	atomic_store_explicit(m, UNLOCKED, memory_order_release);
	futex_wake(m, 1);
	++*wakes;
}

/* One lock and what it protects, on lines of their own. */
struct fgroup {
	_Alignas(2 * CACHELINE) atomic_uint lock;
	struct guarded data;
};

struct fctx {
	struct lock_cfg cfg;
	struct fgroup *groups;
};

/*
 * The worker's loop; fixed (jobs or runtime) and probed (probe.h) are
 * constants in each copy.
 */
static inline __attribute__((always_inline)) void
fmutex_loop(struct worker *w, const bool fixed, const bool probed)
{
	const struct fctx *x = w->ctx;
	struct fgroup *g = &x->groups[w->id / x->cfg.per_group];
	struct slot *st = w->slot;
	struct probe *pr = probed ? &x->cfg.probes[w->id] : NULL;
	uint64_t left = probed ? probe_every(pr) : 0;
	const uint64_t hold = x->cfg.hold, outside = x->cfg.outside;
	uint64_t done = 0, handoffs = 0, last = 0;
	uint64_t contended = 0, waits = 0, wakes = 0;
	const atomic_int *const stop = w->stop;
	const uint64_t jobs = w->jobs;

	while (locks_continue(stop, jobs, fixed, done)) {
		uint64_t c, t0 = probed ? probe_begin(pr, &left) : 0;

		fmutex_lock(&g->lock, &contended, &waits);
		if (probed)
			probe_end(pr, t0, done);
		c = guarded_update(&g->data);
		busy_loops(hold);
		fmutex_unlock(&g->lock, &wakes);
		handoffs += handoff(&last, c);
		busy_loops(outside);
		done++;
	}
	st->ops = done;
	st->handoffs = handoffs;
	st->contended = contended;
	st->aux[AUX_WAITS] = waits;
	st->aux[AUX_WAKES] = wakes;
}

static void fmutex_worker(struct worker *w)
{
	const struct fctx *x = w->ctx;

	if (x->cfg.probes)
		w->jobs ? fmutex_loop(w, true, true) : fmutex_loop(w, false, true);
	else
		w->jobs ? fmutex_loop(w, true, false) : fmutex_loop(w, false, false);
}

static int fmutex_run(const struct wl_args *a, struct result *r)
{
	struct fctx x;
	struct lock_run lr;
	int ret;

	locks_cfg_init(&x.cfg, a);
	x.groups = harness_alloc_lines(x.cfg.groups, sizeof(*x.groups));
	lr = (struct lock_run){ .fn = fmutex_worker, .ctx = &x,
				.groups = x.groups, .nlocks = x.cfg.groups,
				.per_lock = x.cfg.per_group,
				.stride = sizeof(*x.groups),
				.data_off = offsetof(struct fgroup, data),
				.check_field = LOCKS_FIELD_OPS };
	ret = locks_run(a, &x.cfg, &lr, r);
	if (!ret) {
		result_add(r, "futex_waits",
			   (double)locks_sum_aux(lr.slots, x.cfg.nworkers,
						 AUX_WAITS));
		result_add(r, "futex_wakes",
			   (double)locks_sum_aux(lr.slots, x.cfg.nworkers,
						 AUX_WAKES));
	}
	harness_slots_free(lr.slots);
	free(x.groups);
	return ret;
}

const struct workload futex_mutex_workload = {
	.name = "futex-mutex",
	.summary = "threads x locks loop lock/increment/unlock + worklen on "
		   "Drepper's futex mutex",
	.help = "The futex seed (OSv misc-futex-perf): `locks` groups of "
		"`threads` threads each take their group's mutex, increment the "
		"group counter, unlock, then spin `worklen` empty loops.  The "
		"mutex is mutex take 2 of Drepper's \"Futexes Are Tricky\" "
		"(0 unlocked, 1 locked, 2 locked with maybe waiters).  Reports "
		"contended (slow-path entries), futex_waits and futex_wakes "
		"(syscalls made), handoffs and loops_per_us.",
	.params = fmutex_params,
	.nparams = P_NPARAMS,
	.validate = locks_validate,
	.run = fmutex_run,
};
