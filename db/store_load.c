/*
 * store_load.c - the reads of analysis: the one-call loader of a whole
 * experiment (store_load) into a struct dataset, the runs still to do, a
 * configuration's timelines and an experiment's profiles.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "db/store_impl.h"
#include "lib/util.h"

void store_timelines_free(struct run_timeline *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(t[i].ops);
	free(t);
}

/* Appends one count of run id to the timelines, a new one when id changes. */
static int timeline_add(struct run_timeline **t, size_t *n, int64_t id,
			double interval, int64_t threads, int64_t value)
{
	struct run_timeline *cur = *n ? &(*t)[*n - 1] : NULL;

	if (threads <= 0 || value < 0)
		return -1;
	if (!cur || cur->run_id != id) {
		*t = xgrow(*t, *n, sizeof(**t));
		cur = &(*t)[(*n)++];
		memset(cur, 0, sizeof(*cur));
		cur->run_id = id;
		cur->interval_s = interval;
		cur->threads = (size_t)threads;
	}
	cur->ops = xgrow(cur->ops, cur->nticks, sizeof(*cur->ops));
	cur->ops[cur->nticks++] = (uint64_t)value;
	return 0;
}

int store_load_timelines(struct store *s, int64_t experiment, int64_t config,
			 struct run_timeline **out, size_t *n)
{
	struct run_timeline *t = NULL;
	sqlite3_stmt *st;
	size_t nt = 0, i;
	int rc = SQLITE_DONE, ret;

	*out = NULL;
	*n = 0;
	if (s->version < 2)
		return 0;
	st = query_start(s, ST_LOAD_TIMELINES, experiment);
	if (!st)
		return -1;
	if (sqlite3_bind_int64(st, 2, config) != SQLITE_OK) {
		stmt_done(st);
		return db_fail(s, "cannot bind a query");
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (timeline_add(&t, &nt, sqlite3_column_int64(st, 0),
				 sqlite3_column_double(st, 1),
				 sqlite3_column_int64(st, 2),
				 sqlite3_column_int64(st, 3))) {
			error("%s: the timeline of run %" PRId64 " is malformed",
			      s->path, (int64_t)sqlite3_column_int64(st, 0));
			break;
		}
	ret = query_end(s, st, rc, "cannot read timelines");
	/* the counts are threads x intervals: nticks is per thread */
	for (i = 0; !ret && i < nt; i++) {
		if (t[i].nticks % t[i].threads) {
			ret = error("%s: the timeline of run %" PRId64 " has %zu "
				    "counts for %zu threads", s->path,
				    t[i].run_id, t[i].nticks, t[i].threads);
			break;
		}
		t[i].nticks /= t[i].threads;
	}
	if (ret) {
		store_timelines_free(t, nt);
		return -1;
	}
	*out = t;
	*n = nt;
	return 0;
}


void store_profile_free(struct profile_row *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].caller);
		free(p[i].lock_type);
	}
	free(p);
}

int store_load_profile(struct store *s, int64_t experiment,
		       struct profile_row **out, size_t *n)
{
	struct profile_row *p = NULL;
	sqlite3_stmt *st;
	size_t np = 0;
	int rc;

	*out = NULL;
	*n = 0;
	if (s->version < 2)
		return 0;
	st = query_start(s, ST_LOAD_PROFILE, experiment);
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		p = xgrow(p, np, sizeof(*p));
		p[np].config_id = sqlite3_column_int64(st, 0);
		p[np].caller = col_str(st, 1);
		p[np].lock_type = col_str(st, 2);
		p[np].contended = (uint64_t)sqlite3_column_int64(st, 3);
		p[np].wait_s = sqlite3_column_double(st, 4);
		p[np].max_wait_s = sqlite3_column_double(st, 5);
		np++;
	}
	if (query_end(s, st, rc, "cannot read the profile")) {
		store_profile_free(p, np);
		return -1;
	}
	*out = p;
	*n = np;
	return 0;
}

int store_pending_runs(struct store *s, int64_t experiment,
		       struct pending_run **out, size_t *n)
{
	sqlite3_stmt *st = query_start(s, ST_PENDING, experiment);
	int rc;

	*out = NULL;
	*n = 0;
	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct pending_run *p;

		*out = xgrow(*out, *n, sizeof(**out));
		p = &(*out)[(*n)++];
		p->run_id = sqlite3_column_int64(st, 0);
		p->config_id = sqlite3_column_int64(st, 1);
		p->seq = (long)sqlite3_column_int64(st, 2);
		p->repetition = sqlite3_column_int(st, 3);
		p->warmup = sqlite3_column_int(st, 4) != 0;
	}
	if (query_end(s, st, rc, "cannot read pending runs")) {
		free(*out);
		*out = NULL;
		*n = 0;
		return -1;
	}
	return 0;
}

