/*
 * cmd_merge.c - `contend merge OUT.db IN.db...`: copies every experiment of
 * each input, with all its rows, into OUT (created when missing).  Ids are
 * remapped; an experiment whose uuid OUT already holds is skipped with a
 * notice, so merging is idempotent.  Inputs are opened read-only; each
 * experiment is copied from one snapshot of its input in one transaction.
 */
#include <inttypes.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"
#include "cli/commands.h"
#include "lib/util.h"

/*
 * One table's rows of one experiment.  The SELECT runs on the input with
 * ?1 = the input's experiment id, ?2 = the new experiment id, ?3 and ?4 =
 * the offsets added to configuration and run ids; it yields exactly the
 * INSERT's parameters, in order.  The experiment row comes first: its new
 * id is known only once it is inserted.
 */
struct copy_step {
	const char *what;
	const char *select;
	const char *insert;
	int since;   /* schema version that has the table; older inputs lack it */
};

static const struct copy_step steps[] = {
	{ "experiment",
	  "SELECT uuid, name, label, config_path, config_text, seed, run_order,"
	  " confidence, status, created_at, finished_at FROM experiments"
	  " WHERE id = ?1",
	  "INSERT INTO experiments (uuid, name, label, config_path, config_text,"
	  " seed, run_order, confidence, status, created_at, finished_at)"
	  " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", 1 },
	{ "metadata",
	  "SELECT ?2, key, value FROM experiment_meta WHERE experiment_id = ?1"
	  " ORDER BY rowid",
	  "INSERT INTO experiment_meta (experiment_id, key, value)"
	  " VALUES (?, ?, ?)", 1 },
	{ "configurations",
	  "SELECT id + ?3, ?2, pos, workload, section, canon, noise, timeout_s"
	  " FROM configs WHERE experiment_id = ?1 ORDER BY id",
	  "INSERT INTO configs (id, experiment_id, pos, workload, section,"
	  " canon, noise, timeout_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", 1 },
	{ "parameters",
	  "SELECT p.config_id + ?3, p.pos, p.key, p.value FROM configs c"
	  " JOIN config_params p ON p.config_id = c.id"
	  " WHERE c.experiment_id = ?1",
	  "INSERT INTO config_params (config_id, pos, key, value)"
	  " VALUES (?, ?, ?, ?)", 1 },
	{ "runs",
	  "SELECT id + ?4, ?2, config_id + ?3, seq, repetition, warmup, status,"
	  " error, started_at, wall_s, env_pad FROM runs WHERE experiment_id = ?1"
	  " ORDER BY id",
	  "INSERT INTO runs (id, experiment_id, config_id, seq, repetition,"
	  " warmup, status, error, started_at, wall_s, env_pad)"
	  " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", 1 },
	{ "samples",
	  "SELECT s.run_id + ?4, s.metric, s.value FROM runs r"
	  " JOIN samples s ON s.run_id = r.id WHERE r.experiment_id = ?1",
	  "INSERT INTO samples (run_id, metric, value) VALUES (?, ?, ?)", 1 },
	{ "thread ops",
	  "SELECT t.run_id + ?4, t.ops FROM runs r"
	  " JOIN run_threads t ON t.run_id = r.id WHERE r.experiment_id = ?1",
	  "INSERT INTO run_threads (run_id, ops) VALUES (?, ?)", 1 },
	{ "timelines",
	  "SELECT t.run_id + ?4, t.interval_s, t.threads, t.ops FROM runs r"
	  " JOIN run_timeline t ON t.run_id = r.id WHERE r.experiment_id = ?1",
	  "INSERT INTO run_timeline (run_id, interval_s, threads, ops)"
	  " VALUES (?, ?, ?, ?)", 2 },
	{ "profiles",
	  "SELECT p.config_id + ?3, p.rank, p.caller, p.lock_type, p.contended,"
	  " p.wait_s, p.max_wait_s FROM configs c"
	  " JOIN config_profile p ON p.config_id = c.id"
	  " WHERE c.experiment_id = ?1",
	  "INSERT INTO config_profile (config_id, rank, caller, lock_type,"
	  " contended, wait_s, max_wait_s) VALUES (?, ?, ?, ?, ?, ?, ?)", 2 },
};

