/*
 * exportside.c - `contend export --format csv` files as compare sides (see
 * exportside.h).  One pass over RFC 4180 records writes each kept row
 * into an in-memory store (db/store.h, "rows"), which store_load then
 * reads as it reads a database side: one reader of sides.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/exportside.h"
#include "analysis/numfile.h"
#include "lib/csv.h"
#include "lib/util.h"

enum col {
	C_ID, C_UUID, C_EXPERIMENT, C_LABEL, C_HOSTNAME, C_WORKLOAD,
	C_SECTION, C_PARAMS, C_SEQ, C_WARMUP, C_STATUS, C_METRIC, C_VALUE,
	C_THREAD, NCOLS
};

/* Header names; the first NREQUIRED must be present. */
static const char *const col_names[NCOLS] = {
	[C_UUID] = "uuid", [C_WORKLOAD] = "workload", [C_SECTION] = "section",
	[C_PARAMS] = "params", [C_SEQ] = "seq", [C_WARMUP] = "warmup",
	[C_STATUS] = "status", [C_METRIC] = "metric", [C_VALUE] = "value",
	[C_ID] = "experiment_id", [C_EXPERIMENT] = "experiment",
	[C_LABEL] = "label", [C_HOSTNAME] = "hostname", [C_THREAD] = "thread",
};
static const bool col_required[NCOLS] = {
	[C_UUID] = true, [C_WORKLOAD] = true, [C_SECTION] = true,
	[C_PARAMS] = true, [C_SEQ] = true, [C_WARMUP] = true,
	[C_STATUS] = true, [C_METRIC] = true, [C_VALUE] = true,
};

/* The row's fields as a row of the store; 0 when skipped or kept, -1
 * on a malformed field or a second value of one run's metric. */
static int row_add(struct store *st, const char *name, const long *col,
		   const struct csv_record *r)
{
	char **f = r->f;
	struct store_row w;
	long long seq, id = 0;
	long first;
	double v;

	if (strcmp(f[col[C_WARMUP]], "0") || strcmp(f[col[C_STATUS]], "ok") ||
	    !*f[col[C_METRIC]])
		return 0;
	/* --threads rows: one per thread, not a metric of the run */
	if (col[C_THREAD] >= 0 && *f[col[C_THREAD]])
		return 0;
	if (parse_ll(f[col[C_SEQ]], &seq) < 0 || seq < LONG_MIN ||
	    seq > LONG_MAX)
		return error_at(name, r->line, "seq '%s' is not an integer",
				f[col[C_SEQ]]);
	if (parse_double(f[col[C_VALUE]], &v) < 0 || !isfinite(v))
		return error_at(name, r->line, "value '%s' of metric '%s' "
				"is not a finite number", f[col[C_VALUE]],
				f[col[C_METRIC]]);
	if (col[C_ID] >= 0 && parse_ll(f[col[C_ID]], &id) < 0)
		id = 0;
	w = (struct store_row){
		.uuid = f[col[C_UUID]], .experiment_id = (int64_t)id,
		.name = col[C_EXPERIMENT] >= 0 ? f[col[C_EXPERIMENT]] : "",
		.label = col[C_LABEL] >= 0 ? f[col[C_LABEL]] : "",
		.hostname = col[C_HOSTNAME] >= 0 ? f[col[C_HOSTNAME]] : "",
		.workload = f[col[C_WORKLOAD]], .section = f[col[C_SECTION]],
		.params = f[col[C_PARAMS]], .seq = (long)seq,
		.metric = f[col[C_METRIC]], .value = v, .line = (long)r->line,
	};
	first = store_rows_add(st, &w);
	if (first > 0)
		return error_at(name, r->line, "metric '%s' of run seq %lld "
				"(uuid %s, workload %s, params '%s') again: "
				"line %ld has it already; a duplicated row",
				f[col[C_METRIC]], seq, f[col[C_UUID]],
				f[col[C_WORKLOAD]], f[col[C_PARAMS]], first);
	return first < 0 ? -1 : 0;
}

/*
 * The runs x metrics table store_load lays out is refused when it would
 * be far larger than the values given (runs that share no metric: a
 * crafted or mangled file), so memory follows the file's values.
 */
