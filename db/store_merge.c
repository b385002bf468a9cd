/*
 * store_merge.c - copying an experiment from another database (contend
 * merge): the input is attached read-only to the store's own connection
 * and every table of the experiment is copied by one INSERT ... SELECT,
 * made from the column lists of store_stmt.c, that renumbers the ids.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/contract.h"
#include "db/facts.h"
#include "db/store_impl.h"
#include "lib/util.h"

/* The schema name of the attached input in SQL. */
#define SRC "merge_src"

/*
 * The parameters of every copy: ?1 the input's experiment id, ?2 the new
 * experiment id, ?3 and ?4 the offsets added to configuration and run ids.
 */
enum { P_SRC, P_DST, P_CONFIG_OFF, P_RUN_OFF, P_COUNT };

int store_attach(struct store *s, const struct store *in)
{
	sqlite3_stmt *st = NULL;
	char *uri;
	int ret = 0;

	if (store_is_memory(in->path))
		return error("%s: an in-memory database cannot be merged",
			     in->path);
	uri = store_readonly_uri(in);
	if (sqlite3_prepare_v2(s->db, "ATTACH DATABASE ?1 AS " SRC, -1, &st,
			       NULL) != SQLITE_OK ||
	    sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_DONE)
		ret = error("%s: cannot read %s: %s", s->path, in->path,
			    sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	free(uri);
	s->src_version = ret ? 0 : in->version;
	return ret;
}

void store_detach(struct store *s)
{
	if (s->src_version &&
	    sqlite3_exec(s->db, "DETACH DATABASE " SRC, NULL, NULL, NULL) !=
		    SQLITE_OK)
		db_fail(s, "cannot detach the merged database");
	s->src_version = 0;
}

/* Appends printf-formatted text to the malloc'd string *sql. */
__attribute__((format(printf, 2, 3)))
static void add(char **sql, const char *fmt, ...)
{
	size_t have = *sql ? strlen(*sql) : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	*sql = xrealloc(*sql, have + (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(*sql + have, (size_t)n + 1, fmt, ap);
	va_end(ap);
}

/* Which rows of t belong to the input's experiment ?1. */
static void add_filter(char **sql, const struct store_table *t)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (t->cols[i].kind == COL_EXPERIMENT) {
			add(sql, " WHERE %s = ?1", t->cols[i].name);
			return;
		}
	switch (t->cols[0].kind) {
	case COL_OWN_ID:
		add(sql, " WHERE %s = ?1", t->cols[0].name);
		break;
	case COL_CONFIG:
		add(sql, " WHERE %s IN (SELECT id FROM " SRC ".configs"
		    " WHERE experiment_id = ?1)", t->cols[0].name);
		break;
	default: /* COL_RUN: a table has a key */
		add(sql, " WHERE %s IN (SELECT id FROM " SRC ".runs"
		    " WHERE experiment_id = ?1)", t->cols[0].name);
		break;
	}
}

/*
 * INSERT INTO main.T (columns) SELECT (the same, renumbered) FROM
 * merge_src.T WHERE (of experiment ?1): the experiment's own id left out
 * for SQLite to assign, references to it ?2, configuration and run ids
 * shifted by ?3 and ?4.  Malloc'd.
 */
static char *copy_sql(const struct store_table *t)
{
	char *names = NULL, *values = NULL, *sql = NULL;
	size_t i;

	for (i = 0; i < t->ncols; i++) {
		const struct store_column *c = &t->cols[i];
		const char *sep = names ? ", " : "";

		if (c->kind == COL_OWN_ID)
			continue;
		add(&names, "%s%s", sep, c->name);
		if (c->kind == COL_EXPERIMENT)
			add(&values, "%s?2", sep);
		else if (c->kind == COL_CONFIG || c->kind == COL_RUN)
			add(&values, "%s%s + ?%d", sep, c->name,
			    c->kind == COL_CONFIG ? 3 : 4);
		else
			add(&values, "%s%s", sep, c->name);
	}
	add(&sql, "INSERT INTO main.%s (%s) SELECT %s FROM " SRC ".%s",
	    t->name, names, values, t->name);
	add_filter(&sql, t);
	if (t->order)
		add(&sql, " ORDER BY %s", t->order);
	free(names);
	free(values);
	return sql;
}

/* Runs sql with the copy's parameters; the first row's columns in v. */
static int copy_run(struct store *s, const char *sql, const int64_t *args,
		    int64_t *v, int nv, const char *what)
{
	sqlite3_stmt *st = NULL;
	int rc, i, n, ret = -1;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	n = sqlite3_bind_parameter_count(st);
	for (i = 0; i < n && i < P_COUNT; i++)
		if (sqlite3_bind_int64(st, i + 1, args[i]) != SQLITE_OK)
			goto out;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		for (i = 0; i < nv; i++)
			v[i] = sqlite3_column_int64(st, i);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		ret = 0;
out:
	if (ret)
		db_fail(s, what);
	sqlite3_finalize(st);
	return ret;
}

/*
 * New ids are old ids plus an offset that puts the smallest of the
 * experiment just above everything the store holds: relative order is
 * kept and nothing collides.
 */
static int copy_offsets(struct store *s, int64_t *args)
{
	static const char sql[] =
		"SELECT (SELECT coalesce(max(id), 0) FROM main.configs) + 1 -"
		" (SELECT coalesce(min(id), 1) FROM " SRC ".configs"
		"  WHERE experiment_id = ?1),"
		" (SELECT coalesce(max(id), 0) FROM main.runs) + 1 -"
		" (SELECT coalesce(min(id), 1) FROM " SRC ".runs"
		"  WHERE experiment_id = ?1)";

	return copy_run(s, sql, args, &args[P_CONFIG_OFF], 2,
			"cannot read ids");
}

/* Every table of the experiment, parents first; 0 or -1. */
static int copy_tables(struct store *s, int64_t *args)
{
	size_t t;

	for (t = T_EXPERIMENTS; t < T_COUNT; t++) {
		const struct store_table *tb = &store_tables[t];
		char *sql, *what;
		int ret;

		if (tb->since > s->src_version)
			continue; /* an older input lacks the table */
		sql = copy_sql(tb);
		what = xasprintf("cannot copy %s", tb->name);
		ret = copy_run(s, sql, args, NULL, 0, what);
		free(sql);
		free(what);
		if (ret)
			return -1;
		if (t == T_EXPERIMENTS) {
			args[P_DST] = sqlite3_last_insert_rowid(s->db);
			if (copy_offsets(s, args))
				return -1;
		}
	}
	return 0;
}

int store_copy_experiment(struct store *s, int64_t id)
{
	static const char present_sql[] =
		"SELECT count(*) FROM main.experiments WHERE uuid ="
		" (SELECT uuid FROM " SRC ".experiments WHERE id = ?1)";
	int64_t args[P_COUNT] = { id, 0, 0, 0 }, present = 0;
	bool outer;
	int ret;

	if (!s->src_version)
		return error("%s: no database attached to copy from", s->path);
	/* The first read of the input fixes its snapshot for the copy. */
	if (txn_begin(s, &outer))
		return -1;
	ret = copy_run(s, present_sql, args, &present, 1,
		       "cannot look up the uuid");
	if (!ret && !present)
		ret = copy_tables(s, args);
	/* its stored commands are not this database's to run unasked
	 * (contend run --resume --allow-stored-commands) */
	if (!ret && !present)
		ret = store_meta_set(s, args[P_DST], MK_MERGED_INTO, s->path);
	/* an experiment of an older input gets the keys an upgrade writes */
	if (!ret && !present && s->src_version < STORE_CONTRACT_VERSION)
		ret = store_contract_migrate(s, args[P_DST]);
	if (!ret && !present && s->src_version < STORE_FACTS_VERSION)
		ret = store_facts_migrate(s, args[P_DST]);
	if (txn_end(s, outer, ret))
		return -1;
	return present ? 0 : 1;
}
