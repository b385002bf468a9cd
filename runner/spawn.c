/*
 * spawn.c - vfork + exec of one child in its own process group, its output
 * drained by a poll loop under a timeout, the group killed on the way out.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/spawn.h"
#include "runner/util.h"

extern char **environ;

/* After the child exits, how long leftovers may hold its pipes open. */
#define DRAIN_S 1.0
/* Without pidfd (Linux < 5.3), how often to look for the child's exit. */
#define POLL_EXIT_S 0.05

void child_init(struct child *c)
{
	memset(c, 0, sizeof(*c));
	c->cancel_fd = -1;
	c->pid = -1;
}

void child_release(struct child *c)
{
	free(c->out);
	c->out = NULL;
	c->outlen = 0;
}

const char *spawn_signame(int sig, char *buf, size_t len)
{
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, len, "SIG%s", abbrev);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}

/* The parent's ends of everything, and the loop's state. */
struct loop {
	int out, err;          /* read ends; -1 once at EOF */
	int pidfd;             /* -1 without pidfd_open */
	int cancel;            /* -1 once acted upon */
	bool exited;           /* the child is a zombie (not yet reaped) */
	double t0, deadline, kill_at, drain_until;
	size_t outalloc;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Pipes above 0..2, so the child's dup2s onto stdio cannot clobber them. */
static int pipe_above_stdio(int fds[2])
{
	int i;

	if (pipe2(fds, O_CLOEXEC))
		return error("pipe: %s", strerror(errno));
	for (i = 0; i < 2; i++) {
		if (fds[i] <= STDERR_FILENO) {
			int moved = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);

			if (moved < 0) {
				close(fds[0]);
				close(fds[1]);
				return error("fcntl: %s", strerror(errno));
			}
			close(fds[i]);
			fds[i] = moved;
		}
	}
	return 0;
}

/*
 * In the child, between vfork and exec, on the parent's memory: only
 * async-signal-safe calls, no writes but to its own locals, no return.
 * Signals arrive blocked; they are unblocked once every handler the
 * runner installed is back to its default.  A failure is reported as an
 * errno through errpipe, then _exit(127).
 */
