/*
 * guard.c - the guard process that kills the run in flight's process
 * group once the runner is gone (guard.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "runner/guard.h"
#include "runner/spawn.h"
#include "lib/util.h"

/* The group to kill, in a page shared with the guard; NULL: no guard. */
static _Atomic pid_t *published;

/* In the guard: wait for the runner's end, then kill the group. */
static void __attribute__((noreturn)) guard_main(int fd)
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
	pgid = atomic_load(published);
	if (pgid > 0)
		kill(-pgid, SIGKILL);
	_exit(0);
}

int guard_start(void)
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
	if (pid == 0) {
		/* Only the read end: nothing else of the runner's stays
		 * open here (a database, a run's pipes). */
		int fd = fcntl(fds[0], F_DUPFD, 3);
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		/* Nor the runner's stdio: a pipe reading the runner's
		 * output would wait for us too. */
		if (fd < 0 || null < 0 || dup2(null, 0) < 0 ||
		    dup2(null, 1) < 0 || dup2(null, 2) < 0 ||
		    close_range(3, (unsigned)fd - 1, 0) ||
		    close_range((unsigned)fd + 1, ~0U, 0))
			_exit(1);
		guard_main(fd);
	}
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
		atomic_store(published, pgid);
}
