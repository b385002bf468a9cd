/*
 * pairci.c - the verdict of a paired benchmark (bench/fidelity.sh): reads
 * lines "A B" (one round: two runs adjacent in time), and judges the
 * ratio A/B against a target the way the report judges a difference.
 * Ratios are averaged on the log scale (a run 10% slow and one 10% fast
 * are not a net loss), with the project's Student-t interval:
 *
 *	ratio R lo L hi H rounds N verdict V
 *
 * R the geometric mean of the per-round ratios, [L, H] its 95% interval.
 * V is "ok" (L >= target), "below" (H < target) or "unresolved" (the
 * interval holds the target: the noise hides which side the harness is
 * on), then "need K", the rounds at the same spread for an interval
 * of half-width |log(R / target)|, or "need >10000".
 *
 * usage: pairci TARGET < pairs.  Exit status 0; 1 with fewer than 3
 * usable rounds; 2 on bad arguments.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/stats.h"
#include "lib/util.h"

enum { MAX_ROUNDS = 100000, MAX_NEED = 10000 };

/* Rounds for a 95% half-width of delta on the log scale, at spread sd. */
static long need_rounds(double sd, double delta)
{
	long n;

	for (n = 3; n <= MAX_NEED; n++)
		if (gsl_cdf_tdist_Pinv(0.975, (double)n - 1) * sd /
			    sqrt((double)n) < delta)
			return n;
	return -1;
}

int main(int argc, char **argv)
{
	double *x = xcalloc(MAX_ROUNDS, sizeof(*x));
	double a, b, target = 0, mean, lo, hi, sd = 0;
	char *end = NULL;
	size_t n = 0, i;
	long need;

	if (argc == 2)
		target = strtod(argv[1], &end);
	if (!end || *end || !(target > 0)) {
		fputs("usage: pairci TARGET < pairs\n", stderr);
		return EXIT_USAGE;
	}
	while (n < MAX_ROUNDS && scanf("%lf %lf", &a, &b) == 2)
		if (a > 0 && b > 0)
			x[n++] = log(a / b);
	if (n < 3 || stats_mean_ci(x, n, 0.95, &mean, &lo, &hi)) {
		fprintf(stderr, "pairci: %zu usable rounds, need 3\n", n);
		return 1;
	}
	for (i = 0; i < n; i++)
		sd += (x[i] - mean) * (x[i] - mean);
	sd = sqrt(sd / (double)(n - 1));
	printf("ratio %.4f lo %.4f hi %.4f rounds %zu verdict ", exp(mean),
	       exp(lo), exp(hi), n);
	target = log(target);
	if (lo >= target) {
		puts("ok");
	} else if (hi < target) {
		puts("below");
	} else {
		need = need_rounds(sd, fabs(mean - target));
		if (need > 0)
			printf("unresolved need %ld\n", need);
		else
			printf("unresolved need >%d\n", MAX_NEED);
	}
	free(x);
	return 0;
}
