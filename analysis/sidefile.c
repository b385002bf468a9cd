/*
 * sidefile.c - the files that are sides of `contend compare`, not
 * databases (compare.h): ministat-compatible number files, and
 * `contend export --format csv` files.  A number file is read whole and
 * parsed line by line from a (pointer, length) slice, so a NUL byte or a
 * missing final newline can never make the parser read past what it was
 * given.  An export file's kept rows, like a number file's values
 * (compare_input_number_side), are written into an in-memory store
 * (db/store.h, "rows"), which store_load then reads as it reads a
 * database side: one reader of sides.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "lib/csv.h"
#include "lib/escape.h"
#include "lib/readfile.h"
#include "lib/util.h"

#define BLANKS " \t\n\v\f\r"   /* isspace() in the C locale */

void numfile_opts_default(struct numfile_opts *o)
{
	o->column = 1;
	o->delims = NUMFILE_DEFAULT_DELIMS;
}

/*
 * Field o->column (1-based) of line, ended in place; NULL when the line
 * is shorter, *nf its fields.  Blank-only delimiter sets split as awk
 * (runs collapse), any other at every delimiter, as cut(1).
 */
static char *find_field(char *line, const struct numfile_opts *o, long *nf)
{
	bool collapse = !o->delims[strspn(o->delims, BLANKS)];
	char *p = line;
	size_t len;

	for (*nf = 0;; p += len + 1) {
		if (collapse)
			p += strspn(p, o->delims);
		if (collapse && !*p)
			return NULL;
		len = strcspn(p, o->delims);
		if (++*nf == o->column) {
			p[len] = '\0';
			return p;
		}
		if (!p[len])
			return NULL;
	}
}

/*
 * Line no, len bytes at s: its comment and the CR of CRLF cut; 1 and *v
 * when it holds a number, 0 when nothing is left, -1 after error_at.
 */
static int parse_line(const char *name, long no, const char *s, size_t len,
		      const struct numfile_opts *o, double *v)
{
	char *line, *f;
	long nf;
	int ret = 1;

	if (memchr(s, '\0', len))
		return error_at(name, no, "NUL byte: not a text file");
	line = xstrndup(s, len);
	line[strcspn(line, "#")] = '\0';
	len = strlen(line);
	if (len && line[len - 1] == '\r')
		line[len - 1] = '\0';
	if (!line[strspn(line, BLANKS)])
		ret = 0;
	else if (!(f = find_field(line, o, &nf)))
		ret = error_at(name, no, "line has %ld field%s, column %ld "
			       "asked (-C)", nf, nf == 1 ? "" : "s",
			       o->column);
	else if (!f[strspn(f, BLANKS)])
		ret = error_at(name, no, "column %ld is empty", o->column);
	else if (parse_double(f, v) < 0)
		ret = error_at(name, no, "not a finite number: '%s'%s",
			       escape_quote(f), o->column > 1
			       ? " (column chosen with -C)" : "");
	free(line);
	return ret;
}

