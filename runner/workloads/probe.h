/*
 * probe.h - the two instruments of a lock workload's probed loop: each
 * worker's progress published for a sampler thread that records per-thread
 * operation counts in fixed intervals (the timeline), and one acquisition
 * in `every` timed (the sampled acquisition latency, as stress-ng does).
 *
 * A lock workload compiles its loop twice, with `probed` a constant: the
 * plain copy holds neither instrument and runs unless `timeline` or
 * `latency_every` is set.  The probed copy does, per operation:
 *
 *	left = probe_every(p);        // before the loop, in a register
 *	...
 *	t0 = probe_begin(p, &left);   // 0, or the clock one time in every
 *	lock(...);
 *	probe_end(p, t0, done);       // the wait, when timed; progress
 *
 * probe_end's progress store goes to the worker's own cache lines, which
 * the sampler reads once an interval: nothing is shared per operation.
 * Call sequence of the run: probe_alloc; timeline_start; the timed run;
 * timeline_stop; timeline_report and probe_report; probe_free.
 */
#ifndef CONTEND_PROBE_H
#define CONTEND_PROBE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "runner/workload.h"
#include "runner/workloads/harness.h"

/* Latency samples kept per worker, at most; later ones replace the oldest. */
#define PROBE_LAT_MAX 4096
/* Timeline cells (intervals x workers) kept, at most: past it, adjacent
 * intervals merge and the interval doubles. */
#define TIMELINE_MAX_CELLS 32768
/* The value `timeline = auto` parses to (param.c: a PT_DURATION word). */
#define TIMELINE_AUTO (-1.0)
/* auto's interval: this, or coarser in doublings when the run would not
 * fit TIMELINE_MAX_CELLS at it (docs/WORKLOADS.md, "Per-thread timeline"). */
#define TIMELINE_AUTO_FINEST 0.001

struct probe {
	_Alignas(2 * CACHELINE) atomic_uint_fast64_t progress;
	uint64_t every;       /* 0: none timed */
	uint64_t taken;       /* timed acquisitions so far */
	uint32_t *lat;        /* ns, ring of lat_max; NULL without latency */
	size_t lat_max;
};

static inline uint64_t probe_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void probe_record(struct probe *p, uint64_t ns);

/*
 * The countdown to the first timed operation, for a local of the loop
 * (a register: the loop then loads nothing of the probe per operation).
 * Without latency it does not reach 0 in 2^64 operations.
 */
static inline uint64_t probe_every(const struct probe *p)
{
	return p->every ? p->every : UINT64_MAX;
}

/* The clock, for the one operation in every that is timed; else 0. */
static inline uint64_t probe_begin(const struct probe *p, uint64_t *left)
{
	if (--*left)
		return 0;
	*left = p->every;
	return probe_now_ns();
}

static inline void probe_end(struct probe *p, uint64_t t0, uint64_t done)
{
	if (t0)
		probe_record(p, probe_now_ns() - t0);
	atomic_store_explicit(&p->progress, done + 1, memory_order_relaxed);
}

/* n probes, one in every acquisitions timed (0: none); free with probe_free. */
struct probe *probe_alloc(size_t n, uint64_t every);
void probe_free(struct probe *p, size_t n);
/* acquire_p50_ns, acquire_p99_ns, acquire_max_ns, acquire_samples. */
void probe_report(const struct probe *p, size_t n, struct result *r);

struct timeline {
	const struct probe *probes;
	size_t n;               /* workers */
	double interval;        /* seconds between rows, doubling when full */
	size_t rows, cap;
	uint64_t *cum;          /* rows x n cumulative counts, row-major */
	atomic_int stop;
	pthread_t tid;
	bool running;
};

/*
 * Starts the sampler thread: every interval it reads each probe's
 * progress.  Returns 0, or -1 (nothing started; the run goes on
 * without a timeline).
 */
int timeline_start(struct timeline *t, const struct probe *p, size_t n,
		   double interval);
void timeline_stop(struct timeline *t);
/*
 * The interval `timeline = auto` records at, for n workers and a run of
 * runtime_s seconds (0: fixed work, length unknown): TIMELINE_AUTO_FINEST
 * doubled until a quarter more than the runtime fits the cell budget, so
 * that the sampler does not have to halve the run's resolution mid-run
 * (a fixed-work run starts at the finest and halves when full).  Chosen
 * before the run, from nothing measured: the sampler thread is the only
 * thing it changes, never the workers' loop.
 */
double timeline_auto_interval(double runtime_s, size_t n);
/* Full: keeps every second row (each the end of a merged pair) and
 * doubles the interval.  The sampler's own step, public for tests. */
void timeline_halve(struct timeline *t);
/*
 * Puts the per-thread operations of each interval into r (result_set
 * _timeline), from the first interval in which any worker made progress
 * to the last; frees the rows.
 */
void timeline_report(struct timeline *t, struct result *r);

#endif
