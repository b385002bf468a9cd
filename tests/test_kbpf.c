/*
 * test_kbpf.c - the kernel lock wait of runs (runner/kinstr/bpf.h): the kinds of
 * the tracepoint's flags, the kernel's symbols and a contention's caller
 * from a fake /proc/kallsyms, the ranking of a run's top locks and the
 * sharing of a lock's counts among its sampled callers (worked out by hand,
 * and in a seeded simulation), the per-CPU totals summed, and, where this
 * machine can load BPF, the program itself: loaded once, following the
 * run's process tree across fork, reset per run, and, with a cgroup,
 * counting a sure kernel mutex contention (userfaultfd) of a task in it
 * and none of a task outside.  That part is skipped with the reason
 * elsewhere, unless CONTEND_REQUIRE_KBPF=1 (a machine that must run it)
 * makes that a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/userfaultfd.h>

#include "runner/cgroup.h"
#include "runner/kinstr/bpf.h"
#include "runner/workload.h"
#include "tests/kbpf_live.h"

/* ---- kinds ---- */

static void test_kinds(void **state)
{
	/* include/trace/events/lock.h: SPIN 1, READ 2, WRITE 4, RT 8,
	 * PERCPU 16, MUTEX 32 */
	static const struct {
		unsigned flags;
		const char *kind;
	} cases[] = {
		{ 1, "spin" },        { 32, "mutex" },
		{ 33, "mutex" },      /* a mutex's optimistic spin */
		{ 2, "rwsem_read" },  { 18, "rwsem_read" }, /* percpu */
		{ 4, "rwsem_write" }, { 20, "rwsem_write" },
		{ 3, "rwlock_read" }, { 5, "rwlock_write" },
		{ 8, "rt" },          { 9, "rt" },
		{ 0, "other" },       { 16, "other" },      { 6, "other" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *k = kbpf_kind_name(kbpf_kind(cases[i].flags));

		if (strcmp(k, cases[i].kind))
			fail_msg("flags %u: %s, not %s", cases[i].flags, k,
				 cases[i].kind);
	}
}

/* ---- symbols ---- */

static const char kallsyms[] =
	"ffffffff81100000 T do_unlinkat\n"
	"ffffffff81100400 T path_openat\n"
	"ffffffff81100800 t queued_spin_lock_slowpath\n"
	"ffffffff81100900 T bpf_trace_run2\n"
	"ffffffff81100a00 T next_after_bpf\n"
	"ffffffff81200000 T __lock_text_start\n"
	"ffffffff81200010 T _raw_spin_lock\n"
	"ffffffff81200100 T spin_in_lock_text\n"
	"ffffffff81200800 T __lock_text_end\n"
	"ffffffff81300000 T __sched_text_start\n"
	"ffffffff81300010 T schedule\n"
	"ffffffff81300800 T __sched_text_end\n"
	"ffffffff81400000 t ext4_orphan_add\t[ext4]\n"
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff82000000 D some_data\n"
	"ffffffff82000100 d rcu_state\n";

static struct ksyms *fake_ksyms(void)
{
	char path[] = "/tmp/test_kbpf.XXXXXX";
	int fd = mkstemp(path);
	struct ksyms *ks;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, kallsyms, sizeof(kallsyms) - 1),
			 (ssize_t)sizeof(kallsyms) - 1);
	close(fd);
	ks = ksyms_load(path);
	unlink(path);
	assert_non_null(ks);
	return ks;
}

static void test_symbols(void **state)
{
	struct ksyms *ks = fake_ksyms();
	uint64_t lo, hi, off;

	(void)state;
	assert_string_equal(ksyms_find(ks, 0xffffffff81100410, &off),
			    "path_openat");
	assert_int_equal(off, 0x10);
	/* a module's symbol, its [module] left out of the name */
	assert_string_equal(ksyms_find(ks, 0xffffffff81400004, &off),
			    "ext4_orphan_add");
	assert_null(ksyms_find(ks, 0xffffffff80000000, &off));
	assert_int_equal(ksyms_range(ks, "do_unlinkat", &lo, &hi), 0);
	assert_int_equal(lo, 0xffffffff81100000);
	assert_int_equal(hi, 0xffffffff81100400);
	/* data is no function; an unknown name neither */
	assert_int_equal(ksyms_range(ks, "rcu_state", &lo, &hi), -1);
	assert_int_equal(ksyms_range(ks, "no_such_function", &lo, &hi), -1);
	ksyms_free(ks);
}

