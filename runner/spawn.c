/*
 * spawn.c - clone + exec of one child in its own process group, its output
 * drained by a poll loop under a timeout, the group killed on the way out.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/cgroup.h"
#include "runner/spawn.h"
#include "runner/spawn_impl.h"
#include "lib/util.h"

extern char **environ;

/*
 * Under a sanitizer the child is forked, as it always was before the
 * clone path: a child sharing the runner's memory would also share the
 * sanitizer's state for the runner's thread -- ThreadSanitizer's file
 * descriptor and signal handler tables, which its interceptors of dup2 and
 * sigaction would rewrite; AddressSanitizer's poisoning of the child's
 * stack frames, which never return (exec), and its fake stack.  The child
 * runs the same child_exec() either way; only how it is started differs.
 * (An ASan build ran the clone path cleanly, but on borrowed state.)
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPAWN_FORK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define SPAWN_FORK 1
#endif
#endif
#ifndef SPAWN_FORK
#define SPAWN_FORK 0
#endif

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
	int out_w, err_w;      /* write ends held until the exit (pidfd) */
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
 * What the child needs between clone (or fork) and exec.  With CLONE_VM
 * the child runs in the parent's memory: it reads this and writes nothing
 * of the parent's but err.
 */
struct exec_args {
	const struct child *c;
	int out_w, err_w;
	pid_t parent;
	int errpipe;             /* the fork path's report channel */
	volatile int err;        /* the clone path's: the failed step's errno,
				  * negated for the move into the cgroup */
	bool in_cgroup;          /* born there (CLONE_INTO_CGROUP) */
};

/* Signals a run always starts with at their default, even if ignored here. */
static bool always_default(int sig)
{
	static const int sigs[] = { SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP,
				    SIGCHLD };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		if (sigs[i] == sig)
			return true;
	return false;
}

/*
 * Every handler back to SIG_DFL before signals are unblocked: a handler of
 * the runner's running in the child would run on the runner's memory (with
 * CLONE_VM it is the runner's memory).  Ignored signals stay ignored but
 * for always_default()'s, as across exec.  Async-signal-safe.
 */
static void signals_reset(void)
{
	struct sigaction dfl, old;
	int sig;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++) {
		if (sigaction(sig, NULL, &old))
			continue; /* SIGKILL's query works; glibc's own fail */
		if (old.sa_handler == SIG_DFL ||
		    (old.sa_handler == SIG_IGN && !always_default(sig)))
			continue;
		sigaction(sig, &dfl, NULL);
	}
}

/*
 * In the child, between clone/fork and exec: only async-signal-safe calls,
 * on a stack of its own.  Returns the errno of the step that failed; on
 * success it does not return.
 */
static int child_exec(const struct exec_args *a)
{
	const struct child *c = a->c;
	sigset_t none;
	int null;

	setpgid(0, 0);
	/* Before anything of it runs: all it forks is in the cgroup too. */
	if (c->cgroup && !a->in_cgroup && cgroup_place(c->cgroup, 0))
		return -errno;
	/* Die with the runner, even when it is killed with SIGKILL. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		return errno;
	if (getppid() != a->parent)
		return ESRCH; /* the runner is already gone */
	if (c->cpus && sched_setaffinity(0, sizeof(*c->cpus), c->cpus))
		return errno;
	/* Close-on-exec: only its dup2 copy on stdin outlives the exec. */
	null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    dup2(a->out_w, STDOUT_FILENO) < 0 ||
	    dup2(c->merge_err ? a->out_w : a->err_w, STDERR_FILENO) < 0)
		return errno;
	signals_reset();
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execve(c->path ? c->path : c->argv[0], c->argv,
	       c->envp ? c->envp : environ);
	return errno;
}

