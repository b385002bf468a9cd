/*
 * sweep.c - the sweep figure of a section: its metric, and beside it
 * hand-offs/s and the contention rate where the workload counts them,
 * against the swept parameter on an axis that suits its values (log2 for
 * doublings, categories for a wide sweep from 0); the "lockdep" figure
 * when the workload counts hand-offs, "scaling" otherwise.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "analysis/report.h"
#include "lib/numfmt.h"
#include "plots/plot_impl.h"
#include "lib/util.h"

/* ---- the sweep: metric, hand-offs/s, contention against x ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Picks the x parameter of a section: asked for, or most distinct values. */
static const char *scaling_x(const struct plotter *p, const struct section *s)
{
	const char *best = NULL;
	size_t best_n = 1, i, c;

	for (i = 0; i < s->nvary; i++) {
		double *vals = xcalloc(s->n, sizeof(*vals));
		size_t distinct = 0;
		bool numeric = true;

		for (c = 0; c < s->n && numeric; c++) {
			const char *v = ds_config_param(&p->d->configs[s->cfg[c]], s->vary[i]);

			numeric = v && !parse_double(v, &vals[c]);
		}
		if (numeric) {
			qsort(vals, s->n, sizeof(*vals), cmp_double);
			for (c = 0; c < s->n; c++)
				if (!c || vals[c] > vals[c - 1])
					distinct++;
		}
		free(vals);
		if (p->o->x_param) {
			if (!strcmp(p->o->x_param, s->vary[i]))
				return numeric ? s->vary[i] : NULL;
			continue;
		}
		if (numeric && distinct > best_n) {
			best = s->vary[i];
			best_n = distinct;
		}
	}
	return best;
}

/* Geometric when every value is positive and each is a fixed multiple. */
static bool geometric(const double *x, size_t n, double *ratio)
{
	double r;
	size_t i;

	if (n < 3 || x[0] <= 0)
		return false;
	r = x[1] / x[0];
	if (r < 1.5)
		return false;
	for (i = 2; i < n; i++)
		if (fabs(x[i] / x[i - 1] - r) > 1e-9 * r)
			return false;
	*ratio = r;
	return true;
}

/*
 * How the x axis shows the swept values xs (sorted, distinct): log2 for a
 * doubling sweep, log10 for another geometric or a wide (100x) positive
 * one, evenly spaced categories for a wide sweep that starts at 0 (0,
 * 1000, 10000 would put two points on top of each other), else linear.
 */
enum xscale { X_LINEAR, X_LOG2, X_LOG10, X_CATEGORY };

static enum xscale x_scale(const double *xs, size_t n)
{
	double ratio = 0, lo = NAN;
	size_t i;

	if (geometric(xs, n, &ratio))
		return fabs(ratio - 2) < 1e-9 ? X_LOG2 : X_LOG10;
	for (i = 0; i < n && isnan(lo); i++)
		if (xs[i] > 0)
			lo = xs[i];
	if (n < 3 || isnan(lo))
		return X_LINEAR;
	/* With 0 among them a log axis cannot be: categories from 10x. */
	if (xs[0] <= 0)
		return xs[n - 1] / lo >= 10 ? X_CATEGORY : X_LINEAR;
	return xs[n - 1] / lo >= 20 ? X_LOG10 : X_LINEAR;
}

/* A swept value as a tic label: exact below 10^6, SI above. */
static void tic_label(FILE *gp, double v)
{
	char b[NUMFMT_LEN];

	if (fabs(v) < 1e6)
		snprintf(b, sizeof(b), "%g", v);
	else
		numfmt_sig(b, sizeof(b), v, 3);
	escape_gnuplot(gp, b);
}

/* The unit a parameter's name declares by its suffix ("delay_ns"). */
static const char *param_unit(const char *name)
{
	static const struct {
		const char *suffix, *unit;
	} units[] = {
		{ "_ns", "ns" }, { "_us", "us" }, { "_ms", "ms" }, { "_s", "s" },
		{ "threads", "threads" }, { "processes", "processes" },
		{ "users", "users" }, { "rooms", "rooms" }, { "locks", "locks" },
	};
	size_t i, len = strlen(name);

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		size_t k = strlen(units[i].suffix);

		if (len >= k && !strcmp(name + len - k, units[i].suffix))
			return units[i].unit;
	}
	return NULL;
}

