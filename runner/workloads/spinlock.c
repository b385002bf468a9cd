/*
 * spinlock.c - user-space spinlocks under contention: test-and-set,
 * test-and-test-and-set, ticket, and glibc's pthread_spinlock_t, with or
 * without a PAUSE in the spin loop.  Counts acquisitions that had to spin
 * and the spin iterations themselves.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "runner/workloads/harness.h"
#include "runner/workloads/locks.h"
#include "runner/workloads/workloads.h"

enum { P_KIND = LP_NCOMMON, P_PAUSE, P_NPARAMS };

static const char *const kinds[] = { "tas", "ttas", "ticket", "pthread",
				     NULL };
enum { K_TAS, K_TTAS, K_TICKET, K_PTHREAD, K_NKINDS };

static const struct param_def spin_params[P_NPARAMS] = {
	LOCKS_COMMON_PARAMS,
	[P_KIND] = { "kind", PT_ENUM, "ttas", 0, 0, kinds,
		     "tas: exchange until it was free; ttas: exchange, then "
		     "read-only spin while taken; ticket: FIFO tickets; "
		     "pthread: pthread_spinlock_t (spins not counted)" },
	[P_PAUSE] = { "pause", PT_BOOL, "yes", 0, 0, NULL,
		      "cpu_relax (x86 PAUSE) in each spin iteration (tas, ttas, "
		      "ticket; glibc decides for pthread)" },
};

/* One spinlock of the kind asked for and what it protects. */
struct sgroup {
	_Alignas(2 * CACHELINE) union {
		atomic_uint word;   /* tas, ttas: 0 free, 1 taken */
		struct {
			atomic_uint next;     /* next ticket to hand out */
			atomic_uint serving;  /* ticket allowed in */
		} ticket;
		pthread_spinlock_t spin;
	} lock;
	struct guarded data;
};

/* slot.aux[] of this workload */
enum { AUX_SPINS };

/*
 * The lock of `kind`; returns the spin iterations it took (0: it was
 * free).  kind and pause are compile-time constants in each specialised
 * worker below, so the switch and the pause test vanish from the loop.
 * pthread_spin_lock spins inside glibc, uncounted: a failed trylock counts
 * as one.
 */
static inline __attribute__((always_inline)) uint64_t
spin_lock(struct sgroup *g, int kind, bool pause)
{
	uint64_t spins = 0;
	unsigned ticket;

	switch (kind) {
	case K_TAS:
		while (atomic_exchange_explicit(&g->lock.word, 1,
						memory_order_acquire)) {
			spins++;
			if (pause)
				cpu_relax();
		}
		break;
	case K_TTAS:
		while (atomic_exchange_explicit(&g->lock.word, 1,
						memory_order_acquire)) {
			do {
				spins++;
				if (pause)
					cpu_relax();
			} while (atomic_load_explicit(&g->lock.word,
						      memory_order_relaxed));
		}
		break;
	case K_TICKET:
		ticket = atomic_fetch_add_explicit(&g->lock.ticket.next, 1,
						   memory_order_relaxed);
		while (atomic_load_explicit(&g->lock.ticket.serving,
					    memory_order_acquire) != ticket) {
			spins++;
			if (pause)
				cpu_relax();
		}
		break;
	case K_PTHREAD:
		if (pthread_spin_trylock(&g->lock.spin)) {
			spins = 1;
			pthread_spin_lock(&g->lock.spin);
		}
		break;
	}
	return spins;
}

static inline __attribute__((always_inline)) void
spin_unlock(struct sgroup *g, int kind)
{
	unsigned serving;

	switch (kind) {
	case K_TAS:
	case K_TTAS:
		atomic_store_explicit(&g->lock.word, 0, memory_order_release);
		break;
	case K_TICKET:
		/* Only the holder writes serving: a plain read is enough. */
		serving = atomic_load_explicit(&g->lock.ticket.serving,
					       memory_order_relaxed);
		atomic_store_explicit(&g->lock.ticket.serving, serving + 1,
				      memory_order_release);
		break;
	case K_PTHREAD:
		pthread_spin_unlock(&g->lock.spin);
		break;
	}
}

struct sctx {
	struct lock_cfg cfg;
	struct sgroup *groups;
};

/*
 * The worker's loop; kind, pause, fixed (jobs or runtime) and bare (no
 * busy work, in or outside the lock) are constants in each copy.  An
 * uncontended operation here is a few dozen cycles, so every instruction
 * the loop adds shows: the bare copy has no busy-loop tests, and the
 * spin counts are added on the contended path only (docs/PERFORMANCE.md,
 * "Fidelity").
 */
static inline __attribute__((always_inline)) void
spin_loop(struct worker *w, const int kind, const bool pause, const bool fixed,
	  const bool bare)
{
	const struct sctx *x = w->ctx;
	struct sgroup *g = &x->groups[w->id / x->cfg.per_group];
	const uint64_t hold = bare ? 0 : x->cfg.hold;
	const uint64_t outside = bare ? 0 : x->cfg.outside;
	uint64_t done = 0, handoffs = 0, contended = 0, spins = 0, last = 0;
	const atomic_int *const stop = w->stop;
	const uint64_t jobs = w->jobs;

	while (locks_continue(stop, jobs, fixed, done)) {
		uint64_t s = spin_lock(g, kind, pause),
			 c = guarded_update(&g->data);

		if (!bare)
			busy_loops(hold);
		spin_unlock(g, kind);
		handoffs += handoff(&last, c);
		if (__builtin_expect(s != 0, 0)) {
			contended++;
			spins += s;
		}
		if (!bare)
			busy_loops(outside);
		done++;
	}
	w->slot->ops = done;
	w->slot->contended = contended;
	w->slot->handoffs = handoffs;
	w->slot->aux[AUX_SPINS] = spins;
}

