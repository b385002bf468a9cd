/*
 * facts.c - the one table of host facts (db/facts.h) and the rule that
 * tells a stored word from a sentence.
 */
#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "db/facts.h"
#include "db/contract.h"
#include "lib/util.h"

#define S FACT_START
#define SE FACT_START_END
#define E FACT_END
#define W FACT_WORD
#define N FACT_NUMBER
#define L FACT_LIST
#define P FACT_PATH
#define V FACT_VERBATIM

/* In the order `contend report --host` lists them; what each means is in
 * docs/STORAGE.md "Host facts".  The report's header names hostname,
 * kernel_release, ncpus and affinity; shown marks its host summary. */
const struct fact_row fact_rows[] = {
	/* the machine: runner/host.c */
	{ MK_HOSTNAME, "/proc/sys/kernel/hostname (host.c)", S, W, false },
	{ MK_KERNEL_RELEASE, "/proc/sys/kernel/osrelease (host.c)", S, W, false },
	{ MK_KERNEL_VERSION, "/proc/sys/kernel/version (host.c)", S, V, false },
	{ MK_CPU_MODEL, "/proc/cpuinfo (host.c)", S, V, true },
	{ MK_NCPUS, "/sys/devices/system/cpu/online (host.c)", S, N, false },
	{ MK_CPUS_ONLINE, "/sys/devices/system/cpu/online (host.c)", S, L, false },
	{ MK_SMT, "/sys/devices/system/cpu/smt/control (host.c)", S, W, true },
	{ "smt_active", "/sys/devices/system/cpu/smt/active (host.c)", S, W, false },
	{ MK_GOVERNOR, "cpufreq/scaling_governor of each CPU (host.c)", S, L, true },
	{ MK_AFFINITY, "sched_getaffinity (host.c)", S, L, false },
	{ MK_CPUSET, "/proc/self/cpuset (host.c)", S, P, false },
	{ "cpuset_cpus", "the cpuset's cpuset.cpus.effective (host.c)", S, L, false },
	{ "boot_id", "/proc/sys/kernel/random/boot_id (host.c)", S, W, false },
	{ "cmdline", "/proc/cmdline (host.c)", S, V, false },
	{ MK_LOAD_START, "/proc/loadavg (host.c)", S, N, true },
	{ MK_LOAD_END, "/proc/loadavg (host.c)", E, N, true },
	{ MK_LOADAVG, "/proc/loadavg, before load_start (host.c)", S, N, false },
	{ "fs_type", "/proc/self/mountinfo (host.c)", S, L, false },
	{ "tool_version", "the build (host.c)", S, W, false },
	{ "compiler", "the build (host.c)", S, V, false },
	/* the kernel's build and its lock debugging: runner/host.c */
	{ MK_PREEMPT, "sched/preempt, the kernel config, uname -v (host.c)", S,
	  V, true },
	{ MK_LOCKDEP, "/proc/lockdep exists (host.c)", S, W, true },
	{ MK_LOCK_STAT, "/proc/lock_stat exists (host.c)", S, W, true },
	{ MK_KCONFIG_LOCKDEP, "CONFIG_PROVE_LOCKING, before kstate (host.c)", S,
	  W, false },
	{ MK_KCONFIG_LOCK_STAT, "CONFIG_LOCK_STAT, before kstate (host.c)", S,
	  W, false },
	/* the kernel's instrumentation, start and end: runner/kstate.c */
	{ MK_KSTATE_PREFIX "trace_lock", "tracefs events/lock/enable (kstate.c)",
	  SE, W, false },
	{ MK_KSTATE_PREFIX "trace_sched", "tracefs events/sched/enable (kstate.c)",
	  SE, W, false },
	{ MK_KSTATE_PREFIX "trace_irq", "tracefs events/irq/enable (kstate.c)",
	  SE, W, false },
	{ MK_KSTATE_PREFIX "trace_events", "tracefs set_event (kstate.c)", SE, L,
	  false },
	{ MK_KSTATE_PREFIX "current_tracer", "tracefs current_tracer (kstate.c)",
	  SE, W, false },
	{ MK_KSTATE_PREFIX "tracing_on", "tracefs tracing_on (kstate.c)", SE, W,
	  false },
	{ MK_KSTATE_PREFIX "kprobe_events", "tracefs kprobe_events (kstate.c)",
	  SE, L, false },
	{ MK_KSTATE_PREFIX "uprobe_events", "tracefs uprobe_events (kstate.c)",
	  SE, L, false },
	{ MK_KSTATE_PREFIX "lockdep_debug_locks", "/proc/lockdep_stats "
	  "(kstate.c)", SE, W, false },
	{ MK_KSTATE_PREFIX "prove_locking", "/proc/sys/kernel/prove_locking "
	  "(kstate.c)", SE, W, false },
	{ MK_KSTATE_PREFIX "lock_stat", "/proc/sys/kernel/lock_stat (kstate.c)",
	  SE, W, false },
	{ MK_KSTATE_PREFIX "mitigations", "mitigations= of /proc/cmdline "
	  "(kstate.c)", SE, L, true },
	{ MK_KSTATE_PREFIX "vuln.", "/sys/devices/system/cpu/vulnerabilities/"
	  "NAME, its first word (kstate.c)", SE, W, false },
	{ MK_KSTATE_PREFIX "isolated", "/sys/devices/system/cpu/isolated "
	  "(kstate.c)", SE, L, false },
	{ MK_KSTATE_PREFIX "nohz_full", "/sys/devices/system/cpu/nohz_full "
	  "(kstate.c)", SE, L, false },
	{ MK_KSTATE_PREFIX "thp", "/sys/kernel/mm/transparent_hugepage/enabled "
	  "(kstate.c)", SE, W, false },
	{ MK_KSTATE_PREFIX "kconfig.", "CONFIG_NAME of the kernel config "
	  "(kstate.c)", S, W, false },
	{ "kstate_checked", "whether kstate was read at the end (kstate.c)", E,
	  L, false },
	/* the kernel instruments and the runner's setting of the host */
	{ MK_KERNEL_LOCK_EVENTS, "the counting perf events (start_checks.c)",
	  S, W, false },
	{ MK_KERNEL_INSTRUMENTS, "what the instrument changes in the kernel "
	  "(start_checks.c)", S, L, false },
	{ MK_KERNEL_LOCK_INSTRUMENT, "the instrument chosen (start_checks.c)",
	  S, W, false },
	{ MK_KERNEL_SPIN_VISIBLE, "CPUs and the kernel log (start.c)", S, W,
	  false },
	{ "containment", "the runner's cgroup (session.c)", S, V, false },
	{ "cpu_freq_source", "MSR or cpufreq (sentinel_msr.c)", S, W, false },
	{ "cpu_msr", "/dev/cpu/N/msr (sentinel_msr.c)", S, W, false },
	{ "cpu_base_mhz", "cpufreq base_frequency or /proc/cpuinfo "
	  "(sentinel_msr.c)", S, N, false },
	{ "cpu_base_mhz_from", "the file cpu_base_mhz was read from "
	  "(sentinel_msr.c)", S, W, false },
};
const size_t fact_nrows = ARRAY_SIZE(fact_rows);

