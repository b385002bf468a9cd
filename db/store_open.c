/*
 * store_open.c - opening a database: the path's checks, SQLite's defensive
 * settings, the schema's version and objects (refusing what contend cannot
 * use or did not create: store_schema.c), creating and upgrading the
 * schema, WAL, a WAL file on read-only media; the checks after a long
 * write; closing; transactions.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/contract.h"
#include "db/facts.h"
#include "db/store_impl.h"
#include "lib/escape.h"
#include "lib/util.h"

extern const char store_schema_sql[]; /* build/db/schema.c, from schema.sql */

const char *store_default_path(void)
{
	static char path[4096];
	const char *p = getenv("CONTEND_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n;

	if (p && *p)
		return p;
	/* the XDG base directory spec ignores a relative XDG_DATA_HOME */
	if (xdg && *xdg == '/')
		n = snprintf(path, sizeof(path), "%s/" STORE_DATA_PATH, xdg);
	else if (home && *home == '/')
		n = snprintf(path, sizeof(path), "%s/.local/share/"
			     STORE_DATA_PATH, home);
	else
		return STORE_DEFAULT_PATH;
	return n > 0 && (size_t)n < sizeof(path) ? path : STORE_DEFAULT_PATH;
}

int store_make_parent(const char *path)
{
	char *dir = xstrdup(path), *p;
	int ret = 0;

	/* every directory on the way, as mkdir -p: each may exist already */
	for (p = strchr(dir + 1, '/'); p && !ret; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(dir, 0777) && errno != EEXIST)
			ret = error("cannot create %s: %s", escape_quote(dir),
				    strerror(errno));
		*p = '/';
	}
	free(dir);
	return ret;
}

bool store_is_memory(const char *path)
{
	return !strcmp(path, ":memory:");
}

/*
 * Reads the schema version and whether the file holds any table.  This is
 * the first read of the file, so it is where SQLite notices a file that is
 * not a database, or one shorter than its header says (truncated): those
 * are STORE_BAD_FILE, any other failure -1.
 */
static int schema_probe(struct store *s, int *version, int *ntables)
{
	static const char sql[] =
		"SELECT (SELECT user_version FROM pragma_user_version),"
		" (SELECT count(*) FROM sqlite_schema)";
	sqlite3_stmt *st = NULL;
	int rc, ret = -1;

	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*version = sqlite3_column_int(st, 0);
		*ntables = sqlite3_column_int(st, 1);
		ret = 0;
	} else if ((rc & 0xff) == SQLITE_NOTADB) {
		error("%s: file is not a database", s->path);
		ret = STORE_BAD_FILE;
	} else if ((rc & 0xff) == SQLITE_CORRUPT) {
		error("%s: database is truncated or corrupt (%s)", s->path,
		      sqlite3_errmsg(s->db));
		ret = STORE_BAD_FILE;
	} else {
		db_fail(s, "cannot read the database");
	}
	sqlite3_finalize(st);
	return ret;
}

/*
 * Creates the schema, or upgrades an older one by running the script
 * again (every statement in it is IF NOT EXISTS, and it sets the
 * version) and migrating its data (store_contract_migrate), unless a
 * concurrent opener just did; never under a live runner's claim
 * (store_upgrade_check).
 */
static int schema_create(struct store *s)
{
	char *msg = NULL;
	int version, ntables, ret = -1;
	bool outer;

	if (txn_begin(s, &outer))
		return -1;
	if (schema_probe(s, &version, &ntables))
		goto out;
	if (version > 0 && version < STORE_SCHEMA_VERSION &&
	    store_upgrade_check(s, version))
		goto out;
	if ((version == 0 ? ntables == 0 : version < STORE_SCHEMA_VERSION) &&
	    sqlite3_exec(s->db, store_schema_sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("%s: cannot create the schema: %s", s->path, msg);
		goto out;
	}
	/* the data an older version did not store, written once */
	if (version > 0 && version < STORE_CONTRACT_VERSION &&
	    store_contract_migrate(s, 0))
		goto out;
	if (version > 0 && version < STORE_FACTS_VERSION &&
	    store_facts_migrate(s, 0))
		goto out;
	ret = 0;
out:
	sqlite3_free(msg);
	return txn_end(s, outer, ret);
}

static int pragma(struct store *s, const char *sql)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(s, sql);
	return 0;
}

/* 1 when the file is in WAL mode, 0 when not; -1 (reported) on error. */
static int journal_is_wal(struct store *s)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode", -1, &st, NULL),
	    wal = -1;

	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *mode = sqlite3_column_text(st, 0);

		wal = mode && !strcmp((const char *)mode, "wal");
	}
	sqlite3_finalize(st);
	if (wal < 0)
		db_fail(s, "PRAGMA journal_mode");
	return wal;
}

