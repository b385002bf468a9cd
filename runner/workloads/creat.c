/*
 * creat.c - the creat(2) storm of the 2014 "perf bench locking creat" RFC:
 * N processes create (and close, and unlink) files in one directory, which
 * reproduces AIM7 fserver's filesystem lock contention (ext4's orphan-list
 * mutex, xfs's CIL spinlock) in seconds.
 *
 * Safety: every name is opened relative to an fd of the private scratch
 * directory the runner made (wl_args.scratch), with O_NOFOLLOW, and names
 * are generated here ("p<proc>" or "p<proc>.<seq>"), never taken from
 * outside; so a run touches nothing but its scratch directory, and a
 * symlink planted there makes the run fail instead of being followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "runner/scratch.h"
#include "lib/util.h"
#include "runner/workloads/harness.h"
#include "runner/workloads/lockstat.h"
#include "runner/workloads/procs.h"
#include "runner/workloads/workloads.h"

enum { P_PROCESSES, P_REUSE, P_DIR, P_NPARAMS };

#define CREAT_MAX_PROCESSES 4096
/* lock_stat classes reported: the busiest few say which lock it was. */
#define CREAT_LOCKSTAT_TOP 8

static const struct param_def creat_params[] = {
	[P_PROCESSES] = { "processes", PT_INT, "2", 1, CREAT_MAX_PROCESSES,
			  NULL, "processes calling creat(2) at once (the RFC "
			  "swept 100..1100:100)" },
	[P_REUSE] = { "reuse", PT_BOOL, "yes", 0, 0, NULL,
		      "yes: each process re-creates (truncates) one file and "
		      "unlinks it at the end, as the RFC's strace shows; no: a "
		      "new file each time, unlinked after close" },
	[P_DIR] = { "dir", PT_STRING, "", 0, 0, NULL,
		    "where the private scratch directory is made (must exist "
		    "and be a directory; empty: $TMPDIR or /tmp)" },
};

/* Shared by the parent and every child (MAP_SHARED), then the slots. */
struct creat_shared {
	struct gate gate;
	atomic_int stop;       /* runtime over */
	atomic_int abort;      /* a process failed: the others stop too */
};

struct creat_ctx {
	struct creat_shared *sh;
	int dfd;               /* the scratch directory */
	bool reuse;
};

/* Slot fields beyond ops. */
enum { AUX_ERRNO, AUX_END_NS, AUX_STAGE };
enum { STAGE_OPEN = 1, STAGE_UNLINK };

static int creat_validate(const struct wl_args *a, struct wl_blame *blame,
			  char *err, size_t errlen)
{
	const char *dir = scratch_parent(a->v[P_DIR].s);
	struct stat st;

	if (stat(dir, &st)) {
		snprintf(err, errlen, "dir: %s: %s", dir, strerror(errno));
		return wl_blame(blame, "dir", NULL);
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "dir: %s is not a directory", dir);
		return wl_blame(blame, "dir", NULL);
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One operation: creat(2) as the kernel sees it, plus close (and unlink). */
static int creat_once(const struct creat_ctx *c, const char *name,
		      uint64_t *stage)
{
	int fd = openat(c->dfd, name,
			O_CREAT | O_TRUNC | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
			0600);

	if (fd < 0) {
		*stage = STAGE_OPEN;
		return -1;
	}
	close(fd);
	if (!c->reuse && unlinkat(c->dfd, name, 0)) {
		*stage = STAGE_UNLINK;
		return -1;
	}
	return 0;
}

static int creat_child(void *arg)
{
	struct worker *w = arg;
	const struct creat_ctx *c = w->ctx;
	uint64_t done = 0;
	char name[48];
	int err = 0;

	if (!gate_wait(&c->sh->gate))
		return 0;
	snprintf(name, sizeof(name), "p%zu", w->id);
	while (worker_continue(w, done) &&
	       !atomic_load_explicit(&c->sh->abort, memory_order_relaxed)) {
		if (!c->reuse)
			snprintf(name, sizeof(name), "p%zu.%llu", w->id,
				 (unsigned long long)done);
		if (creat_once(c, name, &w->slot->aux[AUX_STAGE])) {
			err = errno;
			break;
		}
		done++;
	}
	w->slot->aux[AUX_END_NS] = now_ns();
	if (!err && c->reuse && done && unlinkat(c->dfd, name, 0)) {
		w->slot->aux[AUX_STAGE] = STAGE_UNLINK;
		err = errno;
	}
	w->slot->ops = done;
	if (err) {
		w->slot->aux[AUX_ERRNO] = (uint64_t)err;
		atomic_store(&c->sh->abort, 1);
		return -1;
	}
	return 0;
}

/* The first process's own account of its failure, else the reaper's. */
static int creat_failure(struct result *r, const struct slot *s, size_t n,
			 const char *why)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int e = (int)s[i].aux[AUX_ERRNO];

		if (!e)
			continue;
		return result_fail(r, "creat: process %zu: %s in the scratch "
				   "directory: %s%s", i,
				   s[i].aux[AUX_STAGE] == STAGE_UNLINK ?
				   "unlink" : "open",
				   strerror(e), e == ELOOP ?
				   " (a symlink was planted there; not "
				   "followed)" : "");
	}
	return result_fail(r, "creat: %s", why);
}

static void creat_report(struct result *r, const struct slot *s, size_t n,
			 double elapsed)
{
	uint64_t *ops = xcalloc(n, sizeof(*ops)), total = 0;
	double tput;
	size_t i;

	for (i = 0; i < n; i++) {
		ops[i] = s[i].ops;
		total += s[i].ops;
	}
	tput = elapsed > 0 ? (double)total / elapsed : 0;
	result_add(r, "ops", (double)total);
	result_add(r, "throughput", tput);
	result_add(r, "ops_per_process", tput / (double)n);
	result_add(r, "elapsed_s", elapsed);
	result_set_threads(r, n, ops);
	free(ops);
}

