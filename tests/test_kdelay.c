/*
 * test_kdelay.c - kernel_delay's bounds (runner/kinstr/bpf/kbpf_shared.h,
 * docs/KLOCK.md "The delay's bounds"): which delays kbpf_delay_grant
 * refuses and why, worked out by hand; in a seeded simulation of a storm
 * of requests on one CPU, that the delays granted never take more than
 * half of any stretch of time (plus half of its last delay), summed from
 * the granted intervals themselves; the refusals summed over the CPUs;
 * and, where this machine can load BPF, that a run's delay and tracking
 * end with the run: a process of the finished run that contends the
 * delayed lock again (as one reusing its pid would) is neither delayed
 * nor counted, without a cgroup and with one.  The live part is skipped
 * with the reason elsewhere, unless CONTEND_REQUIRE_KBPF=1.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "lib/util.h"
#include "runner/kinstr/bpf.h"
#include "runner/workload.h"
#include "tests/kbpf_live.h"

#define MS 1000000ULL

/* ---- the grant, by hand ---- */

static const struct grant_case {
	const char *name;
	struct kbpf_budget before;
	int in_task;
	unsigned flags;
	uint64_t wait, now, d;
	unsigned gen;
	enum kbpf_refusal want;
	uint64_t next_ok, used;   /* after */
} grant_cases[] = {
	/* a delay of D: the CPU goes D more without one (50%) */
	{ "fresh CPU, sleeping mutex", { 0, 0, 1, 0 }, 1, 32, 5 * MS,
	  1000, 1 * MS, 1, KBPF_GRANT, 1000 + 2 * MS, 1 * MS },
	{ "interrupt context", { 0, 0, 1, 0 }, 0, 32, 0, 1000, 1 * MS, 1,
	  KBPF_REFUSE_IRQ, 0, 0 },
	{ "spin wait 9.5 ms + 1 ms > cap", { 0, 0, 1, 0 }, 1, 1,
	  9500000, 1000, 1 * MS, 1, KBPF_REFUSE_SPIN, 0, 0 },
	{ "spin wait 9 ms + 1 ms = cap", { 0, 0, 1, 0 }, 1, 1, 9 * MS, 1000,
	  1 * MS, 1, KBPF_GRANT, 1000 + 2 * MS, 1 * MS },
	{ "spin wait past the cap", { 0, 0, 1, 0 }, 1, 1, 12 * MS, 1000, 1,
	  1, KBPF_REFUSE_SPIN, 0, 0 },
	{ "mutex spun (33) 9.5 ms", { 0, 0, 1, 0 }, 1, 33, 9500000, 1000,
	  1 * MS, 1, KBPF_REFUSE_SPIN, 0, 0 },
	{ "rwsem slept 50 ms, 10 ms delay", { 0, 0, 1, 0 }, 1, 4, 50 * MS,
	  1000, 10 * MS, 1, KBPF_GRANT, 1000 + 20 * MS, 10 * MS },
	{ "1 ns before the share allows", { 2001000, 1 * MS, 1, 0 }, 1, 32,
	  0, 2000999, 1 * MS, 1, KBPF_REFUSE_SHARE, 2001000, 1 * MS },
	{ "when the share allows", { 2001000, 1 * MS, 1, 0 }, 1, 32, 0,
	  2001000, 1 * MS, 1, KBPF_GRANT, 4001000, 2 * MS },
	{ "run total: 1999.5 ms + 1 ms", { 0, 1999500000, 1, 0 }, 1, 32, 0,
	  5 * MS, 1 * MS, 1, KBPF_REFUSE_TOTAL, 0, 1999500000 },
	{ "run total: 1999 ms + 1 ms", { 0, 1999 * MS, 1, 0 }, 1, 32, 0,
	  5 * MS, 1 * MS, 1, KBPF_GRANT, 7 * MS, 2000 * MS },
	{ "a new run restarts the total", { 0, 2000 * MS, 1, 0 }, 1, 32, 0,
	  5 * MS, 1 * MS, 2, KBPF_GRANT, 7 * MS, 1 * MS },
	{ "a new run keeps the share", { 5 * MS, 7 * MS, 1, 0 }, 1, 32, 0,
	  4 * MS, 1 * MS, 2, KBPF_REFUSE_SHARE, 5 * MS, 0 },
};

static void test_grant(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(grant_cases); i++) {
		const struct grant_case *c = &grant_cases[i];
		struct kbpf_budget b = c->before;
		enum kbpf_refusal got;

		got = kbpf_delay_grant(&b, c->in_task, c->flags, c->wait,
				       c->now, c->d, c->gen);
		if (got != c->want || b.next_ok != c->next_ok ||
		    b.used != c->used || b.gen != c->gen)
			fail_msg("%s: got %d next_ok %llu used %llu gen %u",
				 c->name, (int)got,
				 (unsigned long long)b.next_ok,
				 (unsigned long long)b.used, b.gen);
	}
}