/* The caller: the first frame outside the lock, scheduler and tracing. */
static void test_caller(void **state)
{
	struct ksyms *ks = fake_ksyms();
	const uint64_t spin[] = {
		0xffffffff81100910, /* bpf_trace_run2 */
		0xffffffff81100820, /* queued_spin_lock_slowpath */
		0xffffffff81200108, /* in __lock_text, whatever its name */
		0xffffffff81100040, /* do_unlinkat */
		0xffffffff81100410,
	};
	const uint64_t sleep[] = {
		0xffffffff81300020, /* schedule, in __sched_text */
		0xffffffff81100404, /* path_openat */
	};
	const uint64_t inside[] = {
		0xffffffff81200014, 0xffffffff81300020, 0, 0xffffffff81100040,
	};

	(void)state;
	assert_string_equal(ksyms_caller(ks, spin, 5), "do_unlinkat");
	assert_string_equal(ksyms_caller(ks, sleep, 2), "path_openat");
	/* the stack ends at its first 0 */
	assert_null(ksyms_caller(ks, inside, 4));
	assert_null(ksyms_caller(ks, spin, 3));
	ksyms_free(ks);
}

/* ---- ranking ---- */

static void test_rank(void **state)
{
	struct ksyms *ks = fake_ksyms();
	char a1[] = "do_unlinkat", a2[] = "do_unlinkat"; /* equal, apart */
	const struct kbpf_entry e[] = {
		{ KLOCK_SPIN, a1, 0xffff888100000100, 5, 100, NULL },
		{ KLOCK_RWSEM_WRITE, NULL, 0xffff888100000000, 3, 160, NULL },
		{ KLOCK_SPIN, a2, 0xffff888100000100, 1, 50, NULL },
		{ KLOCK_MUTEX, a1, 0xffffffff82000110, 1, 1000, NULL },
		{ KLOCK_SPIN, a1, 0xffff888100000200, 2, 10, NULL },
	};
	struct kbpf_top top;

	(void)state;
	kbpf_rank(e, 5, ks, &top);
	assert_int_equal(top.n, 3);
	/* mutex: 1000 ns; its one lock in the kernel's data, named */
	assert_string_equal(top.row[0].kind, "mutex");
	assert_string_equal(top.row[0].caller, "do_unlinkat");
	assert_string_equal(top.row[0].lock, "rcu_state+0x10");
	assert_int_equal(top.row[0].nlocks, 1);
	assert_true(fabs(top.row[0].wait_s - 1000e-9) < 1e-15);
	/* spin: 100 + 50 + 10 ns over 8 contentions of two locks; it ties
	 * the rwsem's 160 ns and goes first by contentions */
	assert_string_equal(top.row[1].kind, "spin");
	assert_null(top.row[1].lock);
	assert_int_equal(top.row[1].nlocks, 2);
	assert_true(fabs(top.row[1].contentions - 8) < 1e-12);
	assert_true(fabs(top.row[1].wait_s - 160e-9) < 1e-15);
	/* an unknown caller; a lock outside the kernel's data: its address */
	assert_string_equal(top.row[2].kind, "rwsem_write");
	assert_string_equal(top.row[2].caller, "?");
	assert_string_equal(top.row[2].lock, "0xffff888100000000");
	assert_true(fabs(top.row[2].contentions - 3) < 1e-12);
	ksyms_free(ks);
}

/*
 * A class the program knew names the row even over several locks (each
 * process its own mm); classes that differ within a row leave it to the
 * addresses: two of them, no name.
 */
