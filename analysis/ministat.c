/*
 * ministat.c - ministat's table and distribution plot (ministat.h); the
 * numbers come from stats_summarize, so they are the ones compare uses.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ministat.h"
#include "analysis/stats.h"

/* Out of memory is not a state this tool recovers from (as xmalloc). */
static char *chars(size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		abort();
	memset(p, ' ', n);
	p[n] = '\0';
	return p;
}

static const char symbols[MINISTAT_SETS] = { 'x', '+', '*', '%', '#', '@',
					     'O' };

void ministat_header(FILE *f, const char *label, int lw, int width)
{
	fprintf(f, "%-*s%4s %*s %*s %*s %*s %*s\n", lw, label, "N", width,
		"Min", width, "Max", width, "Median", width, "Avg", width,
		"Stddev");
}

void ministat_row(FILE *f, const char *label, int lw,
		  const struct summary *m, int width)
{
	const int digits = width - 5;

	fprintf(f, "%-*s%4zu %*.*g %*.*g %*.*g %*.*g ", lw, label, m->n, width,
		digits, m->min, width, digits, m->max, width, digits,
		m->median, width, digits, m->mean);
	if (isfinite(m->sd))
		fprintf(f, "%*.*g\n", width, digits, m->sd);
	else /* a single value has no spread */
		fprintf(f, "%*s\n", width, "-");
}

int ministat_table(FILE *f, const struct ministat_set *s, size_t n)
{
	size_t i;

	if (n > MINISTAT_SETS)
		return -1;
	for (i = 0; i < n; i++)
		fprintf(f, "%c %s\n", symbols[i], s[i].name);
	ministat_header(f, "", 4, 13);
	for (i = 0; i < n; i++) {
		const char label[2] = { symbols[i], '\0' };
		struct summary m;

		if (stats_summarize(s[i].x, s[i].n, 0.95, &m) < 0)
			return -1;
		ministat_row(f, label, 4, &m, 13);
	}
	return 0;
}

struct axis {
	double lo, hi;
	int width;
};

static int column(const struct axis *a, double v)
{
	double t = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
	long c = lround(t * (a->width - 1));

	return c < 0 ? 0 : c >= a->width ? a->width - 1 : (int)c;
}

static void rule(FILE *f, int width)
{
	fputc('+', f);
	for (int i = 0; i < width; i++)
		fputc('-', f);
	fputs("+\n", f);
}

/*
 * The values as symbols, stacked: row 0 is the bottom one.  Each column
 * keeps its height, so a value finds its row at once: linear in the
 * values (tied ones included) plus the grid, whose rows are the tallest
 * column's.
 */
static char *points(const struct ministat_set *s, size_t n,
		    const struct axis *a, size_t *nrows)
{
	size_t *height = calloc((size_t)a->width, sizeof(*height));
	size_t i, j, w = (size_t)a->width;
	char *grid;

	if (!height)
		abort();
	*nrows = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			size_t h = ++height[column(a, s[i].x[j])];

			if (h > *nrows)
				*nrows = h;
		}
	grid = chars(*nrows * w);
	memset(height, 0, w * sizeof(*height));
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			size_t c = (size_t)column(a, s[i].x[j]);

			grid[height[c]++ * w + c] = symbols[i];
		}
	free(height);
	return grid;
}

/* |___M_A___|: mean +- sd, the median and the mean. */
static void bar(FILE *f, const struct ministat_set *s, const struct axis *a)
{
	char *line = chars((size_t)a->width);
	struct summary m;
	int lo, hi, c;

	if (stats_summarize(s->x, s->n, 0.95, &m) == 0) {
		if (isfinite(m.sd) && m.sd > 0) {
			lo = column(a, m.mean - m.sd);
			hi = column(a, m.mean + m.sd);
			for (c = lo; c <= hi; c++)
				line[c] = '_';
			line[lo] = line[hi] = '|';
		}
		line[column(a, m.median)] = 'M';
		line[column(a, m.mean)] = 'A';
	}
	fprintf(f, "|%s|\n", line);
	free(line);
}

int ministat_plot(FILE *f, const struct ministat_set *s, size_t n, int width)
{
	struct axis a = { INFINITY, -INFINITY, width };
	size_t i, j, nrows;
	char *grid;

	if (n > MINISTAT_SETS || width < 10)
		return -1;
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			a.lo = fmin(a.lo, s[i].x[j]);
			a.hi = fmax(a.hi, s[i].x[j]);
		}
	grid = points(s, n, &a, &nrows);
	rule(f, width);
	for (i = nrows; i-- > 0;)
		fprintf(f, "|%.*s|\n", width, grid + i * (size_t)width);
	for (i = 0; i < n; i++)
		bar(f, &s[i], &a);
	rule(f, width);
	free(grid);
	return 0;
}