/*
 * WAL, unless the file is in WAL already (asking the mode only needs a
 * read).  Switching needs the database to itself, and when two runners
 * open one new file at once, each holding its read lock, SQLite refuses
 * one of them at once (SQLITE_BUSY without calling the busy handler: the
 * two would otherwise wait for each other).  So the refused one retries,
 * and finds the other's switch done, up to the usual busy timeout
 * (tests/faults/concurrent.sh).
 */
static int wal_on(struct store *s)
{
	const double give_up = now_monotonic() + STORE_BUSY_MS / 1000.0;
	int wal;

	while ((wal = journal_is_wal(s)) == 0) {
		int rc = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL,
				      NULL, NULL);

		/* OK also when the file cannot be WAL (:memory:) */
		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY || now_monotonic() > give_up)
			return db_fail(s, "PRAGMA journal_mode = WAL");
		sqlite3_sleep(10);
	}
	return wal < 0 ? -1 : 0;
}

/*
 * Checks the version before anything writes: a newer or foreign database
 * is refused untouched (even switching to WAL would rewrite its header).
 * A file that is not a contend database is STORE_BAD_FILE.
 */
static int schema_check(struct store *s)
{
	int version, ntables, ret;

	ret = schema_probe(s, &version, &ntables);
	if (ret)
		return ret;
	if (version < 0) {
		error("%s: not a contend database (schema version %d)", s->path,
		      version);
		return STORE_BAD_FILE;
	}
	if (version > STORE_SCHEMA_VERSION) {
		error("%s: written by a newer contend (schema %d > %d)",
		      s->path, version, STORE_SCHEMA_VERSION);
		return STORE_BAD_FILE;
	}
	if (version == 0 && ntables > 0) {
		error("%s: not a contend database (a SQLite file with other "
		      "tables)", s->path);
		return STORE_BAD_FILE;
	}
	if (version == 0 && !(s->flags & STORE_CREATE)) {
		error("%s: not a contend database (empty)", s->path);
		return STORE_BAD_FILE;
	}
	/* before the first read of a table and the first write */
	if (version > 0 && (ret = store_schema_verify(s, version)))
		return ret;
	s->version = version;
	if (s->flags & STORE_RDONLY)
		return 0;
	/* SQLite silently opens a write-protected file read-only. */
	if (sqlite3_db_readonly(s->db, "main") == 1)
		return error("%s: the database is read-only (no write permission "
			     "on the file or its file system)", s->path);
	/*
	 * WAL: a report reads while a run writes.  synchronous=NORMAL: a
	 * commit is durable against a crash of contend (SIGKILL included)
	 * and the file stays consistent on power loss, without an fsync per
	 * run.
	 */
	if (wal_on(s) || pragma(s, "PRAGMA synchronous = NORMAL"))
		return -1;
	if (version < STORE_SCHEMA_VERSION && schema_create(s))
		return -1;
	s->version = STORE_SCHEMA_VERSION;
	return 0;
}

/*
 * Why path cannot be written to, into buf; NULL when it can.  Asked up
 * front: SQLite opens a write-protected file read-only without a word, and
 * fails with only "unable to open database file" when it cannot create the
 * -wal and -shm files beside it (a read-only file system).
 */
static const char *why_unwritable(const char *path, char *buf, size_t len)
{
	char *dir = dir_of(path);
	const char *why = NULL;

	if (access(dir, W_OK)) {
		snprintf(buf, len, "cannot write in %s: %s",
			 escape_quote(dir), strerror(errno));
		why = buf;
	} else if (!access(path, F_OK) && access(path, W_OK)) {
		snprintf(buf, len, "%s", strerror(errno));
		why = buf;
	}
	free(dir);
	return why;
}

/*
 * A WAL database on read-only media (no -shm beside it, none creatable)
 * can only be read as immutable; no connection can be writing it then,
 * since a writer keeps a -shm file.
 */
static bool needs_immutable(const char *path)
{
	char *shm = xasprintf("%s-shm", path), *dir = dir_of(path);
	bool plain = !access(shm, F_OK) || !access(dir, W_OK);

	free(shm);
	free(dir);
	return !plain;
}

/*
 * file:PATH?query, with the URI's own characters escaped, malloc'd.  Every
 * file is opened through a URI, so that ATTACH (store_merge.c) can name
 * its mode too; an absolute path gets the empty authority ("file:///"),
 * so that "//x" is not read as a host.
 */
