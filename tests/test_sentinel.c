/*
 * test_sentinel.c - runner/sentinel.c through a replaceable kernel log (a
 * reader handing out records the test queues) and a fake /proc and /sys
 * tree: lines classified and attributed to the window they fall in,
 * steal and idle time and the mean frequency worked out by hand; APERF and
 * MPERF through fake /dev/cpu/N/msr files (the register number is the
 * offset, as the msr driver has it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/util.h"
#include "runner/sentinel.h"
#include "runner/workload.h"
#include "tests/sentinel_fixture.h"
#include "tests/tmpdir.h"

static const struct {
	const char *name, *text;
	int cls;
} lines[] = {
	{ "lockdep", "WARNING: possible circular locking dependency detected",
	  KMSG_LOCKDEP },
	{ "recursive", "WARNING: possible recursive locking detected",
	  KMSG_LOCKDEP },
	{ "rcu", "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
	  KMSG_RCU_STALL },
	{ "rcu self", "rcu: \t0-....: (2099 ticks this GP) self-detected stall "
	  "on CPU", KMSG_RCU_STALL },
	{ "soft", "watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [x:12]",
	  KMSG_SOFT_LOCKUP },
	{ "hard", "watchdog: Watchdog detected hard LOCKUP on cpu 3",
	  KMSG_HARD_LOCKUP },
	{ "hung", "INFO: task kworker/0:1:42 blocked for more than 120 "
	  "seconds.", KMSG_HUNG_TASK },
	{ "perf", "perf: interrupt took too long (2503 > 2500), lowering "
	  "kernel.perf_event_max_sample_rate to 79000", KMSG_PERF_IRQ },
	{ "thermal", "mce: CPU2: Package temperature above threshold, cpu "
	  "clock throttled (total events = 1)", KMSG_THERMAL },
	{ "oom", "Out of memory: Killed process 4242 (hog) total-vm:1kB",
	  KMSG_OOM_KILL },
	{ "segv", "contend[4321]: segfault at 0 ip 00005 sp 00007 error 4 in "
	  "contend[1000+2000]", KMSG_SEGFAULT },
	{ "gp", "traps: x[12] general protection fault ip:4011 sp:7ffd error:0",
	  KMSG_SEGFAULT },
	{ "warn", "WARNING: CPU: 1 PID: 7 at kernel/locking/mutex.c:582",
	  KMSG_BUG },
	{ "bug", "BUG: kernel NULL pointer dereference, address: 0000",
	  KMSG_BUG },
	{ "plain", "EXT4-fs (sda1): mounted filesystem", -1 },
	{ "splat body", "       CPU0                    CPU1", -1 },
	{ "oom header", "hog invoked oom-killer: gfp_mask=0x140cca", -1 },
};

static void test_classify(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		if (kmsg_classify(lines[i].text) != lines[i].cls)
			fail_msg("%s: class %d, want %d", lines[i].name,
				 kmsg_classify(lines[i].text), lines[i].cls);
}

/*
 * Two windows.  Between them a record nobody's (dropped at the second
 * begin); in the first a lockdep splat (its header counts, its body does
 * not) and a thermal line; the second is clean.
 */
