/*
 * test_facts.c - the one table of host facts (db/facts.c): every key the
 * runner's readers write has its row, and no stored value reads as a
 * sentence (the rule of fact_sentence, checked on cases decided by hand
 * and on what the readers store for this machine and for a fake tree).
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

#include "db/facts.h"
#include "db/store.h"
#include "lib/util.h"
#include "runner/host.h"
#include "runner/kstate.h"
#include "tests/store_helpers.h"
#include "tests/tmpdir.h"

/* The rule, case by case: each verdict decided by reading the value. */
static void test_sentence_rule(void **state)
{
	static const struct {
		const char *name, *value;
		bool sentence;
	} cases[] = {
		{ "a word", "performance", false },
		{ "a number", "0.42", false },
		{ "a cpu list", "0-3,8", false },
		{ "a list of names", "lock:contention_begin,sched:sched_switch",
		  false },
		{ "a path", "/sys/fs/cgroup/unified/contend-1", false },
		{ "two words", "Not affected", false },
		{ "three words", "cgroup v2 /sys/fs/cgroup/x", false },
		{ "a word and a bracket", "none (dynamic)", false },
		{ "a percent without a blank", "5%", false },
		{ "empty", "", false },
		{ "four words", "off unless asked now", true },
		{ "a figure in words", "costs 5-8%", true },
		{ "a clause", "no: 2 CPUs", true },
		{ "a semicolon", "none; no msr", true },
		{ "a full stop", "off. ask", true },
		{ "the stored sentence of kernel_lock_events",
		  "off unless asked (kernel_instruments = count, or "
		  "CONTEND_KLOCK=on): counting lock:contention_begin costs a "
		  "2-thread futex mutex 5-8% of its throughput", true },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (fact_sentence(cases[i].value) != cases[i].sentence)
			fail_msg("%s: '%s' %s a sentence", cases[i].name,
				 cases[i].value,
				 cases[i].sentence ? "is" : "is not");
}

static void test_find(void **state)
{
	(void)state;
	assert_non_null(fact_find("governor"));
	assert_true(fact_find("load_end")->when == FACT_END);
	/* a family and its members, at the start and the end */
	assert_non_null(fact_find("kstate.vuln.meltdown"));
	assert_null(fact_find("kstate.vuln."));
	assert_true(fact_find("kstate_end.trace_lock") ==
		    fact_find("kstate.trace_lock"));
	assert_true(fact_find("kstate.trace_lock")->when == FACT_START_END);
	/* not host facts: a section's setting, the claim */
	assert_null(fact_find("primary.mutex"));
	assert_null(fact_find("runner"));
	assert_null(fact_find("governorX"));
}

/* Every key in e has its row; every non-verbatim value is no sentence. */
static void check_row(const struct experiment_row *e, const char *where)
{
	size_t i;

	for (i = 0; i < e->nmeta; i++) {
		const struct fact_row *r = fact_find(e->meta[i].key);

		if (!r)
			fail_msg("%s: %s has no row in db/facts.c", where,
				 e->meta[i].key);
		if (r->kind != FACT_VERBATIM && fact_sentence(e->meta[i].value))
			fail_msg("%s: %s = '%s' reads as a sentence", where,
				 e->meta[i].key, e->meta[i].value);
	}
}

static void collect(const char *root, struct experiment_row *e)
{
	static const char *const dirs[] = { "/tmp", "/proc" };

	memset(e, 0, sizeof(*e));
	assert_int_equal(host_collect(root, e), 0);
	assert_int_equal(kstate_collect(root, true, e), 0);
	host_fs_types(e, dirs, ARRAY_SIZE(dirs));
}

static void test_live_host(void **state)
{
	struct experiment_row e;

	(void)state;
	collect("/", &e);
	check_row(&e, "this host");
	experiment_row_release(&e);
}

/* A tree whose files would make the old readers store sentences. */
static void test_fake_tree(void **state)
{
	static const struct {
		const char *path, *text;
	} files[] = {
		{ "/sys/kernel/tracing/tracing_on", "1\n" },
		{ "/sys/kernel/tracing/set_event", "lock:contention_begin\n"
		  "lock:contention_end\nsched:sched_switch\nirq:irq_handler_entry\n"
		  "irq:softirq_entry\n" },
		{ "/sys/kernel/tracing/kprobe_events", "p:kprobes/a do_sys_open\n" },
		{ "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		  "performance\n" },
		{ "/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor",
		  "powersave\n" },
		{ "/sys/devices/system/cpu/online", "0-1\n" },
		{ "/proc/loadavg", "0.42 0.30 0.20 1/123 4567\n" },
		{ "/proc/cmdline", "root=/dev/sda1 mitigations=auto,nosmt\n" },
	};
	struct experiment_row e;
	char root[64], *p;
	size_t i;

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "facts"), 0);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		FILE *f;
		char *slash;

		p = xasprintf("%s%s", root, files[i].path);
		for (slash = strchr(p + strlen(root) + 1, '/'); slash;
		     slash = strchr(slash + 1, '/')) {
			*slash = '\0';
			mkdir(p, 0700);
			*slash = '/';
		}
		f = fopen(p, "w");
		assert_non_null(f);
		fputs(files[i].text, f);
		fclose(f);
		free(p);
	}
	collect(root, &e);
	check_row(&e, "fake tree");
	assert_string_equal(experiment_meta(&e, "governor"),
			    "performance,powersave");
	assert_string_equal(experiment_meta(&e, "kstate.trace_events"),
			    "lock:contention_begin,lock:contention_end,"
			    "sched:sched_switch,irq:irq_handler_entry,...");
	experiment_row_release(&e);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* The rows themselves: keys unique, a reader named, families end '.'. */