/* Configurations of s in series: same values of every varying key but x. */
static size_t series_of(const struct plotter *p, const struct section *s,
			const char *x, size_t *series)
{
	size_t nseries = 0, i, j, k;

	for (i = 0; i < s->n; i++) {
		series[i] = (size_t)-1;
		for (j = 0; j < i && series[i] == (size_t)-1; j++) {
			bool same = true;

			for (k = 0; k < s->nvary && same; k++) {
				const char *a, *b;

				if (!strcmp(s->vary[k], x))
					continue;
				a = ds_config_param(&p->d->configs[s->cfg[i]], s->vary[k]);
				b = ds_config_param(&p->d->configs[s->cfg[j]], s->vary[k]);
				same = a && b && !strcmp(a, b);
			}
			if (same)
				series[i] = series[j];
		}
		if (series[i] == (size_t)-1)
			series[i] = nseries++;
	}
	return nseries;
}

struct xpoint {
	double x;
	size_t c;
};

static int cmp_xpoint(const void *a, const void *b)
{
	return cmp_double(&((const struct xpoint *)a)->x,
			  &((const struct xpoint *)b)->x);
}

/* One panel of the sweep figure: what it draws and how its axis reads. */
struct panel {
	const char *metric;
	const char *ylabel;     /* NULL: metric (unit) */
	double scale;           /* 100 for a fraction shown in % */
};

/* mean, low, high of metric for configuration c, scaled; NaN when absent. */
static void put_mean_ci(FILE *f, const struct plotter *p, size_t c,
			const struct panel *pn)
{
	const struct metric_summary *m = analysis_metric(p->a, c, pn->metric);

	if (!m || !m->s.n) {
		fputs(" NaN NaN NaN", f);
		return;
	}
	pl_put_num(f, pn->scale * m->s.mean);
	pl_put_num(f, pn->scale * (isnan(m->s.ci_low) ? m->s.mean : m->s.ci_low));
	pl_put_num(f, pn->scale * (isnan(m->s.ci_high) ? m->s.mean : m->s.ci_high));
}

static void sweep_block(const struct plotter *p, FILE *f, const struct section *s,
			const char *x, const size_t *series, size_t which,
			const struct panel *pn, size_t npanels,
			const double *xs, size_t nx, enum xscale scale)
{
	struct xpoint *pts = xcalloc(s->n, sizeof(*pts));
	size_t n = 0, i, k;

	for (i = 0; i < s->n; i++) {
		if (series[i] != which)
			continue;
		parse_double(ds_config_param(&p->d->configs[s->cfg[i]], x), &pts[n].x);
		pts[n++].c = s->cfg[i];
	}
	qsort(pts, n, sizeof(*pts), cmp_xpoint);
	/* Names in a data file's comment quoted too: a line break would
	 * start a line of data. */
	fputs("# x", f);
	for (k = 0; k < npanels; k++) {
		fputc(' ', f);
		escape_gnuplot(f, pn[k].metric);
		fputs(" ci_low ci_high", f);
	}
	fputs(" suspect\n", f);
	for (i = 0; i < n; i++) {
		double at = pts[i].x;

		if (scale == X_CATEGORY) {
			const double *hit = bsearch(&pts[i].x, xs, nx, sizeof(*xs),
						    cmp_double);

			at = hit ? (double)(hit - xs) : NAN;
		}
		pl_put_num(f, at);
		for (k = 0; k < npanels; k++)
			put_mean_ci(f, p, pts[i].c, &pn[k]);
		fprintf(f, " %d\n", pl_config_suspect(p, pts[i].c));
	}
	fputs("\n\n", f);
	free(pts);
}

