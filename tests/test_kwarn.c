/*
 * test_kwarn.c - the sentinels' samples in the report (analysis/kwarn.c):
 * kernel-warning raised on a configuration with a run that logged a
 * warning and not on a clean one, --exclude-kernel-warnings leaving those
 * runs out, and the noisy flag naming stolen time, throttling or a moving
 * frequency with their numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "tests/analysis_fixture.h"

/* 10 runs of "throughput=X extra", X from xs. */
static void runs(struct fixture *fx, const double *xs, const char *const *extra,
		 size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char m[256];

		snprintf(m, sizeof(m), "throughput=%.17g wall_s=1 %s", xs[i],
			 extra && extra[i] ? extra[i] : "");
		fx_run(fx, false, RUN_OK, m, fair2, 2);
	}
}

static const double steady[10] = { 100, 101, 99, 100, 100.5, 99.5, 100,
				    101, 99, 100 };

static void test_kernel_warning(void **state)
{
	static const char *const dirty[10] = {
		NULL, "kmsg_lockdep=1", NULL, NULL, "kmsg_lockdep=2 kmsg_bug=1",
	};
	struct analysis_opts o;
	struct analysis a;
	struct fixture fx;
	const struct flag *f;

	(void)state;
	analysis_opts_default(&o);
	fx_init(&fx, "kwarn");
	fx_config(&fx, "dirty", "futex-mutex", "threads=2");
	fx_run(&fx, true, RUN_OK, "throughput=50 kmsg_rcu_stall=1", fair2, 2);
	runs(&fx, steady, dirty, 10);
	fx_config(&fx, "clean", "futex-mutex", "threads=4");
	runs(&fx, steady, NULL, 10);
	/* seqs: the warm-up 0, dirty runs 1..10 (warnings at 2 and 5) */
	fx_meta(&fx, "kmsg.2", "lockdep: WARNING: possible circular locking "
			       "dependency detected");
	fx_meta(&fx, "kmsg.5", "lockdep: later");
	analyse(&fx, &o, &a);
	f = find_flag(&a, 0, "kernel-warning");
	assert_non_null(f);
	assert_float_equal(flag_value(f, "runs"), 2, 0);
	assert_float_equal(flag_value(f, "of"), 10, 0);
	assert_float_equal(flag_value(f, "excluded"), 0, 0);
	/* the warm-up's stall is not the configuration's */
	assert_null(strstr(f->message, "rcu_stall"));
	assert_non_null(strstr(f->message, "2 of 10 runs"));
	assert_non_null(strstr(f->message, "(bug 1, lockdep 3; seq 2, 5)"));
	assert_non_null(strstr(f->message, "first: 'lockdep: WARNING: "
				"possible circular locking dependency "
				"detected'"));
	assert_null(find_flag(&a, 1, "kernel-warning"));
	assert_int_equal(a.configs[0].metrics[a.configs[0].primary].s.n, 10);
	done(&fx, &a);
}

static void test_exclude(void **state)
{
	static const char *const dirty[10] = {
		NULL, "kmsg_lockdep=1", NULL, NULL, "kmsg_thermal=1",
	};
	static const double xs[10] = { 100, 300, 100, 100, 100, 100, 100, 100,
				       100, 100 };
	struct analysis_opts o;
	struct analysis a;
	struct fixture fx;
	const struct flag *f;
	const struct metric_summary *ms;

	(void)state;
	analysis_opts_default(&o);
	fx_init(&fx, "kwarn");
	fx_config(&fx, "dirty", "futex-mutex", "threads=2");
	runs(&fx, xs, dirty, 10);
	fx_finish(&fx);
	assert_int_equal(kwarn_exclude(&fx.d), 2);
	assert_int_equal(analysis_run(&fx.d, &o, &a), 0);
	ms = &a.configs[0].metrics[a.configs[0].primary];
	/* the 300 of the run with the lockdep splat is gone: all 100 */
	assert_int_equal(ms->s.n, 8);
	assert_float_equal(ms->s.mean, 100, 1e-9);
	f = find_flag(&a, 0, "kernel-warning");
	assert_non_null(f);
	assert_float_equal(flag_value(f, "excluded"), 2, 0);
	assert_non_null(strstr(f->message, "left out of the summaries"));
	done(&fx, &a);
}