struct merge {
	struct store *out, *in;
	const char *out_path, *in_path;
	int64_t src, dst;          /* experiment ids in the input and in OUT */
	int64_t config_off, run_off;
	size_t merged, skipped;
};

static int sql_fail(sqlite3 *db, const char *path, const char *what)
{
	return error("%s: %s: %s", path, what, sqlite3_errmsg(db));
}

/* A one-integer query with one bound integer parameter (NULL -> 0). */
static int query_int(sqlite3 *db, const char *path, const char *sql,
		     int64_t arg, int64_t *v)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
	    (sqlite3_bind_parameter_count(st) &&
	     sqlite3_bind_int64(st, 1, arg) != SQLITE_OK) ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sql_fail(db, path, "cannot read ids");
		goto out;
	}
	*v = sqlite3_column_int64(st, 0);
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

/*
 * New ids are old ids plus an offset that puts the smallest of the
 * experiment just above everything OUT holds: relative order is kept and
 * nothing collides.
 */
static int merge_offsets(struct merge *m)
{
	sqlite3 *in = store_db(m->in), *out = store_db(m->out);
	int64_t out_max, in_min;

	if (query_int(out, m->out_path, "SELECT coalesce(max(id), 0) FROM configs",
		      0, &out_max) ||
	    query_int(in, m->in_path, "SELECT coalesce(min(id), 1) FROM configs"
		      " WHERE experiment_id = ?1", m->src, &in_min))
		return -1;
	m->config_off = out_max + 1 - in_min;
	if (query_int(out, m->out_path, "SELECT coalesce(max(id), 0) FROM runs",
		      0, &out_max) ||
	    query_int(in, m->in_path, "SELECT coalesce(min(id), 1) FROM runs"
		      " WHERE experiment_id = ?1", m->src, &in_min))
		return -1;
	m->run_off = out_max + 1 - in_min;
	return 0;
}

static int bind_args(struct merge *m, sqlite3_stmt *sel)
{
	const int64_t args[] = { m->src, m->dst, m->config_off, m->run_off };
	int n = sqlite3_bind_parameter_count(sel), i;

	for (i = 0; i < n && i < (int)ARRAY_SIZE(args); i++)
		if (sqlite3_bind_int64(sel, i + 1, args[i]) != SQLITE_OK)
			return -1;
	return 0;
}

/* Copies the rows of one step; values pass through untouched. */
static int copy_rows(struct merge *m, const struct copy_step *c)
{
	sqlite3 *in = store_db(m->in), *out = store_db(m->out);
	sqlite3_stmt *sel = NULL, *ins = NULL;
	int rc, i, ncol, ret = -1;

	if (sqlite3_prepare_v2(in, c->select, -1, &sel, NULL) != SQLITE_OK) {
		sql_fail(in, m->in_path, c->what);
		goto out;
	}
	if (sqlite3_prepare_v2(out, c->insert, -1, &ins, NULL) != SQLITE_OK) {
		sql_fail(out, m->out_path, c->what);
		goto out;
	}
	ncol = sqlite3_column_count(sel);
	if (ncol != sqlite3_bind_parameter_count(ins) || bind_args(m, sel)) {
		error("merge: %s: columns do not match", c->what);
		goto out;
	}
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		for (i = 0; i < ncol; i++)
			if (sqlite3_bind_value(ins, i + 1,
					       sqlite3_column_value(sel, i)))
				break;
		if (i < ncol || sqlite3_step(ins) != SQLITE_DONE) {
			sql_fail(out, m->out_path, c->what);
			goto out;
		}
		sqlite3_reset(ins);
	}
	if (rc != SQLITE_DONE) {
		sql_fail(in, m->in_path, c->what);
		goto out;
	}
	if (c == &steps[0])
		m->dst = sqlite3_last_insert_rowid(out);
	ret = 0;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	return ret;
}

