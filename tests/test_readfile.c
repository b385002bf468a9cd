/*
 * test_readfile.c - lib/readfile.c: a file read whole and NUL-ended, a
 * pipe read to its end across the buffer's growth, the limit (an endless
 * /dev/zero stops at max + 1 bytes), a path relative to a directory fd, a
 * directory and a missing file refused with their errno; the first line
 * of a /proc-style value trimmed, an empty file told from an empty line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/readfile.h"

static char dir[] = "/tmp/test_readfile.XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[64];

	(void)state;
	snprintf(path, sizeof(path), "%s/f", dir);
	unlink(path);
	return rmdir(dir);
}

static void test_file(void **state)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	int fd = openat(dfd, "f", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	char *buf;
	size_t len = 0;

	(void)state;
	assert_true(dfd >= 0 && fd >= 0);
	assert_int_equal(write(fd, "a\0b\n", 4), 4);
	close(fd);
	assert_int_equal(readfile_at(dfd, "f", 0, &buf, &len), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(buf, "a\0b\n", 5);  /* the NUL after it too */
	free(buf);
	/* exactly max bytes is not past it */
	assert_int_equal(readfile_at(dfd, "f", 4, &buf, &len), 0);
	free(buf);
	assert_int_equal(readfile_at(dfd, "f", 3, &buf, &len), 1);
	assert_int_equal(len, 4);
	free(buf);
	close(dfd);
}

static void test_refused(void **state)
{
	char *buf = (char *)"x";

	(void)state;
	errno = 0;
	assert_int_equal(readfile_at(AT_FDCWD, dir, 0, &buf, NULL), -1);
	assert_int_equal(errno, EISDIR);
	assert_null(buf);
	buf = (char *)"x";
	assert_int_equal(readfile_at(AT_FDCWD, "/nonexistent/readfile", 0,
				     &buf, NULL), -1);
	assert_int_equal(errno, ENOENT);
	assert_null(buf);
}

/* More than the first buffer through a pipe, written by a child. */
static void test_pipe(void **state)
{
	enum { N = 100000 };
	int p[2];
	pid_t pid;
	char *buf;
	size_t len = 0, i;

	(void)state;
	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		static char out[N];

		close(p[0]);
		for (i = 0; i < N; i++)
			out[i] = (char)('a' + i % 26);
		_exit(write(p[1], out, N) == N ? 0 : 1);
	}
	close(p[1]);
	assert_int_equal(readfile_fd(p[0], 0, &buf, &len), 0);
	close(p[0]);
	assert_int_equal(len, N);
	for (i = 0; i < N; i++)
		if (buf[i] != (char)('a' + i % 26))
			fail_msg("byte %zu", i);
	assert_int_equal(buf[N], '\0');
	free(buf);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static void test_endless(void **state)
{
	char *buf;
	size_t len = 0;

	(void)state;
	assert_int_equal(readfile_at(AT_FDCWD, "/dev/zero", 70000, &buf, &len),
			 1);
	assert_int_equal(len, 70001);
	free(buf);
}

static void put(const char *text, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

static void test_line(void **state)
{
	char path[64], *l;
	bool empty = true;

	(void)state;
	snprintf(path, sizeof(path), "%s/f", dir);
	put("performance  \t\nsecond\n", 22);
	l = readfile_line(path, 1023, &empty);
	assert_string_equal(l, "performance");
	assert_false(empty);
	free(l);
	put("abcdefgh", 8);
	l = readfile_line(path, 4, NULL);       /* cut at max */
	assert_string_equal(l, "abcd");
	free(l);
	put("\n", 1);
	l = readfile_line(path, 1023, &empty);
	assert_string_equal(l, "");
	assert_false(empty);
	free(l);
	put("", 0);
	l = readfile_line(path, 1023, &empty);
	assert_string_equal(l, "");
	assert_true(empty);
	free(l);
	assert_null(readfile_line("/nonexistent/readfile", 1023, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test(test_endless),
		cmocka_unit_test(test_line),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
