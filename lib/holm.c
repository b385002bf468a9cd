/*
 * holm.c - Holm's adjustment (holm.h): sort the p-values that exist,
 * multiply the j-th smallest by the tests left, keep the running maximum.
 */
#include <math.h>
#include <stdlib.h>

#include "lib/holm.h"
#include "lib/util.h"

struct ranked {
	double p;
	size_t i;
};

static int by_p(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->p < b->p)
		return -1;
	if (a->p > b->p)
		return 1;
	return (a->i > b->i) - (a->i < b->i);
}

size_t holm_adjust(const double *p, size_t n, double *adj)
{
	struct ranked *r = xcalloc(n ? n : 1, sizeof(*r));
	double run_max = 0;
	size_t i, m = 0;

	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[m++] = (struct ranked){ p[i], i };
	qsort(r, m, sizeof(*r), by_p);
	for (i = 0; i < n; i++)
		if (isnan(p[i]))
			adj[i] = NAN;
	for (i = 0; i < m; i++) {
		run_max = fmax(run_max, fmin(1, (double)(m - i) * r[i].p));
		adj[r[i].i] = run_max;
	}
	free(r);
	return m;
}
