/*
 * analysis.h - from a loaded dataset to what a reviewer needs: per
 * configuration and metric summaries over measured ok runs, fairness,
 * correlations per workload section, and the flags (each with the numbers
 * that raised it).  Knows nothing of processes; report.c formats it.
 */
#ifndef CONTEND_ANALYSIS_H
#define CONTEND_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/stats.h"
#include "db/store.h"

/* Metric vocabulary (metrics.c): direction and unit, declared once. */
enum direction { DIR_UNKNOWN = 0, DIR_HIGHER = 1, DIR_LOWER = -1 };
enum direction metric_direction(const char *name);
const char *metric_unit(const char *name);   /* "ops/s", "s", "" ... */

struct analysis_opts {
	double confidence;      /* 0 = the experiment's */
	double resolve_pct;     /* --resolve: difference to resolve, % (5) */
	double handoff_drop;    /* --handoff-drop: fraction (0.25) */
	double jain_min;        /* unfair below this mean Jain index (0.8) */
	double max_share;       /* unfair above this share at >= 4 thr (0.5) */
	double alpha;           /* significance for flags (0.05) */
};
void analysis_opts_default(struct analysis_opts *o);

struct flag {
	char name[32];          /* "noisy", "misleading-throughput", ... */
	char *message;          /* the numbers that raised it, what to do */
	int metric;             /* dataset metric index, or -1 */
	long other_config;      /* the other configuration of a pair, or -1 */
};

struct metric_summary {
	int metric;             /* index into dataset.metrics */
	struct summary s;       /* measured ok runs with the metric present */
	bool harmonic;          /* mean is total work / total time (jobs) */
	size_t *outliers;       /* run indices (dataset.runs) of outliers */
};

struct config_analysis {
	size_t config;          /* index into dataset.configs */
	size_t measured, warmup, failed, pending; /* run counts */
	size_t nmetrics;
	struct metric_summary *metrics; /* one per dataset metric */
	double mean_jain, max_share;    /* NAN without thread counts */
	size_t nflags;
	struct flag *flags;
};

struct corr_row {
	const char *section;    /* workload section, or a config's canon */
	long config;            /* -1: across the whole section */
	const char *x, *y;      /* metric names */
	struct correlation pearson, spearman;
};

struct analysis {
	const struct dataset *d;
	struct analysis_opts opts;
	size_t nconfigs;
	struct config_analysis *configs; /* parallel to dataset.configs */
	size_t ncorr;
	struct corr_row *corr;
};

int analysis_run(const struct dataset *d, const struct analysis_opts *o,
		 struct analysis *a);
void analysis_release(struct analysis *a);
/* The summary of a metric by name for configuration c, or NULL. */
const struct metric_summary *analysis_metric(const struct analysis *a,
					     size_t c, const char *name);
/*
 * The measured ok values of metric m for configuration c, in seq order,
 * into a malloc'd array; returns the count.
 */
size_t analysis_values(const struct dataset *d, size_t c, int m,
		       double **out);

#endif
