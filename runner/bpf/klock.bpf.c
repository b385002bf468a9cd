/*
 * klock.bpf.c - the kernel lock wait of one run's tasks: paired
 * lock:contention_begin and lock:contention_end (tp_btf), counted per
 * flags value and per (stack, flags, lock), for the processes in the
 * tracked map only (the run's process tree, followed across fork).
 * Loaded once per experiment by the runner (runner/kbpf.c); per run the
 * runner only resets and reads the maps and the globals below.
 * docs/KLOCK.md describes what it can see and its safety.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kbpf_shared.h"

char LICENSE[] SEC("license") = "GPL";

/* Set before load: the runner's own process. */
const volatile __u32 runner_tgid;

/* Set by the runner (mmapped .bss).  armed: a child the runner forks now
 * is the run's; delay_*: the run's kernel_delay, 0 for none. */
__u32 armed;
__u64 delay_ns;
__u64 delay_lo, delay_hi;   /* [lo, hi): FUNCTION's text */
/* Contentions left out of the locks map (it was full). */
__u64 dropped;
/* Times kernel_delay busy-waited. */
__u64 delayed;
/* Per flags value: contentions, wait and the longest wait. */
struct kbpf_val totals[KBPF_NFLAGS];

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KBPF_MAX_TGIDS);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KBPF_MAX_TASKS);
	__type(key, __u32);
	__type(value, struct tstate);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, KBPF_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, KBPF_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KBPF_MAX_LOCKS);
	__type(key, struct kbpf_key);
	__type(value, struct kbpf_val);
} locks SEC(".maps");


/* kernel_delay's look at the stack: one buffer per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[KBPF_DELAY_FRAMES]);
} frames SEC(".maps");

static __always_inline bool is_tracked(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	return bpf_map_lookup_elem(&tracked, &tgid) != NULL;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(kbpf_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u8 one = 1;

	if (ptgid == ctgid)
		return 0;
	if ((armed && ptgid == runner_tgid) ||
	    bpf_map_lookup_elem(&tracked, &ptgid))
		bpf_map_update_elem(&tracked, &ctgid, &one, BPF_ANY);
	return 0;
}

/* Whether FUNCTION is among the first frames of this contention. */
static __always_inline __u32 delay_matches(void *ctx)
{
	__u32 zero = 0;
	__u64 *f = bpf_map_lookup_elem(&frames, &zero);
	long n;
	int i;

	if (!f)
		return 0;
	n = bpf_get_stack(ctx, f, KBPF_DELAY_FRAMES * sizeof(__u64), 0);
	if (n <= 0)
		return 0;
	n /= sizeof(__u64);
	for (i = 0; i < KBPF_DELAY_FRAMES; i++)
		if (i < n && f[i] >= delay_lo && f[i] < delay_hi)
			return 1;
	return 0;
}

/* A lock of a known class (KBPF_CLASS_*): the task's own mm or signal
 * handlers' lock, as perf lock contention tells them apart. */
static __always_inline __u32 lock_class(void *lock)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct *mm = BPF_CORE_READ(t, mm);
	struct sighand_struct *sh = BPF_CORE_READ(t, sighand);

	if (mm && (__u64)lock == (__u64)&mm->mmap_lock)
		return KBPF_CLASS_MMAP;
	if (sh && (__u64)lock == (__u64)&sh->siglock)
		return KBPF_CLASS_SIGLOCK;
	return 0;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(kbpf_begin, void *lock, unsigned int flags)
{
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	struct tstate *t, s = {};

	if (!is_tracked())
		return 0;
	t = bpf_map_lookup_elem(&tasks, &pid);
	if (t && t->lock) {
		/* A mutex that stops spinning and sleeps begins again on the
		 * same lock: one wait, of the later kind.  Another lock
		 * inside a wait (its wait_lock) is part of the outer wait. */
		if (t->lock == (__u64)lock)
			t->flags = (flags & (KBPF_NFLAGS - 1)) |
				   (t->flags & ~(KBPF_NFLAGS - 1));
		return 0;
	}
	s.lock = (__u64)lock;
	s.flags = (flags & (KBPF_NFLAGS - 1)) |
		  lock_class(lock) << KBPF_CLASS_SHIFT;
	s.stack_id = bpf_get_stackid(ctx, &stacks, 0);
	s.delay = delay_ns ? delay_matches(ctx) : 0;
	s.ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&tasks, &pid, &s, BPF_ANY);
	return 0;
}

static __always_inline void add(struct kbpf_val *v, __u64 d)
{
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->wait_ns, d);
	/* a lost race only understates a maximum of the same run */
	if (d > v->max_ns)
		v->max_ns = d;
}

static long spin(__u64 i, void *deadline)
{
	return bpf_ktime_get_ns() >= *(__u64 *)deadline;
}

SEC("tp_btf/contention_end")
int BPF_PROG(kbpf_end, void *lock, int ret)
{
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	struct kbpf_key k = {};
	struct kbpf_val *v, nv = {};
	struct tstate *t;
	__u32 fl;
	__u64 d, now;

	t = bpf_map_lookup_elem(&tasks, &pid);
	if (!t || t->lock != (__u64)lock)
		return 0;
	now = bpf_ktime_get_ns();
	d = now - t->ts;
	fl = t->flags & (KBPF_NFLAGS - 1);
	k.stack_id = t->stack_id;
	k.flags = t->flags;
	k.lock = t->lock;
	if (t->delay && ret == 0) {
		__u64 until = now + (delay_ns < KBPF_DELAY_CAP_NS ?
				     delay_ns : KBPF_DELAY_CAP_NS);

		bpf_loop(1 << 23, spin, &until, 0);
		__sync_fetch_and_add(&delayed, 1);
	}
	bpf_map_delete_elem(&tasks, &pid);
	add(&totals[fl], d);
	v = bpf_map_lookup_elem(&locks, &k);
	if (!v) {
		if (bpf_map_update_elem(&locks, &k, &nv, BPF_NOEXIST) &&
		    bpf_map_lookup_elem(&locks, &k) == NULL) {
			__sync_fetch_and_add(&dropped, 1);
			return 0;
		}
		v = bpf_map_lookup_elem(&locks, &k);
		if (!v)
			return 0;
	}
	add(v, d);
	return 0;
}
