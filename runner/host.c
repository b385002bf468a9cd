/*
 * host.c - host metadata for the experiment row, and the warnings it
 * calls for.  A fact that cannot be read is stored as "unknown": a missing
 * file is information about the machine too, never an error.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stddef.h>

#include "version.h"
#include "runner/host.h"
#include "runner/param.h"
#include "db/contract.h"
#include "lib/readfile.h"
#include "lib/util.h"

/* The first line of root/path, trimmed, malloc'd; NULL when unreadable
 * or empty. */
static char *read_line(const char *root, const char *path)
{
	char *full = xasprintf("%s%s", root, path), *ret;
	bool empty;

	/* 4096: /proc/cmdline can be this long */
	ret = readfile_line(full, 4095, &empty);
	free(full);
	if (ret && empty) {
		free(ret);
		ret = NULL;
	}
	return ret;
}

static bool exists(const char *root, const char *path)
{
	char *full = xasprintf("%s%s", root, path);
	bool ok = !access(full, F_OK);

	free(full);
	return ok;
}

static void set_or_unknown(struct experiment_row *e, const char *key,
			   char *value)
{
	meta_set(e, key, value && *value ? value : "unknown");
	free(value);
}

/* "model name : X" (x86), else "Processor"/"cpu model"/"Hardware". */
static char *cpu_model(const char *root)
{
	static const char *const keys[] = { "model name", "Processor",
					    "cpu model", "Hardware", "cpu" };
	char *full = xasprintf("%s/proc/cpuinfo", root);
	FILE *f = fopen(full, "re");
	char *best = NULL, line[512];
	size_t rank = ARRAY_SIZE(keys), i;

	free(full);
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *v;

		if (!colon)
			continue;
		for (i = 0; i < rank; i++) {
			size_t len = strlen(keys[i]);

			if (!strncmp(line, keys[i], len) &&
			    (isspace((unsigned char)line[len]) || line[len] == ':'))
				break;
		}
		if (i >= rank)
			continue;
		for (v = colon + 1; isspace((unsigned char)*v); v++)
			;
		v[strcspn(v, "\n")] = '\0';
		free(best);
		best = xstrdup(v);
		rank = i;
	}
	fclose(f);
	return best;
}

/* Governors of every CPU that has one: one name, the distinct names as a
 * list "a,b" when they differ, or "none". */
static char *governors(const char *root)
{
	char *pattern = xasprintf("%s/sys/devices/system/cpu/cpu[0-9]*/cpufreq/"
				  "scaling_governor", root);
	char *first = NULL, *mixed = NULL;
	glob_t g;
	size_t i;

	if (glob(pattern, 0, NULL, &g)) {
		free(pattern);
		return xstrdup("none");
	}
	free(pattern);
	for (i = 0; i < g.gl_pathc; i++) {
		char *gov = read_line("", g.gl_pathv[i]);

		if (!gov)
			continue;
		if (!first) {
			first = gov;
			continue;
		}
		if (strcmp(gov, first) && (!mixed || !strstr(mixed, gov))) {
			char *m = xasprintf("%s,%s", mixed ? mixed : first, gov);

			free(mixed);
			mixed = m;
		}
		free(gov);
	}
	globfree(&g);
	if (mixed) {
		free(first);
		return mixed;
	}
	return first ? first : xstrdup("none");
}

static void collect_cpus(const char *root, struct experiment_row *e)
{
	char *online = read_line(root, "/sys/devices/system/cpu/online");
	char *active = read_line(root, "/sys/devices/system/cpu/smt/active");
	cpu_set_t set;

	if (online && !cpulist_parse(online, &set)) {
		char n[16];

		snprintf(n, sizeof(n), "%d", CPU_COUNT(&set));
		meta_set(e, MK_NCPUS, n);
	} else {
		meta_set(e, MK_NCPUS, "unknown");
	}
	set_or_unknown(e, MK_CPUS_ONLINE, online);
	set_or_unknown(e, MK_SMT,
		       read_line(root, "/sys/devices/system/cpu/smt/control"));
	meta_set(e, "smt_active", !active ? "unknown"
				  : !strcmp(active, "1") ? "yes" : "no");
	free(active);
	set_or_unknown(e, MK_CPU_MODEL, cpu_model(root));
	set_or_unknown(e, MK_GOVERNOR, governors(root));
}

/* The 1-minute load average, malloc'd; NULL when unreadable. */
static char *load1(const char *root)
{
	char *load = read_line(root, "/proc/loadavg");

	if (load)
		load[strcspn(load, " ")] = '\0';
	return load;
}

/*
 * Where this process may run: the CPUs sched_getaffinity allows (a
 * `taskset -c 0` run differs from an unpinned one only here), and the
 * cpuset cgroup it is in with that cpuset's CPUs when readable.
 */