static void __attribute__((noreturn))
child_exec(const struct child *c, int out_w, int err_w, int errpipe,
	   pid_t parent)
{
	static const int defaults[] = { SIGPIPE, SIGINT, SIGTERM, SIGQUIT,
					SIGHUP, SIGCHLD };
	struct sigaction dfl;
	sigset_t none;
	int e, null;
	size_t i;

	setpgid(0, 0);
	/* Die with the runner, even when it is killed with SIGKILL. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		goto fail;
	null = open("/dev/null", O_RDONLY);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    dup2(out_w, STDOUT_FILENO) < 0 || dup2(err_w, STDERR_FILENO) < 0)
		goto fail;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (i = 0; i < ARRAY_SIZE(defaults); i++)
		sigaction(defaults[i], &dfl, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(c->path ? c->path : c->argv[0], c->argv,
	       c->envp ? c->envp : environ);
fail:
	e = errno;
	if (write(errpipe, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* 0 when exec succeeded (the pipe closed empty), else the child's errno. */
static int exec_errno(int errpipe)
{
	int e = 0;
	ssize_t n;

	do
		n = read(errpipe, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(e) ? e : 0;
}

static pid_t reap(pid_t pid, int *wstatus, struct rusage *ru)
{
	pid_t r;

	do
		r = wait4(pid, wstatus, 0, ru);
	while (r < 0 && errno == EINTR);
	return r;
}

static void kill_group(struct child *c, int sig)
{
	if (sig == SIGKILL)
		c->kill_sent = true;
	else
		c->term_sent = true;
	kill(-c->pid, sig);
}

static void append_out(struct child *c, struct loop *l, const char *buf,
		       size_t n)
{
	size_t room = c->out_max - c->outlen;

	if (c->killed == KILL_OVERFLOW)
		return;
	if (n > room) {
		n = room;
		c->killed = c->killed ? c->killed : KILL_OVERFLOW;
		kill_group(c, SIGKILL);
	}
	if (c->outlen + n + 1 > l->outalloc) {
		l->outalloc = (c->outlen + n + 1) * 2;
		if (l->outalloc > c->out_max + 1)
			l->outalloc = c->out_max + 1;
		c->out = xrealloc(c->out, l->outalloc);
	}
	memcpy(c->out + c->outlen, buf, n);
	c->outlen += n;
	c->out[c->outlen] = '\0';
}

/* Keeps the last SPAWN_ERR_TAIL bytes of stderr. */
static void append_err(struct child *c, const char *buf, size_t n)
{
	if (n >= SPAWN_ERR_TAIL) {
		memcpy(c->err, buf + n - SPAWN_ERR_TAIL, SPAWN_ERR_TAIL);
		c->err_truncated = c->err_truncated || c->errlen || n > SPAWN_ERR_TAIL;
		c->errlen = SPAWN_ERR_TAIL;
	} else {
		size_t keep = c->errlen + n > SPAWN_ERR_TAIL
				      ? SPAWN_ERR_TAIL - n : c->errlen;

		if (keep < c->errlen)
			c->err_truncated = true;
		memmove(c->err, c->err + c->errlen - keep, keep);
		memcpy(c->err + keep, buf, n);
		c->errlen = keep + n;
	}
	c->err[c->errlen] = '\0';
}

/* Reads what is there; closes the fd at EOF or on error. */
static void drain(struct child *c, struct loop *l, int *fd, bool is_out)
{
	char buf[65536];
	ssize_t n;

	for (;;) {
		n = read(*fd, buf, sizeof(buf));
		if (n > 0) {
			if (is_out)
				append_out(c, l, buf, (size_t)n);
			else
				append_err(c, buf, (size_t)n);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		close_fd(fd);
		return;
	}
}

/* The child exited (it is a zombie): clear out whatever it left behind. */
static void on_exit_seen(struct child *c, struct loop *l, double now)
{
	l->exited = true;
	l->drain_until = now + DRAIN_S;
	kill(-c->pid, SIGKILL);
	close_fd(&l->pidfd);
}

static bool exited_nohang(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	return !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) &&
	       si.si_pid == pid;
}

/* Milliseconds until the earliest timer, -1 for none. */
static int next_timeout(const struct child *c, const struct loop *l,
			double now)
{
	double next = INFINITY;

	if (c->timeout_s > 0 && !c->term_sent && !l->exited)
		next = fmin(next, l->deadline);
	if (c->term_sent && !c->kill_sent && !l->exited)
		next = fmin(next, l->kill_at);
	if (l->exited)
		next = fmin(next, l->drain_until);
	if (l->pidfd < 0 && !l->exited)
		next = fmin(next, now + POLL_EXIT_S);
	if (isinf(next))
		return -1;
	if (next <= now)
		return 0;
	return (int)ceil((next - now) * 1000);
}

static void check_timers(struct child *c, struct loop *l, double now)
{
	if (l->exited)
		return;
	if (c->timeout_s > 0 && !c->term_sent && now >= l->deadline) {
		if (!c->killed)
			c->killed = KILL_TIMEOUT;
		kill_group(c, SIGTERM);
		l->kill_at = now + c->grace_s;
	}
	if (c->term_sent && !c->kill_sent && now >= l->kill_at)
		kill_group(c, SIGKILL);
}

enum { FD_OUT, FD_ERR, FD_PID, FD_CANCEL, NFD };

static void poll_loop(struct child *c, struct loop *l)
{
	for (;;) {
		struct pollfd p[NFD];
		int fdv[NFD] = { l->out, l->err, l->exited ? -1 : l->pidfd,
				 l->cancel };
		double now = now_monotonic();
		int i, r;

		if (l->exited && (l->out < 0 && l->err < 0))
			break;
		if (l->exited && now >= l->drain_until)
			break; /* leftovers escaped the group: stop waiting */
		for (i = 0; i < NFD; i++)
			p[i] = (struct pollfd){ .fd = fdv[i], .events = POLLIN };
		r = poll(p, NFD, next_timeout(c, l, now));
		if (r < 0 && errno != EINTR) {
			/* Cannot wait any more: make sure the child ends. */
			kill_group(c, SIGKILL);
			on_exit_seen(c, l, now);
			break;
		}
		now = now_monotonic();
		check_timers(c, l, now);
		if (r <= 0)
			goto no_events;
		if (p[FD_OUT].revents)
			drain(c, l, &l->out, true);
		if (p[FD_ERR].revents)
			drain(c, l, &l->err, false);
		if (p[FD_CANCEL].revents) {
			if (!c->killed)
				c->killed = KILL_CANCEL;
			kill_group(c, SIGKILL);
			l->cancel = -1;
		}
		if (p[FD_PID].revents)
			on_exit_seen(c, l, now);
no_events:
		if (l->pidfd < 0 && !l->exited && exited_nohang(c->pid))
			on_exit_seen(c, l, now);
	}
}

static int start(struct child *c, struct loop *l)
{
	int out[2], err[2], ep[2];
	pid_t parent = getpid();
	sigset_t all, old;
	int e;

	if (pipe_above_stdio(out))
		return -1;
	if (pipe_above_stdio(err))
		goto fail_out;
	if (pipe_above_stdio(ep))
		goto fail_err;
	l->t0 = now_monotonic();
	/*
	 * vfork, not fork: the runner's page tables are not copied, nor its
	 * pages faulted copy-on-write while the child gets to execve (fork
	 * was 40% of the runner's own CPU per run, docs/PERFORMANCE.md).
	 * The child borrows our memory until execve, so it runs with every
	 * signal blocked (no handler of ours can run in it) until
	 * child_exec has reset the dispositions, as posix_spawn does.
	 */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	c->pid = vfork();
	if (!c->pid)
		child_exec(c, out[1], err[1], ep[1], parent);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (c->pid < 0) {
		error("vfork: %s", strerror(e));
		goto fail_ep;
	}
	/* Both sides set the group, so a kill cannot race the child's. */
	setpgid(c->pid, c->pid);
	close(out[1]);
	close(err[1]);
	close(ep[1]);
	e = exec_errno(ep[0]);
	close(ep[0]);
	l->out = out[0];
	l->err = err[0];
	if (e) {
		reap(c->pid, &c->wstatus, &c->ru);
		close_fd(&l->out);
		close_fd(&l->err);
		return error("cannot run %s: %s",
			     c->path ? c->path : c->argv[0], strerror(e));
	}
	fcntl(l->out, F_SETFL, O_NONBLOCK);
	fcntl(l->err, F_SETFL, O_NONBLOCK);
	return 0;
fail_ep:
	close(ep[0]);
	close(ep[1]);
fail_err:
	close(err[0]);
	close(err[1]);
fail_out:
	close(out[0]);
	close(out[1]);
	return -1;
}

int spawn_run(struct child *c)
{
	struct loop l = { .out = -1, .err = -1, .pidfd = -1,
			  .cancel = c->cancel_fd };

	if (c->grace_s <= 0)
		c->grace_s = SPAWN_GRACE_S;
	if (!c->out_max)
		c->out_max = SPAWN_OUT_MAX;
	c->out = xmalloc(1);
	c->out[0] = '\0';
	l.outalloc = 1;
	if (start(c, &l))
		return -1;
	l.deadline = l.t0 + c->timeout_s;
	l.pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	if (l.pidfd >= 0)
		fcntl(l.pidfd, F_SETFD, FD_CLOEXEC);
	poll_loop(c, &l);
	close_fd(&l.out);
	close_fd(&l.err);
	close_fd(&l.pidfd);
	if (reap(c->pid, &c->wstatus, &c->ru) < 0)
		return error("wait4 %d: %s", (int)c->pid, strerror(errno));
	c->wall_s = now_monotonic() - l.t0;
	return 0;
}
