/*
 * interrupt.c - the self-pipe of interrupt.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "runner/interrupt.h"
#include "lib/util.h"

static volatile sig_atomic_t stop_signal;
static int stop_pipe[2] = { -1, -1 };

static void on_stop(int sig)
{
	int saved = errno;

	stop_signal = sig;
	if (write(stop_pipe[1], "", 1) < 0) {
		/* Full pipe: a byte is already waiting, which is enough. */
	}
	errno = saved;
}

int interrupt_install(void)
{
	/* SIGHUP: the terminal closed; the experiment is interrupted. */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	size_t i;

	if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK))
		return error("pipe: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		if (sigaction(sigs[i], &sa, NULL))
			return error("sigaction: %s", strerror(errno));
	return stop_pipe[0];
}

int interrupt_signal(void)
{
	return stop_signal;
}