static void test_windows(void **state)
{
	struct fake_log log = { { NULL }, 0, 0 };
	struct sentinel s;
	struct sentinel_window w;
	struct result res;
	char root[64], *first;

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	write_file(root, "/proc/stat", "cpu  100 0 50 800 10 0 0 40 5 0\n"
				       "cpu0 50 0 25 400 5 0 0 20 0 0\n");
	write_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/"
			 "scaling_cur_freq", "2000000\n");
	write_file(root, "/sys/devices/system/cpu/cpu1/cpufreq/"
			 "scaling_cur_freq", "3000000\n");
	sentinel_open(&s, root);
	sentinel_set_reader(&s, fake_read, &log);
	log_push(&log, "4,100,5000,-;before the experiment's first run\n");

	sentinel_begin(&s, NULL);
	log_push(&log, "4,101,6000,-;WARNING: possible circular locking "
		       "dependency detected\n");
	log_push(&log, "4,102,6001,c;6.8.0 \x1b[31mred\n SUBSYSTEM=x\n");
	log_push(&log, "4,103,6002,-;mce: CPU0: Core temperature above "
		       "threshold, cpu clock throttled\n");
	/* 25 ticks more in all: 10 idle, 5 steal (at 100 Hz: 0.05 s) */
	write_file(root, "/proc/stat", "cpu  105 0 55 810 10 0 0 45 5 0\n");
	write_file(root, "/sys/devices/system/cpu/cpu1/cpufreq/"
			 "scaling_cur_freq", "1000000\n");
	sentinel_end(&s, 0, &w);
	assert_int_equal(w.total, 2);
	assert_int_equal(w.count[KMSG_LOCKDEP], 1);
	assert_int_equal(w.count[KMSG_THERMAL], 1);
	assert_int_equal(w.first_class, KMSG_LOCKDEP);
	if (sysconf(_SC_CLK_TCK) == 100)
		assert_float_equal(w.steal_s, 0.05, 1e-12);
	assert_float_equal(w.idle_share, 10.0 / 25.0, 1e-12);
	/* begin: (2 + 3) / 2 GHz; end: (2 + 1) / 2 GHz; mean 2000 MHz */
	assert_float_equal(w.cpu_mhz, 2000, 1e-9);
	first = sentinel_first(&w);
	assert_string_equal(first, "lockdep: WARNING: possible circular "
			    "locking dependency detected");
	free(first);
	result_init(&res);
	sentinel_add(&w, &res);
	assert_float_equal(result_value(&res, "kmsg_lockdep"), 1, 0);
	assert_float_equal(result_value(&res, "kmsg_thermal"), 1, 0);
	assert_true(isnan(result_value(&res, "kmsg_rcu_stall")));
	assert_float_equal(result_value(&res, "idle_share"), 0.4, 1e-12);
	assert_false(isnan(result_value(&res, "steal_s")));
	result_release(&res);

	/* between the runs: a segfault of some other program, nobody's */
	log_push(&log, "6,104,7000,-;other[9]: segfault at 0 ip 1 sp 2\n");
	sentinel_begin(&s, NULL);
	sentinel_end(&s, 0, &w);
	assert_int_equal(w.total, 0);
	assert_int_equal(w.first_class, -1);
	assert_null(sentinel_first(&w));
	/* no ticks passed: no idle share; no steal either */
	assert_true(isnan(w.idle_share));
	assert_float_equal(w.steal_s, 0, 0);
	sentinel_close(&s);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* A segfault is the run's when its task's pid is the run's: between the
 * run's pid and the last pid handed out when the run ended. */
static void test_segfault_pids(void **state)
{
	struct fake_log log = { { NULL }, 0, 0 };
	struct sentinel s;
	struct sentinel_window w;
	char root[64];

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	write_file(root, "/proc/sys/kernel/ns_last_pid", "5000\n");
	write_file(root, "/proc/self/status", "Name:\tx\nNSpid:\t4000\n");
	sentinel_open(&s, root);
	sentinel_set_reader(&s, fake_read, &log);
	sentinel_begin(&s, NULL);
	log_push(&log, "6,1,1,-;exe[4995]: segfault at 0 ip 1 sp 2 error 4 "
		       "in exe[1000+2000]\n");
	log_push(&log, "6,2,2,-;other[123]: segfault at 0 ip 1 sp 2\n");
	log_push(&log, "6,3,3,-;traps: exe[4999] general protection fault "
		       "ip:4011 sp:7ffd error:0\n");
	log_push(&log, "6,4,4,-;traps: late[5001] general protection fault "
		       "ip:1 sp:2 error:0\n");
	log_push(&log, "6,5,5,-;WARNING: possible recursive locking "
		       "detected\n");
	sentinel_end(&s, 4990, &w);
	assert_int_equal(w.count[KMSG_SEGFAULT], 2);
	assert_int_equal(w.count[KMSG_LOCKDEP], 1);  /* not pid-bound */
	assert_int_equal(w.first_class, KMSG_SEGFAULT);
	assert_non_null(strstr(w.first_line, "exe[4995]"));
	/* the run's pid unknown: every segfault line of the window */
	log_push(&log, "6,6,6,-;other[123]: segfault at 0 ip 1 sp 2\n");
	sentinel_end(&s, 0, &w);
	assert_int_equal(w.count[KMSG_SEGFAULT], 1);
	sentinel_close(&s);
	/* in a nested pid namespace the log's pids are not ours: all count */
	write_file(root, "/proc/self/status", "NSpid:\t4000\t12\n");
	sentinel_open(&s, root);
	sentinel_set_reader(&s, fake_read, &log);
	log_push(&log, "6,7,7,-;other[123]: segfault at 0 ip 1 sp 2\n");
	sentinel_end(&s, 4990, &w);
	assert_int_equal(w.count[KMSG_SEGFAULT], 1);
	sentinel_close(&s);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* A host without /proc/stat or cpufreq: nothing stored, nothing fails. */
static void test_nothing_readable(void **state)
{
	struct sentinel s;
	struct sentinel_window w;
	struct result res;
	char root[64];

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	sentinel_open(&s, root);
	sentinel_begin(&s, NULL);
	sentinel_end(&s, 0, &w);
	assert_true(isnan(w.steal_s));
	assert_true(isnan(w.cpu_mhz));
	result_init(&res);
	sentinel_add(&w, &res);
	assert_int_equal(res.nmetrics, 0);
	result_release(&res);
	sentinel_close(&s);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* Many CPUs: a bounded number of files read a run, the mean still right. */
static void test_many_cpus(void **state)
{
	struct sentinel s;
	struct sentinel_window w;
	char root[64], path[96];
	size_t i;

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	for (i = 0; i < 40; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%zu/"
			 "cpufreq/scaling_cur_freq", i);
		write_file(root, path, "2500000\n");
	}
	sentinel_open(&s, root);
	assert_true(s.nfreq > 0 && s.nfreq <= SENTINEL_MAX_FREQ_CPUS);
	sentinel_begin(&s, NULL);
	sentinel_end(&s, 0, &w);
	assert_float_equal(w.cpu_mhz, 2500, 1e-9);
	sentinel_close(&s);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* ---- APERF/MPERF ---- */

/*
 * A fake msr file: MPERF (0xE7) is the 8 bytes from offset 0xE7 and APERF
 * (0xE8) those from 0xE8, little-endian, so they share 7 bytes; the test
 * writes the 9 bytes b[0..8] at 0xE7 with only b[7] (MPERF's top byte,
 * APERF's 7th) and b[8] (APERF's top byte) not zero:
 *     MPERF = b7 * 2^56,  APERF = b7 * 2^48 + b8 * 2^56.
 */
static void write_msr(const char *root, int cpu, unsigned b7, unsigned b8)
{
	unsigned char b[9] = { 0, 0, 0, 0, 0, 0, 0, (unsigned char)b7,
			       (unsigned char)b8 };
	char rel[64], *path;
	int fd;

	snprintf(rel, sizeof(rel), "/dev/cpu/%d/msr", cpu);
	write_file(root, rel, "");
	path = xasprintf("%s%s", root, rel);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, b, sizeof(b), 0xE7), (ssize_t)sizeof(b));
	close(fd);
	free(path);
}

