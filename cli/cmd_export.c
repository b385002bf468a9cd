/*
 * cmd_export.c - `contend export`: every run of one or all experiments in
 * long ("tidy") format, one row per run x metric, as CSV (RFC 4180
 * quoting) or JSON (an array of objects), for pandas, R or a spreadsheet.
 * A run without samples (planned, failed) still gets one row, with metric
 * and value empty, so every run is accounted for.  --threads adds one row
 * per thread of each run: metric "thread_ops", the thread in "thread".
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/json.h"
#include "db/select.h"
#include "db/store.h"
#include "cli/commands.h"
#include "db/contract.h"
#include "lib/util.h"

enum format { FMT_CSV, FMT_JSON };

/* The columns, in output order; "thread" only with --threads. */
enum column {
	COL_EXPERIMENT_ID, COL_UUID, COL_EXPERIMENT, COL_LABEL, COL_HOSTNAME,
	COL_WORKLOAD, COL_SECTION, COL_PARAMS, COL_SEQ, COL_REPETITION,
	COL_WARMUP, COL_STATUS, COL_ERROR, COL_METRIC, COL_VALUE, COL_THREAD,
	NCOLUMNS
};

static const char *const column_names[NCOLUMNS] = {
	"experiment_id", "uuid", "experiment", "label", "hostname", "workload",
	"section", "params", "seq", "repetition", "warmup", "status", "error",
	"metric", "value", "thread",
};

enum field_type { F_NULL, F_STR, F_NUM, F_BOOL };

struct field {
	enum field_type type;
	const char *text;        /* F_STR, F_NUM; F_BOOL: "0" or "1" */
};

struct exporter {
	FILE *f;
	enum format format;
	bool threads;
	size_t rows;
	struct field row[NCOLUMNS];
	char num[NCOLUMNS][32];  /* text of the numeric fields of row */
};

/* ---- CSV and JSON writers of one field ---- */

