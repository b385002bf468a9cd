/*
 * test_export.c - `contend export`: the long format's columns and rows
 * (one per run x metric, one for a run without samples, thread rows on
 * request), CSV read back with an independent RFC 4180 reader, JSON
 * escaping, selectors and errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sys/stat.h>

#include "db/store.h"
#include "cli/commands.h"
#include "tests/capture.h"
#include "tests/checks.h"
#include "tests/store_fixture.h"
#include "tests/tmpdir.h"

static const struct fx_names plain = {
	"lockdep-effect", "v6.1", "mutex", "mutex-4", NULL,
};
/* Quotes, separators, a newline, a control byte and invalid UTF-8. */
static const struct fx_names hostile = {
	"x'); DROP TABLE runs; --", "\"; DELETE FROM samples; /* \\ */",
	"a'b\"c;d,e\nf", "tab\there \x01 bad\xff utf8 π", NULL,
};

static const char csv_header[] =
	"experiment_id,uuid,experiment,label,hostname,workload,section,params,"
	"seq,repetition,warmup,status,error,metric,value";

/*
 * Rows of the fixture: per seq, the metrics present (3, 3, 2 without
 * handoffs, 0 for the failed run -> 1 empty row, 3, 0 for the planned run
 * -> 1 empty row) = 13; threads: 4 + 1 + 1 + 4 = 10.
 */
#define FX_ROWS 13
#define FX_THREAD_ROWS 10

struct ctx {
	char dir[64];   /* first: see tmpdir_teardown */
	char db[96];
	char uuid[2][40];
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));
	const struct fx_names *nm[] = { &plain, &hostile };
	size_t i;

	if (!c || tmpdir_create(c->dir, sizeof(c->dir), "export")) {
		free(c);
		return -1;
	}
	snprintf(c->db, sizeof(c->db), "%s/x.db", c->dir);
	*state = c;
	for (i = 0; i < 2; i++)
		if (fx_build_file(c->db, nm[i], c->uuid[i]) < 0)
			return -1;
	return 0;
}

/*
 * A minimal RFC 4180 reader, written from the RFC's grammar independently
 * of the writer: records of fields separated by ',', a field quoted when
 * it starts with '"', '""' inside quotes is one '"'.  Returns the records
 * as arrays of malloc'd fields (nfields[i] each).
 */
struct csv {
	size_t nrec;
	size_t nfields[256];
	char *field[256][16];
};

static void csv_read(const char *p, struct csv *t)
{
	char buf[1024];
	size_t n;

	memset(t, 0, sizeof(*t));
	while (*p) {
		size_t r = t->nrec++;

		assert_true(r < 256);
		for (;;) {
			n = 0;
			if (*p == '"') {
				for (p++; !(*p == '"' && p[1] != '"'); p++) {
					assert_true(*p != '\0');
					if (*p == '"')
						p++;
					buf[n++] = *p;
				}
				p++;
			} else {
				while (*p && *p != ',' && *p != '\n')
					buf[n++] = *p++;
			}
			buf[n] = '\0';
			assert_true(t->nfields[r] < 16);
			t->field[r][t->nfields[r]++] = strdup(buf);
			if (*p == ',') {
				p++;
				continue;
			}
			assert_int_equal(*p, '\n');
			p++;
			break;
		}
	}
}

static void csv_release(struct csv *t)
{
	size_t r, f;

	for (r = 0; r < t->nrec; r++)
		for (f = 0; f < t->nfields[r]; f++)
			free(t->field[r][f]);
}

