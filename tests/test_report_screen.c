/*
 * test_report_screen.c - the default text report fits one screen: on a
 * dataset shaped as `make run`'s configs/quick.ini (six configurations,
 * five of them noisy, a host with a hundred facts) it prints at most 60
 * lines of at most 80 columns, the answer (the summary table) first, a
 * flag most configurations raised as one line with its numbers as
 * ranges, and a host summary of at most 3 lines; `--host` prints every
 * fact.  The text is also compared with tests/data/report/quick.txt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "tests/checks.h"
#include "tests/dataset_fixture.h"
#include "tests/golden.h"

/*
 * Throughput (M ops/s) of each configuration's five runs, in run order
 * (not sorted, so no drift).  By hand: {90,95,100,105,110}: mean 100, sd
 * sqrt(250/4) = 7.906, CV 7.9%; {80,90,100,110,120}: sd sqrt(1000/4) =
 * 15.81, CV 15.8%; {99.5,100,100.5,100.2,99.8}: CV 0.4%, not noisy.
 */
static const double tput[6][5] = {
	{ 100, 90, 110, 95, 105 },
	{ 100, 80, 120, 90, 110 },
	{ 100, 90, 110, 95, 105 },
	{ 100, 80, 120, 90, 110 },
	{ 99.5, 100, 100.5, 100.2, 99.8 },
	{ 100, 90, 110, 95, 105 },
};

static void build(struct fixture *fx)
{
	static const char *const params[6] = {
		"threads=2 contended_delay_ns=0 runtime=0.3",
		"threads=2 contended_delay_ns=1000 runtime=0.3",
		"threads=2 contended_delay_ns=10000 runtime=0.3",
		"threads=1 runtime=0.3", "threads=2 runtime=0.3",
		"threads=4 runtime=0.3",
	};
	char key[64], m[128];
	size_t c, i;

	fx_init(fx, "quick");
	fx->d.exp.created_at = 1764478800; /* 2025-11-30 05:00:00 UTC */
	fx_meta(fx, "hostname", "testhost");
	fx_meta(fx, "kernel_release", "6.1.0-test");
	fx_meta(fx, "ncpus", "2");
	fx_meta(fx, "cpu_model", "Example CPU @ 2.00GHz");
	fx_meta(fx, "governor", "performance");
	fx_meta(fx, "preempt", "none (dynamic)");
	fx_meta(fx, "load_start", "0.10");
	fx_meta(fx, "load_end", "0.20");
	/* the kernel state: as many facts as a real host stores */
	for (i = 0; i < 90; i++) {
		snprintf(key, sizeof(key), "kstate.kconfig.OPTION_%zu", i);
		fx_meta(fx, key, "n");
	}
	for (c = 0; c < 6; c++) {
		fx_config(fx, c < 3 ? "mutex-delay" : "futex-threads",
			  c < 3 ? "pthread-mutex" : "futex-mutex", params[c]);
		for (i = 0; i < 5; i++) {
			snprintf(m, sizeof(m), "throughput=%.17g",
				 tput[c][i] * 1e6);
			fx_run(fx, false, RUN_OK, m, NULL, 0);
		}
	}
	fx_finish(fx);
}

static char *render(const struct report_view *v)
{
	struct fixture fx;
	struct analysis a;
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	build(&fx);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	assert_int_equal(report_text_view(f, &a, v), 0);
	assert_int_equal(fclose(f), 0);
	analysis_release(&a);
	fx_free(&fx);
	return buf;
}

