/*
 * count.h - the kernel's own contended locks of a run, counted from the
 * lock:contention_begin tracepoint with counting perf events (one counter
 * per kind of lock, told apart by tracepoint filters on `flags`).
 *
 * Call sequence (one function pair, wherever the run's processes start):
 *
 *	struct kcount k;
 *	kcount_start(&k, &kcount_perf, 0, 0);   // before the workload forks
 *	    ... kcount_window(&k, true) ... kcount_window(&k, false) ...
 *	kcount_stop(&k, &result);              // adds the klock_* metrics
 *
 * The counters are inherited: threads and processes the counted task
 * creates after kcount_start are counted too, and their counts are summed
 * into the counter when they exit.  pid 0 counts the caller; a runner that
 * has spawned a child but not yet let it exec passes the child's pid and
 * KLOCK_ON_EXEC, so counting starts at the child's exec.  Without a window
 * the whole run is counted; kcount_window(true) restarts the counts from
 * zero and kcount_window(false) stops them, so a workload with a measured
 * window counts exactly that.
 *
 * When counting is impossible (no tracepoint, no permission, ...) kcount_start
 * returns -1 with the reason in k->why, every other call does nothing and
 * kcount_stop adds no metric: the run goes on as before.
 */
#ifndef CONTEND_KLOCK_H
#define CONTEND_KLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runner/kinstr/kinstr.h"
#include "runner/workload.h"

/*
 * The kinds counted: all contentions, and the lock types the tracepoint's
 * flags tell apart (include/trace/events/lock.h: SPIN 1, READ 2, WRITE 4,
 * RT 8, PERCPU 16, MUTEX 32; a spinning rwlock sets SPIN with READ or
 * WRITE, a sleeping rwsem READ or WRITE alone, percpu-rwsem adds PERCPU).
 */
enum klock_kind {
	KLOCK_ALL,
	KLOCK_SPIN,
	KLOCK_MUTEX,
	KLOCK_RWSEM_READ,
	KLOCK_RWSEM_WRITE,
	KLOCK_RWLOCK_READ,
	KLOCK_RWLOCK_WRITE,
	KLOCK_RT,
	KLOCK_NKINDS
};

/* Metric name ("klock_contended", "klock_spin", ...) and filter of a kind. */
const char *kcount_metric(enum klock_kind kind);
const char *kcount_filter(enum klock_kind kind);

/*
 * Where the counters come from: the kernel (kcount_perf) or a test's fake.
 * Each returns 0 (open: an fd) or -1; tracepoint() writes why it failed.
 */
struct kcount_backend {
	/* The id of lock:contention_begin, mounting tracefs if need be. */
	long (*tracepoint)(char *why, size_t whylen);
	/* A counting, inherited counter of pid; disabled until exec with
	 * on_exec.  errno tells why it failed. */
	int (*open)(long id, const char *filter, pid_t pid, bool on_exec);
	int (*reset)(int fd);
	int (*enable)(int fd, bool on);
	int (*read)(int fd, uint64_t *count);
	void (*close)(int fd);
	/* A counter on the caller alone, never inherited, never enabled:
	 * held, it keeps the tracepoint's probe registered (kcount_hold). */
	int (*hold)(long id);
};

extern const struct kcount_backend kcount_perf;
/*
 * The backend of the session's instrument k (runner/kinstr/kinstr.h): kcount_perf
 * for count and kinds; for none and bpf one that counts nothing and says
 * why.  KLOCK_ENV=off in the environment is a test's fake of a kernel
 * without the tracepoint: then count and kinds find none.
 */
#define KLOCK_ENV "CONTEND_KLOCK"
const struct kcount_backend *kcount_backend(enum kinstr k);

/* kcount_start flags */
#define KLOCK_ON_EXEC 0x1
#define KLOCK_KINDS 0x2  /* a counter per kind too (kinds), not only the total */

struct kcount {
	const struct kcount_backend *be;
	int fd[KLOCK_NKINDS];   /* -1 when that kind is not counted */
	bool counting;
	char why[160];          /* why not, when !counting */
};

int kcount_start(struct kcount *k, const struct kcount_backend *be, pid_t pid,
		unsigned flags);
void kcount_window(struct kcount *k, bool open);
/*
 * Reads and closes the counters; adds klock_contended, one metric per
 * kind, and klock_contended_per_op when r already holds "ops" (or "messages"); with r
 * NULL (the run failed) only closes them.
 * Returns 0, or -1 (nothing added) when not counting or a read failed.
 */
int kcount_stop(struct kcount *k, struct result *r);

/*
 * "yes" when kcount_start would count here, else the reason, in buf: what
 * the host metadata key kernel_lock_events records.
 */
const char *kcount_status(const struct kcount_backend *be, char *buf,
			 size_t len);

/*
 * The tracepoint held for a whole experiment.  Opening the first perf
 * event on a tracepoint registers its probe and so enables the
 * tracepoint's static key (the kernel patches its text); closing the
 * last unregisters it and waits for an RCU grace period.  Done by every
 * run's counters, that cost ~24 ms a run and changed the kernel under
 * the workload at each start.  The runner holds one counter that is
 * never enabled, from before the first run to after the last, so the
 * runs' counters only join and leave an already registered probe: the
 * tracepoint is on, and the same, for the whole experiment.
 *
 *	int h = kcount_hold(kcount_backend());  // -1: nothing to hold
 *	    ... every run ...
 *	kcount_unhold(kcount_backend(), h);
 */
int kcount_hold(const struct kcount_backend *be);
void kcount_unhold(const struct kcount_backend *be, int fd);

/*
 * Whether this host's kernel can report a spinlock's contention: one of
 * the words KSPIN_* of db/facts.h (the host key kernel_spin_visible,
 * explained in docs/KLOCK.md).  x86's queued spinlock calls
 * trace_contention_begin only once it queues (kernel/locking/qspinlock.c,
 * after the `queue:` label): the first waiter spins on the pending bit
 * unseen, so a spinlock is reported only when a third CPU contends at
 * once, or on every contention when paravirt spinlocks send all waiters
 * to the queue.  cpus is the number of CPUs online; kernel_log the
 * kernel's log text (NULL: unknown), searched for kvm's "PV spinlocks
 * enabled" or "disabled".
 */
const char *kcount_spin_visible(long cpus, const char *kernel_log);

/*
 * The window hook handed to workloads through wl_args.window: its mark()
 * calls kcount_window on k.
 */
void kcount_hook(struct kcount *k, struct run_window *w);

#endif