/*
 * Two CPUs, base 2000 MHz (/proc/cpuinfo).  From zero, CPU 0 ends at
 * b7 = 100, b8 = 150: dMPERF = 100 * 2^56, dAPERF = 100 * 2^48 + 150 *
 * 2^56, a ratio of 1.5 + 1/256; CPU 1 at b7 = 100, b8 = 50: 0.5 + 1/256.
 * The run on CPU 0 alone: 2000 * (1.5 + 1/256) = 3007.8125 MHz; on both:
 * the sums' ratio (200 * 2^48 + 200 * 2^56) / (200 * 2^56) = 1 + 1/256,
 * 2007.8125 MHz.  cpufreq's own value (1000 MHz) is not used.
 */
static void test_msr(void **state)
{
	struct sentinel s;
	struct sentinel_window w;
	cpu_set_t one;
	char root[64];

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	write_file(root, "/proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: "
					  "2000.000\nprocessor\t: 1\n");
	write_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/"
			 "scaling_cur_freq", "1000000\n");
	write_msr(root, 0, 0, 0);
	write_msr(root, 1, 0, 0);
	sentinel_open(&s, root);
	assert_string_equal(s.freq_source, "aperf-mperf");
	assert_null(s.msr_state);
	assert_float_equal(s.base_mhz, 2000, 1e-9);
	assert_string_equal(s.base_from, "cpuinfo");
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sentinel_begin(&s, &one);
	write_msr(root, 0, 100, 150);
	write_msr(root, 1, 100, 50);
	sentinel_end(&s, 0, &w);
	assert_float_equal(w.cpu_mhz, 3007.8125, 1e-9);
	write_msr(root, 0, 0, 0);
	write_msr(root, 1, 0, 0);
	sentinel_begin(&s, NULL);
	write_msr(root, 0, 100, 150);
	write_msr(root, 1, 100, 50);
	sentinel_end(&s, 0, &w);
	assert_float_equal(w.cpu_mhz, 2007.8125, 1e-9);
	/* no time counted (an idle window): cpufreq's mean instead */
	sentinel_begin(&s, NULL);
	sentinel_end(&s, 0, &w);
	assert_float_equal(w.cpu_mhz, 1000, 1e-9);
	sentinel_close(&s);
	/* intel_pstate's base_frequency (kHz) before cpuinfo's */
	write_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/"
			 "base_frequency", "2600000\n");
	sentinel_open(&s, root);
	assert_float_equal(s.base_mhz, 2600, 0);
	sentinel_close(&s);
	assert_int_equal(tmpdir_remove(root), 0);
}

