/*
 * test_host.c - host metadata read from a fake /proc and /sys tree, and
 * the warnings the facts call for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <ftw.h>

#include <sched.h>

#include "runner/host.h"
#include "runner/kstate.h"
#include "runner/param.h"
#include "lib/util.h"

struct file {
	const char *path, *text;
};

static const struct file full_tree[] = {
	{ "/proc/sys/kernel/hostname", "bench1\n" },
	{ "/proc/sys/kernel/osrelease", "6.8.0-lockdep\n" },
	{ "/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Tue Jan 2\n" },
	{ "/proc/cpuinfo",
	  "processor\t: 0\nvendor_id\t: GenuineIntel\n"
	  "model name\t: Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz\n"
	  "processor\t: 1\n"
	  "model name\t: Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz\n" },
	{ "/proc/loadavg", "0.42 0.30 0.20 1/123 4567\n" },
	{ "/proc/lockdep", "all lock classes:\n" },
	{ "/sys/devices/system/cpu/online", "0-3\n" },
	{ "/sys/devices/system/cpu/smt/control", "on\n" },
	{ "/sys/devices/system/cpu/smt/active", "1\n" },
	{ "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
	  "performance\n" },
	{ "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor",
	  "performance\n" },
	{ "/proc/sys/kernel/random/boot_id",
	  "0f3e1c52-8a7b-4c1d-9e2f-1a2b3c4d5e6f\n" },
	{ "/proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=2-3\n" },
	{ "/proc/self/cpuset", "/bench\n" },
	{ "/sys/fs/cgroup/bench/cpuset.cpus.effective", "2-3\n" },
	{ "/boot/config-6.8.0-lockdep",
	  "# CONFIG_PREEMPT_NONE is not set\nCONFIG_PREEMPT_VOLUNTARY=y\n"
	  "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PROVE_LOCKING=y\n"
	  "# CONFIG_LOCK_STAT is not set\n" },
	/* The running mode of a dynamic kernel wins over its default. */
	{ "/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n" },
};

static char *make_tree(const struct file *files, size_t n)
{
	char *root = xstrdup("/tmp/contend-host.XXXXXX");
	size_t i;

	assert_non_null(mkdtemp(root));
	for (i = 0; i < n; i++) {
		char *path = xasprintf("%s%s", root, files[i].path);
		char *slash = path + strlen(root);
		FILE *f;

		/* mkdir -p of the parent */
		while ((slash = strchr(slash + 1, '/'))) {
			*slash = '\0';
			mkdir(path, 0700);
			*slash = '/';
		}
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(files[i].text, f);
		fclose(f);
		free(path);
	}
	return root;
}

