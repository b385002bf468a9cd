/*
 * host.c - host metadata for the experiment row, and the warnings it
 * calls for.  A fact that cannot be read is stored as "unknown": a missing
 * file is information about the machine too, never an error.
 */
#include <ctype.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "version.h"
#include "runner/host.h"
#include "runner/param.h"
#include "runner/util.h"


void meta_set(struct experiment_row *e, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < e->nmeta; i++) {
		if (!strcmp(e->meta[i].key, key)) {
			free(e->meta[i].value);
			e->meta[i].value = xstrdup(value);
			return;
		}
	}
	e->meta = xrealloc(e->meta, (e->nmeta + 1) * sizeof(*e->meta));
	e->meta[e->nmeta].key = xstrdup(key);
	e->meta[e->nmeta].value = xstrdup(value);
	e->nmeta++;
}

/* The first line of root/path, trimmed, malloc'd; NULL when unreadable. */
static char *read_line(const char *root, const char *path)
{
	char *full = xasprintf("%s%s", root, path);
	char buf[512];
	char *ret = NULL;
	FILE *f = fopen(full, "re");
	size_t n;

	free(full);
	if (!f)
		return NULL;
	if (fgets(buf, sizeof(buf), f)) {
		n = strlen(buf);
		while (n && isspace((unsigned char)buf[n - 1]))
			buf[--n] = '\0';
		ret = xstrdup(buf);
	}
	fclose(f);
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

/* Governors of every CPU that has one: one name, "mixed: a,b", or "none". */
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
		char *m = xasprintf("mixed: %s", mixed);

		free(mixed);
		free(first);
		return m;
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
		meta_set(e, "ncpus", n);
	} else {
		meta_set(e, "ncpus", "unknown");
	}
	set_or_unknown(e, "cpus_online", online);
	set_or_unknown(e, "smt",
		       read_line(root, "/sys/devices/system/cpu/smt/control"));
	meta_set(e, "smt_active", !active ? "unknown"
				  : !strcmp(active, "1") ? "yes" : "no");
	free(active);
	set_or_unknown(e, "cpu_model", cpu_model(root));
	set_or_unknown(e, "governor", governors(root));
}

int host_collect(const char *root, struct experiment_row *e)
{
	static const struct {
		const char *key, *path;
	} lines[] = {
		{ "hostname", "/proc/sys/kernel/hostname" },
		{ "kernel_release", "/proc/sys/kernel/osrelease" },
		{ "kernel_version", "/proc/sys/kernel/version" },
	};
	char *load;
	size_t i;

	if (!root || !strcmp(root, "/"))
		root = "";
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		set_or_unknown(e, lines[i].key, read_line(root, lines[i].path));
	collect_cpus(root, e);
	load = read_line(root, "/proc/loadavg");
	if (load)
		load[strcspn(load, " ")] = '\0';
	set_or_unknown(e, "loadavg", load);
	meta_set(e, "lockdep", exists(root, "/proc/lockdep") ? "yes" : "no");
	meta_set(e, "lock_stat", exists(root, "/proc/lock_stat") ? "yes" : "no");
	meta_set(e, "tool_version", CONTEND_VERSION);
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
				       all ? ", " : "", dirs[i], t);

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
	const char *gov = experiment_meta(e, "governor");
	const char *load = experiment_meta(e, "loadavg");
	const char *ncpus = experiment_meta(e, "ncpus");
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