static size_t lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_one_screen(void **state)
{
	static const struct report_view plain = { 0 };
	char *txt = render(&plain), *table, *host;

	(void)state;
	golden_check("tests/data/report/quick.txt", txt, strlen(txt));
	assert_fits_80(txt);
	if (lines(txt) > 60)
		fail_msg("%zu lines, more than 60", lines(txt));
	/* the answer first: the table starts within the first 8 lines */
	table = strstr(txt, "\n #  section");
	assert_non_null(table);
	*table = '\0';
	assert_true(lines(txt) < 8);
	*table = '\n';
	/* noisy, raised by 1-4 and 6, in one line with hand-worked ranges */
	assert_non_null(strstr(txt, "! noisy, configs 1-4, 6: CV 7.9-15.8% of "
				   "throughput is above the noise\n"));
	assert_null(strstr(txt, "! noisy, config 1:"));
	/* the host: at most 3 lines, the count of its facts, no dump */
	host = strstr(txt, "\nhost: ");
	assert_non_null(host);
	assert_non_null(strstr(host, "  98 facts: `contend report 1 --host`"));
	assert_true(lines(host + 1) <= 3);
	assert_null(strstr(txt, "OPTION_1"));
	free(txt);
}

static void test_host_view(void **state)
{
	static const struct report_view all = { .host = true };
	char *txt = render(&all), key[64];
	size_t i;

	(void)state;
	assert_fits_80(txt);
	for (i = 0; i < 90; i++) {
		snprintf(key, sizeof(key), "kstate.kconfig.OPTION_%zu=n\n", i);
		assert_non_null(strstr(txt, key));
	}
	assert_non_null(strstr(txt, "[start] governor=performance\n"));
	assert_non_null(strstr(txt, "[end] load_end=0.20\n"));
	assert_non_null(strstr(txt, "98 facts"));
	free(txt);
}

/* Under --verbose every configuration's noisy message is printed. */
static void test_verbose_in_full(void **state)
{
	static const struct report_view verbose = { .verbose = true };
	char *txt = render(&verbose);

	(void)state;
	assert_non_null(strstr(txt, "! noisy, configs 1, 3, 6: CV 7.9%"));
	assert_non_null(strstr(txt, "! noisy, configs 2, 4: CV 15.8%"));
	assert_non_null(strstr(txt, "\nmethods: "));
	free(txt);
}

/* Flags written by hand on two configurations, their one line read back. */
static char *one_line_of(const char *m1, const char *m2)
{
	struct dataset d;
	struct config_analysis ca[2];
	struct flag fl[2];
	struct analysis a;
	char *buf = NULL;
	size_t len, i;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	memset(&d, 0, sizeof(d));
	memset(ca, 0, sizeof(ca));
	memset(fl, 0, sizeof(fl));
	memset(&a, 0, sizeof(a));
	for (i = 0; i < 2; i++) {
		snprintf(fl[i].name, sizeof(fl[i].name), "noisy");
		fl[i].message = (char *)(i ? m2 : m1);
		fl[i].metric = -1;
		fl[i].other_config = -1;
		ca[i].flags = &fl[i];
		ca[i].nflags = 1;
	}
	a.d = &d;
	a.configs = ca;
	a.nconfigs = 2;
	report_flag_messages(f, &a, true);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_one_line(void **state)
{
	char *txt;

	(void)state;
	/* alike but for the numbers: each number's range, exponents whole */
	txt = one_line_of("p 4.9e-10 and CV 3.0%: why", "p 7.1e-19 and CV 2.0%: why");
	assert_non_null(strstr(txt, "! noisy, configs 1-2: p 7.1e-19-4.9e-10 "
				    "and CV 2.0-3.0%\n"));
	free(txt);
	/* the same number everywhere is printed once */
	txt = one_line_of("CV 5.0% high. x", "CV 5.0% high. y");
	assert_non_null(strstr(txt, "! noisy, configs 1-2: CV 5.0% high\n"));
	free(txt);
	/* worded differently: the first finding, its configuration named */
	txt = one_line_of("CV 9% is high: x", "only 3 runs: y");
	assert_non_null(strstr(txt, "! noisy, configs 1-2: CV 9% is high "
				    "(config 1)\n"));
	free(txt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_screen),
		cmocka_unit_test(test_host_view),
		cmocka_unit_test(test_verbose_in_full),
		cmocka_unit_test(test_one_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
