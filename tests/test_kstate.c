/*
 * test_kstate.c - the kernel state of runner/kstate.c read from a fake
 * tracefs, /proc and /sys tree, its change between the start and the end
 * of an experiment, and instrumentation-differs (analysis/instrument.c)
 * on experiment rows built in memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "analysis/analysis.h"
#include "db/store.h"
#include "lib/util.h"
#include "runner/host.h"
#include "runner/kstate.h"
#include "tests/tmpdir.h"

struct file {
	const char *path, *text;
};

#define TR "/sys/kernel/tracing"

static const struct file traced_tree[] = {
	{ TR "/tracing_on", "1\n" },
	{ TR "/current_tracer", "nop\n" },
	{ TR "/events/lock/enable", "1\n" },
	{ TR "/events/sched/enable", "X\n" },
	{ TR "/events/irq/enable", "0\n" },
	{ TR "/set_event",
	  "lock:contention_begin\nlock:contention_end\nsched:sched_switch\n" },
	{ TR "/kprobe_events",
	  "p:kprobes/a do_sys_open\np:kprobes/b vfs_read\n"
	  "p:kprobes/c vfs_write\nr:kprobes/d vfs_write\np:kprobes/e x\n" },
	{ "/proc/lockdep_stats", " lock-classes:  1 [max: 8192]\n"
				 " debug_locks:                 0\n" },
	{ "/proc/sys/kernel/prove_locking", "1\n" },
	{ "/proc/sys/kernel/lock_stat", "0\n" },
	{ "/proc/cmdline", "root=/dev/sda1 mitigations=off nohz_full=2-3\n" },
	{ "/proc/sys/kernel/osrelease", "6.8.0-test\n" },
	{ "/boot/config-6.8.0-test",
	  "CONFIG_MUTEX_SPIN_ON_OWNER=y\n# CONFIG_LOCK_STAT is not set\n"
	  "CONFIG_PARAVIRT_SPINLOCKS=y\nCONFIG_DEBUG_MUTEXES=y\n"
	  "CONFIG_MUTEX_SPIN_ON_OWNER_X=n\n" },
	{ "/sys/devices/system/cpu/vulnerabilities/meltdown", "Not affected\n" },
	{ "/sys/devices/system/cpu/vulnerabilities/spectre_v2",
	  "Mitigation: Retpolines; IBPB: conditional\n" },
	{ "/sys/devices/system/cpu/isolated", "\n" },
	{ "/sys/devices/system/cpu/nohz_full", "2-3\n" },
	{ "/sys/kernel/mm/transparent_hugepage/enabled",
	  "always [madvise] never\n" },
};

static void write_file(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s%s", root, rel);
	char *slash = path + strlen(root);
	FILE *f;

	while ((slash = strchr(slash + 1, '/'))) {
		*slash = '\0';
		mkdir(path, 0700);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

static void make_tree(char *root, size_t len, const struct file *files,
		      size_t n)
{
	size_t i;

	assert_int_equal(tmpdir_create(root, len, "kstate"), 0);
	for (i = 0; i < n; i++)
		write_file(root, files[i].path, files[i].text);
}

static void assert_meta(const struct experiment_row *e, const char *key,
			const char *want)
{
	const char *got = experiment_meta(e, key);

	if (!got || strcmp(got, want))
		fail_msg("%s: got '%s', want '%s'", key, got ? got : "(absent)",
			 want);
}

static void test_traced_tree(void **state)
{
	static const struct {
		const char *key, *want;
	} want[] = {
		{ "kstate.trace_lock", "1" },
		{ "kstate.trace_sched", "X" },
		{ "kstate.trace_irq", "0" },
		{ "kstate.trace_events", "lock:contention_begin,"
		  "lock:contention_end,sched:sched_switch" },
		{ "kstate.current_tracer", "nop" },
		{ "kstate.tracing_on", "1" },
		{ "kstate.kprobe_events", "p:kprobes/a,p:kprobes/b,"
		  "p:kprobes/c,r:kprobes/d,..." },
		{ "kstate.uprobe_events", "unknown" },
		{ "kstate.lockdep_debug_locks", "0" },
		{ "kstate.prove_locking", "1" },
		{ "kstate.lock_stat", "0" },
		{ "kstate.mitigations", "off" },
		{ "kstate.vuln.meltdown", "Not affected" },
		{ "kstate.vuln.spectre_v2", "Mitigation" },
		{ "kstate.isolated", "none" },
		{ "kstate.nohz_full", "2-3" },
		{ "kstate.thp", "madvise" },
		{ "kstate.kconfig.MUTEX_SPIN_ON_OWNER", "y" },
		{ "kstate.kconfig.RWSEM_SPIN_ON_OWNER", "n" },
		{ "kstate.kconfig.PARAVIRT_SPINLOCKS", "y" },
		{ "kstate.kconfig.LOCK_STAT", "n" },
		{ "kstate.kconfig.DEBUG_MUTEXES", "y" },
	};
	struct experiment_row e;
	char root[64];
	size_t i;

	(void)state;
	make_tree(root, sizeof(root), traced_tree, ARRAY_SIZE(traced_tree));
	memset(&e, 0, sizeof(e));
	assert_int_equal(kstate_collect(root, true, &e), 0);
	for (i = 0; i < ARRAY_SIZE(want); i++)
		assert_meta(&e, want[i].key, want[i].want);
	experiment_row_release(&e);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* Nothing readable: every key "unknown", the kernel's default mitigations
 * unknown too (no command line), no kconfig keys without kconfig. */
