/*
 * series.h - the one model of runs: which runs count and how they group,
 * for every reader of more than one run (compare, levels, calibrate; the
 * report and the flags read one configuration through values.c).
 *
 * A run counts when it is measured: not a warm-up, status ok, not
 * excluded (analysis_measured, analysis/values.c).  A series is one
 * configuration - a workload type and its canonical parameters - over a
 * list of experiments.  Each experiment that holds it is one invocation
 * (a boot of one kernel, one `contend run`), never a section: sections
 * of one experiment with the same workload type and parameters are
 * members of one series and of one invocation, their runs pooled
 * (docs/STATISTICS.md, "One model of runs").
 *
 * Call sequence: series_build(sets, nsets, &l) -> series_find or a walk
 * of l.s -> series_sample (a metric's values, or an extractor's, grouped
 * by invocation) -> series_sample_release -> series_release(&l).  The
 * list borrows its strings from the sets, which must outlive it.
 */
#ifndef CONTEND_SERIES_H
#define CONTEND_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "db/store.h"

/* One configuration of one experiment: sets[set].configs[config]. */
struct series_member {
	size_t set, config;
};

struct series {
	const char *workload, *canon, *section; /* the first member's */
	size_t first;           /* the first member's place among every
				 * set's configurations, in set order */
	size_t n;               /* members, by experiment, then place */
	struct series_member *member;
	size_t ninv;            /* the experiments among them: invocations */
};

struct series_key;              /* private: the sorted index */

struct series_list {
	size_t n;
	struct series *s;       /* in order of first appearance */
	struct series_key *index;
};

/* Groups every configuration of sets[0..nsets) into series (n log n). */
void series_build(const struct dataset *sets, size_t nsets,
		  struct series_list *l);
/* The index in l->s of the series of (workload, canon), or -1. */
long series_find(const struct series_list *l, const char *workload,
		 const char *canon);
void series_release(struct series_list *l);

/*
 * The values of one configuration of one dataset, one per run that
 * counts (series_metric_values for a stored metric; compare's
 * extractors for derived ones): returns their number, *out malloc'd.
 */
typedef size_t (*series_extract)(const struct dataset *d, size_t c,
				 const char *arg, double **out);

/* A series' values grouped by invocation (experiment). */
struct series_sample {
	double *x;              /* n values, invocation by invocation */
	size_t n;
	size_t k;               /* invocations with at least one value */
	size_t *sizes;          /* k: values of each */
	size_t *set;            /* k: the experiment (index into sets) */
	double wall;            /* the counted runs' known wall times: sum */
	size_t nwall;           /* and count (series_sample_metric only) */
};

/*
 * fn's values of every member, the members of one experiment forming one
 * invocation; an experiment without a value forms none.
 */
void series_sample(const struct dataset *sets, const struct series *s,
		   series_extract fn, const char *arg,
		   struct series_sample *out);
/* The same for a stored metric, with the counted runs' wall times. */
void series_sample_metric(const struct dataset *sets, const struct series *s,
			  const char *metric, struct series_sample *out);
void series_sample_release(struct series_sample *v);

/* The values of stored metric arg of configuration c's counted runs. */
size_t series_metric_values(const struct dataset *d, size_t c,
			      const char *metric, double **out);

#endif
