/*
 * store_experiment.c - experiment rows: creating one (its uuid and host
 * metadata), its status, reading it back, its metadata one key at a time,
 * and resolving selectors to experiment ids.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "db/contract.h"
#include "db/store_impl.h"
#include "lib/util.h"


const char *const run_status_names[RUN_NSTATUS] = {
	[RUN_PLANNED] = "planned",   [RUN_OK] = "ok",
	[RUN_FAILED] = "failed",     [RUN_CRASHED] = "crashed",
	[RUN_TIMEOUT] = "timeout",   [RUN_PROTOCOL] = "protocol",
	[RUN_INTERRUPTED] = "interrupted",
};

/* The experiment statuses the schema's CHECK allows. */
static const char *const experiment_statuses[] = {
	"planned", "running", "complete", "interrupted", "failed",
};
/* Those that end an experiment (and set finished_at). */
static const char *const experiment_final[] = {
	"complete", "interrupted", "failed",
};

static bool in_list(const char *v, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v, list[i]))
			return true;
	return false;
}

int run_status_parse(const char *name)
{
	int i;

	for (i = 0; i < RUN_NSTATUS; i++)
		if (!strcmp(name, run_status_names[i]))
			return i;
	return -1;
}

/* A random RFC 4122 version 4 uuid, lowercase. */
static int uuid_generate(char out[37])
{
	unsigned char b[16];
	size_t got = 0;
	int i, n = 0;

	while (got < sizeof(b)) {
		ssize_t r = getrandom(b + got, sizeof(b) - got, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return error("getrandom: %s", strerror(errno));
		got += (size_t)r;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* variant 10 */
	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[n++] = '-';
		n += snprintf(out + n, 3, "%02x", b[i]);
	}
	out[n] = '\0';
	return 0;
}

static int meta_insert(struct store *s, const struct experiment_row *e)
{
	sqlite3_stmt *st = stmt_get(s, ST_META_INSERT);
	size_t i;

	if (!st)
		return -1;
	for (i = 0; i < e->nmeta; i++) {
		int bound = sqlite3_bind_int64(st, META_experiment_id, e->id) |
			    sqlite3_bind_text(st, META_key, e->meta[i].key, -1,
					      SQLITE_STATIC) |
			    bind_str(st, META_value, e->meta[i].value);

		if (stmt_write(s, st, bound, "cannot bind metadata",
			       "cannot store metadata"))
			return -1;
	}
	return 0;
}

static int experiment_insert(struct store *s, struct experiment_row *e,
			     const char *uuid)
{
	sqlite3_stmt *st = stmt_get(s, ST_EXP_INSERT);
	char seed[24];
	int bound;

	if (!st)
		return -1;
	snprintf(seed, sizeof(seed), "%" PRIu64, e->seed);
	bound = bind_str(st, EXPERIMENTS_uuid, uuid) |
		bind_str(st, EXPERIMENTS_name, e->name) |
		bind_str(st, EXPERIMENTS_label, e->label) |
		bind_str(st, EXPERIMENTS_config_path, e->config_path) |
		bind_str(st, EXPERIMENTS_config_text, e->config_text) |
		sqlite3_bind_text(st, EXPERIMENTS_seed, seed, -1,
				  SQLITE_STATIC) |
		bind_str(st, EXPERIMENTS_run_order, e->order) |
		sqlite3_bind_double(st, EXPERIMENTS_confidence,
				    e->confidence > 0 ? e->confidence : 0.95) |
		bind_str(st, EXPERIMENTS_status,
			 e->status ? e->status : "planned") |
		sqlite3_bind_double(st, EXPERIMENTS_created_at, e->created_at) |
		(e->finished_at > 0
			 ? sqlite3_bind_double(st, EXPERIMENTS_finished_at,
					       e->finished_at)
			 : SQLITE_OK);
	if (stmt_write(s, st, bound, "cannot bind experiment",
		       "cannot create experiment"))
		return -1;
	e->id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_experiment_create(struct store *s, struct experiment_row *e)
{
	char uuid[37];
	bool outer;
	int ret = -1;

	if (!e->uuid && uuid_generate(uuid))
		return -1;
	if (e->created_at <= 0)
		e->created_at = now_realtime();
	if (txn_begin(s, &outer))
		return -1;
	if (experiment_insert(s, e, e->uuid ? e->uuid : uuid) ||
	    meta_insert(s, e))
		goto out;
	ret = 0;
out:
	ret = txn_end(s, outer, ret);
	if (!ret && !e->uuid)
		e->uuid = xstrdup(uuid);
	return ret;
}

int store_experiment_status(struct store *s, int64_t id, const char *status)
{
	sqlite3_stmt *st;
	int bound;

	if (!in_list(status, experiment_statuses, ARRAY_SIZE(experiment_statuses)))
		return error("invalid experiment status '%s' (planned, running, "
			     "complete, interrupted, failed)", status);
	st = stmt_get(s, ST_EXP_STATUS);
	if (!st)
		return -1;
	bound = sqlite3_bind_int64(st, 1, id) | bind_str(st, 2, status) |
		(in_list(status, experiment_final, ARRAY_SIZE(experiment_final))
			 ? sqlite3_bind_double(st, 3, now_realtime())
			 : SQLITE_OK);
	if (stmt_write(s, st, bound, "cannot bind status",
		       "cannot set experiment status"))
		return -1;
	if (sqlite3_changes(s->db) != 1)
		return error("%s: no experiment with id %" PRId64, s->path, id);
	return 0;
}

int store_meta_get(struct store *s, int64_t experiment, const char *key,
		   char **value)
{
	sqlite3_stmt *st = stmt_get(s, ST_META_ONE);
	int rc, ret = -1;

	*value = NULL;
	if (!st)
		return -1;
	if (sqlite3_bind_int64(st, 1, experiment) | bind_str(st, 2, key)) {
		db_fail(s, "cannot bind metadata");
		goto out;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*value = col_str(st, 0);
	else if (rc != SQLITE_DONE) {
		db_fail(s, "cannot read metadata");
		goto out;
	}
	ret = 0;
out:
	stmt_done(st);
	return ret;
}

int store_meta_set(struct store *s, int64_t experiment, const char *key,
		   const char *value)
{
	sqlite3_stmt *st = stmt_get(s, value ? ST_META_PUT : ST_META_DELETE);
	int ret = -1;

	if (!st)
		return -1;
	/* the delete's ?1 and ?2 are the upsert's too */
	if (sqlite3_bind_int64(st, META_experiment_id, experiment) |
	    bind_str(st, META_key, key) |
	    (value ? bind_str(st, META_value, value) : SQLITE_OK)) {
		db_fail(s, "cannot bind metadata");
		goto out;
	}
	ret = step_done(s, st, "cannot store metadata");
out:
	stmt_done(st);
	return ret;
}

static int meta_load(struct store *s, struct experiment_row *e)
{
	sqlite3_stmt *st = query_start(s, ST_META_GET, e->id);
	int rc;

	if (!st)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		e->meta = xgrow(e->meta, e->nmeta, sizeof(*e->meta));
		e->meta[e->nmeta].key = col_str(st, 0);
		e->meta[e->nmeta].value = col_str(st, 1);
		e->nmeta++;
	}
	experiment_meta_index(e);
	return query_end(s, st, rc, "cannot read metadata");
}

static int experiment_fill(struct store *s, sqlite3_stmt *st,
			   struct experiment_row *e)
{
#define C(name) COL_OF(EXPERIMENTS_##name)
	char *seed = col_str(st, C(seed));
	int ret = 0;

	e->id = sqlite3_column_int64(st, C(id));
	e->uuid = col_str(st, C(uuid));
	e->name = col_str(st, C(name));
	e->label = col_str(st, C(label));
	e->config_path = col_str(st, C(config_path));
	e->config_text = col_str(st, C(config_text));
	e->order = col_str(st, C(run_order));
	e->confidence = sqlite3_column_double(st, C(confidence));
	e->status = col_str(st, C(status));
	e->created_at = sqlite3_column_double(st, C(created_at));
	e->finished_at = sqlite3_column_double(st, C(finished_at));
#undef C
	if (parse_u64(seed, &e->seed))
		ret = error("%s: experiment %" PRId64 ": malformed seed '%s'",
			    s->path, e->id, seed);
	free(seed);
	return ret;
}

int store_experiment_get(struct store *s, int64_t id, struct experiment_row *e)
{
	sqlite3_stmt *st;
	int rc, ret = -1;

	memset(e, 0, sizeof(*e));
	st = query_start(s, ST_EXP_GET, id);
	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		ret = experiment_fill(s, st, e);
	else if (rc == SQLITE_DONE)
		error("%s: no experiment with id %" PRId64, s->path, id);
	else
		db_fail(s, "cannot read experiment");
	stmt_done(st);
	if (!ret)
		ret = meta_load(s, e);
	/* a file opened read-only is not upgraded: its keys in memory */
	if (!ret && s->version < STORE_CONTRACT_VERSION)
		contract_from_config(e);
	if (ret)
		experiment_row_release(e);
	return ret;
}

/* Runs a query of experiment ids with an optional text or id parameter. */
static int ids_query(struct store *s, enum stmt_id q, const char *text,
		     int64_t id, int64_t **ids)
{
	sqlite3_stmt *st = stmt_get(s, q);
	size_t n = 0;
	int rc;

	*ids = NULL;
	if (!st)
		return -1;
	if ((text && bind_str(st, 1, text) != SQLITE_OK) ||
	    (!text && id && sqlite3_bind_int64(st, 1, id) != SQLITE_OK)) {
		stmt_done(st);
		return db_fail(s, "cannot bind a query");
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ids = xgrow(*ids, n, sizeof(**ids));
		(*ids)[n++] = sqlite3_column_int64(st, 0);
	}
	if (query_end(s, st, rc, "cannot look up experiments")) {
		free(*ids);
		*ids = NULL;
		return -1;
	}
	return (int)n;
}

int store_experiment_find(struct store *s, const char *selector,
			  int64_t **ids)
{
	static const enum stmt_id by_text[] = {
		ST_FIND_UUID, ST_FIND_NAME, ST_FIND_LABEL,
	};
	long long id;
	size_t i;
	int n;

	if (!selector)
		return ids_query(s, ST_FIND_NEWEST, NULL, 0, ids);
	*ids = NULL;
	if (!*selector)
		return 0;
	if (!parse_ll(selector, &id) && id > 0) {
		n = ids_query(s, ST_FIND_ID, NULL, id, ids);
		if (n)
			return n;
	}
	/* Precedence: id, uuid, name, label; the first that matches wins. */
	for (i = 0; i < ARRAY_SIZE(by_text); i++) {
		n = ids_query(s, by_text[i], selector, 0, ids);
		if (n)
			return n;
	}
	return 0;
}

int store_experiment_list(struct store *s, int64_t **ids)
{
	return ids_query(s, ST_EXP_ALL, NULL, 0, ids);
}

