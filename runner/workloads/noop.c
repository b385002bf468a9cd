/*
 * noop.c - a workload that measures nothing but the harness, like fio's null
 * engine: threads spin a fixed number of loops per operation.  Its `fault`
 * and `jitter` parameters exist to test the runner and the analysis
 * deterministically (a segfault, a hang, a garbage protocol, noisy data).
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runner/workloads/harness.h"
#include "runner/workloads/workloads.h"

enum { P_THREADS, P_SPIN, P_FAULT, P_JITTER, P_NPARAMS };

static const char *const faults[] = {
	"none", "segv", "abort", "hang", "exit", "garbage", "noend",
	"stubborn", "fork", "flood", "errflood", NULL
};
enum {
	F_NONE, F_SEGV, F_ABORT, F_HANG, F_EXIT, F_GARBAGE, F_NOEND,
	F_STUBBORN, F_FORK, F_FLOOD, F_ERRFLOOD
};

static const struct param_def noop_params[] = {
	[P_THREADS] = { "threads", PT_INT, "1", 1, 4096, NULL,
			"worker threads" },
	[P_SPIN] = { "spin", PT_INT, "100", 0, 1e9, NULL,
		     "busy loops per operation" },
	[P_FAULT] = { "fault", PT_ENUM, "none", 0, 0, faults,
		      "misbehave on purpose: segv, abort, hang, exit (status 1), "
		      "garbage (malformed output), noend (no end line), "
		      "stubborn (hang ignoring SIGTERM), fork (leave a child "
		      "holding stdout, then run normally), flood (write stdout "
		      "forever), errflood (4 MiB of stderr, then exit 1)" },
	[P_JITTER] = { "jitter", PT_DOUBLE, "0", 0, 1, NULL,
		       "scale throughput by a random factor in [1-j, 1+j] "
		       "(synthetic run-to-run noise)" },
};

static void noop_worker(struct worker *w)
{
	const uint64_t spin = *(const uint64_t *)w->ctx;
	uint64_t done = 0;

	while (worker_continue(w, done)) {
		busy_loops(spin);
		done++;
	}
	w->slot->ops = done;
}

/* Writes len bytes of 'x' lines to fd, forever when len is 0. */
static void flood(int fd, size_t len)
{
	char buf[4096];
	size_t done = 0;

	memset(buf, 'x', sizeof(buf));
	buf[sizeof(buf) - 1] = '\n';
	while (!len || done < len) {
		if (write(fd, buf, sizeof(buf)) < 0)
			exit(1);
		done += sizeof(buf);
	}
}

static int misbehave(int fault)
{
	switch (fault) {
	case F_SEGV:
		/* A real death by signal, even under a sanitizer's handler. */
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
		break;
	case F_ABORT:
		abort();
	case F_HANG:
		for (;;)
			pause();
	case F_EXIT:
		fputs("noop: exiting with status 1 as asked\n", stderr);
		exit(1);
	case F_GARBAGE:
		fputs("this is not the exec protocol\n", stdout);
		exit(0);
	case F_NOEND:
		fputs("ops 1\nthroughput 1\n", stdout);
		exit(0);
	case F_STUBBORN:
		signal(SIGTERM, SIG_IGN);
		for (;;)
			pause();
	case F_FORK:
		/*
		 * The orphan keeps stdout open: the runner must not wait on
		 * it, and must kill it with the run's process group.  Run by
		 * hand, nobody does: the alarm ends it within a minute.
		 */
		if (fork() == 0) {
			alarm(60);
			for (;;)
				pause();
		}
		break;
	case F_FLOOD:
		flood(STDOUT_FILENO, 0);
		break;
	case F_ERRFLOOD:
		flood(STDERR_FILENO, 4 << 20);
		fputs("noop: flooded stderr as asked\n", stderr);
		exit(1);
	}
	return 0;
}

static int noop_run(const struct wl_args *a, struct result *r)
{
	size_t n = (size_t)a->v[P_THREADS].i;
	uint64_t spin = (uint64_t)a->v[P_SPIN].i;
	struct slot *slots;
	double elapsed, jitter = a->v[P_JITTER].d;
	int ret;

	misbehave(a->v[P_FAULT].e);
	slots = harness_slots(n);
	ret = harness_run(a, n, noop_worker, &spin, slots, &elapsed, r);
	if (!ret) {
		harness_report(r, slots, n, elapsed, a);
		if (jitter > 0) {
			unsigned seed = (unsigned)getpid() ^ (unsigned)time(NULL);
			double u = (double)rand_r(&seed) / RAND_MAX;
			double tput = result_value(r, "throughput");

			result_add(r, "throughput", tput * (1 - jitter + 2 * jitter * u));
		}
	}
	harness_slots_free(slots);
	return ret;
}

const struct workload noop_workload = {
	.name = "noop",
	.summary = "threads spin a fixed loop per op: tests the harness itself",
	.help = "Like fio's null engine, noop measures the tool, not a lock. "
		"Its fault parameter makes a run crash, hang, fail or break the "
		"protocol on purpose, so the runner's handling can be tested.",
	.params = noop_params,
	.nparams = P_NPARAMS,
	.run = noop_run,
};
