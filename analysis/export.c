/*
 * export.c - `contend export`'s writer: every run of a dataset in long
 * ("tidy") format, one row per run x metric, as CSV (RFC 4180 quoting) or
 * JSON (an array of objects), for pandas, R or a spreadsheet.  A run
 * without samples (planned, failed) still gets one row, with metric and
 * value empty, so every run is accounted for.  With threads, one row per
 * thread of each run: metric "thread_ops", the thread in "thread".
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/contract.h"
#include "analysis/export.h"
#include "lib/csv.h"
#include "lib/json.h"
#include "db/select.h"
#include "db/store.h"
#include "lib/util.h"

static const char *const column_names[EXPORT_NCOLUMNS] = {
	"experiment_id", "uuid", "experiment", "label", "hostname", "workload",
	"section", "params", "seq", "repetition", "warmup", "status", "error",
	"metric", "value", "thread",
};

/* ---- CSV and JSON writers of one field ---- */

static void csv_field(FILE *f, const struct export_field *v)
{
	if (v->type != EXPORT_NULL)
		csv_write_field(f, v->text);
}

static void json_field(FILE *f, const struct export_field *v)
{
	switch (v->type) {
	case EXPORT_NULL:
		fputs("null", f);
		break;
	case EXPORT_STR:
		json_string(f, v->text);
		break;
	case EXPORT_NUM:
		fputs(v->text, f);
		break;
	case EXPORT_BOOL:
		fputs(v->text[0] == '1' ? "true" : "false", f);
		break;
	}
}

static size_t ncolumns(const struct exporter *x)
{
	return x->threads ? EXPORT_NCOLUMNS : EXPORT_COL_THREAD;
}

static void header_write(struct exporter *x)
{
	size_t i;

	if (x->format == EXPORT_JSON) {
		fputs("[", x->f);
		return;
	}
	for (i = 0; i < ncolumns(x); i++)
		fprintf(x->f, "%s%s", i ? "," : "", column_names[i]);
	fputc('\n', x->f);
}

static void footer_write(struct exporter *x)
{
	if (x->format == EXPORT_JSON)
		fputs(x->rows ? "\n]\n" : "]\n", x->f);
}

static void row_write(struct exporter *x)
{
	size_t i;

	if (x->format == EXPORT_CSV) {
		for (i = 0; i < ncolumns(x); i++) {
			if (i)
				fputc(',', x->f);
			csv_field(x->f, &x->row[i]);
		}
		fputc('\n', x->f);
	} else {
		fputs(x->rows ? ",\n{\"" : "\n{\"", x->f);
		for (i = 0; i < ncolumns(x); i++) {
			if (i)
				fputs(",\"", x->f);
			fputs(column_names[i], x->f);
			fputs("\":", x->f);
			json_field(x->f, &x->row[i]);
		}
		fputc('}', x->f);
	}
	x->rows++;
}

/* ---- rows ---- */

static void set_str(struct exporter *x, enum export_column c, const char *s)
{
	x->row[c].type = EXPORT_STR;
	x->row[c].text = s;
}

static void set_int(struct exporter *x, enum export_column c, long long v)
{
	snprintf(x->num[c], sizeof(x->num[c]), "%lld", v);
	x->row[c].type = EXPORT_NUM;
	x->row[c].text = x->num[c];
}

/* a == b without -Wfloat-equal's complaint: here exactness is the point. */
static bool same_value(double a, double b)
{
	return !(a < b) && !(a > b);
}

/* The shortest decimal that reads back as v; JSON has no inf: null. */
static void set_double(struct exporter *x, enum export_column c, double v)
{
	char *end;

	if (!isfinite(v) && x->format == EXPORT_JSON) {
		x->row[c].type = EXPORT_NULL;
		return;
	}
	snprintf(x->num[c], sizeof(x->num[c]), "%.15g", v);
	if (!same_value(strtod(x->num[c], &end), v))
		snprintf(x->num[c], sizeof(x->num[c]), "%.17g", v);
	x->row[c].type = EXPORT_NUM;
	x->row[c].text = x->num[c];
}