static void test_in_range(void **state)
{
	(void)state;
	assert_true(kbpf_in_range(100, 100, 200));
	assert_true(kbpf_in_range(199, 100, 200));
	assert_false(kbpf_in_range(200, 100, 200));
	assert_false(kbpf_in_range(99, 100, 200));
	/* an interrupt stack below or above the task's */
	assert_false(kbpf_in_range(0xffffc90000004000ULL,
				   0xffffc90000010000ULL,
				   0xffffc90000013f58ULL));
	assert_false(kbpf_in_range(0xfffffe0000009000ULL,
				   0xffffc90000010000ULL,
				   0xffffc90000013f58ULL));
}

/* ---- the share, simulated ---- */

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/*
 * One CPU asked for delays at random: up to 3 ms apart, of 100 ns to
 * 10 ms, a quarter of them spinning waits of up to 12 ms, in runs of 500.
 * The granted delays, as intervals: no two overlap, and over every
 * stretch from one's start to a later one's end they sum to at most half
 * of it plus half of the last.  Each reason is met.
 */
static void test_share_simulated(void **state)
{
	enum { N = 20000 };
	static uint64_t start[N], len[N];
	struct kbpf_budget b = { 0, 0, 0, 0 };
	uint64_t seed = 42, now = 0, refused[KBPF_NREFUSE] = { 0 };
	size_t n = 0, i, j;

	(void)state;
	for (i = 0; i < N; i++) {
		uint64_t d = 100 + lcg(&seed) % (10 * MS - 100);
		bool spin = lcg(&seed) % 4 == 0;
		uint64_t wait = spin ? lcg(&seed) % (12 * MS) : 0;
		enum kbpf_refusal r;

		now += lcg(&seed) % (3 * MS);
		r = kbpf_delay_grant(&b, 1, spin ? 1 : 32, wait, now, d,
				     (unsigned)(1 + i / 500));
		if (r == KBPF_GRANT) {
			start[n] = now;
			len[n++] = d;
			now += d;    /* the CPU is busy meanwhile */
		} else {
			refused[r]++;
		}
	}
	assert_true(n > 1000);
	assert_true(refused[KBPF_REFUSE_SPIN] > 0);
	assert_true(refused[KBPF_REFUSE_SHARE] > 0);
	assert_int_equal(refused[KBPF_REFUSE_IRQ], 0);
	for (i = 0; i < n; i++) {
		uint64_t sum = 0;

		for (j = i; j < n && j < i + 400; j++) {
			uint64_t span = start[j] + len[j] - start[i];

			if (j > i && start[j] < start[j - 1] + len[j - 1])
				fail_msg("delays %zu and %zu overlap", j - 1, j);
			sum += len[j];
			if (2 * sum > span + len[j])
				fail_msg("delays %zu..%zu: %llu ns of %llu",
					 i, j, (unsigned long long)sum,
					 (unsigned long long)span);
		}
	}
}

/* A run asking 1 ms at once, every 1 ms, without a pause: at most the
 * run's total (2 s) is granted; the rest is refused as over it. */
static void test_run_total(void **state)
{
	struct kbpf_budget b = { 0, 0, 0, 0 };
	uint64_t now = 0, granted = 0, over = 0;

	(void)state;
	for (int i = 0; i < 10000; i++) {
		enum kbpf_refusal r = kbpf_delay_grant(&b, 1, 32, 0, now,
						       1 * MS, 7);

		granted += r == KBPF_GRANT;
		over += r == KBPF_REFUSE_TOTAL;
		now += r == KBPF_GRANT ? 2 * MS : 1 * MS;
	}
	/* 2000 delays of 1 ms, then every one refused for the total */
	assert_int_equal(granted, 2000);
	assert_int_equal(over, 8000);
}

/* The refusals of the CPUs summed, reason by reason. */
static void test_refused_sum(void **state)
{
	struct kbpf_totals pc[2], sum;

	(void)state;
	memset(pc, 0, sizeof(pc));
	pc[0].refused[KBPF_REFUSE_IRQ] = 3;
	pc[1].refused[KBPF_REFUSE_IRQ] = 4;
	pc[1].refused[KBPF_REFUSE_TOTAL] = 9;
	pc[0].delayed = 5;
	kbpf_totals_sum(pc, 2, &sum);
	assert_int_equal(sum.refused[KBPF_REFUSE_IRQ], 7);
	assert_int_equal(sum.refused[KBPF_REFUSE_SPIN], 0);
	assert_int_equal(sum.refused[KBPF_REFUSE_SHARE], 0);
	assert_int_equal(sum.refused[KBPF_REFUSE_TOTAL], 9);
	assert_int_equal(sum.delayed, 5);
}

