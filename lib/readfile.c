/*
 * readfile.c - a file read whole (see readfile.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/readfile.h"
#include "lib/util.h"

int readfile_fd(int fd, size_t max, char **buf, size_t *len)
{
	size_t want = max ? max + 1 : SIZE_MAX - 1, cap = 4096, n = 0;
	char *b = xmalloc(cap);
	ssize_t got;
	int ret = 0;

	while (n < want) {
		size_t room;

		if (n + 1 == cap) {
			cap = cap > (want + 1) / 2 ? want + 1 : 2 * cap;
			b = xrealloc(b, cap);
		}
		room = cap - n - 1;
		got = read(fd, b + n, room < want - n ? room : want - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -1;
			break;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	if (max && n > max)
		ret = 1;
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return ret;
}

int readfile_at(int dfd, const char *path, size_t max, char **buf,
		size_t *len)
{
	struct stat st;
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY), ret, e;

	*buf = NULL;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return -1;
	}
	ret = readfile_fd(fd, max, buf, len);
	e = errno;
	close(fd);
	errno = e;
	return ret;
}

char *readfile_line(const char *path, size_t max, bool *empty)
{
	size_t len = 0, n;
	char *line;

	if (readfile_at(AT_FDCWD, path, max, &line, &len) < 0) {
		int e = errno;

		free(line);
		errno = e;
		return NULL;
	}
	if (len > max)
		len = max;
	if (empty)
		*empty = !len;
	n = strcspn(line, "\n");
	if (n > len)
		n = len;
	while (n && isspace((unsigned char)line[n - 1]))
		n--;
	line[n] = '\0';
	return line;
}
