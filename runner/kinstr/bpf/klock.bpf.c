/*
 * klock.bpf.c - the kernel lock wait of one run's tasks: paired
 * lock:contention_begin and lock:contention_end (tp_btf), counted per
 * flags value and per (lock, flags), with the caller of a sample of the
 * contentions, for the run's tasks only: those in the run's cgroup, or,
 * without one, those of the processes in the tracked map (the run's
 * process tree, followed across fork).  Loaded once per experiment by the
 * runner (runner/kinstr/bpf.c); per run the runner only resets and reads the
 * maps and the globals below.
 *
 * It runs inside the kernel's contended paths, so every event does as
 * little as it can (docs/KLOCK.md, "The program"): begin returns at once
 * for a task not the run's, and else writes four words into the task's
 * own storage; end takes no lock and no stack walk but for a sample, and
 * writes per-CPU counters only.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kbpf_shared.h"

char LICENSE[] SEC("license") = "GPL";

/* Set before load: the runner's own process. */
const volatile __u32 runner_tgid;

/* Set by the runner (mmapped .bss).  by_cgroup: the run's tasks are those
 * whose cgroup is run_cgid (0 between runs), else those in `tracked`;
 * armed: a child the runner forks now is the run's (tracked); gen: the
 * run, so that a begin of the run before pairs with no end of this one;
 * delay_*: the run's kernel_delay, 0 for none (and between runs). */
__u32 by_cgroup;
__u64 run_cgid;
__u32 armed;
__u32 gen;
__u64 delay_ns;
__u64 delay_lo, delay_hi;   /* [lo, hi): FUNCTION's text */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KBPF_MAX_TGIDS);
	__type(key, __u32);
	__type(value, __u8);
} tracked SEC(".maps");

/* The task's contention in progress: no hash, no lock, no delete. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct tstate);
} tasks SEC(".maps");

/* Per CPU: the totals of the run by flags value. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbpf_totals);
} totals SEC(".maps");

/* Per CPU: each lock's contentions and wait (summed by the runner). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, KBPF_MAX_LOCKS);
	__type(key, struct kbpf_lkey);
	__type(value, struct kbpf_cw);
} locks SEC(".maps");

/* The sampled contentions, by lock and stack. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KBPF_MAX_CALLERS);
	__type(key, struct kbpf_ckey);
	__type(value, struct kbpf_cw);
} callers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, KBPF_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, KBPF_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* kernel_delay's budget on each CPU (kbpf_delay_grant). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kbpf_budget);
} budget SEC(".maps");

/* kernel_delay's look at the stack: one buffer per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[KBPF_DELAY_FRAMES]);
} frames SEC(".maps");

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

/* Whether the current task is the run's. */
static __always_inline bool in_run(void)
{
	__u32 tgid;

	if (by_cgroup)
		return bpf_get_current_cgroup_id() == run_cgid;
	tgid = bpf_get_current_pid_tgid() >> 32;
	return bpf_map_lookup_elem(&tracked, &tgid) != NULL;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(kbpf_begin, void *lock, unsigned int flags)
{
	struct tstate *t;

	if (!in_run())
		return 0;
	t = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), 0,
				 BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!t)
		return 0;
	if (t->lock && t->gen == gen) {
		/* A mutex that stops spinning and sleeps begins again on the
		 * same lock: one wait, of the later kind.  Another lock
		 * inside a wait (its wait_lock) is part of the outer wait. */
		if (t->lock == (__u64)lock)
			t->flags = flags & (KBPF_NFLAGS - 1);
		return 0;
	}
	t->lock = (__u64)lock;
	t->flags = flags & (KBPF_NFLAGS - 1);
	t->gen = gen;
	t->ts = bpf_ktime_get_ns();
	return 0;
}

/* A lock of a known class (KBPF_CLASS_*): the task's own mm or signal
 * handlers' lock, as perf lock contention tells them apart. */
static __always_inline __u32 lock_class(__u64 lock)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct mm_struct *mm = t->mm;
	struct sighand_struct *sh = t->sighand;

	if (mm && lock == (__u64)&mm->mmap_lock)
		return KBPF_CLASS_MMAP;
	if (sh && lock == (__u64)&sh->siglock)
		return KBPF_CLASS_SIGLOCK;
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

static long spin(__u64 i, void *deadline)
{
	return bpf_ktime_get_ns() >= *(__u64 *)deadline;
}

