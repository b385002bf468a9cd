/*
 * kbpf.h - the kernel lock wait of every run, from a BPF program on
 * lock:contention_begin and lock:contention_end (bpf/klock.bpf.c), loaded
 * and attached once per experiment by the runner.  It counts only the
 * run's own tasks: those in the runner's cgroup during the run (the
 * runner's children are born there, runner/cgroup.h), or, where the
 * runner has no cgroup, the child the runner forks while armed and every
 * process forked from one counted (threads share their process's tgid).
 *
 * Call sequence (the runner: runner/start.c, runner/session.c,
 * runner/onerun.c):
 *
 *	struct kbpf *k = kbpf_open(why, sizeof(why));   // once; NULL: perf
 *	kbpf_use_cgroup(k, cgroup_id(&cg));   // where the runner has one
 *	for each run:
 *		kbpf_run_begin(k, &delay);  // resets the maps, counts
 *		spawn ... started: kbpf_track(k, pid);   // disarms
 *		... reaped ...
 *		kbpf_run_end(k, &result, &top);   // klock_* metrics, top locks
 *	kbpf_close(k);
 *
 * Per run nothing is loaded or attached: run_begin writes the program's
 * globals (mmapped) and empties the maps of the run before, run_end reads
 * them.  The whole run is counted, from the fork to the reaping, not the
 * workload's measured window (docs/KLOCK.md, "The window").
 *
 * Where this machine cannot load it (built without BPF, no BTF, not
 * root, the verifier refuses it, CONTEND_KBPF=off) kbpf_open returns NULL
 * with the reason: the session takes the next instrument the file lists,
 * or refuses to start (runner/kinstr/kinstr.h).
 */
#ifndef CONTEND_KBPF_H
#define CONTEND_KBPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/types.h>

#include "db/store.h"
#include "runner/kinstr/bpf/kbpf_shared.h"
#include "runner/kinstr/count.h"
#include "runner/workload.h"

/* CONTEND_KBPF=off: a test's fake of a host where BPF cannot load; the
 * real check (kbpf_usable, kbpf_open) says so as it would say why not. */
#define KBPF_ENV "CONTEND_KBPF"
/* Rows of the top-locks table kept per run: enough for every lock most
 * runs wait on, since compare counts a lock a run did not keep as 0
 * there (docs/KLOCK.md, "What a run stores"). */
#define KBPF_TOP 64

/* kernel_delay = TIME@FUNCTION: busy-wait TIME after a contended
 * acquisition whose stack holds FUNCTION (docs/KLOCK.md). */
struct kbpf_delay {
	uint64_t ns;          /* 0: none */
	const char *function;
};

/* One run's top locks: rows of run_klock (db/store.h), by wait. */
struct kbpf_top {
	size_t n;
	struct run_klock row[KBPF_TOP];
	char text[KBPF_TOP][2][128]; /* the rows' caller and lock */
};

struct kbpf;

struct kbpf *kbpf_open(char *why, size_t whylen);
/*
 * 1 when kbpf_open may succeed here (built with BPF, not switched off,
 * BTF, root), else 0 with the reason: what a configuration that needs it
 * is checked against without loading anything.
 */
int kbpf_usable(char *why, size_t whylen);
void kbpf_close(struct kbpf *k);
/*
 * Empties the maps of the run before, sets the run's kernel_delay and
 * starts counting: the tasks in the cgroup (kbpf_use_cgroup), else the
 * next child the runner forks (armed).  -1 (why in err) when delay names
 * a function the kernel does not have.
 */
int kbpf_run_begin(struct kbpf *k, const struct kbpf_delay *delay,
		   char *err, size_t errlen);
/*
 * The run's tasks are those in the cgroup of id cgid (cgroup_id(),
 * runner/cgroup.h) from kbpf_run_begin to kbpf_run_end, rather than the
 * process tree of the child forked while armed: one comparison a
 * contention, and no program on fork.  Once, after kbpf_open.
 */
void kbpf_use_cgroup(struct kbpf *k, uint64_t cgid);
/* Counts pid's process (and what it forks from now on); disarms.  With a
 * cgroup, nothing: the run's children are born in it. */
