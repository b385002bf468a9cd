/*
 * test_safefile.c - lib/safefile: the file appears whole at close, a
 * symlink planted at its path is replaced (its target untouched), a
 * write that fails (a file size limit, as a full disk) fails fclose and
 * leaves the old file as it was, and no temporary is ever left behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/safefile.h"
#include "tests/tmpdir.h"

struct ctx {
	char dir[64], path[96], target[96];
};

static int setup(void **state)
{
	struct ctx *c = calloc(1, sizeof(*c));

	if (!c || tmpdir_create(c->dir, sizeof(c->dir), "safefile")) {
		free(c);
		return -1;
	}
	snprintf(c->path, sizeof(c->path), "%s/out.txt", c->dir);
	snprintf(c->target, sizeof(c->target), "%s/target", c->dir);
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct ctx *c = *state;
	int ret = tmpdir_remove(c->dir);

	free(c);
	return ret;
}

/* The whole content of path into buf; "" when unreadable. */
static const char *slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* How many entries the directory holds (no temporary left behind). */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_written_at_close(void **state)
{
	struct ctx *c = *state;
	char buf[64];
	struct stat st;
	mode_t mask = umask(022);
	FILE *f = safefile_open(c->path);

	assert_non_null(f);
	fputs("hello ", f);
	assert_int_equal(access(c->path, F_OK), -1); /* not before close */
	fprintf(f, "%d\n", 42);
	assert_int_equal(fclose(f), 0);
	umask(mask);
	assert_string_equal(slurp(c->path, buf, sizeof(buf)), "hello 42\n");
	assert_int_equal(stat(c->path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(entries(c->dir), 1);
}

static void test_symlink_replaced(void **state)
{
	struct ctx *c = *state;
	char buf[64];
	struct stat st;
	FILE *f;

	write_file(c->target, "precious\n");
	assert_int_equal(symlink(c->target, c->path), 0);
	f = safefile_open(c->path);
	assert_non_null(f);
	fputs("new\n", f);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(slurp(c->target, buf, sizeof(buf)), "precious\n");
	assert_int_equal(lstat(c->path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_string_equal(slurp(c->path, buf, sizeof(buf)), "new\n");
	assert_int_equal(entries(c->dir), 2);
}

/*
 * In a child, so that the limit cannot touch the test's own output (a
 * log file past 4 KiB): the errno of the failed fclose, or 0 when it
 * succeeded, as the exit status.
 */
static int write_past_limit(const char *path)
{
	struct rlimit small = { 4096, 4096 };
	static char big[65536];
	int status;
	pid_t pid = fork();
	FILE *f;

	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		memset(big, 'x', sizeof(big));
		f = safefile_open(path);
		if (!f || setrlimit(RLIMIT_FSIZE, &small))
			_exit(99);
		fwrite(big, 1, sizeof(big), f);
		_exit(fclose(f) ? errno : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_failed_write_keeps_old(void **state)
{
	struct ctx *c = *state;
	char buf[64];

	write_file(c->path, "old\n");
	assert_int_equal(write_past_limit(c->path), EFBIG);
	assert_string_equal(slurp(c->path, buf, sizeof(buf)), "old\n");
	assert_int_equal(entries(c->dir), 1);
}

static void test_no_directory(void **state)
{
	struct ctx *c = *state;
	char *p = NULL;

	assert_true(asprintf(&p, "%s/missing/out.txt", c->dir) > 0);
	errno = 0;
	assert_null(safefile_open(p));
	assert_int_equal(errno, ENOENT);
	free(p);
	assert_int_equal(entries(c->dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_written_at_close, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_write_keeps_old, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_directory, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
