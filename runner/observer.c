/*
 * observer.c - the runner's observers (observer.h): the built-in table,
 * whether each can run here, and a command observer's start (its own
 * process group and directory, readiness read from its output or a file)
 * and stop (its signal, then SIGKILL).  tracefs-lock is observer_tracefs.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/proc.h"
#include "lib/util.h"
#include "runner/kinstr/bpf.h"
#include "runner/observer.h"
#include "runner/observer_impl.h"
#include "runner/scratch.h"
#include "runner/spawn.h"

#define STOP_WAIT_S 10.0 /* an observer's own stop before SIGKILL */
#define OUT_KEEP 4096    /* bytes of its output kept for the pattern */

/*
 * perf-lock: `perf lock record -a` into its directory; -D 1 makes perf
 * print "Events enabled" once it has enabled its events, which is the
 * readiness read (perf-record(1), --delay).  klockstat prints its banner
 * once its probes are attached; bpftrace prints "Attaching" before it
 * attaches, so it is given a BEGIN that prints once they are.
 */
const struct observer_def observer_builtins[] = {
	{ .name = "none", .kind = OBS_NONE },
	{ .name = "tracefs-lock", .kind = OBS_TRACEFS, .ready_timeout_s = 10 },
	{ .name = "perf-lock", .kind = OBS_COMMAND,
	  .command = "perf lock record -a -o perf.data -D 1",
	  .ready = OBS_READY_OUTPUT, .ready_arg = "Events enabled",
	  .stop_signal = SIGINT, .ready_timeout_s = 30,
	  .package = "linux-perf" },
	{ .name = "bpf", .kind = OBS_BPF, .ready_timeout_s = 30 },
	{ .name = "bpftrace", .kind = OBS_COMMAND,
	  .command = "bpftrace -e \"BEGIN { printf(\\\"contend-ready\\\\n\\\"); } "
	  "tracepoint:lock:contention_begin { @[kstack(4)] = count(); }\"",
	  .ready = OBS_READY_OUTPUT, .ready_arg = "contend-ready",
	  .stop_signal = SIGINT, .ready_timeout_s = 60, .package = "bpftrace" },
	{ .name = "klockstat", .kind = OBS_COMMAND, .command = "klockstat-bpfcc",
	  .ready = OBS_READY_OUTPUT, .ready_arg = "Tracing",
	  .stop_signal = SIGINT, .ready_timeout_s = 60,
	  .package = "bpfcc-tools" },
};
const size_t nobserver_builtins = ARRAY_SIZE(observer_builtins);

static int command_usable(const struct observer_def *d, bool *missing,
			  char *why, size_t whylen)
{
	char **argv = NULL, *exe = NULL, err[128];
	size_t n = 0;
	int ok;

	if (proc_split(d->command, &argv, &n, err, sizeof(err)) || !n) {
		snprintf(why, whylen, "observer %s: command: %s", d->name,
			 n ? err : "empty");
		proc_argv_free(argv);
		return 0;
	}
	exe = proc_path_find(argv[0]);
	ok = exe != NULL;
	if (!ok) {
		*missing = true;
		snprintf(why, whylen, "observer %s: %.64s is not installed (not "
			 "found on PATH)%s%s%s", d->name, argv[0],
			 d->package ? "; Debian's package " : "",
			 d->package ? d->package : "",
			 d->package ? " provides it" : "");
	}
	free(exe);
	proc_argv_free(argv);
	return ok;
}

int observer_usable(const struct observer_def *d, bool *missing, char *why,
		    size_t whylen)
{
	char w[200];

	*missing = false;
	switch (d->kind) {
	case OBS_COMMAND:
		return command_usable(d, missing, why, whylen);
	case OBS_TRACEFS:
		if (observer_tracefs_usable(w, sizeof(w)))
			return 1;
		snprintf(why, whylen, "observer %s: %s", d->name, w);
		return 0;
	case OBS_BPF:
		if (kbpf_usable(w, sizeof(w)))
			return 1;
		snprintf(why, whylen, "observer %s: needs the kernel lock BPF "
			 "program, which cannot run here: %s", d->name, w);
		return 0;
	default:
		return 1;
	}
}

