/*
 * fuzz_numfile.c - libFuzzer target for ministat-style number files: any
 * bytes, under a column and delimiter set taken from the first two bytes,
 * must parse or fail cleanly, and a success must hold only finite numbers.
 * (Messages of rejected inputs go to stderr: redirecting it would hide
 * the sanitizer reports too.)
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const delim_sets[] = { " \t", ",", ";:", "\t", "|" };
	struct numfile_opts o;
	double *v = NULL;
	size_t n, i;

	numfile_opts_default(&o);
	if (size >= 2) {
		o.column = 1 + data[0] % 4;
		o.delims = delim_sets[data[1] % 5];
		data += 2;
		size -= 2;
	}
	if (numfile_parse("fuzz", (const char *)data, size, &o, &v, &n) == 0) {
		if (n == 0 || !v)
			abort();
		for (i = 0; i < n; i++)
			if (!isfinite(v[i]))
				abort();
	} else if (v) {
		abort();
	}
	free(v);
	return 0;
}