static void test_table(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < fact_nrows; i++) {
		assert_true(*fact_rows[i].key && *fact_rows[i].reader);
		for (j = 0; j < i; j++)
			if (!strcmp(fact_rows[i].key, fact_rows[j].key))
				fail_msg("%s: two rows", fact_rows[i].key);
	}
}

/* What older versions stored, rewritten: each want read off the old
 * writer's format by hand. */
static const struct {
	const char *key, *old, *want; /* want NULL: kept as it is */
} old_facts[] = {
	{ "governor", "mixed: performance,powersave", "performance,powersave" },
	{ "governor", "performance", NULL },
	{ "kstate.trace_events", "3 (lock:contention_begin, "
	  "lock:contention_end, sched:sched_switch)",
	  "lock:contention_begin,lock:contention_end,sched:sched_switch" },
	{ "kstate_end.kprobe_events", "5 (p:kprobes/a, p:kprobes/b, "
	  "p:kprobes/c, r:kprobes/d, ...)",
	  "p:kprobes/a,p:kprobes/b,p:kprobes/c,r:kprobes/d,..." },
	{ "kstate.uprobe_events", "0", NULL },
	{ "fs_type", "/tmp=tmpfs, /=ext4", "/tmp=tmpfs,/=ext4" },
	{ "fs_type", "ext4", NULL },
	/* the kernel lock instruments' sentences (runner/kinstr/ before
	 * schema 5), copied from the old writers */
	{ "kernel_lock_events", "off unless asked (kernel_instruments = "
	  "count): counting lock:contention_begin costs a 2-thread futex "
	  "mutex 5-8% of its throughput", "off" },
	{ "kernel_lock_events", "off unless asked (kernel_instruments = count, "
	  "or CONTEND_KLOCK=on): counting lock:contention_begin costs a "
	  "2-thread futex mutex 5-8% of its throughput", "off" },
	{ "kernel_lock_events", "counted by the runner's BPF program", "bpf" },
	{ "kernel_lock_events", "no tracepoint: disabled by CONTEND_KLOCK=off",
	  "no" },
	{ "kernel_lock_events", "perf_event_paranoid=3", "no" },
	{ "kernel_lock_events", "yes", NULL },
	{ "kernel_lock_events", "off", NULL },
	{ "kernel_spin_visible", "no: 2 CPUs and no paravirt spinlocks seen: "
	  "the one waiter spins on the pending bit, unreported",
	  "no-few-cpus" },
	{ "kernel_spin_visible", "no: 2 CPUs and paravirt spinlocks disabled: "
	  "the one waiter spins on the pending bit, unreported",
	  "no-few-cpus-pv-off" },
	{ "kernel_spin_visible", "yes: paravirt spinlocks queue every waiter",
	  "yes-pv-spinlocks" },
	{ "kernel_spin_visible", "yes: 8 CPUs, a third contending CPU queues",
	  "yes-3-cpus" },
	{ "kernel_spin_visible", "yes-pv-spinlocks", NULL },
	{ "kernel_spin_visible", "no-few-cpus", NULL },
	{ "kernel_instruments", "lock:contention_begin (counting perf events, "
	  "tracepoint held on for the whole experiment)",
	  "lock:contention_begin,perf-count" },
	{ "kernel_instruments", "lock:contention_begin (counting perf events "
	  "by kind, tracepoint held on for the whole experiment)",
	  "lock:contention_begin,perf-kinds" },
	{ "kernel_instruments", "lock:contention_begin/end (BPF program, "
	  "attached for the whole experiment)",
	  "lock:contention_begin,lock:contention_end,bpf" },
	{ "kernel_instruments", "none", NULL },
	{ "kernel_instruments", "lock:contention_begin,perf-count", NULL },
	{ "kernel_lock_instrument", "perf (bpf: no BTF: /sys/kernel/btf/vmlinux: "
	  "No such file or directory)", "perf" },
	{ "kernel_lock_instrument", "bpf", NULL },
	/* cpu_freq_source before schema 6 (runner/sentinel_msr.c) */
	{ "cpu_freq_source", "aperf/mperf (base 2000 MHz from /proc/cpuinfo "
	  "cpu MHz)", "aperf-mperf" },
	{ "cpu_freq_source", "cpufreq scaling_cur_freq (aperf/mperf: "
	  "/dev/cpu/0/msr: reading APERF/MPERF: Input/output error)",
	  "cpufreq" },
	{ "cpu_freq_source", "none: /dev/cpu/0/msr: No such file or directory "
	  "(the msr module: modprobe msr); no cpufreq scaling_cur_freq",
	  "none" },
	{ "cpu_freq_source", "aperf-mperf", NULL },
	{ "cmdline", "a=1, b=2", NULL },       /* verbatim */
	{ "bisect.x.y", "mixed: a", NULL },     /* no host fact */
};

