/*
 * golden.h - generated text (reports, gnuplot scripts) compared byte for
 * byte with a golden file under tests/data/; with CONTEND_UPDATE_GOLDEN=1
 * in the environment the golden file is rewritten from the output first
 * (then read the diff before committing it).  Include after <cmocka.h>;
 * header-only (static inline) so each test binary takes what it uses.
 */
#ifndef CONTEND_TEST_GOLDEN_H
#define CONTEND_TEST_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/util.h"

/*
 * Reads the whole file at path, NUL-terminated, its length (without the
 * NUL) in *len unless len is NULL.  NULL when it cannot be opened.
 */
static inline char *golden_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t got;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)n + 1);
	got = fread(buf, 1, (size_t)n, f);
	buf[got] = '\0';
	fclose(f);
	if (len)
		*len = got;
	return buf;
}

/* The len bytes at got equal the golden file at path (rewritten first
 * under CONTEND_UPDATE_GOLDEN=1); else the test fails, printing got. */
static inline void golden_check(const char *path, const char *got, size_t len)
{
	const char *update = getenv("CONTEND_UPDATE_GOLDEN");
	char *want;
	size_t wlen = 0;

	if (update && *update == '1') {
		FILE *f = fopen(path, "wb");

		assert_non_null(f);
		assert_int_equal(fwrite(got, 1, len, f), len);
		assert_int_equal(fclose(f), 0);
	}
	want = golden_read(path, &wlen);
	if (!want)
		fail_msg("cannot read golden file %s", path);
	if (len != wlen || memcmp(got, want, len)) {
		fprintf(stderr, "---- %s differs; got:\n%.*s", path, (int)len, got);
		fail_msg("%s differs from the output", path);
	}
	free(want);
}

#endif
