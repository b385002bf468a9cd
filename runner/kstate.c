/*
 * kstate.c - the kernel's instrumentation and lock-relevant state, read
 * from tracefs, /proc and /sys at the start and the end of an experiment
 * (runner/kstate.h).  Enabling the lock trace events is what made a mutex
 * benchmark "faster" in the LKML 2010 lockdep thread: two experiments that
 * differ here measured different kernels, whatever the release says.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/kstate.h"
#include "runner/host.h"
#include "db/facts.h"
#include "lib/readfile.h"
#include "lib/util.h"

/* The first line of root/path, trimmed, malloc'd ("" for an empty file:
 * readable, nothing set); NULL when unreadable. */
static char *first_line(const char *root, const char *path)
{
	char *full = xasprintf("%s%s", root, path), *ret;

	ret = readfile_line(full, 1023, NULL);
	free(full);
	return ret;
}

static void put(struct experiment_row *e, const char *name, char *value)
{
	char *key = xasprintf(KSTATE_PREFIX "%s", name);

	meta_set(e, key, value ? value : "unknown");
	free(key);
	free(value);
}

/* The tracefs mount: /sys/kernel/tracing, else under debugfs; NULL. */
static const char *tracefs(const char *root)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *p = xasprintf("%s%s/tracing_on", root, dirs[i]);
		int ok = !access(p, F_OK);

		free(p);
		if (ok)
			return dirs[i];
	}
	return NULL;
}

/*
 * The first word of each line of root/path that is not a comment, as a
 * list: "0" for none, "a,b,c,d" for up to four, ",..." after the fourth
 * when there are more.  NULL when the file cannot be read.
 */
static char *lines_named(const char *root, const char *path)
{
	char *full = xasprintf("%s%s", root, path), line[512], *names = NULL;
	FILE *f = fopen(full, "re");
	size_t n = 0;
	char *ret;

	free(full);
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *t;

		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (n++ < 4) {
			line[strcspn(line, " \t")] = '\0';
			t = xasprintf("%s%s%s", names ? names : "",
				      names ? "," : "", line);
			free(names);
			names = t;
		}
	}
	fclose(f);
	ret = !n ? xstrdup("0") : xasprintf("%s%s", names, n > 4 ? ",..." : "");
	free(names);
	return ret;
}

static void collect_tracing(const char *root, struct experiment_row *e)
{
	static const char *const systems[] = { "lock", "sched", "irq" };
	const char *t = tracefs(root);
	char *path, *key;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(systems); i++) {
		key = xasprintf("trace_%s", systems[i]);
		path = t ? xasprintf("%s/events/%s/enable", t, systems[i]) : NULL;
		/* "0", "1", or "X": some of the system's events enabled */
		put(e, key, path ? first_line(root, path) : NULL);
		free(path);
		free(key);
	}
	path = t ? xasprintf("%s/set_event", t) : NULL;
	put(e, "trace_events", path ? lines_named(root, path) : NULL);
	free(path);
	path = t ? xasprintf("%s/current_tracer", t) : NULL;
	put(e, "current_tracer", path ? first_line(root, path) : NULL);
	free(path);
	path = t ? xasprintf("%s/tracing_on", t) : NULL;
	put(e, "tracing_on", path ? first_line(root, path) : NULL);
	free(path);
	path = t ? xasprintf("%s/kprobe_events", t) : NULL;
	put(e, "kprobe_events", path ? lines_named(root, path) : NULL);
	free(path);
	path = t ? xasprintf("%s/uprobe_events", t) : NULL;
	put(e, "uprobe_events", path ? lines_named(root, path) : NULL);
	free(path);
}

/* debug_locks from /proc/lockdep_stats: 0 once lockdep turned itself off. */
static char *debug_locks(const char *root)
{
	char *full = xasprintf("%s/proc/lockdep_stats", root), line[256];
	FILE *f = fopen(full, "re");
	char *ret = NULL;

	free(full);
	while (f && !ret && fgets(line, sizeof(line), f)) {
		char *v = strstr(line, "debug_locks:");

		if (!v)
			continue;
		v += strlen("debug_locks:");
		v += strspn(v, " \t");
		v[strcspn(v, " \t\n")] = '\0';
		ret = xstrdup(v);
	}
	if (f)
		fclose(f);
	return ret;
}

/* The word between brackets ("always [madvise] never"), else the line. */
static char *bracketed(char *line)
{
	char *open = line ? strchr(line, '[') : NULL, *ret;

	if (!open || !strchr(open, ']'))
		return line;
	*strchr(open, ']') = '\0';
	ret = xstrdup(open + 1);
	free(line);
	return ret;
}

/* A CPU list file where empty (or "(null)") means none. */
static char *cpulist_or_none(char *line)
{
	if (line && (!*line || !strcmp(line, "(null)"))) {
		free(line);
		return xstrdup("none");
	}
	return line;
}

/* mitigations= from the command line, else the kernel's default, auto. */
static char *mitigations(const char *root)
{
	char *cmd = first_line(root, "/proc/cmdline"), *p, *ret;

	if (!cmd)
		return NULL;
	for (p = cmd; (p = strstr(p, "mitigations=")); p++)
		if (p == cmd || p[-1] == ' ')
			break;
	if (!p) {
		free(cmd);
		return xstrdup("auto");
	}
	p += strlen("mitigations=");
	p[strcspn(p, " ")] = '\0';
	ret = xstrdup(p);
	free(cmd);
	return ret;
}