static void test_word(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(old_facts); i++) {
		char *w = fact_word(old_facts[i].key, old_facts[i].old);

		if (old_facts[i].want ? !w || strcmp(w, old_facts[i].want) : !!w)
			fail_msg("%s '%s': got '%s', want '%s'",
				 old_facts[i].key, old_facts[i].old,
				 w ? w : "(kept)",
				 old_facts[i].want ? old_facts[i].want : "(kept)");
		free(w);
	}
}

/* A schema 5 file (the last before cpu_freq_source's words) opened to
 * write: its sentences are words after; opened read-only it is left as
 * it is. */
static void test_upgrade(void **state)
{
	struct experiment_row e = { 0 }, got;
	char dir[64], path[96];
	struct store *s;
	sqlite3 *db;
	size_t i;

	(void)state;
	assert_int_equal(tmpdir_create(dir, sizeof(dir), "facts"), 0);
	snprintf(path, sizeof(path), "%s/old.db", dir);
	assert_int_equal(store_open(path, STORE_CREATE, &s), 0);
	e.name = xstrdup("old");
	e.label = xstrdup("");
	e.config_path = xstrdup("old.ini");
	e.config_text = xstrdup("[experiment]\n");
	e.order = xstrdup("blocked");
	e.status = xstrdup("complete");
	e.confidence = 0.95;
	for (i = 0; i < ARRAY_SIZE(old_facts); i++)
		if (!experiment_meta(&e, old_facts[i].key))
			meta_set(&e, old_facts[i].key, old_facts[i].old);
	assert_int_equal(store_experiment_create(s, &e), 0);
	store_close(s);
	raw_exec(path, "PRAGMA user_version = 5");
	assert_int_equal(store_open(path, STORE_RDONLY, &s), 0);
	assert_int_equal(store_experiment_get(s, e.id, &got), 0);
	assert_string_equal(experiment_meta(&got, "governor"),
			    "mixed: performance,powersave");
	experiment_row_release(&got);
	store_close(s);
	assert_int_equal(store_open(path, 0, &s), 0);
	assert_int_equal(store_experiment_get(s, e.id, &got), 0);
	for (i = 0; i < ARRAY_SIZE(old_facts); i++) {
		const char *v = experiment_meta(&got, old_facts[i].key);
		const char *want = old_facts[i].want ? old_facts[i].want
						     : old_facts[i].old;

		if (!strcmp(experiment_meta(&e, old_facts[i].key),
			    old_facts[i].old) && strcmp(v, want))
			fail_msg("%s: '%s' after the upgrade, want '%s'",
				 old_facts[i].key, v, want);
	}
	experiment_row_release(&got);
	store_close(s);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(raw_int(db, "PRAGMA user_version"),
			 STORE_SCHEMA_VERSION);
	sqlite3_close(db);
	experiment_row_release(&e);
	assert_int_equal(tmpdir_remove(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sentence_rule),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_live_host),
		cmocka_unit_test(test_fake_tree),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_word),
		cmocka_unit_test(test_upgrade),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
