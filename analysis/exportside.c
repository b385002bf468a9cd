/*
 * exportside.c - `contend export --format csv` files as compare sides (see
 * exportside.h).  One pass over RFC 4180 records collects rows into
 * invocations (by uuid), configurations and runs; each invocation then
 * becomes a struct dataset laid out as store_load lays one out (runs
 * grouped by configuration, metrics sorted), so everything downstream of
 * a database side reads it unchanged.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/exportside.h"
#include "analysis/numfile.h"
#include "lib/util.h"

enum col {
	C_ID, C_UUID, C_EXPERIMENT, C_LABEL, C_HOSTNAME, C_WORKLOAD,
	C_SECTION, C_PARAMS, C_SEQ, C_WARMUP, C_STATUS, C_METRIC, C_VALUE,
	NCOLS
};

/* Header names; the first NREQUIRED must be present. */
static const char *const col_names[NCOLS] = {
	[C_UUID] = "uuid", [C_WORKLOAD] = "workload", [C_SECTION] = "section",
	[C_PARAMS] = "params", [C_SEQ] = "seq", [C_WARMUP] = "warmup",
	[C_STATUS] = "status", [C_METRIC] = "metric", [C_VALUE] = "value",
	[C_ID] = "experiment_id", [C_EXPERIMENT] = "experiment",
	[C_LABEL] = "label", [C_HOSTNAME] = "hostname",
};
static const bool col_required[NCOLS] = {
	[C_UUID] = true, [C_WORKLOAD] = true, [C_SECTION] = true,
	[C_PARAMS] = true, [C_SEQ] = true, [C_WARMUP] = true,
	[C_STATUS] = true, [C_METRIC] = true, [C_VALUE] = true,
};

/* One CSV record: its fields (malloc'd, unquoted). */
struct record {
	char **f;
	size_t n, cap;
	long line;
};

static void record_clear(struct record *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->f[i]);
	r->n = 0;
}

static void record_push(struct record *r, const char *s, size_t len)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->f = xrealloc(r->f, r->cap * sizeof(*r->f));
	}
	r->f[r->n++] = xstrndup(s, len);
}

/* Appends c to the field being read (b, *len, *cap). */
static void field_put(char **b, size_t *len, size_t *cap, char c)
{
	if (*len + 1 >= *cap) {
		*cap = *cap ? 2 * *cap : 256;
		*b = xrealloc(*b, *cap);
	}
	(*b)[(*len)++] = c;
}

/*
 * Reads the record at *p (advancing past it and its line end); *line
 * counts newlines, also inside quotes.  -1 on an unterminated quote.
 * buf/cap is the caller's scratch for one field, grown as needed.
 */
static int record_read(const char *name, const char **p, const char *end,
		       long *line, struct record *r, char **buf, size_t *cap)
{
	const char *s = *p;
	size_t len = 0;
	bool quoted = false, any = false;

	record_clear(r);
	r->line = *line;
	for (; s < end; s++) {
		if (quoted) {
			if (*s == '"' && s + 1 < end && s[1] == '"')
				field_put(buf, &len, cap, *s++);
			else if (*s == '"')
				quoted = false;
			else {
				*line += *s == '\n';
				field_put(buf, &len, cap, *s);
			}
			continue;
		}
		if (*s == '"') {
			quoted = any = true;
		} else if (*s == ',') {
			record_push(r, len ? *buf : "", len);
			len = 0;
		} else if (*s == '\n') {
			break;
		} else if (*s != '\r' || (s + 1 < end && s[1] != '\n')) {
			field_put(buf, &len, cap, *s);
			any = true;
		}
	}
	if (quoted)
		return error_at(name, r->line, "a quoted field is not closed");
	if (len || any || r->n)
		record_push(r, len ? *buf : "", len);
	*line += s < end;
	*p = s < end ? s + 1 : s;
	return 0;
}

/* ---- the invocations being built ---- */

struct xval {
	size_t metric;          /* index into xinv.metrics */
	double v;
};

struct xrun {
	size_t config;
	long seq;
	size_t nv;
	struct xval *v;
};

struct xinv {
	struct dataset d;       /* exp and configs filled as rows come */
	size_t nruns;
	struct xrun *runs;
	size_t nmetrics;
	char **metrics;         /* first-seen order */
};

