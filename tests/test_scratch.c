/*
 * test_scratch.c - private scratch directories: made 0700 under their
 * parent, refused under a missing parent or a file, and removed without
 * ever following a symlink out of them (symlink and `..` attacks).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/scratch.h"
#include "lib/util.h"

/* A private base for each test: base/outside holds what must survive. */
struct fixture {
	char *base, *parent, *outside;
};

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *get_file(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	char tmpl[] = "/tmp/test_scratch.XXXXXX";
	char *p;

	assert_non_null(mkdtemp(tmpl));
	f->base = xstrdup(tmpl);
	f->parent = xasprintf("%s/parent", f->base);
	f->outside = xasprintf("%s/outside", f->base);
	assert_int_equal(mkdir(f->parent, 0700), 0);
	assert_int_equal(mkdir(f->outside, 0700), 0);
	p = xasprintf("%s/secret", f->outside);
	put_file(p, "keep me");
	free(p);
	p = xasprintf("%s/dir", f->outside);
	assert_int_equal(mkdir(p, 0700), 0);
	free(p);
	p = xasprintf("%s/dir/inner", f->outside);
	put_file(p, "keep me too");
	free(p);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(scratch_remove(f->base), 0);
	free(f->base);
	free(f->parent);
	free(f->outside);
	free(f);
	return 0;
}

/* Everything under base/outside is as setup() made it. */
static void assert_outside_intact(const struct fixture *f)
{
	char *p = xasprintf("%s/secret", f->outside);

	assert_string_equal(get_file(p), "keep me");
	free(p);
	p = xasprintf("%s/dir/inner", f->outside);
	assert_string_equal(get_file(p), "keep me too");
	free(p);
}

