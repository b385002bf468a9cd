/*
 * locks.h - what the lock workloads (futex-mutex, pthread-mutex, spinlock,
 * rwlock) share: the common parameter rows, the group layout, hand-off
 * tracking inside the critical section, the mutual-exclusion check and the
 * report.
 *
 * Layout: `locks` independent groups of `threads` workers; worker id w
 * belongs to group w / per_group (the seed's order: group-major).  Each
 * group has its own lock and its own struct guarded, on cache lines of its
 * own.  A workload's worker loop is:
 *
 *	while (locks_continue(stop, jobs, fixed, done)) {
 *		lock(&g->lock);
 *		c = guarded_update(&g->data);        // under the lock
 *		busy_loops(cfg->hold);
 *		unlock(&g->lock);
 *		handoffs += handoff(&last, c);
 *		busy_loops(cfg->outside);            // worklen + think_ns
 *		done++;
 *	}
 *
 * with counters in locals (futex-mutex's slow paths too, inline; the
 * others' out-of-line slow paths count in the worker's slot), written to
 * the slot at the end.  The run function calls locks_cfg_init(),
 * allocates its groups with harness_alloc_lines(), fills a struct lock_run and
 * calls locks_run(): timed run, mutual-exclusion check, report.
 */
#ifndef CONTEND_LOCKS_H
#define CONTEND_LOCKS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runner/workload.h"
#include "runner/workloads/futexhash.h"
#include "runner/workloads/harness.h"
#include "runner/workloads/probe.h"

/* Most threads a lock workload will create: threads x locks. */
#define LOCKS_MAX_THREADS 4096

/* Indices of the common rows; a workload's own rows follow LP_NCOMMON. */
enum { LP_THREADS, LP_LOCKS, LP_WORKLEN, LP_HOLD_NS, LP_THINK_NS, LP_TIMELINE,
       LP_LATENCY_EVERY, LP_FUTEX_HASH, LP_NCOMMON };

/*
 * The common rows, as designated initializers for the head of a workload's
 * param_def table.  Names follow the futex seed: nthreads -> threads,
 * worklen -> worklen, nmutexes -> locks.
 */
#define LOCKS_COMMON_PARAMS                                                    \
	[LP_THREADS] = { "threads", PT_INT, "2", 1, LOCKS_MAX_THREADS, NULL,  \
			 "threads per lock (threads x locks <= 4096)" },      \
	[LP_LOCKS] = { "locks", PT_INT, "1", 1, LOCKS_MAX_THREADS, NULL,      \
		       "independent groups, each with its own lock, counter " \
		       "and `threads` threads" },                             \
	[LP_WORKLEN] = { "worklen", PT_INT, "0", 0, 1e9, NULL,                \
			 "iterations of an empty loop (compiler barrier) "    \
			 "after each unlock, as in the futex seed" },         \
	[LP_HOLD_NS] = { "hold_ns", PT_INT, "0", 0, 1e9, NULL,                \
			 "calibrated busy work inside the lock, ns" },        \
	[LP_THINK_NS] = { "think_ns", PT_INT, "0", 0, 1e9, NULL,              \
			  "calibrated busy work outside the lock, ns" },      \
	[LP_TIMELINE] = { "timeline", PT_DURATION, "0", 0, 10,                \
			  locks_timeline_words,                               \
			  "record each thread's operations every interval "   \
			  "for the streak figure: auto (1ms, coarser only "   \
			  "where intervals x threads would pass 32768) or a " \
			  "duration; 0: off" },                               \
	[LP_LATENCY_EVERY] = { "latency_every", PT_INT, "0", 0, 1e9, NULL,    \
			       "time one acquisition in N (acquire_p50_ns, " \
			       "p99, max); 0: off" },                        \
	[LP_FUTEX_HASH] = FUTEXHASH_PARAM_ROW

/* timeline's words besides durations: "auto" (probe.h TIMELINE_AUTO). */
extern const char *const locks_timeline_words[];

/* The common parameters, resolved into loop counts. */
struct lock_cfg {
	size_t per_group;   /* workers sharing one lock */
	size_t groups;      /* independent locks */
	size_t nworkers;    /* per_group x groups */
	uint64_t hold;      /* busy loops inside the lock */
	uint64_t outside;   /* busy loops after unlock: worklen + think_ns */
	double loops_per_us; /* the calibration used; 0 when none was needed
				nor handed to the run */
	bool calibrated_work; /* some of the work is in ns (calibrated) */
	double timeline_s;  /* timeline interval (auto resolved), 0: none */
	uint64_t latency_every;
	/* One per worker, when either instrument is on (probe.h); the
	 * workload runs its probed loop copy exactly when probes is set. */
	struct probe *probes;
};

/*
 * Reads the common rows of a (threads per group, groups = locks).  The
 * busy-loop calibration is the one handed to the run, or measured here
 * only when hold_ns or think_ns asks for calibrated work.
 */
