/*
 * exportside.h - a file written by `contend export --format csv` read back
 * as one side of `contend compare`: each distinct uuid one invocation (an
 * experiment), configurations keyed by workload, section and params, runs
 * by seq.  Columns are found by their header name, so extra columns
 * (an `error` column) are ignored, one it reads twice is an error; warm-up
 * and non-ok rows, rows without a metric and the per-thread rows of
 * --threads (a `thread` given) are skipped; a second value of one run's
 * metric (a duplicated row) is an error.  Time is linear in the rows
 * (hash tables), but for sorting the runs.
 */
#ifndef CONTEND_EXPORTSIDE_H
#define CONTEND_EXPORTSIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "db/store.h"

/*
 * A file's invocation is laid out as runs x metrics (store_load's table);
 * more cells than EXPORT_CELLS_PER_VALUE a value read (and more than
 * EXPORT_CELLS_MIN) is refused, so memory follows the values, however the
 * rows spread them over runs and metric names (docs/LIMITS.md).
 */
#define EXPORT_CELLS_PER_VALUE 8
#define EXPORT_CELLS_MIN 65536

/* True when the first line of text is a header naming uuid and metric. */
bool exportside_is_export(const char *text, size_t len);
/*
 * Parses the whole file: *sets is a malloc'd array of *nsets datasets
 * (release each with dataset_release, then free the array), oldest
 * experiment_id first.  -1 after "contend: NAME:LINE: ..." on a missing
 * column, a malformed field or no usable row.
 */
int exportside_parse(const char *name, const char *text, size_t len,
		     struct dataset **sets, size_t *nsets);

#endif