static bool exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static void test_create_private(void **state)
{
	struct fixture *f = *state;
	char *s = scratch_create(f->parent);
	struct stat st;

	assert_non_null(s);
	assert_int_equal(strncmp(s, f->parent, strlen(f->parent)), 0);
	assert_int_equal(strncmp(s + strlen(f->parent), "/contend.", 9), 0);
	assert_int_equal(strlen(s), strlen(f->parent) + strlen("/contend.XXXXXX"));
	assert_int_equal(lstat(s, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(scratch_remove(s), 0);
	assert_false(exists(s));
	free(s);
}

static void test_create_trailing_slash(void **state)
{
	struct fixture *f = *state;
	char *parent = xasprintf("%s//", f->parent);
	char *s = scratch_create(parent);

	assert_non_null(s);
	assert_null(strstr(s, "//"));
	assert_int_equal(scratch_remove(s), 0);
	free(s);
	free(parent);
}

static void test_create_bad_parent(void **state)
{
	struct fixture *f = *state;
	char *missing = xasprintf("%s/missing", f->base);
	char *file = xasprintf("%s/secret", f->outside);

	assert_null(scratch_create(missing));
	assert_null(scratch_create(file));
	assert_null(scratch_create(""));
	assert_false(exists(missing));
	free(missing);
	free(file);
}

static void test_parent_default(void **state)
{
	const char *saved = getenv("TMPDIR");
	char *keep = saved ? xstrdup(saved) : NULL;

	(void)state;
	assert_string_equal(scratch_parent("/var/tmp"), "/var/tmp");
	setenv("TMPDIR", "/some/where", 1);
	assert_string_equal(scratch_parent(""), "/some/where");
	assert_string_equal(scratch_parent(NULL), "/some/where");
	setenv("TMPDIR", "", 1);
	assert_string_equal(scratch_parent(""), "/tmp");
	unsetenv("TMPDIR");
	assert_string_equal(scratch_parent(""), "/tmp");
	if (keep)
		setenv("TMPDIR", keep, 1);
	free(keep);
}

static void link_in(const char *dir, const char *name, const char *target)
{
	char *p = xasprintf("%s/%s", dir, name);

	assert_int_equal(symlink(target, p), 0);
	free(p);
}

/*
 * A scratch tree with every kind of link a hostile or careless workload
 * could leave: to a file and a directory outside, to `..`, to `/`,
 * dangling, a relative `../..` path, in nested directories.
 */
static void test_remove_never_follows(void **state)
{
	struct fixture *f = *state;
	char *s = scratch_create(f->parent);
	char *secret = xasprintf("%s/secret", f->outside);
	char *sub, *deep, *p;

	assert_non_null(s);
	sub = xasprintf("%s/sub", s);
	deep = xasprintf("%s/sub/deep", s);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(mkdir(deep, 0700), 0);
	p = xasprintf("%s/file", deep);
	put_file(p, "x");
	free(p);
	link_in(s, "to_secret", secret);
	link_in(s, "to_outside_dir", f->outside);
	link_in(s, "to_dotdot", "..");
	link_in(s, "to_root", "/");
	link_in(s, "dangling", "/nonexistent/contend/test");
	link_in(sub, "up_up", "../../..");
	link_in(deep, "to_outside_dir", f->outside);
	p = xasprintf("%s/fifo", sub);
	assert_int_equal(mkfifo(p, 0600), 0);
	free(p);

	assert_int_equal(scratch_remove(s), 0);
	assert_false(exists(s));
	assert_outside_intact(f);
	assert_true(exists(f->parent));
	assert_true(exists(f->outside));
	free(sub);
	free(deep);
	free(secret);
	free(s);
}

/* A scratch path that is itself a symlink is refused, its target kept. */
static void test_remove_refuses_symlink_root(void **state)
{
	struct fixture *f = *state;
	char *link = xasprintf("%s/contend.link", f->parent);

	assert_int_equal(symlink(f->outside, link), 0);
	assert_int_equal(scratch_remove(link), -1);
	assert_true(exists(link));
	assert_outside_intact(f);
	free(link);
}

static void test_remove_missing(void **state)
{
	struct fixture *f = *state;
	char *p = xasprintf("%s/contend.none", f->parent);

	assert_int_equal(scratch_remove(p), -1);
	free(p);
}

/* A directory without write or search permission for its owner. */
static void test_remove_locked_subdir(void **state)
{
	struct fixture *f = *state;
	char *s = scratch_create(f->parent);
	char *sub = xasprintf("%s/ro", s), *p = xasprintf("%s/ro/x", s);

	assert_int_equal(mkdir(sub, 0700), 0);
	put_file(p, "x");
	assert_int_equal(chmod(sub, 0500), 0);
	/* root ignores the mode; others would fail with a clear error. */
	if (geteuid() == 0) {
		assert_int_equal(scratch_remove(s), 0);
		assert_false(exists(s));
	} else {
		assert_int_equal(scratch_remove(s), -1);
		assert_int_equal(chmod(sub, 0700), 0);
		assert_int_equal(scratch_remove(s), 0);
	}
	free(p);
	free(sub);
	free(s);
}

/* Many entries: removal in passes must not leave any behind. */
static void test_remove_many_entries(void **state)
{
	struct fixture *f = *state;
	char *s = scratch_create(f->parent);
	int i;

	for (i = 0; i < 2000; i++) {
		char *p = xasprintf("%s/f%d", s, i);
		int fd = open(p, O_CREAT | O_WRONLY, 0600);

		assert_true(fd >= 0);
		close(fd);
		free(p);
	}
	assert_int_equal(scratch_remove(s), 0);
	assert_false(exists(s));
	free(s);
}

/* A chain of depth directories "d/d/...", a symlink out at its bottom. */
static void make_deep(const char *s, int depth, const char *outside)
{
	int fd = open(s, O_RDONLY | O_DIRECTORY), i;

	assert_true(fd >= 0);
	for (i = 0; i < depth; i++) {
		int sub;

		assert_int_equal(mkdirat(fd, "d", 0700), 0);
		sub = openat(fd, "d", O_RDONLY | O_DIRECTORY);
		assert_true(sub >= 0);
		close(fd);
		fd = sub;
	}
	assert_int_equal(symlinkat(outside, fd, "out"), 0);
	close(fd);
}

/*
 * Depth: a tree within SCRATCH_MAX_DEPTH (64) levels goes; a deeper one
 * (a workload gone wrong, or planted) is refused with a message and left,
 * never costing one descriptor per level without bound; the symlink out at
 * the bottom is never followed either way.
 */
static void test_remove_depth(void **state)
{
	struct fixture *f = *state;
	char *s = scratch_create(f->parent), *secret;

	make_deep(s, 60, f->outside);
	assert_int_equal(scratch_remove(s), 0);
	assert_false(exists(s));
	free(s);
	s = scratch_create(f->parent);
	make_deep(s, 200, f->outside);
	assert_int_equal(scratch_remove(s), -1);
	assert_true(exists(s));
	secret = xasprintf("%s/secret", f->outside);
	assert_true(exists(secret));
	free(secret);
	/* The fixture's teardown uses scratch_remove: clear it otherwise. */
	secret = xasprintf("rm -rf '%s'", s);
	assert_int_equal(system(secret), 0);
	free(secret);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_private, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_trailing_slash, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_bad_parent, setup, teardown),
		cmocka_unit_test(test_parent_default),
		cmocka_unit_test_setup_teardown(test_remove_never_follows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_refuses_symlink_root, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_locked_subdir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_many_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_depth, setup, teardown),
	};

	return cmocka_run_group_tests_name("scratch", tests, NULL, NULL);
}