static char *file_uri(const char *path, const char *query)
{
	char *uri = xmalloc(3 * strlen(path) + strlen(query) + 16);
	size_t i, n;

	n = (size_t)sprintf(uri, "file:%s", path[0] == '/' ? "//" : "");
	for (i = 0; path[i]; i++)
		n += strchr("%?#", path[i])
			? (size_t)sprintf(uri + n, "%%%02X", (unsigned char)path[i])
			: (size_t)sprintf(uri + n, "%c", path[i]);
	sprintf(uri + n, "%s%s", *query ? "?" : "", query);
	return uri;
}

/* The URI of what s reads, plain (its query when not immutable). */
static char *readonly_uri(const struct store *s, const char *plain)
{
	if (s->copy)
		return file_uri(s->copy, plain);
	return file_uri(s->path, needs_immutable(s->path) ? "immutable=1"
							  : plain);
}

char *store_readonly_uri(const struct store *in)
{
	return readonly_uri(in, "mode=ro");
}

/*
 * A writer killed while it created the database (before the switch to
 * WAL) leaves a hot rollback journal, which only a connection allowed to
 * write may roll back: a read-only open fails with "attempt to write a
 * readonly database".  So a reader that may write the file first lets
 * SQLite roll it back through a brief read-write connection; that only
 * restores the last commit, nothing of ours is written
 * (tests/faults/kill9.sh kills runners that early).
 */
static void recover_hot_journal(const char *path)
{
	char *journal = xasprintf("%s-journal", path);
	sqlite3 *db = NULL;

	if (!access(journal, F_OK) && !access(path, W_OK) &&
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
		sqlite3_busy_timeout(db, STORE_BUSY_MS);
		sqlite3_exec(db, "SELECT count(*) FROM sqlite_schema", NULL,
			     NULL, NULL);
	}
	sqlite3_close(db);
	free(journal);
}

/*
 * The file named must be one: an empty name (SQLite's private temporary
 * database, gone at exit: `--db ''` stored nothing), a directory, a FIFO
 * or device (SQLite's open of a FIFO waits for a writer forever), or a
 * missing file where none is to be created, is bad input
 * (STORE_BAD_FILE).  SQLite's own messages say neither which file nor
 * why ("disk I/O error" for a directory).
 */
static int path_check(const char *path, unsigned flags)
{
	struct stat st;

	if (!*path) {
		error("the database path is empty");
		return STORE_BAD_FILE;
	}
	if (store_is_memory(path))
		return 0;
	if (stat(path, &st)) {
		if (errno == ENOENT && (flags & STORE_CREATE))
			return 0;
		error("cannot open database %s: %s", escape_quote(path),
		      strerror(errno));
		return errno == ENOENT || errno == ENOTDIR ? STORE_BAD_FILE : -1;
	}
	if (S_ISDIR(st.st_mode)) {
		error("cannot open database %s: it is a directory",
		      escape_quote(path));
		return STORE_BAD_FILE;
	}
	if (!S_ISREG(st.st_mode)) {
		error("cannot open database %s: not a regular file (a %s)",
		      escape_quote(path),
		      S_ISFIFO(st.st_mode) ? "FIFO" : S_ISSOCK(st.st_mode)
		      ? "socket" : "device");
		return STORE_BAD_FILE;
	}
	return 0;
}

/*
 * What the file holds runs only as far as contend lets it: no SQL
 * function with side effects and no virtual table of an unsafe kind in
 * its views and triggers (trusted_schema off), and no change to the
 * schema's own storage (defensive).  The schema check (store_schema.c)
 * then refuses any trigger or view that is not contend's.
 */
static int defend(struct store *s)
{
	int on = -1, trusted = -1;

	if (sqlite3_db_config(s->db, SQLITE_DBCONFIG_DEFENSIVE, 1, &on) !=
		    SQLITE_OK || on != 1 ||
	    sqlite3_db_config(s->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0,
			      &trusted) != SQLITE_OK || trusted != 0)
		return db_fail(s, "cannot open the database defensively");
	return 0;
}

int store_exit_status(int ret)
{
	return ret == STORE_BAD_FILE ? EXIT_USAGE : EXIT_RUNTIME;
}

