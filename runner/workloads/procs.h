/*
 * procs.h - what the multi-process workloads (creat, chat) share: memory
 * shared across fork, a start gate in it, and one create/reap pair that runs
 * a task as a thread or as a forked process (hackbench's shape).
 *
 * Call sequence: shm_alloc the shared state (gate, slots); task_start each
 * task (all wait in gate_wait); gate_release(GATE_OPEN) and start the
 * clock; task_reap each; shm_free.  If a task cannot be started, release
 * the gate with GATE_ABANDON so the started ones return at once.
 */
#ifndef CONTEND_PROCS_H
#define CONTEND_PROCS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Zeroed memory shared with children forked after the call; NULL on error. */
void *shm_alloc(size_t size);
void shm_free(void *p, size_t size);

enum { GATE_CLOSED = 0, GATE_OPEN = 1, GATE_ABANDON = 2 };

/*
 * A start gate that works across processes: a word in shared memory and a
 * (non-private) futex to sleep on, so thousands of waiters do not spin.
 * Unlike a pthread barrier it can be abandoned when a fork fails.
 */
struct gate {
	atomic_uint state;
};

/* Blocks until the gate opens; true for GATE_OPEN, false when abandoned. */
bool gate_wait(struct gate *g);
void gate_release(struct gate *g, unsigned state);

/*
 * A task: fn(arg) in a thread (shared file table and address space) or in
 * a forked child (its own).  A child sets PR_SET_PDEATHSIG so that it dies
 * with its parent, runs fn, and _exits 0 when fn returned 0, else 1.
 * The death signal follows the forking *thread*: call task_start from the
 * thread that reaps (contend exec's main thread), never from a helper.
 */
struct task {
	bool thread;
	bool running;
	pid_t pid;
	pthread_t tid;
	int (*fn)(void *);
	void *arg;
	int ret;           /* fn's return value (threads) */
};

/* 0, or -1 with errno set (nothing started). */
int task_start(struct task *t, bool thread, int (*fn)(void *), void *arg);

/*
 * Waits for every task of the array.  A task that fails (fn returned
 * non-zero, or a child exited non-zero or died of a signal) makes the rest
 * get SIGKILL when they are processes, since their peers may now wait
 * forever; their status is then not counted as a failure.
 * Returns 0 when every task succeeded, else -1 with a description of the
 * first failure in why.  Uses waitpid(-1): the caller must have no other
 * child it means to wait for.
 */
int task_reap_all(struct task *t, size_t n, char *why, size_t whylen);

#endif
