/*
 * capture.h - run a subcommand in-process with its stdout and stderr
 * captured, for tests of what the user sees.  Header-only (static inline)
 * so each test binary takes what it uses.
 */
#ifndef CONTEND_TEST_CAPTURE_H
#define CONTEND_TEST_CAPTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Ends capture_run's argument list (a bare NULL may be an int in varargs). */
#define CAPTURE_END ((char *)NULL)

struct captured {
	int status;
	char *out, *err;   /* malloc'd, NUL-terminated */
};

struct capture_fd {
	int fd, saved;
	FILE *tmp;
};

static inline int capture_fd_start(struct capture_fd *c, int fd)
{
	fflush(fd == 1 ? stdout : stderr);
	c->fd = fd;
	c->tmp = tmpfile();
	if (!c->tmp)
		return -1;
	c->saved = dup(fd);
	return c->saved < 0 || dup2(fileno(c->tmp), fd) < 0 ? -1 : 0;
}

static inline char *capture_fd_end(struct capture_fd *c)
{
	char *buf;
	long n;

	fflush(c->fd == 1 ? stdout : stderr);
	dup2(c->saved, c->fd);
	close(c->saved);
	fseek(c->tmp, 0, SEEK_END);
	n = ftell(c->tmp);
	rewind(c->tmp);
	buf = malloc((size_t)n + 1);
	if (!buf)
		abort();
	buf[fread(buf, 1, (size_t)n, c->tmp)] = '\0';
	fclose(c->tmp);
	return buf;
}

/* Runs fn with the arguments up to CAPTURE_END; the caller frees r. */
static inline int capture_run(struct captured *r, int (*fn)(int, char **), ...)
{
	struct capture_fd o, e;
	char *argv[32];
	int argc = 0;
	va_list ap;

	va_start(ap, fn);
	while (argc < 31 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	if (capture_fd_start(&o, 1) || capture_fd_start(&e, 2))
		return -1;
	r->status = fn(argc, argv);
	r->err = capture_fd_end(&e);
	r->out = capture_fd_end(&o);
	return 0;
}

static inline void captured_release(struct captured *r)
{
	free(r->out);
	free(r->err);
}

#endif
