/*
 * exportside.c - `contend export --format csv` files as compare sides (see
 * exportside.h).  One pass over RFC 4180 records collects rows into
 * invocations (by uuid), configurations and runs; each invocation then
 * becomes a struct dataset laid out as store_load lays one out (runs
 * grouped by configuration, metrics sorted), so everything downstream of
 * a database side reads it unchanged.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db/contract.h"
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

/* ---- a hash table of byte-string keys (FNV-1a), for linear time ---- */

struct hslot {
	char *key;              /* NULL: free */
	size_t len;
	uint64_t hash;
	size_t val;
};

struct htab {
	struct hslot *s;
	size_t cap, n;          /* cap a power of two, at most half full */
};

static uint64_t hash_bytes(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 1469598103934665603ULL;

	while (len--)
		h = (h ^ *p++) * 1099511628211ULL;
	return h;
}

static struct hslot *htab_slot(const struct htab *t, const void *key,
			       size_t len, uint64_t h)
{
	size_t i = (size_t)h & (t->cap - 1);

	while (t->s[i].key && (t->s[i].hash != h || t->s[i].len != len ||
			       memcmp(t->s[i].key, key, len)))
		i = (i + 1) & (t->cap - 1);
	return &t->s[i];
}

static void htab_grow(struct htab *t)
{
	struct htab g = { .cap = t->cap ? 2 * t->cap : 64, .n = t->n };

	g.s = xcalloc(g.cap, sizeof(*g.s));
	for (size_t i = 0; i < t->cap; i++)
		if (t->s[i].key)
			*htab_slot(&g, t->s[i].key, t->s[i].len,
				   t->s[i].hash) = t->s[i];
	free(t->s);
	*t = g;
}

/*
 * The value of key (len bytes); when absent, key is added with val and
 * *added set.  Expected O(1).
 */
static size_t htab_get(struct htab *t, const void *key, size_t len,
		       size_t val, bool *added)
{
	uint64_t h = hash_bytes(key, len);
	struct hslot *sl;

	if (2 * (t->n + 1) > t->cap)
		htab_grow(t);
	sl = htab_slot(t, key, len, h);
	*added = !sl->key;
	if (!*added)
		return sl->val;
	sl->key = xmalloc(len ? len : 1);
	memcpy(sl->key, key, len);
	sl->len = len;
	sl->hash = h;
	sl->val = val;
	t->n++;
	return val;
}

static void htab_free(struct htab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->s[i].key);
	free(t->s);
	memset(t, 0, sizeof(*t));
}

/* A key of the numbers given and then the strings given, each with its
 * NUL (fields hold none: a NUL byte is refused), in k (reused). */
struct keybuf {
	char *b;
	size_t len, cap;
};

static void key_put(struct keybuf *k, const void *p, size_t len)
{
	if (k->len + len > k->cap) {
		k->cap = 2 * (k->len + len);
		k->b = xrealloc(k->b, k->cap);
	}
	memcpy(k->b + k->len, p, len);
	k->len += len;
}

/* ---- the invocations being built ---- */

struct xval {
	size_t run;             /* index into xinv.runs */
	size_t metric;          /* index into xinv.metrics */
	double v;
};

struct xrun {
	size_t config;
	long seq;
};

struct xinv {
	struct dataset d;       /* exp and configs filled as rows come */
	size_t configs_cap;
	size_t nruns, runs_cap;
	struct xrun *runs;
	size_t nvals, vals_cap;
	struct xval *vals;
	size_t nmetrics, metrics_cap;
	char **metrics;         /* first-seen order */
};

/* What the rows so far have built, and the tables that find it again. */
struct xparse {
	const char *name;
	const long *col;
	struct xinv *inv;
	size_t ninv, inv_cap;
	struct htab invs;       /* uuid -> inv */
	struct htab configs;    /* inv, workload, section, params -> config */
	struct htab runs;       /* inv, config, seq -> run */
	struct htab metrics;    /* inv, name -> metric */
	struct htab values;     /* inv, run, metric -> the row's line */
	struct keybuf k;
};