const char *const fact_when_names[] = { "start", "start, end", "end" };

const struct fact_row *fact_find(const char *key)
{
	size_t plen = strlen(MK_KSTATE_END_PREFIX), i;
	char buf[256];

	if (!strncmp(key, MK_KSTATE_END_PREFIX, plen) &&
	    strlen(key) - plen + strlen(MK_KSTATE_PREFIX) < sizeof(buf)) {
		snprintf(buf, sizeof(buf), MK_KSTATE_PREFIX "%s", key + plen);
		key = buf;
	}
	for (i = 0; i < fact_nrows; i++) {
		const char *k = fact_rows[i].key;
		size_t n = strlen(k);

		if (k[n - 1] == '.' ? !strncmp(key, k, n) && key[n]
				    : !strcmp(key, k))
			return &fact_rows[i];
	}
	return NULL;
}

bool fact_sentence(const char *value)
{
	size_t words = 0;
	bool blank = false, percent = false;
	const char *p;

	for (p = value; *p; p++) {
		if (!isspace((unsigned char)*p) &&
		    (p == value || isspace((unsigned char)p[-1])))
			words++;
		blank |= isspace((unsigned char)*p) != 0;
		percent |= *p == '%' && p > value &&
			   isdigit((unsigned char)p[-1]);
		if ((*p == ':' || *p == ';' || *p == '.') &&
		    isspace((unsigned char)p[1]))
			return true;
	}
	return words > FACT_MAX_WORDS || (blank && percent);
}

