/*
 * sentinel.c - per-run sentinels (runner/sentinel.h): the kernel log
 * followed through /dev/kmsg, opened once and read after each run, its
 * warnings classified and attributed to the run whose window they fall
 * in; stolen and idle time from /proc/stat and the mean frequency from
 * APERF/MPERF (runner/sentinel_msr.c) or cpufreq, read at the window's two
 * ends.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <fcntl.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/sentinel_impl.h"
#include "db/contract.h"
#include "lib/escape.h"
#include "lib/util.h"

/* Names of the classes, as in the samples "kmsg_NAME". */
static const char *const kmsg_class_names[KMSG_NCLASSES] = {
	[KMSG_LOCKDEP] = "lockdep",
	[KMSG_RCU_STALL] = "rcu_stall",
	[KMSG_SOFT_LOCKUP] = "soft_lockup",
	[KMSG_HARD_LOCKUP] = "hard_lockup",
	[KMSG_HUNG_TASK] = "hung_task",
	[KMSG_PERF_IRQ] = "perf_irq",
	[KMSG_THERMAL] = "thermal",
	[KMSG_OOM_KILL] = "oom_kill",
	[KMSG_SEGFAULT] = "segfault",
	[KMSG_BUG] = "bug",
};

/*
 * The header line of each report, one per event (a lockdep splat is many
 * records; only its "WARNING: possible ..." line counts).  First match
 * wins: the specific classes before the generic BUG/WARNING.
 */
static const struct {
	enum kmsg_class cls;
	const char *a, *b;          /* both must occur (b may be NULL) */
} patterns[] = {
	{ KMSG_LOCKDEP, "possible circular locking dependency", NULL },
	{ KMSG_LOCKDEP, "possible recursive locking detected", NULL },
	{ KMSG_LOCKDEP, "inconsistent lock state", NULL },
	{ KMSG_LOCKDEP, "possible irq lock inversion dependency", NULL },
	{ KMSG_LOCKDEP, "bad unlock balance detected", NULL },
	{ KMSG_LOCKDEP, "held lock freed", NULL },
	{ KMSG_LOCKDEP, "suspicious RCU usage", NULL },
	{ KMSG_LOCKDEP, "lock held when returning to user space", NULL },
	{ KMSG_LOCKDEP, "BUG: MAX_LOCKDEP", NULL },
	{ KMSG_SOFT_LOCKUP, "BUG: soft lockup", NULL },
	{ KMSG_HARD_LOCKUP, "hard LOCKUP", NULL },
	{ KMSG_RCU_STALL, "detected stall", NULL },
	{ KMSG_HUNG_TASK, "INFO: task ", "blocked for more than" },
	{ KMSG_PERF_IRQ, "perf: interrupt took too long", NULL },
	{ KMSG_THERMAL, "temperature above threshold", NULL },
	{ KMSG_THERMAL, "clock throttled", NULL },
	{ KMSG_OOM_KILL, "Killed process", NULL },
	{ KMSG_SEGFAULT, " segfault at ", NULL },
	{ KMSG_SEGFAULT, "general protection fault ip:", NULL },
	{ KMSG_BUG, "WARNING: CPU:", NULL },
	{ KMSG_BUG, "BUG: ", NULL },
	{ KMSG_BUG, "Oops: ", NULL },
};

int kmsg_classify(const char *text)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(patterns); i++)
		if (strstr(text, patterns[i].a) &&
		    (!patterns[i].b || strstr(text, patterns[i].b)))
			return (int)patterns[i].cls;
	return -1;
}

/* ---- the kernel log ---- */

static ssize_t kmsg_read(void *arg, char *buf, size_t len)
{
	int fd = *(int *)arg, skipped = 0;
	ssize_t n;

	for (;;) {
		n = read(fd, buf, len);
		if (n >= 0)
			return n;
		/* EPIPE: records were overwritten before we read them; the
		 * next read goes on from the oldest left.  EINVAL: a record
		 * longer than len, which /dev/kmsg skips.  Either leaves a
		 * gap in the sequence numbers, which drain counts. */
		if (errno == EINTR ||
		    ((errno == EPIPE || errno == EINVAL) && ++skipped < 1000))
			continue;
		return errno == EAGAIN ? 0 : -1;
	}
}

/*
 * The pid of "comm[PID]: segfault at ..." or "traps: comm[PID] general
 * protection fault ..." (the faulting task's): the first "[digits]"
 * followed by ':' or ' '; -1 when the line names none.
 */
static long line_pid(const char *text)
{
	const char *p;

	for (p = strchr(text, '['); p; p = strchr(p + 1, '[')) {
		char *end;
		long pid = strtol(p + 1, &end, 10);

		if (end > p + 1 && *end == ']' && pid > 0 &&
		    (end[1] == ':' || end[1] == ' '))
			return pid;
	}
	return -1;
}

