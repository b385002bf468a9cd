/*
 * pthread_mutex.c - the sysbench-mutex loop of the lockdep thread (LKML,
 * 2010) on a pthread mutex, plus the knob behind its surprise:
 * `contended_delay_ns` of extra work on the contended path only, the way
 * lockdep or lock trace events lengthen it.  A slower contended path can
 * raise throughput (waiters sleep, one thread runs alone) while contention
 * and hand-offs fall; this workload reproduces that on demand.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner/workloads/harness.h"
#include "runner/workloads/locks.h"
#include "runner/workloads/workloads.h"

enum { P_DELAY = LP_NCOMMON, P_MODE, P_KIND, P_NPARAMS };

static const char *const modes[] = { "spin", "sleep", NULL };
enum { MODE_SPIN, MODE_SLEEP };

static const char *const kinds[] = { "normal", "adaptive", NULL };

/* pthread mutex type per kind, in the order of kinds[]. */
static const int kind_type[] = { PTHREAD_MUTEX_NORMAL,
				 PTHREAD_MUTEX_ADAPTIVE_NP };

static const struct param_def pmutex_params[P_NPARAMS] = {
	LOCKS_COMMON_PARAMS,
	[P_DELAY] = { "contended_delay_ns", PT_INT, "0", 0, 1e9, NULL,
		      "extra time spent on the contended path only (after a "
		      "failed trylock, before blocking), ns" },
	[P_MODE] = { "contended_delay_mode", PT_ENUM, "spin", 0, 0, modes,
		     "spin: calibrated busy loop; sleep: clock_nanosleep" },
	[P_KIND] = { "kind", PT_ENUM, "normal", 0, 0, kinds,
		     "normal: PTHREAD_MUTEX_NORMAL; adaptive: "
		     "PTHREAD_MUTEX_ADAPTIVE_NP (spins briefly before sleeping)" },
};

/* One mutex and what it protects, on lines of their own. */
struct pgroup {
	_Alignas(2 * CACHELINE) pthread_mutex_t lock;
	struct guarded data;
};

struct pctx {
	struct lock_cfg cfg;
	struct pgroup *groups;
	int mode;
	uint64_t delay_loops;      /* MODE_SPIN */
	struct timespec delay_ts;  /* MODE_SLEEP */
};

/* The contended path's extra cost; the lock is not held here. */
static void contended_delay(const struct pctx *x)
{
	struct timespec left = x->delay_ts;

	if (x->mode == MODE_SPIN) {
		busy_loops(x->delay_loops);
		return;
	}
	if (!left.tv_sec && !left.tv_nsec)
		return;
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &left, &left) == EINTR)
		;
}

/*
 * The contended path, out of line: count, delay, block.  Keeping it (and
 * its counter, kept in the worker's own slot) out of the loop leaves the
 * uncontended path its registers.
 */
static __attribute__((noinline, cold)) void
pmutex_lock_contended(struct worker *w, pthread_mutex_t *m)
{
	w->slot->contended++;
	contended_delay(w->ctx);
	pthread_mutex_lock(m);
}

/*
 * The worker's loop; fixed (jobs or runtime) and bare (no busy work, in
 * or outside the lock) are constants in each copy.  The bare copy holds
 * no loop counts: the values live across the unlock call (the group, the
 * worker, ops, hand-offs, the last counter value and this one) then fit
 * the six callee-saved registers of x86-64, where the two counts spilled
 * ops and hand-offs to the stack in every operation (docs/PERFORMANCE.md,
 * "Fidelity").  With busy work, the one spill is a part of a longer
 * operation.
 */
static inline __attribute__((always_inline)) void
pmutex_loop(struct worker *w, const bool fixed, const bool bare)
{
	const struct pctx *x = w->ctx;
	struct pgroup *g = &x->groups[w->id / x->cfg.per_group];
	const uint64_t hold = bare ? 0 : x->cfg.hold;
	const uint64_t outside = bare ? 0 : x->cfg.outside;
	uint64_t done = 0, handoffs = 0, last = 0;
	const atomic_int *const stop = w->stop;
	const uint64_t jobs = w->jobs;

	while (locks_continue(stop, jobs, fixed, done)) {
		uint64_t c;

		if (pthread_mutex_trylock(&g->lock))
			pmutex_lock_contended(w, &g->lock);
		c = guarded_update(&g->data);
		/* No instruction: c becomes opaque, so the compiler keeps c
		 * alone and not the value it was incremented from too. */
		__asm__("" : "+r"(c));
		if (!bare)
			busy_loops(hold);
		pthread_mutex_unlock(&g->lock);
		handoffs += handoff(&last, c);
		if (!bare)
			busy_loops(outside);
		done++;
	}
	w->slot->ops = done;
	w->slot->handoffs = handoffs;
}