/* "a, b" -> "a,b"; "N (a, b, ...)" -> "a,b,...": malloc'd. */
static char *joined(const char *v)
{
	char *out = xmalloc(strlen(v) + 1), *o = out;
	const char *open = strchr(v, '(');

	if (open && isdigit((unsigned char)*v))
		v = open + 1;
	for (; *v && *v != ')'; v++)
		if (!(*v == ' ' && v[-1] == ','))
			*o++ = *v;
	*o = '\0';
	return out;
}

/* The first of rules whose prefix starts value: its word. */
struct prefix_word {
	const char *prefix, *word;
};

static char *by_prefix(const char *value, const struct prefix_word *w,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strncmp(value, w[i].prefix, strlen(w[i].prefix)))
			return strcmp(value, w[i].word) ? xstrdup(w[i].word)
							: NULL;
	return NULL;
}

/*
 * The kernel lock instruments' sentences (runner/kinstr/ before schema 5)
 * as the words stored now; what each word means is in docs/KLOCK.md
 * "What the experiment stores".  NULL: not one of theirs, or a word.
 */
static char *kinstr_word(const char *key, const char *value)
{
	static const struct prefix_word spin[] = {
		{ "yes: paravirt", KSPIN_YES_PV },
		{ "yes: ", KSPIN_YES_CPUS },
	};
	static const struct prefix_word instruments[] = {
		{ "lock:contention_begin/end", KINSTRUMENTS_BPF },
		{ "lock:contention_begin (counting perf events by kind",
		  KINSTRUMENTS_KINDS },
		{ "lock:contention_begin (", KINSTRUMENTS_COUNT },
	};
	static const struct prefix_word events[] = {
		{ "yes", "yes" },
		{ "off unless asked", "off" },
		{ "counted by the runner's BPF program", "bpf" },
		{ "off", "off" },
		{ "bpf", "bpf" },
		{ "no", "no" },
		{ "", "no" }, /* any other reason it could not count */
	};
	const char *open;

	if (!strcmp(key, MK_KERNEL_SPIN_VISIBLE)) {
		if (!strncmp(value, "no: ", 4))
			return xstrdup(strstr(value, "disabled") ?
				       KSPIN_NO_PV_OFF : KSPIN_NO_CPUS);
		return by_prefix(value, spin, ARRAY_SIZE(spin));
	}
	if (!strcmp(key, MK_KERNEL_INSTRUMENTS))
		return by_prefix(value, instruments, ARRAY_SIZE(instruments));
	if (!strcmp(key, MK_KERNEL_LOCK_EVENTS))
		return by_prefix(value, events, ARRAY_SIZE(events));
	/* "perf (bpf: WHY)": the instrument's word, the reason dropped */
	if (!strcmp(key, MK_KERNEL_LOCK_INSTRUMENT) &&
	    (open = strstr(value, " (")) && open > value)
		return xstrndup(value, (size_t)(open - value));
	return NULL;
}

char *fact_word(const char *key, const char *value)
{
	static const struct prefix_word freq[] = {
		{ "aperf/mperf", FREQ_APERF },
		{ "cpufreq", FREQ_CPUFREQ },
		{ "none", FREQ_NONE },
	};
	const struct fact_row *r = fact_find(key);
	size_t n = strlen(key);
	char *w;

	if (!r || r->kind == FACT_VERBATIM)
		return NULL;
	if ((w = kinstr_word(key, value)))
		return w;
	if (!strcmp(key, "cpu_freq_source"))
		return by_prefix(value, freq, ARRAY_SIZE(freq));
	if (!strcmp(key, MK_GOVERNOR) && !strncmp(value, "mixed: ", 7))
		return xstrdup(value + 7);
	if (n > 7 && !strcmp(key + n - 7, "_events") &&
	    strncmp(key, "kernel", 6) && isdigit((unsigned char)*value) &&
	    strstr(value, " ("))
		return joined(value);
	if (!strcmp(key, "fs_type") && strstr(value, ", "))
		return joined(value);
	return NULL;
}
