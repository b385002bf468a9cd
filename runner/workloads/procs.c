/*
 * procs.c - shared memory, a cross-process start gate, and the one
 * create/reap pair behind the thread and process modes of creat and chat.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/workloads/procs.h"

/* Worker threads need little stack; thousands of 8 MiB ones would not. */
#define TASK_STACK ((size_t)256 * 1024)

void *shm_alloc(size_t size)
{
	void *p = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void shm_free(void *p, size_t size)
{
	if (p)
		munmap(p, size ? size : 1);
}

/*
 * FUTEX_WAIT and FUTEX_WAKE without FUTEX_PRIVATE_FLAG: the word lives in
 * a MAP_SHARED mapping that forked children see at the same physical page.
 */
static long futex_shared(atomic_uint *word, int op, unsigned val)
{
	return syscall(SYS_futex, (unsigned *)word, op, val, NULL, NULL, 0);
}

bool gate_wait(struct gate *g)
{
	unsigned s;

	while ((s = atomic_load(&g->state)) == GATE_CLOSED)
		futex_shared(&g->state, FUTEX_WAIT, GATE_CLOSED);
	return s == GATE_OPEN;
}

void gate_release(struct gate *g, unsigned state)
{
	atomic_store(&g->state, state);
	futex_shared(&g->state, FUTEX_WAKE, INT_MAX);
}

static void *task_trampoline(void *arg)
{
	struct task *t = arg;

	t->ret = t->fn(t->arg);
	return NULL;
}

static int start_thread(struct task *t)
{
	pthread_attr_t attr;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, TASK_STACK);
	err = pthread_create(&t->tid, &attr, task_trampoline, t);
	pthread_attr_destroy(&attr);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

static int start_process(struct task *t)
{
	pid_t parent = getpid();

	t->pid = fork();
	if (t->pid < 0)
		return -1;
	if (t->pid == 0) {
		/* Die with the parent: a killed run must not leave workers. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(1);
		_exit(t->fn(t->arg) ? 1 : 0);
	}
	return 0;
}

int task_start(struct task *t, bool thread, int (*fn)(void *), void *arg)
{
	t->thread = thread;
	t->fn = fn;
	t->arg = arg;
	t->ret = 0;
	t->running = false;
	if ((thread ? start_thread : start_process)(t))
		return -1;
	t->running = true;
	return 0;
}

static void kill_running(struct task *t, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].running && !t[i].thread)
			kill(t[i].pid, SIGKILL);
}

static void describe(int status, size_t i, char *why, size_t whylen)
{
	if (WIFSIGNALED(status))
		snprintf(why, whylen, "process %zu killed by signal %d (%s)", i,
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(why, whylen, "process %zu exited with status %d", i,
			 WEXITSTATUS(status));
}

static size_t find_pid(const struct task *t, size_t n, pid_t pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].running && !t[i].thread && t[i].pid == pid)
			return i;
	return n;
}

/* Reaps the process tasks; -1 when one failed before any was killed. */
static int reap_processes(struct task *t, size_t n, char *why, size_t whylen)
{
	size_t left = 0, i;
	bool killed = false;
	int ret = 0;

	for (i = 0; i < n; i++)
		left += t[i].running && !t[i].thread;
	while (left) {
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: nothing left to wait for */
		}
		i = find_pid(t, n, pid);
		if (i == n)
			continue;
		t[i].running = false;
		left--;
		if (killed || (WIFEXITED(status) && !WEXITSTATUS(status)))
			continue;
		describe(status, i, why, whylen);
		ret = -1;
		killed = true;
		kill_running(t, n);
	}
	return ret;
}

int task_reap_all(struct task *t, size_t n, char *why, size_t whylen)
{
	int ret = reap_processes(t, n, why, whylen);
	size_t i;

	for (i = 0; i < n; i++) {
		if (!t[i].running || !t[i].thread)
			continue;
		pthread_join(t[i].tid, NULL);
		t[i].running = false;
		if (t[i].ret && !ret) {
			snprintf(why, whylen, "thread %zu failed", i);
			ret = -1;
		}
	}
	return ret;
}
