/*
 * test_exportside.c - `contend export --format csv` files read back as
 * compare sides: the dataset laid out as store_load lays one out, whatever
 * the order of the rows (experiments by id, runs grouped by configuration
 * in seq order, metrics sorted, NAN where a run lacks one); duplicated rows
 * and read columns refused at their line; the per-thread rows of --threads
 * skipped; the runs x metrics table bounded by the values given, at its
 * exact edge.  Expected layouts are written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "tests/capture.h"

#define HEAD "experiment_id,uuid,experiment,label,hostname,workload," \
	     "section,params,seq,warmup,status,metric,value"

struct parsed {
	int ret;
	struct dataset *sets;
	size_t n;
	char *err;
};

static void parse(const char *text, struct parsed *p)
{
	struct capture_fd e = { .fd = -1, .saved = -1 };

	assert_int_equal(capture_fd_start(&e, 2), 0);
	p->ret = exportside_parse("t.csv", text, strlen(text), &p->sets, &p->n);
	p->err = capture_fd_end(&e);
}

static void release(struct parsed *p)
{
	for (size_t i = 0; i < p->n; i++)
		dataset_release(&p->sets[i]);
	free(p->sets);
	free(p->err);
}

/* Exactly equal, without == on doubles. */
static bool same(double a, double b)
{
	return !(a < b) && !(a > b);
}

static double value(const struct dataset *d, size_t run, const char *metric)
{
	int m = dataset_metric(d, metric);

	assert_true(m >= 0);
	return d->values[run * d->nmetrics + (size_t)m];
}

/* Rows scrambled over two experiments, two configurations, two metrics. */
static void test_layout(void **state)
{
	const char *text =
		HEAD "\n"
		"2,u2,e,l,h,noop,s,threads=1,7,0,ok,throughput,70\n"
		"1,u1,e,l,h,noop,s,threads=2,5,0,ok,throughput,52\n"
		"1,u1,e,l,h,noop,s,threads=1,4,0,ok,throughput,41\n"
		"1,u1,e,l,h,noop,s,threads=2,3,0,ok,throughput,32\n"
		"1,u1,e,l,h,noop,s,threads=1,1,0,ok,throughput,11\n"
		"1,u1,e,l,h,noop,s,threads=1,4,0,ok,elapsed_s,0.4\n"
		"1,u1,e,l,h,noop,s,threads=1,2,1,ok,throughput,999\n"
		"1,u1,e,l,h,noop,s,threads=1,6,0,failed,throughput,999\n"
		"1,u1,e,l,h,noop,s,threads=2,5,0,ok,elapsed_s,0.5\n";
	const struct dataset *d;
	struct parsed p;

	(void)state;
	parse(text, &p);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.err, "");
	assert_int_equal(p.n, 2);
	/* by experiment_id: u1 first though u2 came first */
	assert_string_equal(p.sets[0].exp.uuid, "u1");
	assert_string_equal(p.sets[1].exp.uuid, "u2");
	d = &p.sets[0];
	assert_int_equal(d->nconfigs, 2);
	/* configurations in first-seen order: threads=2 first */
	assert_string_equal(d->configs[0].canon, "threads=2");
	assert_string_equal(d->configs[1].canon, "threads=1");
	assert_int_equal(d->nmetrics, 2);
	assert_string_equal(d->metrics[0], "elapsed_s");
	assert_string_equal(d->metrics[1], "throughput");
	/* runs: threads=2 seq 3, 5; threads=1 seq 1, 4 (warm-up, failed out) */
	assert_int_equal(d->nruns, 4);
	assert_int_equal(d->configs[0].run0, 0);
	assert_int_equal(d->configs[0].nruns, 2);
	assert_int_equal(d->configs[1].run0, 2);
	assert_int_equal(d->configs[1].nruns, 2);
	assert_int_equal(d->runs[0].seq, 3);
	assert_int_equal(d->runs[1].seq, 5);
	assert_int_equal(d->runs[2].seq, 1);
	assert_int_equal(d->runs[3].seq, 4);
	assert_int_equal(d->runs[1].repetition, 1);
	assert_int_equal(d->runs[2].config, 1);
	assert_true(same(value(d, 0, "throughput"), 32));
	assert_true(isnan(value(d, 0, "elapsed_s")));
	assert_true(same(value(d, 1, "throughput"), 52));
	assert_true(same(value(d, 1, "elapsed_s"), 0.5));
	assert_true(same(value(d, 2, "throughput"), 11));
	assert_true(isnan(value(d, 2, "elapsed_s")));
	assert_true(same(value(d, 3, "throughput"), 41));
	assert_true(same(value(d, 3, "elapsed_s"), 0.4));
	assert_int_equal(p.sets[1].nruns, 1);
	release(&p);
}

/* Many runs given in reverse: sorted back, each value with its run. */
static void test_many_runs_reversed(void **state)
{
	const size_t n = 50000;
	char *text = malloc(n * 64 + sizeof(HEAD) + 1), *o = text;
	struct parsed p;

	(void)state;
	o += sprintf(o, "%s\n", HEAD);
	for (size_t i = n; i > 0; i--)
		o += sprintf(o, "1,u1,e,l,h,noop,s,threads=1,%zu,0,ok,"
			     "throughput,%zu\n", i, 3 * i);
	parse(text, &p);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.sets[0].nruns, n);
	for (size_t r = 0; r < n; r++) {
		assert_int_equal(p.sets[0].runs[r].seq, (long)r + 1);
		assert_true(same(p.sets[0].values[r], 3.0 * (double)(r + 1)));
	}
	release(&p);
	free(text);
}