/*
 * Whether a segfault line concerns the run: its task's pid lies between
 * the run's first pid and the last pid handed out when it ended (no wrap
 * in between), or it names none.  Any other line: true.
 */
static bool ours(const struct sentinel_window *w, int cls, const char *text)
{
	long pid;

	if (cls != KMSG_SEGFAULT || w->pid_lo <= 0 || w->pid_hi < w->pid_lo)
		return true;
	pid = line_pid(text);
	return pid < 0 || (pid >= w->pid_lo && pid <= w->pid_hi);
}

/*
 * The sequence number of a record "PRI,SEQ,TS,FLAGS;TEXT": records
 * missing before it (overwritten, or skipped by the kernel for their
 * length) are counted in w, the window they were found in.
 */
static void sequence(struct sentinel *s, struct sentinel_window *w,
		     const char *rec)
{
	const char *comma = strchr(rec, ',');
	unsigned long long seq;
	char *end;

	if (!comma || !isdigit((unsigned char)comma[1]))
		return;
	errno = 0;
	seq = strtoull(comma + 1, &end, 10);
	if (errno || *end != ',')
		return;
	if (w && s->seq_known && seq > s->seq + 1)
		w->unread += (unsigned)(seq - s->seq - 1 > UINT_MAX / 2
						? UINT_MAX / 2
						: seq - s->seq - 1);
	s->seq_known = true;
	s->seq = seq;
}

/* One line of the log: a record's header and text; the lines of its
 * dictionary (" KEY=value") and anything else are not records. */
static void one_line(struct sentinel *s, struct sentinel_window *w,
		     char *line)
{
	char *text = strchr(line, ';');
	int cls;

	if (!text || *line == ' ')
		return;
	sequence(s, w, line);
	if (!w)
		return;
	text++;
	cls = kmsg_classify(text);
	if (cls < 0 || !ours(w, cls, text))
		return;
	w->count[cls]++;
	w->total++;
	if (w->first_class < 0) {
		w->first_class = cls;
		snprintf(w->first_line, sizeof(w->first_line), "%s", text);
	}
}

/*
 * The whole lines of s->line: each handled, the rest moved to the start.
 * A line that fills the buffer is handled by its head and the rest of it
 * skipped up to its end.
 */
static void lines(struct sentinel *s, struct sentinel_window *w)
{
	char *p = s->line, *nl, *end = s->line + s->have;

	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		*nl = '\0';
		if (!s->skip)
			one_line(s, w, p);
		s->skip = false;
		p = nl + 1;
	}
	s->have = (size_t)(end - p);
	memmove(s->line, p, s->have);
	if (s->have == SENTINEL_RECORD_MAX) {
		s->line[s->have] = '\0';
		if (!s->skip)
			one_line(s, w, s->line);
		s->skip = true;
		s->have = 0;
	}
}

/* Reads every record available now into w (NULL: drops them). */
static void drain(struct sentinel *s, struct sentinel_window *w)
{
	int guard = 100000;         /* a log that never ends: stop */
	ssize_t n;

	if (s->broken && w)
		w->unread++;        /* nothing read since: a blind spot */
	if (!s->read)
		return;
	while (guard-- > 0) {
		n = s->read(s->arg, s->line + s->have,
			    SENTINEL_RECORD_MAX - s->have);
		if (!n)
			break;
		if (n < 0) {
			/* the log was followed and cannot be any more */
			s->read = NULL;
			s->broken = true;
			if (w)
				w->unread++;
			break;
		}
		s->have += (size_t)n;
		lines(s, w);
	}
}

/* ---- /proc/stat and cpufreq ---- */

static struct cpu_ticks read_ticks(const char *root)
{
	char *path = xasprintf("%s/proc/stat", root), line[512];
	FILE *f = fopen(path, "re");
	unsigned long long v[10] = { 0 };
	struct cpu_ticks t = { 0, 0, 0, false };
	int n, i;

	free(path);
	if (!f)
		return t;
	if (fgets(line, sizeof(line), f) && !strncmp(line, "cpu ", 4)) {
		char *p = line + 4, *end;

		/* user nice system idle iowait irq softirq steal ... */
		for (n = 0; n < 8; n++, p = end) {
			errno = 0;
			v[n] = strtoull(p, &end, 10);
			if (end == p || errno)
				break;
		}
		if (n >= 4) {
			/* guest time is already in user: not added again */
			for (i = 0; i < n; i++)
				t.total += v[i];
			t.idle = v[3];
			t.steal = n >= 8 ? v[7] : 0;
			t.ok = true;
		}
	}
	fclose(f);
	return t;
}

