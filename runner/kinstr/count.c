/*
 * count.c - counting lock:contention_begin per kind of kernel lock with
 * perf_event_open, and the reason when this machine cannot.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runner/kinstr/count.h"
#include "db/facts.h"
#include "lib/util.h"

/*
 * One row per kind: its metric and the tracepoint filter that selects it
 * (flags bits as in count.h; NULL: every event).  The filters compare
 * whole values so each contention lands in at most one kind: a mutex's
 * optimistic spin (MUTEX|SPIN) is a mutex, not a spinlock.
 */
static const struct {
	const char *metric;
	const char *filter;
} kinds[KLOCK_NKINDS] = {
	[KLOCK_ALL] = { "klock_contended", NULL },
	[KLOCK_SPIN] = { "klock_spin", "flags == 1" },
	[KLOCK_MUTEX] = { "klock_mutex", "flags & 32" },
	[KLOCK_RWSEM_READ] = { "klock_rwsem_read", "flags == 2 || flags == 18" },
	[KLOCK_RWSEM_WRITE] = { "klock_rwsem_write",
				"flags == 4 || flags == 20" },
	[KLOCK_RWLOCK_READ] = { "klock_rwlock_read", "flags == 3" },
	[KLOCK_RWLOCK_WRITE] = { "klock_rwlock_write", "flags == 5" },
	[KLOCK_RT] = { "klock_rt", "flags & 8" },
};

const char *kcount_metric(enum klock_kind kind)
{
	return kinds[kind].metric;
}

const char *kcount_filter(enum klock_kind kind)
{
	return kinds[kind].filter;
}

/* ---- the kernel backend ---- */

#define TRACEFS "/sys/kernel/tracing"
#define EVENT_ID "/events/lock/contention_begin/id"

/* The one number a /proc or tracefs file holds, or -1 (errno set). */
static int read_number(const char *path, long long *v)
{
	FILE *f = fopen(path, "r");
	char line[64];
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f) && !parse_ll(line, v))
		ret = 0;
	else
		errno = EINVAL;
	fclose(f);
	return ret;
}

static long read_id(const char *path)
{
	long long id;

	return read_number(path, &id) || id < 0 ? -1 : (long)id;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The id from tracefs (or its old place under debugfs).  tracefs is not
 * always mounted at boot: mount it where the kernel provides the mount
 * point, which only root may do.
 */
static long perf_tracepoint(char *why, size_t whylen)
{
	static const char *const dirs[] = { TRACEFS,
					    "/sys/kernel/debug/tracing" };
	char path[128];
	size_t i;
	long id;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", dirs[i], EVENT_ID);
		id = read_id(path);
		if (id >= 0)
			return id;
		if (errno == EACCES || errno == EPERM)
			return error_buf(why, whylen, "no permission: cannot "
					 "read %s", path);
	}
	if (!is_dir(TRACEFS "/events")) {
		if (mount("tracefs", TRACEFS, "tracefs", 0, NULL))
			return error_buf(why, whylen, "tracefs not mountable: "
					 "%s", strerror(errno));
		id = read_id(TRACEFS EVENT_ID);
		if (id >= 0)
			return id;
	}
	return error_buf(why, whylen, "no tracepoint: the kernel has no "
			 "lock:contention_begin (Linux 5.19 or later has it)");
}

