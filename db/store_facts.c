/*
 * store_facts.c - the host facts an older contend stored as sentences,
 * rewritten as the words, numbers and lists stored now (fact_word,
 * db/facts.h): when a database is upgraded past STORE_FACTS_VERSION and
 * when an experiment is merged from an older one.
 */
#include <sqlite3.h>
#include <stdlib.h>

#include "db/facts.h"
#include "db/store_impl.h"
#include "lib/util.h"

/* A row (rowid, key, value) of experiment_meta, rewritten when it is a
 * sentence an older contend stored. */
static int fact_row(struct store *s, sqlite3_stmt **st)
{
	const char *k = (const char *)sqlite3_column_text(st[0], 1);
	const char *v = (const char *)sqlite3_column_text(st[0], 2);
	char *word = k && v ? fact_word(k, v) : NULL;
	int rc;

	if (!word)
		return 0;
	sqlite3_bind_int64(st[1], 1, sqlite3_column_int64(st[0], 0));
	bind_str(st[1], 2, word);
	rc = sqlite3_step(st[1]);
	sqlite3_reset(st[1]);
	free(word);
	return rc == SQLITE_DONE ? 0 : db_fail(s, "cannot rewrite a host fact");
}

int store_facts_migrate(struct store *s, int64_t experiment)
{
	static const char *const sql[] = {
		"SELECT rowid, key, value FROM main.experiment_meta"
		" WHERE ?1 = 0 OR experiment_id = ?1",
		"UPDATE main.experiment_meta SET value = ?2 WHERE rowid = ?1",
	};

	return store_migrate_rows(s, sql, ARRAY_SIZE(sql), experiment,
				  "the host facts", fact_row);
}
