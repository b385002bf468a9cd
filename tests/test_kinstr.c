/*
 * test_kinstr.c - the kernel lock instrument setting (runner/kinstr/kinstr.h):
 * the list of kernel_instruments and its errors, the list given back as
 * text, the choice of the first instrument that can run (BPF and the
 * tracepoint faked away with CONTEND_KBPF=off and CONTEND_KLOCK=off, the
 * documented fakes the real checks go through), and the old variables
 * that chose it, refused instead of ignored.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runner/kinstr/kinstr.h"

static void test_parse(void **state)
{
	struct kinstr_list l;
	char err[200], text[64];

	(void)state;
	assert_int_equal(kinstr_parse("bpf, count", &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.k[0], KINSTR_BPF);
	assert_int_equal(l.k[1], KINSTR_COUNT);
	assert_string_equal(kinstr_list_text(&l, text, sizeof(text)),
			    "bpf, count");
	assert_int_equal(kinstr_parse("kinds,none", &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.k[1], KINSTR_NONE);
	assert_int_equal(kinstr_parse("none", &l, err, sizeof(err)), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.k[0], KINSTR_NONE);
}

static void test_parse_errors(void **state)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "lots", "'lots' is not one of none, count, kinds, bpf" },
		{ "bpf, bpf", "bpf is given twice" },
		{ "none, bpf", "none can only be last" },
		{ "bpf,", "'' is not one of" },
		{ "", "'' is not one of" },
	};
	struct kinstr_list l = { { KINSTR_COUNT }, 1 };
	char err[200];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(kinstr_parse(bad[i].text, &l, err,
					      sizeof(err)), -1);
		if (!strstr(err, bad[i].says))
			fail_msg("'%s': %s", bad[i].text, err);
		/* the list is left as it was */
		assert_int_equal(l.n, 1);
		assert_int_equal(l.k[0], KINSTR_COUNT);
	}
}

/* Asked means there: nothing that cannot run is chosen, and why not. */
static void test_choose(void **state)
{
	struct kinstr_list l;
	enum kinstr k = KINSTR_N;
	char err[200], skipped[400];

	(void)state;
	setenv("CONTEND_KBPF", "off", 1);
	setenv("CONTEND_KLOCK", "off", 1);
	kinstr_parse("bpf", &l, err, sizeof(err));
	assert_int_equal(kinstr_choose(&l, &k, skipped, sizeof(skipped)), -1);
	assert_string_equal(skipped, "bpf: disabled by CONTEND_KBPF=off");
	kinstr_parse("bpf, count", &l, err, sizeof(err));
	assert_int_equal(kinstr_choose(&l, &k, skipped, sizeof(skipped)), -1);
	assert_string_equal(skipped, "bpf: disabled by CONTEND_KBPF=off; "
			    "count: no tracepoint: disabled by "
			    "CONTEND_KLOCK=off");
	kinstr_parse("bpf, kinds, none", &l, err, sizeof(err));
	assert_int_equal(kinstr_choose(&l, &k, skipped, sizeof(skipped)), 0);
	assert_int_equal(k, KINSTR_NONE);
	assert_non_null(strstr(skipped, "; kinds: no tracepoint"));
	kinstr_parse("none", &l, err, sizeof(err));
	assert_int_equal(kinstr_choose(&l, &k, skipped, sizeof(skipped)), 0);
	assert_int_equal(k, KINSTR_NONE);
	assert_string_equal(skipped, "");
	unsetenv("CONTEND_KBPF");
	unsetenv("CONTEND_KLOCK");
}

static void test_old_variables(void **state)
{
	(void)state;
	assert_int_equal(kinstr_env_check(), 0);
	setenv("CONTEND_KBPF", "off", 1);
	setenv("CONTEND_KLOCK", "off", 1);
	assert_int_equal(kinstr_env_check(), 0);
	setenv("CONTEND_KBPF", "on", 1);
	assert_int_equal(kinstr_env_check(), -1);
	unsetenv("CONTEND_KBPF");
	setenv("CONTEND_KLOCK", "kinds", 1);
	assert_int_equal(kinstr_env_check(), -1);
	unsetenv("CONTEND_KLOCK");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_choose),
		cmocka_unit_test(test_old_variables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