/*
 * Whether the program runs on the current task's own kernel stack, from
 * task->stack up to its saved user registers at the top: not in an
 * interrupt, a softirq run from one or from local_bh_enable, an NMI or
 * an exception, which the kernel runs on stacks of their own (x86-64 and
 * arm64 do).  The kernel's data symbols (the per-CPU preempt count) are
 * not in /proc/kallsyms without CONFIG_KALLSYMS_ALL, so the program
 * cannot read the preempt count there; the stack it can always see.
 */
static __always_inline int on_task_stack(void)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 here = (__u64)&t;
	__u64 lo = (__u64)t->stack, hi = (__u64)bpf_task_pt_regs(t);

	return kbpf_in_range(here, lo, hi);
}

/*
 * kernel_delay after a contention of flags that waited wait ns, ended at
 * now: busy-wait the run's delay where kbpf_delay_grant allows it, else
 * count why not.
 */
static __always_inline void delay(struct kbpf_totals *tot, __u32 flags,
				  __u64 wait, __u64 now)
{
	__u64 d = delay_ns < KBPF_DELAY_CAP_NS ? delay_ns : KBPF_DELAY_CAP_NS;
	struct kbpf_budget *b;
	enum kbpf_refusal why;
	__u32 zero = 0;
	__u64 until;

	b = bpf_map_lookup_elem(&budget, &zero);
	if (!b)
		return;
	why = kbpf_delay_grant(b, on_task_stack(), flags, wait, now, d, gen);
	if (why != KBPF_GRANT) {
		if (why < KBPF_NREFUSE)
			tot->refused[why]++;
		return;
	}
	until = now + d;
	bpf_loop(1 << 23, spin, &until, 0);
	tot->delayed++;
}

/*
 * The caller of a sampled contention.  contention_end fires in the same
 * slow-path function as its begin, so the frames above it, the caller's
 * among them, are the begin's.
 */
static __always_inline void sample(void *ctx, const struct kbpf_lkey *k,
				   __u64 d)
{
	struct kbpf_ckey c = { .lock = k->lock, .flags = k->flags };
	struct kbpf_cw *v, one = { 1, d };

	c.stack_id = bpf_get_stackid(ctx, &stacks, 0);
	v = bpf_map_lookup_elem(&callers, &c);
	if (!v) {
		if (!bpf_map_update_elem(&callers, &c, &one, BPF_NOEXIST))
			return;
		v = bpf_map_lookup_elem(&callers, &c);
		if (!v)
			return;
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->wait_ns, d);
}

SEC("tp_btf/contention_end")
int BPF_PROG(kbpf_end, void *lock, int ret)
{
	struct tstate *t;
	struct kbpf_totals *tot;
	struct kbpf_val *v;
	struct kbpf_lkey k = {};
	struct kbpf_cw *l, first;
	__u32 zero = 0, fl;
	__u64 d, now;
	bool take;

	/* NULL at once for a task that never began one */
	t = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), 0, 0);
	if (!t || t->lock != (__u64)lock)
		return 0;
	now = bpf_ktime_get_ns();
	t->lock = 0;
	if (t->gen != gen)
		return 0;
	d = now - t->ts;
	fl = t->flags & (KBPF_NFLAGS - 1);
	tot = bpf_map_lookup_elem(&totals, &zero);
	if (!tot)
		return 0;
	if (delay_ns && ret == 0 && delay_matches(ctx))
		delay(tot, fl, d, now);
	/* per CPU, and a program does not nest on its CPU: no atomics */
	v = &tot->k[fl];
	v->count++;
	v->wait_ns += d;
	if (d > v->max_ns)
		v->max_ns = d;
	k.lock = (__u64)lock;
	k.flags = fl | lock_class(k.lock) << KBPF_CLASS_SHIFT;
	l = bpf_map_lookup_elem(&locks, &k);
	if (l) {
		/* the lock's first on this CPU, else one in KBPF_SAMPLE */
		take = !l->count ||
		       !(bpf_get_prandom_u32() & (KBPF_SAMPLE - 1));
	} else {
		/* the lock's first contention on this CPU */
		first.count = 1;
		first.wait_ns = d;
		if (!bpf_map_update_elem(&locks, &k, &first, BPF_NOEXIST)) {
			sample(ctx, &k, d);
			return 0;
		}
		/* another CPU's insert won; or the map is full */
		l = bpf_map_lookup_elem(&locks, &k);
		if (!l) {
			tot->dropped++;
			return 0;
		}
		take = true;
	}
	l->count++;
	l->wait_ns += d;
	if (take)
		sample(ctx, &k, d);
	return 0;
}
