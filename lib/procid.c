/*
 * procid.c - a process named so that it can be told from any other, ever
 * (procid.h): the kernel's boot id, its pid and its start time (field 22
 * of /proc/PID/stat, in clock ticks since boot): a pid reused after the
 * process died, or the same pid after a reboot, never matches.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/procid.h"
#include "lib/util.h"

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

/*
 * Start time of pid in clock ticks since boot; -1 when it is gone, or
 * dead and not yet reaped (state Z or X: a zombie runner, whose parent
 * has not waited for it, runs nothing).
 */
static int start_time(pid_t pid, uint64_t *ticks)
{
	char path[64], buf[1024], *p;
	int field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
	/* The command name (field 2) may hold blanks and ')': skip past
	 * its last ')'; field 3, the state, follows. */
	p = strrchr(buf, ')');
	if (!p || !p[1] || strchr("ZXx", p[2]))
		return -1;
	for (field = 2; field < 22 && p; field++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -1;
	p[strcspn(p + 1, " ") + 1] = '\0';
	return parse_u64(p + 1, ticks);
}

char *procid_text(pid_t pid)
{
	char boot[64];
	uint64_t t;

	if (read_line(BOOT_ID_PATH, boot, sizeof(boot)) || !*boot ||
	    start_time(pid, &t))
		return NULL;
	return xasprintf("%s %ld %" PRIu64, boot, (long)pid, t);
}

/* Splits "BOOTID PID STARTTIME"; -1 unless it is exactly that. */
static int parse(const char *text, char *boot, size_t len, pid_t *pid,
		       uint64_t *ticks)
{
	const char *sp1 = strchr(text, ' '), *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
	char num[32];
	long long p;

	if (!sp2 || sp1 == text || (size_t)(sp1 - text) >= len ||
	    (size_t)(sp2 - sp1 - 1) >= sizeof(num))
		return -1;
	snprintf(boot, len, "%.*s", (int)(sp1 - text), text);
	snprintf(num, sizeof(num), "%.*s", (int)(sp2 - sp1 - 1), sp1 + 1);
	if (parse_ll(num, &p) || p <= 0 || p > INT32_MAX ||
	    parse_u64(sp2 + 1, ticks))
		return -1;
	*pid = (pid_t)p;
	return 0;
}

bool procid_alive(const char *text, pid_t *pid)
{
	char boot[64], now[64];
	uint64_t t, t_now;

	if (parse(text, boot, sizeof(boot), pid, &t))
		return false;
	if (read_line(BOOT_ID_PATH, now, sizeof(now)) || strcmp(boot, now))
		return false; /* another boot (or machine): not running here */
	return !start_time(*pid, &t_now) && t_now == t;
}

int procid_tag(pid_t pid, char *buf, size_t len)
{
	uint64_t t;

	if (start_time(pid, &t))
		return -1;
	snprintf(buf, len, "%ld-%" PRIu64, (long)pid, t);
	return 0;
}

bool procid_tag_dead(const char *tag)
{
	char *mine = procid_text(getpid()), *text, num[32];
	const char *dash = strchr(tag, '-');
	uint64_t t;
	long long p;
	bool dead;

	if (!mine || !dash || (size_t)(dash - tag) >= sizeof(num)) {
		free(mine);
		return false;
	}
	snprintf(num, sizeof(num), "%.*s", (int)(dash - tag), tag);
	if (parse_ll(num, &p) || p <= 0 || p > INT32_MAX ||
	    parse_u64(dash + 1, &t)) {
		free(mine);
		return false;
	}
	/* our boot id: a tag is only ever judged on the machine it names */
	mine[strcspn(mine, " ")] = '\0';
	text = xasprintf("%s %lld %" PRIu64, mine, p, t);
	dead = !procid_alive(text, &(pid_t){ 0 });
	free(text);
	free(mine);
	return dead;
}
