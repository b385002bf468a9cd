/*
 * tmpdir.h - a private directory under /tmp for a test's files (databases,
 * exports, plots), removed with everything in it.  Header-only (static
 * inline) so each test binary takes what it uses; free of cmocka so a
 * setup function can report failure by its return value.
 */
#ifndef CONTEND_TEST_TMPDIR_H
#define CONTEND_TEST_TMPDIR_H

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Creates a fresh directory /tmp/contend-TAG-XXXXXX (mkdtemp: private, a
 * new name every time) and writes its name to dir, of size bytes.
 * Returns 0, or -1 when the name does not fit or mkdtemp fails.
 */
static inline int tmpdir_create(char *dir, size_t size, const char *tag)
{
	int n = snprintf(dir, size, "/tmp/contend-%s-XXXXXX", tag);

	return n < 0 || (size_t)n >= size || !mkdtemp(dir) ? -1 : 0;
}

static inline int tmpdir_rm_entry(const char *p, const struct stat *sb,
				  int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(p);
}

/* Removes dir and all below it, depth first, following no links; 0 or -1. */
static inline int tmpdir_remove(const char *dir)
{
	return nftw(dir, tmpdir_rm_entry, 8, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

/*
 * How many entries dir holds, hidden ones too but not "." and "..";
 * (size_t)-1 when it cannot be read (no count a test expects).
 */
static inline size_t tmpdir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	if (!d)
		return (size_t)-1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

/*
 * A cmocka teardown for a state allocated by malloc whose first member is
 * its directory's name - struct { char dir[N]; ... } - so that the state's
 * address is the name's (C11 6.7.2.1): removes the directory, frees the
 * state.
 */
static inline int tmpdir_teardown(void **state)
{
	tmpdir_remove(*state);
	free(*state);
	return 0;
}

#endif