/* The child: its own group, dies with the runner, output on the pipe. */
static void child_exec(const struct observer_run *o, char **argv,
		       const char *exe, int out)
{
	int null = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, o->d->stop_signal ? o->d->stop_signal
						  : SIGTERM);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 ||
	    dup2(out, 2) < 0 || chdir(o->dir) ||
	    setenv("CONTEND_OBSERVER_DIR", o->dir, 1))
		_exit(127);
	execv(exe, argv);
	_exit(127);
}

/* Whether the observer shows it is ready, from what out has gathered. */
static bool ready_now(const struct observer_run *o, const char *out)
{
	const struct observer_def *d = o->d;
	struct stat st;
	char *path;
	bool ok;

	if (d->ready == OBS_READY_OUTPUT)
		return strstr(out, d->ready_arg) != NULL;
	path = d->ready_arg[0] == '/' ? xstrdup(d->ready_arg)
				      : xasprintf("%s/%s", o->dir, d->ready_arg);
	ok = stat(path, &st) == 0;
	free(path);
	return ok;
}

/* Reads what is there of the observer's output into out (kept short). */
static int drain(int fd, char *out, size_t *len)
{
	char buf[1024];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n <= 0)
		return n < 0 && errno == EAGAIN ? 0 : -1;
	if (*len + (size_t)n >= OUT_KEEP) { /* keep the tail */
		size_t keep = OUT_KEEP / 2;

		memmove(out, out + *len - (*len < keep ? *len : keep),
			*len < keep ? *len : keep);
		*len = *len < keep ? *len : keep;
	}
	if ((size_t)n >= OUT_KEEP - *len)
		n = (ssize_t)(OUT_KEEP - *len - 1);
	memcpy(out + *len, buf, (size_t)n);
	*len += (size_t)n;
	out[*len] = '\0';
	return 0;
}

/* Waits until ready (0), the observer ends or the timeout passes (-1). */
static int wait_ready(struct observer_run *o, char *why, size_t whylen)
{
	char out[OUT_KEEP] = "";
	size_t len = 0;
	double end = now_monotonic() + o->d->ready_timeout_s;
	bool open = true;

	while (!ready_now(o, out)) {
		struct pollfd p[2] = { { o->out_fd, POLLIN, 0 },
				       { o->cancel_fd, POLLIN, 0 } };
		int st;

		if (now_monotonic() > end) {
			snprintf(why, whylen, "observer %s: not ready after "
				 "%gs (ready_timeout)", o->d->name,
				 o->d->ready_timeout_s);
			return -1;
		}
		if (waitpid(o->pid, &st, WNOHANG) == o->pid) {
			spawn_unkeep(o->pid);
			o->pid = 0;
			snprintf(why, whylen, "observer %s ended before it was "
				 "ready (%s %d)", o->d->name,
				 WIFEXITED(st) ? "exit status" : "signal",
				 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
			return -1;
		}
		/* output wakes us at once; a file is looked for each 5 ms */
		if (!open)
			p[0].fd = -1;
		if (poll(p, 2, 5) <= 0)
			continue;
		if (p[1].revents) {
			snprintf(why, whylen, "observer %s: interrupted before "
				 "it was ready", o->d->name);
			return -1;
		}
		if (p[0].revents && drain(o->out_fd, out, &len))
			open = false;
	}
	return 0;
}

static int command_start(struct observer_run *o, char *why, size_t whylen)
{
	char **argv = NULL, *exe = NULL, err[128];
	size_t n = 0;
	int pipefd[2] = { -1, -1 }, ret = -1;

	if (proc_split(o->d->command, &argv, &n, err, sizeof(err)) || !n ||
	    !(exe = proc_path_find(argv[0]))) {
		snprintf(why, whylen, "observer %s: cannot run its command",
			 o->d->name);
		goto out;
	}
	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(why, whylen, "observer %s: pipe: %s", o->d->name,
			 strerror(errno));
		goto out;
	}
	o->pid = fork();
	if (o->pid == 0)
		child_exec(o, argv, exe, pipefd[1]);
	if (o->pid < 0) {
		o->pid = 0;
		snprintf(why, whylen, "observer %s: fork: %s", o->d->name,
			 strerror(errno));
		goto out;
	}
	setpgid(o->pid, o->pid); /* both sides: no race with the kill */
	spawn_keep(o->pid); /* not a run's orphan (runner/orphans.c) */
	o->out_fd = pipefd[0];
	pipefd[0] = -1;
	fcntl(o->out_fd, F_SETFL, O_NONBLOCK);
	ret = wait_ready(o, why, whylen);
out:
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	free(exe);
	proc_argv_free(argv);
	return ret;
}