/* Grows *p (n used, *cap room, of size each) to room for one more. */
static void *grow(void *p, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 16;
	return xrealloc(p, *cap * size);
}

static size_t inv_of(struct xparse *P, char **f)
{
	const long *col = P->col;
	const char *uuid = f[col[C_UUID]];
	struct xinv *x;
	long long id = 0;
	bool added;
	size_t i = htab_get(&P->invs, uuid, strlen(uuid), P->ninv, &added);

	/* found: one of the P->ninv already made */
	if (!added && i < P->ninv)
		return i;
	P->inv = grow(P->inv, P->ninv, &P->inv_cap, sizeof(*P->inv));
	x = memset(&P->inv[P->ninv++], 0, sizeof(*x));
	if (col[C_ID] >= 0 && parse_ll(f[col[C_ID]], &id) == 0)
		x->d.exp.id = (int64_t)id;
	else
		x->d.exp.id = (int64_t)P->ninv;
	x->d.exp.uuid = xstrdup(uuid);
	x->d.exp.name = xstrdup(col[C_EXPERIMENT] >= 0 ? f[col[C_EXPERIMENT]] : "");
	x->d.exp.label = xstrdup(col[C_LABEL] >= 0 ? f[col[C_LABEL]] : "");
	if (col[C_HOSTNAME] >= 0 && *f[col[C_HOSTNAME]]) {
		x->d.exp.meta = xcalloc(1, sizeof(*x->d.exp.meta));
		x->d.exp.meta[0].key = xstrdup(MK_HOSTNAME);
		x->d.exp.meta[0].value = xstrdup(f[col[C_HOSTNAME]]);
		x->d.exp.nmeta = 1;
	}
	return i;
}

/* "k=v k=v" -> params (values hold no blank: canon quotes nothing). */
static void params_split(struct ds_config *c)
{
	const char *s = c->canon;
	size_t cap = 0;

	while (*s) {
		size_t len = strcspn(s, " ");
		const char *eq = memchr(s, '=', len);

		if (eq) {
			c->params = grow(c->params, c->nparams, &cap,
					 sizeof(*c->params));
			c->params[c->nparams].key = xstrndup(s, (size_t)(eq - s));
			c->params[c->nparams++].value =
				xstrndup(eq + 1, len - (size_t)(eq - s) - 1);
		}
		s += len;
		s += strspn(s, " ");
	}
}

static void key_start(struct xparse *P, size_t a, size_t b, size_t c)
{
	P->k.len = 0;
	key_put(&P->k, &a, sizeof(a));
	key_put(&P->k, &b, sizeof(b));
	key_put(&P->k, &c, sizeof(c));
}

static void key_str(struct xparse *P, const char *s)
{
	key_put(&P->k, s, strlen(s) + 1);
}

static size_t config_of(struct xparse *P, size_t inv, char **f)
{
	const long *col = P->col;
	struct dataset *d = &P->inv[inv].d;
	struct ds_config *c;
	bool added;
	size_t i;

	key_start(P, inv, 0, 0);
	key_str(P, f[col[C_WORKLOAD]]);
	key_str(P, f[col[C_SECTION]]);
	key_str(P, f[col[C_PARAMS]]);
	i = htab_get(&P->configs, P->k.b, P->k.len, d->nconfigs, &added);
	if (!added)
		return i;
	d->configs = grow(d->configs, d->nconfigs, &P->inv[inv].configs_cap,
			  sizeof(*c));
	c = memset(&d->configs[d->nconfigs], 0, sizeof(*c));
	c->id = (int64_t)d->nconfigs + 1;
	c->workload = xstrdup(f[col[C_WORKLOAD]]);
	c->section = xstrdup(f[col[C_SECTION]]);
	c->canon = xstrdup(f[col[C_PARAMS]]);
	params_split(c);
	return d->nconfigs++;
}

