/*
 * test_export_writer.c - the long-format writer of `contend export`
 * (analysis/export.c; tests/test_export.c runs the command) over a
 * dataset built in memory: its CSV and JSON compared byte for byte with
 * text written out here by hand: RFC 4180
 * quoting of commas, quotes and newlines, runs in seq order, a run
 * without samples on one row with metric and value empty, NaN samples
 * left out, the shortest decimal that reads back (0.1 + 0.2 needs 17
 * digits), infinity as "inf" in CSV and null in JSON, and --threads' rows.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "tests/dataset_fixture.h"

/*
 * Three runs of one configuration, stored out of seq order: warm-up run 0
 * (seq 2, two metrics, two threads), failed run 1 (seq 0, no sample, an
 * error with a comma, quotes and a newline), run 2 (seq 1: throughput
 * infinite, x = 0.1 + 0.2, latency absent).
 */
static void build(struct fixture *fx)
{
	static const uint64_t ops[] = { 3, 4 };

	fx_init(fx, "exp, \"q\"");
	fx_meta(fx, "hostname", "h1");
	fx_config(fx, "w", "noop", "threads=2 spin=1");
	fx_run(fx, true, RUN_OK, "latency=0.1 throughput=1.5", ops, 2);
	fx_run(fx, false, RUN_FAILED, NULL, NULL, 0);
	fx_run(fx, false, RUN_OK, "throughput=inf x=0.30000000000000004",
	       NULL, 0);
	fx_finish(fx);
	fx->d.runs[0].seq = 2;
	fx->d.runs[1].seq = 0;
	fx->d.runs[2].seq = 1;
	fx->d.runs[1].error = xstrdup("boom, \"bad\"\nline");
	/* x, exactly as the sum reads */
	assert_memory_equal(&fx->d.values[2 * fx->d.nmetrics + 2],
			    &(double){ 0.1 + 0.2 }, sizeof(double));
}

static char *export_text(enum export_format format, bool threads)
{
	struct fixture fx;
	struct exporter x;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	build(&fx);
	export_begin(&x, f, format, threads);
	export_dataset(&x, &fx.d);
	export_end(&x);
	assert_int_equal(fclose(f), 0);
	fx_free(&fx);
	return buf;
}

#define HEAD "experiment_id,uuid,experiment,label,hostname,workload," \
	     "section,params,seq,repetition,warmup,status,error,metric,value"
#define ROW "1,00000000-0000-4000-8000-000000000001,\"exp, \"\"q\"\"\",," \
	    "h1,noop,w,threads=2 spin=1,"

static void test_csv(void **state)
{
	static const char want[] =
		HEAD "\n"
		ROW "0,1,0,failed,\"boom, \"\"bad\"\"\nline\",,\n"
		ROW "1,2,0,ok,,throughput,inf\n"
		ROW "1,2,0,ok,,x,0.30000000000000004\n"
		ROW "2,0,1,ok,,latency,0.1\n"
		ROW "2,0,1,ok,,throughput,1.5\n";
	char *got = export_text(EXPORT_CSV, false);

	(void)state;
	assert_string_equal(got, want);
	free(got);
}

static void test_csv_threads(void **state)
{
	static const char want[] =
		HEAD ",thread\n"
		ROW "0,1,0,failed,\"boom, \"\"bad\"\"\nline\",,,\n"
		ROW "1,2,0,ok,,throughput,inf,\n"
		ROW "1,2,0,ok,,x,0.30000000000000004,\n"
		ROW "2,0,1,ok,,latency,0.1,\n"
		ROW "2,0,1,ok,,throughput,1.5,\n"
		ROW "2,0,1,ok,,thread_ops,3,0\n"
		ROW "2,0,1,ok,,thread_ops,4,1\n";
	char *got = export_text(EXPORT_CSV, true);

	(void)state;
	assert_string_equal(got, want);
	free(got);
}

#define JROW "{\"experiment_id\":1,\"uuid\":" \
	     "\"00000000-0000-4000-8000-000000000001\",\"experiment\":" \
	     "\"exp, \\\"q\\\"\",\"label\":\"\",\"hostname\":\"h1\"," \
	     "\"workload\":\"noop\",\"section\":\"w\",\"params\":" \
	     "\"threads=2 spin=1\","

static void test_json(void **state)
{
	static const char want[] =
		"[\n"
		JROW "\"seq\":0,\"repetition\":1,\"warmup\":false,"
		"\"status\":\"failed\",\"error\":\"boom, \\\"bad\\\"\\nline\","
		"\"metric\":null,\"value\":null},\n"
		JROW "\"seq\":1,\"repetition\":2,\"warmup\":false,"
		"\"status\":\"ok\",\"error\":null,\"metric\":\"throughput\","
		"\"value\":null},\n"
		JROW "\"seq\":1,\"repetition\":2,\"warmup\":false,"
		"\"status\":\"ok\",\"error\":null,\"metric\":\"x\","
		"\"value\":0.30000000000000004},\n"
		JROW "\"seq\":2,\"repetition\":0,\"warmup\":true,"
		"\"status\":\"ok\",\"error\":null,\"metric\":\"latency\","
		"\"value\":0.1},\n"
		JROW "\"seq\":2,\"repetition\":0,\"warmup\":true,"
		"\"status\":\"ok\",\"error\":null,\"metric\":\"throughput\","
		"\"value\":1.5}\n"
		"]\n";
	char *got = export_text(EXPORT_JSON, false);

	(void)state;
	assert_string_equal(got, want);
	free(got);
}

/* No experiment at all: the header alone, an empty JSON array. */
static void test_empty(void **state)
{
	struct exporter x;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	export_begin(&x, f, EXPORT_JSON, false);
	export_end(&x);
	fclose(f);
	assert_string_equal(buf, "[]\n");
	free(buf);
	f = open_memstream(&buf, &len);
	export_begin(&x, f, EXPORT_CSV, true);
	export_end(&x);
	fclose(f);
	assert_string_equal(buf, HEAD ",thread\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_csv_threads),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