static int remove_one(const char *path, const struct stat *sb, int type,
		      struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

static void remove_tree(char *root)
{
	assert_int_equal(nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(root);
}

static void assert_meta(const struct experiment_row *e, const char *key,
			const char *want)
{
	const char *got = experiment_meta(e, key);

	if (!got || strcmp(got, want))
		fail_msg("%s: got '%s', want '%s'", key, got ? got : "(absent)",
			 want);
}

/* affinity is sched_getaffinity's set of this process, as a cpu list. */
static void assert_affinity(const struct experiment_row *e)
{
	cpu_set_t set;
	char *want;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	want = cpulist_format(&set);
	assert_meta(e, "affinity", want);
	free(want);
}

static void test_full_tree(void **state)
{
	char *root = make_tree(full_tree, ARRAY_SIZE(full_tree));
	struct experiment_row e;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(host_collect(root, &e), 0);
	assert_meta(&e, "hostname", "bench1");
	assert_meta(&e, "kernel_release", "6.8.0-lockdep");
	assert_meta(&e, "kernel_version", "#1 SMP PREEMPT_DYNAMIC Tue Jan 2");
	assert_meta(&e, "cpu_model", "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz");
	assert_meta(&e, "cpus_online", "0-3");
	assert_meta(&e, "ncpus", "4");
	assert_meta(&e, "smt", "on");
	assert_meta(&e, "smt_active", "yes");
	assert_meta(&e, "governor", "performance");
	/* loadavg is load_start's old name: read, never written again */
	assert_null(experiment_meta(&e, "loadavg"));
	assert_meta(&e, "lockdep", "yes");
	assert_meta(&e, "lock_stat", "no");
	assert_meta(&e, "load_start", "0.42");
	assert_meta(&e, "boot_id", "0f3e1c52-8a7b-4c1d-9e2f-1a2b3c4d5e6f");
	assert_meta(&e, "cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=2-3");
	assert_meta(&e, "cpuset", "/bench");
	assert_meta(&e, "cpuset_cpus", "2-3");
	assert_meta(&e, "preempt", "full (dynamic)");
	/* CONFIG_PROVE_LOCKING has one reader: kstate.kconfig.NAME */
	assert_null(experiment_meta(&e, "kconfig_lockdep"));
	assert_null(experiment_meta(&e, "kconfig_lock_stat"));
	assert_affinity(&e);
	assert_non_null(experiment_meta(&e, "tool_version"));
	assert_non_null(experiment_meta(&e, "compiler"));
	/* 0.42 on 4 CPUs, performance governor: nothing to warn about. */
	assert_int_equal(host_warn(&e), 0);
	experiment_row_release(&e);
	remove_tree(root);
}

/* A machine without cpufreq, SMT files or lockdep: facts, not errors. */
static void test_empty_tree(void **state)
{
	char *root = make_tree(NULL, 0);
	struct experiment_row e;

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(host_collect(root, &e), 0);
	assert_meta(&e, "hostname", "unknown");
	assert_meta(&e, "cpu_model", "unknown");
	assert_meta(&e, "ncpus", "unknown");
	assert_meta(&e, "smt", "unknown");
	assert_meta(&e, "smt_active", "unknown");
	assert_meta(&e, "governor", "none");
	assert_meta(&e, "lockdep", "no");
	assert_meta(&e, "boot_id", "unknown");
	assert_meta(&e, "cmdline", "unknown");
	assert_meta(&e, "cpuset", "unknown");
	assert_meta(&e, "load_start", "unknown");
	assert_meta(&e, "preempt", "unknown");
	/* The affinity is this process's own, whatever the root. */
	assert_affinity(&e);
	assert_int_equal(host_warn(&e), 0);
	experiment_row_release(&e);
	remove_tree(root);
}

/* The preemption model from each source it can come from. */
static void test_preempt(void **state)
{
	static const struct {
		const char *name, *version, *config, *want;
	} cases[] = {
		{ "RT from uname", "#1 SMP PREEMPT_RT Tue", NULL, "rt" },
		{ "full from uname", "#1 SMP PREEMPT Tue", NULL, "full" },
		{ "dynamic from uname, mode unknown", "#1 SMP PREEMPT_DYNAMIC", NULL,
		  "dynamic" },
		{ "plain SMP: unknown without a config", "#1 SMP Tue", NULL,
		  "unknown" },
		{ "config default none, dynamic", "#1 SMP PREEMPT_DYNAMIC",
		  "CONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT_DYNAMIC=y\n",
		  "none (dynamic)" },
		{ "config voluntary", "#1 SMP", "CONFIG_PREEMPT_VOLUNTARY=y\n",
		  "voluntary" },
		{ "config RT", "#1 SMP", "CONFIG_PREEMPT_RT=y\n", "rt" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct file files[] = {
			{ "/proc/sys/kernel/osrelease", "6.9\n" },
			{ "/proc/sys/kernel/version", cases[i].version },
			{ "/boot/config-6.9", cases[i].config },
		};
		char *root = make_tree(files, cases[i].config ? 3 : 2);
		struct experiment_row e;

		memset(&e, 0, sizeof(e));
		print_message("%s\n", cases[i].name);
		host_collect(root, &e);
		assert_meta(&e, "preempt", cases[i].want);
		experiment_row_release(&e);
		remove_tree(root);
	}
}

/*
 * /proc/config.gz, where /boot has no configuration, read through zlib:
 * written here with gzwrite, read with PATH empty, so that no gzip
 * program could be what read it.
 */
static void test_kconfig_gz(void **state)
{
	static const struct file files[] = {
		{ "/proc/sys/kernel/osrelease", "6.9-gz\n" },
		{ "/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC\n" },
	};
	static const char config[] =
		"# CONFIG_PREEMPT_NONE is not set\nCONFIG_PREEMPT_LAZY=y\n"
		"CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PROVE_LOCKING=y\n"
		"CONFIG_LOCK_STAT=y\n";
	char *root = make_tree(files, ARRAY_SIZE(files));
	char *gz = xasprintf("%s/proc/config.gz", root);
	char *path = getenv("PATH") ? xstrdup(getenv("PATH")) : NULL;
	struct experiment_row e;
	gzFile f;
	unsigned char magic[2] = { 0 };
	FILE *raw;

	(void)state;
	f = gzopen(gz, "wb");
	assert_non_null(f);
	assert_int_equal(gzwrite(f, config, sizeof(config) - 1),
			 (int)sizeof(config) - 1);
	assert_int_equal(gzclose(f), Z_OK);
	raw = fopen(gz, "rb"); /* compressed indeed: gzip's magic */
	assert_non_null(raw);
	assert_int_equal(fread(magic, 1, 2, raw), 2);
	fclose(raw);
	assert_true(magic[0] == 0x1f && magic[1] == 0x8b);

	memset(&e, 0, sizeof(e));
	setenv("PATH", "", 1);
	host_collect(root, &e);
	if (path)
		setenv("PATH", path, 1);
	else
		unsetenv("PATH");
	kstate_collect(root, true, &e);
	assert_meta(&e, "kstate.kconfig.PROVE_LOCKING", "y");
	assert_meta(&e, "kstate.kconfig.LOCK_STAT", "y");
	assert_meta(&e, "preempt", "lazy (dynamic)");
	experiment_row_release(&e);
	free(path);
	free(gz);
	remove_tree(root);
}

static void test_mixed_governors(void **state)
{
	static const struct file files[] = {
		{ "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  "performance\n" },
		{ "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor",
		  "powersave\n" },
		{ "/sys/devices/system/cpu/cpu2/cpufreq/scaling_governor",
		  "powersave\n" },
		{ "/proc/cpuinfo", "Processor\t: ARMv7 Processor rev 4 (v7l)\n"
				   "Hardware\t: BCM2835\n" },
	};
	char *root = make_tree(files, ARRAY_SIZE(files));
	struct experiment_row e;

	(void)state;
	memset(&e, 0, sizeof(e));
	host_collect(root, &e);
	assert_meta(&e, "governor", "performance,powersave");
	/* "Processor" ranks above "Hardware" as the CPU's name. */
	assert_meta(&e, "cpu_model", "ARMv7 Processor rev 4 (v7l)");
	assert_int_equal(host_warn(&e), 1);
	experiment_row_release(&e);
	remove_tree(root);
}

static void test_warnings(void **state)
{
	static const struct {
		const char *name, *load, *ncpus, *governor;
		int want;
	} cases[] = {
		{ "quiet machine", "0.10", "2", "performance", 0 },
		{ "exactly 0.5 per cpu", "1.00", "2", "performance", 0 },
		{ "loaded", "1.01", "2", "performance", 1 },
		{ "powersave", "0.00", "2", "powersave", 1 },
		{ "both", "8.00", "4", "ondemand", 2 },
		{ "no cpufreq (a VM)", "0.00", "2", "none", 0 },
		{ "cpu count unknown", "9.00", "unknown", "performance", 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct experiment_row e;

		memset(&e, 0, sizeof(e));
		meta_set(&e, "load_start", cases[i].load);
		meta_set(&e, "ncpus", cases[i].ncpus);
		meta_set(&e, "governor", cases[i].governor);
		print_message("%s:\n", cases[i].name);
		assert_int_equal(host_warn(&e), cases[i].want);
		experiment_row_release(&e);
	}
}

static void test_meta_set_replaces(void **state)
{
	struct experiment_row e;

	(void)state;
	memset(&e, 0, sizeof(e));
	meta_set(&e, "k", "1");
	meta_set(&e, "k", "2");
	assert_int_equal(e.nmeta, 1);
	assert_meta(&e, "k", "2");
	experiment_row_release(&e);
}

/* Types from this process's mountinfo: /proc is proc wherever we run. */
static void test_fs_types(void **state)
{
	const char *proc[] = { "/proc" };
	const char *two[] = { "/proc", "/proc/self" };
	const char *mixed[] = { "/proc", "/" };
	struct experiment_row e;

	(void)state;
	memset(&e, 0, sizeof(e));
	host_fs_types(&e, proc, 0);
	assert_null(experiment_meta(&e, "fs_type"));
	host_fs_types(&e, proc, 1);
	assert_meta(&e, "fs_type", "proc");
	host_fs_types(&e, two, 2);
	assert_meta(&e, "fs_type", "proc");
	host_fs_types(&e, mixed, 2);
	assert_non_null(strstr(experiment_meta(&e, "fs_type"), "/proc=proc,/="));
	experiment_row_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_tree),
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_mixed_governors),
		cmocka_unit_test(test_preempt),
		cmocka_unit_test(test_kconfig_gz),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_meta_set_replaces),
		cmocka_unit_test(test_fs_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