/* One worker function per (fixed, bare), each a specialised pmutex_loop
 * with a register allocation of its own. */
static void pmutex_worker_timed(struct worker *w)
{
	pmutex_loop(w, false, false);
}

static void pmutex_worker_timed_bare(struct worker *w)
{
	pmutex_loop(w, false, true);
}

static void pmutex_worker_fixed(struct worker *w)
{
	pmutex_loop(w, true, false);
}

static void pmutex_worker_fixed_bare(struct worker *w)
{
	pmutex_loop(w, true, true);
}

/* Indexed [fixed][bare]. */
static void (*const pmutex_workers[2][2])(struct worker *) = {
	{ pmutex_worker_timed, pmutex_worker_timed_bare },
	{ pmutex_worker_fixed, pmutex_worker_fixed_bare },
};

static int groups_init(struct pgroup *g, size_t n, int type, struct result *r)
{
	pthread_mutexattr_t attr;
	size_t i, k;
	int err;

	pthread_mutexattr_init(&attr);
	err = pthread_mutexattr_settype(&attr, type);
	for (i = 0; !err && i < n; i++)
		err = pthread_mutex_init(&g[i].lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (!err)
		return 0;
	/* g[i - 1] failed (or settype did, i == 0): undo those before it. */
	for (k = 0; k + 1 < i; k++)
		pthread_mutex_destroy(&g[k].lock);
	return result_fail(r, "pthread mutex init: %s", strerror(err));
}

static int pmutex_run(const struct wl_args *a, struct result *r)
{
	long long delay = a->v[P_DELAY].i;
	struct pctx x = { .mode = a->v[P_MODE].e };
	struct lock_run lr = { .slots = NULL };
	size_t i;
	int ret;

	locks_cfg_init(&x.cfg, a);
	if (x.mode == MODE_SPIN)
		x.delay_loops = locks_ns_to_loops(&x.cfg, a, delay);
	x.delay_ts.tv_sec = (time_t)(delay / 1000000000);
	x.delay_ts.tv_nsec = (long)(delay % 1000000000);
	x.groups = harness_alloc_lines(x.cfg.groups, sizeof(*x.groups));
	ret = groups_init(x.groups, x.cfg.groups, kind_type[a->v[P_KIND].e], r);
	if (ret)
		goto out;
	lr = (struct lock_run){ .fn = pmutex_workers[a->jobs != 0]
						    [!x.cfg.hold && !x.cfg.outside],
				.ctx = &x,
				.groups = x.groups, .nlocks = x.cfg.groups,
				.per_lock = x.cfg.per_group,
				.stride = sizeof(*x.groups),
				.data_off = offsetof(struct pgroup, data),
				.check_field = LOCKS_FIELD_OPS };
	ret = locks_run(a, &x.cfg, &lr, r);
	for (i = 0; i < x.cfg.groups; i++)
		pthread_mutex_destroy(&x.groups[i].lock);
out:
	harness_slots_free(lr.slots);
	free(x.groups);
	return ret;
}

const struct workload pthread_mutex_workload = {
	.name = "pthread-mutex",
	.summary = "sysbench-mutex loop on a pthread mutex; contended_delay_ns "
		   "slows the contended path only",
	.help = "Each acquisition first tries pthread_mutex_trylock; when the "
		"mutex is busy it counts a contended acquisition, spends "
		"contended_delay_ns (spin or sleep) and then blocks in "
		"pthread_mutex_lock.  That models what lockdep or lock trace "
		"events add to the contended path (LKML 2010: enabling them made "
		"sysbench mutex faster while contention halved).  Compare "
		"handoff_rate, not only throughput.",
	.params = pmutex_params,
	.nparams = P_NPARAMS,
	.validate = locks_validate,
	.run = pmutex_run,
};
