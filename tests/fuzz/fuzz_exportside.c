/*
 * fuzz_exportside.c - libFuzzer target for `contend export --format csv`
 * files read as compare sides: any bytes must parse or fail cleanly, and a
 * success must hold datasets laid out as store_load lays them out (runs
 * grouped by configuration inside its slice, metrics sorted, every value
 * finite or NAN).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct dataset *d)
{
	size_t r, m, c;

	for (m = 1; m < d->nmetrics; m++)
		if (strcmp(d->metrics[m - 1], d->metrics[m]) >= 0)
			abort();
	for (r = 0; r < d->nruns; r++) {
		c = d->runs[r].config;
		if (c >= d->nconfigs || r < d->configs[c].run0 ||
		    r >= d->configs[c].run0 + d->configs[c].nruns)
			abort();
		for (m = 0; m < d->nmetrics; m++) {
			double v = d->values[r * d->nmetrics + m];

			if (!isnan(v) && !isfinite(v))
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dataset *sets = NULL;
	size_t n = 0, i;

	if (exportside_parse("fuzz", (const char *)data, size, &sets, &n) == 0) {
		if (!n || !sets)
			abort();
		for (i = 0; i < n; i++) {
			check(&sets[i]);
			dataset_release(&sets[i]);
		}
	} else if (sets || n) {
		abort();
	}
	free(sets);
	return 0;
}
