/*
 * harness.c - start barrier, timed window, stop flag and calibration shared
 * by the threaded workloads.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "runner/workloads/harness.h"

/*
 * The start gate: workers block on a condition variable until every thread
 * exists, so none gets a head start while its siblings are being created.
 * (A pthread barrier cannot be abandoned when a pthread_create fails.)
 */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t open;
	bool go;
};

/*
 * One per worker, on lines of its own: a worker reads its struct worker in
 * every operation (the stop flag's address) and writes start and end, so
 * two workers must not share a line (nor an adjacent-line prefetch pair).
 */
struct launch {
	_Alignas(2 * CACHELINE) struct worker w;
	void (*fn)(struct worker *);
	struct gate *gate;
	double start, end;   /* this worker's own window, CLOCK_MONOTONIC */
};

/*
 * Each worker stamps the clock just before its first operation and just
 * after its last: the run's window is then exactly from the first start to
 * the last end.  No operation falls outside it, and neither the wake-up of
 * the workers at the gate nor the join after them falls inside it -- on a
 * busy machine either can take milliseconds in which no work is done.
 */
static void *trampoline(void *arg)
{
	struct launch *l = arg;

	pthread_mutex_lock(&l->gate->lock);
	while (!l->gate->go)
		pthread_cond_wait(&l->gate->open, &l->gate->lock);
	pthread_mutex_unlock(&l->gate->lock);
	l->start = now_monotonic();
	l->fn(&l->w);
	l->end = now_monotonic();
	return NULL;
}

/* From the first worker's start to the last one's end. */
static double window(const struct launch *l, size_t n)
{
	double first = l[0].start, last = l[0].end;
	size_t i;

	for (i = 1; i < n; i++) {
		if (l[i].start < first)
			first = l[i].start;
		if (l[i].end > last)
			last = l[i].end;
	}
	return last - first;
}

static void gate_open(struct gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->go = true;
	pthread_cond_broadcast(&g->open);
	pthread_mutex_unlock(&g->lock);
}

int harness_run(const struct wl_args *a, size_t n, void (*fn)(struct worker *),
		void *ctx, struct slot *slots, double *elapsed,
		struct result *r)
{
	struct gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
			     false };
	struct launch *l = harness_alloc_lines(n, sizeof(struct launch));
	pthread_t *tids = xcalloc(n, sizeof(*tids));
	/* read in every operation: on a line no write of ours shares */
	_Alignas(2 * CACHELINE) atomic_int stop = 0;
	size_t i, started;
	double t0, spawned = spawn_stamp(); /* read before the window */
	int ret = -1, err = 0;

	for (started = 0; started < n; started++) {
		l[started].w = (struct worker){ .id = started, .ctx = ctx,
						.slot = &slots[started],
						.jobs = a->jobs, .stop = &stop };
		l[started].fn = fn;
		l[started].gate = &gate;
		err = pthread_create(&tids[started], NULL, trampoline,
				     &l[started]);
		if (err)
			break;
	}
	if (err) {
		/* Let the ones that started run zero operations and leave. */
		for (i = 0; i < started; i++)
			l[i].w.jobs = 0;
		atomic_store(&stop, 1);
	}
	/*
	 * The runtime counts from before the gate opens: were the main
	 * thread preempted between the two, the workers would otherwise run
	 * longer than asked.  The window itself is the workers' (window()).
	 */
	window_mark(a, true);
	t0 = now_monotonic();
	gate_open(&gate);
	if (!err && !a->jobs) {
		sleep_until(t0 + a->runtime_s);
		atomic_store_explicit(&stop, 1, memory_order_relaxed);
	}
	for (i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	window_mark(a, false);
	if (err) {
		result_fail(r, "pthread_create (thread %zu of %zu): %s", started,
			    n, strerror(err));
		goto out;
	}
	*elapsed = window(l, n);
	if (!isnan(spawned))
		result_add(r, "start_latency_s", t0 - spawned);
	ret = 0;
out:
	free(tids);
	free(l);
	return ret;
}

void *harness_alloc_lines(size_t n, size_t size)
{
	void *p = aligned_alloc((size_t)2 * CACHELINE, (n ? n : 1) * size);

	if (!p)
		abort();
	memset(p, 0, (n ? n : 1) * size);
	return p;
}

struct slot *harness_slots(size_t n)
{
	return harness_alloc_lines(n, sizeof(struct slot));
}

void harness_slots_free(struct slot *s)
{
	free(s);
}

void harness_report(struct result *r, const struct slot *s, size_t n,
		    double elapsed, const struct wl_args *a)
{
	uint64_t *ops = xcalloc(n, sizeof(*ops));
	uint64_t total = 0, contended = 0, handoffs = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		ops[i] = s[i].ops;
		total += s[i].ops;
		contended += s[i].contended;
		handoffs += s[i].handoffs;
	}
	result_add(r, "ops", (double)total);
	result_add(r, "elapsed_s", elapsed);
	result_add(r, "throughput", elapsed > 0 ? (double)total / elapsed : 0);
	result_add(r, "contended", (double)contended);
	result_add(r, "contention_rate",
		   total ? (double)contended / (double)total : 0);
	result_add(r, "handoffs", (double)handoffs);
	result_add(r, "handoff_rate", elapsed > 0 ? (double)handoffs / elapsed : 0);
	(void)a;
	result_set_threads(r, n, ops);
	free(ops);
}

/* Seconds that `loops` busy loops take, best of `rounds` tries. */
static double best_time(uint64_t loops, int rounds)
{
	double best = INFINITY;

	for (int i = 0; i < rounds; i++) {
		double t = now_monotonic(), d;

		busy_loops(loops);
		d = now_monotonic() - t;
		if (d < best)
			best = d;
	}
	return best;
}

/* Loops that take about `seconds`, grown by doubling from a guess. */
static uint64_t loops_for(double seconds)
{
	uint64_t loops = 1024;

	while (best_time(loops, 1) < seconds && loops < (UINT64_C(1) << 40))
		loops *= 2;
	return loops;
}

double harness_calibrate(void)
{
	uint64_t loops;
	double t0 = now_monotonic(), dt;

	/* Warm-up: 5 ms of spinning, the same loop as measured. */
	while (now_monotonic() - t0 < 0.005)
		busy_loops(1024);
	loops = loops_for(0.001);
	dt = best_time(loops, 7);
	return (double)loops / (dt * 1e6);
}

int harness_calibration_parse(const char *s, double *lpus)
{
	double v;

	if (parse_double(s, &v) || !isfinite(v) || v <= 0)
		return -1;
	*lpus = v;
	return 0;
}

double harness_speed_check(void)
{
	uint64_t loops = loops_for(50e-6);

	return (double)loops / (best_time(loops, 4) * 1e6);
}

double harness_loops_per_us(const struct wl_args *a)
{
	static double measured;

	if (a->loops_per_us > 0)
		return a->loops_per_us;
	if (measured <= 0)
		measured = harness_calibrate();
	return measured;
}

uint64_t harness_ns_to_loops(double ns, double lpus)
{
	if (ns <= 0)
		return 0;
	return (uint64_t)(ns * lpus / 1000.0 + 0.5);
}