/* The end of the measured window: runtime expiry, or the last to finish. */
static double window_end(const struct wl_args *a, const struct slot *s,
			 size_t n, double t_stop)
{
	uint64_t last = 0;
	size_t i;

	if (!a->jobs)
		return t_stop;
	for (i = 0; i < n; i++)
		if (s[i].aux[AUX_END_NS] > last)
			last = s[i].aux[AUX_END_NS];
	return (double)last * 1e-9;
}

static int start_all(struct task *t, struct worker *w, size_t n,
		     struct creat_ctx *c, struct slot *slots,
		     const struct wl_args *a, struct result *r)
{
	size_t i;

	for (i = 0; i < n; i++) {
		w[i] = (struct worker){ .id = i, .ctx = c, .slot = &slots[i],
					.jobs = a->jobs, .stop = &c->sh->stop };
		if (task_start(&t[i], false, creat_child, &w[i])) {
			result_fail(r, "creat: fork (process %zu of %zu): %s",
				    i + 1, n, strerror(errno));
			gate_release(&c->sh->gate, GATE_ABANDON);
			return -1;
		}
	}
	return 0;
}

/* Forks, times and reaps the processes; the scratch directory is open. */
static int creat_measure(const struct wl_args *a, int dfd, struct result *r)
{
	size_t n = (size_t)a->v[P_PROCESSES].i;
	size_t shsize = sizeof(struct slot) * (n + 1);
	struct creat_shared *sh = shm_alloc(shsize);
	struct slot *slots = NULL;
	struct task *t = xcalloc(n, sizeof(*t));
	struct worker *w = xcalloc(n, sizeof(*w));
	struct lockstat before = { 0 }, after = { 0 };
	struct creat_ctx c = { sh, dfd, a->v[P_REUSE].b };
	double t0, t1 = 0;
	char why[256] = "";
	int ret = -1, started;

	if (!sh) {
		result_fail(r, "creat: mmap shared memory: %s", strerror(errno));
		goto out;
	}
	slots = (struct slot *)sh + 1;   /* the header takes the first slot */
	lockstat_read(&before);
	started = !start_all(t, w, n, &c, slots, a, r);
	window_mark(a, true);
	/* Clock first: released children may finish before we run again. */
	t0 = now_monotonic();
	if (started)
		gate_release(&sh->gate, GATE_OPEN);
	if (started && !a->jobs) {
		sleep_until(t0 + a->runtime_s);
		atomic_store(&sh->stop, 1);
		t1 = now_monotonic();
	}
	if (task_reap_all(t, n, why, sizeof(why))) {
		window_mark(a, false);
		creat_failure(r, slots, n, why);
		goto out;
	}
	window_mark(a, false);
	if (!started)
		goto out;
	creat_report(r, slots, n, window_end(a, slots, n, t1) - t0);
	lockstat_read(&after);
	lockstat_report(r, &before, &after, CREAT_LOCKSTAT_TOP);
	ret = 0;
out:
	lockstat_release(&before);
	lockstat_release(&after);
	free(w);
	free(t);
	shm_free(sh, shsize);
	return ret;
}

static int creat_run(const struct wl_args *a, struct result *r)
{
	char *own = NULL;
	const char *dir = a->scratch;
	struct statfs fs;
	int dfd = -1, ret = -1;

	/* `contend exec` by hand may give no --scratch: make one, as the
	 * runner would, and remove it afterwards. */
	if (!dir) {
		own = scratch_create(scratch_parent(a->v[P_DIR].s));
		if (!own)
			return result_fail(r, "creat: cannot make a scratch "
					   "directory (see above)");
		dir = own;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		result_fail(r, "creat: scratch directory %s: %s", dir,
			    strerror(errno));
		goto out;
	}
	if (fstatfs(dfd, &fs)) {
		result_fail(r, "creat: statfs %s: %s", dir, strerror(errno));
		goto out;
	}
	ret = creat_measure(a, dfd, r);
	if (!ret)
		result_add(r, "fs_magic", (double)(unsigned long)fs.f_type);
out:
	if (dfd >= 0)
		close(dfd);
	if (own && scratch_remove(own) && !ret)
		ret = result_fail(r, "creat: cannot remove %s (see above)", own);
	free(own);
	return ret;
}

const struct workload creat_workload = {
	.name = "creat",
	.summary = "N processes loop creat/close/unlink in a private directory "
		   "(AIM7 fserver-like)",
	.help = "The 2014 'perf bench locking creat' RFC: processes released "
		"together call creat(2) as fast as they can, which contends "
		"the filesystem's locks (ext4 orphan list mutex, xfs CIL "
		"spinlock) as AIM7 fserver does. Fixed time (runtime) or "
		"fixed work (jobs = creat calls per process). Everything "
		"happens in a private scratch directory made under dir and "
		"removed afterwards; symlinks there are never followed. "
		"Reports ops, throughput, ops_per_process (the RFC's "
		"Ops/sec/child), elapsed_s, fs_magic (statfs f_type of the "
		"scratch directory) and, when /proc/lock_stat is readable, "
		"lockstat_<class>: contentions gained by the busiest kernel "
		"lock classes.",
	.params = creat_params,
	.nparams = P_NPARAMS,
	.flags = WL_SCRATCH,
	.validate = creat_validate,
	.run = creat_run,
};
