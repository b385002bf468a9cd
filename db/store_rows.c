/*
 * store_rows.c - an in-memory store built from flat rows (store.h,
 * "rows"): the rows land in a staging table, in one transaction, checked for a second
 * value of one run's metric as they come, and store_rows_finish turns
 * them into the schema's own tables with a few INSERT ... SELECT, so
 * that store_load reads them as it reads any database.
 */
#include <stdlib.h>
#include <string.h>

#include "db/contract.h"
#include "db/store_impl.h"
#include "lib/util.h"

static const char stage_sql[] =
	"CREATE TABLE stage (uuid TEXT NOT NULL, xid INTEGER,"
	" name TEXT NOT NULL, label TEXT NOT NULL, host TEXT NOT NULL,"
	" workload TEXT NOT NULL, section TEXT NOT NULL, params TEXT NOT NULL,"
	" seq INTEGER NOT NULL, metric TEXT NOT NULL, value REAL NOT NULL,"
	" line INTEGER NOT NULL,"
	" UNIQUE (uuid, workload, section, params, seq, metric)); BEGIN";

/*
 * Experiments numbered by their id column (else in order of first
 * appearance), configurations in order of first appearance, runs by
 * seq within their configuration; config_params split from the canon's
 * words "key=value".
 */
static const char *const finish_sql[] = {
	"WITH f AS (SELECT uuid, min(rowid) AS r FROM stage GROUP BY uuid),"
	" n AS (SELECT r, row_number() OVER (ORDER BY r) AS k FROM f)"
	" INSERT INTO experiments (id, uuid, name, label, seed, run_order,"
	" confidence, status, created_at)"
	" SELECT coalesce(s.xid, n.k), s.uuid, s.name, s.label, '0',"
	" 'sequential', 0, 'complete', 0 FROM n JOIN stage s ON s.rowid = n.r",
	"INSERT INTO experiment_meta (experiment_id, key, value)"
	" SELECT e.id, '" MK_HOSTNAME "', s.host FROM experiments e"
	" JOIN stage s ON s.rowid = (SELECT min(rowid) FROM stage"
	" WHERE uuid = e.uuid) WHERE s.host != ''",
	"INSERT INTO configs (experiment_id, pos, workload, section, canon,"
	" noise) SELECT e.id, row_number() OVER (PARTITION BY g.uuid"
	" ORDER BY g.r) - 1, g.workload, g.section, g.params, 0"
	" FROM (SELECT uuid, workload, section, params, min(rowid) AS r"
	" FROM stage GROUP BY uuid, workload, section, params) g"
	" JOIN experiments e ON e.uuid = g.uuid ORDER BY g.r",
	"CREATE TABLE cfg AS SELECT c.id, e.uuid, c.workload, c.section,"
	" c.canon FROM configs c JOIN experiments e ON e.id = c.experiment_id",
	"CREATE INDEX cfg_key ON cfg (uuid, workload, section, canon)",
	"INSERT INTO runs (experiment_id, config_id, seq, repetition, status)"
	" SELECT c.experiment_id, c.id, g.seq, row_number() OVER"
	" (PARTITION BY c.id ORDER BY g.seq) - 1, 'ok'"
	" FROM (SELECT DISTINCT uuid, workload, section, params, seq"
	" FROM stage) g JOIN cfg k ON k.uuid = g.uuid AND"
	" k.workload = g.workload AND k.section = g.section AND"
	" k.canon = g.params JOIN configs c ON c.id = k.id"
	" ORDER BY c.id, g.seq",
	"INSERT INTO samples (run_id, metric, value)"
	" SELECT r.id, s.metric, s.value FROM stage s JOIN cfg k"
	" ON k.uuid = s.uuid AND k.workload = s.workload AND"
	" k.section = s.section AND k.canon = s.params"
	" JOIN runs r ON r.config_id = k.id AND r.seq = s.seq",
	"WITH RECURSIVE w(cid, pos, word, rest) AS ("
	" SELECT id, 0, '', canon || ' ' FROM configs UNION ALL"
	" SELECT cid, pos + 1, substr(rest, 1, instr(rest, ' ') - 1),"
	" ltrim(substr(rest, instr(rest, ' ') + 1)) FROM w WHERE rest != '')"
	" INSERT INTO config_params (config_id, pos, key, value)"
	" SELECT cid, row_number() OVER (PARTITION BY cid ORDER BY pos) - 1,"
	" substr(word, 1, instr(word, '=') - 1),"
	" substr(word, instr(word, '=') + 1) FROM w WHERE instr(word, '=') > 0",
	"DROP TABLE stage",
	"DROP TABLE cfg",
};