/* ---- live: nothing after the run ---- */

/* Asks the run's process (ask[1], its answer on ans[0]) to contend the
 * pipe's mutex once more, from a child of its own; contending_child's
 * status. */
static int again(const int *ask, const int *ans)
{
	char b = 'c';

	assert_int_equal(write(ask[1], &b, 1), 1);
	assert_int_equal(read(ans[0], &b, 1), 1);
	return b;
}

/*
 * A process of the run, alive after it: contends (in a child) for each
 * byte asked, and answers with the status.  In cg when not NULL.
 */
static pid_t run_process(const struct cgroup *cg, int *ask, int *ans)
{
	pid_t c;
	char b;

	assert_int_equal(pipe(ask), 0);
	assert_int_equal(pipe(ans), 0);
	c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		close(ask[1]);
		close(ans[0]);
		if (cg && cgroup_place(cg, 0))
			_exit(3);
		while (read(ask[0], &b, 1) == 1) {
			b = (char)contending_child(NULL);
			(void)!write(ans[1], &b, 1);
		}
		_exit(0);
	}
	close(ask[0]);
	close(ans[1]);
	return c;
}

/*
 * A delayed run whose process contends the delayed lock (the pipe's
 * mutex, at its write) once in the run, and once after kbpf_run_end:
 * the run counts the delay; the contention after it is neither delayed
 * nor counted (kbpf_run_end again reads the run's own counts).  Before,
 * the tracked map outlived the run and the delay stayed set: the second
 * contention was delayed too.
 */
static void live_after_run(struct kbpf *k, const struct cgroup *cg)
{
	/* the pipe's write: anon_pipe_write since Linux 6.15 */
	struct kbpf_delay d = { 100000, "anon_pipe_write" };
	struct kbpf_top top;
	struct result r1, r2;
	int ask[2], ans[2], st;
	char err[200];
	pid_t c;

	if (kbpf_run_begin(k, &d, err, sizeof(err))) {
		d.function = "pipe_write";
		assert_int_equal(kbpf_run_begin(k, &d, err, sizeof(err)), 0);
	}
	c = run_process(cg, ask, ans);
	kbpf_track(k, c);
	st = again(ask, ans);
	result_init(&r1);
	assert_int_equal(kbpf_run_end(k, &r1, &top), 0);
	if (st == 77) {
		close(ask[1]);
		wait_for(c);
		result_release(&r1);
		printf("skipped: userfaultfd cannot be used here\n");
		skip();
	}
	assert_int_equal(st, 0);
	assert_true(result_value(&r1, "klock_mutex") >= 1);
	assert_true(result_value(&r1, "klock_delayed") >= 1);
	assert_false(kbpf_tracks(k, c));

	assert_int_equal(again(ask, ans), 0);
	result_init(&r2);
	assert_int_equal(kbpf_run_end(k, &r2, &top), 0);
	assert_true(fabs(result_value(&r2, "klock_delayed") -
			 result_value(&r1, "klock_delayed")) < 0.5);
	assert_true(fabs(result_value(&r2, "klock_mutex") -
			 result_value(&r1, "klock_mutex")) < 0.5);
	assert_true(fabs(result_value(&r2, "klock_delay_refused_irq") -
			 result_value(&r1, "klock_delay_refused_irq")) < 0.5);
	close(ask[1]);
	close(ans[0]);
	wait_for(c);
	result_release(&r1);
	result_release(&r2);
}

static void test_live_after_run_tree(void **state)
{
	struct kbpf *k = live();

	(void)state;
	live_after_run(k, NULL);
	kbpf_close(k);
}

static void test_live_after_run_cgroup(void **state)
{
	struct kbpf *k = live();
	struct cgroup cg;
	char why[512];

	(void)state;
	if (cgroup_create(&cg, NULL, why, sizeof(why))) {
		kbpf_close(k);
		printf("skipped: no cgroup: %s\n", why);
		skip();
	}
	kbpf_use_cgroup(k, cgroup_id(&cg));
	live_after_run(k, &cg);
	cgroup_remove(&cg);
	kbpf_close(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grant),
		cmocka_unit_test(test_in_range),
		cmocka_unit_test(test_share_simulated),
		cmocka_unit_test(test_run_total),
		cmocka_unit_test(test_refused_sum),
		cmocka_unit_test(test_live_after_run_tree),
		cmocka_unit_test(test_live_after_run_cgroup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
