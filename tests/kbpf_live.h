/*
 * kbpf_live.h - what the tests of the live BPF program share
 * (tests/test_kbpf.c, tests/test_kdelay.c): the program loaded, or the
 * test skipped with the reason (a failure under CONTEND_REQUIRE_KBPF=1),
 * and a sure kernel mutex contention made with userfaultfd.
 * Header-only, static: one test binary includes it.
 */
#ifndef CONTEND_TEST_KBPF_LIVE_H
#define CONTEND_TEST_KBPF_LIVE_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/userfaultfd.h>

#include "runner/cgroup.h"
#include "runner/kinstr/bpf.h"
#include "tests/procstate.h"

static struct kbpf *live(void)
{
	char why[200];
	struct kbpf *k = kbpf_open(why, sizeof(why));
	const char *req = getenv("CONTEND_REQUIRE_KBPF");

	if (!k) {
		if (req && !strcmp(req, "1"))
			fail_msg("BPF required here (CONTEND_REQUIRE_KBPF=1) "
				 "but cannot load: %s", why);
		printf("skipped: BPF cannot load here: %s\n", why);
		skip();
	}
	return k;
}

static void wait_for(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

/*
 * A sure kernel mutex contention, where userfaultfd is allowed (root): a
 * thread writes to a pipe from a page that is not there, and the kernel
 * stops it in the copy with the pipe's mutex held until this process
 * supplies the page; a second thread's write to the pipe waits on that
 * mutex meanwhile (it is seen asleep in the kernel, 'D', before the page
 * comes).  For a child: 0 when it contended, 77 when userfaultfd cannot
 * be used, else 3.
 */
static char *fault_buf;
static int fault_pipe[2];
static volatile pid_t waiter_tid;

static void *faulting_writer(void *arg)
{
	(void)arg;
	(void)!write(fault_pipe[1], fault_buf, 4096);
	return NULL;
}

static void *waiting_writer(void *arg)
{
	(void)arg;
	waiter_tid = (pid_t)syscall(SYS_gettid);
	(void)!write(fault_pipe[1], "x", 1);
	return NULL;
}

static int contend_pipe_mutex(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct uffdio_zeropage zp = { 0 };
	struct uffd_msg msg;
	struct pollfd pfd;
	pthread_t a, b;
	int uffd, i;

	uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		return 77;
	fault_buf = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fault_buf == MAP_FAILED)
		return 3;
	reg.range.start = (unsigned long)fault_buf;
	reg.range.len = (unsigned long)page;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		return 77;
	if (pipe(fault_pipe) || pthread_create(&a, NULL, faulting_writer, NULL))
		return 3;
	/* the writer stopped in the copy, the pipe's mutex held */
	pfd = (struct pollfd){ .fd = uffd, .events = POLLIN };
	if (poll(&pfd, 1, 10000) != 1 ||
	    read(uffd, &msg, sizeof(msg)) != (ssize_t)sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return 3;
	if (pthread_create(&b, NULL, waiting_writer, NULL))
		return 3;
	for (i = 0; i < 10000; i++) {
		if (waiter_tid && proc_state(waiter_tid) == 'D')
			break;
		usleep(1000);
	}
	if (i == 10000)
		return 3;
	zp.range.start = msg.arg.pagefault.address & ~((__u64)page - 1);
	zp.range.len = (__u64)page;
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zp))
		return 3;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}

/* A child doing contend_pipe_mutex, in cg when cg is not NULL; its exit
 * status. */
static int contending_child(const struct cgroup *cg)
{
	pid_t c = fork();
	int st;

	assert_true(c >= 0);
	if (c == 0) {
		if (cg && cgroup_place(cg, 0))
			_exit(3);
		_exit(contend_pipe_mutex());
	}
	while (waitpid(c, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
}

#endif