/*
 * Frequencies no CPU has are refused.  CPU 0's registers go backwards
 * between the window's ends (reset: a CPU taken offline and back): its
 * unsigned difference would be about 2^64 - 100 * 2^56 and the window
 * 10^21 MHz (4.8e21 was stored so); it is left out and CPU 1 alone
 * gives 2000 * (0.5 + 1/256) = 1007.8125 MHz.  With both reset nothing
 * is left: cpufreq's 1000 MHz.  A base frequency read as 2e9 MHz gives
 * an unphysical window too: cpufreq's instead.
 */
static void test_msr_unphysical(void **state)
{
	struct sentinel s;
	struct sentinel_window w;
	char root[64];

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	write_file(root, "/proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: "
					  "2000.000\nprocessor\t: 1\n");
	write_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/"
			 "scaling_cur_freq", "1000000\n");
	write_msr(root, 0, 100, 150);
	write_msr(root, 1, 0, 0);
	sentinel_open(&s, root);
	sentinel_begin(&s, NULL);
	write_msr(root, 0, 0, 0);
	write_msr(root, 1, 100, 50);
	sentinel_end(&s, 0, &w);
	assert_float_equal(w.cpu_mhz, 1007.8125, 1e-9);
	write_msr(root, 0, 100, 150);
	write_msr(root, 1, 100, 150);
	sentinel_begin(&s, NULL);
	write_msr(root, 0, 0, 0);
	write_msr(root, 1, 0, 0);
	sentinel_end(&s, 0, &w);
	assert_float_equal(w.cpu_mhz, 1000, 1e-9);
	sentinel_close(&s);
	write_file(root, "/proc/cpuinfo", "processor\t: 0\ncpu MHz\t\t: "
					  "2000000000\nprocessor\t: 1\n");
	sentinel_open(&s, root);
	sentinel_begin(&s, NULL);
	write_msr(root, 0, 200, 250);
	write_msr(root, 1, 200, 250);
	sentinel_end(&s, 0, &w);
	assert_float_equal(w.cpu_mhz, 1000, 1e-9);
	/* and a cpufreq value no CPU has: no cpu_mhz at all */
	write_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/"
			 "scaling_cur_freq", "4800000000000\n");
	sentinel_begin(&s, NULL);
	write_msr(root, 0, 250, 255);
	write_msr(root, 1, 250, 255);
	sentinel_end(&s, 0, &w);
	assert_true(isnan(w.cpu_mhz));
	sentinel_close(&s);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* MSRs not readable: said once, in the source, with cpufreq or none. */
static void test_msr_unreadable(void **state)
{
	struct sentinel s;
	struct sentinel_window w;
	char root[64];

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	sentinel_open(&s, root);
	assert_string_equal(s.freq_source, "none");
	assert_string_equal(s.msr_state, "absent");
	sentinel_close(&s);
	/* a file that refuses the registers (here: too short) */
	write_file(root, "/dev/cpu/0/msr", "");
	write_file(root, "/proc/cpuinfo", "cpu MHz\t\t: 2000.000\n");
	write_file(root, "/sys/devices/system/cpu/cpu0/cpufreq/"
			 "scaling_cur_freq", "1500000\n");
	sentinel_open(&s, root);
	assert_string_equal(s.freq_source, "cpufreq");
	assert_string_equal(s.msr_state, "unreadable");
	assert_null(s.msr_fd);
	sentinel_begin(&s, NULL);
	sentinel_end(&s, 0, &w);
	assert_float_equal(w.cpu_mhz, 1500, 1e-9);
	sentinel_close(&s);
	assert_int_equal(tmpdir_remove(root), 0);
}


/* A line with control characters is stored escaped. */
static void test_first_escaped(void **state)
{
	struct sentinel_window w;
	char *first;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.first_class = KMSG_BUG;
	snprintf(w.first_line, sizeof(w.first_line), "BUG: \x1b[2Jcleared");
	first = sentinel_first(&w);
	assert_null(strchr(first, '\x1b'));
	assert_non_null(strstr(first, "bug: BUG: "));
	free(first);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_windows),
		cmocka_unit_test(test_segfault_pids),
		cmocka_unit_test(test_nothing_readable),
		cmocka_unit_test(test_many_cpus),
		cmocka_unit_test(test_first_escaped),
		cmocka_unit_test(test_msr),
		cmocka_unit_test(test_msr_unreadable),
		cmocka_unit_test(test_msr_unphysical),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
