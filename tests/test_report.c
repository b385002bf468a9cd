/*
 * test_report.c - the report formats: a fixed in-memory experiment (two
 * configurations showing the lockdep effect, one interrupted fixed-work
 * configuration) rendered as text, json and csv and compared with the
 * golden files under tests/data/report/; number formatting, json escaping
 * and csv quoting checked against strings written out by hand.
 *
 * CONTEND_UPDATE_GOLDEN=1 rewrites the golden files instead (then read the
 * diff before committing it).  tests/e2e_report.sh checks that the json
 * golden parses with python3 -m json.tool.
 */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/report.h"
#include "tests/checks.h"
#include "tests/dataset_fixture.h"
#include "tests/golden.h"

#define GOLDEN_DIR "tests/data/report/"

static const double c1_tput[8] = { 13.62e6, 13.75e6, 13.81e6, 13.58e6,
				   13.70e6, 13.66e6, 13.79e6, 13.69e6 };
static const double c1_rate[8] = { 1.75e6, 1.78e6, 1.74e6, 1.77e6,
				   1.76e6, 1.79e6, 1.73e6, 1.76e6 };
/*
 * One contention rate far out: median 0.455, MAD 0.01, modified z of 0.60
 * = 0.6745 * 0.145 / 0.01 = 9.8 > 3.5: listed as an outlier of run seq 6.
 */
static const double c1_cont[8] = { 0.45, 0.46, 0.44, 0.45, 0.47, 0.60, 0.44, 0.46 };
static const double c2_tput[8] = { 32.1e6, 32.5e6, 32.6e6, 32.2e6,
				   32.4e6, 32.3e6, 32.7e6, 32.4e6 };
static const double c2_rate[8] = { 0.13e6, 0.12e6, 0.14e6, 0.13e6,
				   0.13e6, 0.12e6, 0.14e6, 0.13e6 };
static const double c2_cont[8] = { 0.040, 0.038, 0.043, 0.041,
				   0.039, 0.040, 0.042, 0.040 };
static const double c3_tput[4] = { 95e3, 110e3, 102e3, 88e3 };

static void mutex_run(struct fixture *fx, bool warmup, double tput,
		      double rate, double cont)
{
	char m[256];
	uint64_t ops[2];

	/* Two threads sharing 2 s of work almost evenly. */
	ops[0] = (uint64_t)(tput * 2 / 2 * 1.002);
	ops[1] = (uint64_t)(tput * 2 / 2 * 0.998);
	snprintf(m, sizeof(m), "contention_rate=%.17g elapsed_s=2 "
		 "handoff_rate=%.17g handoffs=%.17g throughput=%.17g",
		 cont, rate, rate * 2, tput);
	fx_run(fx, warmup, RUN_OK, m, ops, 2);
}

static void build(struct fixture *fx)
{
	size_t i;

	fx_init(fx, "lockdep-effect");
	free(fx->d.exp.label);
	fx->d.exp.label = xstrdup("demo");
	free(fx->d.exp.status);
	fx->d.exp.status = xstrdup("interrupted");
	fx->d.exp.created_at = 1764478800; /* 2025-11-30 05:00:00 UTC */
	fx_meta(fx, "cpu_model", "Example CPU @ 2.00GHz");
	fx_meta(fx, "cpus_online", "2");
	fx_meta(fx, "governor", "performance");
	fx_meta(fx, "hostname", "testhost");
	fx_meta(fx, "kernel_release", "6.1.0-test");

	fx_config(fx, "mutex-delay", "pthread-mutex",
		  "threads=2 contended_delay_ns=0 cpus=0-1 runtime=2");
	mutex_run(fx, true, 12.9e6, 1.70e6, 0.47);
	for (i = 0; i < 8; i++)
		mutex_run(fx, false, c1_tput[i], c1_rate[i], c1_cont[i]);
	fx_run(fx, false, RUN_CRASHED, NULL, NULL, 0);
	fx->d.runs[fx->d.nruns - 1].error = xstrdup("killed by signal 11");

	fx_config(fx, "mutex-delay", "pthread-mutex",
		  "threads=2 contended_delay_ns=10000 cpus=0-1 runtime=2");
	for (i = 0; i < 8; i++)
		mutex_run(fx, false, c2_tput[i], c2_rate[i], c2_cont[i]);

	fx_config(fx, "spin \"fixed\"", "noop", "threads=1 spin=100 jobs=1000000");
	for (i = 0; i < 4; i++) {
		char m[128];
		uint64_t ops = 1000000;

		snprintf(m, sizeof(m), "elapsed_s=%.17g throughput=%.17g",
			 1e6 / c3_tput[i], c3_tput[i]);
		fx_run(fx, false, RUN_OK, m, &ops, 1);
	}
	fx_run(fx, false, RUN_PLANNED, NULL, NULL, 0);
	fx_finish(fx);
}