/* The mean of scaling_cur_freq over the CPUs that have it, kHz; NAN. */
static double read_freq(const struct sentinel *s)
{
	double sum = 0, v;
	size_t i, n = 0;
	char buf[64];

	for (i = 0; i < s->nfreq; i++) {
		FILE *f = fopen(s->freq_paths[i], "re");

		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			if (!parse_double(buf, &v) && v > 0) {
				sum += v;
				n++;
			}
		}
		fclose(f);
	}
	return n ? sum / (double)n : NAN;
}

static void find_freq(struct sentinel *s)
{
	char *pattern = xasprintf("%s/sys/devices/system/cpu/cpu[0-9]*/cpufreq/"
				  "scaling_cur_freq", s->root);
	glob_t g;
	size_t i;

	if (!glob(pattern, 0, NULL, &g)) {
		/* a few files a run: at most SENTINEL_MAX_FREQ_CPUS of the
		 * CPUs, evenly spaced */
		size_t step = (g.gl_pathc + SENTINEL_MAX_FREQ_CPUS - 1) /
			      SENTINEL_MAX_FREQ_CPUS;

		s->freq_paths = xcalloc(SENTINEL_MAX_FREQ_CPUS + 1,
					sizeof(char *));
		for (i = 0; i < g.gl_pathc; i += step)
			s->freq_paths[s->nfreq++] = xstrdup(g.gl_pathv[i]);
		globfree(&g);
	}
	free(pattern);
}

/*
 * Whether the kernel log's pids are ours: NSpid of /proc/self/status has
 * one field in the initial pid namespace; in a nested one the log prints
 * pids we cannot compare (and without NSpid we cannot tell).
 */
static bool same_pid_namespace(const char *root)
{
	char *path = xasprintf("%s/proc/self/status", root), line[256];
	FILE *f = fopen(path, "re");
	bool ret = false;

	free(path);
	while (f && fgets(line, sizeof(line), f)) {
		char *p, *end;
		int fields = 0;

		if (strncmp(line, "NSpid:", 6))
			continue;
		for (p = line + 6;; p = end) {
			strtol(p, &end, 10);
			if (end == p)
				break;
			fields++;
		}
		ret = fields == 1;
		break;
	}
	if (f)
		fclose(f);
	return ret;
}

/* ---- the sequence ---- */

void sentinel_open(struct sentinel *s, const char *root)
{
	char *path;

	memset(s, 0, sizeof(*s));
	s->root = xstrdup(!root || !strcmp(root, "/") ? "" : root);
	s->hz = sysconf(_SC_CLK_TCK);
	if (s->hz <= 0)
		s->hz = 100;
	s->fd = -1;
	s->freq_begin_khz = NAN;
	s->pids = same_pid_namespace(s->root);
	find_freq(s);
	msr_open(s);
	s->line = xmalloc(SENTINEL_RECORD_MAX + 1);
	path = getenv(SENTINEL_KMSG_ENV);
	if (path && *path) {
		sentinel_follow(s, path);
	} else {
		path = xasprintf("%s/dev/kmsg", s->root);
		sentinel_follow(s, path);
		free(path);
	}
}

/* Forgets the log followed so far: its fd, a line read in part. */
static void unfollow(struct sentinel *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->read = NULL;
	s->have = 0;
	s->skip = s->seq_known = s->broken = false;
}

int sentinel_follow(struct sentinel *s, const char *path)
{
	unfollow(s);
	s->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0) {
		s->log_state = sentinel_log_word(errno);
		return -1;
	}
	/* From the experiment's start: what was logged before is not ours.
	 * A FIFO has no past to skip. */
	if (lseek(s->fd, 0, SEEK_END) < 0 && errno != ESPIPE) {
		s->log_state = KERNEL_LOG_UNREADABLE;
		unfollow(s);
		return -1;
	}
	s->read = kmsg_read;
	s->arg = &s->fd;
	s->log_state = KERNEL_LOG_FOLLOWED;
	return 0;
}

/* A test seam (scripts/symbols-allow.txt): the tests' fake kernel log. */
void sentinel_set_reader(struct sentinel *s, sentinel_read_fn read, void *arg)
{
	unfollow(s);
	s->read = read;
	s->arg = arg;
	s->log_state = KERNEL_LOG_FOLLOWED;
}

int sentinel_record(const struct sentinel *s, struct store *st,
		    struct experiment_row *exp)
{
	const char *was = experiment_meta(exp, MK_KERNEL_LOG);
	int ret = 0;