/* ---- loading a whole experiment ---- */

/*
 * The index of configuration id.  Rows arrive grouped by configuration in
 * pos order, so the hint (the previous row's) or the one after it nearly
 * always matches; then, as ids usually ascend with pos (the runner inserts
 * in pos order, merge keeps the order), a binary search; a linear scan
 * only for a file written otherwise.
 */
static long config_index(const struct dataset *d, int64_t id, size_t hint)
{
	size_t lo = 0, hi = d->nconfigs, i;

	for (i = hint; i < hint + 2 && i < d->nconfigs; i++)
		if (d->configs[i].id == id)
			return (long)i;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->configs[mid].id == id)
			return (long)mid;
		if (d->configs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = 0; i < d->nconfigs; i++)
		if (d->configs[i].id == id)
			return (long)i;
	return -1;
}

static int load_configs(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_CONFIGS, experiment);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct ds_config *c;

		d->configs = xgrow(d->configs, d->nconfigs, sizeof(*c));
		c = &d->configs[d->nconfigs++];
		memset(c, 0, sizeof(*c));
		c->id = sqlite3_column_int64(st, 0);
		c->workload = col_str(st, 1);
		c->section = col_str(st, 2);
		c->canon = col_str(st, 3);
		c->noise = sqlite3_column_double(st, 4);
	}
	return query_end(s, st, rc, "cannot read configurations");
}

static int load_params(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_PARAMS, experiment);
	size_t ci = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long i = config_index(d, sqlite3_column_int64(st, 0), ci);
		struct ds_config *c;

		if (i < 0) {
			error("%s: parameter of unknown configuration %lld",
			      s->path, sqlite3_column_int64(st, 0));
			break;
		}
		ci = (size_t)i;
		c = &d->configs[ci];
		c->params = xgrow(c->params, c->nparams, sizeof(*c->params));
		c->params[c->nparams].key = col_str(st, 1);
		c->params[c->nparams].value = col_str(st, 2);
		c->nparams++;
	}
	return query_end(s, st, rc, "cannot read parameters");
}

static int run_fill(struct store *s, sqlite3_stmt *st, struct dataset *d,
		    size_t *ci)
{
	struct ds_run *r = &d->runs[d->nruns];
	const unsigned char *status = sqlite3_column_text(st, 5);
	long i = config_index(d, sqlite3_column_int64(st, 1), *ci);
	int sv = status ? run_status_parse((const char *)status) : -1;

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	if (i < 0 || sv < 0)
		return error("%s: run %" PRId64 " is inconsistent (configuration"
			     " or status)", s->path, r->id);
	if ((size_t)i != *ci || d->configs[i].nruns == 0)
		d->configs[i].run0 = d->nruns;
	*ci = (size_t)i;
	d->configs[i].nruns++;
	r->config = (size_t)i;
	r->seq = (long)sqlite3_column_int64(st, 2);
	r->repetition = sqlite3_column_int(st, 3);
	r->warmup = sqlite3_column_int(st, 4) != 0;
	r->status = (enum run_status)sv;
	if (sqlite3_column_type(st, 6) != SQLITE_NULL)
		r->error = col_str(st, 6);
	r->started_at = sqlite3_column_double(st, 7);
	r->wall_s = sqlite3_column_double(st, 8);
	d->nruns++;
	return 0;
}

static int load_runs(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_RUNS, experiment);
	size_t ci = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		d->runs = xgrow(d->runs, d->nruns, sizeof(*d->runs));
		if (run_fill(s, st, d, &ci))
			break;
	}
	return query_end(s, st, rc, "cannot read runs");
}

/*
 * Samples and thread rows arrive in seq order; by_seq lists the run
 * indices in that order so each row finds its run by walking forward.
 */
struct seq_walk {
	const struct dataset *d;
	size_t *by_seq;
	size_t k;
};

static int cmp_seq(const void *a, const void *b, void *arg)
{
	const struct dataset *d = arg;
	long x = d->runs[*(const size_t *)a].seq;
	long y = d->runs[*(const size_t *)b].seq;

	return (x > y) - (x < y);
}

size_t *dataset_seq_order(const struct dataset *d)
{
	size_t *order = xmalloc(d->nruns * sizeof(*order)), i;

	for (i = 0; i < d->nruns; i++)
		order[i] = i;
	qsort_r(order, d->nruns, sizeof(*order), cmp_seq, (void *)d);
	return order;
}

static void seq_walk_init(struct seq_walk *w, const struct dataset *d)
{
	w->d = d;
	w->k = 0;
	w->by_seq = dataset_seq_order(d);
}

