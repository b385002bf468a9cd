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
 *                                and in s.log_state whether the log is
 *                                followed
 *   sentinel_record(&s, st, exp) stores both with the experiment
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
 * reader of their own (sentinel_set_reader) or a file or FIFO of their own
 * (sentinel_follow; CONTEND_KMSG for a whole run) and point root at a
 * fake tree.
 *
 * Every record of the log is read whatever its length: the log is read
 * as a stream of lines, SENTINEL_RECORD_MAX bytes at a time (more than the
 * kernel's longest record); a line longer than that is classified by its
 * first SENTINEL_RECORD_MAX bytes.  Records the kernel overwrote before
 * they were read, or skipped because they did not fit, leave a gap in
 * the records' sequence numbers: the window the gap is found in counts
 * them (klog_unread), so a blind spot is recorded, never silent.
 */
#ifndef CONTEND_SENTINEL_H
#define CONTEND_SENTINEL_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "db/store.h"
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

/* The longest line of the kernel log read whole; the kernel's records
 * are at most 8 KiB (CONSOLE_EXT_LOG_MAX), escapes and dictionary
 * included. */
#define SENTINEL_RECORD_MAX 16384
/* The environment variable naming another kernel log to follow than
 * /dev/kmsg (a file or FIFO of records: the fault tests). */
#define SENTINEL_KMSG_ENV "CONTEND_KMSG"
/* Physical bounds of a frequency (MHz): a value outside, from registers
 * that went backwards or a base frequency misread, is refused (no
 * cpu_mhz) rather than stored.  No CPU has run above 10 GHz. */
#define SENTINEL_MHZ_MIN 1.0
#define SENTINEL_MHZ_MAX 10000.0

/* The CPUs whose frequency is read, at most (evenly spaced). */
#define SENTINEL_MAX_FREQ_CPUS 16

struct sentinel {
	char *root;
	int fd;                     /* /dev/kmsg, or -1 */
	sentinel_read_fn read;
	void *arg;
	const char *log_state;      /* KERNEL_LOG_* (db/contract.h): followed
				     * or why not */
	char *line;                 /* SENTINEL_RECORD_MAX: a line read in
				     * part, its first have bytes */
	size_t have;
	bool skip;                  /* the rest of a line too long */
	bool seq_known, broken;     /* broken: the log failed while followed */
	unsigned long long seq;     /* the last record's sequence number */
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
	const char *freq_source;    /* the host key cpu_freq_source: a
				     * word of db/facts.h, FREQ_... */
	const char *msr_state;      /* why not APERF/MPERF (cpu_msr), NULL
				     * when they are read */
	const char *base_from;      /* where base_mhz was read */
	bool pids;                  /* the log's pids are comparable with
				     * ours (the initial pid namespace) */
};

/* What one run's window held. */
struct sentinel_window {
	unsigned count[KMSG_NCLASSES];
	unsigned total;
	unsigned unread;            /* records lost in (or just before) the
				     * window; 1 for a log that failed */
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
 * s->freq_source says where frequencies come from: FREQ_APERF (base
 * s->base_mhz read from s->base_from), FREQ_CPUFREQ or FREQ_NONE, and
 * s->msr_state why not from the MSRs (absent, denied, unreadable,
 * FREQ_MSR_NO_BASE); words stored as the experiment's cpu_freq_source,
 * cpu_msr, cpu_base_mhz and cpu_base_mhz_from, explained once in
 * docs/STORAGE.md).  MSRs are read under root like every file: a test
 * hands a fake <root>/dev/cpu/N/msr.
 */
void sentinel_open(struct sentinel *s, const char *root);
/* Replaces the kernel log by read(arg, ...) (tests); the kmsg fd closes. */
void sentinel_set_reader(struct sentinel *s, sentinel_read_fn read,
			 void *arg);
/*
 * Follows the kernel log at path (/dev/kmsg, or a file or FIFO of records
 * written as /dev/kmsg hands them) from its end; sets s->log_state and
 * returns 0, or -1 when it cannot be followed (the log closed).
 */
int sentinel_follow(struct sentinel *s, const char *path);
/* The word for an errno of opening the log: denied, absent, unreadable. */
const char *sentinel_log_word(int err);
/*
 * Stores the frequency's source (above) and s->log_state as
 * MK_KERNEL_LOG with experiment exp (a resumed session does not replace
 * a reason by "followed": the earlier runs were not followed).  -1 when
 * the store fails.
 */
int sentinel_record(const struct sentinel *s, struct store *st,
		    struct experiment_row *exp);
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
 * class seen (absent when none), klog_unread when records of the log were
 * lost.
 */
void sentinel_add(const struct sentinel_window *w, struct result *res);

/*
 * "NAME: LINE" of a window with a classified line (the line escaped for a
 * terminal), malloc'd; NULL without one.  Stored as experiment_meta
 * "kmsg.SEQ" (docs/STORAGE.md, "Sentinels").
 */
char *sentinel_first(const struct sentinel_window *w);

#endif
