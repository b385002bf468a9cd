/*
 * sentinel.h - what happened to the machine during each run: the kernel
 * log's warnings (a lockdep splat, an RCU stall, a lockup, a hung task,
 * "perf: interrupt took too long", thermal throttling, an OOM kill, a
 * segfault, a kernel WARNING or BUG), the stolen and idle time and the
 * mean CPU frequency over the run's window (APERF/MPERF where the msr
 * driver lets us read them, else cpufreq's scaling_cur_freq).
 *
 * Call sequence, once per session:
 *   sentinel_open(&s, root)      opens /dev/kmsg at its end (non-blocking)
 *                                and each CPU's /dev/cpu/N/msr; says in
 *                                s.freq_source where frequencies come from
 *   for each run:
 *     sentinel_begin(&s, cpus)   drops the records logged between runs,
 *                                reads /proc/stat and the frequencies (the
 *                                MSRs of the CPUs of cpus; NULL: all)
 *     ... the run ...
 *     sentinel_end(&s, pid, &w)  reads the records logged since begin and
 *                                the counters again: w holds the run's
 *     sentinel_add(&w, res)      its samples (docs/STORAGE.md, "Sentinels")
 *   sentinel_close(&s)
 * Each step reads a few small files and never forks.  Files are read under
 * root ("" or "/" the live system); tests replace the kernel log with a
 * reader of their own (sentinel_set_reader) and point root at a fake tree.
 */
#ifndef CONTEND_SENTINEL_H
#define CONTEND_SENTINEL_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runner/workload.h"

enum kmsg_class {
	KMSG_LOCKDEP,      /* lockdep: circular, recursive, inconsistent ... */
	KMSG_RCU_STALL,    /* "detected stalls", "self-detected stall" */
	KMSG_SOFT_LOCKUP,  /* "BUG: soft lockup" */
	KMSG_HARD_LOCKUP,  /* "hard LOCKUP" */
	KMSG_HUNG_TASK,    /* "INFO: task ... blocked for more than" */
	KMSG_PERF_IRQ,     /* "perf: interrupt took too long" */
	KMSG_THERMAL,      /* "temperature above threshold", "clock throttled" */
	KMSG_OOM_KILL,     /* "Killed process" (the OOM killer) */
	KMSG_SEGFAULT,     /* "segfault at", "general protection fault ip:" */
	KMSG_BUG,          /* any other "WARNING: CPU:", "BUG:", "Oops" */
	KMSG_NCLASSES
};

/* Names of the classes, as in the samples "kmsg_NAME". */
extern const char *const kmsg_class_names[KMSG_NCLASSES];

/* The class of one kernel log line (the text, without the record's
 * header), or -1 when it is none of them. */
int kmsg_classify(const char *text);

/*
 * Reads one record of the kernel log ("PRI,SEQ,TS,FLAGS;TEXT\n...", as
 * /dev/kmsg hands it) into buf: its length, 0 when there is none now, -1
 * when the log cannot be read any more.
 */
typedef ssize_t (*sentinel_read_fn)(void *arg, char *buf, size_t len);

/* /proc/stat's aggregate line, in clock ticks. */
struct cpu_ticks {
	unsigned long long total, idle, steal;
	bool ok;
};

/* The CPUs whose frequency is read, at most (evenly spaced). */
#define SENTINEL_MAX_FREQ_CPUS 16

struct sentinel {
	char *root;
	int fd;                     /* /dev/kmsg, or -1 */
	sentinel_read_fn read;
	void *arg;
	long hz;                    /* clock ticks per second */
	struct cpu_ticks begin;
	char **freq_paths;          /* each CPU's scaling_cur_freq */
	size_t nfreq;
	double freq_begin_khz;      /* NAN when none could be read */
	/* APERF/MPERF (runner/sentinel_msr.c), indexed by CPU number */
	int *msr_fd;                /* -1: none; NULL: MSRs not used */
	size_t nmsr;
	uint64_t *aperf, *mperf;    /* at the window's start */
	bool *msr_begun;            /* read at the start */
	double base_mhz;            /* MPERF's frequency */
	const cpu_set_t *cpus;      /* the window's CPUs; NULL: all */
	char *freq_source;          /* the host key cpu_freq_source */
	bool pids;                  /* the log's pids are comparable with
				     * ours (the initial pid namespace) */
};

/* What one run's window held. */
struct sentinel_window {
	unsigned count[KMSG_NCLASSES];
	unsigned total;
	int first_class;            /* of first_line, -1 without one */
	char first_line[256];       /* the first classified line, raw */
	double steal_s;             /* CPU-seconds stolen, all CPUs; NAN unread */
	double idle_share;          /* idle ticks / all ticks; NAN unread */
	double cpu_mhz;             /* APERF/MPERF's effective frequency,
				     * else mean scaling_cur_freq; NAN */
	long pid_lo, pid_hi;        /* the run's pids: its first, the last
				     * handed out when it ended; 0, -1: any */
};

/*
 * Opens the sentinel; never fails (what cannot be read is left out, and
 * s->freq_source says why for the frequency: "aperf/mperf (base B MHz
 * from WHERE)", "cpufreq scaling_cur_freq (aperf/mperf: WHY)" or "none:
 * WHY; no cpufreq scaling_cur_freq"; stored as the experiment's
 * cpu_freq_source).  MSRs are read under root like every file: a test
 * hands a fake <root>/dev/cpu/N/msr.
 */
void sentinel_open(struct sentinel *s, const char *root);
/* Replaces the kernel log by read(arg, ...) (tests); the kmsg fd closes. */
void sentinel_set_reader(struct sentinel *s, sentinel_read_fn read,
			 void *arg);
/* cpus: the run's CPUs (NULL: all); must live until sentinel_end. */
void sentinel_begin(struct sentinel *s, const cpu_set_t *cpus);
/*
 * pid: the run's process (0 when unknown).  A segfault line counts only
 * when its task's pid lies between pid and the last pid handed out at the
 * end (/proc/sys/kernel/ns_last_pid), or names none: a crash elsewhere
 * during the run is not the run's.  In a nested pid namespace (where the
 * log's pids are not ours) every segfault line of the window counts.
 */
void sentinel_end(struct sentinel *s, long pid, struct sentinel_window *w);
void sentinel_close(struct sentinel *s);

/*
 * The window's samples into res: steal_s and idle_share when /proc/stat
 * was read, cpu_mhz when the host exposes frequencies, kmsg_NAME for each
 * class seen (absent when none).
 */
void sentinel_add(const struct sentinel_window *w, struct result *res);

/*
 * "NAME: LINE" of a window with a classified line (the line escaped for a
 * terminal), malloc'd; NULL without one.  Stored as experiment_meta
 * "kmsg.SEQ" (docs/STORAGE.md, "Sentinels").
 */
char *sentinel_first(const struct sentinel_window *w);

#endif