#if SPAWN_FORK
/* A failure is reported as an errno through errpipe, then _exit(127). */
static void __attribute__((noreturn)) child_fork_main(struct exec_args *a)
{
	int e = child_exec(a);

	if (write(a->errpipe, &e, sizeof(e)) < 0)
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

/*
 * fork + exec, the exec's errno through a close-on-exec pipe as git does.
 * Returns the pid (a->err set when exec failed) or -1 (errno set).
 */
static pid_t child_start(struct exec_args *a)
{
	int ep[2];
	pid_t pid;

	if (pipe2(ep, O_CLOEXEC))
		return -1;
	a->errpipe = ep[1];
	pid = fork();
	if (!pid)
		child_fork_main(a);
	close(ep[1]);
	if (pid > 0) {
		/* Both sides set the group, so a kill cannot race the child's. */
		setpgid(pid, pid);
		a->err = exec_errno(ep[0]);
	}
	close(ep[0]);
	return pid;
}
#else
/*
 * The child's stack: libc calls and, with lazy binding, the resolver.  One
 * for the process (spawn_run is not for concurrent use): mapping and
 * unmapping one per run was 6% of the runner's time.
 */
#define CHILD_STACK (64 * 1024)
static _Alignas(64) char child_stack[CHILD_STACK];

static int child_clone_main(void *arg)
{
	struct exec_args *a = arg;

	a->err = child_exec(a);
	_exit(127);
}

/*
 * A child moved into a cgroup through cgroup.procs costs the kernel's
 * write lock of every thread group's migration (cgroup_threadgroup_rwsem):
 * an RCU grace period, milliseconds, between the spawn stamp and the exec
 * of every run.  One born there (clone3's CLONE_INTO_CGROUP, Linux 5.7)
 * costs nothing of the kind.  glibc has no clone3 that runs a function on
 * a stack of its own, as clone() does, so on x86-64 this is one, as glibc's
 * own clone3.S is: spawn_clone3(args, size, fn, arg) returns the pid or
 * -errno in the parent; the child, on args->stack, calls fn(arg) and
 * exits with its value.  Elsewhere, the child moves itself (child_exec).
 */
#if defined(__x86_64__)
#define SPAWN_CLONE3 1
long spawn_clone3(struct clone_args *args, size_t size, int (*fn)(void *),
		  void *arg) __attribute__((visibility("hidden")));
__asm__(".text\n"
	".hidden spawn_clone3\n"
	".type spawn_clone3, @function\n"
	"spawn_clone3:\n"
	"	mov %rdx, %r8\n"          /* fn and arg survive the syscall */
	"	mov %rcx, %r9\n"
	"	mov $435, %eax\n"         /* __NR_clone3 */
	"	syscall\n"
	"	test %rax, %rax\n"
	"	jnz 1f\n"
	"	xor %ebp, %ebp\n"         /* the child: no frame above */
	"	mov %r9, %rdi\n"
	"	call *%r8\n"
	"	mov %eax, %edi\n"
	"	mov $60, %eax\n"          /* __NR_exit */
	"	syscall\n"
	"	hlt\n"
	"1:	ret\n"
	".size spawn_clone3, .-spawn_clone3\n");

/* Cleared when clone3 or CLONE_INTO_CGROUP is refused (an old kernel, a
 * seccomp filter): the child moves itself from then on. */
static bool clone3_works = true;

/* clone3 into the cgroup: the pid, or -1 with errno (a->in_cgroup set
 * only when it worked). */
static pid_t clone_into(struct exec_args *a)
{
	struct clone_args ca;
	long r;

	memset(&ca, 0, sizeof(ca));
	ca.flags = CLONE_VM | CLONE_VFORK | CLONE_INTO_CGROUP;
	ca.exit_signal = SIGCHLD;
	ca.stack = (uint64_t)(uintptr_t)child_stack;
	ca.stack_size = sizeof(child_stack);
	ca.cgroup = (uint64_t)cgroup_fd(a->c->cgroup);
	a->in_cgroup = true;
	r = spawn_clone3(&ca, sizeof(ca), child_clone_main, a);
	if (r >= 0)
		return (pid_t)r;
	a->in_cgroup = false;
	if (r != -EAGAIN && r != -ENOMEM)
		clone3_works = false;
	errno = (int)-r;
	return -1;
}
#else
#define SPAWN_CLONE3 0
#endif

/*
 * clone(CLONE_VM | CLONE_VFORK) + exec, as glibc's posix_spawn does: the
 * child borrows the runner's memory instead of copying its page tables
 * (fork's copy, and the copy-on-write faults that follow it in the
 * runner, were a third of the runner's time per run), and the runner
 * sleeps until the exec (or the child's _exit) -- so the child's setpgid
 * has happened when we go on, and its errno is simply read back.  All
 * signals stay blocked meanwhile: none may run a handler in the child.
 * Returns the pid (a->err set when exec failed) or -1 (errno set).
 */
static pid_t child_start(struct exec_args *a)
{
	sigset_t all, old;
	pid_t pid;
	int e;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	a->err = 0;
	pid = -1;
#if SPAWN_CLONE3
	if (a->c->cgroup && clone3_works)
		pid = clone_into(a);
	if (pid < 0 && (!a->c->cgroup || !clone3_works))
#endif
	/* The stack grows down on every architecture Linux runs us on. */
	pid = clone(child_clone_main, child_stack + sizeof(child_stack),
		    CLONE_VM | CLONE_VFORK | SIGCHLD, a);
	e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return pid;
}
#endif

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

/*
 * One read of what poll() said is there (it cannot block then, so the
 * pipes need no O_NONBLOCK; more is read on the next round); closes the
 * fd at EOF or on error.
 */
static void drain(struct child *c, struct loop *l, int *fd, bool is_out)
{
	char buf[65536];
	ssize_t n;

	do
		n = read(*fd, buf, sizeof(buf));
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		close_fd(fd);
		return;
	}
	if (is_out)
		append_out(c, l, buf, (size_t)n);
	else
		append_err(c, buf, (size_t)n);
}

