/*
 * checks.h - cmocka checks whose failure names what was wanted and what was
 * got: a value within a tolerance of its reference, a string within
 * another, a file's bytes.  Include after <cmocka.h>; header-only (static
 * inline) so each test binary takes what it uses.
 */
#ifndef CONTEND_TEST_CHECKS_H
#define CONTEND_TEST_CHECKS_H

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* |got - want| <= rel |want| + abs, with both values in the message. */
static inline void check_close_at(const char *what, double got, double want,
				  double rel, double abs_tol, const char *file,
				  int line)
{
	double tol = rel * fabs(want) + abs_tol;

	if (!(fabs(got - want) <= tol))
		fail_msg("%s:%d: %s = %.17g, want %.17g (tolerance %.3g)", file,
			 line, what, got, want, tol);
}
#define check_close(what, got, want, rel, abs_tol) \
	check_close_at(what, got, want, rel, abs_tol, __FILE__, __LINE__)

static inline void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' not found in '%s'", needle, hay);
}

/*
 * The whole file at path, malloc'd and NUL-terminated, its length in *n
 * unless n is NULL; the test fails when it cannot be read.
 */
static inline char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f) {
		fail_msg("cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	if (n)
		*n = (size_t)len;
	return buf;
}

/* The file at path holds exactly the n bytes at want. */
static inline void assert_file_holds(const char *path, const char *want,
				     size_t n)
{
	size_t got_n = 0;
	char *got = slurp(path, &got_n);

	assert_int_equal(got_n, n);
	assert_memory_equal(got, want, n);
	free(got);
}

/* Every line of txt fits an 80-column terminal (a UTF-8 sequence is one
 * column). */
static inline void assert_fits_80(const char *txt)
{
	int cols = 0;

	for (; *txt; txt++) {
		if (*txt == '\n')
			cols = 0;
		else if (((unsigned char)*txt & 0xc0) != 0x80 && ++cols > 80)
			fail_msg("a line passes 80 columns: %.100s", txt - 80);
	}
}

#endif
