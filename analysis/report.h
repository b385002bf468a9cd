/*
 * report.h - struct analysis as text (ministat-like blocks, correlation
 * table, flag summary), json (docs/report-json.md) or csv (one row per
 * configuration x metric).  Output depends only on the analysis, never on
 * the clock or the locale, so it can be checked against golden files.
 */
#ifndef CONTEND_REPORT_H
#define CONTEND_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "lib/numfmt.h"

enum report_format {
	REPORT_TEXT, REPORT_JSON, REPORT_CSV, REPORT_MAIL, REPORT_NFORMATS
};

/* "text", "json", "csv", "mail" -> the enum; -1 when unknown. */
int report_format_parse(const char *name);

/* Writes the report; 0, or -1 when writing fails. */
int report_write(FILE *f, const struct analysis *a, enum report_format fmt);
/*
 * The text report: the experiment line, one summary row per
 * configuration, the flag messages, the failed runs, then (view->verbose,
 * or view->metrics set) a block per configuration with its per-metric
 * table (only the metrics named in view->metrics, "a,b") and the
 * correlations and the methods; the host summary (db/facts.c; all of its
 * facts, one a line, and nothing else with view->host).  report_text is
 * the default view.
 */
struct report_view {
	bool verbose;
	bool host;              /* --host: every host fact, one a line */
	const char *metrics;    /* NULL: every metric */
	/* For the hints (`contend run --resume ID --db PATH`): the database
	 * the report was read from, NULL for none; the selector naming the
	 * experiment and its filters, NULL for its id. */
	const char *db, *what;
};
int report_text_view(FILE *f, const struct analysis *a,
		     const struct report_view *view);
/*
 * The lines the text report opens with (the experiment, its host and
 * kernel, the kernel instruments and tracing when any, the runs, and
 * what is missing), unwrapped, each malloc'd, into *lines (malloc'd);
 * the HTML report carries the same.  Returns their number.
 */
size_t report_header_lines(const struct analysis *a,
			   const struct report_view *view, char ***lines);
int report_text(FILE *f, const struct analysis *a);
/* One experiment in 72 columns, for a mailing list (mail.c). */
int report_mail(FILE *f, const struct analysis *a);

/* ---- report_rows.c: the summary every face of the report shows ---- */

/* One configuration's row of the summary table. */
struct report_row {
	size_t config;
	char *varies;            /* the parameters that vary in its section */
	char *brief;             /* the same, keys shortened (report_key_short) */
	const struct metric_summary *primary; /* NULL: no measured value */
	const char *metric;      /* the primary metric's name, or NULL */
	char value[NUMFMT_CI_LEN]; /* "13.7M [13.6M, 13.8M]", or "" */
	char mark;               /* ' ' mean, 'h' harmonic, 'm' median */
	char cv[NUMFMT_LEN];     /* "4.0%", "" when not known */
	char contended[NUMFMT_LEN]; /* mean contention rate "47.1%", or "" */
	char handoffs[NUMFMT_LEN];  /* mean hand-offs/s, or "" */
	char klock[NUMFMT_LEN];     /* mean kernel lock contentions per op
				     * (klock_contended_per_op), or "" */
	char kwait[NUMFMT_LEN];     /* mean kernel wait share, "12%"
				     * (analysis_kwait_share), or "" */
	char *flags;             /* "noisy,few-runs", or "" */
	size_t runs, failed;
	char *first_error;       /* the first failed run's reason, or NULL */
};
/* Every configuration's row into *rows (release with report_rows_free). */
size_t report_rows(const struct analysis *a, struct report_row **rows);
void report_rows_free(struct report_row *rows, size_t n);
/* The parameters of configuration c that vary in its section: "k=v k=v";
 * brief: each key by its short name, "delay=10000"; keys: "threads, delay";
 * values: "2 10000" escaped, NULL when a value holds a blank (malloc'd). */
enum report_vary { VARY_FULL, VARY_BRIEF, VARY_KEYS, VARY_VALUES };
char *report_varying(const struct dataset *d, size_t c, enum report_vary mode);
/* Is parameter key in c's varies: it takes another value in c's section
 * (argv, env and hooks are left out when a param.NAME varies)? */
bool report_param_shown(const struct dataset *d, size_t c, const char *key);
/* A parameter's short name for the text table: its last word before a
 * unit suffix ("contended_delay_ns": "delay"), the key itself (without
 * "param.") when another varying key would get the same one (malloc'd). */
char *report_key_short(const struct dataset *d, const char *key);
/* The median is the value to quote: D'Agostino rejected normality. */
bool report_non_normal(const struct analysis *a,
		       const struct metric_summary *ms);

#define REPORT_FAILURE_SEQS 8
/* The failed runs of a configuration with one reason. */
struct report_failure {
	char *reason;
	size_t count;
	long seq[REPORT_FAILURE_SEQS]; /* the first of them */
};
/* The distinct reasons configuration c's runs failed for, first first. */
size_t report_failures(const struct dataset *d, size_t c,
		       struct report_failure **out);
void report_failures_free(struct report_failure *f, size_t n);
/* Whether the host section shows meta key (loadavg only without
 * load_start; never the primary./direction. keys). */
bool report_host_key(const struct experiment_row *e, const char *key);
/* How many host facts e holds (report_host_key's; report_rows.c). */
size_t report_host_count(const struct experiment_row *e);

/*
 * ---- report_rows.c: the observer-effect table ----
 * For each configuration run under an observer (the `observer` parameter,
 * docs/KLOCK.md "Observers"), its primary metric and its hand-offs per
 * second as ratios to the configuration that differs only in observer =
 * none, each with its interval: stats_ratio_welch, the estimator of the
 * report's pair check (docs/STATISTICS.md "Changes of a rate"); misleading
 * when the pair check finds throughput up while hand-offs fell
 * (analysis_handoff_check, the misleading-throughput rule).
 */
#define OBSERVER_KEY "observer"   /* runner/observer.h's */
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

/* Every observed configuration with a none to compare with, in
 * configuration order, into *rows (free it); 0 when the experiment has
 * none. */
size_t observer_rows(const struct analysis *a, struct observer_row **rows);

/* JSON_SCHEMA_VERSION of report_json's output (docs/report-json.md). */
#define REPORT_JSON_VERSION 1

#endif