static char *render(const struct analysis *a, enum report_format fmt,
		    size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(report_write(f, a, fmt), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static char *render_view(const struct analysis *a,
			 const struct report_view *v, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(report_text_view(f, a, v), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Compares with the golden file, or rewrites it under CONTEND_UPDATE_GOLDEN;
 * view NULL: the format's plain output; a text fits 80 columns. */
static void golden(enum report_format fmt, const struct report_view *view,
		   const char *file)
{
	struct fixture fx;
	struct analysis a;
	char path[256], *got;
	size_t glen;

	build(&fx);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	got = view ? render_view(&a, view, &glen) : render(&a, fmt, &glen);
	snprintf(path, sizeof(path), GOLDEN_DIR "%s", file);
	golden_check(path, got, glen);
	if (fmt == REPORT_TEXT)
		assert_fits_80(got);
	free(got);
	analysis_release(&a);
	fx_free(&fx);
}

static void test_golden_text(void **state)
{
	(void)state;
	golden(REPORT_TEXT, NULL, "lockdep.txt");
}

static void test_golden_verbose(void **state)
{
	static const struct report_view verbose = { .verbose = true };
	static const struct report_view some = { .metrics = "throughput,handoff_rate" };

	(void)state;
	golden(REPORT_TEXT, &verbose, "lockdep-verbose.txt");
	golden(REPORT_TEXT, &some, "lockdep-metrics.txt");
}

static void test_golden_json(void **state)
{
	(void)state;
	golden(REPORT_JSON, NULL, "lockdep.json");
}

static void test_golden_csv(void **state)
{
	(void)state;
	golden(REPORT_CSV, NULL, "lockdep.csv");
}

/* Does txt hold words, a line break counting as a space? */
static bool has_words(const char *txt, const char *words)
{
	const char *p, *q, *w;

	for (p = txt; *p; p++) {
		for (q = p, w = words; *w && *q; w++) {
			if (*w == ' ' && isspace((unsigned char)*q)) {
				while (isspace((unsigned char)*q))
					q++;
				continue;
			}
			if (*q++ != *w)
				break;
		}
		if (!*w && (q > p))
			return true;
	}
	return false;
}

/* Facts of the golden dataset the text must state, checked one by one. */
static void test_text_states(void **state)
{
	static const struct report_view verbose = { .verbose = true };
	struct fixture fx;
	struct analysis a;
	char *txt, *nl;
	size_t len, lines = 0;

	(void)state;
	build(&fx);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	txt = render(&a, REPORT_TEXT, &len);
	/* 10 + 8 + 5 planned runs, 1 not run */
	assert_non_null(strstr(txt, "runs: 23 planned: 20 measured, 1 warm-up, "
				    "1 failed, 1 not run"));
	assert_non_null(strstr(txt, "1 of 23 runs are missing"));
	/* the methods are --verbose's (the default fits one screen) */
	assert_null(strstr(txt, "Student-t 95% interval"));
	/* The summary row of each configuration, in 80 columns, the
	 * swept key by its short name. */
	assert_non_null(strstr(txt, " 1  mutex-delay   delay=0 "));
	assert_true(has_words(txt, "delay: contended_delay_ns"));
	/* half-width 67k: the mean to 10^3 */
	assert_non_null(strstr(txt, "13.700M [13.633M, 13.767M]"));
	assert_non_null(strstr(txt, "98k [85k, 116k] h"));
	/* the configuration with higher throughput names its partner */
	assert_non_null(strstr(txt, "! misleading-throughput, config 2 (vs 1):"));
	assert_non_null(strstr(txt, "! few-runs, config 3:"));
	/* why the failed run failed */
	assert_non_null(strstr(txt, "- 1 x crashed: killed by signal 11 (seq 9)"));
	/* the flags come before any per-metric table */
	assert_null(strstr(txt, "outlier runs (kept)"));
	for (nl = txt; (nl = strchr(nl, '\n')); nl++) {
		const char *start = nl;

		while (start > txt && start[-1] != '\n')
			start--;
		assert_true(nl - start <= 80);
		lines++;
	}
	assert_non_null(strstr(txt, "host: cpu_model=Example CPU"));
	free(txt);
	txt = render_view(&a, &verbose, &len);
	assert_non_null(strstr(txt, "Student-t 95% interval"));
	assert_non_null(strstr(txt, "harmonic mean"));
	assert_non_null(strstr(txt, "outlier runs (kept): contention_rate seq 6 = 0.6000"));
	/* A flag's message is printed once: in the summary. */
	nl = strstr(txt, "only 4 measured runs");
	assert_non_null(nl);
	assert_null(strstr(nl + 1, "only 4 measured runs"));
	free(txt);
	analysis_release(&a);
	fx_free(&fx);
}

/*
 * The text report of a pthread-mutex sweep: one configuration of section
 * per element of params, runs runs each, throughput about base (its
 * digits wide enough to make wide intervals); the report's text, its
 * summary table from *table on, the analysis in *a (sweep_free releases
 * them).
 */
static char *sweep_report(struct fixture *fx, struct analysis *a,
			  char **table, const char *experiment,
			  const char *section, const char *const *params,
			  size_t nparams, size_t runs, double contention,
			  double base, double step)
{
	size_t len, i, k;
	char *txt;

	fx_init(fx, experiment);
	for (k = 0; k < nparams; k++) {
		fx_config(fx, section, "pthread-mutex", params[k]);
		for (i = 0; i < runs; i++) {
			char m[256];
			uint64_t ops[2] = { 1000 + i, 1000 - i };

			snprintf(m, sizeof(m), "contention_rate=%g "
				 "handoff_rate=%.17g throughput=%.17g",
				 contention, 1.234567e6 + 1e3 * (double)i,
				 base + step * (double)(i % 3) + (double)k);
			fx_run(fx, false, RUN_OK, m, ops, 2);
		}
	}
	fx_finish(fx);
	assert_int_equal(analysis_run(&fx->d, NULL, a), 0);
	txt = render(a, REPORT_TEXT, &len);
	*table = strstr(txt, "\n #  section");
	assert_non_null(*table);
	return txt;
}

static void sweep_free(char *txt, struct analysis *a, struct fixture *fx)
{
	free(txt);
	analysis_release(a);
	fx_free(fx);
}

/*
 * The summary of `make run`'s lockdep sweep in 80 columns: the three rows
 * told apart by their delay (not cut to "contended_dela..."), the short
 * name in the legend, a column that is zero in every row (contended)
 * left out, a long section name cut instead of what varies.
 */
static void test_table_80(void **state)
{
	static const char *const params[] = {
		"threads=2 contended_delay_ns=0 contended_delay_mode=spin runtime=0.3",
		"threads=2 contended_delay_ns=1000 contended_delay_mode=spin runtime=0.3",
		"threads=2 contended_delay_ns=10000 contended_delay_mode=spin runtime=0.3",
	};
	struct fixture fx;
	struct analysis a;
	char *txt, *table;

	(void)state;
	/* wide intervals: "13.7123M [13.6003M, 13.8243M]" */
	txt = sweep_report(&fx, &a, &table, "quick",
			   "mutex-delay-with-a-long-name", params, 3, 8, 0,
			   13.712345e6, 1e3);
	assert_fits_80(txt);
	assert_non_null(strstr(table, " delay=0 "));
	assert_non_null(strstr(table, " delay=1000 "));
	assert_non_null(strstr(table, " delay=10000 "));
	assert_null(strstr(table, "contended_dela..."));
	assert_true(has_words(table, "delay: contended_delay_ns"));
	/* contended is 0 everywhere, hand-offs are not */
	assert_null(strstr(table, " cont "));
	assert_non_null(strstr(table, " hand/s"));
	assert_true(has_words(table, "hand/s: lock hand-offs per second"));
	/* the section gave up its room first */
	assert_non_null(strstr(table, " mutex-del...  delay=0 "));
	sweep_free(txt, &a, &fx);
}

/*
 * Two keys varying in every row (threads and the delay, as in
 * lockdep-effect.ini) and no room for "threads=2 delay=10000": the cells
 * keep the values whole and the legend names the keys, instead of
 * "threads=2 del..." in every row.
 */
static void test_table_values(void **state)
{
	static const char *const params[] = {
		"threads=2 contended_delay_ns=0 runtime=0.3",
		"threads=2 contended_delay_ns=1000 runtime=0.3",
		"threads=2 contended_delay_ns=10000 runtime=0.3",
		"threads=4 contended_delay_ns=0 runtime=0.3",
		"threads=4 contended_delay_ns=1000 runtime=0.3",
		"threads=4 contended_delay_ns=10000 runtime=0.3",
	};
	struct fixture fx;
	struct analysis a;
	char *txt, *table;

	(void)state;
	txt = sweep_report(&fx, &a, &table, "lockdep", "sleep-jobs-long",
			   params, 6, 6, 0.0123, 123.712345e6, 1e5);
	assert_null(strstr(table, "del..."));
	assert_non_null(strstr(table, " 2 0 "));
	assert_non_null(strstr(table, " 2 10000 "));
	assert_non_null(strstr(table, " 4 1000 "));
	assert_true(has_words(table, "varies: values of threads, delay"));
	assert_true(has_words(table, "delay: contended_delay_ns"));
	sweep_free(txt, &a, &fx);
}

/* Short parameter names: the last word before a unit suffix, without
 * "param."; a key that is only a unit, or has no word before it, kept. */
static void test_key_short(void **state)
{
	static const struct { const char *name, *key, *want; } cases[] = {
		{ "unit ns", "contended_delay_ns", "delay" },
		{ "unit s", "hold_time_s", "time" },
		{ "unit pct", "write_pct", "write" },
		{ "no unit", "threads", "threads" },
		{ "user param", "param.size", "size" },
		{ "not a unit", "lock_kind", "kind" },
		{ "unit alone", "_ns", "ns" },
		{ "unit inside", "ns_count", "count" },
	};
	struct dataset d = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *got = report_key_short(&d, cases[i].key);

		if (strcmp(got, cases[i].want))
			fail_msg("%s: '%s' -> '%s', want '%s'", cases[i].name,
				 cases[i].key, got, cases[i].want);
		free(got);
	}
}

/* The report's numbers are lib/numfmt's numfmt. */
static void test_format_numbers(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(numfmt(buf, sizeof(buf), 13.7e6), "13.70M");
	assert_string_equal(numfmt(buf, sizeof(buf), NAN), NUMFMT_MISSING);
	assert_string_equal(numfmt(buf, sizeof(buf), -INFINITY), "-inf");
}

static void test_format_parse(void **state)
{
	(void)state;
	assert_int_equal(report_format_parse("text"), REPORT_TEXT);
	assert_int_equal(report_format_parse("json"), REPORT_JSON);
	assert_int_equal(report_format_parse("csv"), REPORT_CSV);
	assert_int_equal(report_format_parse("xml"), -1);
	assert_int_equal(report_format_parse(""), -1);
}

/* Names from a config file reach json escaped and csv quoted. */
static void test_escaping(void **state)
{
	struct fixture fx;
	struct analysis a;
	char *out;
	size_t len;

	(void)state;
	fx_init(&fx, "a \"quoted\"\tname\\");
	fx_config(&fx, "x,\"y\"\nz", "noop", "threads=1 runtime=1");
	fx_run(&fx, false, RUN_OK, "throughput=1", NULL, 0);
	fx_finish(&fx);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	out = render(&a, REPORT_JSON, &len);
	assert_non_null(strstr(out, "\"name\": \"a \\\"quoted\\\"\\tname\\\\\""));
	assert_non_null(strstr(out, "\"section\": \"x,\\\"y\\\"\\nz\""));
	free(out);
	out = render(&a, REPORT_CSV, &len);
	assert_non_null(strstr(out, ",\"x,\"\"y\"\"\nz\","));
	free(out);
	analysis_release(&a);
	fx_free(&fx);
}

/* A flag raised twice on one configuration (misleading-throughput against
 * two others) is named once in its summary row. */
static void test_row_flags_once(void **state)
{
	struct fixture fx;
	struct analysis a;
	struct report_row *rows;
	size_t n;
	const char *p;

	(void)state;
	fx_init(&fx, "twice");
	fx_config(&fx, "s", "noop", "threads=1 runtime=1");
	fx_run(&fx, false, RUN_OK, "throughput=1", NULL, 0);
	fx_finish(&fx);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	analysis_flag_add(&a.configs[0], "misleading-throughput", -1, 1, "one");
	analysis_flag_add(&a.configs[0], "misleading-throughput", -1, 2, "two");
	n = report_rows(&a, &rows);
	assert_int_equal(n, 1);
	p = strstr(rows[0].flags, "misleading-throughput");
	assert_non_null(p);
	assert_null(strstr(p + 1, "misleading-throughput"));
	report_rows_free(rows, n);
	analysis_release(&a);
	fx_free(&fx);
}

/* A profile = lock configuration's kernel locks by caller, in rank order,
 * under its configuration in the JSON; a configuration without one has no
 * "profile" key; a NaN wait is null. */
static void test_json_profile(void **state)
{
	struct fixture fx;
	struct analysis a;
	struct ds_config *cf;
	char *out, *c1, *c2, *r1, *r2;
	size_t len;

	(void)state;
	fx_init(&fx, "profiled");
	fx_config(&fx, "creat", "creat", "threads=2 runtime=1");
	fx_run(&fx, false, RUN_OK, "throughput=10", NULL, 0);
	fx_config(&fx, "plain", "noop", "threads=1 runtime=1");
	fx_run(&fx, false, RUN_OK, "throughput=20", NULL, 0);
	fx_finish(&fx);
	cf = &fx.d.configs[0];
	cf->nprofile = 2;
	cf->profile = xcalloc(2, sizeof(*cf->profile));
	cf->profile[0] = (struct profile_row){ cf->id, xstrdup("ext4_orphan_add+0x3c"),
					       xstrdup("mutex"), 28, 0.00125, 0.0004 };
	cf->profile[1] = (struct profile_row){ cf->id, xstrdup("a \"quoted\" caller"),
					       xstrdup("spinlock"), 3, 1e-6, NAN };
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	out = render(&a, REPORT_JSON, &len);
	c1 = strstr(out, "\"section\": \"creat\"");
	c2 = strstr(out, "\"section\": \"plain\"");
	assert_non_null(c1);
	assert_non_null(c2);
	r1 = strstr(c1, "\"profile\": [");
	assert_non_null(r1);
	assert_true(r1 < c2);
	assert_null(strstr(c2, "\"profile\""));
	r2 = strstr(r1, "\"rank\": 2");
	assert_non_null(r2);
	assert_non_null(strstr(r1, "\"rank\": 1,\n"
				   "          \"caller\": \"ext4_orphan_add+0x3c\",\n"
				   "          \"lock_type\": \"mutex\",\n"
				   "          \"contended\": 28,\n"
				   "          \"wait_s\": 0.00125,\n"
				   "          \"max_wait_s\": 0.0004\n"));
	assert_true(strstr(r1, "ext4_orphan_add") < r2);
	assert_non_null(strstr(r2, "\"caller\": \"a \\\"quoted\\\" caller\""));
	assert_non_null(strstr(r2, "\"max_wait_s\": null"));
	free(out);
	analysis_release(&a);
	fx_free(&fx);
}

/*
 * kernel_spin_visible is a word (docs/KLOCK.md): where it says no, the
 * verbose text names the word and where it is explained under the
 * kernel lock line (it cut "no: " off a sentence before: "(-few-cpus)").
 */
static void test_spin_word(void **state)
{
	static const struct report_view verbose = { .verbose = true };
	struct fixture fx;
	struct analysis a;
	char *out;
	size_t len;

	(void)state;
	fx_init(&fx, "spin");
	fx_meta(&fx, "kernel_spin_visible", "no-few-cpus");
	fx_config(&fx, "creat", "creat", "threads=2 runtime=1");
	fx_run(&fx, false, RUN_OK, "throughput=10 klock_contended=5", NULL, 0);
	fx_run(&fx, false, RUN_OK, "throughput=11 klock_contended=7", NULL, 0);
	fx_finish(&fx);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	out = render_view(&a, &verbose, &len);
	assert_non_null(strstr(out, "kernel locks: 6 contended a run"));
	assert_non_null(strstr(out, "spinlock contention not visible on this "
				    "host (no-few-cpus,"));
	assert_null(strstr(out, "(-few-cpus"));
	free(out);
	analysis_release(&a);
	fx_free(&fx);
}

/*
 * Text for a terminal: an ESC, a newline or a CSI in a label, a section,
 * a host name or a failed run's reason is printed escaped, never raw (a
 * report on main passed them through).
 */
static void test_text_escaping(void **state)
{
	static const struct report_view verbose = { .verbose = true };
	static const struct report_view host = { .host = true };
	struct fixture fx;
	struct analysis a;
	char *out;
	size_t len, i;

	(void)state;
	fx_init(&fx, "name\x1b]0;owned\x07");
	free(fx.d.exp.label);
	fx.d.exp.label = xstrdup("lab\x1b[2Jel");
	fx_meta(&fx, "hostname", "host\nfake: line");
	fx_config(&fx, "sec\x1b[31mred\xc2\x9b", "noop", "threads=1 runtime=1");
	fx_run(&fx, false, RUN_OK, "throughput=1", NULL, 0);
	fx_run(&fx, false, RUN_FAILED, NULL, NULL, 0);
	fx.d.runs[fx.d.nruns - 1].error = xstrdup("exit 1; output ends:\n\x1b[1mboom");
	fx_finish(&fx);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	for (i = 0; i < 3; i++) {
		out = i == 2 ? render_view(&a, &host, &len)
		    : i ? render_view(&a, &verbose, &len)
			: render(&a, REPORT_TEXT, &len);
		assert_null(memchr(out, '\x1b', len));
		assert_null(strstr(out, "\xc2\x9b"));
		assert_null(strstr(out, "host\nfake"));
		assert_null(strstr(out, "ends:\n"));
		if (i == 2) {
			/* --host: every fact, escaped */
			assert_non_null(strstr(out, "hostname=host\\nfake: line"));
			free(out);
			continue;
		}
		assert_non_null(strstr(out, "sec\\x1b[31mred\\u009b"));
		assert_non_null(strstr(out, "lab\\x1b[2Jel"));
		assert_non_null(strstr(out, "host\\nfake: line"));
		assert_non_null(strstr(out, "ends:\\n\\x1b[1mboom"));
		free(out);
	}
	analysis_release(&a);
	fx_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_text),
		cmocka_unit_test(test_golden_verbose),
		cmocka_unit_test(test_golden_json),
		cmocka_unit_test(test_golden_csv),
		cmocka_unit_test(test_json_profile),
		cmocka_unit_test(test_spin_word),
		cmocka_unit_test(test_text_states),
		cmocka_unit_test(test_table_80),
		cmocka_unit_test(test_table_values),
		cmocka_unit_test(test_format_numbers),
		cmocka_unit_test(test_key_short),
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_row_flags_once),
		cmocka_unit_test(test_text_escaping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