/* The distinct swept values of s, sorted; returns how many. */
static size_t sweep_values(const struct plotter *p, const struct section *s,
			   const char *x, double *xs)
{
	size_t i, nx = 0;

	for (i = 0; i < s->n; i++) {
		double v;

		parse_double(ds_config_param(&p->d->configs[s->cfg[i]], x), &v);
		if (!nx || !bsearch(&v, xs, nx, sizeof(*xs), cmp_double)) {
			xs[nx++] = v;
			qsort(xs, nx, sizeof(*xs), cmp_double);
		}
	}
	return nx;
}

static void sweep_xaxis(FILE *gp, const char *x, const double *xs, size_t nx,
			enum xscale scale)
{
	const char *unit = param_unit(x);
	char *label = unit && strcmp(unit, x) ? xasprintf("%s (%s)", x, unit)
					      : xstrdup(x);
	size_t i;

	fputs("set xlabel ", gp);
	escape_gnuplot(gp, label);
	fputc('\n', gp);
	free(label);
	/* Tics at the swept values themselves, when they are few. */
	if (nx <= 12) {
		fputs("set xtics (", gp);
		for (i = 0; i < nx; i++) {
			tic_label(gp, xs[i]);
			fprintf(gp, " %.17g%s", scale == X_CATEGORY ? (double)i : xs[i],
				i + 1 < nx ? ", " : "");
		}
		fputs(")\n", gp);
	}
	switch (scale) {
	case X_LOG2:
		fputs("set logscale x 2\n", gp);
		break;
	case X_LOG10:
		fputs("set logscale x 10\n", gp);
		break;
	case X_CATEGORY:
	case X_LINEAR:
		break;
	}
	if (scale == X_CATEGORY)
		fprintf(gp, "set xrange [-0.3:%zu.3]\n", nx - 1);
	else
		fputs("set offsets graph 0.05, graph 0.05, 0, 0\n", gp);
}

/* ylabel "metric (unit)" unless the panel names its own. */
static void panel_ylabel(FILE *gp, const struct panel *pn)
{
	const char *unit = metric_unit(pn->metric);
	char *label = pn->ylabel ? xstrdup(pn->ylabel) :
		      *unit ? xasprintf("%s (%s)", pn->metric, unit) :
			      xstrdup(pn->metric);

	fputs("set ylabel ", gp);
	escape_gnuplot(gp, label);
	fputc('\n', gp);
	free(label);
}

static void sweep_panel(const struct plotter *p, FILE *gp, const char *base,
			const struct section *s, const char *x,
			const size_t *series, size_t nseries, size_t k,
			const struct panel *pn, size_t npanels)
{
	int col = 2 + 3 * (int)k;
	bool suspect = false;
	size_t i;

	for (i = 0; i < s->n; i++)
		suspect |= pl_config_suspect(p, s->cfg[i]);
	panel_ylabel(gp, pn);
	double top = pn->scale * pl_section_max(p, s, pn->metric);

	pl_y_format(gp, top);
	/* The top from the intervals: gnuplot leaves out of its autoscale
	 * a bar whose low end is below the 0 the axis starts at. */
	if (top > 0)
		fprintf(gp, "set yrange [0:%.6g]\nplot \\\n", 1.05 * top);
	else
		fputs("set yrange [0:*]\nplot \\\n", gp);
	for (i = 0; i < nseries; i++) {
		size_t first = 0;
		char *label;

		while (series[first] != i)
			first++;
		label = pl_config_label(p, s, s->cfg[first], x);
		fputs("  ", gp);
		plot_file_name(gp, base, "dat");
		fprintf(gp, " index %zu using 1:%d:%d:%d with yerrorlines "
			    "lw 2 pt 7 lc %zu title ", i, col, col + 1,
			col + 2, i + 1);
		/* One series is the section, named by the title already:
		 * its key entry says what the marks are. */
		if (nseries == 1)
			fprintf(gp, "'mean, bars: its %g%% CI'",
				100 * p->a->opts.confidence);
		else
			escape_gnuplot(gp, *label ? label : s->name);
		free(label);
		if (i + 1 < nseries)
			fputs(", \\\n", gp);
	}
	if (nseries > 1)
		fprintf(gp, ", \\\n  keyentry with points pt 1 lc rgb 'white' "
			    "title 'points: means, bars: their %g%% CI'",
			100 * p->a->opts.confidence);
	if (!suspect) {
		fputc('\n', gp);
		return;
	}
	fputs(", \\\n", gp);
	fprintf(gp, "  for [i=0:%zu] ", nseries - 1);
	plot_file_name(gp, base, "dat");
	fprintf(gp, " index i using 1:($%d > 0 ? $%d : 1/0) "
		    "with points pt 6 ps 3 lw 2 lc rgb 'red' title (i == 0 ? "
		    "'suspect gain (misleading-throughput)' : '')\n",
		2 + 3 * (int)npanels, col);
}

