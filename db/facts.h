/*
 * facts.h - the one table of host facts: every fact the runner records
 * about the machine and the kernel an experiment ran on (experiment_meta
 * rows), with what reads it, when, what kind of value it is and whether
 * the default report shows it.  The runner writes the facts
 * (runner/host.c, runner/kstate.c and the files a row names), analysis
 * shows them (analysis/report_rows.c), and a test checks that every key
 * the runner writes has its row (tests/test_facts.c).
 *
 * A stored fact is a word, a number, a list or a path, never a sentence:
 * what a value means and why it matters is said once, in docs/STORAGE.md
 * ("Host facts"), looked up by key.  fact_sentence() is the rule a test
 * holds every stored value to.
 */
#ifndef CONTEND_FACTS_H
#define CONTEND_FACTS_H

#include <stdbool.h>
#include <stddef.h>

/* When the runner reads a fact. */
enum fact_when {
	FACT_START,     /* once, before the first run */
	FACT_START_END, /* at the start, and again at the end: a changed
			 * value is stored as kstate_end.NAME */
	FACT_END,       /* once, after the last run */
};

/* What a stored value is (fact_sentence holds all but FACT_VERBATIM). */
enum fact_kind {
	FACT_WORD,      /* "performance", "y", "unknown" */
	FACT_NUMBER,    /* "2", "0.42" */
	FACT_LIST,      /* a CPU list "0-3,8", names "a,b" */
	FACT_PATH,      /* "/sys/fs/cgroup/x" */
	FACT_VERBATIM,  /* copied as the kernel or compiler prints it: any text */
};

struct fact_row {
	const char *key;        /* stored key; ending in '.', a family
				 * ("kstate.vuln." for kstate.vuln.NAME) */
	const char *reader;     /* the file it is read from, and the runner's
				 * file that reads it */
	enum fact_when when;
	enum fact_kind kind;
	bool shown;             /* in the default report's host summary */
};

extern const struct fact_row fact_rows[];
extern const size_t fact_nrows;
extern const char *const fact_when_names[]; /* "start", "start, end", "end" */

/*
 * The row of stored key (a family's row for its members; the row of
 * kstate.NAME for kstate_end.NAME), or NULL when key is no host fact.
 */
const struct fact_row *fact_find(const char *key);

/*
 * Whether value reads as a sentence: more than FACT_MAX_WORDS words
 * (runs of characters between blanks), or a clause mark (": ", "; ",
 * ". "), or a number with a percent sign ("5%") in a value with a blank.
 */
#define FACT_MAX_WORDS 3
bool fact_sentence(const char *value);

/*
 * What an older contend stored under key as a sentence, as the word,
 * number or list stored now (malloc'd), or NULL when value is no such
 * sentence: governor "mixed: a,b" is "a,b"; kstate(_end).*_events "5 (a,
 * b, c, d, ...)" is "a,b,c,d,..."; fs_type "d=x, e=y" is "d=x,e=y";
 * the kernel lock instruments' facts are the words below (kernel_lock_
 * instrument "perf (bpf: WHY)" is "perf"); from schema 6, cpu_freq_source
 * "aperf/mperf (...)" is "aperf-mperf", "cpufreq scaling_cur_freq (...)"
 * "cpufreq", "none: ..." "none".
 */
#define STORE_FACTS_VERSION 6
char *fact_word(const char *key, const char *value);

/*
 * The words of the kernel lock instruments' facts, written by
 * runner/kinstr/ and runner/start_checks.c, explained once in
 * docs/KLOCK.md.  kernel_spin_visible: whether a contended spinlock can
 * be reported on this host.
 */
#define KSPIN_YES_PV "yes-pv-spinlocks"   /* paravirt: every waiter queues */
#define KSPIN_YES_CPUS "yes-3-cpus"       /* a third contending CPU queues */
#define KSPIN_NO_PV_OFF "no-few-cpus-pv-off" /* under 3 CPUs, PV disabled */
#define KSPIN_NO_CPUS "no-few-cpus"       /* under 3 CPUs, no PV seen */
/* kernel_instruments: what the instrument changes in the kernel, a list */
#define KINSTRUMENTS_COUNT "lock:contention_begin,perf-count"
#define KINSTRUMENTS_KINDS "lock:contention_begin,perf-kinds"
#define KINSTRUMENTS_BPF "lock:contention_begin,lock:contention_end,bpf"
/*
 * cpu_freq_source: where each run's cpu_mhz comes from (runner/
 * sentinel_msr.c); cpu_msr: why not from APERF/MPERF (absent, denied,
 * unreadable as the kernel log's words, or no base frequency);
 * cpu_base_mhz_from: which file gave cpu_base_mhz.  docs/STORAGE.md.
 */
#define FREQ_APERF "aperf-mperf"
#define FREQ_CPUFREQ "cpufreq"
#define FREQ_NONE "none"
#define FREQ_MSR_NO_BASE "no-base-mhz"
#define FREQ_BASE_CPUFREQ "base_frequency"
#define FREQ_BASE_CPUINFO "cpuinfo"

#endif
