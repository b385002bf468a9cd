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

/* The writer's state: set by export_begin, private to export.c. */
struct exporter {
	FILE *f;
	enum export_format format;
	bool threads;
	size_t rows;
	size_t col;             /* the next field's column in the row */
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