/*
 * The sweep of section si: its metric, and beside it hand-offs/s and the
 * contention rate where the workload counts them, against the swept
 * parameter, each point the mean with its interval.  With hand-offs it is
 * the "lockdep" figure: a throughput gain that comes with a hand-off
 * collapse shows at a glance.
 */
int plot_sweep(struct plotter *p, size_t si)
{
	const struct section *s = &p->sections[si];
	const char *x = scaling_x(p, s), *metric = pl_section_metric(p, s);
	struct panel pn[3];
	size_t *series = NULL, nseries, i, nx, np = 0;
	double *xs = NULL;
	enum xscale scale;
	char *base, *title;
	FILE *dat = NULL, *gp = NULL;
	int ret = -1;

	base = xasprintf("%s-%zu", pl_section_has(p, s, "handoff_rate") ? "lockdep"
								    : "scaling", si + 1);
	if (!x || !metric) {
		pl_add_skip(p, base, "section %s: %s", s->name,
			 !x ? "no numeric parameter is swept" :
			      "no configuration has a measured value");
		free(base);
		return 0;
	}
	pn[np++] = (struct panel){ metric, NULL, 1 };
	if (strcmp(metric, "handoff_rate") && pl_section_has(p, s, "handoff_rate"))
		pn[np++] = (struct panel){ "handoff_rate", "lock hand-offs/s", 1 };
	if (pl_section_has(p, s, "contention_rate"))
		pn[np++] = (struct panel){ "contention_rate",
					   "contended acquisitions (%)", 100 };
	series = xcalloc(s->n, sizeof(*series));
	nseries = series_of(p, s, x, series);
	xs = xcalloc(s->n, sizeof(*xs));
	nx = sweep_values(p, s, x, xs);
	scale = x_scale(xs, nx);
	if (pl_files_open(p, base, &dat, &gp) < 0)
		goto out;
	for (i = 0; i < nseries; i++)
		sweep_block(p, dat, s, x, series, i, pn, np, xs, nx, scale);
	title = xasprintf("%s against %s: %s", np > 1 && !strncmp(base, "lockdep", 7)
			  ? "throughput and lock hand-offs" : metric, x, s->name);
	pl_script_head(p, gp, base, title, 520);
	fprintf(gp, "set multiplot layout 1,%zu title ", np);
	escape_gnuplot(gp, title);
	/* room under the panels for the x label and the key's lines: a
	 * series each when there are several, and what the marks are */
	fprintf(gp, "\nunset title\nset key below\nset bmargin %zu\n",
		nseries > 1 ? nseries + 6 : 7);
	sweep_xaxis(gp, x, xs, nx, scale);
	/* One key, under the first panel: the others draw the same marks. */
	for (i = 0; i < np; i++) {
		if (i == 1)
			fputs("unset key\n", gp);
		sweep_panel(p, gp, base, s, x, series, nseries, i, &pn[i], np);
	}
	fputs("unset multiplot\n", gp);
	pl_add_file(p, base, title);
	free(title);
	ret = 0;
out:
	if (pl_files_close(p, base, dat, gp))
		ret = -1;
	free(base);
	free(series);
	free(xs);
	return ret;
}

