/*
 * orphans.c - the processes a run leaves behind: this process made their
 * reaper (spawn_subreaper), those found among its children SIGKILLed and
 * reaped between two runs (spawn_kill_orphans), the helpers it keeps
 * (spawn_keep); and the one wait4 loop every reap goes through.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/spawn.h"
#include "runner/spawn_impl.h"
#include "lib/util.h"

pid_t spawn_reap(pid_t pid, int *wstatus, struct rusage *ru)
{
	pid_t r;

	do
		r = wait4(pid, wstatus, 0, ru);
	while (r < 0 && errno == EINTR);
	return r;
}

int spawn_subreaper(void)
{
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		return error("prctl(PR_SET_CHILD_SUBREAPER): %s", strerror(errno));
	return 0;
}

/* The parent's pid and state from /proc/PID/stat (fields 4 and 3). */
static pid_t parent_of(const char *pid, char *state)
{
	char path[300], buf[512], *p, *end;
	long ppid;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "PID (NAME) S PPID ...": NAME may hold ") " itself. */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	*state = p[2];
	ppid = strtol(p + 4, &end, 10);
	return end == p + 4 ? -1 : (pid_t)ppid;
}

/*
 * A SIGKILL is already on its way to pid (pending: the group kill of the
 * `contend exec` that started it, say), so it is dying, not escaping.
 */
static bool being_killed(const char *pid)
{
	char path[300], line[128];
	bool yes = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	f = fopen(path, "re");
	if (!f)
		return true; /* gone already */
	while (!yes && fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigPnd:", 7) || !strncmp(line, "ShdPnd:", 7))
			yes = strtoull(line + 7, NULL, 16) >> (SIGKILL - 1) & 1;
	fclose(f);
	return yes;
}

/* Children that are not runs' (spawn_keep). */
static pid_t kept[SPAWN_KEEP_MAX];
static size_t nkept;

void spawn_keep(pid_t pid)
{
	if (nkept < SPAWN_KEEP_MAX)
		kept[nkept++] = pid;
}

void spawn_unkeep(pid_t pid)
{
	size_t i;

	for (i = 0; i < nkept; i++)
		if (kept[i] == pid) {
			kept[i] = kept[--nkept];
			return;
		}
}

static bool is_kept(pid_t pid)
{
	size_t i;

	for (i = 0; i < nkept; i++)
		if (kept[i] == pid)
			return true;
	return false;
}

/* One child of ours found: SIGKILL, its pid kept to be reaped. */
static void kill_child(long long pid, pid_t **pids, size_t *n, size_t *alloc,
		       int *escaped)
{
	char name[24], state = '?';

	if (pid <= 0 || is_kept((pid_t)pid))
		return;
	snprintf(name, sizeof(name), "%lld", pid);
	if (parent_of(name, &state) != getpid())
		return;
	if (*n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 8;
		*pids = xrealloc(*pids, *alloc * sizeof(**pids));
	}
	(*pids)[(*n)++] = (pid_t)pid;
	if (!strchr("ZXx", state) && !being_killed(name))
		++*escaped;
	kill((pid_t)pid, SIGKILL);
}

/*
 * Our children from /proc/self/task/TID/children (CONFIG_PROC_CHILDREN):
 * one small file a thread, where a scan of /proc opened every process's
 * stat after every run (~1.5 ms on a quiet machine).  -1 when the kernel
 * has no such file.
 */
static int children_listed(pid_t **pids, size_t *n, size_t *alloc,
			   int *escaped)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *de;
	int ret = 0;

	if (!d)
		return -1;
	while (ret == 0 && (de = readdir(d))) {
		char path[300], buf[4096], *p, *end;
		ssize_t len;
		int fd;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/children",
			 de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			ret = -1;
			break;
		}
		/* A list longer than buf is cut: the caller loops. */
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[len > 0 ? len : 0] = '\0';
		for (p = buf; *p; p = end) {
			long long pid = strtoll(p, &end, 10);

			if (end == p)
				break;
			kill_child(pid, pids, n, alloc, escaped);
		}
	}
	closedir(d);
	return ret;
}

/*
 * SIGKILL to every child of ours still alive; their pids into *pids (to
 * be reaped), and how many were not dying already into *escaped.
 */
static size_t kill_children(pid_t **pids, int *escaped)
{
	DIR *d;
	struct dirent *de;
	size_t n = 0, alloc = 0;

	*pids = NULL;
	*escaped = 0;
	if (children_listed(pids, &n, &alloc, escaped) == 0)
		return n;
	d = opendir("/proc");
	if (!d)
		return n;
	while ((de = readdir(d))) {
		long long pid;

		if (!parse_ll(de->d_name, &pid))
			kill_child(pid, pids, &n, &alloc, escaped);
	}
	closedir(d);
	return n;
}

int spawn_kill_orphans(void)
{
	int killed = 0;

	for (;;) {
		siginfo_t si;
		pid_t *pids;
		size_t n, i;
		int escaped;

		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			return killed; /* ECHILD: no child left */
		}
		if (si.si_pid) {
			/* One that ended on its own: reaped, not counted. */
			spawn_reap(si.si_pid, NULL, NULL);
			continue;
		}
		/* Killed and reaped; their own children come to us next. */
		n = kill_children(&pids, &escaped);
		for (i = 0; i < n; i++)
			spawn_reap(pids[i], NULL, NULL);
		free(pids);
		if (!n)
			return killed; /* children, but none found: give up */
		killed += escaped;
	}
}