static void collect_affinity(const char *root, struct experiment_row *e)
{
	cpu_set_t set;
	char *cs = read_line(root, "/proc/self/cpuset"), *path;

	if (!sched_getaffinity(0, sizeof(set), &set))
		set_or_unknown(e, MK_AFFINITY, cpulist_format(&set));
	else
		meta_set(e, MK_AFFINITY, "unknown");
	path = cs ? xasprintf("/sys/fs/cgroup%s%scpuset.cpus.effective", cs,
			      cs[strlen(cs) - 1] == '/' ? "" : "/")
		  : NULL;
	set_or_unknown(e, "cpuset_cpus", path ? read_line(root, path) : NULL);
	free(path);
	set_or_unknown(e, MK_CPUSET, cs);
}

/*
 * The kernel's build configuration: /boot/config-RELEASE, else
 * /proc/config.gz, both through zlib (gzopen reads a plain file as it
 * is).  NULL when neither is readable.
 */
gzFile host_kconfig_open(const char *root)
{
	char *release = read_line(root, "/proc/sys/kernel/osrelease");
	char *path = xasprintf("%s/boot/config-%s", root, release ? release : "");
	gzFile f = access(path, R_OK) ? NULL : gzopen(path, "rbe");

	free(release);
	free(path);
	if (f)
		return f;
	path = xasprintf("%s/proc/config.gz", root);
	f = access(path, R_OK) ? NULL : gzopen(path, "rbe");
	free(path);
	return f;
}

/* What the kernel configuration says about preemption. */
struct kconfig {
	bool read;
	bool rt, dynamic, none, voluntary, full, lazy;
};

static void kconfig_read(const char *root, struct kconfig *k)
{
	static const struct {
		const char *line;
		size_t off;
	} keys[] = {
		{ "CONFIG_PREEMPT_RT=y", offsetof(struct kconfig, rt) },
		{ "CONFIG_PREEMPT_DYNAMIC=y", offsetof(struct kconfig, dynamic) },
		{ "CONFIG_PREEMPT_NONE=y", offsetof(struct kconfig, none) },
		{ "CONFIG_PREEMPT_VOLUNTARY=y", offsetof(struct kconfig, voluntary) },
		{ "CONFIG_PREEMPT=y", offsetof(struct kconfig, full) },
		{ "CONFIG_PREEMPT_LAZY=y", offsetof(struct kconfig, lazy) },
	};
	char line[512];
	gzFile f = host_kconfig_open(root);
	size_t i;

	memset(k, 0, sizeof(*k));
	if (!f)
		return;
	while (gzgets(f, line, sizeof(line))) {
		line[strcspn(line, "\n")] = '\0';
		k->read = true;
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(line, keys[i].line))
				*(bool *)((char *)k + keys[i].off) = true;
	}
	gzclose(f);
}

/*
 * The preemption model: the running mode of a PREEMPT_DYNAMIC kernel from
 * debugfs ("none voluntary (full) lazy"), else the configured default,
 * else what `uname -v` says; " (dynamic)" when it can be switched.
 */
static char *preempt_model(const char *root, const struct kconfig *k,
			   const char *version)
{
	char *live = read_line(root, "/sys/kernel/debug/sched/preempt");
	const char *model = NULL, *open = live ? strchr(live, '(') : NULL;
	bool dynamic = k->dynamic || (version && strstr(version, "PREEMPT_DYNAMIC"));
	char *ret;

	if (open && strchr(open, ')'))
		*strchr(open, ')') = '\0';
	if (k->rt || (version && strstr(version, "PREEMPT_RT")))
		model = "rt";
	else if (open)
		model = open + 1;
	else if (k->read)
		model = k->lazy ? "lazy" : k->full ? "full" :
			k->voluntary ? "voluntary" : k->none ? "none" : NULL;
	else if (version && strstr(version, "PREEMPT ") && !dynamic)
		model = "full";
	if (!model && !dynamic) {
		free(live);
		return NULL;
	}
	ret = xasprintf("%s%s", model ? model : "", !dynamic ? "" :
			model ? " (dynamic)" : "dynamic");
	free(live);
	return ret;
}

/* CONFIG_PROVE_LOCKING and CONFIG_LOCK_STAT are kstate.kconfig.NAME
 * (runner/kstate.c): one reader each, db/facts.c. */
static void collect_kernel(const char *root, struct experiment_row *e)
{
	struct kconfig k;

	kconfig_read(root, &k);
	set_or_unknown(e, MK_PREEMPT, preempt_model(root, &k,
				experiment_meta(e, MK_KERNEL_VERSION)));
}

