/*
 * store_helpers.h - what tests/test_store.c and tests/test_store_runs.c
 * share: the fixture's names, a temporary directory per case, stderr
 * capture, raw SQL on a file, building and checking the fixture.
 */
#ifndef CONTEND_TESTS_STORE_HELPERS_H
#define CONTEND_TESTS_STORE_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db/store.h"
#include "lib/util.h"
#include "tests/checks.h"
#include "tests/store_fixture.h"
#include "tests/tmpdir.h"

static const struct fx_names plain __attribute__((unused)) = {
	"lockdep-effect", "v6.1", "mutex", "mutex-4", NULL,
};

/* Hostile strings: quotes, semicolons, SQL comments, newlines, UTF-8. */
static const struct fx_names hostile __attribute__((unused)) = {
	"x'); DROP TABLE runs; --",
	"\"; DELETE FROM samples; /* \\ */",
	"a'b\"c;d,e\nf",
	"' OR '1'='1",
	"died: 'quote' \"dq\" ; -- π ✓",
};

struct ctx {
	char dir[64];   /* first: see tmpdir_teardown */
	char path[128];
};

static inline int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c || tmpdir_create(c->dir, sizeof(c->dir), "store")) {
		free(c);
		return -1;
	}
	snprintf(c->path, sizeof(c->path), "%s/t.db", c->dir);
	*state = c;
	return 0;
}

/* ---- stderr capture, to check what the user is told ---- */

static int saved_fd = -1;
static FILE *capture;
static char captured[4096];

static inline void capture_start(void)
{
	fflush(stderr);
	capture = tmpfile();
	assert_non_null(capture);
	saved_fd = dup(2);
	assert_true(saved_fd >= 0);
	assert_true(dup2(fileno(capture), 2) >= 0);
}

static inline const char *capture_end(void)
{
	size_t n;

	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	rewind(capture);
	n = fread(captured, 1, sizeof(captured) - 1, capture);
	captured[n] = '\0';
	fclose(capture);
	return captured;
}

/* ---- files ---- */

static inline void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static inline void raw_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static inline long long raw_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Builds the fixture in a fresh database at path and closes it. */
/* The schema version of the open file, as SQLite stores it. */
static inline int store_version(struct store *s)
{
	return (int)raw_int(store_db(s), "PRAGMA user_version");
}

static inline int64_t build_file(const char *path, const struct fx_names *nm)
{
	int64_t id = fx_build_file(path, nm, NULL);

	assert_true(id > 0);
	return id;
}

static inline void load_and_check(struct store *s, int64_t id,
			   const struct fx_names *nm)
{
	struct dataset d;
	const char *diff;

	assert_int_equal(store_load(s, id, &d), 0);
	diff = fx_check(&d, nm);
	if (diff)
		fail_msg("dataset differs: %s", diff);
	dataset_release(&d);
}

/* ---- cases ---- */

#endif