static size_t run_of(struct xparse *P, size_t inv, size_t config, long seq)
{
	struct xinv *x = &P->inv[inv];
	bool added;
	size_t i;

	key_start(P, inv, config, (size_t)seq);
	i = htab_get(&P->runs, P->k.b, P->k.len, x->nruns, &added);
	if (!added)
		return i;
	x->runs = grow(x->runs, x->nruns, &x->runs_cap, sizeof(*x->runs));
	x->runs[x->nruns] = (struct xrun){ config, seq };
	return x->nruns++;
}

static size_t metric_of(struct xparse *P, size_t inv, const char *name)
{
	struct xinv *x = &P->inv[inv];
	bool added;
	size_t i;

	key_start(P, inv, 0, 0);
	key_str(P, name);
	i = htab_get(&P->metrics, P->k.b, P->k.len, x->nmetrics, &added);
	if (!added)
		return i;
	x->metrics = grow(x->metrics, x->nmetrics, &x->metrics_cap,
			  sizeof(char *));
	x->metrics[x->nmetrics] = xstrdup(name);
	return x->nmetrics++;
}

/* Adds one data row; 0 when skipped or added, -1 on a malformed field or
 * a second value of one run's metric. */
static int row_add(struct xparse *P, const struct csv_record *r)
{
	const long *col = P->col;
	char **f = r->f;
	size_t inv, config, run, metric, first;
	struct xinv *x;
	long long seq;
	bool added;
	double v;

	if (strcmp(f[col[C_WARMUP]], "0") || strcmp(f[col[C_STATUS]], "ok") ||
	    !*f[col[C_METRIC]])
		return 0;
	/* --threads rows: one per thread, not a metric of the run */
	if (col[C_THREAD] >= 0 && *f[col[C_THREAD]])
		return 0;
	if (parse_ll(f[col[C_SEQ]], &seq) < 0 || seq < LONG_MIN ||
	    seq > LONG_MAX)
		return error_at(P->name, r->line, "seq '%s' is not an integer",
				f[col[C_SEQ]]);
	if (parse_double(f[col[C_VALUE]], &v) < 0 || !isfinite(v))
		return error_at(P->name, r->line, "value '%s' of metric '%s' "
				"is not a finite number", f[col[C_VALUE]],
				f[col[C_METRIC]]);
	inv = inv_of(P, f);
	config = config_of(P, inv, f);
	run = run_of(P, inv, config, (long)seq);
	metric = metric_of(P, inv, f[col[C_METRIC]]);
	key_start(P, inv, run, metric);
	first = htab_get(&P->values, P->k.b, P->k.len, (size_t)r->line,
			 &added);
	if (!added)
		return error_at(P->name, r->line, "metric '%s' of run seq %lld "
				"(uuid %s, workload %s, params '%s') again: "
				"line %zu has it already; a duplicated row",
				f[col[C_METRIC]], seq, f[col[C_UUID]],
				f[col[C_WORKLOAD]], f[col[C_PARAMS]], first);
	x = &P->inv[inv];
	x->vals = grow(x->vals, x->nvals, &x->vals_cap, sizeof(*x->vals));
	x->vals[x->nvals++] = (struct xval){ run, metric, v };
	return 0;
}

/* A run with its index in xinv.runs, to sort by configuration and seq. */
struct xorder {
	struct xrun r;
	size_t at;
};

