/*
 * test_compare_run.c - compare's one entry point (compare_run,
 * analysis/compare.h): a request naming two sides in, the loaded
 * sides, the result and the exit status out, as `contend compare` prints
 * them: a comparison of number files, the gate's regression, --strict,
 * a side that names nothing; ministat's table of number sides.
 *
 * Independent values: the change of two number files of one invocation
 * each is the ratio of their geometric means (the model on log values
 * with one invocation a side pools the runs), computed here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "lib/util.h"
#include "tests/checks.h"
#include "tests/tmpdir.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	return tmpdir_create(dir, sizeof(dir), "cmprun");
}

static int teardown(void **state)
{
	(void)state;
	tmpdir_remove(dir);
	return 0;
}

/* dir/name holding x[0..n), one a line; the path, malloc'd. */
static char *numbers(const char *name, const double *x, size_t n)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%.17g\n", x[i]);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void request(struct compare_request *q, const char *base,
		    const char *cand, struct compare_files *files)
{
	memset(q, 0, sizeof(*q));
	q->base = base;
	q->cand = cand;
	q->db = "/nonexistent/contend.db";
	compare_opts_default(&q->opts);
	q->opts.confidence = 0;
	q->fail_pct = -1;
	q->files = files;
	numfile_opts_default(&q->nf);
}

static const double xb[] = { 100, 101, 99, 102, 98 };
static const double xc[] = { 120, 121, 119, 122, 118 };
static const double xw[] = { 80, 81, 79, 82, 78 };

static double lmean(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += log(x[i]);
	return s / (double)n;
}

/* Two number files: one call, the sides loaded, the result out. */
static void test_numbers(void **state)
{
	char *b = numbers("b.txt", xb, 5), *c = numbers("c.txt", xc, 5);
	struct compare_files files = { 0 };
	struct compare_request q;
	struct compare_outcome o;

	(void)state;
	request(&q, b, c, &files);
	assert_int_equal(compare_run(&q, &o), EXIT_OK);
	assert_true(o.compared);
	assert_string_equal(o.r.metric, "value");
	assert_int_equal(o.base.kind, INPUT_NUMBERS);
	assert_int_equal(o.r.n, 1);
	assert_int_equal(o.r.cmp[0].ubase.runs, 5);
	check_close("change", o.r.cmp[0].st.change_pct,
		    100 * (exp(lmean(xc, 5) - lmean(xb, 5)) - 1), 1e-9, 0);
	assert_int_equal(o.r.cmp[0].st.verdict, VERDICT_FASTER);
	assert_int_equal(o.r.gate_failures, 0);
	compare_outcome_release(&o);
	compare_files_release(&files);
	free(b);
	free(c);
}

/* The gate: a 20% fall fails --fail-on-regression 5, status 3. */
static void test_gate(void **state)
{
	char *b = numbers("b.txt", xb, 5), *c = numbers("w.txt", xw, 5);
	struct compare_files files = { 0 };
	struct compare_request q;
	struct compare_outcome o;

	(void)state;
	request(&q, b, c, &files);
	q.fail_pct = 5;
	assert_int_equal(compare_run(&q, &o), EXIT_REGRESSION);
	assert_true(o.compared);
	assert_int_equal(o.r.gate_failures, 1);
	assert_true(o.r.cmp[0].gate_fail);
	compare_outcome_release(&o);

	/* --strict refuses a gate over one experiment a side: nothing out */
	q.strict = true;
	assert_int_equal(compare_run(&q, &o), EXIT_USAGE);
	assert_false(o.compared);
	compare_outcome_release(&o);
	compare_files_release(&files);
	free(b);
	free(c);
}

/* A side that names nothing: bad input, no result. */
static void test_bad_side(void **state)
{
	char *c = numbers("c.txt", xc, 5);
	char *missing = xasprintf("%s/missing.txt", dir);
	struct compare_files files = { 0 };
	struct compare_request q;
	struct compare_outcome o;

	(void)state;
	request(&q, missing, c, &files);
	assert_int_equal(compare_run(&q, &o), EXIT_USAGE);
	assert_false(o.compared);
	compare_outcome_release(&o);
	/* a side of one value cannot be judged */
	free(missing);
	missing = numbers("one.txt", xc, 1);
	request(&q, missing, c, &files);
	assert_int_equal(compare_run(&q, &o), EXIT_USAGE);
	assert_false(o.compared);
	compare_outcome_release(&o);
	compare_files_release(&files);
	free(missing);
	free(c);
}

/*
 * ministat's table of two number files: 10 +/- 2.776 sqrt(2/3) (ministat's
 * t table at 4 df, pooled s = 1), worked by hand; a database side leaves
 * it to compare's tables.
 */
static void test_ministat(void **state)
{
	static const double a[] = { 100, 101, 99 }, b[] = { 110, 111, 109 };
	char *pa = numbers("ma.txt", a, 3), *pb = numbers("mb.txt", b, 3);
	char *cands[1] = { pb };
	struct compare_files files = { 0 };
	struct compare_request q;
	char *out = NULL, *db;
	size_t len;
	bool done;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_non_null(f);
	request(&q, pa, pb, &files);
	assert_int_equal(compare_ministat(f, &q, cands, 1, false, &done), 0);
	assert_int_equal(fclose(f), 0);
	assert_true(done);
	assert_contains(out, "Difference at 95.0% confidence");
	assert_contains(out, "10 +/- 2.26659");
	free(out);

	/* a database side (a file that says it is one): compare's tables */
	db = xasprintf("%s/lab.db", dir);
	f = fopen(db, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite("SQLite format 3", 1, 16, f), 16);
	assert_int_equal(fclose(f), 0);
	cands[0] = db;
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(compare_ministat(f, &q, cands, 1, false, &done), 0);
	assert_int_equal(fclose(f), 0);
	assert_false(done);
	assert_int_equal(len, 0);
	free(out);
	free(db);
	compare_files_release(&files);
	free(pa);
	free(pb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_gate),
		cmocka_unit_test(test_bad_side),
		cmocka_unit_test(test_ministat),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
