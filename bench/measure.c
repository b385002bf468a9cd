/*
 * measure.c - runs one command and appends what it cost to a file, for
 * the benchmarks of `make bench`:
 *
 *   measure OUT [-o FILE] CMD [ARG...]
 *	OUT gets one line "wall_s cpu_s maxrss_kb hwm_kb status": wall time
 *	from fork to reap (CLOCK_MONOTONIC), user + system time and peak
 *	RSS from wait4() (the child and every descendant it reaped: the
 *	largest process of the tree), the child's own peak RSS (VmHWM of
 *	/proc/PID/status, polled every 10 ms until it exits, so a runner is
 *	measured apart from the runs it spawns; 0 when it lived too short
 *	to be read), and its exit status.  The command's stdout goes to
 *	/dev/null, or with -o to FILE (appended); its stderr stays.
 *
 * Exit status: the command's (1 if it could not be run).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* VmHWM of pid in KiB, or -1 when unreadable (gone, or a zombie). */
static long hwm_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6)) {
			char *end;

			kb = strtol(line + 6, &end, 10);
			if (end == line + 6)
				kb = -1;
			break;
		}
	fclose(f);
	return kb;
}

static void child(char **argv, const char *out)
{
	int fd = out ? open(out, O_WRONLY | O_CREAT | O_APPEND, 0644)
		     : open("/dev/null", O_WRONLY);

	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		_exit(127);
	close(fd);
	execvp(argv[0], argv);
	fprintf(stderr, "measure: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int main(int argc, char **argv)
{
	const struct timespec tick = { 0, 10L * 1000 * 1000 };
	struct rusage ru;
	const char *out_path = NULL;
	char **cmd = argv + 2;
	double t0, wall;
	long hwm = 0, h;
	int status;
	pid_t pid, got;
	FILE *out;

	if (argc >= 5 && !strcmp(argv[2], "-o")) {
		out_path = argv[3];
		cmd = argv + 4;
	}
	if (argc < 3 || !*cmd) {
		fputs("usage: measure OUT [-o FILE] CMD [ARG...]\n", stderr);
		return 2;
	}
	t0 = now();
	pid = fork();
	if (pid < 0) {
		perror("measure: fork");
		return 1;
	}
	if (pid == 0)
		child(cmd, out_path);
	/* Poll until the child is reaped; VmHWM only grows while it lives. */
	while ((got = wait4(pid, &status, WNOHANG, &ru)) == 0) {
		h = hwm_kb(pid);
		if (h > hwm)
			hwm = h;
		nanosleep(&tick, NULL);
	}
	wall = now() - t0;
	if (got < 0) {
		perror("measure: wait4");
		return 1;
	}
	out = fopen(argv[1], "a");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fprintf(out, "%.6f %.6f %ld %ld %d\n", wall,
		(double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
			(double)ru.ru_stime.tv_sec +
			(double)ru.ru_stime.tv_usec * 1e-6,
		ru.ru_maxrss, hwm,
		WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	if (fclose(out))
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
