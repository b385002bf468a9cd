/*
 * claim.c - one live runner per experiment (claim.h).  A process is named
 * by the kernel's boot id, its pid and its start time (field 22 of
 * /proc/PID/stat, in clock ticks since boot): a pid reused after the
 * runner died, or the same pid after a reboot, never matches.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/claim.h"
#include "runner/util.h"

#define BOOT_ID_PATH "/proc/sys/kernel/random/boot_id"

/* The first line of a small file into buf; -1 when unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ret = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ret = 0;
	}
	fclose(f);
	return ret;
}

/* Start time of pid in clock ticks since boot; -1 when it is gone. */
static int start_time(pid_t pid, unsigned long long *ticks)
{
	char path[64], buf[1024], *p;
	int field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
	/* The command name (field 2) may hold blanks and ')': skip past
	 * its last ')'; field 3 follows. */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	for (field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -1;
	errno = 0;
	*ticks = strtoull(p + 1, NULL, 10);
	return errno ? -1 : 0;
}

char *claim_text(pid_t pid)
{
	char boot[64];
	unsigned long long t;

	if (read_line(BOOT_ID_PATH, boot, sizeof(boot)) || !*boot ||
	    start_time(pid, &t))
		return NULL;
	return xasprintf("%s %ld %llu", boot, (long)pid, t);
}

bool claim_alive(const char *text, pid_t *pid)
{
	char boot[64], now[64], *copy = xstrdup(text), *save = NULL;
	const char *fields[3];
	long long p = 0;
	uint64_t t = 0;
	unsigned long long t_now;
	size_t i;

	/* "BOOT_ID PID START_TIME", as claim_text writes it. */
	for (i = 0; i < 3; i++)
		fields[i] = strtok_r(i ? NULL : copy, " ", &save);
	if (!fields[2] || strlen(fields[0]) >= sizeof(boot) ||
	    parse_ll(fields[1], &p) || parse_u64(fields[2], &t) || p <= 0 ||
	    p > INT32_MAX) {
		free(copy);
		return false;
	}
	strcpy(boot, fields[0]);
	free(copy);
	*pid = (pid_t)p;
	if (read_line(BOOT_ID_PATH, now, sizeof(now)) || strcmp(boot, now))
		return false; /* another boot (or machine): not running here */
	return !start_time((pid_t)p, &t_now) && t_now == t;
}

int claim_take(struct store *s, int64_t experiment)
{
	char *mine = claim_text(getpid()), *held = NULL;
	pid_t pid = 0;
	int ret = -1;

	if (!mine)
		return error("cannot name this process (%s or /proc/self/stat "
			     "unreadable)", BOOT_ID_PATH);
	if (store_begin(s))
		goto out;
	if (!store_meta_get(s, experiment, CLAIM_KEY, &held)) {
		if (held && strcmp(held, mine) && claim_alive(held, &pid))
			error("experiment %" PRId64 " is being run by process "
			      "%ld; wait for it to end (or stop it) before "
			      "resuming", experiment, (long)pid);
		else if (!store_meta_set(s, experiment, CLAIM_KEY, mine) &&
			 !store_commit(s))
			ret = 0;
	}
	if (ret)
		store_rollback(s);
out:
	free(held);
	free(mine);
	return ret;
}

int claim_release(struct store *s, int64_t experiment)
{
	char *mine = claim_text(getpid()), *held = NULL;
	int ret = -1;

	if (!mine)
		return -1;
	if (store_begin(s))
		goto out;
	if (store_meta_get(s, experiment, CLAIM_KEY, &held) ||
	    (held && !strcmp(held, mine) &&
	     store_meta_set(s, experiment, CLAIM_KEY, NULL)) ||
	    store_commit(s)) {
		store_rollback(s);
		goto out;
	}
	ret = 0;
out:
	free(held);
	free(mine);
	return ret;
}