static struct xinv *inv_of(struct xinv **inv, size_t *n, char **f,
			   const long *col)
{
	const char *uuid = f[col[C_UUID]];
	struct xinv *x;
	long long id = 0;

	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*inv)[i].d.exp.uuid, uuid))
			return &(*inv)[i];
	*inv = xrealloc(*inv, (*n + 1) * sizeof(**inv));
	x = memset(&(*inv)[(*n)++], 0, sizeof(**inv));
	if (col[C_ID] >= 0 && parse_ll(f[col[C_ID]], &id) == 0)
		x->d.exp.id = (int64_t)id;
	else
		x->d.exp.id = (int64_t)*n;
	x->d.exp.uuid = xstrdup(uuid);
	x->d.exp.name = xstrdup(col[C_EXPERIMENT] >= 0 ? f[col[C_EXPERIMENT]] : "");
	x->d.exp.label = xstrdup(col[C_LABEL] >= 0 ? f[col[C_LABEL]] : "");
	if (col[C_HOSTNAME] >= 0 && *f[col[C_HOSTNAME]]) {
		x->d.exp.meta = xcalloc(1, sizeof(*x->d.exp.meta));
		x->d.exp.meta[0].key = xstrdup("hostname");
		x->d.exp.meta[0].value = xstrdup(f[col[C_HOSTNAME]]);
		x->d.exp.nmeta = 1;
	}
	return x;
}

/* "k=v k=v" -> params (values hold no blank: canon quotes nothing). */
static void params_split(struct ds_config *c)
{
	const char *s = c->canon;

	while (*s) {
		size_t len = strcspn(s, " ");
		const char *eq = memchr(s, '=', len);

		if (eq) {
			c->params = xrealloc(c->params, (c->nparams + 1) *
							 sizeof(*c->params));
			c->params[c->nparams].key = xstrndup(s, (size_t)(eq - s));
			c->params[c->nparams++].value =
				xstrndup(eq + 1, len - (size_t)(eq - s) - 1);
		}
		s += len;
		s += strspn(s, " ");
	}
}

static size_t config_of(struct xinv *x, char **f, const long *col)
{
	struct dataset *d = &x->d;
	struct ds_config *c;
	size_t i;

	for (i = 0; i < d->nconfigs; i++)
		if (!strcmp(d->configs[i].workload, f[col[C_WORKLOAD]]) &&
		    !strcmp(d->configs[i].section, f[col[C_SECTION]]) &&
		    !strcmp(d->configs[i].canon, f[col[C_PARAMS]]))
			return i;
	d->configs = xrealloc(d->configs, (d->nconfigs + 1) * sizeof(*c));
	c = memset(&d->configs[d->nconfigs], 0, sizeof(*c));
	c->id = (int64_t)d->nconfigs + 1;
	c->workload = xstrdup(f[col[C_WORKLOAD]]);
	c->section = xstrdup(f[col[C_SECTION]]);
	c->canon = xstrdup(f[col[C_PARAMS]]);
	params_split(c);
	return d->nconfigs++;
}

static struct xrun *run_of(struct xinv *x, size_t config, long seq)
{
	struct xrun *r;

	for (size_t i = x->nruns; i-- > 0;)
		if (x->runs[i].config == config && x->runs[i].seq == seq)
			return &x->runs[i];
	x->runs = xrealloc(x->runs, (x->nruns + 1) * sizeof(*x->runs));
	r = memset(&x->runs[x->nruns++], 0, sizeof(*r));
	r->config = config;
	r->seq = seq;
	return r;
}

static size_t metric_of(struct xinv *x, const char *name)
{
	for (size_t i = 0; i < x->nmetrics; i++)
		if (!strcmp(x->metrics[i], name))
			return i;
	x->metrics = xrealloc(x->metrics, (x->nmetrics + 1) * sizeof(char *));
	x->metrics[x->nmetrics] = xstrdup(name);
	return x->nmetrics++;
}

/* Adds one data row; 0 when skipped or added, -1 on a malformed field. */
static int row_add(const char *name, struct xinv **inv, size_t *ninv,
		   const struct record *r, const long *col)
{
	char **f = r->f;
	struct xinv *x;
	struct xrun *run;
	long long seq;
	double v;

	if (strcmp(f[col[C_WARMUP]], "0") || strcmp(f[col[C_STATUS]], "ok") ||
	    !*f[col[C_METRIC]])
		return 0;
	if (parse_ll(f[col[C_SEQ]], &seq) < 0)
		return error_at(name, r->line, "seq '%s' is not an integer",
				f[col[C_SEQ]]);
	if (parse_double(f[col[C_VALUE]], &v) < 0 || !isfinite(v))
		return error_at(name, r->line, "value '%s' of metric '%s' is "
				"not a finite number", f[col[C_VALUE]],
				f[col[C_METRIC]]);
	x = inv_of(inv, ninv, f, col);
	run = run_of(x, config_of(x, f, col), (long)seq);
	run->v = xrealloc(run->v, (run->nv + 1) * sizeof(*run->v));
	run->v[run->nv++] = (struct xval){ metric_of(x, f[col[C_METRIC]]), v };
	return 0;
}