static int perf_open(long id, const char *filter, pid_t pid, bool on_exec)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = (uint64_t)id;
	attr.inherit = 1;
	/* Opened disabled so that the filter is in place before it counts. */
	attr.disabled = 1;
	attr.enable_on_exec = on_exec;
	fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1,
			  PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	if ((filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) ||
	    (!on_exec && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int perf_reset(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_RESET, 0) ? -1 : 0;
}

static int perf_enable(int fd, bool on)
{
	return ioctl(fd, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE,
		     0) ? -1 : 0;
}

static int perf_read(int fd, uint64_t *count)
{
	return read(fd, count, sizeof(*count)) == (ssize_t)sizeof(*count) ?
		0 : -1;
}

static void perf_close(int fd)
{
	close(fd);
}

static int perf_hold(long id)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = (uint64_t)id;
	attr.disabled = 1;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

const struct kcount_backend kcount_perf = {
	.tracepoint = perf_tracepoint,
	.open = perf_open,
	.reset = perf_reset,
	.enable = perf_enable,
	.read = perf_read,
	.close = perf_close,
	.hold = perf_hold,
};

/*
 * CONTEND_KLOCK=off stands for a kernel without the tracepoint: what
 * tests/e2e_klock.sh runs on a machine that has it.
 */
static long off_tracepoint(char *why, size_t whylen)
{
	return error_buf(why, whylen, "no tracepoint: disabled by "
			 KLOCK_ENV "=off");
}

/*
 * Unasked, nothing counts: a counter on lock:contention_begin costs the
 * contended path what docs/PERFORMANCE.md, "Instruments", measured.
 */
static long unasked_tracepoint(char *why, size_t whylen)
{
	return error_buf(why, whylen, "off unless asked (kernel_instruments = "
			 "count; its cost: docs/PERFORMANCE.md)");
}

static const struct kcount_backend kcount_off = {
	.tracepoint = off_tracepoint,
};

static const struct kcount_backend kcount_unasked = {
	.tracepoint = unasked_tracepoint,
};

/* kernel_instruments = bpf: the runner's BPF program counts (kbpf.h). */
static long bpf_tracepoint(char *why, size_t whylen)
{
	return error_buf(why, whylen, "counted by the runner's BPF program");
}

static const struct kcount_backend kcount_bpf = {
	.tracepoint = bpf_tracepoint,
};

const struct kcount_backend *kcount_backend(enum kinstr k)
{
	const char *s = getenv(KLOCK_ENV);

	if (k == KINSTR_BPF)
		return &kcount_bpf;
	if (k != KINSTR_COUNT && k != KINSTR_KINDS)
		return &kcount_unasked;
	return s && !strcmp(s, "off") ? &kcount_off : &kcount_perf;
}

/* ---- counting ---- */

static long long paranoid(void)
{
	long long v;

	return read_number("/proc/sys/kernel/perf_event_paranoid", &v) ? 2 : v;
}

/* Why perf_event_open refused, errno as it left it. */
static void open_failed(int err, char *why, size_t whylen)
{
	if ((err == EACCES || err == EPERM) && geteuid() != 0)
		snprintf(why, whylen, "perf_event_paranoid=%lld", paranoid());
	else if (err == EACCES || err == EPERM)
		snprintf(why, whylen, "no permission: perf_event_open: %s",
			 strerror(err));
	else
		snprintf(why, whylen, "no tracepoint: perf_event_open: %s",
			 strerror(err));
}

static void close_all(struct kcount *k)
{
	size_t i;

	for (i = 0; i < KLOCK_NKINDS; i++) {
		if (k->fd[i] >= 0)
			k->be->close(k->fd[i]);
		k->fd[i] = -1;
	}
	k->counting = false;
}

int kcount_start(struct kcount *k, const struct kcount_backend *be, pid_t pid,
		unsigned flags)
{
	bool on_exec = flags & KLOCK_ON_EXEC;
	long id;
	size_t i;

	memset(k, 0, sizeof(*k));
	k->be = be;
	for (i = 0; i < KLOCK_NKINDS; i++)
		k->fd[i] = -1;
	id = be->tracepoint(k->why, sizeof(k->why));
	if (id < 0)
		return -1;
	k->fd[KLOCK_ALL] = be->open(id, NULL, pid, on_exec);
	if (k->fd[KLOCK_ALL] < 0) {
		open_failed(errno, k->why, sizeof(k->why));
		return -1;
	}
	/*
	 * The kinds only when asked (KLOCK_KINDS): each is one more
	 * event whose filter the kernel evaluates at every contention, in
	 * the contended path itself, and eight of them cost futex-mutex 7%
	 * of its throughput at 2 threads (docs/PERFORMANCE.md).  A kind
	 * whose filter this kernel refuses is left out, not fatal.
	 */
	for (i = KLOCK_ALL + 1; (flags & KLOCK_KINDS) && i < KLOCK_NKINDS; i++)
		k->fd[i] = be->open(id, kcount_filter(i), pid, on_exec);
	k->counting = true;
	return 0;
}

void kcount_window(struct kcount *k, bool open)
{
	size_t i;

	if (!k->counting)
		return;
	for (i = 0; i < KLOCK_NKINDS; i++) {
		if (k->fd[i] < 0)
			continue;
		if (open)
			k->be->reset(k->fd[i]);
		k->be->enable(k->fd[i], open);
	}
}

int kcount_stop(struct kcount *k, struct result *r)
{
	uint64_t v[KLOCK_NKINDS] = { 0 };
	double ops;
	size_t i;

	if (!k->counting)
		return -1;
	if (!r) {
		close_all(k);
		return -1;
	}
	for (i = 0; i < KLOCK_NKINDS; i++) {
		if (k->fd[i] >= 0 && k->be->read(k->fd[i], &v[i])) {
			if (i == KLOCK_ALL) {
				snprintf(k->why, sizeof(k->why),
					 "reading the counter: %s",
					 strerror(errno));
				close_all(k);
				return -1;
			}
			k->be->close(k->fd[i]);
			k->fd[i] = -1;
		}
	}
	for (i = 0; i < KLOCK_NKINDS; i++)
		if (k->fd[i] >= 0)
			result_add(r, kinds[i].metric, (double)v[i]);
	/* chat counts its operations as messages */
	ops = result_value(r, "ops");
	if (isnan(ops))
		ops = result_value(r, "messages");
	if (ops > 0)
		result_add(r, "klock_contended_per_op",
			   (double)v[KLOCK_ALL] / ops);
	close_all(k);
	return 0;
}

const char *kcount_status(const struct kcount_backend *be, char *buf,
			 size_t len)
{
	struct kcount k;

	if (kcount_start(&k, be, 0, 0)) {
		snprintf(buf, len, "%s", k.why);
		return buf;
	}
	close_all(&k);
	snprintf(buf, len, "yes");
	return buf;
}

int kcount_hold(const struct kcount_backend *be)
{
	char why[160];
	long id;

	if (!be->hold)
		return -1;
	id = be->tracepoint(why, sizeof(why));
	return id < 0 ? -1 : be->hold(id);
}

void kcount_unhold(const struct kcount_backend *be, int fd)
{
	if (fd >= 0)
		be->close(fd);
}

const char *kcount_spin_visible(long cpus, const char *kernel_log)
{
	if (kernel_log && strstr(kernel_log, "PV spinlocks enabled"))
		return KSPIN_YES_PV;
	if (cpus >= 3)
		return KSPIN_YES_CPUS;
	if (kernel_log && strstr(kernel_log, "PV spinlocks disabled"))
		return KSPIN_NO_PV_OFF;
	return KSPIN_NO_CPUS;
}

static void hook_mark(void *ctx, bool open)
{
	kcount_window(ctx, open);
}

void kcount_hook(struct kcount *k, struct run_window *w)
{
	w->mark = hook_mark;
	w->ctx = k;
}