/* The runner's BPF program, loaded and attached for this run. */
static int bpf_start(struct observer_run *o, uint64_t cgid, char *why,
		     size_t whylen)
{
	char w[200];

	o->kbpf = kbpf_open(w, sizeof(w));
	if (!o->kbpf)
		return error_buf(why, whylen, "observer %s: the kernel lock "
				 "BPF program did not load: %s", o->d->name, w);
	if (cgid)
		kbpf_use_cgroup(o->kbpf, cgid);
	return 0;
}

int observer_start(struct observer_run *o, const struct observer_def *d,
		   uint64_t cgid, int cancel_fd, char *why, size_t whylen)
{
	double t0 = now_monotonic();
	int ret = 0;

	memset(o, 0, sizeof(*o));
	o->d = d;
	o->out_fd = -1;
	o->cancel_fd = cancel_fd;
	if (d->kind == OBS_TRACEFS)
		ret = observer_tracefs_start(o, why, whylen);
	else if (d->kind == OBS_BPF)
		ret = bpf_start(o, cgid, why, whylen);
	else if (d->kind == OBS_COMMAND) {
		o->dir = scratch_create_owned(scratch_parent(NULL));
		if (!o->dir) {
			snprintf(why, whylen, "observer %s: cannot make its "
				 "directory", d->name);
			return -1;
		}
		ret = command_start(o, why, whylen);
	}
	o->start_s = now_monotonic() - t0;
	if (ret)
		observer_stop(o, NULL);
	return ret;
}

/* Sends the stop signal, drains its output, SIGKILL after STOP_WAIT_S. */
static void command_stop(struct observer_run *o)
{
	char out[OUT_KEEP] = "";
	size_t len = 0;
	double end = now_monotonic() + STOP_WAIT_S;
	bool killed = false;
	int st;

	kill(-o->pid, o->d->stop_signal);
	while (waitpid(o->pid, &st, WNOHANG) == 0) {
		struct pollfd p = { o->out_fd, POLLIN, 0 };

		if (!killed && now_monotonic() > end) {
			warning("observer %s did not stop within %gs: killed",
				o->d->name, STOP_WAIT_S);
			kill(-o->pid, SIGKILL);
			killed = true;
		}
		if (poll(&p, o->out_fd >= 0 ? 1 : 0, 5) > 0 &&
		    drain(o->out_fd, out, &len)) {
			close(o->out_fd);
			o->out_fd = -1;
		}
	}
	kill(-o->pid, SIGKILL); /* whatever it left in its group */
	spawn_unkeep(o->pid);
	o->pid = 0;
}

void observer_stop(struct observer_run *o, struct result *r)
{
	double t0 = now_monotonic();

	if (!o->d)
		return; /* never started, or stopped already */
	if (o->pid > 0)
		command_stop(o);
	if (o->out_fd >= 0)
		close(o->out_fd);
	o->out_fd = -1;
	if (o->tracefs)
		observer_tracefs_stop(o);
	kbpf_close(o->kbpf);
	o->kbpf = NULL;
	if (o->dir && scratch_remove(o->dir))
		warning("observer directory %s left behind", o->dir);
	free(o->dir);
	o->dir = NULL;
	o->stop_s = now_monotonic() - t0;
	if (r && o->d && o->d->kind != OBS_NONE) {
		result_add(r, "observer_start_s", o->start_s);
		result_add(r, "observer_stop_s", o->stop_s);
	}
	o->d = NULL;
}
