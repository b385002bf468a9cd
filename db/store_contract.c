/*
 * store_contract.c - the contract's keys written into experiments stored
 * before them (db/contract.h, contract_from_config): when a database is
 * upgraded past STORE_CONTRACT_VERSION and when an experiment is merged
 * from an older one.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "db/contract.h"
#include "db/store_impl.h"
#include "lib/util.h"

/* e's meta as stored, in its order. */
static int meta_read(struct store *s, sqlite3_stmt *meta,
		     struct experiment_row *e)
{
	int rc;

	sqlite3_bind_int64(meta, 1, e->id);
	while ((rc = sqlite3_step(meta)) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(meta, 0);
		const char *v = (const char *)sqlite3_column_text(meta, 1);

		meta_set(e, k ? k : "", v ? v : "");
	}
	sqlite3_reset(meta);
	return rc == SQLITE_DONE ? 0 : db_fail(s, "cannot read metadata");
}

/* The keys contract_from_config adds to e, stored. */
static int meta_write(struct store *s, sqlite3_stmt *put,
		      struct experiment_row *e)
{
	size_t have = e->nmeta, i;

	contract_from_config(e);
	for (i = have; i < e->nmeta; i++) {
		int rc;

		sqlite3_bind_int64(put, 1, e->id);
		bind_str(put, 2, e->meta[i].key);
		bind_str(put, 3, e->meta[i].value);
		rc = sqlite3_step(put);
		sqlite3_reset(put);
		if (rc != SQLITE_DONE)
			return db_fail(s, "cannot store metadata");
	}
	return 0;
}

/* An experiment (id, config_text) given the keys it lacks. */
static int contract_row(struct store *s, sqlite3_stmt **st)
{
	struct experiment_row e = { 0 };
	int bad;

	e.id = sqlite3_column_int64(st[0], 0);
	e.config_text = col_str(st[0], 1);
	bad = meta_read(s, st[1], &e) || meta_write(s, st[2], &e);
	experiment_row_release(&e);
	return bad ? -1 : 0;
}

int store_contract_migrate(struct store *s, int64_t experiment)
{
	static const char *const sql[] = {
		/* contract_from_config's own cheap test, in SQL */
		"SELECT id, config_text FROM main.experiments"
		" WHERE instr(config_text, 'auto') AND (?1 = 0 OR id = ?1)",
		"SELECT key, value FROM main.experiment_meta"
		" WHERE experiment_id = ?1 ORDER BY rowid",
		"INSERT INTO main.experiment_meta (experiment_id, key, value)"
		" VALUES (?1, ?2, ?3)",
	};

	return store_migrate_rows(s, sql, ARRAY_SIZE(sql), experiment,
				  "experiments", contract_row);
}
