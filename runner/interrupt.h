/*
 * interrupt.h - SIGINT, SIGTERM and SIGHUP (the terminal closed) during a
 * session: the handler only notes the signal and writes a byte to a
 * self-pipe.  The poll loop of the run in flight (spawn.h's cancel_fd)
 * sees the byte, the loop over the plan sees interrupt_signal(), and the
 * experiment is stored as interrupted (docs/RUNNING.md).
 */
#ifndef CONTEND_INTERRUPT_H
#define CONTEND_INTERRUPT_H

/*
 * Installs the handlers (again: the pipe is made once).  Returns the read
 * end of the self-pipe (non-blocking, close-on-exec), or -1 after an error.
 */
int interrupt_install(void);
/* The signal caught since interrupt_install, or 0. */
int interrupt_signal(void);

#endif
