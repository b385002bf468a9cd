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

/* The per-CPU totals of a run (the map `totals`, one entry). */
struct kbpf_totals {
	struct kbpf_val k[KBPF_NFLAGS];   /* by flags value */
	__u64 dropped;    /* contentions left out of `locks` (full) */
	__u64 delayed;    /* times kernel_delay busy-waited */
};

#endif