static int run_cmp(const void *pa, const void *pb)
{
	const struct xrun *a = pa, *b = pb;

	if (a->config != b->config)
		return a->config < b->config ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static int str_cmp(const void *pa, const void *pb)
{
	return strcmp(*(char *const *)pa, *(char *const *)pb);
}

/* The collected rows as store_load's layout; x's runs are consumed. */
static void inv_finish(struct xinv *x)
{
	struct dataset *d = &x->d;
	size_t i, j, *map = xcalloc(x->nmetrics, sizeof(*map));

	qsort(x->runs, x->nruns, sizeof(*x->runs), run_cmp);
	d->nmetrics = x->nmetrics;
	d->metrics = xcalloc(x->nmetrics, sizeof(char *));
	memcpy(d->metrics, x->metrics, x->nmetrics * sizeof(char *));
	qsort(d->metrics, d->nmetrics, sizeof(char *), str_cmp);
	for (i = 0; i < x->nmetrics; i++)
		map[i] = (size_t)dataset_metric(d, x->metrics[i]);
	d->nruns = x->nruns;
	d->runs = xcalloc(x->nruns ? x->nruns : 1, sizeof(*d->runs));
	d->values = xcalloc(x->nruns * x->nmetrics + 1, sizeof(double));
	for (i = 0; i < x->nruns * x->nmetrics; i++)
		d->values[i] = NAN;
	for (i = 0; i < x->nruns; i++) {
		struct xrun *r = &x->runs[i];
		struct ds_config *c = &d->configs[r->config];

		if (!c->nruns)
			c->run0 = i;
		c->nruns++;
		d->runs[i] = (struct ds_run){ .id = (int64_t)i + 1,
					      .config = r->config,
					      .seq = r->seq,
					      .repetition = (int)(i - c->run0),
					      .status = RUN_OK };
		for (j = 0; j < r->nv; j++)
			d->values[i * d->nmetrics + map[r->v[j].metric]] =
				r->v[j].v;
		free(r->v);
	}
	free(x->runs);
	free(x->metrics);       /* the names now belong to d->metrics */
	free(map);
}

static void inv_free(struct xinv *x)
{
	for (size_t i = 0; i < x->nruns; i++)
		free(x->runs[i].v);
	free(x->runs);
	for (size_t i = 0; i < x->nmetrics; i++)
		free(x->metrics[i]);
	free(x->metrics);
	dataset_release(&x->d);
}

/* Maps header names to field indexes; -1 when a required one is absent. */
static int header_map(const char *name, const struct record *h, long *col)
{
	for (size_t c = 0; c < NCOLS; c++) {
		col[c] = -1;
		for (size_t i = 0; i < h->n; i++)
			if (!strcmp(h->f[i], col_names[c]))
				col[c] = (long)i;
		if (col[c] < 0 && col_required[c])
			return error_at(name, 1, "not a `contend export "
					"--format csv` file: no column '%s'",
					col_names[c]);
	}
	return 0;
}

static int inv_cmp(const void *pa, const void *pb)
{
	const struct xinv *a = pa, *b = pb;

	return (a->d.exp.id > b->d.exp.id) - (a->d.exp.id < b->d.exp.id);
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
	struct record r = { 0 };
	struct xinv *inv = NULL;
	char *buf = NULL;
	size_t ninv = 0, i, cap = 0;
	long col[NCOLS], line = 1, width;
	int ret = -1;

	*sets = NULL;
	*nsets = 0;
	if (memchr(text, '\0', len)) {
		error_at(name, 0, "holds a NUL byte: not a CSV file");
		goto out;
	}
	if (record_read(name, &p, end, &line, &r, &buf, &cap) < 0 ||
	    header_map(name, &r, col) < 0)
		goto out;
	width = (long)r.n;
	while (p < end) {
		if (record_read(name, &p, end, &line, &r, &buf, &cap) < 0)
			goto out;
		if (!r.n)
			continue;
		if ((long)r.n != width) {
			error_at(name, r.line, "%zu fields, the header has %ld",
				 r.n, width);
			goto out;
		}
		if (row_add(name, &inv, &ninv, &r, col) < 0)
			goto out;
	}
	if (!ninv) {
		error_at(name, 0, "no measured ok run with a value");
		goto out;
	}
	qsort(inv, ninv, sizeof(*inv), inv_cmp);
	*sets = xcalloc(ninv, sizeof(**sets));
	for (i = 0; i < ninv; i++) {
		inv_finish(&inv[i]);
		(*sets)[i] = inv[i].d;
	}
	*nsets = ninv;
	ninv = 0;
	ret = 0;
out:
	for (i = 0; i < ninv; i++)
		inv_free(&inv[i]);
	free(inv);
	record_clear(&r);
	free(r.f);
	free(buf);
	return ret;
}

int exportside_read(const char *path, struct dataset **sets, size_t *nsets)
{
	char *buf;
	size_t len = 0;
	int ret;

	*sets = NULL;
	*nsets = 0;
	if (numfile_slurp(path, &buf, &len) < 0)
		return -1;
	ret = exportside_parse(path, buf, len, sets, nsets);
	free(buf);
	return ret;
}
