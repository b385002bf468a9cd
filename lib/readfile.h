/*
 * readfile.h - the one whole-file reader: a file, a /proc or cgroup file,
 * a pipe or standard input read to its end into one malloc'd, NUL-ended
 * buffer, with a limit so that an endless input (/dev/zero, a pipe that
 * never closes its end) cannot eat the memory.  Nothing is reported: the
 * caller words the error (numfile.c, config.c, cmd_compare.c).
 */
#ifndef CONTEND_LIB_READFILE_H
#define CONTEND_LIB_READFILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Reads fd to its end (EINTR retried) into *buf, NUL-ended (the NUL not
 * counted in *len), or until max + 1 bytes have come when max is not 0:
 * enough to know the input is larger than max.  Returns 0 at the end, 1
 * when the input passed max (*len is max + 1, the rest unread), -1 with
 * errno on a read error.  *buf is set in every case, holding what was
 * read, and is the caller's to free.
 */
int readfile_fd(int fd, size_t max, char **buf, size_t *len);
/*
 * path, relative to the directory dfd (AT_FDCWD: to the working
 * directory), opened read-only and read as readfile_fd reads; -1 with
 * errno and *buf NULL when it cannot be opened or is a directory (EISDIR).
 */
int readfile_at(int dfd, const char *path, size_t max, char **buf,
		size_t *len);
/*
 * The first line of path (of its first max bytes), its line end and
 * trailing blanks cut, malloc'd; "" for an empty line or file (*empty,
 * when not NULL, says which: true for a file of no bytes); NULL with
 * errno when path cannot be read.  /proc and /sys values, one a file.
 */
char *readfile_line(const char *path, size_t max, bool *empty);

#endif