/* The run index of id, which is at or after the previous row's run. */
static long seq_walk_find(struct seq_walk *w, int64_t id)
{
	while (w->k < w->d->nruns && w->d->runs[w->by_seq[w->k]].id != id)
		w->k++;
	return w->k < w->d->nruns ? (long)w->by_seq[w->k] : -1;
}

struct sample_row {
	uint32_t run, metric;
	double value;
};

/* The index of a metric name among those seen so far, adding it if new. */
static uint32_t metric_intern(struct dataset *d, const char *name,
			      uint32_t *guess)
{
	size_t i;

	/* Every run lists its metrics in the same sorted order: guess next. */
	if (*guess < d->nmetrics && !strcmp(d->metrics[*guess], name))
		return (*guess)++;
	for (i = 0; i < d->nmetrics; i++)
		if (!strcmp(d->metrics[i], name))
			break;
	if (i == d->nmetrics) {
		d->metrics = xrealloc(d->metrics, (i + 1) * sizeof(*d->metrics));
		d->metrics[i] = xstrdup(name);
		d->nmetrics++;
	}
	*guess = (uint32_t)i + 1;
	return (uint32_t)i;
}

static int cmp_name(const void *a, const void *b, void *arg)
{
	char **names = arg;

	return strcmp(names[*(const uint32_t *)a], names[*(const uint32_t *)b]);
}

/* Sorts d->metrics by name and fills the dense values matrix from rows. */
static void samples_place(struct dataset *d, const struct sample_row *rows,
			  size_t n)
{
	uint32_t *order = xmalloc((d->nmetrics + 1) * sizeof(*order));
	uint32_t *rank = xmalloc((d->nmetrics + 1) * sizeof(*rank));
	char **sorted = xmalloc((d->nmetrics + 1) * sizeof(*sorted));
	size_t i, total = d->nruns * d->nmetrics;

	for (i = 0; i < d->nmetrics; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, d->nmetrics, sizeof(*order), cmp_name, d->metrics);
	for (i = 0; i < d->nmetrics; i++) {
		rank[order[i]] = (uint32_t)i;
		sorted[i] = d->metrics[order[i]];
	}
	free(d->metrics);
	d->metrics = sorted;
	d->values = xmalloc((total ? total : 1) * sizeof(*d->values));
	for (i = 0; i < total; i++)
		d->values[i] = NAN;
	for (i = 0; i < n; i++)
		d->values[rows[i].run * d->nmetrics + rank[rows[i].metric]] =
			rows[i].value;
	free(order);
	free(rank);
}

static int load_samples(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_SAMPLES, experiment);
	struct sample_row *rows = NULL;
	struct seq_walk w;
	size_t n = 0;
	uint32_t guess = 0;
	int rc, ret;

	if (!st)
		return -1;
	seq_walk_init(&w, d);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		long r = seq_walk_find(&w, sqlite3_column_int64(st, 0));
		const char *m = (const char *)sqlite3_column_text(st, 1);

		if (r < 0 || !m) {
			error("%s: sample of run %lld is inconsistent", s->path,
			      sqlite3_column_int64(st, 0));
			break;
		}
		rows = xgrow(rows, n, sizeof(*rows));
		rows[n].run = (uint32_t)r;
		rows[n].metric = metric_intern(d, m, &guess);
		rows[n].value = sqlite3_column_double(st, 2);
		n++;
	}
	ret = query_end(s, st, rc, "cannot read samples");
	if (!ret)
		samples_place(d, rows, n);
	free(rows);
	free(w.by_seq);
	return ret;
}

static int load_threads(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st = query_start(s, ST_LOAD_THREADS, experiment);
	struct seq_walk w;
	int rc;

	if (!st)
		return -1;
	seq_walk_init(&w, d);
	/*
	 * thread_ops is laid out in seq order, each run's threads in thread
	 * order; a run's slice (thread0, nthreads) points into it.
	 */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		const char *ops = (const char *)sqlite3_column_text(st, 1);
		long r = seq_walk_find(&w, id);
		size_t start = d->nthread_ops;

		if (r < 0 || !ops ||
		    thread_ops_parse(ops, &d->thread_ops, &d->nthread_ops)) {
			error("%s: thread ops of run %" PRId64 " are malformed",
			      s->path, id);
			break;
		}
		d->runs[r].thread0 = start;
		d->runs[r].nthreads = d->nthread_ops - start;
	}
	free(w.by_seq);
	return query_end(s, st, rc, "cannot read thread ops");
}

/* Each configuration's profile rows, moved out of one query's. */
static int attach_profiles(struct store *s, int64_t experiment,
			   struct dataset *d)
{
	struct profile_row *p;
	size_t n, i, c;

