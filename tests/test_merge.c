/*
 * test_merge.c - `contend merge`: experiments of two databases copied into
 * a third that already holds one (so ids must be remapped) equal their
 * originals row for row; merging again skips them with a notice; inputs
 * are left untouched; bad inputs are refused before anything is written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sqlite3.h>
#include <sys/stat.h>

#include "db/store.h"
#include "cli/commands.h"
#include "tests/capture.h"
#include "tests/checks.h"
#include "tests/store_fixture.h"
#include "tests/tmpdir.h"

static const struct fx_names names_a = {
	"lockdep-effect", "v6.1", "mutex", "mutex-4", NULL,
};
static const struct fx_names names_hostile = {
	"x'); DROP TABLE runs; --", "\"; DELETE FROM samples; --",
	"a'b\"c;d,e\nf", "' OR '1'='1", "died: 'q' \"dq\" ;",
};
static const struct fx_names names_b = {
	"lockdep-effect", "v6.2", "mutex", "mutex-4", "exit status 3",
};
static const struct fx_names names_out = {
	"already-there", "old", "s1", "s2", NULL,
};

struct ctx {
	char dir[64];   /* first: see tmpdir_teardown */
	char a[96], b[96], out[96], text[96];
	char uuid[3][40];   /* a: plain, a: hostile, b */
};

/* Adds the fixture named nm to the database at path; its uuid to uuid. */
static void build(const char *path, const struct fx_names *nm, char *uuid)
{
	assert_true(fx_build_file(path, nm, uuid) > 0);
}

/* A holds two experiments, B one, OUT one of its own. */
static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c || tmpdir_create(c->dir, sizeof(c->dir), "merge")) {
		free(c);
		return -1;
	}
	snprintf(c->a, sizeof(c->a), "%s/a.db", c->dir);
	snprintf(c->b, sizeof(c->b), "%s/b.db", c->dir);
	snprintf(c->out, sizeof(c->out), "%s/out.db", c->dir);
	snprintf(c->text, sizeof(c->text), "%s/notes.txt", c->dir);
	build(c->a, &names_a, c->uuid[0]);
	build(c->a, &names_hostile, c->uuid[1]);
	build(c->b, &names_b, c->uuid[2]);
	build(c->out, &names_out, NULL);
	*state = c;
	return 0;
}

/*
 * Every row of the experiment with this uuid, ids replaced by the stable
 * keys (configuration pos, run seq), one line per row with typed values.
 * Returns the dump and, per table, whether it had rows.
 */
static const char *const dump_sql[] = {
	"SELECT uuid, name, label, config_path, config_text, seed, run_order,"
	" confidence, status, created_at, finished_at FROM experiments"
	" WHERE id = ?1",
	/* the merge's own mark of a copy (merged_into) is checked apart */
	"SELECT key, value FROM experiment_meta WHERE experiment_id = ?1"
	" AND key <> 'merged_into' ORDER BY rowid",
	"SELECT pos, workload, section, canon, noise, timeout_s FROM configs"
	" WHERE experiment_id = ?1 ORDER BY pos",
	"SELECT c.pos, p.pos, p.key, p.value FROM configs c JOIN config_params p"
	" ON p.config_id = c.id WHERE c.experiment_id = ?1 ORDER BY c.pos, p.pos",
	"SELECT r.seq, c.pos, r.repetition, r.warmup, r.status, r.error,"
	" r.started_at, r.wall_s, r.env_pad FROM runs r JOIN configs c"
	" ON c.id = r.config_id WHERE r.experiment_id = ?1 ORDER BY r.seq",
	"SELECT r.seq, s.metric, s.value FROM runs r JOIN samples s"
	" ON s.run_id = r.id WHERE r.experiment_id = ?1 ORDER BY r.seq, s.metric",
	"SELECT r.seq, t.ops FROM runs r JOIN run_threads t ON t.run_id = r.id"
	" WHERE r.experiment_id = ?1 ORDER BY r.seq",
};
#define NDUMP (sizeof(dump_sql) / sizeof(dump_sql[0]))

