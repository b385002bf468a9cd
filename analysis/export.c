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

#include "analysis/analysis.h"
#include "db/contract.h"
#include "lib/csv.h"
#include "lib/json.h"
#include "db/select.h"
#include "lib/util.h"

/* The columns, in output order; "thread" only with --threads. */
static const char *const column_names[] = {
	"experiment_id", "uuid", "experiment", "label", "hostname", "workload",
	"section", "params", "seq", "repetition", "warmup", "status", "error",
	"metric", "value", "thread",
};

/* ---- one field of a row, in column order ---- */

/*
 * text as a string (str) or as a number or literal; NULL and not str: an
 * empty CSV field, JSON null.
 */
static void field(struct exporter *x, const char *text, bool str)
{
	if (str && !text)
		text = "";
	if (x->format == EXPORT_CSV) {
		if (x->col)
			fputc(',', x->f);
		if (text)
			csv_write_field(x->f, text);
	} else {
		fprintf(x->f, "%s\"%s\":", x->col ? "," : x->rows ? ",\n{" : "\n{",
			column_names[x->col]);
		if (!text)
			fputs("null", x->f);
		else if (str)
			json_string(x->f, text);
		else
			fputs(text, x->f);
	}
	x->col++;
}

/*
 * The shortest decimal that reads back as v (an integer below 10^15 as
 * printf's %lld would); JSON has no inf: null.
 */
static void field_double(struct exporter *x, double v)
{
	char num[32];

	if (!isfinite(v) && x->format == EXPORT_JSON) {
		field(x, NULL, false);
		return;
	}
	snprintf(num, sizeof(num), "%.15g", v);
	if (!stats_same(strtod(num, NULL), v))
		snprintf(num, sizeof(num), "%.17g", v);
	field(x, num, false);
}

/* The row's fields not written are empty (CSV) or null (JSON). */
static void row_end(struct exporter *x)
{
	while (x->col < ARRAY_SIZE(column_names) - !x->threads)
		field(x, NULL, false);
	fputc(x->format == EXPORT_CSV ? '\n' : '}', x->f);
	x->rows++;
	x->col = 0;
}

/* ---- rows ---- */

/* The columns every row of run r starts with. */
static void run_fields(struct exporter *x, const struct dataset *d,
		       const struct ds_run *r)
{
	const struct ds_config *c = &d->configs[r->config];
	bool json = x->format == EXPORT_JSON, err = r->error && *r->error;

	field_double(x, (double)d->exp.id);
	field(x, d->exp.uuid, true);
	field(x, d->exp.name, true);
	field(x, d->exp.label, true);
	field(x, experiment_meta(&d->exp, MK_HOSTNAME), true);
	field(x, c->workload, true);
	field(x, c->section, true);
	field(x, c->canon, true);
	field_double(x, (double)r->seq);
	field_double(x, (double)r->repetition);
	field(x, r->warmup ? (json ? "true" : "1") : (json ? "false" : "0"),
	      false);
	field(x, run_status_names[r->status], true);
	/* Why a run failed, as stored (runs.error); empty for an ok run. */
	field(x, err ? r->error : NULL, err);
}

static void run_write(struct exporter *x, const struct dataset *d, size_t ri)
{
	const struct ds_run *r = &d->runs[ri];
	char num[32];
	size_t m, t, n = 0;

	for (m = 0; m < d->nmetrics; m++) {
		double v = dataset_value(d, ri, (int)m);

		if (isnan(v))
			continue;
		run_fields(x, d, r);
		field(x, d->metrics[m], true);
		field_double(x, v);
		row_end(x);
		n++;
	}
	for (t = 0; x->threads && t < r->nthreads; t++, n++) {
		run_fields(x, d, r);
		field(x, "thread_ops", true);
		snprintf(num, sizeof(num), "%" PRIu64, d->thread_ops[r->thread0 + t]);
		field(x, num, false);
		field_double(x, (double)t);
		row_end(x);
	}
	if (!n) {
		run_fields(x, d, r);
		row_end(x);
	}
}

/* ---- the calls ---- */

void export_begin(struct exporter *x, FILE *f, enum export_format format,
		  bool threads)
{
	size_t i;

	*x = (struct exporter){ .f = f, .format = format, .threads = threads };
	if (format == EXPORT_JSON) {
		fputs("[", f);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(column_names) - !threads; i++)
		fprintf(f, "%s%s", i ? "," : "", column_names[i]);
	fputc('\n', f);
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
	if (x->format == EXPORT_JSON)
		fputs(x->rows ? "\n]\n" : "]\n", x->f);
}