int numfile_parse(const char *name, const char *text, size_t len,
		  const struct numfile_opts *o, double **values, size_t *n)
{
	const char *p = text, *end = text + len;
	long no = 0;
	double v = 0;
	int keep = 0;

	*values = NULL;
	*n = 0;
	while (p < end && keep >= 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		keep = parse_line(name, ++no, p, nl ? (size_t)(nl - p)
						  : (size_t)(end - p), o, &v);
		p = nl ? nl + 1 : end;
		if (keep > 0 && *n == NUMFILE_MAX_VALUES)
			keep = error_at(name, no, "more than %d numbers: the "
					"limit of a side (docs/LIMITS.md)",
					NUMFILE_MAX_VALUES);
		if (keep > 0) {
			*values = xgrow(*values, *n, sizeof(**values));
			(*values)[(*n)++] = v;
		}
	}
	if (keep >= 0 && !*n)
		keep = error_at(name, 0, "no numbers (the file is empty or "
				"holds only comments and blank lines)");
	if (keep < 0) {
		free(*values);
		*values = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

int numfile_slurp(const char *path, char **buf, size_t *len)
{
	int r = readfile_at(AT_FDCWD, path, NUMFILE_MAX_BYTES, buf, len);
	int e = errno;
	bool opened = *buf != NULL;

	if (!r)
		return 0;
	free(*buf);
	*buf = NULL;
	/* An endless input (/dev/zero, a pipe) must not eat the RAM. */
	if (r > 0)
		return error_at(path, 0, "file is larger than %d MiB",
				NUMFILE_MAX_BYTES >> 20);
	if (e == EISDIR)
		return error_at(path, 0, "is a directory, not a file of numbers");
	return error_at(path, 0, "%s: %s", opened ? "read error"
			: "cannot open", strerror(e));
}

/* ---- export files ---- */

enum col {
	C_ID, C_UUID, C_EXPERIMENT, C_LABEL, C_HOSTNAME, C_WORKLOAD,
	C_SECTION, C_PARAMS, C_SEQ, C_WARMUP, C_STATUS, C_METRIC, C_VALUE,
	C_THREAD, NCOLS
};

/* Header names, and which must be present. */
static const struct {
	const char *name;
	bool required;
} cols[NCOLS] = {
	[C_UUID] = { "uuid", true }, [C_WORKLOAD] = { "workload", true },
	[C_SECTION] = { "section", true }, [C_PARAMS] = { "params", true },
	[C_SEQ] = { "seq", true }, [C_WARMUP] = { "warmup", true },
	[C_STATUS] = { "status", true }, [C_METRIC] = { "metric", true },
	[C_VALUE] = { "value", true }, [C_ID] = { "experiment_id", false },
	[C_EXPERIMENT] = { "experiment", false }, [C_LABEL] = { "label", false },
	[C_HOSTNAME] = { "hostname", false }, [C_THREAD] = { "thread", false },
};

/* The row's fields as a row of the store; 0 when skipped or kept, -1
 * on a malformed field or a second value of one run's metric. */
static int row_add(struct store *st, const char *name, const long *col,
		   const struct csv_record *r)
{
	char **f = r->f;
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
	first = store_rows_add(st, &(struct store_row){
		.uuid = f[col[C_UUID]], .experiment_id = (int64_t)id,
		.name = col[C_EXPERIMENT] >= 0 ? f[col[C_EXPERIMENT]] : "",
		.label = col[C_LABEL] >= 0 ? f[col[C_LABEL]] : "",
		.hostname = col[C_HOSTNAME] >= 0 ? f[col[C_HOSTNAME]] : "",
		.workload = f[col[C_WORKLOAD]], .section = f[col[C_SECTION]],
		.params = f[col[C_PARAMS]], .seq = (long)seq,
		.metric = f[col[C_METRIC]], .value = v, .line = (long)r->line,
	});
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
	uint64_t cells;
	int ret;

	if (store_rows_shape(st, id, &runs, &metrics, &values) < 0)
		return -1;
	cells = (uint64_t)runs * metrics;
	if (cells <= EXPORT_CELLS_MIN ||
	    cells <= (uint64_t)EXPORT_CELLS_PER_VALUE * values)
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
			if (strcmp(h->f[i], cols[c].name))
				continue;
			if (col[c] >= 0)
				return error_at(name, 1, "column '%s' is there "
						"twice (fields %ld and %zu): "
						"which one is meant?",
						cols[c].name, col[c] + 1,
						i + 1);
			col[c] = (long)i;
		}
		if (col[c] < 0 && cols[c].required)
			return error_at(name, 1, "not a `contend export "
					"--format csv` file: no column '%s'",
					cols[c].name);
	}
	return 0;
}

bool exportside_is_export(const char *text, size_t len)
{
	const char *nl = memchr(text, '\n', len);
	size_t n = nl ? (size_t)(nl - text) : len;

	return memmem(text, n, "uuid", 4) && memmem(text, n, "metric", 6) &&
	       memmem(text, n, "workload", 8) && memchr(text, ',', n);
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
	for (size_t c = 0; c < NCOLS; c++)
		col[c] = -1;    /* header_map sets each; said for the analyzer */
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
	if (k <= 0) {
		error_at(name, 0, k ? "two experiments with one experiment_id, "
			 "or one seq in two configurations of one: not rows "
			 "`contend export` writes" : "no measured ok run with "
			 "a value");
		goto out;
	}
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