/*
 * The checks that could not run are said: runs that lost kernel log
 * records (klog_unread; a record lost is not a warning), and an
 * experiment whose log was not followed at all, whose word is escaped.
 */
static void test_log_unread(void **state)
{
	static const char *const lost[10] = {
		NULL, "klog_unread=3", NULL, "klog_unread=1",
	};
	struct analysis_opts o;
	struct analysis a;
	struct fixture fx;
	const struct flag *f;

	(void)state;
	analysis_opts_default(&o);
	fx_init(&fx, "kwarn");
	fx_config(&fx, "lossy", "futex-mutex", "threads=2");
	runs(&fx, steady, lost, 10);
	fx_config(&fx, "whole", "futex-mutex", "threads=4");
	runs(&fx, steady, NULL, 10);
	fx_meta(&fx, "kernel_log", "followed");
	analyse(&fx, &o, &a);
	f = find_flag(&a, 0, "kernel-log-unread");
	assert_non_null(f);
	assert_float_equal(flag_value(f, "runs"), 2, 0);
	assert_float_equal(flag_value(f, "of"), 10, 0);
	assert_float_equal(flag_value(f, "records"), 4, 0);
	assert_non_null(strstr(f->message, "2 of 10 runs lost 4 kernel log "
				"records"));
	assert_null(find_flag(&a, 0, "kernel-warning"));
	assert_null(find_flag(&a, 1, "kernel-log-unread"));
	done(&fx, &a);

	fx_init(&fx, "kwarn");
	fx_config(&fx, "blind", "futex-mutex", "threads=2");
	runs(&fx, steady, NULL, 10);
	fx_meta(&fx, "kernel_log", "denied");
	analyse(&fx, &o, &a);
	f = find_flag(&a, 0, "kernel-log-unread");
	assert_non_null(f);
	assert_float_equal(flag_value(f, "followed"), 0, 0);
	assert_non_null(strstr(f->message, "not followed (denied: reading it "
				"needs root, or kernel.dmesg_restrict = 0)"));
	done(&fx, &a);

	/* a merged database's word: shown escaped */
	fx_init(&fx, "kwarn");
	fx_config(&fx, "blind", "futex-mutex", "threads=2");
	runs(&fx, steady, NULL, 10);
	fx_meta(&fx, "kernel_log", "\x1b[2Jgone");
	analyse(&fx, &o, &a);
	f = find_flag(&a, 0, "kernel-log-unread");
	assert_non_null(f);
	assert_null(strchr(f->message, '\x1b'));
	assert_non_null(strstr(f->message, "\\x1b[2Jgone"));
	done(&fx, &a);

	/* an experiment stored before the key: nothing said */
	fx_init(&fx, "kwarn");
	fx_config(&fx, "old", "futex-mutex", "threads=2");
	runs(&fx, steady, NULL, 10);
	analyse(&fx, &o, &a);
	assert_null(find_flag(&a, 0, "kernel-log-unread"));
	done(&fx, &a);
}

static const char *const stolen[10] = {
	"steal_s=0.30 cpu_mhz=2000", "steal_s=0.01 cpu_mhz=2000",
	"steal_s=0.20 cpu_mhz=2000", "steal_s=0.02 cpu_mhz=2000",
	"steal_s=0.25 cpu_mhz=2000", "steal_s=0.01 cpu_mhz=2000",
	"steal_s=0.30 cpu_mhz=2000", "steal_s=0.01 cpu_mhz=2000",
	"steal_s=0.05 cpu_mhz=2000", "steal_s=0.05 cpu_mhz=2000",
};

