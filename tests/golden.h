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

#include "tests/checks.h"

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
	want = slurp(path, &wlen);
	if (len != wlen || memcmp(got, want, len)) {
		fprintf(stderr, "---- %s differs; got:\n%.*s", path, (int)len, got);
		fail_msg("%s differs from the output", path);
	}
	free(want);
}

#endif
