/*
 * runstats.c - reads back what `contend run` stored, for the runner's
 * benchmarks (bench/overhead.sh, latency.sh, auto.sh): through the store
 * API and the project's own statistics, so a figure means what the report
 * would say.
 *
 *   runstats DB sum METRIC
 *	"n N sum S mean M": METRIC over every measured ok run of the newest
 *	experiment.
 *   runstats DB values METRIC
 *	The values themselves, one a line (for quantiles).
 *   runstats DB precision METRIC
 *	Per configuration, in expansion order: "CANON n N mean M cv V
 *	relhw R", V the coefficient of variation, R the half-width of the mean's Student-t interval at the
 *	experiment's confidence over |mean| (what repetitions = auto aims
 *	at with `precision`).
 *
 * Exit status 0; 1 on a store error; 2 on bad arguments.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "db/store.h"
#include "lib/util.h"

enum mode { M_SUM, M_VALUES, M_PRECISION };

static const char *const mode_names[] = {
	[M_SUM] = "sum", [M_VALUES] = "values", [M_PRECISION] = "precision",
};

static bool measured_ok(const struct dataset *d, size_t r)
{
	return !d->runs[r].warmup && d->runs[r].status == RUN_OK;
}

/* The measured ok values of metric m in configuration c (or all: c < 0). */
static size_t collect(const struct dataset *d, long c, int m, double *x)
{
	size_t r, n = 0;

	for (r = 0; r < d->nruns; r++) {
		double v = dataset_value(d, r, m);

		if ((c < 0 || d->runs[r].config == (size_t)c) &&
		    measured_ok(d, r) && !isnan(v))
			x[n++] = v;
	}
	return n;
}

static int print_sum(const struct dataset *d, int m, double *x)
{
	size_t n = collect(d, -1, m, x), i;
	double sum = 0;

	for (i = 0; i < n; i++)
		sum += x[i];
	printf("n %zu sum %.9f mean %.9f\n", n, sum, n ? sum / (double)n : NAN);
	return 0;
}

static int print_values(const struct dataset *d, int m, double *x)
{
	size_t n = collect(d, -1, m, x), i;

	for (i = 0; i < n; i++)
		printf("%.9g\n", x[i]);
	return 0;
}

static int print_precision(const struct dataset *d, int m, double *x)
{
	size_t c;

	for (c = 0; c < d->nconfigs; c++) {
		size_t n = collect(d, (long)c, m, x);
		struct summary s;

		if (stats_summarize(x, n, d->exp.confidence, &s) < 0)
			return -1;
		printf("%s n %zu mean %.6g cv %.6f relhw %.6f\n",
		       d->configs[c].canon, n, s.mean, s.cv,
		       (s.ci_high - s.mean) / fabs(s.mean));
	}
	return 0;
}

static int run(const char *path, enum mode mode, const char *metric)
{
	static int (*const printers[])(const struct dataset *, int, double *) = {
		[M_SUM] = print_sum, [M_VALUES] = print_values,
		[M_PRECISION] = print_precision,
	};
	struct store *s = NULL;
	struct dataset d = { 0 };
	int64_t *ids = NULL;
	double *x = NULL;
	int n, m, ret = 1;

	if (store_open(path, STORE_RDONLY, &s))
		goto out;
	n = store_experiment_find(s, NULL, &ids);
	if (n <= 0) {
		error("%s: no experiment", path);
		goto out;
	}
	if (store_load(s, ids[n - 1], &d))
		goto out;
	m = dataset_metric(&d, metric);
	if (m < 0) {
		error("%s: no metric '%s' stored", path, metric);
		goto out_d;
	}
	x = xcalloc(d.nruns + 1, sizeof(*x));
	if (printers[mode](&d, m, x) == 0)
		ret = 0;
out_d:
	dataset_release(&d);
out:
	free(x);
	free(ids);
	store_close(s);
	return ret;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc == 4)
		for (i = 0; i < ARRAY_SIZE(mode_names); i++)
			if (!strcmp(argv[2], mode_names[i]))
				return run(argv[1], (enum mode)i, argv[3]);
	fputs("usage: runstats DB sum|values|precision METRIC\n", stderr);
	return EXIT_USAGE;
}