void locks_cfg_init(struct lock_cfg *c, const struct wl_args *a);
/* ns of calibrated work in loops (0 for 0 ns), with c's calibration,
 * fetched from harness_loops_per_us() at the first need. */
uint64_t locks_ns_to_loops(struct lock_cfg *c, const struct wl_args *a,
			   long long ns);

/* The validate callback of all four: threads x locks <= 4096, and
 * futex_hash_slots (futexhash.h). */
int locks_validate(const struct wl_args *a, struct wl_blame *blame,
		   char *err, size_t errlen);

/*
 * What a group's lock protects: the counter every operation increments and
 * the id of the last thread that held the lock.  Only ever touched with the
 * lock held.
 */
struct guarded {
	uint64_t count;
};

/*
 * The protected work of one acquisition: one increment.  Returns the
 * counter's new value, which handoff() turns into a hand-off count
 * outside the lock: the critical section holds nothing the reference loop
 * of bench/fidelity.sh does not.
 */
static inline uint64_t guarded_update(struct guarded *g)
{
	return ++g->count;
}

/*
 * 1 when the acquisition that made the group counter `now` came after
 * another thread's (a hand-off), else 0; *last is this thread's previous
 * value, 0 before its first.  Its previous acquisition was the one just
 * before exactly when `now` is one more; the group's first acquisition
 * (1) follows no one.  Registers only, and branch-free.  It replaces an
 * owner-id compare and store under the lock, which lengthened the
 * critical section of the empty futex loop (docs/PERFORMANCE.md,
 * "Fidelity").
 */
static inline uint64_t handoff(uint64_t *last, uint64_t now)
{
	uint64_t h = now != *last + 1;

	*last = now;
	return h;
}

/*
 * The mutual-exclusion check: counts[k] (group k's protected counter)
 * must equal the sum of `field` over the slots of group k's workers
 * (slots k*per_group .. (k+1)*per_group-1).  field is ops for the mutexes;
 * rwlock checks write operations.  Returns 0, or -1 with r->error
 * "mutual exclusion violated: ..." naming the first bad group.
 */
int locks_check(const uint64_t *counts, size_t groups, size_t per_group,
		const struct slot *slots, size_t field, struct result *r);

/* Offsets for locks_check's field. */
#define LOCKS_FIELD_OPS offsetof(struct slot, ops)
#define LOCKS_FIELD_AUX(i) (offsetof(struct slot, aux) + (i) * sizeof(uint64_t))

/*
 * One run of a lock workload, the steps all four share: slots, the timed
 * run, the check, the report.  The workload fills the "in" part; groups is
 * its array of nlocks group structs, stride bytes apart, each holding a
 * struct guarded at data_off.  per_lock workers share each lock (worker w
 * uses lock w / per_lock).
 */
struct lock_run {
	void (*fn)(struct worker *);
	void *ctx;
	const void *groups;
	size_t nlocks, per_lock, stride, data_off;
	size_t check_field;   /* LOCKS_FIELD_OPS, or the aux counting writes */
	struct slot *slots;   /* out: per-worker counters, for the workload's
				 own sums; free with harness_slots_free() */
};

/*
 * Runs lr->fn in c->nworkers threads, checks mutual exclusion and reports.
 * The process's futex hash is set before the threads start and its size
 * reported after they end (futex_hash_slots, futexhash.h).
 * With timeline or latency_every set it gives c->probes for the run (the
 * workers then take their probed loop) and reports what they recorded.
 * Returns 0, or -1 with r->error set.  lr->slots is set either way.
 */
int locks_run(const struct wl_args *a, struct lock_cfg *c,
	      struct lock_run *lr, struct result *r);

/* True when the run wants the probed loop (timeline or latency_every). */
static inline bool locks_probed(const struct lock_cfg *c)
{
	return c->timeline_s > 0 || c->latency_every;
}

/* Sum of slot field aux[i] over n slots. */
uint64_t locks_sum_aux(const struct slot *s, size_t n, size_t i);


/*
 * worker_continue() for a loop specialised on fixed (jobs) or timed
 * (runtime) work: with fixed a constant, each copy of the loop keeps only
 * its own test.  The caller passes w->jobs != 0 as fixed, and w->stop and
 * w->jobs copied into locals before its loop: read through w, they would
 * be loaded again after every busy loop (its asm clobbers memory) and
 * every call, and w would take a register of its own.
 */
static inline __attribute__((always_inline)) bool
locks_continue(const atomic_int *stop, uint64_t jobs, const bool fixed,
	       uint64_t done)
{
	if (fixed)
		return done < jobs;
	return !atomic_load_explicit(stop, memory_order_relaxed);
}

/*
 * Spin-wait hint: PAUSE on x86 (yields the pipeline to the sibling
 * hyper-thread and avoids the memory-order flush on loop exit), a compiler
 * barrier elsewhere.
 */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

#endif
