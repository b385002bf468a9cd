/*
 * proc.c - argv split and found on PATH, and a program run to its end
 * with its output captured (see proc.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
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

extern char **environ;

/* ---- argv ---- */

void proc_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* Appends one character to the word being built (grown as needed). */
static void word_put(char **w, size_t *len, size_t *cap, char ch)
{
	if (*len + 1 >= *cap) {
		*cap = *cap ? 2 * *cap : 32;
		*w = xrealloc(*w, *cap);
	}
	(*w)[(*len)++] = ch;
	(*w)[*len] = '\0';
}

/*
 * Reads one word starting at *s (not at a blank): quoted parts join with
 * unquoted ones, `\"` and `\\` escape anywhere, other backslashes are
 * literal.  Returns the word, or NULL on an unterminated quote.
 */
static char *split_word(const char **s)
{
	const char *p = *s;
	char *w = NULL;
	size_t len = 0, cap = 0;
	bool quoted = false;

	word_put(&w, &len, &cap, '\0');
	len = 0;
	for (; *p && (quoted || !isspace((unsigned char)*p)); p++) {
		if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
			word_put(&w, &len, &cap, *++p);
		else if (*p == '"')
			quoted = !quoted;
		else
			word_put(&w, &len, &cap, *p);
	}
	*s = p;
	if (quoted) {
		free(w);
		return NULL;
	}
	return w;
}

int proc_split(const char *s, char ***out, size_t *n, char *err,
	       size_t errlen)
{
	char **v = xcalloc(1, sizeof(*v));
	size_t count = 0;

	for (;;) {
		char *w;

		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		w = split_word(&s);
		if (!w) {
			snprintf(err, errlen, "unterminated double quote");
			proc_argv_free(v);
			return -1;
		}
		v = xrealloc(v, (count + 2) * sizeof(*v));
		v[count++] = w;
		v[count] = NULL;
	}
	*out = v;
	*n = count;
	return 0;
}

const char *proc_unrunnable(const char *cmd)
{
	struct stat st;

	if (stat(cmd, &st))
		return errno == ENOENT ? "does not exist" : strerror(errno);
	if (S_ISDIR(st.st_mode))
		return "is a directory, not a program";
	if (!S_ISREG(st.st_mode) || access(cmd, X_OK))
		return "is not executable (no execute permission)";
	return NULL;
}

char *proc_path_find(const char *cmd)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(cmd, '/'))
		return proc_unrunnable(cmd) ? NULL : xstrdup(cmd);
	if (!path || !*path)
		path = "/bin:/usr/bin";
	for (p = path;; p++) {
		const char *end = strchrnul(p, ':');
		char *full = xasprintf("%.*s%s%s", (int)(end - p), p,
				       end == p ? "" : "/", cmd);
		struct stat st;

		if (!stat(full, &st) && S_ISREG(st.st_mode) &&
		    !access(full, X_OK))
			return full;
		free(full);
		if (!*end)
			return NULL;
		p = end;
	}
}

/* ---- the spawner ---- */

/* In the child: never returns.  A failure is one write() of errno. */
static void __attribute__((noreturn))
child_main(const struct proc *p, int out, int errpipe, pid_t parent)
{
	sigset_t none;
	int e, devnull;

	/* Die with the thread that forked us (our parent's main thread). */
	if (p->die_with_parent &&
	    (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent))
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	devnull = open("/dev/null", O_RDONLY);
	if (devnull < 0 || dup2(devnull, STDIN_FILENO) < 0 ||
	    dup2(out, STDOUT_FILENO) < 0)
		goto fail;
	if ((p->err == PROC_ERR_OUT && dup2(out, STDERR_FILENO) < 0) ||
	    (p->err == PROC_ERR_FD && dup2(p->err_fd, STDERR_FILENO) < 0))
		goto fail;
	if (p->dir && chdir(p->dir))
		goto fail;
	execvpe(p->argv[0], p->argv, p->envp ? p->envp : environ);
fail:
	e = errno;
	if (write(errpipe, &e, sizeof(e)) < 0)
		_exit(126);
	_exit(127);
}

/* Appends what fd has to p->out; 0 at end of file, 1 to read on, -1. */
static int take(struct proc *p, int fd, size_t *cap)
{
	ssize_t n;

	if (p->outlen + 1 >= *cap) {
		*cap *= 2;
		p->out = xrealloc(p->out, *cap);
	}
	n = read(fd, p->out + p->outlen, *cap - p->outlen - 1);
	if (n < 0 && errno == EINTR)
		return 1;
	if (n < 0) {
		p->read_err = errno;
		return -1;
	}
	p->outlen += (size_t)n;
	p->out[p->outlen] = '\0';
	return n > 0;
}

/* Reads the child's stdout to its end, the cap or the deadline. */
static void read_out(struct proc *p, int fd)
{
	double deadline = p->timeout_s > 0 ? now_monotonic() + p->timeout_s
					   : 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t cap = 4096;

	p->out = xmalloc(cap);
	p->out[0] = '\0';
	for (;;) {
		int ms = -1, r;

		if (p->timeout_s > 0) {
			double left = deadline - now_monotonic();

			if (left <= 0) {
				p->timed_out = true;
				break;
			}
			ms = (int)ceil(left * 1000);
		}
		r = poll(&pfd, 1, ms);
		if (r < 0 && errno != EINTR) {
			p->read_err = errno;
			break;
		}
		if (r <= 0)
			continue;
		if (take(p, fd, &cap) <= 0)
			break;
		if (p->out_max && p->outlen > p->out_max) {
			p->overflow = true;
			break;
		}
	}
	if (p->timed_out || p->overflow)
		kill(p->pid, SIGKILL);
}

int proc_run(struct proc *p)
{
	int out[2], ep[2], e = 0;
	pid_t parent = getpid();
	ssize_t got;

	p->out = NULL;
	p->outlen = 0;
	p->wstatus = 0;
	p->exec_err = p->read_err = 0;
	p->overflow = p->timed_out = false;
	if (pipe2(out, O_CLOEXEC))
		return -1;
	if (pipe2(ep, O_CLOEXEC)) {
		e = errno;
		close(out[0]);
		close(out[1]);
		errno = e;
		return -1;
	}
	fflush(NULL);
	p->pid = fork();
	if (p->pid == 0)
		child_main(p, out[1], ep[1], parent);
	e = errno;
	close(out[1]);
	close(ep[1]);
	if (p->pid < 0) {
		close(ep[0]);
		close(out[0]);
		errno = e;
		return -1;
	}
	/* The error pipe closes on a successful exec (O_CLOEXEC). */
	while ((got = read(ep[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(ep[0]);
	if (got > 0) {
		close(out[0]);
		while (waitpid(p->pid, &p->wstatus, 0) < 0 && errno == EINTR)
			;
		p->exec_err = e;
		errno = e;
		return -1;
	}
	read_out(p, out[0]);
	close(out[0]);
	while (waitpid(p->pid, &p->wstatus, 0) < 0 && errno == EINTR)
		;
	return 0;
}

void proc_release(struct proc *p)
{
	free(p->out);
	p->out = NULL;
	p->outlen = 0;
}