static void test_rank_class(void **state)
{
	const struct kbpf_entry e[] = {
		{ KLOCK_RWSEM_READ, "do_user_addr_fault", 0xa000, 2, 30,
		  "mmap_lock" },
		{ KLOCK_RWSEM_READ, "do_user_addr_fault", 0xb000, 1, 20,
		  "mmap_lock" },
		{ KLOCK_SPIN, "do_signal", 0xc000, 1, 10, "siglock" },
		{ KLOCK_SPIN, "do_signal", 0xd000, 1, 5, NULL },
	};
	struct kbpf_top top;

	(void)state;
	kbpf_rank(e, 4, NULL, &top);
	assert_int_equal(top.n, 2);
	assert_string_equal(top.row[0].lock, "mmap_lock");
	assert_int_equal(top.row[0].nlocks, 2);
	assert_true(fabs(top.row[0].wait_s - 50e-9) < 1e-15);
	assert_null(top.row[1].lock);
	assert_int_equal(top.row[1].nlocks, 2);
}

/*
 * A run's eleventh and twelfth locks are kept: a lock a run does not keep
 * counts 0 in that run when compare reads it (docs/KLOCK.md), so a cut
 * at 10 made a lock eleventh in some runs look like it was not waited on.
 */
static void test_rank_keeps_twelve(void **state)
{
	static char names[12][8];
	struct kbpf_entry e[12];
	struct kbpf_top top;
	size_t i;

	(void)state;
	for (i = 0; i < 12; i++) {
		snprintf(names[i], sizeof(names[i]), "g%zu", i);
		e[i] = (struct kbpf_entry){ KLOCK_MUTEX, names[i], 0x2000 + i,
					    1, 100 - i, NULL };
	}
	kbpf_rank(e, 12, NULL, &top);
	assert_int_equal(top.n, 12);
	assert_string_equal(top.row[11].caller, "g11");
	assert_true(fabs(top.row[11].wait_s - 89e-9) < 1e-15);
}

/* More rows than KBPF_TOP: the longest waits are kept, longest first. */
static void test_rank_cut(void **state)
{
	static char names[KBPF_TOP + 2][8];
	struct kbpf_entry e[KBPF_TOP + 2];
	struct kbpf_top top;
	size_t i;

	(void)state;
	for (i = 0; i < KBPF_TOP + 2; i++) {
		snprintf(names[i], sizeof(names[i]), "f%zu", i);
		e[i] = (struct kbpf_entry){ KLOCK_SPIN, names[i], 0x1000 + i,
					    1, i + 1, NULL };
	}
	kbpf_rank(e, KBPF_TOP + 2, NULL, &top);
	assert_int_equal(top.n, KBPF_TOP);
	for (i = 0; i < KBPF_TOP; i++) {
		char want[8];

		snprintf(want, sizeof(want), "f%zu", KBPF_TOP + 1 - i);
		assert_string_equal(top.row[i].caller, want);
	}
	/* no symbols: the lock by its address, 0x1000 + KBPF_TOP + 1 */
	{
		char want[16];

		snprintf(want, sizeof(want), "0x%x", 0x1000 + KBPF_TOP + 1);
		assert_string_equal(top.row[0].lock, want);
	}
}

/* ---- the program's counts, folded ---- */

static const struct kbpf_entry *find(const struct kbpf_entry *e, size_t n,
				     uint64_t lock, const char *caller)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (e[i].lock == lock &&
		    (caller ? e[i].caller && !strcmp(e[i].caller, caller)
			    : !e[i].caller))
			return &e[i];
	fail_msg("no entry for lock 0x%llx, caller %s",
		 (unsigned long long)lock, caller ? caller : "NULL");
	return NULL;
}

/*
 * Each lock's exact counts shared among its sampled callers, by hand:
 * lock 0x10 (rwsem write, 4) had 100 contentions and 1000 ns of wait;
 * its samples were 3 from A waiting 30 ns and 1 from B waiting 70 ns, so
 * A has 75 contentions and 300 ns, B 25 and 700.  Lock 0x20 had no sample:
 * one entry of unknown caller.  Lock 0x30 waited 0 ns in its samples: the
 * wait shared by their contentions (1 : 3).  The same address with other
 * flags (0x10, spin) is another lock; a sample of no lock is left out.
 */
