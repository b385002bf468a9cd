/*
 * vocab.h - the data dictionary: what the names stored with an experiment
 * mean, declared once for the runner that writes them and the analysis
 * that reads them.  A metric's direction and unit; which parameters count
 * workers and which set independent load, per workload; which workloads do
 * fixed work.  Names only: nothing here knows the workload registry, and
 * tests/test_vocab.c checks these tables against it.  The keys the runner
 * stores with an experiment for analysis (primary.SECTION, ...) are
 * declared in db/contract.h.
 */
#ifndef CONTEND_VOCAB_H
#define CONTEND_VOCAB_H

#include <stdbool.h>

/*
 * Metrics: the direction (which way is better) and the unit of a metric
 * by name.  A name not in the table gets the conventions for metrics a
 * command workload names itself: "..._s", "...latency...", "..._ns" and
 * "..._us" are lower-is-better; its unit is "".
 */
enum direction { DIR_UNKNOWN = 0, DIR_HIGHER = 1, DIR_LOWER = -1 };
enum direction metric_direction(const char *name);
const char *metric_unit(const char *name);   /* "ops/s", "s", "" ... */
/* Whether name is in the table (not only judged by its form). */

/*
 * Parameters: what a swept parameter changes, which decides whether a
 * pair of configurations that differ in it is judged by the
 * misleading-throughput check (analysis/flags.c says why):
 *
 *   PR_WORKERS  how many workers run (threads, processes, users, rooms);
 *   PR_LOAD     the independent work or parallelism: more independent
 *               locks, more work outside the lock (locks, worklen,
 *               think_ns of the lock workloads);
 *
 * any other parameter is judged (NULL from vocab_param_rule).
 */
enum param_role { PR_WORKERS, PR_LOAD };

struct param_rule {
	const char *param;
	enum param_role role;
	const char *const *workloads;   /* NULL-terminated; NULL: any */
	const char *why;                /* PR_LOAD: completes "PARAM ..." */
};

/* The declaration of param in workload, or NULL: judged as any other. */
const struct param_rule *vocab_param_rule(const char *workload,
					  const char *param);

/*
 * Workloads: what one runs is fixed work by its own parameters (chat's
 * messages), summarised as jobs = N is (the harmonic mean of the rates).
 * A configuration with jobs = N is fixed work whatever its workload.
 */
bool vocab_fixed_work(const char *workload);

/*
 * Parameters added to workloads after experiments were stored without
 * them: the value those experiments ran with ("0": the instrument was not
 * there), else NULL.  A configuration that lacks the key is the same
 * configuration as one with key = that value, so compare matches an
 * experiment stored before the parameter existed with one stored after.
 */
const char *vocab_added_param(const char *param);

#endif