static void test_duplicated_row(void **state)
{
	struct parsed p;

	(void)state;
	parse(HEAD "\n"
	      "1,u1,e,l,h,noop,s,threads=1,1,0,ok,throughput,1\n"
	      "1,u1,e,l,h,noop,s,threads=1,2,0,ok,throughput,2\n"
	      "1,u1,e,l,h,noop,s,threads=1,1,0,ok,throughput,1\n", &p);
	assert_int_equal(p.ret, -1);
	assert_null(p.sets);
	assert_non_null(strstr(p.err, "t.csv:4: metric 'throughput' of run "
				      "seq 1"));
	assert_non_null(strstr(p.err, "line 2 has it already"));
	release(&p);
}

/* Rows contend export never writes: one seq in two configurations of an
 * experiment, one experiment_id for two uuids; refused naming the file. */
static void test_not_export_rows(void **state)
{
	struct parsed p;

	(void)state;
	parse(HEAD "\n"
	      "1,u1,e,l,h,noop,s,threads=1,1,0,ok,throughput,1\n"
	      "1,u1,e,l,h,noop,s,threads=2,1,0,ok,throughput,2\n", &p);
	assert_int_equal(p.ret, -1);
	assert_null(p.sets);
	assert_non_null(strstr(p.err, "t.csv: two experiments with one "
				      "experiment_id, or one seq in two "
				      "configurations"));
	release(&p);
	parse(HEAD "\n"
	      "1,u1,e,l,h,noop,s,threads=1,1,0,ok,throughput,1\n"
	      "1,u2,e,l,h,noop,s,threads=1,1,0,ok,throughput,2\n", &p);
	assert_int_equal(p.ret, -1);
	assert_non_null(strstr(p.err, "t.csv: two experiments with one "
				      "experiment_id"));
	release(&p);
}

static void test_duplicated_column(void **state)
{
	struct parsed p;

	(void)state;
	parse(HEAD ",seq\n1,u1,e,l,h,noop,s,threads=1,1,0,ok,throughput,1,1\n",
	      &p);
	assert_int_equal(p.ret, -1);
	assert_non_null(strstr(p.err, "t.csv:1: column 'seq' is there twice "
				      "(fields 9 and 14)"));
	release(&p);
	/* a column contend does not read may repeat */
	parse(HEAD ",error,error\n"
	      "1,u1,e,l,h,noop,s,threads=1,1,0,ok,throughput,1,,\n"
	      "1,u1,e,l,h,noop,s,threads=1,2,0,ok,throughput,2,,\n", &p);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.sets[0].nruns, 2);
	release(&p);
}

/* export --threads: a thread_ops row per thread, not values of the run. */
static void test_thread_rows(void **state)
{
	struct parsed p;

	(void)state;
	parse(HEAD ",thread\n"
	      "1,u1,e,l,h,noop,s,threads=2,1,0,ok,throughput,10,\n"
	      "1,u1,e,l,h,noop,s,threads=2,1,0,ok,thread_ops,4,0\n"
	      "1,u1,e,l,h,noop,s,threads=2,1,0,ok,thread_ops,6,1\n", &p);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.err, "");
	assert_int_equal(p.sets[0].nmetrics, 1);
	assert_string_equal(p.sets[0].metrics[0], "throughput");
	release(&p);
}

/* n rows, each a run and a metric of its own: n x n cells for n values. */
static char *sparse(size_t n)
{
	char *text = malloc(n * 64 + sizeof(HEAD) + 1), *o = text;

	o += sprintf(o, "%s\n", HEAD);
	for (size_t i = 0; i < n; i++)
		o += sprintf(o, "1,u1,e,l,h,noop,s,threads=1,%zu,0,ok,m%zu,1\n",
			     i, i);
	return text;
}

static void test_cells_bound(void **state)
{
	struct parsed p;
	char *text;

	(void)state;
	/* 256 x 256 = 65536 cells: EXPORT_CELLS_MIN, taken */
	text = sparse(256);
	parse(text, &p);
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.sets[0].nruns * p.sets[0].nmetrics,
			 EXPORT_CELLS_MIN);
	release(&p);
	free(text);
	/* 257 x 257 = 66049 cells for 257 values (8 a value: 2056): refused */
	text = sparse(257);
	parse(text, &p);
	assert_int_equal(p.ret, -1);
	assert_non_null(strstr(p.err, "t.csv: experiment u1: 257 runs x 257 "
				      "metrics make 66049 cells for 257 values, "
				      "more than 8 a value"));
	release(&p);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_many_runs_reversed),
		cmocka_unit_test(test_duplicated_row),
		cmocka_unit_test(test_not_export_rows),
		cmocka_unit_test(test_duplicated_column),
		cmocka_unit_test(test_thread_rows),
		cmocka_unit_test(test_cells_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