static size_t count_str(const char *hay, const char *needle)
{
	size_t n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void csv_plain(void **state)
{
	struct ctx *c = *state;
	struct captured r;
	struct csv t;
	char line[320];

	assert_int_equal(capture_run(&r, cmd_export, "export", "--db", c->db,
				     "v6.1", CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	/* Header, then seq 0 (config 1, warm-up) with its sorted metrics. */
	snprintf(line, sizeof(line), "%s\n1,%s,lockdep-effect,v6.1,testhost,"
		 "noop,mutex-4,spin=10 threads=4 cpus=0-1,0,0,1,ok,,elapsed_s,"
		 "1000.125\n", csv_header, c->uuid[0]);
	assert_memory_equal(r.out, line, strlen(line));
	/* The failed run (with its reason) and the planned one: one row
	 * each, no metric. */
	assert_contains(r.out, "cpus=0-1,3,0,0,failed,exit status 3,,\n");
	assert_contains(r.out, "threads=1,5,1,0,planned,,,\n");
	/* seq 2 has no handoffs. */
	assert_int_equal(count_str(r.out, "threads=1,2,0,0,ok,,"), 2);
	csv_read(r.out, &t);
	assert_int_equal(t.nrec, 1 + FX_ROWS);
	assert_int_equal(t.nfields[1], 15);
	csv_release(&t);
	captured_release(&r);
}

/* Every field read back equals what was stored, however hostile. */
static void csv_quoting_roundtrip(void **state)
{
	struct ctx *c = *state;
	struct captured r;
	struct csv t;
	size_t i, sections[2] = { 0, 0 };

	assert_int_equal(capture_run(&r, cmd_export, "export", "--db", c->db,
				     "--threads", c->uuid[1], CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	assert_contains(r.out, ",\"\"\"; DELETE FROM samples; /* \\ */\",");
	assert_contains(r.out, ",\"a'b\"\"c;d,e\nf\",");
	csv_read(r.out, &t);
	assert_int_equal(t.nrec, 1 + FX_ROWS + FX_THREAD_ROWS);
	assert_int_equal(t.nfields[0], 16);
	assert_string_equal(t.field[0][15], "thread");
	for (i = 1; i < t.nrec; i++) {
		assert_int_equal(t.nfields[i], 16);
		assert_string_equal(t.field[i][1], c->uuid[1]);
		assert_string_equal(t.field[i][2], hostile.name);
		assert_string_equal(t.field[i][3], hostile.label);
		if (!strcmp(t.field[i][6], hostile.section_a))
			sections[0]++;
		else if (!strcmp(t.field[i][6], hostile.section_b))
			sections[1]++;
		else
			fail_msg("section '%s' mangled", t.field[i][6]);
		/* A thread row has a thread; no other row has one. */
		assert_int_equal(!strcmp(t.field[i][13], "thread_ops"),
				 t.field[i][15][0] != '\0');
	}
	/* config 0 (section_a): seq 1, 2, 5 -> 3 + 2 + 1 rows + 2 threads. */
	assert_int_equal(sections[0], 8);
	assert_int_equal(sections[1], FX_ROWS + FX_THREAD_ROWS - 8);
	csv_release(&t);
	/* Thread ops need all 64 bits: printed as integers, not doubles. */
	assert_contains(r.out, ",0,0,1,ok,,thread_ops,9223372036854775811,3\n");
	captured_release(&r);
}

static void json_escaping(void **state)
{
	struct ctx *c = *state;
	struct captured r;

	assert_int_equal(capture_run(&r, cmd_export, "export", "--format", "json",
				     "--db", c->db, "--threads", c->uuid[1],
				     CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	assert_memory_equal(r.out, "[\n{\"experiment_id\":2,", 21);
	assert_string_equal(r.out + strlen(r.out) - 4, "}\n]\n");
	assert_int_equal(count_str(r.out, "\n{"), FX_ROWS + FX_THREAD_ROWS);
	assert_contains(r.out, "\"label\":\"\\\"; DELETE FROM samples; /* \\\\ */\"");
	assert_contains(r.out, "\"section\":\"a'b\\\"c;d,e\\nf\"");
	/* Control byte escaped, invalid UTF-8 replaced, valid UTF-8 kept. */
	assert_contains(r.out, "\"section\":\"tab\\there \\u0001 bad\\ufffd utf8 π\"");
	assert_contains(r.out, "\"warmup\":true");
	assert_contains(r.out, "\"status\":\"failed\",\"error\":\"exit status 3\","
			       "\"metric\":null,"
			       "\"value\":null,\"thread\":null}");
	assert_contains(r.out, "\"metric\":\"thread_ops\","
			       "\"value\":9223372036854775811,\"thread\":3}");
	assert_contains(r.out, "\"metric\":\"handoffs\",\"value\":5001.125,"
			       "\"thread\":null}");
	captured_release(&r);
}

static void all_experiments(void **state)
{
	struct ctx *c = *state;
	struct captured r;
	struct csv t;

	assert_int_equal(capture_run(&r, cmd_export, "export", "--db", c->db,
				     CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	csv_read(r.out, &t);
	assert_int_equal(t.nrec, 1 + 2 * FX_ROWS);
	assert_string_equal(t.field[1][0], "1");
	assert_string_equal(t.field[1 + FX_ROWS][0], "2");
	csv_release(&t);
	captured_release(&r);
}

static void empty_database(void **state)
{
	struct ctx *c = *state;
	struct captured r;
	struct store *s;
	char path[128], header[256];

	snprintf(path, sizeof(path), "%s/empty.db", c->dir);
	assert_int_equal(store_open(path, STORE_CREATE, &s), 0);
	store_close(s);
	assert_int_equal(capture_run(&r, cmd_export, "export", "--db", path,
				     CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	snprintf(header, sizeof(header), "%s\n", csv_header);
	assert_string_equal(r.out, header);
	captured_release(&r);
	assert_int_equal(capture_run(&r, cmd_export, "export", "--db", path,
				     "--format", "json", CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "[]\n");
	captured_release(&r);
}

static void errors(void **state)
{
	static const struct {
		const char *args[4];
		const char *message;
	} cases[] = {
		{ { "nope" }, "no experiment 'nope'" },
		{ { "--format", "xml" }, "unknown format 'xml' (csv, json)" },
		{ { "--bogus" }, "unknown option '--bogus'" },
		{ { "--format" }, "needs a value" },
		{ { "1", "2" }, "unexpected argument '2'" },
	};
	struct ctx *c = *state;
	struct captured r;
	struct stat sb;
	char missing[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(capture_run(&r, cmd_export, "export", "--db",
					     c->db, cases[i].args[0],
					     cases[i].args[1], CAPTURE_END), 0);
		assert_int_equal(r.status, 2);
		assert_contains(r.err, cases[i].message);
		assert_string_equal(r.out, "");
		captured_release(&r);
	}
	snprintf(missing, sizeof(missing), "%s/missing.db", c->dir);
	assert_int_equal(capture_run(&r, cmd_export, "export", "--db", missing,
				     CAPTURE_END), 0);
	assert_int_equal(r.status, 2);
	assert_contains(r.err, missing);
	captured_release(&r);
	assert_int_equal(stat(missing, &sb), -1);
}

static void help(void **state)
{
	struct captured r;

	(void)state;
	assert_int_equal(capture_run(&r, cmd_export, "export", "--help",
				     CAPTURE_END), 0);
	assert_int_equal(r.status, 0);
	assert_contains(r.out, "usage: contend export [--db PATH] [EXPERIMENT]");
	assert_contains(r.out, "--threads");
	captured_release(&r);
}

/* CONTEND_DB is the default database. */
static void default_database(void **state)
{
	struct ctx *c = *state;
	struct captured r;

	assert_int_equal(setenv("CONTEND_DB", c->db, 1), 0);
	assert_int_equal(capture_run(&r, cmd_export, "export", "lockdep-effect",
				     CAPTURE_END), 0);
	unsetenv("CONTEND_DB");
	assert_int_equal(r.status, 0);
	assert_int_equal(count_str(r.out, "\n"), 1 + FX_ROWS);
	captured_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(csv_plain, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(csv_quoting_roundtrip, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(json_escaping, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(all_experiments, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(empty_database, setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(errors, setup, tmpdir_teardown),
		cmocka_unit_test(help),
		cmocka_unit_test_setup_teardown(default_database, setup,
						tmpdir_teardown),
	};

	return cmocka_run_group_tests_name("export", tests, NULL, NULL);
}