void kbpf_track(struct kbpf *k, pid_t pid);
/*
 * Stops counting and delaying: the run's delay is cleared and its process
 * tree forgotten, so a process of it that lives on, or a new one that
 * reuses one of its pids, is neither counted nor delayed.  With r (the
 * run succeeded): adds klock_contended, klock_KIND, klock_wait_s,
 * klock_wait_max_s, klock_wait_KIND_s, klock_contended_per_op and, with
 * a kernel_delay, klock_delayed (the acquisitions it busy-waited after)
 * and klock_delay_refused_REASON (those it refused: irq, spin, share,
 * total; docs/KLOCK.md) to r and fills top.  With r NULL only that.
 * Called again before the next kbpf_run_begin it reads the same counts:
 * nothing is counted between runs.
 */
int kbpf_run_end(struct kbpf *k, struct result *r, struct kbpf_top *top);

/* Whether pid's process is counted now, without a cgroup (for tests). */
bool kbpf_tracks(const struct kbpf *k, pid_t pid);

/* ---- what tests reach (the pure parts) ---- */

/* The kind of the tracepoint's flags (count.h's table); KLOCK_ALL when
 * no kind fits. */
enum klock_kind kbpf_kind(unsigned flags);
/* "spin", "mutex", "rwsem_read", ...; "other" for KLOCK_ALL. */
const char *kbpf_kind_name(enum klock_kind kind);

/* The kernel's symbols (a /proc/kallsyms text), sorted by address. */
struct ksyms;
struct ksyms *ksyms_load(const char *path);
void ksyms_free(struct ksyms *ks);
/* The symbol holding addr and the offset into it, or NULL. */
const char *ksyms_find(const struct ksyms *ks, uint64_t addr, uint64_t *off);
/* [lo, hi) of the function name, or -1. */
int ksyms_range(const struct ksyms *ks, const char *name, uint64_t *lo,
		uint64_t *hi);
/*
 * The caller of a contention: the first frame of ips[0..n-1] outside the
 * lock and scheduler code and the tracing that reports it (docs/KLOCK.md,
 * "The caller"); NULL when every frame is inside.
 */
const char *ksyms_caller(const struct ksyms *ks, const uint64_t *ips,
			 size_t n);
/* A lock's name into buf: its symbol (NAME or NAME+0xOFF) when it is in
 * the kernel's own data, else its address. */
void ksyms_name_lock(const struct ksyms *ks, uint64_t lock, char *buf,
		     size_t len);

/*
 * One (lock, flags, caller) count of the program: what kbpf_split makes
 * of its counts and kbpf_rank folds into the top rows.  An estimate where
 * a lock had several callers (kbpf_split), so not a whole number.
 */
struct kbpf_entry {
	enum klock_kind kind;
	const char *caller;   /* NULL: unknown */
	uint64_t lock;
	double count, wait_ns;
	const char *lock_class;  /* "mmap_lock", "siglock", or NULL */
};

/* A lock's contentions and wait in a run, summed over the CPUs: exact. */
struct kbpf_lock {
	uint64_t lock;
	unsigned flags;       /* the tracepoint's, the class above them */
	uint64_t count, wait_ns;
};
/* A lock's sampled contentions from one stack, its caller resolved. */
struct kbpf_sample {
	uint64_t lock;
	unsigned flags;
	const char *caller;   /* NULL: unknown */
	uint64_t count, wait_ns;
};
/*
 * The entries of a run: each lock's exact contentions and wait shared
 * among its sampled stacks, contentions in proportion to their sampled
 * contentions, wait to their sampled wait (to their contentions when
 * that is 0); a lock without samples is one entry of unknown caller.
 * Samples of no lock in l are left out.  out holds nl + ns entries at
 * most; returns how many it wrote.
 */
size_t kbpf_split(const struct kbpf_lock *l, size_t nl,
		  const struct kbpf_sample *s, size_t ns,
		  struct kbpf_entry *out);
/* The run's totals: the per-CPU ones summed (the maxima: the largest). */
void kbpf_totals_sum(const struct kbpf_totals *pc, size_t ncpu,
		     struct kbpf_totals *sum);
/*
 * The rows of top: entries summed per (kind, caller), by wait (then
 * contentions, kind, caller), the first KBPF_TOP kept; a row's lock is
 * its class when all its entries have the same one, else named (ks, or
 * its address) when all its entries hold the same lock.
 */
void kbpf_rank(const struct kbpf_entry *e, size_t n,
	       const struct ksyms *ks, struct kbpf_top *top);

#endif