/* vuln.NAME: the first word of each vulnerabilities file (Mitigation, ...). */
static void collect_vulnerabilities(const char *root, struct experiment_row *e)
{
	char *dir = xasprintf("%s/sys/devices/system/cpu/vulnerabilities", root);
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *path, *v, *key;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("/sys/devices/system/cpu/vulnerabilities/%s",
				 de->d_name);
		v = first_line(root, path);
		if (v)
			v[strcspn(v, ":")] = '\0';
		key = xasprintf("vuln.%s", de->d_name);
		put(e, key, v);
		free(key);
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
}

static void collect_kernel(const char *root, struct experiment_row *e)
{
	put(e, "lockdep_debug_locks", debug_locks(root));
	put(e, "prove_locking", first_line(root, "/proc/sys/kernel/prove_locking"));
	put(e, "lock_stat", first_line(root, "/proc/sys/kernel/lock_stat"));
	put(e, "mitigations", mitigations(root));
	collect_vulnerabilities(root, e);
	put(e, "isolated", cpulist_or_none(first_line(root,
				"/sys/devices/system/cpu/isolated")));
	put(e, "nohz_full", cpulist_or_none(first_line(root,
				"/sys/devices/system/cpu/nohz_full")));
	put(e, "thp", bracketed(first_line(root,
				"/sys/kernel/mm/transparent_hugepage/enabled")));
}

/*
 * The build options that change a lock's slow path or the futex hash:
 * kconfig.NAME = y | m | n, all "unknown" when the configuration cannot
 * be read.
 */
static const char *const kconfig_names[] = {
	"MUTEX_SPIN_ON_OWNER", "RWSEM_SPIN_ON_OWNER", "LOCK_SPIN_ON_OWNER",
	"PARAVIRT_SPINLOCKS", "QUEUED_SPINLOCKS", "QUEUED_RWLOCKS",
	"LOCK_STAT", "PROVE_LOCKING", "DEBUG_LOCK_ALLOC", "DEBUG_MUTEXES",
	"DEBUG_SPINLOCK", "DEBUG_RWSEMS", "DEBUG_WW_MUTEX_SLOWPATH",
	"DEBUG_ATOMIC_SLEEP", "DEBUG_PREEMPT", "DEBUG_LOCKDEP",
	"DEBUG_OBJECTS", "KCSAN", "KASAN", "LOCK_EVENT_COUNTS",
	"FUTEX_PRIVATE_HASH", "FUTEX_MPOL", "PREEMPT_RT", "PREEMPT_DYNAMIC",
};

static void collect_kconfig(const char *root, struct experiment_row *e)
{
	char value[ARRAY_SIZE(kconfig_names)], line[512], *key;
	gzFile f = host_kconfig_open(root);
	bool read = false;
	size_t i, len;

	memset(value, 'n', sizeof(value));
	while (f && gzgets(f, line, sizeof(line))) {
		read = true;
		if (strncmp(line, "CONFIG_", 7))
			continue;
		for (i = 0; i < ARRAY_SIZE(kconfig_names); i++) {
			len = strlen(kconfig_names[i]);
			if (!strncmp(line + 7, kconfig_names[i], len) &&
			    line[7 + len] == '=')
				value[i] = line[8 + len];
		}
	}
	if (f)
		gzclose(f);
	for (i = 0; i < ARRAY_SIZE(kconfig_names); i++) {
		char v[2] = { value[i], '\0' };

		key = xasprintf("kconfig.%s", kconfig_names[i]);
		put(e, key, read ? xstrdup(v) : NULL);
		free(key);
	}
}

int kstate_collect(const char *root, bool kconfig, struct experiment_row *e)
{
	if (!root || !strcmp(root, "/"))
		root = "";
	collect_tracing(root, e);
	collect_kernel(root, e);
	if (kconfig)
		collect_kconfig(root, e);
	return 0;
}

int kstate_end(const char *root, struct store *s,
	       const struct experiment_row *start)
{
	struct experiment_row now;
	size_t plen = strlen(KSTATE_PREFIX), i;
	int ret = 0;

	memset(&now, 0, sizeof(now));
	kstate_collect(root, false, &now);
	for (i = 0; i < now.nmeta && !ret; i++) {
		const char *was = experiment_meta(start, now.meta[i].key);
		const struct fact_row *row = fact_find(now.meta[i].key);
		char *key;

		/* An experiment stored before kstate: nothing to compare;
		 * a fact read at the start only (db/facts.c): none either. */
		if (!was || !strcmp(was, now.meta[i].value) ||
		    (row && row->when != FACT_START_END))
			continue;
		key = xasprintf(KSTATE_END_PREFIX "%s", now.meta[i].key + plen);
		ret = store_meta_set(s, start->id, key, now.meta[i].value);
		free(key);
	}
	if (!ret && experiment_meta(start, KSTATE_PREFIX "tracing_on"))
		ret = store_meta_set(s, start->id, "kstate_checked",
				     "start, end");
	experiment_row_release(&now);
	return ret;
}