/* Whether this run's loop does no busy work (spin_loop's bare). */
static bool spin_bare(const struct worker *w)
{
	const struct lock_cfg *c = &((const struct sctx *)w->ctx)->cfg;

	return !c->hold && !c->outside;
}

/* One worker function per (kind, pause), each a specialised spin_loop. */
#define SPIN_WORKER(k, p)                                                      \
	static void spin_worker_##k##_##p(struct worker *w)                   \
	{                                                                      \
		const bool bare = spin_bare(w);                                \
									       \
		if (w->jobs && bare)                                           \
			spin_loop(w, k, p, true, true);                        \
		else if (w->jobs)                                              \
			spin_loop(w, k, p, true, false);                       \
		else if (bare)                                                 \
			spin_loop(w, k, p, false, true);                       \
		else                                                           \
			spin_loop(w, k, p, false, false);                      \
	}
#define SPIN_WORKERS(k) SPIN_WORKER(k, 0) SPIN_WORKER(k, 1)
SPIN_WORKERS(K_TAS)
SPIN_WORKERS(K_TTAS)
SPIN_WORKERS(K_TICKET)
SPIN_WORKERS(K_PTHREAD)

static void (*const spin_workers[K_NKINDS][2])(struct worker *) = {
	[K_TAS] = { spin_worker_K_TAS_0, spin_worker_K_TAS_1 },
	[K_TTAS] = { spin_worker_K_TTAS_0, spin_worker_K_TTAS_1 },
	[K_TICKET] = { spin_worker_K_TICKET_0, spin_worker_K_TICKET_1 },
	[K_PTHREAD] = { spin_worker_K_PTHREAD_0, spin_worker_K_PTHREAD_1 },
};

static int groups_init(struct sgroup *g, size_t n, int kind,
		       struct result *r)
{
	size_t i, k;
	int err = 0;

	/* tas, ttas and ticket start free as zeroed memory. */
	if (kind != K_PTHREAD)
		return 0;
	for (i = 0; !err && i < n; i++)
		err = pthread_spin_init(&g[i].lock.spin,
					PTHREAD_PROCESS_PRIVATE);
	if (!err)
		return 0;
	for (k = 0; k + 1 < i; k++)
		pthread_spin_destroy(&g[k].lock.spin);
	return result_fail(r, "pthread_spin_init: %s", strerror(err));
}

static void groups_release(struct sgroup *g, size_t n, int kind)
{
	size_t i;

	if (kind == K_PTHREAD)
		for (i = 0; i < n; i++)
			pthread_spin_destroy(&g[i].lock.spin);
}

static int spin_run(const struct wl_args *a, struct result *r)
{
	const int kind = a->v[P_KIND].e;
	struct sctx x;
	struct lock_run lr = { .slots = NULL };
	int ret;

	locks_cfg_init(&x.cfg, a);
	x.groups = harness_alloc_lines(x.cfg.groups, sizeof(*x.groups));
	ret = groups_init(x.groups, x.cfg.groups, kind, r);
	if (ret)
		goto out;
	lr = (struct lock_run){ .fn = spin_workers[kind][a->v[P_PAUSE].b],
				.ctx = &x, .groups = x.groups,
				.nlocks = x.cfg.groups,
				.per_lock = x.cfg.per_group,
				.stride = sizeof(*x.groups),
				.data_off = offsetof(struct sgroup, data),
				.check_field = LOCKS_FIELD_OPS };
	ret = locks_run(a, &x.cfg, &lr, r);
	/* glibc spins inside pthread_spin_lock: no count to report. */
	if (!ret && kind != K_PTHREAD)
		result_add(r, "spins",
			   (double)locks_sum_aux(lr.slots, x.cfg.nworkers,
						 AUX_SPINS));
	groups_release(x.groups, x.cfg.groups, kind);
out:
	harness_slots_free(lr.slots);
	free(x.groups);
	return ret;
}

const struct workload spinlock_workload = {
	.name = "spinlock",
	.summary = "threads x locks loop lock/increment/unlock on a tas, ttas, "
		   "ticket or pthread spinlock",
	.help = "User-space spinlocks: tas exchanges until it finds the lock "
		"free (every spin writes the line), ttas spins reading and only "
		"exchanges when it looks free, ticket hands the lock over in "
		"FIFO order (a preempted waiter stalls everyone behind it), "
		"pthread is glibc's pthread_spinlock_t.  contended counts "
		"acquisitions that spun at least once, spins the spin "
		"iterations (not reported for pthread, which spins inside "
		"glibc).",
	.params = spin_params,
	.nparams = P_NPARAMS,
	.validate = locks_validate,
	.run = spin_run,
};