int store_rows_open(struct store **out)
{
	if (store_open(":memory:", STORE_CREATE, out))
		return -1;
	if (sqlite3_exec((*out)->db, stage_sql, NULL, NULL, NULL) != SQLITE_OK) {
		db_fail(*out, "cannot make the rows' table");
		store_close(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

/* The line of the row already holding r's run and metric, or -1. */
static long earlier_line(struct store *s, const struct store_row *r)
{
	sqlite3_stmt *st = NULL;
	long line = -1;

	if (sqlite3_prepare_v2(s->db, "SELECT line FROM stage WHERE uuid = ?1"
			       " AND workload = ?2 AND section = ?3 AND"
			       " params = ?4 AND seq = ?5 AND metric = ?6",
			       -1, &st, NULL) == SQLITE_OK &&
	    bind_str(st, 1, r->uuid) == SQLITE_OK &&
	    bind_str(st, 2, r->workload) == SQLITE_OK &&
	    bind_str(st, 3, r->section) == SQLITE_OK &&
	    bind_str(st, 4, r->params) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 5, r->seq) == SQLITE_OK &&
	    bind_str(st, 6, r->metric) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		line = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return line;
}

long store_rows_add(struct store *s, const struct store_row *r)
{
	sqlite3_stmt *st = stmt_get(s, ST_ROWS_ADD);
	int rc;

	if (!st)
		return -1;
	rc = bind_str(st, 1, r->uuid);
	if (!rc)
		rc = r->experiment_id ? sqlite3_bind_int64(st, 2, r->experiment_id)
				      : sqlite3_bind_null(st, 2);
	if (!rc)
		rc = bind_str(st, 3, r->name);
	if (!rc)
		rc = bind_str(st, 4, r->label);
	if (!rc)
		rc = bind_str(st, 5, r->hostname);
	if (!rc)
		rc = bind_str(st, 6, r->workload);
	if (!rc)
		rc = bind_str(st, 7, r->section);
	if (!rc)
		rc = bind_str(st, 8, r->params);
	if (!rc)
		rc = sqlite3_bind_int64(st, 9, r->seq);
	if (!rc)
		rc = bind_str(st, 10, r->metric);
	if (!rc)
		rc = sqlite3_bind_double(st, 11, r->value);
	if (!rc)
		rc = sqlite3_bind_int64(st, 12, r->line);
	if (!rc)
		rc = sqlite3_step(st);
	stmt_done(st);
	if (rc == SQLITE_DONE)
		return 0;
	if ((rc & 0xff) == SQLITE_CONSTRAINT) {
		long line = earlier_line(s, r);

		if (line > 0)
			return line;
	}
	return db_fail(s, "cannot keep a row");
}

int store_rows_finish(struct store *s, int64_t **ids)
{
	size_t i;
	bool outer;
	int ret = 0;

	*ids = NULL;
	/* the rows were added in store_rows_open's transaction */
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(s, "cannot keep the rows");
	if (txn_begin(s, &outer))
		return -1;
	for (i = 0; !ret && i < sizeof(finish_sql) / sizeof(*finish_sql); i++)
		if (sqlite3_exec(s->db, finish_sql[i], NULL, NULL, NULL) !=
		    SQLITE_OK)
			ret = db_fail(s, "cannot store the rows");
	if (txn_end(s, outer, ret))
		return -1;
	return store_experiment_list(s, ids);
}

int store_rows_shape(struct store *s, int64_t id, size_t *runs,
		     size_t *metrics, size_t *values)
{
	sqlite3_stmt *st = NULL;
	int ret = -1;

	if (sqlite3_prepare_v2(s->db, "SELECT (SELECT count(*) FROM runs"
			       " WHERE experiment_id = ?1), count(DISTINCT"
			       " s.metric), count(*) FROM samples s JOIN runs r"
			       " ON r.id = s.run_id WHERE r.experiment_id = ?1",
			       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_bind_int64(st, 1, id) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		*runs = (size_t)sqlite3_column_int64(st, 0);
		*metrics = (size_t)sqlite3_column_int64(st, 1);
		*values = (size_t)sqlite3_column_int64(st, 2);
		ret = 0;
	}
	sqlite3_finalize(st);
	return ret ? db_fail(s, "cannot count the rows") : 0;
}