int store_open(const char *path, unsigned flags, struct store **out)
{
	struct store *s = xcalloc(1, sizeof(*s));
	char whybuf[512], *uri = NULL;
	const char *why;
	int oflags, ret = -1;

	*out = NULL;
	s->path = xstrdup(path);
	s->flags = flags;
	if (flags & STORE_RDONLY) {
		s->flags &= ~(unsigned)STORE_CREATE;
		oflags = SQLITE_OPEN_READONLY;
	} else {
		oflags = SQLITE_OPEN_READWRITE;
		if (flags & STORE_CREATE)
			oflags |= SQLITE_OPEN_CREATE;
	}
	ret = path_check(path, s->flags);
	if (ret)
		goto out;
	ret = -1;
	if (!(flags & STORE_RDONLY) && !store_is_memory(path) &&
	    (why = why_unwritable(path, whybuf, sizeof(whybuf)))) {
		error("cannot write database %s: %s", escape_quote(path), why);
		goto out;
	}
	if ((flags & STORE_RDONLY) && !store_is_memory(path)) {
		recover_hot_journal(path);
		store_copy_sweep();
		if (needs_immutable(path) && store_copy_make(s))
			goto out;
		uri = readonly_uri(s, "");
	} else if (!store_is_memory(path)) {
		uri = file_uri(path, "");
	}
	/*
	 * No SQLite mutexes: a store (its cached statements included) is
	 * used by one thread at a time anyway, and locking every call was
	 * 3% of a report at a million samples.
	 */
	oflags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI;
	if (sqlite3_open_v2(uri ? uri : path, &s->db, oflags, NULL) != SQLITE_OK) {
		error("cannot open database %s: %s%s", escape_quote(path),
		      s->db ? sqlite3_errmsg(s->db) : "out of memory",
		      fd_shortage());
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, STORE_BUSY_MS);
	if (pragma(s, "PRAGMA foreign_keys = ON") || defend(s))
		goto out;
	ret = schema_check(s);
	if (ret)
		goto out;
	if (!store_is_memory(path)) {
		struct stat st;

		if (stat(path, &st)) {
			ret = error("%s: %s", path, strerror(errno));
			goto out;
		}
		s->dev = st.st_dev;
		s->ino = st.st_ino;
	}
	*out = s;
out:
	free(uri);
	if (ret)
		store_close(s);
	return ret;
}

int store_check_file(struct store *s, bool quick)
{
	sqlite3_stmt *st = NULL;
	struct stat now;
	int rc, ret = 0;

	if (store_is_memory(s->path))
		return 0;
	errno = 0;
	if (stat(s->path, &now) || now.st_dev != s->dev || now.st_ino != s->ino)
		return error("%s: the database was %s while contend wrote it: "
			     "what was written since is not in it", s->path,
			     errno == ENOENT ? "removed" : "replaced");
	if (!quick)
		return 0;
	rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check", -1, &st, NULL);
	if (rc == SQLITE_OK)
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *msg = (const char *)sqlite3_column_text(st, 0);

			if (msg && strcmp(msg, "ok")) {
				ret = error("%s: the database is damaged: %s",
					    s->path, msg);
				break;
			}
		}
	if (!ret && rc != SQLITE_DONE)
		ret = error("%s: the database is damaged: %s", s->path,
			    sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	return ret;
}

int store_run_counts(struct store *s, int64_t experiment,
		     long counts[RUN_NSTATUS])
{
	static const char sql[] =
		"SELECT status, count(*) FROM runs WHERE experiment_id = ?1"
		" GROUP BY status";
	sqlite3_stmt *st = NULL;
	int rc, ret = 0;

	memset(counts, 0, RUN_NSTATUS * sizeof(*counts));
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 1, experiment);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	for (; rc == SQLITE_ROW; rc = sqlite3_step(st)) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		int i = name ? run_status_parse(name) : -1;

		if (i < 0) {
			ret = error("%s: experiment %" PRId64 ": a run of "
				    "unknown status '%s'", s->path, experiment,
				    name ? name : "NULL");
			break;
		}
		counts[i] = (long)sqlite3_column_int64(st, 1);
	}
	if (!ret && rc != SQLITE_DONE)
		ret = db_fail(s, "cannot count the runs");
	sqlite3_finalize(st);
	return ret;
}

void store_close(struct store *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	if (s->db && sqlite3_close(s->db) != SQLITE_OK)
		db_fail(s, "cannot close the database");
	store_copy_remove(s);
	free(s->buf);
	free(s->path);
	free(s);
}

/* A test seam (scripts/symbols-allow.txt): the tests' raw SQL. */
struct sqlite3 *store_db(struct store *s)
{
	return s->db;
}

int store_cache_limit(struct store *s, long kib)
{
	char sql[64];

	if (kib <= 0)
		return error("store_cache_limit: %ld KiB is not a size", kib);
	/* A negative cache_size is a size in KiB rather than in pages. */
	snprintf(sql, sizeof(sql), "PRAGMA cache_size = -%ld", kib);
	return pragma(s, sql);
}

int store_begin(struct store *s)
{
	return stmt_exec(s, ST_BEGIN);
}

int store_commit(struct store *s)
{
	return stmt_exec(s, ST_COMMIT);
}

void store_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		stmt_exec(s, ST_ROLLBACK);
}