static void test_split(void **state)
{
	const struct kbpf_lock l[] = {
		{ 0x10, 4, 100, 1000 },
		{ 0x20, 1, 5, 50 },
		{ 0x30, 32 | KBPF_CLASS_MMAP << KBPF_CLASS_SHIFT, 8, 40 },
		{ 0x10, 1, 2, 6 },
	};
	const struct kbpf_sample s[] = {
		{ 0x30, 32 | KBPF_CLASS_MMAP << KBPF_CLASS_SHIFT, "C", 3, 0 },
		{ 0x10, 4, "B", 1, 70 },
		{ 0x10, 1, "D", 1, 2 },
		{ 0x10, 4, "A", 3, 30 },
		{ 0x30, 32 | KBPF_CLASS_MMAP << KBPF_CLASS_SHIFT, "E", 1, 0 },
		{ 0x99, 4, "F", 1, 1 },
	};
	struct kbpf_entry e[10];
	const struct kbpf_entry *x;
	size_t n;

	(void)state;
	n = kbpf_split(l, 4, s, 6, e);
	assert_int_equal(n, 6);
	x = find(e, n, 0x10, "A");
	assert_int_equal(x->kind, KLOCK_RWSEM_WRITE);
	assert_true(fabs(x->count - 75) < 1e-9);
	assert_true(fabs(x->wait_ns - 300) < 1e-9);
	assert_null(x->lock_class);
	x = find(e, n, 0x10, "B");
	assert_true(fabs(x->count - 25) < 1e-9);
	assert_true(fabs(x->wait_ns - 700) < 1e-9);
	x = find(e, n, 0x20, NULL);
	assert_int_equal(x->kind, KLOCK_SPIN);
	assert_true(fabs(x->count - 5) < 1e-9);
	assert_true(fabs(x->wait_ns - 50) < 1e-9);
	x = find(e, n, 0x30, "C");
	assert_int_equal(x->kind, KLOCK_MUTEX);
	assert_string_equal(x->lock_class, "mmap_lock");
	assert_true(fabs(x->count - 6) < 1e-9);
	assert_true(fabs(x->wait_ns - 30) < 1e-9);
	x = find(e, n, 0x30, "E");
	assert_true(fabs(x->count - 2) < 1e-9);
	assert_true(fabs(x->wait_ns - 10) < 1e-9);
	x = find(e, n, 0x10, "D");
	assert_int_equal(x->kind, KLOCK_SPIN);
	assert_true(fabs(x->count - 2) < 1e-9);
	assert_true(fabs(x->wait_ns - 6) < 1e-9);
}

/*
 * Seeded simulation: a lock contended from two callers, 30% from A with
 * waits of 3 units and 70% from B with waits of 1, sampled 1 in 32 at
 * random as the program does; the split's estimate of A's contentions and
 * wait is within 10% of what A had (independently counted here).
 */
static void test_split_sampled(void **state)
{
	struct kbpf_lock l = { 0x40, 4, 0, 0 };
	struct kbpf_sample s[2] = { { 0x40, 4, "A", 0, 0 },
				    { 0x40, 4, "B", 0, 0 } };
	struct kbpf_entry e[3];
	const struct kbpf_entry *a;
	uint64_t ca = 0, wa = 0, x = 88172645463325252ull;
	size_t i;

	(void)state;
	for (i = 0; i < 200000; i++) {
		bool is_a;
		uint64_t w;

		/* xorshift64 */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		is_a = x % 10 < 3;
		w = is_a ? 3 : 1;
		l.count++;
		l.wait_ns += w;
		ca += is_a;
		wa += is_a ? w : 0;
		if ((x >> 20) % 32 == 0) {
			s[!is_a].count++;
			s[!is_a].wait_ns += w;
		}
	}
	assert_int_equal(kbpf_split(&l, 1, s, 2, e), 2);
	a = find(e, 2, 0x40, "A");
	assert_true(fabs(a->count / (double)ca - 1) < 0.1);
	assert_true(fabs(a->wait_ns / (double)wa - 1) < 0.1);
	assert_true(fabs(a->count + find(e, 2, 0x40, "B")->count -
			 (double)l.count) < 1e-6);
}

