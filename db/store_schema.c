/*
 * store_schema.c - the schema check: a database contend opens holds
 * nothing but contend's own tables, indexes, view and trigger, each as
 * db/schema.sql defines it.  Anything else (a trigger on samples that
 * rewrites every value, a view named runs that never ends, an extra
 * table or index, a table of the right name with other columns) is
 * refused, naming it, before contend reads or writes a row: SQLite runs
 * a database's triggers on contend's writes and its views on contend's
 * reads (docs/STORAGE.md, "The schema check").
 *
 * The objects expected are those SQLite itself records when it runs
 * schema.sql (compiled in) on an empty in-memory database; each object of
 * the file is looked up by name and must have the same type, the same
 * table and the same definition (sqlite_schema.sql), compared with
 * comments and layout taken out so that the text an older contend wrote,
 * whose comments differ, still matches.  Reading sqlite_schema runs
 * nothing of the file.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store_impl.h"
#include "lib/escape.h"
#include "lib/util.h"

extern const char store_schema_sql[]; /* build/db/schema.c, from schema.sql */

/* Messages about one file stop here; the count of the rest follows. */
#define SCHEMA_MAX_REPORTS 5

struct schema_obj {
	char *type, *name, *table, *sql; /* sql normalized; NULL for autoindexes */
	bool seen;
};

/* Characters around which a space says nothing in SQL. */
static bool is_punct(char c)
{
	return c && strchr("(),;", c);
}

/*
 * The definition sql without its comments and layout, malloc'd: comments
 * (-- to the end of the line, and between slash-star and star-slash)
 * dropped, each run of white space one space, none next to ( ) , ;.
 * Quoted text ('...', "...", `...`, [...]) is copied as it is, so two
 * texts are equal only when SQLite reads them the same.  NULL stays NULL.
 */
static char *sql_normal(const char *sql)
{
	char *out, *o;
	const char *p;
	bool space = false;

	if (!sql)
		return NULL;
	out = o = xmalloc(strlen(sql) + 1);
	for (p = sql; *p;) {
		if (p[0] == '-' && p[1] == '-') {
			p += strcspn(p, "\n");
			space = true;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			p = end ? end + 2 : p + strlen(p);
			space = true;
		} else if (isspace((unsigned char)*p)) {
			p++;
			space = true;
		} else {
			if (space && o > out && !is_punct(o[-1]) && !is_punct(*p))
				*o++ = ' ';
			space = false;
			if (strchr("'\"`[", *p)) {
				/* a quoted run, to its closing quote ('' reopens one) */
				char close = *p;

				if (close == '[')
					close = ']';
				*o++ = *p++;
				while (*p && *p != close)
					*o++ = *p++;
			}
			if (*p)
				*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

static void objs_free(struct schema_obj *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].type);
		free(v[i].name);
		free(v[i].table);
		free(v[i].sql);
	}
	free(v);
}