/*
 * The child exited (it is a zombie): clear out whatever it left behind,
 * and let the pipes reach their end once the leftovers are gone.
 */
static void on_exit_seen(struct child *c, struct loop *l, double now)
{
	l->exited = true;
	l->drain_until = now + DRAIN_S;
	kill(-c->pid, SIGKILL);
	close_fd(&l->pidfd);
	close_fd(&l->out_w);
	close_fd(&l->err_w);
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

/* A timer of check_timers() would act now. */
static bool timer_due(const struct child *c, const struct loop *l, double now)
{
	return (c->timeout_s > 0 && !c->term_sent && now >= l->deadline) ||
	       (c->term_sent && !c->kill_sent && now >= l->kill_at);
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
		/*
		 * The exit first, then the timers: a runner stopped (SIGSTOP,
		 * Ctrl-Z) past the timeout wakes to both, and a run that
		 * ended in time is not a timeout (tests/faults/sigstop.sh).
		 */
		if (!l->exited && ((r > 0 && p[FD_PID].revents) ||
				   ((l->pidfd < 0 || timer_due(c, l, now)) &&
				    exited_nohang(c->pid))))
			on_exit_seen(c, l, now);
		check_timers(c, l, now);
		if (r <= 0)
			continue;
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
	}
}

/*
 * With a pidfd, the exit is seen through it alone: we hold the pipes'
 * write ends until then, so a child's exit does not also wake us once for
 * each pipe it closes (woken on the child's CPU, we would take it from the
 * exiting child each time).  Without one, the pipes' ends show the exit.
 */
static void watch_exit(struct child *c, struct loop *l, int out_w, int err_w)
{
	/* A pidfd is close-on-exec from the start. */
	l->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
	if (l->pidfd >= 0) {
		l->out_w = out_w;
		l->err_w = err_w;
	} else {
		close(out_w);
		close(err_w);
	}
}

static int start(struct child *c, struct loop *l)
{
	struct exec_args a = { .c = c, .parent = getpid() };
	int out[2], err[2];

	if (pipe_above_stdio(out))
		return -1;
	if (pipe_above_stdio(err)) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	a.out_w = out[1];
	a.err_w = err[1];
	l->t0 = now_monotonic();
	c->pid = child_start(&a);
	l->out = out[0];
	l->err = err[0];
	if (c->pid >= 0 && !a.err) {
		watch_exit(c, l, out[1], err[1]);
		return 0;
	}
	if (c->pid < 0) {
		error("%s: %s", SPAWN_FORK ? "fork" : "clone", strerror(errno));
	} else if (a.err < 0) {
		spawn_reap(c->pid, &c->wstatus, &c->ru);
		error("cannot move %s into the cgroup %s: %s",
		      c->path ? c->path : c->argv[0], c->cgroup->path,
		      strerror(-a.err));
	} else {
		spawn_reap(c->pid, &c->wstatus, &c->ru);
		c->exec_err = a.err;
		error("cannot run %s: %s", c->path ? c->path : c->argv[0],
		      strerror(a.err));
	}
	close(out[1]);
	close(err[1]);
	close_fd(&l->out);
	close_fd(&l->err);
	return -1;
}

int spawn_run(struct child *c)
{
	struct loop l = { .out = -1, .err = -1, .out_w = -1, .err_w = -1,
			  .pidfd = -1, .cancel = c->cancel_fd };

	if (c->grace_s <= 0)
		c->grace_s = SPAWN_GRACE_S;
	if (!c->out_max)
		c->out_max = SPAWN_OUT_MAX;
	c->out = xmalloc(1);
	c->out[0] = '\0';
	l.outalloc = 1;
	if (start(c, &l))
		return -1;
	if (c->started)
		c->started(c, c->started_arg);
	l.deadline = l.t0 + c->timeout_s;
	poll_loop(c, &l);
	close_fd(&l.out);
	close_fd(&l.err);
	close_fd(&l.out_w);
	close_fd(&l.err_w);
	close_fd(&l.pidfd);
	if (spawn_reap(c->pid, &c->wstatus, &c->ru) < 0)
		return error("wait4 %d: %s", (int)c->pid, strerror(errno));
	c->wall_s = now_monotonic() - l.t0;
	if (c->cgroup) {
		/* its group is dead or dying: the rest had left it */
		int n = cgroup_kill(c->cgroup, c->pid);

		c->orphans = n > 0 ? n : 0;
	}
	if (c->kill_orphans)
		c->orphans += spawn_kill_orphans();
	return 0;
}
