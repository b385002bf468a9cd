/*
 * observer.h - the observer-effect table of one experiment: for each
 * configuration run under an observer (the `observer` parameter,
 * docs/KLOCK.md "Observers"), its primary metric (throughput) and its
 * hand-offs per second as ratios to the configuration that differs only
 * in observer = none, each with its interval: the ratio of the runs'
 * means on the log scale (stats_ratio_welch, the estimator of the
 * report's pair check; docs/STATISTICS.md "Changes of a rate"), and
 * misleading when the pair check finds throughput up while hand-offs
 * fell (analysis_handoff_check, the misleading-throughput rule).
 */
#ifndef CONTEND_OBSERVER_TABLE_H
#define CONTEND_OBSERVER_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"

/* The parameter and its baseline value (runner/observer.h's). */
#define OBSERVER_KEY "observer"
#define OBSERVER_NONE "none"

struct observer_row {
	size_t base, config;    /* the none configuration and the observed */
	const char *observer;   /* its value; borrows from the dataset */
	const char *metric;     /* the primary metric's name */
	size_t nbase, nobs;     /* measured runs with the metric */
	struct ratio tput;      /* observed / none of the primary metric */
	struct ratio handoffs;  /* of hand-offs per second; NAN without */
	bool misleading;        /* throughput up, hand-offs down (the rule) */
};

struct observer_table {
	size_t n;
	struct observer_row *rows; /* in configuration order */
};

/* Every observed configuration with a none to compare with; n 0 when the
 * experiment has none.  Release with observer_table_release. */
void observer_table_build(const struct analysis *a, struct observer_table *t);
void observer_table_release(struct observer_table *t);

#endif
