/*
 * kbpf_shared.h - what the BPF program (bpf/klock.bpf.c) and the runner
 * (runner/kbpf.c) share: the keys and values of its maps and its limits.
 * Included by both, so only fixed-width kernel-style types.
 */
#ifndef CONTEND_KBPF_SHARED_H
#define CONTEND_KBPF_SHARED_H

/* Frames kept per contended stack; the caller is one of them. */
#define KBPF_STACK_DEPTH 16
/* Distinct (stack, flags, lock) keys kept per run; more are counted in
 * the totals and in `dropped`, not in the top-locks table. */
#define KBPF_MAX_LOCKS 16384
#define KBPF_MAX_STACKS 4096
/* Processes of one run followed at once. */
#define KBPF_MAX_TGIDS 8192
/* Tasks in a contention at once (one entry each, begin to end). */
#define KBPF_MAX_TASKS 16384
/* The tracepoint's flags are 6 bits (include/trace/events/lock.h). */
#define KBPF_NFLAGS 64
/* kernel_delay: at most 10 ms of busy-waiting per acquisition. */
#define KBPF_DELAY_CAP_NS 10000000ULL
/* kernel_delay: frames of the contended stack searched for FUNCTION. */
#define KBPF_DELAY_FRAMES 8

/* A lock's class, when the program knows it, above the flags' 6 bits. */
#define KBPF_CLASS_SHIFT 8
#define KBPF_CLASS_MMAP 1      /* the task's mm->mmap_lock */
#define KBPF_CLASS_SIGLOCK 2   /* the task's sighand->siglock */

struct kbpf_key {
	__s32 stack_id;   /* in the stacks map; negative: none */
	__u32 flags;      /* the tracepoint's flags, the class above them */
	__u64 lock;       /* the lock's address */
};

/* A task in a contention, from its begin to its end. */
struct tstate {
	__u64 ts;
	__u64 lock;
	__s32 stack_id;
	__u32 flags;
	__u32 delay;      /* kernel_delay applies at the end */
	__u32 pad;
};

struct kbpf_val {
	__u64 count;
	__u64 wait_ns;
	__u64 max_ns;
};

#endif