static void append(char **buf, size_t *len, const char *s)
{
	size_t n = strlen(s);

	*buf = realloc(*buf, *len + n + 1);
	assert_non_null(*buf);
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

static void dump_value(char **buf, size_t *len, sqlite3_stmt *st, int i)
{
	char num[64];

	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		append(buf, len, "NULL|");
		return;
	case SQLITE_INTEGER:
		snprintf(num, sizeof(num), "i%lld|", sqlite3_column_int64(st, i));
		append(buf, len, num);
		return;
	case SQLITE_FLOAT:
		snprintf(num, sizeof(num), "r%a|", sqlite3_column_double(st, i));
		append(buf, len, num);
		return;
	default:
		append(buf, len, "t");
		append(buf, len, (const char *)sqlite3_column_text(st, i));
		append(buf, len, "|");
	}
}

static char *dump(const char *path, const char *uuid, size_t rows[NDUMP])
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char *buf = NULL;
	size_t len = 0, q;
	int64_t id;
	int i;

	append(&buf, &len, "");
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT id FROM experiments"
					    " WHERE uuid = ?1", -1, &st, NULL),
			 SQLITE_OK);
	sqlite3_bind_text(st, 1, uuid, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	for (q = 0; q < NDUMP; q++) {
		assert_int_equal(sqlite3_prepare_v2(db, dump_sql[q], -1, &st, NULL),
				 SQLITE_OK);
		sqlite3_bind_int64(st, 1, id);
		rows[q] = 0;
		while (sqlite3_step(st) == SQLITE_ROW) {
			for (i = 0; i < sqlite3_column_count(st); i++)
				dump_value(&buf, &len, st, i);
			append(&buf, &len, "\n");
			rows[q]++;
		}
		append(&buf, &len, "--\n");
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return buf;
}

static long long count(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long n;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

static void same_rows(const char *src, const char *dst, const char *uuid)
{
	size_t rs[NDUMP], rd[NDUMP], q;
	char *a = dump(src, uuid, rs), *b = dump(dst, uuid, rd);

	for (q = 0; q < NDUMP; q++)
		if (rs[q] == 0)
			fail_msg("fixture table of query %zu is empty", q);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

static void merge_roundtrip(void **state)
{
	struct ctx *c = *state;
	struct captured r;
	struct store *s;
	struct dataset d;
	int64_t *ids;
	size_t i;
	static const struct fx_names *const nm[] = {
		&names_a, &names_hostile, &names_b,
	};

	assert_int_equal(capture_run(&r, cmd_merge, "merge", c->out, c->a, c->b,
				     CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	assert_contains(r.out, "a.db: 2 experiments merged, 0 already present");
	assert_contains(r.out, "b.db: 1 experiment merged, 0 already present");
	captured_release(&r);
	assert_int_equal(count(c->out, "SELECT count(*) FROM experiments"), 4);
	same_rows(c->a, c->out, c->uuid[0]);
	same_rows(c->a, c->out, c->uuid[1]);
	same_rows(c->b, c->out, c->uuid[2]);
	/* each copy is marked as merged (its stored commands are not run
	 * unasked on resume: runner/start_checks.c), the inputs are not */
	assert_int_equal(count(c->out, "SELECT count(*) FROM experiment_meta"
			       " WHERE key = 'merged_into'"), 3);
	assert_int_equal(count(c->a, "SELECT count(*) FROM experiment_meta"
			       " WHERE key = 'merged_into'"), 0);
	/* Through the loader too: every field of each merged experiment. */
	assert_int_equal(store_open(c->out, STORE_RDONLY, &s), 0);
	for (i = 0; i < 3; i++) {
		const char *diff;

		assert_int_equal(store_experiment_find(s, c->uuid[i], &ids), 1);
		assert_int_equal(store_load(s, ids[0], &d), 0);
		/* the merge's mark, last: the rest as it was */
		assert_true(d.exp.nmeta > 0);
		assert_string_equal(d.exp.meta[d.exp.nmeta - 1].key,
				    "merged_into");
		assert_string_equal(d.exp.meta[d.exp.nmeta - 1].value, c->out);
		d.exp.nmeta--;
		diff = fx_check(&d, nm[i]);
		d.exp.nmeta++;
		if (diff)
			fail_msg("merged experiment %zu differs: %s", i, diff);
		dataset_release(&d);
		free(ids);
	}
	/* The label of B selects only B's experiment; "v6.1" only A's. */
	assert_int_equal(store_experiment_find(s, "v6.2", &ids), 1);
	free(ids);
	assert_int_equal(store_experiment_find(s, "lockdep-effect", &ids), 2);
	free(ids);
	store_close(s);
	assert_int_equal(count(c->out, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
}

static void merge_again_skips(void **state)
{
	struct ctx *c = *state;
	struct captured r;
	long long samples;

	assert_int_equal(capture_run(&r, cmd_merge, "merge", c->out, c->a, CAPTURE_END),
			 0);
	assert_int_equal(r.status, 0);
	captured_release(&r);
	samples = count(c->out, "SELECT count(*) FROM samples");
	/* OUT itself as an input: everything in it is present already. */
	assert_int_equal(capture_run(&r, cmd_merge, "merge", c->out, c->a, c->out,
				     CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	assert_contains(r.err, "is already in");
	assert_contains(r.err, c->uuid[0]);
	assert_contains(r.out, "a.db: 0 experiments merged, 2 already present");
	assert_contains(r.out, "out.db: 0 experiments merged, 3 already present");
	captured_release(&r);
	assert_int_equal(count(c->out, "SELECT count(*) FROM experiments"), 3);
	assert_int_equal(count(c->out, "SELECT count(*) FROM samples"), samples);
}

static void merge_leaves_inputs_untouched(void **state)
{
	struct ctx *c = *state;
	struct captured r;
	size_t n;
	char *before = slurp(c->a, &n);

	assert_int_equal(capture_run(&r, cmd_merge, "merge", c->out, c->a, CAPTURE_END),
			 0);
	assert_int_equal(r.status, 0);
	captured_release(&r);
	assert_file_holds(c->a, before, n);
	free(before);
}

static void merge_into_new_file(void **state)
{
	struct ctx *c = *state;
	struct captured r;
	char fresh[128];

	snprintf(fresh, sizeof(fresh), "%s/fresh.db", c->dir);
	assert_int_equal(capture_run(&r, cmd_merge, "merge", fresh, c->b, CAPTURE_END),
			 0);
	assert_int_equal(r.status, 0);
	captured_release(&r);
	same_rows(c->b, fresh, c->uuid[2]);
}

static void merge_refuses_bad_input(void **state)
{
	struct ctx *c = *state;
	struct captured r;
	char fresh[128];
	struct stat sb;
	FILE *f;

	f = fopen(c->text, "w");
	assert_non_null(f);
	fputs("These are notes, not a database; long enough for a header......"
	      "..................................................\n", f);
	fclose(f);
	snprintf(fresh, sizeof(fresh), "%s/fresh.db", c->dir);
	/* A bad input is found before OUT is created. */
	assert_int_equal(capture_run(&r, cmd_merge, "merge", fresh, c->a,
				     c->text, CAPTURE_END), 0);
	assert_int_equal(r.status, 2);
	assert_contains(r.err, "notes.txt: file is not a database");
	captured_release(&r);
	assert_int_equal(stat(fresh, &sb), -1);
	assert_int_equal(capture_run(&r, cmd_merge, "merge", fresh, CAPTURE_END), 0);
	assert_int_equal(r.status, 2);
	assert_contains(r.err, "usage: contend merge OUT.db IN.db");
	captured_release(&r);
	assert_int_equal(capture_run(&r, cmd_merge, "merge", "--help",
				     CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	assert_contains(r.out, "usage: contend merge OUT.db IN.db");
	captured_release(&r);
	assert_int_equal(capture_run(&r, cmd_merge, "merge", fresh,
				     "/nonexistent/x.db", CAPTURE_END), 0);
	assert_int_equal(r.status, 2);
	assert_contains(r.err, "/nonexistent/x.db");
	captured_release(&r);
	assert_int_equal(stat(fresh, &sb), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(merge_roundtrip, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(merge_again_skips, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(merge_leaves_inputs_untouched,
						setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(merge_into_new_file, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(merge_refuses_bad_input, setup,
						tmpdir_teardown),
	};

	return cmocka_run_group_tests_name("merge", tests, NULL, NULL);
}