static void csv_field(FILE *f, const struct field *v)
{
	const char *p;

	if (v->type == F_NULL)
		return;
	if (!strpbrk(v->text, ",\"\r\n")) {
		fputs(v->text, f);
		return;
	}
	fputc('"', f);
	for (p = v->text; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void json_field(FILE *f, const struct field *v)
{
	switch (v->type) {
	case F_NULL:
		fputs("null", f);
		break;
	case F_STR:
		json_string(f, v->text);
		break;
	case F_NUM:
		fputs(v->text, f);
		break;
	case F_BOOL:
		fputs(v->text[0] == '1' ? "true" : "false", f);
		break;
	}
}

static size_t ncolumns(const struct exporter *x)
{
	return x->threads ? NCOLUMNS : COL_THREAD;
}

static void header_write(struct exporter *x)
{
	size_t i;

	if (x->format == FMT_JSON) {
		fputs("[", x->f);
		return;
	}
	for (i = 0; i < ncolumns(x); i++)
		fprintf(x->f, "%s%s", i ? "," : "", column_names[i]);
	fputc('\n', x->f);
}

static void footer_write(struct exporter *x)
{
	if (x->format == FMT_JSON)
		fputs(x->rows ? "\n]\n" : "]\n", x->f);
}

static void row_write(struct exporter *x)
{
	size_t i;

	if (x->format == FMT_CSV) {
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

static void set_str(struct exporter *x, enum column c, const char *s)
{
	x->row[c].type = F_STR;
	x->row[c].text = s;
}

static void set_int(struct exporter *x, enum column c, long long v)
{
	snprintf(x->num[c], sizeof(x->num[c]), "%lld", v);
	x->row[c].type = F_NUM;
	x->row[c].text = x->num[c];
}

/* a == b without -Wfloat-equal's complaint: here exactness is the point. */
static bool same_value(double a, double b)
{
	return !(a < b) && !(a > b);
}

/* The shortest decimal that reads back as v; JSON has no inf: null. */
static void set_double(struct exporter *x, enum column c, double v)
{
	char *end;

	if (!isfinite(v) && x->format == FMT_JSON) {
		x->row[c].type = F_NULL;
		return;
	}
	snprintf(x->num[c], sizeof(x->num[c]), "%.15g", v);
	if (!same_value(strtod(x->num[c], &end), v))
		snprintf(x->num[c], sizeof(x->num[c]), "%.17g", v);
	x->row[c].type = F_NUM;
	x->row[c].text = x->num[c];
}

static void set_null(struct exporter *x, enum column c)
{
	x->row[c].type = F_NULL;
}

/* The columns every row of run r shares. */
static void run_fields(struct exporter *x, const struct dataset *d,
		       const struct ds_run *r)
{
	const struct ds_config *c = &d->configs[r->config];
	const char *host = experiment_meta(&d->exp, MK_HOSTNAME);

	set_int(x, COL_EXPERIMENT_ID, d->exp.id);
	set_str(x, COL_UUID, d->exp.uuid);
	set_str(x, COL_EXPERIMENT, d->exp.name);
	set_str(x, COL_LABEL, d->exp.label);
	set_str(x, COL_HOSTNAME, host ? host : "");
	set_str(x, COL_WORKLOAD, c->workload);
	set_str(x, COL_SECTION, c->section);
	set_str(x, COL_PARAMS, c->canon);
	set_int(x, COL_SEQ, r->seq);
	set_int(x, COL_REPETITION, r->repetition);
	x->row[COL_WARMUP].type = F_BOOL;
	x->row[COL_WARMUP].text = r->warmup ? "1" : "0";
	set_str(x, COL_STATUS, run_status_names[r->status]);
	/* Why a run failed, as stored (runs.error); empty for an ok run. */
	if (r->error && *r->error)
		set_str(x, COL_ERROR, r->error);
	else
		set_null(x, COL_ERROR);
	set_null(x, COL_THREAD);
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
		set_str(x, COL_METRIC, d->metrics[m]);
		set_double(x, COL_VALUE, v);
		row_write(x);
		n++;
	}
	if (x->threads) {
		for (size_t t = 0; t < r->nthreads; t++) {
			set_str(x, COL_METRIC, "thread_ops");
			snprintf(x->num[COL_VALUE], sizeof(x->num[COL_VALUE]),
				 "%" PRIu64, d->thread_ops[r->thread0 + t]);
			x->row[COL_VALUE].type = F_NUM;
			x->row[COL_VALUE].text = x->num[COL_VALUE];
			set_int(x, COL_THREAD, (long long)t);
			row_write(x);
			n++;
		}
		set_null(x, COL_THREAD);
	}
	if (!n) {
		set_null(x, COL_METRIC);
		set_null(x, COL_VALUE);
		row_write(x);
	}
}

/* Every run of experiment id, in run (seq) order. */
/* One experiment's runs, of the configurations sel keeps; *kept counts. */
static int experiment_write(struct exporter *x, struct store *s, int64_t id,
			    const struct selector *sel, size_t *kept)
{
	struct dataset d;
	size_t *order, i;

	if (select_load(sel, s, id, &d, kept))
		return -1;
	order = dataset_seq_order(&d);
	for (i = 0; i < d.nruns; i++)
		run_write(x, &d, order[i]);
	free(order);
	dataset_release(&d);
	return 0;
}

struct export_opts {
	const char *db, *selector;
	enum format format;
	bool threads;
};

#define FIELD(f) offsetof(struct export_opts, f)

static const struct opt export_rows[] = {
	DB_ROW(FIELD(db)),
	{ NULL, 0, "EXPERIMENT", "a selector, " SELECTOR_TEXT " (WHAT: an "
	  "id, uuid, name or label); default: every experiment", NULL,
	  FIELD(selector), 0, OPT_OPTIONAL },
	{ "format", 0, "csv|json", "csv (default) or json", opt_choice,
	  FIELD(format), 0, 0 },
	{ "threads", 0, NULL, "also one row per thread of each run (metric "
	  "thread_ops)", NULL, FIELD(threads), 0, 0 },
};

const struct opt_cmd export_cli = {
	"export", "export runs and samples in long format", export_rows,
	ARRAY_SIZE(export_rows),
	"One row per run and metric; a run without samples still has one "
	"row, with metric and value empty.",
};

/*
 * The store and the ids to export: those the selector names (select.h),
 * or without one every experiment.  0, or the exit status.
 */
static int select_ids(const struct export_opts *o, struct selector *sel,
		      struct store **s, int64_t **ids, size_t *n)
{
	char err[512];
	int k;

	if (o->selector) {
		k = select_open(o->selector, o->db, sel, s, ids, n, err,
				sizeof(err));
		if (k && *err)
			error("export: %s", err);
		return k;
	}
	memset(sel, 0, sizeof(*sel));
	k = store_open(o->db, STORE_RDONLY, s);
	if (k)
		return store_exit_status(k);
	k = store_experiment_list(*s, ids);
	if (k < 0)
		return EXIT_RUNTIME;
	*n = (size_t)k;
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct exporter x = { 0 };
	struct export_opts o = { store_default_path(), NULL, FMT_CSV, false };
	struct selector sel = { 0 };
	struct store *s = NULL;
	int64_t *ids = NULL;
	size_t n = 0, i, kept = 0;
	int ret;

	ret = opt_parse(&export_cli, argc, argv, &o);
	if (ret)
		return opt_exit(ret);
	ret = select_ids(&o, &sel, &s, &ids, &n);
	if (ret)
		goto out;
	ret = EXIT_RUNTIME;
	x.f = stdout;
	x.format = o.format;
	x.threads = o.threads;
	header_write(&x);
	for (i = 0; i < n; i++)
		if (experiment_write(&x, s, ids[i], &sel, &kept))
			goto out;
	footer_write(&x);
	if (sel.nfilters && !kept) {
		char *what = xasprintf("'%s'", o.selector), err[512];

		ret = select_none(&sel, what, err, sizeof(err));
		error("export: %s", err);
		free(what);
		goto out;
	}
	if (fflush(x.f) || ferror(x.f)) {
		error("export: write error on standard output");
		goto out;
	}
	ret = 0;
out:
	free(ids);
	if (s)
		store_close(s);
	select_release(&sel);
	return ret;
}
