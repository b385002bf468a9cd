/*
 * kbpf_shared.h - what the BPF program (bpf/klock.bpf.c) and the runner
 * (runner/kinstr/bpf.c) share: the keys and values of its maps and its limits.
 * Included by both, so only fixed-width kernel-style types.
 */
#ifndef CONTEND_KBPF_SHARED_H
#define CONTEND_KBPF_SHARED_H

/* Frames kept per sampled stack; the caller is one of them. */
#define KBPF_STACK_DEPTH 16
/* Distinct (lock, flags) keys kept per run, at most (the runner lowers it
 * on a machine with many CPUs: the map is per CPU); more are counted in
 * the totals and in `dropped`, not in the top-locks table. */
#define KBPF_MAX_LOCKS 16384
/* Distinct sampled (lock, flags, stack) keys and stacks kept per run. */
#define KBPF_MAX_CALLERS 8192
#define KBPF_MAX_STACKS 4096
/* Processes of one run followed at once (without a cgroup). */
#define KBPF_MAX_TGIDS 8192
/* The tracepoint's flags are 6 bits (include/trace/events/lock.h). */
#define KBPF_NFLAGS 64
/* One contention of a lock in KBPF_SAMPLE (at random) has its stack
 * taken, and the first of each lock on each CPU; a power of 2. */
#define KBPF_SAMPLE 32
/* kernel_delay: at most 10 ms of busy-waiting per acquisition. */
#define KBPF_DELAY_CAP_NS 10000000ULL
/* kernel_delay: frames of the contended stack searched for FUNCTION. */
#define KBPF_DELAY_FRAMES 8
/* kernel_delay's budget per CPU (docs/KLOCK.md, "The delay's bounds"):
 * delays take at most this share (percent) of the CPU's time, and at most
 * KBPF_DELAY_RUN_NS in one run. */
#define KBPF_DELAY_SHARE 50
#define KBPF_DELAY_RUN_NS 2000000000ULL

/* The tracepoint's flag of a lock waited for spinning (LCB_F_SPIN). */
#define KBPF_F_SPIN 1U

/* A lock's class, when the program knows it, above the flags' 6 bits. */
#define KBPF_CLASS_SHIFT 8
#define KBPF_CLASS_MMAP 1      /* the task's mm->mmap_lock */
#define KBPF_CLASS_SIGLOCK 2   /* the task's sighand->siglock */

/* A lock as the program counts it (the per-CPU map `locks`). */
struct kbpf_lkey {
	__u64 lock;       /* the lock's address */
	__u32 flags;      /* the tracepoint's flags, the class above them */
	__u32 pad;
};

/* A sampled caller of a lock (the map `callers`). */
struct kbpf_ckey {
	__u64 lock;
	__u32 flags;
	__s32 stack_id;   /* in the stacks map; negative: none */
};

/* A contention count and its wait: per CPU in `locks`, sampled in
 * `callers`. */
struct kbpf_cw {
	__u64 count;
	__u64 wait_ns;
};

/* A task in a contention, from its begin to its end (task storage). */
struct tstate {
	__u64 ts;
	__u64 lock;       /* 0: in none */
	__u32 flags;
	__u32 gen;        /* the run it began in */
};

struct kbpf_val {
	__u64 count;
	__u64 wait_ns;
	__u64 max_ns;
};

/* Why kernel_delay refused a delay (kbpf_delay_grant); its counters. */
enum kbpf_refusal {
	KBPF_REFUSE_IRQ,      /* in interrupt context (not on the task's
				 stack) */
	KBPF_REFUSE_SPIN,     /* a spin's wait and the delay pass the cap */
	KBPF_REFUSE_SHARE,    /* the CPU's share of delay is spent */
	KBPF_REFUSE_TOTAL,    /* the CPU's total for the run is spent */
	KBPF_NREFUSE,
	KBPF_GRANT = KBPF_NREFUSE
};

/* The per-CPU totals of a run (the map `totals`, one entry). */
struct kbpf_totals {
	struct kbpf_val k[KBPF_NFLAGS];   /* by flags value */
	__u64 dropped;    /* contentions left out of `locks` (full) */
	__u64 delayed;    /* times kernel_delay busy-waited */
	__u64 refused[KBPF_NREFUSE];      /* delays refused, by reason */
};

/* A CPU's kernel_delay budget (the per-CPU map `budget`); kept across
 * runs, its total restarted when gen changes. */
struct kbpf_budget {
	__u64 next_ok;    /* no delay starts before (ns, ktime) */
	__u64 used;       /* the run's delay so far (ns) */
	__u32 gen;        /* the run `used` is of */
	__u32 pad;
};

/* Whether lo <= x < hi: the program's own frame x on the task's stack
 * [lo, hi) (bpf/klock.bpf.c, on_task_stack). */
static inline __attribute__((always_inline)) int
kbpf_in_range(__u64 x, __u64 lo, __u64 hi)
{
	return lo <= x && x < hi;
}

/*
 * Whether a delay of d ns (at most KBPF_DELAY_CAP_NS) may start now on
 * this CPU, at the end of a contention of the tracepoint's flags that
 * waited wait ns, in task context or not (in_task 0: an interrupt's),
 * in run gen.  KBPF_GRANT (b charged), else the reason.
 * The program calls it (bpf/klock.bpf.c) and the tests, so the CPU's
 * longest stretch without preemption it can cause is worked out once:
 *  - never in interrupt context (NMI, hard IRQ, softirq): an
 *    interrupt's contention is charged to the task it interrupted, and
 *    delays there chain inside one interrupt;
 *  - a spinning wait was itself without preemption (another CPU's delay
 *    held the lock): with the delay it must stay within the cap;
 *  - after a delay of D the CPU runs D * (100 - SHARE) / SHARE without
 *    one, so delays chained in one section are refused, and delays take
 *    at most SHARE percent of any stretch longer than one delay;
 *  - at most KBPF_DELAY_RUN_NS a run.
 */
static inline __attribute__((always_inline)) enum kbpf_refusal
kbpf_delay_grant(struct kbpf_budget *b, int in_task, __u32 flags,
		 __u64 wait, __u64 now, __u64 d, __u32 gen)
{
	if (b->gen != gen) {
		b->gen = gen;
		b->used = 0;
	}
	if (!in_task)
		return KBPF_REFUSE_IRQ;
	if ((flags & KBPF_F_SPIN) && (wait >= KBPF_DELAY_CAP_NS ||
				      d > KBPF_DELAY_CAP_NS - wait))
		return KBPF_REFUSE_SPIN;
	if (now < b->next_ok)
		return KBPF_REFUSE_SHARE;
	if (b->used + d > KBPF_DELAY_RUN_NS)
		return KBPF_REFUSE_TOTAL;
	b->used += d;
	b->next_ok = now + d + d * (100 - KBPF_DELAY_SHARE) /
				   KBPF_DELAY_SHARE;
	return KBPF_GRANT;
}

#endif