static const char *const slowed[10] = {
	"steal_s=0 cpu_mhz=3000", "steal_s=0 cpu_mhz=2400",
	"steal_s=0 cpu_mhz=3000", "steal_s=0 cpu_mhz=3000",
	"steal_s=0 cpu_mhz=3000 kmsg_thermal=1", "steal_s=0 cpu_mhz=3000",
	"steal_s=0 cpu_mhz=3000", "steal_s=0 cpu_mhz=3000",
	"steal_s=0 cpu_mhz=3000", "steal_s=0 cpu_mhz=3000",
};

static const char *const quiet[10] = {
	"steal_s=0 cpu_mhz=3000", "steal_s=0.001 cpu_mhz=3010",
	"steal_s=0 cpu_mhz=3000", "steal_s=0 cpu_mhz=2990",
	"steal_s=0 cpu_mhz=3000", "steal_s=0 cpu_mhz=3000",
	"steal_s=0 cpu_mhz=3000", "steal_s=0 cpu_mhz=3000",
	"steal_s=0 cpu_mhz=3000", "steal_s=0 cpu_mhz=3000",
};

static void test_noise_cause(void **state)
{
	static const double noisy[10] = { 70, 100, 80, 100, 75, 100, 70, 100,
					  95, 95 };
	struct analysis_opts o;
	struct analysis a;
	struct fixture fx;
	const struct flag *f;

	(void)state;
	analysis_opts_default(&o);
	fx_init(&fx, "kwarn");
	fx_config(&fx, "vm", "futex-mutex", "threads=2");
	runs(&fx, noisy, stolen, 10);
	fx_config(&fx, "hot", "futex-mutex", "threads=3");
	runs(&fx, noisy, slowed, 10);
	fx_config(&fx, "plain", "futex-mutex", "threads=4");
	runs(&fx, noisy, quiet, 10);
	analyse(&fx, &o, &a);
	/* mean steal 1.2 / 10 = 0.12 s of 1 s wall, 0.01 to 0.3 */
	f = find_flag(&a, 0, "noisy");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "Likely cause: stolen time "
				"(steal_s) 0.12 s a run on average, 0.01 to "
				"0.3 s"));
	assert_null(strstr(f->message, "frequency moved"));
	/* 2400 to 3000 MHz is 25%; one thermal message */
	f = find_flag(&a, 1, "noisy");
	assert_non_null(f);
	assert_null(strstr(f->message, "stolen"));
	assert_non_null(strstr(f->message, "thermal throttling during 1 runs"));
	assert_non_null(strstr(f->message, "2400 to 3000 MHz (25%)"));
	/* steal 0.1% of the wall time, frequency within 1%: no cause */
	f = find_flag(&a, 2, "noisy");
	assert_non_null(f);
	assert_null(strstr(f->message, "Likely cause"));
	done(&fx, &a);
}

/*
 * A class name from the database is quoted capped: a kernel-warning
 * message never carries a 400-byte metric name whole.
 */
static void test_classes_capped(void **state)
{
	char name[401], m[512];
	struct analysis_opts o;
	struct analysis a;
	struct fixture fx;
	const struct flag *f;

	(void)state;
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	analysis_opts_default(&o);
	fx_init(&fx, "kwarn");
	fx_config(&fx, "long", "futex-mutex", "threads=2");
	snprintf(m, sizeof(m), "throughput=100 wall_s=1 kmsg_%s=1", name);
	fx_run(&fx, false, RUN_OK, m, fair2, 2);
	runs(&fx, steady, NULL, 9);
	analyse(&fx, &o, &a);
	f = find_flag(&a, 0, "kernel-warning");
	assert_non_null(f);
	assert_non_null(strstr(f->message, "1 of 10 runs"));
	assert_non_null(strstr(f->message, "(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
	assert_null(strstr(f->message, name));
	assert_true(strlen(f->message) < 600);
	done(&fx, &a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_warning),
		cmocka_unit_test(test_exclude),
		cmocka_unit_test(test_log_unread),
		cmocka_unit_test(test_noise_cause),
		cmocka_unit_test(test_classes_capped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