char *host_kernel_log(size_t max)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char rec[2048], *out;
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return NULL;
	out = xmalloc(max + 1);
	/* One record a read; EPIPE: the oldest was overwritten meanwhile. */
	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 ||
	       (n < 0 && (errno == EPIPE || errno == EINTR))) {
		char *text;
		size_t tl;

		if (n <= 0)
			continue;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		tl = strcspn(text, "\n");
		if (len + tl + 1 > max)
			break;
		memcpy(out + len, text, tl);
		len += tl;
		out[len++] = '\n';
	}
	close(fd);
	out[len] = '\0';
	return out;
}

int host_load_end(struct store *s, int64_t experiment)
{
	char *load = load1("");
	int ret = store_meta_set(s, experiment, MK_LOAD_END,
				 load ? load : "unknown");

	free(load);
	return ret;
}

int host_collect(const char *root, struct experiment_row *e)
{
	static const struct {
		const char *key, *path;
	} lines[] = {
		{ MK_HOSTNAME, "/proc/sys/kernel/hostname" },
		{ MK_KERNEL_RELEASE, "/proc/sys/kernel/osrelease" },
		{ MK_KERNEL_VERSION, "/proc/sys/kernel/version" },
	};
	size_t i;

	if (!root || !strcmp(root, "/"))
		root = "";
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		set_or_unknown(e, lines[i].key, read_line(root, lines[i].path));
	collect_cpus(root, e);
	collect_affinity(root, e);
	set_or_unknown(e, "boot_id",
		       read_line(root, "/proc/sys/kernel/random/boot_id"));
	set_or_unknown(e, "cmdline", read_line(root, "/proc/cmdline"));
	/* loadavg, its old name, is read for older experiments only */
	set_or_unknown(e, MK_LOAD_START, load1(root));
	collect_kernel(root, e);
	meta_set(e, MK_LOCKDEP, exists(root, "/proc/lockdep") ? "yes" : "no");
	meta_set(e, MK_LOCK_STAT, exists(root, "/proc/lock_stat") ? "yes" : "no");
	meta_set(e, MK_TOOL_VERSION, CONTEND_VERSION);
	meta_set(e, "compiler", CONTEND_CC);
	return 0;
}

/* Undoes mountinfo's octal escapes (\040 for a blank) in place. */
static void unescape(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
					(s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* Whether mount point m contains path p (m is a prefix at a '/'). */
static bool under(const char *p, const char *m)
{
	size_t n = strlen(m);

	if (!strcmp(m, "/"))
		return true;
	return !strncmp(p, m, n) && (p[n] == '/' || !p[n]);
}

/* The type of the longest mount point that contains path. */
static char *fs_type(const char *path)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char real[PATH_MAX], line[4096], *best = NULL;
	size_t best_len = 0;

	if (!f || !realpath(path, real)) {
		if (f)
			fclose(f);
		return xstrdup("unknown");
	}
	while (fgets(line, sizeof(line), f)) {
		char *mnt = NULL, *type, *sep = strstr(line, " - ");
		char *save, *tok = strtok_r(line, " ", &save);
		int field;

		for (field = 1; tok && field < 5; field++)
			tok = strtok_r(NULL, " ", &save);
		mnt = tok;
		if (!mnt || !sep)
			continue;
		type = strtok_r(sep + 3, " ", &save);
		unescape(mnt);
		if (type && under(real, mnt) && strlen(mnt) >= best_len) {
			free(best);
			best = xstrdup(type);
			best_len = strlen(mnt);
		}
	}
	fclose(f);
	return best ? best : xstrdup("unknown");
}

void host_fs_types(struct experiment_row *e, const char *const *dirs,
		   size_t ndirs)
{
	char *all = NULL, *first = NULL;
	bool same = true;
	size_t i;

	for (i = 0; i < ndirs; i++) {
		char *t = fs_type(dirs[i]);
		char *next = xasprintf("%s%s%s=%s", all ? all : "",
				       all ? "," : "", dirs[i], t);

		free(all);
		all = next;
		if (!first)
			first = xstrdup(t);
		else if (strcmp(first, t))
			same = false;
		free(t);
	}
	if (ndirs)
		meta_set(e, "fs_type", same ? first : all);
	free(first);
	free(all);
}

int host_warn(const struct experiment_row *e)
{
	const char *gov = experiment_meta(e, MK_GOVERNOR);
	const char *load = experiment_meta(e, MK_LOAD_START);
	const char *ncpus = experiment_meta(e, MK_NCPUS);
	double l, n;
	int warned = 0;

	if (load && ncpus && !parse_double(load, &l) &&
	    !parse_double(ncpus, &n) && n > 0 && l > 0.5 * n) {
		warning("load average %.2f on %.0f CPUs is above 0.5 per CPU: "
			"other work will disturb the runs", l, n);
		warned++;
	}
	if (gov && strcmp(gov, "performance") && strcmp(gov, "none") &&
	    strcmp(gov, "unknown")) {
		warning("CPU frequency governor is '%s', not 'performance': "
			"clock speed will vary between runs", gov);
		warned++;
	}
	return warned;
}
