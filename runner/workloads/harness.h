/*
 * harness.h - what every threaded workload shares: workers released together
 * by a start barrier, an atomic stop flag, the measured window timed with
 * CLOCK_MONOTONIC, cache-line-padded per-worker counters, and calibrated
 * busy work.
 *
 * Call sequence: fill shared state, harness_run(a, n, fn, ctx, &elapsed);
 * fn runs once per worker and loops while worker_continue(w, done).
 */
#ifndef CONTEND_HARNESS_H
#define CONTEND_HARNESS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runner/workload.h"

#define CACHELINE 64

/*
 * Per-worker counters, one cache line each (two, to defeat the adjacent
 * line prefetcher), so counting never makes threads share a line.
 */
struct slot {
	_Alignas(2 * CACHELINE) uint64_t ops;
	uint64_t contended;   /* acquisitions that found the lock taken */
	uint64_t handoffs;    /* acquisitions after another thread's */
	uint64_t aux[4];      /* workload-specific counters */
};

struct worker {
	size_t id;            /* 0 .. n-1 */
	void *ctx;            /* the workload's shared state */
	struct slot *slot;    /* this worker's counters */
	uint64_t jobs;        /* fixed work; 0 means run until stopped */
	const atomic_int *stop;
};

/* True while the worker should do another operation (done so far given). */
static inline bool worker_continue(const struct worker *w, uint64_t done)
{
	if (w->jobs)
		return done < w->jobs;
	return !atomic_load_explicit(w->stop, memory_order_relaxed);
}

/*
 * Runs fn in n threads.  All wait on a barrier; with a runtime, the stop
 * flag is raised runtime seconds after the barrier opens; with jobs, each
 * worker returns after its jobs.  *elapsed is the measured window: from
 * the moment the first worker starts its first operation to the moment
 * the last one has finished its last (every counted operation inside it,
 * the wake-up and the join outside).  slots must hold n entries
 * (harness_slots allocates them zeroed and aligned).
 * Returns 0 with *elapsed in seconds, or -1 with r->error set.
 */
int harness_run(const struct wl_args *a, size_t n, void (*fn)(struct worker *),
		void *ctx, struct slot *slots, double *elapsed,
		struct result *r);
struct slot *harness_slots(size_t n);
/* n zeroed objects of size bytes (a multiple of 2 * CACHELINE), aligned to
 * 2 * CACHELINE; free() them. */
void *harness_alloc_lines(size_t n, size_t size);
void harness_slots_free(struct slot *s);

/* Sums of the slots' fields, and per-worker ops into the result. */
void harness_report(struct result *r, const struct slot *s, size_t n,
		    double elapsed, const struct wl_args *a);

/*
 * Calibrated busy work: busy_loops(n) spins n iterations that the compiler
 * cannot remove.  How many make a microsecond is measured once per
 * experiment by the runner (harness_calibrate) and handed to every run as
 * wl_args.loops_per_us, so every run of an experiment does the same work
 * per nanosecond asked for (docs/RUNNING.md, "Calibration").
 */
static inline void busy_loops(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ __volatile__("" ::: "memory");
}

/*
 * Measures loops per microsecond on this CPU: a warm-up spin (so a CPU
 * that raises its clock under load has done so), then the best of
 * several 1 ms measurements (the best: preemption only ever slows one).
 * About 15 ms.
 */
double harness_calibrate(void);
/* A calibration as text (option, stored meta): a finite number above 0.
 * Returns 0, or -1. */
int harness_calibration_parse(const char *s, double *lpus);

/*
 * A run's calibration: a->loops_per_us when the runner handed one, else
 * harness_calibrate() once per process (contend exec typed by hand).
 * Called only when a calibrated parameter is set, so a run that needs no
 * busy work of a given length pays for no calibration.
 */
double harness_loops_per_us(const struct wl_args *a);
/* ns of busy work in loops at lpus loops per microsecond. */
uint64_t harness_ns_to_loops(double ns, double lpus);
/*
 * A cheap (0.3 ms) measurement of the CPU's speed now, in loops per
 * microsecond (best of 4 x 50 us, after sizing the loop from scratch, so
 * that no calibration given, however wrong, can make it long): run after
 * the window, it shows frequency drift against the experiment's
 * calibration.
 */
double harness_speed_check(void);

#endif
