/*
 * export.h - the long-format writer of `contend export` (export.c): one row
 * per run and metric, as CSV or JSON; analysis/sidefile.c reads the CSV
 * back as compare sides.
 *
 * Call sequence: export_begin (writes the header) -> export_dataset or
 * export_experiment, once per experiment -> export_end (closes the JSON
 * array).  Errors writing to f are the caller's to check (ferror).
 */
#ifndef CONTEND_EXPORT_H
#define CONTEND_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dataset;
struct selector;
struct store;

/* The order of `export --format csv|json`'s words. */
enum export_format { EXPORT_CSV, EXPORT_JSON };

/* The columns, in output order; "thread" only with --threads. */
enum export_column {
	EXPORT_COL_EXPERIMENT_ID, EXPORT_COL_UUID, EXPORT_COL_EXPERIMENT,
	EXPORT_COL_LABEL, EXPORT_COL_HOSTNAME, EXPORT_COL_WORKLOAD,
	EXPORT_COL_SECTION, EXPORT_COL_PARAMS, EXPORT_COL_SEQ,
	EXPORT_COL_REPETITION, EXPORT_COL_WARMUP, EXPORT_COL_STATUS,
	EXPORT_COL_ERROR, EXPORT_COL_METRIC, EXPORT_COL_VALUE,
	EXPORT_COL_THREAD, EXPORT_NCOLUMNS
};

enum export_type { EXPORT_NULL, EXPORT_STR, EXPORT_NUM, EXPORT_BOOL };

struct export_field {
	enum export_type type;
	const char *text; /* EXPORT_STR, EXPORT_NUM; EXPORT_BOOL: "0" or "1" */
};

/* The writer's state: set by export_begin, private to export.c. */
struct exporter {
	FILE *f;
	enum export_format format;
	bool threads;
	size_t rows;
	struct export_field row[EXPORT_NCOLUMNS];
	char num[EXPORT_NCOLUMNS][32]; /* text of row's numeric fields */
};

void export_begin(struct exporter *x, FILE *f, enum export_format format,
		  bool threads);
/* Every run of d, in run (seq) order. */
void export_dataset(struct exporter *x, const struct dataset *d);
/*
 * Experiment id of s, of the configurations sel keeps (select_load; *kept
 * adds what it kept): 0, or -1 after reporting.
 */
int export_experiment(struct exporter *x, struct store *s, int64_t id,
		      const struct selector *sel, size_t *kept);
void export_end(struct exporter *x);

#endif