static void test_empty_tree(void **state)
{
	struct experiment_row e;
	char root[64];
	size_t i;

	(void)state;
	make_tree(root, sizeof(root), NULL, 0);
	memset(&e, 0, sizeof(e));
	kstate_collect(root, false, &e);
	assert_true(e.nmeta > 10);
	for (i = 0; i < e.nmeta; i++) {
		assert_int_equal(strncmp(e.meta[i].key, "kstate.", 7), 0);
		assert_null(strstr(e.meta[i].key, "kconfig"));
		assert_string_equal(e.meta[i].value, "unknown");
	}
	experiment_row_release(&e);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* Lock events switched on during the experiment: kstate_end stores the
 * end's value of that key only, and instrument_changes names it. */
static void test_changed_during(void **state)
{
	struct experiment_row e, got;
	struct store *s;
	char root[64], *db, *msg;

	(void)state;
	make_tree(root, sizeof(root), traced_tree, ARRAY_SIZE(traced_tree));
	write_file(root, TR "/events/lock/enable", "0\n");
	memset(&e, 0, sizeof(e));
	e.name = xstrdup("x");
	e.order = xstrdup("random");
	e.status = xstrdup("planned");
	e.confidence = 0.95;
	kstate_collect(root, true, &e);
	db = xasprintf("%s/k.db", root);
	assert_int_equal(store_open(db, STORE_CREATE, &s), 0);
	assert_int_equal(store_experiment_create(s, &e), 0);
	write_file(root, TR "/events/lock/enable", "1\n");
	assert_int_equal(kstate_end(root, s, &e), 0);
	memset(&got, 0, sizeof(got));
	assert_int_equal(store_experiment_get(s, e.id, &got), 0);
	assert_meta(&got, "kstate_end.trace_lock", "1");
	assert_meta(&got, "kstate_checked", "start, end");
	assert_null(experiment_meta(&got, "kstate_end.trace_sched"));
	msg = instrument_changes(&got);
	assert_non_null(msg);
	assert_string_equal(msg, "kstate.trace_lock changed from '0' to '1'");
	free(msg);
	/* Unchanged: no end keys, no message. */
	assert_null(instrument_changes(&e));
	experiment_row_release(&got);
	experiment_row_release(&e);
	store_close(s);
	free(db);
	assert_int_equal(tmpdir_remove(root), 0);
}

static void row(struct experiment_row *e, int64_t id, const char *const *kv,
		size_t n)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	e->id = id;
	for (i = 0; i + 1 < n; i += 2)
		meta_set(e, kv[i], kv[i + 1]);
}

static void test_diff(void **state)
{
	static const char *const base[] = {
		"kernel_release", "6.1", "cpu_model", "Xeon",
		"kstate.trace_lock", "0", "kstate.tracing_on", "1",
		"kstate.thp", "madvise", "kernel_instruments", "none",
		"kstate.mitigations", "unknown", "kstate.only_base", "1",
	};
	static const char *const cand[] = {
		"kernel_release", "6.2", "cpu_model", "Epyc",
		"kstate.trace_lock", "1", "kstate.tracing_on", "1",
		"kstate.thp", "always", "kernel_instruments", "lock:x",
		"kstate.mitigations", "off",
	};
	struct experiment_row b, c, c2, pc[2];
	char *msg;

	(void)state;
	row(&b, 1, base, ARRAY_SIZE(base));
	row(&c, 2, cand, ARRAY_SIZE(cand));
	pc[0] = c;
	msg = instrument_diff(&b, 1, pc, 1);
	assert_non_null(msg);
	/* Every differing key once, in the baseline's order; not the kernel,
	 * the CPU (host-mismatch's), an unknown value or a missing key. */
	assert_string_equal(msg, "kstate.trace_lock '0' vs '1'; "
			    "kstate.thp 'madvise' vs 'always'; "
			    "kernel_instruments 'none' vs 'lock:x'");
	free(msg);
	/* The same state on both sides: nothing. */
	pc[0] = b;
	assert_null(instrument_diff(&b, 1, pc, 1));
	/* A second candidate experiment that changed during its run. */
	row(&c2, 7, base, ARRAY_SIZE(base));
	meta_set(&c2, "kstate_end.tracing_on", "0");
	pc[1] = c2;
	msg = instrument_diff(&b, 1, pc, 2);
	assert_non_null(msg);
	assert_string_equal(msg, "kstate.tracing_on changed from '1' to '0' "
			    "during candidate experiment 7");
	free(msg);
	/* The report's line: the active instruments, then the change. */
	msg = instrument_active(&c2);
	assert_string_equal(msg, "changed during the experiment: "
			    "kstate.tracing_on changed from '1' to '0'");
	free(msg);
	meta_set(&c2, "kstate.current_tracer", "function");
	meta_set(&c2, "kstate.trace_events", "2 (lock:a, lock:b)");
	meta_set(&c2, "kstate.kprobe_events", "unknown");
	msg = instrument_active(&c2);
	assert_string_equal(msg, "kstate.trace_events=2 (lock:a, lock:b), "
			    "kstate.current_tracer=function; changed during "
			    "the experiment: kstate.tracing_on changed from "
			    "'1' to '0'");
	free(msg);
	assert_null(instrument_active(&b));
	experiment_row_release(&b);
	experiment_row_release(&c);
	experiment_row_release(&c2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_traced_tree),
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_changed_during),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