	if (store_load_profile(s, experiment, &p, &n))
		return -1;
	for (i = 0; i < n; i++) {
		struct ds_config *cf = NULL;

		for (c = 0; c < d->nconfigs && !cf; c++)
			if (d->configs[c].id == p[i].config_id)
				cf = &d->configs[c];
		if (!cf) {
			free(p[i].caller);
			free(p[i].lock_type);
			continue;
		}
		cf->profile = xrealloc(cf->profile, (cf->nprofile + 1) *
						    sizeof(*cf->profile));
		cf->profile[cf->nprofile++] = p[i];
	}
	free(p);
	return 0;
}

static char *dup_col(sqlite3_stmt *st, int col)
{
	const char *t = (const char *)sqlite3_column_text(st, col);

	return t ? xstrdup(t) : NULL;
}

/* The runs' top kernel locks, onto their configurations. */
static int load_klock(struct store *s, int64_t experiment, struct dataset *d)
{
	sqlite3_stmt *st;
	struct seq_walk w;
	int rc;

	if (s->version < 3)
		return 0; /* an older database read-only: none */
	st = query_start(s, ST_LOAD_KLOCK, experiment);
	if (!st)
		return -1;
	seq_walk_init(&w, d);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		long r = seq_walk_find(&w, id);
		struct ds_config *cf;
		struct ds_klock *k;

		if (r < 0 || !sqlite3_column_text(st, 1) ||
		    !sqlite3_column_text(st, 2)) {
			error("%s: kernel locks of run %" PRId64 " are "
			      "inconsistent", s->path, id);
			break;
		}
		cf = &d->configs[d->runs[r].config];
		cf->klock = xgrow(cf->klock, cf->nklock, sizeof(*cf->klock));
		k = &cf->klock[cf->nklock++];
		k->run = (size_t)r;
		k->kind = dup_col(st, 1);
		k->caller = dup_col(st, 2);
		k->lock = dup_col(st, 3);
		k->nlocks = (long)sqlite3_column_int64(st, 4);
		k->contentions = sqlite3_column_double(st, 5);
		k->wait_s = sqlite3_column_double(st, 6);
	}
	free(w.by_seq);
	return query_end(s, st, rc, "cannot read kernel locks");
}

int store_load(struct store *s, int64_t experiment, struct dataset *d)
{
	bool txn;
	int ret = -1;

	memset(d, 0, sizeof(*d));
	/* One read transaction: one snapshot, even while a run writes. */
	txn = sqlite3_get_autocommit(s->db) != 0;
	if (txn && stmt_exec(s, ST_BEGIN_READ))
		return -1;
	if (store_experiment_get(s, experiment, &d->exp) ||
	    load_configs(s, experiment, d) || load_params(s, experiment, d) ||
	    load_runs(s, experiment, d) || load_samples(s, experiment, d) ||
	    load_threads(s, experiment, d) ||
	    attach_profiles(s, experiment, d) || load_klock(s, experiment, d))
		goto out;
	ret = 0;
out:
	if (txn)
		stmt_exec(s, ST_COMMIT);
	if (ret)
		dataset_release(d);
	return ret;
}

void ds_config_release(struct ds_config *c)
{
	size_t j;

	free(c->workload);
	free(c->section);
	free(c->canon);
	for (j = 0; j < c->nparams; j++) {
		free(c->params[j].key);
		free(c->params[j].value);
	}
	free(c->params);
	store_profile_free(c->profile, c->nprofile);
	for (j = 0; j < c->nklock; j++) {
		free(c->klock[j].kind);
		free(c->klock[j].caller);
		free(c->klock[j].lock);
	}
	free(c->klock);
}

void dataset_release(struct dataset *d)
{
	size_t i;

	experiment_row_release(&d->exp);
	for (i = 0; i < d->nconfigs; i++)
		ds_config_release(&d->configs[i]);
	free(d->configs);
	for (i = 0; i < d->nruns; i++)
		free(d->runs[i].error);
	free(d->runs);
	for (i = 0; i < d->nmetrics; i++)
		free(d->metrics[i]);
	free(d->metrics);
	free(d->values);
	free(d->thread_ops);
	memset(d, 0, sizeof(*d));
}

const char *ds_config_param(const struct ds_config *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nparams; i++)
		if (!strcmp(c->params[i].key, key))
			return c->params[i].value;
	return NULL;
}

int dataset_metric(const struct dataset *d, const char *name)
{
	size_t lo = 0, hi = d->nmetrics;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(d->metrics[mid], name);

		if (!c)
			return (int)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

double dataset_value(const struct dataset *d, size_t r, int m)
{
	if (m < 0 || (size_t)m >= d->nmetrics || r >= d->nruns)
		return NAN;
	return d->values[r * d->nmetrics + (size_t)m];
}