/* The per-CPU totals: counts and waits summed, maxima the largest. */
static void test_totals_sum(void **state)
{
	struct kbpf_totals pc[3], sum;

	(void)state;
	memset(pc, 0, sizeof(pc));
	pc[0].k[1] = (struct kbpf_val){ 2, 30, 20 };
	pc[1].k[1] = (struct kbpf_val){ 1, 50, 50 };
	pc[2].k[1] = (struct kbpf_val){ 4, 40, 15 };
	pc[2].k[32] = (struct kbpf_val){ 1, 7, 7 };
	pc[0].dropped = 1;
	pc[2].dropped = 2;
	pc[1].delayed = 5;
	kbpf_totals_sum(pc, 3, &sum);
	assert_int_equal(sum.k[1].count, 7);
	assert_int_equal(sum.k[1].wait_ns, 120);
	assert_int_equal(sum.k[1].max_ns, 50);
	assert_int_equal(sum.k[32].count, 1);
	assert_int_equal(sum.k[32].max_ns, 7);
	assert_int_equal(sum.k[2].count, 0);
	assert_int_equal(sum.dropped, 3);
	assert_int_equal(sum.delayed, 5);
}

/* ---- the program on this machine ---- */

static void test_forced_off(void **state)
{
	char why[200];

	(void)state;
	setenv(KBPF_ENV, "off", 1);
	assert_null(kbpf_open(why, sizeof(why)));
	assert_string_equal(why, "disabled by CONTEND_KBPF=off");
	unsetenv(KBPF_ENV);
	setenv(KLOCK_ENV, "off", 1);
	assert_null(kbpf_open(why, sizeof(why)));
	assert_non_null(strstr(why, "no tracepoint"));
	unsetenv(KLOCK_ENV);
}

/*
 * The child forked while armed is counted, and what it forks; a process
 * forked after kbpf_track (disarmed) is not, nor the runner itself.  The
 * next run starts with none counted.
 */
static void test_live_tree(void **state)
{
	struct kbpf *k = live();
	int go[2], ready[2];
	pid_t c, g, other;
	char err[200], b;
	struct result r;
	struct kbpf_top top;
	double sum = 0;
	size_t i;

	(void)state;
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(kbpf_run_begin(k, NULL, err, sizeof(err)), 0);
	c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		close(go[1]);
		g = fork();
		if (g == 0) {
			(void)!read(go[0], &b, 1);
			_exit(0);
		}
		(void)!write(ready[1], &g, sizeof(g));
		(void)!read(go[0], &b, 1);
		wait_for(g);
		_exit(0);
	}
	kbpf_track(k, c);
	assert_int_equal(read(ready[0], &g, sizeof(g)), (ssize_t)sizeof(g));
	other = fork();
	assert_true(other >= 0);
	if (other == 0) {
		close(go[1]);
		(void)!read(go[0], &b, 1);
		_exit(0);
	}
	assert_true(kbpf_tracks(k, c));
	assert_true(kbpf_tracks(k, g));
	assert_false(kbpf_tracks(k, other));
	assert_false(kbpf_tracks(k, getpid()));
	close(go[1]);
	wait_for(c);
	wait_for(other);
	close(go[0]);
	close(ready[0]);
	close(ready[1]);

	result_init(&r);
	assert_int_equal(kbpf_run_end(k, &r, &top), 0);
	assert_false(isnan(result_value(&r, "klock_wait_s")));
	assert_true(result_value(&r, "klock_wait_s") >= 0);
	assert_true(result_value(&r, "klock_wait_max_s") <=
		    result_value(&r, "klock_wait_s"));
	for (i = 1; i < KLOCK_NKINDS; i++) {
		char name[METRIC_NAME_MAX];

		sum += result_value(&r, kcount_metric(i));
		snprintf(name, sizeof(name), "klock_wait_%s_s",
			 kbpf_kind_name(i));
		assert_false(isnan(result_value(&r, name)));
	}
	assert_true(sum <= result_value(&r, "klock_contended"));
	assert_true(top.n <= KBPF_TOP);
	result_release(&r);

	assert_int_equal(kbpf_run_begin(k, NULL, err, sizeof(err)), 0);
	assert_false(kbpf_tracks(k, c));
	assert_false(kbpf_tracks(k, g));
	kbpf_run_end(k, NULL, &top);
	assert_int_equal(top.n, 0);
	kbpf_close(k);
}

