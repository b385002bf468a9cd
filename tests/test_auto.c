/*
 * test_auto.c - the report's "why repetitions = auto stopped"
 * (analysis/values.c): the stopping rule with the settings the runner
 * stored with the experiment, and, for an experiment stored before them,
 * with the settings the store reads from its stored config text
 * (db/contract.h, contract_from_config: tests/test_contract.c has the
 * migration of a stored database).
 *
 * The values are test_plan.c's hand-worked sequence: 100 104 96 101 99
 * 100 100 100 has relative half-widths (t.975 * sd / sqrt(n) / mean)
 * 0.0220 at n = 7 and 0.0184 at n = 8, so with precision 0.02 the rule
 * stops for precision at 8 and, capped at 7, at its cap.
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
#include "dataset_fixture.h"
#include "db/contract.h"

static const double seq8[] = { 100, 104, 96, 101, 99, 100, 100, 100 };

/* Section `section` with one warm-up and the first n values of seq8. */
static void add_section(struct fixture *fx, const char *section, size_t n)
{
	size_t i;

	fx_config(fx, section, "noop", "threads=1 runtime=1");
	fx_run(fx, true, RUN_OK, "throughput=1", NULL, 0);
	for (i = 0; i < n; i++) {
		char m[64];

		snprintf(m, sizeof(m), "throughput=%g", seq8[i]);
		fx_run(fx, false, RUN_OK, m, NULL, 0);
	}
}

static void set_text(struct fixture *fx, const char *text)
{
	free(fx->d.exp.config_text);
	fx->d.exp.config_text = xstrdup(text);
}

/* An experiment stored before the keys: its text, and the keys the store
 * writes from it (at upgrade, or in memory from a read-only file). */
static void set_old_text(struct fixture *fx, const char *text)
{
	set_text(fx, text);
	contract_from_config(&fx->d.exp);
}

/* analysis_run at confidence (0: the experiment's 0.95). */
static void analyse(struct fixture *fx, double confidence, struct analysis *a)
{
	struct analysis_opts o;

	analysis_opts_default(&o);
	o.confidence = confidence;
	fx_finish(fx);
	assert_int_equal(analysis_run(&fx->d, &o, a), 0);
}

static void assert_stop(const struct config_analysis *ca, const char *why,
			double rel_hw, double precision, int min, int max)
{
	assert_true(ca->is_auto);
	assert_string_equal(ca->auto_stop, why);
	assert_true(fabs(ca->auto_rel_hw - rel_hw) < 5e-4);
	assert_true(fabs(ca->auto_precision - precision) < 1e-12);
	assert_int_equal(ca->auto_min, min);
	assert_int_equal(ca->auto_max, max);
}

/*
 * Sections steady (8 values), capped (7) and fixed (8), analysed at
 * confidence: steady stops for precision with max_repetitions
 * steady_max, capped at its cap of 7, fixed is not auto.
 */
static void assert_three(struct fixture *fx, double confidence,
			 int steady_max)
{
	struct analysis a;

	add_section(fx, "steady", 8);
	add_section(fx, "capped", 7);
	add_section(fx, "fixed", 8);
	analyse(fx, confidence, &a);
	assert_stop(&a.configs[0], "precision reached", 0.0184, 0.02, 3,
		    steady_max);
	assert_stop(&a.configs[1],
		    "cap reached (max_repetitions) before the precision",
		    0.0220, 0.02, 3, 7);
	assert_false(a.configs[2].is_auto);
	analysis_release(&a);
	fx_free(fx);
}

static void test_stored_settings(void **state)
{
	struct fixture fx;

	(void)state;
	fx_init(&fx, "stored");
	/* A config text saying otherwise must not be read. */
	set_text(&fx, "[experiment]\nrepetitions = auto\nprecision = 0.5\n");
	fx_meta(&fx, "repetitions.steady", "auto");
	fx_meta(&fx, "auto.steady.precision", "0.02");
	fx_meta(&fx, "auto.steady.min_repetitions", "3");
	fx_meta(&fx, "auto.steady.max_repetitions", "100");
	fx_meta(&fx, "repetitions.capped", "auto");
	fx_meta(&fx, "auto.capped.precision", "0.02");
	fx_meta(&fx, "auto.capped.min_repetitions", "3");
	fx_meta(&fx, "auto.capped.max_repetitions", "7");
	fx_meta(&fx, "repetitions.fixed", "8");
	/* The rule ran at the experiment's 0.95, whatever the report's. */
	assert_three(&fx, 0.5, 100);
}

static void test_stored_unreadable(void **state)
{
	struct fixture fx;
	struct analysis a;

	(void)state;
	fx_init(&fx, "unreadable");
	fx_meta(&fx, "repetitions.s", "auto");
	fx_meta(&fx, "auto.s.precision", "two percent");
	fx_meta(&fx, "auto.s.min_repetitions", "3");
	fx_meta(&fx, "auto.s.max_repetitions", "7");
	add_section(&fx, "s", 7);
	analyse(&fx, 0, &a);
	assert_false(a.configs[0].is_auto);
	analysis_release(&a);
	fx_free(&fx);
}

/*
 * No settings stored: the config text's, a section's key over
 * [experiment]'s over the old defaults (max_repetitions 30).
 */
static void test_legacy_text(void **state)
{
	struct fixture fx;

	(void)state;
	fx_init(&fx, "legacy");
	set_old_text(&fx, "[experiment]\nname = legacy\nrepetitions = auto\n"
		      "min_repetitions = 3\nprecision = 0.5\n"
		      "[workload steady]\ntype = noop\nprecision = 0.02\n"
		      "[workload  capped]\ntype = noop\nprecision = 0.02\n"
		      "max_repetitions = 7\n"
		      "[workload fixed]\ntype = noop\nrepetitions = 8\n");
	assert_three(&fx, 0, 30);
}

static void test_legacy_unreadable(void **state)
{
	static const char *const texts[] = {
		/* not auto: the default is 10 repetitions */
		"[experiment]\nname = x\nprecision = 0.02 ; auto\n"
		"[workload s]\ntype = noop\n",
		/* a precision the runner would have refused */
		"[experiment]\nrepetitions = auto\nprecision = 2%\n"
		"[workload s]\ntype = noop\n",
		/* auto in another section only */
		"[experiment]\nname = x\n[workload t]\nrepetitions = auto\n"
		"[workload s]\ntype = noop\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(texts); i++) {
		struct fixture fx;
		struct analysis a;

		fx_init(&fx, "legacy");
		set_old_text(&fx, texts[i]);
		add_section(&fx, "s", 8);
		analyse(&fx, 0, &a);
		assert_false(a.configs[0].is_auto);
		analysis_release(&a);
		fx_free(&fx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stored_settings),
		cmocka_unit_test(test_stored_unreadable),
		cmocka_unit_test(test_legacy_text),
		cmocka_unit_test(test_legacy_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
