/*
 * store_upgrade.c - whether a database may be upgraded now: not while a
 * live runner holds an experiment's claim (runner/claim.h: experiment
 * meta MK_CLAIM, the process as lib/procid.h names it).  That runner is
 * an older contend, which writes the schema it knows: upgraded under it,
 * its good runs ended in a failed experiment (issue 37, item 5).
 */
#include <inttypes.h>
#include <sqlite3.h>
#include <unistd.h>

#include "db/contract.h"
#include "db/store_impl.h"
#include "lib/procid.h"
#include "lib/util.h"

int store_upgrade_check(struct store *s, int version)
{
	static const char sql[] =
		"SELECT experiment_id, value FROM main.experiment_meta"
		" WHERE key = ?1 ORDER BY experiment_id";
	sqlite3_stmt *st = NULL;
	int rc, ret = 0;

	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 1, MK_CLAIM, -1, SQLITE_STATIC);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *held = (const char *)sqlite3_column_text(st, 1);
		pid_t pid = 0;

		if (!held || !procid_alive(held, &pid) || pid == getpid()) {
			rc = SQLITE_OK;
			continue;
		}
		ret = error("%s: experiment %" PRId64 " is being run by process "
			    "%ld, a contend that writes schema %d; upgrading "
			    "the database to schema %d under it would fail its "
			    "runs: wait for it to end (or stop it), then try "
			    "again", s->path,
			    (int64_t)sqlite3_column_int64(st, 0), (long)pid,
			    version, STORE_SCHEMA_VERSION);
		break;
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(s, "cannot read the runners' claims");
	sqlite3_finalize(st);
	return ret;
}