/* kernel_delay names a kernel function, or the run cannot start. */
static void test_live_delay_function(void **state)
{
	struct kbpf *k = live();
	struct kbpf_delay bad = { 1000, "no_such_kernel_function" };
	struct kbpf_delay good = { 1000, "do_unlinkat" };
	struct kbpf_top top;
	char err[200];

	(void)state;
	assert_int_equal(kbpf_run_begin(k, &bad, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'no_such_kernel_function'"));
	assert_int_equal(kbpf_run_begin(k, &good, err, sizeof(err)), 0);
	kbpf_run_end(k, NULL, &top);
	kbpf_close(k);
}

/*
 * With a cgroup, a run counts its tasks in it and none outside: a child
 * outside it that contends a kernel mutex counts nothing; one inside it
 * counts that mutex, its wait, and the caller of the top row (the pipe's
 * write, where the stack says so).
 */
static void test_live_cgroup(void **state)
{
	struct kbpf *k = live();
	struct cgroup cg;
	struct kbpf_top top;
	struct result r;
	char why[512], err[200];
	size_t i;
	int st;

	(void)state;
	if (cgroup_create(&cg, NULL, why, sizeof(why))) {
		kbpf_close(k);
		printf("skipped: no cgroup: %s\n", why);
		skip();
	}
	kbpf_use_cgroup(k, cgroup_id(&cg));

	assert_int_equal(kbpf_run_begin(k, NULL, err, sizeof(err)), 0);
	st = contending_child(NULL);
	result_init(&r);
	assert_int_equal(kbpf_run_end(k, &r, &top), 0);
	if (st == 77) {
		result_release(&r);
		cgroup_remove(&cg);
		kbpf_close(k);
		printf("skipped: userfaultfd cannot be used here\n");
		skip();
	}
	assert_int_equal(st, 0);
	assert_true(fabs(result_value(&r, "klock_contended")) < 0.5);
	assert_true(fabs(result_value(&r, "klock_wait_s")) < 1e-12);
	assert_int_equal(top.n, 0);
	result_release(&r);

	assert_int_equal(kbpf_run_begin(k, NULL, err, sizeof(err)), 0);
	st = contending_child(&cg);
	result_init(&r);
	assert_int_equal(kbpf_run_end(k, &r, &top), 0);
	assert_int_equal(st, 0);
	assert_true(result_value(&r, "klock_mutex") >= 1);
	assert_true(result_value(&r, "klock_wait_mutex_s") > 0);
	assert_true(result_value(&r, "klock_wait_max_s") > 0);
	for (i = 0; i < top.n; i++)
		if (!strcmp(top.row[i].kind, "mutex") &&
		    strstr(top.row[i].caller, "pipe_write"))
			break;
	if (i == top.n)
		fail_msg("no mutex row from the pipe's write among %zu", top.n);
	assert_true(top.row[i].contentions >= 1);
	assert_true(top.row[i].wait_s > 0);
	result_release(&r);
	cgroup_remove(&cg);
	kbpf_close(k);
}

/* Without a cgroup: the child forked while armed, its contention counted
 * (the process tree, followed by the program on fork). */
static void test_live_tree_counts(void **state)
{
	struct kbpf *k = live();
	struct kbpf_top top;
	struct result r;
	char err[200];
	int st;

	(void)state;
	assert_int_equal(kbpf_run_begin(k, NULL, err, sizeof(err)), 0);
	st = contending_child(NULL);
	result_init(&r);
	assert_int_equal(kbpf_run_end(k, &r, &top), 0);
	kbpf_close(k);
	if (st == 77) {
		result_release(&r);
		printf("skipped: userfaultfd cannot be used here\n");
		skip();
	}
	assert_int_equal(st, 0);
	assert_true(result_value(&r, "klock_mutex") >= 1);
	assert_true(result_value(&r, "klock_wait_mutex_s") > 0);
	assert_true(top.n >= 1);
	result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_caller),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_rank_class),
		cmocka_unit_test(test_rank_keeps_twelve),
		cmocka_unit_test(test_rank_cut),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_sampled),
		cmocka_unit_test(test_totals_sum),
		cmocka_unit_test(test_forced_off),
		cmocka_unit_test(test_live_tree),
		cmocka_unit_test(test_live_delay_function),
		cmocka_unit_test(test_live_tree_counts),
		cmocka_unit_test(test_live_cgroup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