static void set_null(struct exporter *x, enum export_column c)
{
	x->row[c].type = EXPORT_NULL;
}

/* The columns every row of run r shares. */
static void run_fields(struct exporter *x, const struct dataset *d,
		       const struct ds_run *r)
{
	const struct ds_config *c = &d->configs[r->config];
	const char *host = experiment_meta(&d->exp, MK_HOSTNAME);

	set_int(x, EXPORT_COL_EXPERIMENT_ID, d->exp.id);
	set_str(x, EXPORT_COL_UUID, d->exp.uuid);
	set_str(x, EXPORT_COL_EXPERIMENT, d->exp.name);
	set_str(x, EXPORT_COL_LABEL, d->exp.label);
	set_str(x, EXPORT_COL_HOSTNAME, host ? host : "");
	set_str(x, EXPORT_COL_WORKLOAD, c->workload);
	set_str(x, EXPORT_COL_SECTION, c->section);
	set_str(x, EXPORT_COL_PARAMS, c->canon);
	set_int(x, EXPORT_COL_SEQ, r->seq);
	set_int(x, EXPORT_COL_REPETITION, r->repetition);
	x->row[EXPORT_COL_WARMUP].type = EXPORT_BOOL;
	x->row[EXPORT_COL_WARMUP].text = r->warmup ? "1" : "0";
	set_str(x, EXPORT_COL_STATUS, run_status_names[r->status]);
	/* Why a run failed, as stored (runs.error); empty for an ok run. */
	if (r->error && *r->error)
		set_str(x, EXPORT_COL_ERROR, r->error);
	else
		set_null(x, EXPORT_COL_ERROR);
	set_null(x, EXPORT_COL_THREAD);
}

static void run_write(struct exporter *x, const struct dataset *d, size_t ri)
{
	const struct ds_run *r = &d->runs[ri];
	size_t m, n = 0;

	run_fields(x, d, r);
	for (m = 0; m < d->nmetrics; m++) {
		double v = dataset_value(d, ri, (int)m);

		if (isnan(v))
			continue;
		set_str(x, EXPORT_COL_METRIC, d->metrics[m]);
		set_double(x, EXPORT_COL_VALUE, v);
		row_write(x);
		n++;
	}
	if (x->threads) {
		for (size_t t = 0; t < r->nthreads; t++) {
			set_str(x, EXPORT_COL_METRIC, "thread_ops");
			snprintf(x->num[EXPORT_COL_VALUE], sizeof(x->num[EXPORT_COL_VALUE]),
				 "%" PRIu64, d->thread_ops[r->thread0 + t]);
			x->row[EXPORT_COL_VALUE].type = EXPORT_NUM;
			x->row[EXPORT_COL_VALUE].text = x->num[EXPORT_COL_VALUE];
			set_int(x, EXPORT_COL_THREAD, (long long)t);
			row_write(x);
			n++;
		}
		set_null(x, EXPORT_COL_THREAD);
	}
	if (!n) {
		set_null(x, EXPORT_COL_METRIC);
		set_null(x, EXPORT_COL_VALUE);
		row_write(x);
	}
}

/* ---- the calls ---- */

void export_begin(struct exporter *x, FILE *f, enum export_format format,
		  bool threads)
{
	memset(x, 0, sizeof(*x));
	x->f = f;
	x->format = format;
	x->threads = threads;
	header_write(x);
}

void export_dataset(struct exporter *x, const struct dataset *d)
{
	size_t *order = dataset_seq_order(d), i;

	for (i = 0; i < d->nruns; i++)
		run_write(x, d, order[i]);
	free(order);
}

int export_experiment(struct exporter *x, struct store *s, int64_t id,
		      const struct selector *sel, size_t *kept)
{
	struct dataset d;

	if (select_load(sel, s, id, &d, kept))
		return -1;
	export_dataset(x, &d);
	dataset_release(&d);
	return 0;
}

void export_end(struct exporter *x)
{
	footer_write(x);
}