/* True when OUT already holds an experiment with this uuid. */
static int uuid_present(struct merge *m, const char *uuid, bool *present)
{
	static const char sql[] = "SELECT count(*) FROM experiments WHERE uuid = ?1";
	sqlite3 *out = store_db(m->out);
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(out, sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(st, 1, uuid, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		sql_fail(out, m->out_path, "cannot look up uuid");
		goto out;
	}
	*present = sqlite3_column_int(st, 0) > 0;
	ret = 0;
out:
	sqlite3_finalize(st);
	return ret;
}

static int copy_experiment(struct merge *m, const struct experiment_row *e)
{
	bool present;
	size_t i;

	if (uuid_present(m, e->uuid, &present))
		return -1;
	if (present) {
		fprintf(stderr, "contend: %s: experiment %" PRId64 " '%s' (%s) is "
			"already in %s, skipped\n", m->in_path, e->id, e->name,
			e->uuid, m->out_path);
		m->skipped++;
		return 0;
	}
	if (strcmp(e->status, "complete") != 0)
		fprintf(stderr, "contend: %s: experiment %" PRId64 " '%s' is %s;"
			" merged as it is now\n", m->in_path, e->id, e->name,
			e->status);
	if (copy_rows(m, &steps[0]) || merge_offsets(m))
		return -1;
	for (i = 1; i < ARRAY_SIZE(steps); i++)
		if (store_version(m->in) >= steps[i].since &&
		    copy_rows(m, &steps[i]))
			return -1;
	m->merged++;
	return 0;
}

/* One experiment: one read snapshot of the input, one write transaction. */
static int merge_experiment(struct merge *m, int64_t id)
{
	sqlite3 *in = store_db(m->in);
	struct experiment_row e;
	int ret = -1;

	if (sqlite3_exec(in, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return sql_fail(in, m->in_path, "cannot read");
	if (store_experiment_get(m->in, id, &e))
		goto out;
	if (store_begin(m->out))
		goto out;
	m->src = id;
	ret = copy_experiment(m, &e);
	if (ret)
		store_rollback(m->out);
	else
		ret = store_commit(m->out);
out:
	sqlite3_exec(in, "COMMIT", NULL, NULL, NULL);
	experiment_row_release(&e);
	return ret;
}

/* Returns 0, or the exit status of the failure. */
static int merge_file(struct merge *m, const char *path)
{
	int64_t *ids = NULL;
	int n, i, ret = EXIT_RUNTIME;

	m->in_path = path;
	n = store_open(path, STORE_RDONLY, &m->in);
	if (n)
		return store_exit_status(n);
	n = store_experiment_list(m->in, &ids);
	for (i = 0; i < n; i++)
		if (merge_experiment(m, ids[i]))
			goto out;
	if (n >= 0)
		ret = 0;
out:
	free(ids);
	store_close(m->in);
	m->in = NULL;
	return ret;
}

struct merge_args {
	const char *out;
	struct opt_words in;
};

static const struct opt merge_rows[] = {
	{ NULL, 0, "OUT.db", "the database to merge into (created when "
	  "missing)", NULL, offsetof(struct merge_args, out), 0, 0 },
	{ NULL, 0, "IN.db", "the databases whose experiments are copied",
	  NULL, offsetof(struct merge_args, in), 0, OPT_MANY },
};

const struct opt_cmd merge_cli = {
	"merge", "merge experiments of several databases", merge_rows,
	ARRAY_SIZE(merge_rows),
	"Copies every experiment of the inputs into OUT; experiments OUT "
	"already holds (the same uuid) are skipped. Every input must open "
	"before OUT is created.",
};

/*
 * Every input must open before OUT is created: bad input writes nothing.
 * Returns 0 or store_open's failure.
 */
static int inputs_check(int n, char **paths)
{
	struct store *s;
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = store_open(paths[i], STORE_RDONLY, &s);
		if (ret)
			return ret;
		store_close(s);
	}
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_args args = { 0 };
	struct merge m = { 0 };
	size_t i;
	int ret = opt_parse(&merge_cli, argc, argv, &args);

	if (ret)
		return opt_exit(ret);
	m.out_path = args.out;
	ret = inputs_check((int)args.in.n, args.in.v);
	if (!ret)
		ret = store_open(m.out_path, STORE_CREATE, &m.out);
	if (ret)
		return store_exit_status(ret);
	for (i = 0; i < args.in.n && !ret; i++) {
		size_t merged = m.merged, skipped = m.skipped;

		ret = merge_file(&m, args.in.v[i]);
		if (!ret)
			printf("%s: %zu experiment%s merged, %zu already present\n",
			       args.in.v[i], m.merged - merged,
			       m.merged - merged == 1 ? "" : "s",
			       m.skipped - skipped);
	}
	store_close(m.out);
	return ret;
}