	if (store_meta_set(st, exp->id, "cpu_freq_source", s->freq_source) ||
	    (s->msr_state &&
	     store_meta_set(st, exp->id, "cpu_msr", s->msr_state)))
		ret = -1;
	if (!s->msr_state) {
		char mhz[32];

		snprintf(mhz, sizeof(mhz), "%.0f", s->base_mhz);
		if (store_meta_set(st, exp->id, "cpu_base_mhz", mhz) ||
		    store_meta_set(st, exp->id, "cpu_base_mhz_from",
				   s->base_from))
			ret = -1;
	}
	if (was && strcmp(was, KERNEL_LOG_FOLLOWED) &&
	    !strcmp(s->log_state, KERNEL_LOG_FOLLOWED))
		return ret;         /* the earlier runs were not followed */
	if (store_meta_set(st, exp->id, MK_KERNEL_LOG, s->log_state))
		ret = -1;
	else
		meta_set(exp, MK_KERNEL_LOG, s->log_state);
	return ret;
}

void sentinel_begin(struct sentinel *s, const cpu_set_t *cpus)
{
	drain(s, NULL);             /* between runs: nobody's */
	s->cpus = cpus;
	s->begin = read_ticks(s->root);
	msr_begin(s);
	s->freq_begin_khz = s->nfreq ? read_freq(s) : NAN;
}

/* The last pid the kernel handed out (its pid namespace's); -1. */
static long last_pid(const char *root)
{
	char *path = xasprintf("%s/proc/sys/kernel/ns_last_pid", root);
	FILE *f = fopen(path, "re");
	long pid = -1;
	char buf[32];

	free(path);
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		char *end;

		pid = strtol(buf, &end, 10);
		if (end == buf)
			pid = -1;
	}
	fclose(f);
	return pid;
}

/* Whether a frequency (MHz) is one a CPU can have: not NAN, within
 * SENTINEL_MHZ_MIN..MAX. */
static bool physical(double mhz)
{
	return mhz >= SENTINEL_MHZ_MIN && mhz <= SENTINEL_MHZ_MAX;
}

void sentinel_end(struct sentinel *s, long pid, struct sentinel_window *w)
{
	double mhz = msr_end_mhz(s);
	struct cpu_ticks end = read_ticks(s->root);
	double khz = s->nfreq ? read_freq(s) : NAN;

	memset(w, 0, sizeof(*w));
	w->first_class = -1;
	w->steal_s = w->idle_share = w->cpu_mhz = NAN;
	w->pid_lo = s->pids ? pid : 0;
	w->pid_hi = s->pids && pid > 0 ? last_pid(s->root) : -1;
	drain(s, w);
	if (s->begin.ok && end.ok && end.total >= s->begin.total &&
	    end.steal >= s->begin.steal && end.idle >= s->begin.idle) {
		unsigned long long dt = end.total - s->begin.total;

		w->steal_s = (double)(end.steal - s->begin.steal) /
			     (double)s->hz;
		w->idle_share = dt ? (double)(end.idle - s->begin.idle) /
					     (double)dt
				   : NAN;
	}
	s->cpus = NULL;
	/* the two ends' mean: a run's frequency, not its trace */
	if (!isnan(khz) && !isnan(s->freq_begin_khz))
		khz = (khz + s->freq_begin_khz) / 2;
	if (physical(mhz))
		w->cpu_mhz = mhz;
	else if (physical(khz / 1000))
		w->cpu_mhz = khz / 1000;
}

void sentinel_close(struct sentinel *s)
{
	size_t i;

	unfollow(s);
	free(s->line);
	for (i = 0; i < s->nfreq; i++)
		free(s->freq_paths[i]);
	free(s->freq_paths);
	msr_close(s);
	free(s->root);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

void sentinel_add(const struct sentinel_window *w, struct result *res)
{
	size_t i;

	if (!isnan(w->steal_s))
		result_add(res, "steal_s", w->steal_s);
	if (!isnan(w->idle_share))
		result_add(res, "idle_share", w->idle_share);
	if (!isnan(w->cpu_mhz))
		result_add(res, "cpu_mhz", w->cpu_mhz);
	if (w->unread)
		result_add(res, "klog_unread", (double)w->unread);
	for (i = 0; i < KMSG_NCLASSES; i++) {
		char name[32];

		if (!w->count[i])
			continue;
		snprintf(name, sizeof(name), "kmsg_%s", kmsg_class_names[i]);
		result_add(res, name, (double)w->count[i]);
	}
}

char *sentinel_first(const struct sentinel_window *w)
{
	char *esc, *ret;

	if (w->first_class < 0)
		return NULL;
	esc = escape_text_dup(w->first_line);
	ret = xasprintf("%s: %s", kmsg_class_names[w->first_class],
			esc ? esc : "?");
	free(esc);
	return ret;
}
