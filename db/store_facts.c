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

int store_facts_migrate(struct store *s, int64_t experiment)
{
	static const char *const sql[] = {
		"SELECT rowid, key, value FROM main.experiment_meta"
		" WHERE ?1 = 0 OR experiment_id = ?1",
		"UPDATE main.experiment_meta SET value = ?2 WHERE rowid = ?1",
	};
	sqlite3_stmt *st[ARRAY_SIZE(sql)] = { NULL };
	size_t i;
	int rc = SQLITE_OK, ret = -1;

	for (i = 0; i < ARRAY_SIZE(sql) && rc == SQLITE_OK; i++)
		rc = sqlite3_prepare_v2(s->db, sql[i], -1, &st[i], NULL);
	if (rc != SQLITE_OK) {
		db_fail(s, "cannot prepare the host facts' migration");
		goto out;
	}
	sqlite3_bind_int64(st[0], 1, experiment);
	while ((rc = sqlite3_step(st[0])) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st[0], 1);
		const char *v = (const char *)sqlite3_column_text(st[0], 2);
		char *word = k && v ? fact_word(k, v) : NULL;

		if (!word)
			continue;
		sqlite3_bind_int64(st[1], 1, sqlite3_column_int64(st[0], 0));
		bind_str(st[1], 2, word);
		rc = sqlite3_step(st[1]);
		sqlite3_reset(st[1]);
		free(word);
		if (rc != SQLITE_DONE) {
			db_fail(s, "cannot rewrite a host fact");
			goto out;
		}
	}
	if (rc != SQLITE_DONE)
		db_fail(s, "cannot read the host facts");
	else
		ret = 0;
out:
	for (i = 0; i < ARRAY_SIZE(sql); i++)
		sqlite3_finalize(st[i]);
	return ret;
}
