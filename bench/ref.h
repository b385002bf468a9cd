/*
 * ref.h - the plain-C loop of the references of bench/fidelity.sh, for the
 * lock a ref_*.c defines before including this: a struct ref_lock, static
 * inline ref_lock() (returns 1 when the acquisition found it taken, else
 * 0) and ref_unlock(), and REF_NAME.  No harness: the same group layout
 * as contend's lock workloads (lock and counter on one 128-byte aligned
 * block), the same loop (lock, increment, unlock, worklen empty loops),
 * contended acquisitions counted in a register; workers start together
 * from a barrier and stop on an atomic flag, and the window runs from the
 * first worker's first operation to the last worker's last, as in
 * contend's harness.  What contend adds is what fidelity.sh measures:
 * per-thread counting in slots, hand-off counting (from the counter's
 * value, after the unlock), the slow paths' own counters, the jobs test.
 *
 * usage: REF_NAME NTHREADS WORKLEN SECONDS
 * prints "throughput OPS/S", "ops N" and "contended N"
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static struct {
	_Alignas(128) struct ref_lock lock;
	uint64_t count;
} g;
static atomic_int stop;
static pthread_barrier_t start;
static long worklen;
static atomic_ullong contended_total;

/* The seed's loop(worklen): the count is an argument, not re-read. */
static void loop(long iterations)
{
	for (long i = 0; i < iterations; i++)
		__asm__ __volatile__("" ::: "memory");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Each worker's first and last instant: [0] start, [1] end. */
static double stamps[64][2];

static void *worker(void *arg)
{
	double *stamp = arg;
	const long n = worklen;
	uint64_t contended = 0;

	pthread_barrier_wait(&start);
	stamp[0] = now();
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		contended += ref_lock(&g.lock);
		g.count++;
		ref_unlock(&g.lock);
		loop(n);
	}
	stamp[1] = now();
	atomic_fetch_add(&contended_total, contended);
	return NULL;
}

/* A whole-string integer >= 0, or -1. */
static long integer(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return (end == s || *end || v < 0) ? -1 : v;
}

int main(int argc, char **argv)
{
	pthread_t tid[64];
	struct timespec nap;
	double t0, t1, secs = 0;
	char *end = NULL;
	long n = 0;
	int i;

	if (argc == 4) {
		n = integer(argv[1]);
		worklen = integer(argv[2]);
		secs = strtod(argv[3], &end);
	}
	if (n < 1 || n > 64 || worklen < 0 || !end || *end || secs <= 0) {
		fprintf(stderr, "usage: " REF_NAME
			" NTHREADS(1-64) WORKLEN SECONDS\n");
		return 2;
	}
	ref_init(&g.lock);
	pthread_barrier_init(&start, NULL, (unsigned)n + 1);
	for (i = 0; i < n; i++)
		if (pthread_create(&tid[i], NULL, worker, stamps[i]))
			return 1;
	pthread_barrier_wait(&start);
	nap.tv_sec = (time_t)secs;
	nap.tv_nsec = (long)((secs - (double)nap.tv_sec) * 1e9);
	while (nanosleep(&nap, &nap))
		;
	atomic_store_explicit(&stop, 1, memory_order_relaxed);
	for (i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	t0 = stamps[0][0];
	t1 = stamps[0][1];
	for (i = 1; i < n; i++) {
		t0 = stamps[i][0] < t0 ? stamps[i][0] : t0;
		t1 = stamps[i][1] > t1 ? stamps[i][1] : t1;
	}
	printf("throughput %.17g\nops %llu\ncontended %llu\n",
	       (double)g.count / (t1 - t0), (unsigned long long)g.count,
	       (unsigned long long)atomic_load(&contended_total));
	return 0;
}
