/*
 * safefile.c - write to a temporary beside the target, rename on close
 * (safefile.h).  A stdio stream over our own write/close (fopencookie),
 * so callers keep fprintf and fclose and learn every failure from fclose.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/safefile.h"

struct safefile {
	int fd;
	int err;        /* the first failure's errno; 0 while all is well */
	char *path, *tmp;
};

static ssize_t sf_write(void *cookie, const char *buf, size_t n)
{
	struct safefile *sf = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t w = write(sf->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!sf->err)
				sf->err = w < 0 ? errno : ENOSPC;
			errno = sf->err;
			break;
		}
		done += (size_t)w;
	}
	/* What was written; 0 on an error (fopencookie(3): never negative). */
	return (ssize_t)done;
}

static int sf_close(void *cookie)
{
	struct safefile *sf = cookie;
	int err = sf->err;

	if (!err && fsync(sf->fd))
		err = errno;
	if (close(sf->fd) && !err)
		err = errno;
	if (!err && rename(sf->tmp, sf->path))
		err = errno;
	if (err)
		unlink(sf->tmp);
	free(sf->path);
	free(sf->tmp);
	free(sf);
	errno = err;
	return err ? -1 : 0;
}

/* "DIR/.BASE.XXXXXX" for path "DIR/BASE"; NULL when out of memory. */
static char *tmp_template(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	char *t = malloc(strlen(path) + 9);

	if (t)
		sprintf(t, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
	return t;
}

FILE *safefile_open(const char *path)
{
	static const cookie_io_functions_t io = { .write = sf_write,
						  .close = sf_close };
	struct safefile *sf = calloc(1, sizeof(*sf));
	mode_t mask;
	FILE *f;
	int e;

	if (!sf)
		return NULL;
	sf->path = strdup(path);
	sf->tmp = tmp_template(path);
	if (!sf->path || !sf->tmp) {
		e = ENOMEM;
		goto fail;
	}
	/* mkostemp: O_CREAT | O_EXCL, which never follows a symlink. */
	sf->fd = mkostemp(sf->tmp, O_CLOEXEC | O_NOFOLLOW);
	if (sf->fd < 0) {
		e = errno;
		goto fail;
	}
	mask = umask(0);
	umask(mask);
	errno = 0;
	f = fchmod(sf->fd, 0666 & ~mask) ? NULL : fopencookie(sf, "w", io);
	if (f)
		return f;
	e = errno ? errno : ENOMEM;
	close(sf->fd);
	unlink(sf->tmp);
fail:
	free(sf->path);
	free(sf->tmp);
	free(sf);
	errno = e;
	return NULL;
}
