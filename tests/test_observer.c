/*
 * test_observer.c - the observer-effect table (analysis/report.h) and
 * its text, on datasets built in memory: each observer paired with its
 * observer = none twin, the ratios of throughput and of hand-offs per
 * second with intervals worked out by hand below, misleading when the
 * gain comes with fewer hand-offs, and the observer's own
 * misleading-throughput message.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "analysis/report_impl.h"
#include "tests/analysis_fixture.h"
#include "tests/checks.h"
#include "tests/dataset_fixture.h"

static void runs(struct fixture *fx, const double *tput, const double *ho,
		 size_t n)
{
	static const uint64_t ops[2] = { 1000, 1000 };
	size_t i;

	for (i = 0; i < n; i++) {
		char m[160];

		snprintf(m, sizeof(m), "throughput=%.17g handoff_rate=%.17g "
			 "elapsed_s=1", tput[i], ho[i]);
		fx_run(fx, false, RUN_OK, m, ops, 2);
	}
}

/*
 * none: throughput 100, 102, 98, 100 (mean 100, s^2 8/3); hand-offs/s
 * 50, 52, 48, 50 (mean 50, s^2 8/3).
 * perf-lock: throughput 110, 112.2, 107.8, 110 (mean 110, s^2 1.21 *
 * 8/3); hand-offs/s 25, 26, 24, 25 (mean 25, s^2 2/3).
 * tracefs-lock: the none values again (ratios exactly 1).
 * A threads=4 bpf configuration has no none twin: no row.
 */
static const double t_none[4] = { 100, 102, 98, 100 };
static const double h_none[4] = { 50, 52, 48, 50 };
static const double t_perf[4] = { 110, 112.2, 107.8, 110 };
static const double h_perf[4] = { 25, 26, 24, 25 };

static void build(struct fixture *fx, struct analysis *a)
{
	fx_init(fx, "observers");
	fx_config(fx, "fm", "futex-mutex", "threads=2 runtime=1 observer=none");
	runs(fx, t_none, h_none, 4);
	fx_config(fx, "fm", "futex-mutex",
		  "threads=2 runtime=1 observer=perf-lock");
	runs(fx, t_perf, h_perf, 4);
	fx_config(fx, "fm", "futex-mutex",
		  "threads=2 runtime=1 observer=tracefs-lock");
	runs(fx, t_none, h_none, 4);
	fx_config(fx, "fm", "futex-mutex", "threads=4 runtime=1 observer=bpf");
	runs(fx, t_none, h_none, 4);
	analyse(fx, NULL, a);
}

/*
 * The ratio of means with the delta-method interval on the log scale:
 * throughput 110/100 = 1.1; each side's Var(log mean) = (s^2/n)/m^2 =
 * (8/3/4)/100^2 = 6.667e-5 (the perf side's s^2 and m^2 both scale by
 * 1.21), so se = sqrt(1.3333e-4) = 0.011547 and Satterthwaite's df = 6
 * exactly (equal terms, 3 df each); t(0.975, 6) = 2.446912 (published
 * table): 1.1 exp(+-0.028254) = [1.069355, 1.131523].
 * Hand-offs 25/50 = 0.5; Var terms (2/3)/2500 and (1/6)/625, both
 * 2.667e-4, se = 0.023094, df 6: 0.5 exp(+-0.056509) = [0.472529,
 * 0.529068].
 */
static void test_ratios(void **state)
{
	struct fixture fx;
	struct analysis a;
	struct observer_row *rows;
	const struct observer_row *r;

	(void)state;
	build(&fx, &a);
	assert_int_equal(observer_rows(&a, &rows), 2);
	r = &rows[0];
	assert_string_equal(r->observer, "perf-lock");
	assert_int_equal(r->base, 0);
	assert_int_equal(r->config, 1);
	assert_string_equal(r->metric, "throughput");
	assert_near(r->tput.ratio, 1.1, 1e-12);
	assert_near(1 + r->tput.ci_low_pct / 100, 1.069355, 1e-5);
	assert_near(1 + r->tput.ci_high_pct / 100, 1.131523, 1e-5);
	assert_near(r->handoffs.ratio, 0.5, 1e-12);
	assert_near(1 + r->handoffs.ci_low_pct / 100, 0.472529, 1e-5);
	assert_near(1 + r->handoffs.ci_high_pct / 100, 0.529068, 1e-5);
	assert_true(r->misleading);
	r = &rows[1];
	assert_string_equal(r->observer, "tracefs-lock");
	assert_int_equal(r->base, 0);
	assert_near(r->tput.ratio, 1.0, 1e-12);
	assert_near(r->handoffs.ratio, 1.0, 1e-12);
	assert_false(r->misleading);
	free(rows);
	done(&fx, &a);
}

/* The text: both rows, the intervals to 3 places, the misleading one
 * marked and explained, within 80 columns. */
static void test_text(void **state)
{
	struct fixture fx;
	struct analysis a;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	build(&fx, &a);
	f = open_memstream(&buf, &len);
	report_observer_text(f, &a);
	fclose(f);
	assert_non_null(strstr(buf, "2/1      perf-lock     1.100 [1.069, 1.132]  "
				    "0.500 [0.473, 0.529]  misleading"));
	assert_non_null(strstr(buf, "3/1      tracefs-lock  1.000 "));
	assert_non_null(strstr(buf, "misleading: the observer raised"));
	assert_fits_80(buf);
	free(buf);
	done(&fx, &a);
}

/* The pair flag between an observer and none says it is the observer's
 * effect; the tracefs-lock pair (no change) raises nothing. */
static void test_flag(void **state)
{
	struct fixture fx;
	struct analysis a;
	const struct flag *fl;

	(void)state;
	build(&fx, &a);
	fl = find_flag(&a, 1, "misleading-throughput");
	assert_non_null(fl);
	assert_int_equal(fl->other_config, 0);
	assert_non_null(strstr(fl->message, "observer none -> perf-lock"));
	assert_non_null(strstr(fl->message, "the observer slowed the lock's "
					    "contended path"));
	assert_null(find_flag(&a, 2, "misleading-throughput"));
	done(&fx, &a);
}

/* No observer, or no none to compare with: no table, no text. */
static void test_empty(void **state)
{
	struct fixture fx;
	struct analysis a;
	struct observer_row *rows;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fx_init(&fx, "plain");
	fx_config(&fx, "fm", "futex-mutex", "threads=2 runtime=1 observer=bpf");
	runs(&fx, t_none, h_none, 4);
	fx_config(&fx, "fm", "futex-mutex", "threads=4 runtime=1");
	runs(&fx, t_none, h_none, 4);
	analyse(&fx, NULL, &a);
	assert_int_equal(observer_rows(&a, &rows), 0);
	f = open_memstream(&buf, &len);
	report_observer_text(f, &a);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
	free(rows);
	done(&fx, &a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratios),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_flag),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
