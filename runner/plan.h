/*
 * plan.h - the run list of an experiment: which configuration runs at each
 * position (seq), warm-ups first, in blocked, random or sequential order,
 * reproducible from the seed on any machine, grown by whole rounds while
 * the stopping rule of `repetitions = auto` (lib/stoprule.h) says so.
 *
 * Call sequence: plan_build (or plan_restore from stored runs for resume)
 * -> read p->runs -> plan_add_round while plan_auto_decide says continue
 * -> plan_release.
 *
 * Reproducibility.  Every shuffle is a gsl_ran_shuffle() driven by its own
 * gsl_rng_mt19937, seeded with plan_seed32(seed, stream) where stream is the
 * seq of the first run the shuffle places.  GSL's mt19937 takes a 32-bit
 * seed (it keeps the low 32 bits of its unsigned long, and replaces 0 by
 * 4357), so the 64-bit experiment seed is mapped explicitly, the same way
 * on 32- and 64-bit hosts:
 *
 *     z = seed + 0x9E3779B97F4A7C15 * (stream + 1)        (mod 2^64)
 *     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
 *     z = (z ^ (z >> 27)) * 0x94D049BB133111EB
 *     z =  z ^ (z >> 31)                       (SplitMix64's finalizer)
 *     seed32 = z >> 32
 *
 * Seeding each shuffle from its stream (rather than drawing every shuffle
 * from one generator) lets an `auto` plan add a round after a resume in
 * another process and still get the order a single uninterrupted run would
 * have produced.
 */
#ifndef CONTEND_PLAN_H
#define CONTEND_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/stoprule.h"
#include "runner/config.h"

/* One planned run. */
struct plan_run {
	size_t config;     /* index of the configuration (expansion order) */
	int repetition;    /* 0-based among the configuration's warm-ups,
			    * or among its measured runs */
	bool warmup;
	long seq;          /* position in the order; == index in plan.runs */
};

/* How many runs a configuration gets when the plan is built. */
struct plan_spec {
	int warmup;
	int repetitions;   /* measured runs (for auto: min_repetitions) */
};

struct plan {
	enum run_order order;
	uint64_t seed;
	size_t nconfigs;
	int *measured;     /* measured runs planned so far, per config */
	size_t nruns, alloc;
	struct plan_run *runs;
};

/*
 * blocked:    warm-up rounds, then measured rounds; round k holds one run
 *             of every configuration that has a k-th run of that kind,
 *             each round shuffled independently.
 * random:     one shuffle of all runs; within a configuration the first
 *             positions it drew are its warm-ups, so warm-ups still come
 *             before its measured runs.
 * sequential: configuration by configuration, warm-ups first (for
 *             comparison only: it confounds configuration with time).
 * Returns 0, or -1 when the plan would exceed CONFIG_MAX_RUNS.
 */
int plan_build(struct plan *p, enum run_order order, uint64_t seed,
	       size_t nconfigs, const struct plan_spec *spec);
/*
 * Rebuilds a plan from its stored runs (any order, seqs 0..n-1 each once),
 * so that plan_add_round can continue it.  -1 on a gap or duplicate seq.
 */
int plan_restore(struct plan *p, enum run_order order, uint64_t seed,
		 size_t nconfigs, const struct plan_run *runs, size_t n);
/*
 * Appends one round of measured runs: one run of every configuration with
 * active[i] set, shuffled unless the order is sequential.  Returns the
 * number of runs added (0 when none is active), or -1 past CONFIG_MAX_RUNS.
 */
int plan_add_round(struct plan *p, const bool *active);
void plan_release(struct plan *p);

/* The 32-bit mt19937 seed of one shuffle (the formula above). */
uint32_t plan_seed32(uint64_t seed, uint64_t stream);

/*
 * repetitions = auto: the stopping rule (lib/stoprule.h) with a
 * configuration's settings and the experiment's confidence.
 */
enum plan_stop plan_auto_decide(const double *x, size_t n, int planned,
				const struct run_settings *set,
				double confidence, double *rel_hw);

#endif
