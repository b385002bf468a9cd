/*
 * startref.c - the floor under bench/latency.sh: how long a bare fork +
 * exec takes to reach main() of a small C program on this machine, timed
 * the way contend times a run's start (the parent's CLOCK_MONOTONIC just
 * before fork, passed in CONTEND_SPAWN_NS; the child subtracts it from its
 * own clock).  contend's start latency adds to this floor its own work:
 * loading its libraries, parsing the run's parameters, creating the
 * workers and releasing them at the start barrier.
 *
 *   startref N    spawns itself N times, one at a time; prints each
 *                 child's latency in seconds, one a line.
 *   startref N CMD  fork + exec + wait of CMD (no arguments), N times:
 *                 the floor of bench/cmdcost.sh when hyperfine is missing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The child: latency from the parent's stamp to here. */
static int child(void)
{
	uint64_t t = now_ns();
	const char *s = getenv("CONTEND_SPAWN_NS");
	char *end;
	unsigned long long spawn;

	if (!s)
		return 1;
	spawn = strtoull(s, &end, 10);
	if (end == s || *end)
		return 1;
	printf("%.9f\n", (double)(t - spawn) * 1e-9);
	return 0;
}

/* Runs path with argument arg (NULL: none) once; 0 when it exits 0. */
static int spawn_one(const char *path, const char *arg)
{
	char stamp[64];
	pid_t pid;
	int status;

	snprintf(stamp, sizeof(stamp), "%" PRIu64, now_ns());
	if (setenv("CONTEND_SPAWN_NS", stamp, 1))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl(path, path, arg, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	char *end;
	long n, i;

	if (argc == 2 && !strcmp(argv[1], "child"))
		return child();
	if (argc < 2 || argc > 3 || (n = strtol(argv[1], &end, 10)) < 1 ||
	    *end) {
		fputs("usage: startref N [CMD]\n", stderr);
		return 2;
	}
	for (i = 0; i < n; i++)
		if (argc == 3 ? spawn_one(argv[2], NULL)
			      : spawn_one("/proc/self/exe", "child")) {
			perror("startref: spawn");
			return 1;
		}
	return 0;
}