static int check_size(struct store *st, const char *name, int64_t id)
{
	size_t runs, metrics, values;
	struct experiment_row e = { 0 };
	uint64_t cells, room;
	int ret;

	if (store_rows_shape(st, id, &runs, &metrics, &values) < 0)
		return -1;
	cells = (uint64_t)runs * metrics;
	room = (uint64_t)EXPORT_CELLS_PER_VALUE * values;
	if (cells <= EXPORT_CELLS_MIN || cells <= room)
		return 0;
	if (store_experiment_get(st, id, &e) < 0)
		return -1;
	ret = error_at(name, 0, "experiment %s: %zu runs x %zu metrics make "
		       "%" PRIu64 " cells for %zu values, more than %d a "
		       "value: its runs do not share their metrics "
		       "(docs/LIMITS.md)", e.uuid, runs, metrics, cells, values,
		       EXPORT_CELLS_PER_VALUE);
	experiment_row_release(&e);
	return ret;
}

/*
 * Maps header names to field indexes; -1 when a required one is absent
 * or one contend reads is there twice (which of the two is meant?).
 * Columns it does not read may repeat.
 */
static int header_map(const char *name, const struct csv_record *h, long *col)
{
	for (size_t c = 0; c < NCOLS; c++) {
		col[c] = -1;
		for (size_t i = 0; i < h->n; i++) {
			if (strcmp(h->f[i], col_names[c]))
				continue;
			if (col[c] >= 0)
				return error_at(name, 1, "column '%s' is there "
						"twice (fields %ld and %zu): "
						"which one is meant?",
						col_names[c], col[c] + 1,
						i + 1);
			col[c] = (long)i;
		}
		if (col[c] < 0 && col_required[c])
			return error_at(name, 1, "not a `contend export "
					"--format csv` file: no column '%s'",
					col_names[c]);
	}
	return 0;
}

bool exportside_is_export(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	size_t n = nl ? (size_t)(nl - text) : len;
	char *head = xstrndup(text, n);
	bool yes = strstr(head, "uuid") && strstr(head, "metric") &&
		   strstr(head, "workload") && strchr(head, ',');

	free(head);
	return yes;
}

int exportside_parse(const char *name, const char *text, size_t len,
		     struct dataset **sets, size_t *nsets)
{
	const char *p = text, *end = text + len;
	struct csv_record r = { 0 };
	struct store *st = NULL;
	int64_t *ids = NULL;
	long col[NCOLS], line = 1, width;
	int k = 0, ret = -1;

	*sets = NULL;
	*nsets = 0;
	if (memchr(text, '\0', len)) {
		error_at(name, 0, "holds a NUL byte: not a CSV file");
		goto out;
	}
	if (csv_record_read(&r, name, &p, end, &line) < 0 ||
	    header_map(name, &r, col) < 0 || store_rows_open(&st) < 0)
		goto out;
	width = (long)r.n;
	while (p < end) {
		if (csv_record_read(&r, name, &p, end, &line) < 0)
			goto out;
		if (!r.n)
			continue;
		if ((long)r.n != width) {
			error_at(name, r.line, "%zu fields, the header has %ld",
				 r.n, width);
			goto out;
		}
		if (row_add(st, name, col, &r) < 0)
			goto out;
	}
	k = store_rows_finish(st, &ids);
	if (k == 0)
		error_at(name, 0, "no measured ok run with a value");
	if (k <= 0)
		goto out;
	for (int i = 0; i < k; i++)
		if (check_size(st, name, ids[i]) < 0)
			goto out;
	*sets = xcalloc((size_t)k, sizeof(**sets));
	for (; *nsets < (size_t)k; ++*nsets)
		if (store_load(st, ids[*nsets], &(*sets)[*nsets]) < 0)
			goto out;
	ret = 0;
out:
	if (ret && *sets) {
		while (*nsets)
			dataset_release(&(*sets)[--*nsets]);
		free(*sets);
		*sets = NULL;
	}
	free(ids);
	if (st)
		store_close(st);
	csv_record_release(&r);
	return ret;
}