/* The rows of db's main.sqlite_schema into *v; SQLite's result code. */
static int objs_read(sqlite3 *db, struct schema_obj **v, size_t *n)
{
	static const char sql[] =
		"SELECT type, name, tbl_name, sql FROM main.sqlite_schema";
	sqlite3_stmt *st = NULL;
	int rc;

	*v = NULL;
	*n = 0;
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct schema_obj *o;

		*v = xgrow(*v, *n, sizeof(**v));
		o = &(*v)[(*n)++];
		memset(o, 0, sizeof(*o));
		o->type = col_str(st, 0);
		o->name = col_str(st, 1);
		o->table = col_str(st, 2);
		o->sql = sql_normal((const char *)sqlite3_column_text(st, 3));
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* What schema.sql creates, as SQLite records it; 0 or -1. */
static int objs_expected(struct schema_obj **v, size_t *n)
{
	sqlite3 *db = NULL;
	int rc;

	rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, store_schema_sql, NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = objs_read(db, v, n);
	if (rc != SQLITE_OK)
		error("cannot build contend's schema to check against: %s",
		      db ? sqlite3_errmsg(db) : "out of memory");
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

/* The schema version that added an object: its table's (store_stmt.c). */
static int obj_since(const struct schema_obj *o)
{
	size_t t;

	for (t = T_EXPERIMENTS; t < T_COUNT; t++)
		if (!strcmp(store_tables[t].name, o->table))
			return store_tables[t].since;
	return 1;
}

/*
 * SQLite's statistics (ANALYZE, PRAGMA optimize) only steer its choice
 * of plan: a database someone analysed is still contend's.
 */
static bool is_statistics(const struct schema_obj *o)
{
	return !strcmp(o->type, "table") &&
	       (!strcmp(o->name, "sqlite_stat1") ||
		!strcmp(o->name, "sqlite_stat4"));
}

/* Both NULL (an index SQLite made for a constraint) or equal. */
static bool same_text(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static struct schema_obj *find(struct schema_obj *v, size_t n,
			       const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

/*
 * Says what is wrong with o ("trigger 'evil' on 'samples' is not
 * contend's"), the first few times; names escaped, they come from the
 * file.
 */
static void report(struct store *s, int *nbad, const struct schema_obj *o,
		   const char *what)
{
	char *name, *table;

	if (++*nbad > SCHEMA_MAX_REPORTS)
		return;
	name = escape_text_dup(o->name);
	table = escape_text_dup(o->table);
	if (!name || !table)
		abort();
	if (strcmp(o->name, o->table))
		error("%s: %s '%s' on '%s' %s", s->path, o->type, name, table,
		      what);
	else
		error("%s: %s '%s' %s", s->path, o->type, name, what);
	free(name);
	free(table);
}

/* Compares the file's objects with want; the number found wrong. */
static int compare(struct store *s, int version, struct schema_obj *have,
		   size_t nhave, struct schema_obj *want, size_t nwant)
{
	int nbad = 0;
	size_t i;

	for (i = 0; i < nhave; i++) {
		struct schema_obj *w = find(want, nwant, have[i].name);

		if (is_statistics(&have[i]))
			continue;
		if (!w)
			report(s, &nbad, &have[i], "is not contend's");
		else if (strcmp(w->type, have[i].type) ||
			 strcmp(w->table, have[i].table)) {
			char *what = xasprintf("is not contend's (contend's is "
					       "a %s)", w->type);

			report(s, &nbad, &have[i], what);
			free(what);
		} else if (!same_text(w->sql, have[i].sql))
			report(s, &nbad, &have[i], "differs from contend's "
			       "definition (other columns or constraints)");
		else
			w->seen = true;
	}
	for (i = 0; i < nwant; i++)
		if (!want[i].seen && !find(have, nhave, want[i].name) &&
		    obj_since(&want[i]) <= version)
			report(s, &nbad, &want[i], "of contend's schema is missing");
	return nbad;
}

int store_schema_verify(struct store *s, int version)
{
	struct schema_obj *have = NULL, *want = NULL;
	size_t nhave = 0, nwant = 0;
	int nbad, ret = -1;

	if (objs_expected(&want, &nwant))
		goto out;
	if (objs_read(s->db, &have, &nhave) != SQLITE_OK) {
		db_fail(s, "cannot read the schema");
		goto out;
	}
	nbad = compare(s, version, have, nhave, want, nwant);
	ret = 0;
	if (nbad) {
		if (nbad > SCHEMA_MAX_REPORTS)
			error("%s: and %d more object%s not as contend made "
			      "%s", s->path, nbad - SCHEMA_MAX_REPORTS,
			      nbad - SCHEMA_MAX_REPORTS == 1 ? "" : "s",
			      nbad - SCHEMA_MAX_REPORTS == 1 ? "it" : "them");
		error("%s: refusing a database whose schema is not contend's "
		      "(docs/STORAGE.md, \"The schema check\")", s->path);
		ret = STORE_BAD_FILE;
	}
out:
	objs_free(have, nhave);
	objs_free(want, nwant);
	return ret;
}
