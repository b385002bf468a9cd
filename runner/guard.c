/*
 * guard.c - the guard process that ends what the runner started once the
 * runner is gone (guard.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "runner/cgroup.h"
#include "runner/guard.h"
#include "runner/scratch.h"
#include "runner/spawn.h"
#include "lib/util.h"

/* What the runner publishes, in pages shared with the guard. */
struct shared {
	_Atomic pid_t pgid;
	/* a slot's path is written before its flag is set, read after */
	_Atomic int used[GUARD_SCRATCH_MAX];
	char scratch[GUARD_SCRATCH_MAX][PATH_MAX];
};

/* NULL: no guard. */
static struct shared *published;

/*
 * A process of group pgid that is not a zombie.  kill(-pgid, 0) would
 * count zombies too, and the killed, reparented to an init that does not
 * reap (a container's), stay zombies.
 */
static bool group_alive(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	bool alive = false;

	if (!d)
		return kill(-pgid, 0) == 0;
	while (!alive && (de = readdir(d))) {
		char path[300], buf[512], *p;
		ssize_t n;
		int fd;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		/* "PID (NAME) S PPID PGRP ...": NAME may hold ") " itself */
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] && !strchr("ZXx", p[2]) &&
		    (p = strchr(p + 4, ' ')) && strtol(p + 1, NULL, 10) == pgid)
			alive = true;
	}
	closedir(d);
	return alive;
}

/* Without a cgroup: until the group is gone, CGROUP_WAIT_S at most. */
static void wait_group(pid_t pgid)
{
	double until = now_monotonic() + CGROUP_WAIT_S;
	struct timespec nap = { 0, 5000000 };

	while (group_alive(pgid) && now_monotonic() < until)
		nanosleep(&nap, NULL);
}

/* In the guard: wait for the runner's end, then end what it left. */
static void __attribute__((noreturn)) guard_main(int fd, struct cgroup *cg)
{
	static const int quiet[] = { SIGINT, SIGQUIT, SIGHUP, SIGTSTP };
	char byte;
	pid_t pgid;
	size_t i;

	/* A ^C in the terminal is the runner's to handle, not ours. */
	for (i = 0; i < ARRAY_SIZE(quiet); i++)
		signal(quiet[i], SIG_IGN);
	prctl(PR_SET_NAME, "contend-guard");
	while (read(fd, &byte, 1) < 0 && errno == EINTR)
		;
	pgid = atomic_load(&published->pgid);
	if (pgid > 0)
		kill(-pgid, SIGKILL);
	/* kills all in it and waits for them, then removes it */
	if (cg)
		cgroup_remove(cg);
	else if (pgid > 0)
		wait_group(pgid);
	for (i = 0; i < GUARD_SCRATCH_MAX; i++)
		if (atomic_load(&published->used[i]))
			scratch_remove(published->scratch[i]);
	_exit(0);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Closes every descriptor from 3 up but the n of keep (all >= 3). */
static int close_but(int *keep, size_t n)
{
	unsigned int lo = 3;
	size_t i;

	qsort(keep, n, sizeof(*keep), cmp_int);
	for (i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned int)keep[i] < lo)
			continue;
		if ((unsigned int)keep[i] > lo &&
		    close_range(lo, (unsigned int)keep[i] - 1, 0))
			return -1;
		lo = (unsigned int)keep[i] + 1;
	}
	return close_range(lo, ~0U, 0);
}

/* In the forked guard: its descriptors, then guard_main. */
static void __attribute__((noreturn)) guard_child(int rfd,
						   const struct cgroup *cg)
{
	/* our own copy: the guard removes it as the runner would */
	struct cgroup mine;
	int fd = fcntl(rfd, F_DUPFD, 3);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int keep[3] = { fd, -1, -1 };

	if (cg) {
		mine = *cg;
		keep[1] = mine.parent_fd;
		keep[2] = mine.dir_fd;
		mine.procs_fd = -1;
	}
	/* Only the read end and the cgroup's directories: nothing else of
	 * the runner's stays open here (a database, a run's pipes), nor its
	 * stdio: a pipe reading the runner's output would wait for us too.
	 * Our own session: a kill of the runner's group is not ours. */
	if (fd < 0 || null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
	    dup2(null, 2) < 0 || close_but(keep, ARRAY_SIZE(keep)) ||
	    setsid() < 0)
		_exit(1);
	guard_main(fd, cg ? &mine : NULL);
}

int guard_start(const struct cgroup *cg)
{
	void *page;
	int fds[2];
	pid_t pid;

	if (published)
		return 0;
	page = mmap(NULL, sizeof(*published), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return error("guard: mmap: %s", strerror(errno));
	if (pipe2(fds, O_CLOEXEC)) {
		munmap(page, sizeof(*published));
		return error("guard: pipe: %s", strerror(errno));
	}
	published = page;
	pid = fork();
	if (pid == 0)
		guard_child(fds[0], cg);
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		munmap(page, sizeof(*published));
		published = NULL;
		return error("guard: fork: %s", strerror(errno));
	}
	/* not a run's: the orphan sweep after each run must leave it */
	spawn_keep(pid);
	/* fds[1] stays open, close-on-exec, until the runner ends. */
	return 0;
}

void guard_publish(pid_t pgid)
{
	if (published)
		atomic_store(&published->pgid, pgid);
}

void guard_started(const struct child *c, void *arg)
{
	(void)arg;
	guard_publish(c->pid);
}

void guard_scratch(const char *path, bool on)
{
	size_t i;

	if (!published || strlen(path) >= PATH_MAX)
		return;
	for (i = 0; i < GUARD_SCRATCH_MAX; i++) {
		int used = atomic_load(&published->used[i]);

		if (on && !used) {
			memcpy(published->scratch[i], path, strlen(path) + 1);
			atomic_store(&published->used[i], 1);
			return;
		}
		if (!on && used && !strcmp(published->scratch[i], path)) {
			atomic_store(&published->used[i], 0);
			return;
		}
	}
}