static int run_cmp(const void *pa, const void *pb)
{
	const struct xrun *a = pa, *b = pb; /* first members */

	if (a->config != b->config)
		return a->config < b->config ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

static int str_cmp(const void *pa, const void *pb)
{
	return strcmp(*(char *const *)pa, *(char *const *)pb);
}

/*
 * The runs x metrics table store_load lays out is refused when it would
 * be far larger than the values given (runs that share no metric: a
 * crafted or mangled file), so memory follows the file's values.
 */
static int inv_check_size(const char *name, const struct xinv *x)
{
	uint64_t cells = (uint64_t)x->nruns * x->nmetrics;
	uint64_t room = (uint64_t)EXPORT_CELLS_PER_VALUE * x->nvals;

	if (cells <= EXPORT_CELLS_MIN || cells <= room)
		return 0;
	return error_at(name, 0, "experiment %s: %zu runs x %zu metrics make "
			"%" PRIu64 " cells for %zu values, more than %d a "
			"value: its runs do not share their metrics "
			"(docs/LIMITS.md)", x->d.exp.uuid, x->nruns,
			x->nmetrics, cells, x->nvals, EXPORT_CELLS_PER_VALUE);
}

/* The collected rows as store_load's layout; x's runs are consumed. */
static void inv_finish(struct xinv *x)
{
	struct dataset *d = &x->d;
	size_t i, *map = xcalloc(x->nmetrics + 1, sizeof(*map));
	struct xorder *order = xcalloc(x->nruns + 1, sizeof(*order));
	size_t *pos = xcalloc(x->nruns + 1, sizeof(*pos));

	for (i = 0; i < x->nruns; i++)
		order[i] = (struct xorder){ x->runs[i], i };
	qsort(order, x->nruns, sizeof(*order), run_cmp);
	for (i = 0; i < x->nruns; i++)
		pos[order[i].at] = i;
	d->nmetrics = x->nmetrics;
	d->metrics = xcalloc(x->nmetrics + 1, sizeof(char *));
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
		const struct xrun *r = &order[i].r;
		struct ds_config *c = &d->configs[r->config];

		if (!c->nruns)
			c->run0 = i;
		c->nruns++;
		d->runs[i] = (struct ds_run){ .id = (int64_t)i + 1,
					      .config = r->config,
					      .seq = r->seq,
					      .repetition = (int)(i - c->run0),
					      .status = RUN_OK };
	}
	for (i = 0; i < x->nvals; i++)
		d->values[pos[x->vals[i].run] * d->nmetrics +
			  map[x->vals[i].metric]] = x->vals[i].v;
	free(x->runs);
	free(x->vals);
	free(x->metrics);       /* the names now belong to d->metrics */
	x->runs = NULL;
	x->vals = NULL;
	x->metrics = NULL;
	x->nruns = x->nvals = x->nmetrics = 0;
	free(order);
	free(pos);
	free(map);
}

static void inv_free(struct xinv *x)
{
	free(x->runs);
	free(x->vals);
	for (size_t i = 0; i < x->nmetrics; i++)
		free(x->metrics[i]);
	free(x->metrics);
	dataset_release(&x->d);
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
	struct csv_record r = { 0 };
	struct xparse P = { .name = name };
	size_t i;
	long col[NCOLS], line = 1, width;
	int ret = -1;

	*sets = NULL;
	*nsets = 0;
	for (i = 0; i < NCOLS; i++)
		col[i] = -1;
	P.col = col;
	if (memchr(text, '\0', len)) {
		error_at(name, 0, "holds a NUL byte: not a CSV file");
		goto out;
	}
	if (csv_record_read(&r, name, &p, end, &line) < 0 ||
	    header_map(name, &r, col) < 0)
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
		if (row_add(&P, &r) < 0)
			goto out;
	}
	if (!P.ninv) {
		error_at(name, 0, "no measured ok run with a value");
		goto out;
	}
	for (i = 0; i < P.ninv; i++)
		if (inv_check_size(name, &P.inv[i]) < 0)
			goto out;
	qsort(P.inv, P.ninv, sizeof(*P.inv), inv_cmp);
	*sets = xcalloc(P.ninv, sizeof(**sets));
	for (i = 0; i < P.ninv; i++) {
		inv_finish(&P.inv[i]);
		(*sets)[i] = P.inv[i].d;
	}
	*nsets = P.ninv;
	P.ninv = 0;
	ret = 0;
out:
	for (i = 0; i < P.ninv; i++)
		inv_free(&P.inv[i]);
	free(P.inv);
	htab_free(&P.invs);
	htab_free(&P.configs);
	htab_free(&P.runs);
	htab_free(&P.metrics);
	htab_free(&P.values);
	free(P.k.b);
	csv_record_release(&r);
	return ret;
}
