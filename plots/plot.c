/*
 * plot.c - data files and gnuplot scripts for the plots of one experiment:
 * per section, the sweep (the metric, hand-offs/s and the contention rate
 * side by side against the swept parameter: the "lockdep" figure when the
 * workload counts hand-offs, "scaling" otherwise) and the contention
 * scatter; for the experiment, run order, distribution and fairness, one
 * panel per section so that workloads of different scales never share an
 * axis.
 *
 * A plot is drawn from what the configurations have: a metric one lacks
 * is left out (NaN in the data, which gnuplot skips), never drawn as 0; a
 * plot with nothing to draw is not written, and the plot set says why in
 * one line.  Data files hold only numbers; every name reaches gnuplot as
 * a single-quoted literal written by gp_quote(), inside the script.  Each
 * script picks its terminal from the variable fmt (png by default), so
 * `gnuplot -e "fmt='svg'" lockdep-1.gp` re-renders it as SVG.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/report.h"
#include "lib/numfmt.h"
#include "lib/safefile.h"
#include "plots/plot.h"
#include "lib/util.h"

/* The y tics of rates and counts: SI prefixes (1.5M, 200k). */
#define SI_FORMAT "set format y '%.1s%c'\n"

/* The configurations of one workload section and what varies among them. */
struct section {
	const char *name;
	size_t n;
	size_t *cfg;            /* dataset config indices */
	size_t nvary;
	const char **vary;      /* parameter keys with more than one value */
};

struct plotter {
	const struct analysis *a;
	const struct dataset *d;
	const struct plot_opts *o;
	size_t nsections;
	struct section *sections;
	size_t *section_of;     /* config index -> its section */
	struct plot_set *out;
};

void gp_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'')
			fputs("''", f);
		else if (c < 0x20 || c == 0x7f)
			fputc('?', f);
		else
			fputc(c, f);
	}
	fputc('\'', f);
}

/* "section threads=2 delay=10" using only the parameters that vary. */
static char *config_label(const struct plotter *p, const struct section *s,
			  size_t c, const char *skip)
{
	const struct ds_config *cfg = &p->d->configs[c];
	size_t len = strlen(cfg->section) + 1, i;
	char *label;

	for (i = 0; i < s->nvary; i++) {
		const char *v = report_param(cfg, s->vary[i]);

		len += strlen(s->vary[i]) + (v ? strlen(v) : 0) + 2;
	}
	label = xmalloc(len + 4);
	strcpy(label, p->nsections > 1 || !s->nvary ? cfg->section : "");
	for (i = 0; i < s->nvary; i++) {
		const char *v = report_param(cfg, s->vary[i]);

		if (skip && !strcmp(skip, s->vary[i]))
			continue;
		if (*label)
			strcat(label, " ");
		strcat(label, s->vary[i]);
		strcat(label, "=");
		strcat(label, v ? v : "");
	}
	/* Long names would squeeze the plot off the page: keep 40 chars. */
	if (strlen(label) > 40)
		strcpy(label + 37, "...");
	return label;
}

static bool config_flagged(const struct plotter *p, size_t c)
{
	return p->a->configs[c].nflags > 0;
}

/* A throughput gain the flags judged to come from fewer hand-offs. */
static bool config_suspect(const struct plotter *p, size_t c)
{
	const struct config_analysis *ca = &p->a->configs[c];
	size_t i;

	for (i = 0; i < ca->nflags; i++)
		if (!strcmp(ca->flags[i].name, "misleading-throughput"))
			return true;
	return false;
}

/* A key or tic title: the label, "(!) " first when the config is flagged. */
static char *config_title(const struct plotter *p, const struct section *s,
			  size_t c)
{
	char *label = config_label(p, s, c, NULL);
	char *title = xasprintf("%s%s", config_flagged(p, c) ? "(!) " : "",
				*label ? label : p->d->configs[c].section);

	free(label);
	return title;
}

static void sections_build(struct plotter *p)
{
	const struct dataset *d = p->d;
	size_t c, i, k;

	p->sections = xcalloc(d->nconfigs, sizeof(*p->sections));
	p->section_of = xcalloc(d->nconfigs, sizeof(*p->section_of));
	for (c = 0; c < d->nconfigs; c++) {
		struct section *s = NULL;

		for (i = 0; i < p->nsections; i++)
			if (!strcmp(p->sections[i].name, d->configs[c].section))
				s = &p->sections[i];
		if (!s) {
			s = &p->sections[p->nsections++];
			s->name = d->configs[c].section;
			s->cfg = xcalloc(d->nconfigs, sizeof(*s->cfg));
		}
		s->cfg[s->n++] = c;
		p->section_of[c] = (size_t)(s - p->sections);
	}
	for (i = 0; i < p->nsections; i++) {
		struct section *s = &p->sections[i];
		const struct ds_config *first = &d->configs[s->cfg[0]];

		s->vary = xcalloc(first->nparams + 1, sizeof(*s->vary));
		for (k = 0; k < first->nparams; k++) {
			const char *key = first->params[k].key;

			for (c = 1; c < s->n; c++) {
				const char *v = report_param(&d->configs[s->cfg[c]], key);

				if (!v || strcmp(v, first->params[k].value)) {
					s->vary[s->nvary++] = key;
					break;
				}
			}
		}
	}
}

static void sections_free(struct plotter *p)
{
	size_t i;

	for (i = 0; i < p->nsections; i++) {
		free(p->sections[i].cfg);
		free(p->sections[i].vary);
	}
	free(p->sections);
	free(p->section_of);
}

/* Opens BASE.EXT in the output directory for writing. */
static FILE *open_named(const struct plotter *p, const char *base,
			const char *ext)
{
	char *path = xasprintf("%s/%s.%s", p->o->out_dir, base, ext);
	FILE *f = safefile_open(path);

	if (!f)
		error("%s: %s", path, strerror(errno));
	free(path);
	return f;
}

/* Opens a plot's data file BASE.dat and script BASE.gp; 0, or -1 when
 * either fails (files_close closes what did open). */
static int files_open(const struct plotter *p, const char *base, FILE **dat,
		      FILE **gp)
{
	*dat = open_named(p, base, "dat");
	*gp = open_named(p, base, "gp");
	return *dat && *gp ? 0 : -1;
}

/*
 * Closes a plot's data file and script, either of them possibly NULL;
 * -1 when a write to either failed (a full disk: safefile.h).
 */
static int files_close(const struct plotter *p, const char *base, FILE *dat,
		       FILE *gp)
{
	int ret = 0;

	if (dat && fclose(dat))
		ret = error("%s/%s.dat: %s", p->o->out_dir, base, strerror(errno));
	if (gp && fclose(gp))
		ret = error("%s/%s.gp: %s", p->o->out_dir, base, strerror(errno));
	return ret;
}

void plot_terminal(FILE *f, const char *base, int height)
{
	fprintf(f, "if (!exists('fmt')) fmt = 'png'\n"
		   "if (fmt eq 'svg') {\n"
		   "    set terminal svg size 1000,%d dynamic noenhanced font 'sans,11' background rgb 'white'\n"
		   "    set output '%s.svg'\n"
		   "} else {\n"
		   "    set terminal pngcairo size 1000,%d noenhanced font 'sans,10'\n"
		   "    set output '%s.png'\n"
		   "}\n",
		height, base, height, base);
}

/* The preamble every script shares: terminal from fmt, title, style. */
static void script_head(const struct plotter *p, FILE *f, const char *base,
			const char *what, int height)
{
	const struct experiment_row *e = &p->d->exp;
	const char *host = experiment_meta(e, "hostname");
	const char *kernel = experiment_meta(e, "kernel_release");
	char *title;

	fprintf(f, "# %s of experiment %lld, written by contend.\n"
		   "# Re-render: gnuplot %s.gp   or as SVG: gnuplot -e \"fmt='svg'\" %s.gp\n",
		what, (long long)e->id, base, base);
	plot_terminal(f, base, height);
	title = xasprintf("%s: %s%s%s%s — %s, %s", what, e->name,
			  *e->label ? " (" : "", e->label, *e->label ? ")" : "",
			  host ? host : "unknown host",
			  kernel ? kernel : "unknown kernel");
	fputs("set title ", f);
	gp_quote(f, title);
	fputs("\nset grid\nset key outside right top\nset border 3\n"
	      "set tics nomirror\n", f);
	free(title);
}

static void add_file(struct plotter *p, const char *base, const char *title)
{
	struct plot_set *s = p->out;

	s->files = xrealloc(s->files, (s->n + 1) * sizeof(*s->files));
	s->files[s->n].name = xasprintf("%s.gp", base);
	s->files[s->n].title = xstrdup(title);
	s->files[s->n].rendered = false;
	s->files[s->n].skipped = NULL;
	s->n++;
}

/* A plot not drawn: its entry says why, in one line. */
static void add_skip(struct plotter *p, const char *base, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_skip(struct plotter *p, const char *base, const char *fmt, ...)
{
	struct plot_file *f;
	va_list ap;
	char *why;

	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		why = NULL;
	va_end(ap);
	add_file(p, base, base);
	f = &p->out->files[p->out->n - 1];
	f->skipped = why ? why : xstrdup("nothing to draw");
}

/* The y axis names the metric and its unit: "throughput (ops/s)". */
static void set_ylabel(FILE *gp, const char *metric)
{
	const char *unit = metric_unit(metric);
	char *label = *unit ? xasprintf("%s (%s)", metric, unit)
			    : xstrdup(metric);

	fputs("set ylabel ", gp);
	gp_quote(gp, label);
	fputc('\n', gp);
	free(label);
}

/* ---- what a section has ---- */

static bool has_metric(const struct plotter *p, size_t c, const char *name)
{
	const struct metric_summary *ms = name ? analysis_metric(p->a, c, name) : NULL;

	return ms && ms->s.n > 0;
}

/* Some configuration of s has a measured value of name. */
static bool section_has(const struct plotter *p, const struct section *s,
			const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (has_metric(p, s->cfg[i], name))
			return true;
	return false;
}

/*
 * The metric drawn for section s: --metric when the section has it, else
 * the primary metric of its first configuration that has one (a command
 * workload's own metric, ops_per_process...); NULL when none.
 */
static const char *section_metric(const struct plotter *p,
				  const struct section *s)
{
	size_t i;

	if (p->o->metric)
		return section_has(p, s, p->o->metric) ? p->o->metric : NULL;
	for (i = 0; i < s->n; i++) {
		int m = p->a->configs[s->cfg[i]].primary;

		if (m >= 0 && has_metric(p, s->cfg[i], p->d->metrics[m]))
			return p->d->metrics[m];
	}
	return NULL;
}

/* Value of metric name for run r, NaN when absent (gnuplot skips it). */
static double run_value(const struct plotter *p, size_t r, const char *name)
{
	return dataset_value(p->d, r, dataset_metric(p->d, name));
}

/* A number for a data file: NaN as "NaN", which gnuplot leaves out. */
static void put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.17g", v);
	else
		fputs(" NaN", f);
}

static void y_format(FILE *gp, double max);
static double section_max(const struct plotter *p, const struct section *s,
			  const char *metric);

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
			const char *v = report_param(&p->d->configs[s->cfg[c]], s->vary[i]);

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
	gp_quote(gp, b);
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
				a = report_param(&p->d->configs[s->cfg[i]], s->vary[k]);
				b = report_param(&p->d->configs[s->cfg[j]], s->vary[k]);
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
	put_num(f, pn->scale * m->s.mean);
	put_num(f, pn->scale * (isnan(m->s.ci_low) ? m->s.mean : m->s.ci_low));
	put_num(f, pn->scale * (isnan(m->s.ci_high) ? m->s.mean : m->s.ci_high));
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
		parse_double(report_param(&p->d->configs[s->cfg[i]], x), &pts[n].x);
		pts[n++].c = s->cfg[i];
	}
	qsort(pts, n, sizeof(*pts), cmp_xpoint);
	fputs("# x", f);
	for (k = 0; k < npanels; k++)
		fprintf(f, " %s ci_low ci_high", pn[k].metric);
	fputs(" suspect\n", f);
	for (i = 0; i < n; i++) {
		double at = pts[i].x;

		if (scale == X_CATEGORY) {
			const double *hit = bsearch(&pts[i].x, xs, nx, sizeof(*xs),
						    cmp_double);

			at = hit ? (double)(hit - xs) : NAN;
		}
		put_num(f, at);
		for (k = 0; k < npanels; k++)
			put_mean_ci(f, p, pts[i].c, &pn[k]);
		fprintf(f, " %d\n", config_suspect(p, pts[i].c));
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

		parse_double(report_param(&p->d->configs[s->cfg[i]], x), &v);
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
	gp_quote(gp, label);
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
	gp_quote(gp, label);
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
		suspect |= config_suspect(p, s->cfg[i]);
	panel_ylabel(gp, pn);
	y_format(gp, pn->scale * section_max(p, s, pn->metric));
	fputs("set yrange [0:*]\nplot \\\n", gp);
	for (i = 0; i < nseries; i++) {
		size_t first = 0;
		char *label;

		while (series[first] != i)
			first++;
		label = config_label(p, s, s->cfg[first], x);
		fprintf(gp, "  '%s.dat' index %zu using 1:%d:%d:%d with yerrorlines "
			    "lw 2 pt 7 lc %zu title ", base, i, col, col + 1,
			col + 2, i + 1);
		gp_quote(gp, *label ? label : s->name);
		fputs(i + 1 < nseries || suspect ? ", \\\n" : "\n", gp);
		free(label);
	}
	if (suspect)
		fprintf(gp, "  for [i=0:%zu] '%s.dat' index i using 1:($%d > 0 ? $%d : 1/0) "
		    "with points pt 6 ps 3 lw 2 lc rgb 'red' title (i == 0 ? "
		    "'suspect gain (misleading-throughput)' : '')\n",
		nseries - 1, base, 2 + 3 * (int)npanels, col);
}

/*
 * The sweep of section si: its metric, and beside it hand-offs/s and the
 * contention rate where the workload counts them, against the swept
 * parameter, each point the mean with its interval.  With hand-offs it is
 * the "lockdep" figure: a throughput gain that comes with a hand-off
 * collapse shows at a glance.
 */
static int plot_sweep(struct plotter *p, size_t si)
{
	const struct section *s = &p->sections[si];
	const char *x = scaling_x(p, s), *metric = section_metric(p, s);
	struct panel pn[3];
	size_t *series = NULL, nseries, i, nx, np = 0;
	double *xs = NULL;
	enum xscale scale;
	char *base, *title;
	FILE *dat = NULL, *gp = NULL;
	int ret = -1;

	base = xasprintf("%s-%zu", section_has(p, s, "handoff_rate") ? "lockdep"
								    : "scaling", si + 1);
	if (!x || !metric) {
		add_skip(p, base, "section %s: %s", s->name,
			 !x ? "no numeric parameter is swept" :
			      "no configuration has a measured value");
		free(base);
		return 0;
	}
	pn[np++] = (struct panel){ metric, NULL, 1 };
	if (strcmp(metric, "handoff_rate") && section_has(p, s, "handoff_rate"))
		pn[np++] = (struct panel){ "handoff_rate", "lock hand-offs/s", 1 };
	if (section_has(p, s, "contention_rate"))
		pn[np++] = (struct panel){ "contention_rate",
					   "contended acquisitions (%)", 100 };
	series = xcalloc(s->n, sizeof(*series));
	nseries = series_of(p, s, x, series);
	xs = xcalloc(s->n, sizeof(*xs));
	nx = sweep_values(p, s, x, xs);
	scale = x_scale(xs, nx);
	if (files_open(p, base, &dat, &gp) < 0)
		goto out;
	for (i = 0; i < nseries; i++)
		sweep_block(p, dat, s, x, series, i, pn, np, xs, nx, scale);
	title = xasprintf("%s against %s: %s", np > 1 && !strncmp(base, "lockdep", 7)
			  ? "throughput and lock hand-offs" : metric, x, s->name);
	script_head(p, gp, base, title, 520);
	fprintf(gp, "set multiplot layout 1,%zu title ", np);
	gp_quote(gp, title);
	fputs("\nunset title\nset key below\nset bmargin 7\n", gp);
	sweep_xaxis(gp, x, xs, nx, scale);
	for (i = 0; i < np; i++)
		sweep_panel(p, gp, base, s, x, series, nseries, i, &pn[i], np);
	fputs("unset multiplot\n", gp);
	add_file(p, base, title);
	free(title);
	ret = 0;
out:
	if (files_close(p, base, dat, gp))
		ret = -1;
	free(base);
	free(series);
	free(xs);
	return ret;
}

/* ---- one point per run: contention ---- */

/*
 * The x of the contention plot: the user-space locks' contended share
 * where the workload counts it, else (creat, chat, command) the kernel's
 * contended locks per second, the x the analysis correlates for them
 * (analysis_klock_rate: a run without klock metrics has none).
 */
static const struct contention_x {
	const char *metric;     /* the section has it: this x */
	const char *corr;       /* the correlation row's x */
	double (*get)(const struct dataset *d, size_t r);
	double scale;
	const char *what;       /* in "no run has both WHAT and METRIC" */
	const char *column;     /* the data file's first column */
	const char *label;
	bool si;                /* SI prefixes on the x tics */
} contention_xs[] = {
	{ "contention_rate", "contention_rate", analysis_contention_rate, 100,
	  "a contention rate", "contention rate (%)",
	  "contended acquisitions (% of acquisitions)", false },
	{ "klock_contended", "klock_rate", analysis_klock_rate, 1,
	  "a kernel contention rate", "kernel lock contentions/s",
	  "kernel lock contentions/s", true },
};

static const struct contention_x *contention_x(const struct plotter *p,
					       const struct section *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(contention_xs); i++)
		if (section_has(p, s, contention_xs[i].metric))
			return &contention_xs[i];
	return NULL;
}

/* x and y of run r, both finite, for a measured run; else false. */
static bool contention_point(const struct plotter *p,
			     const struct contention_x *cx, const char *metric,
			     size_t r, double *x, double *y)
{
	*x = cx->scale * cx->get(p->d, r);
	*y = run_value(p, r, metric);
	return analysis_measured(p->d, r) && isfinite(*x) && isfinite(*y);
}

static int plot_contention(struct plotter *p, size_t si)
{
	const struct section *s = &p->sections[si];
	const char *metric = section_metric(p, s);
	const struct contention_x *cx = contention_x(p, s);
	char *base = xasprintf("contention-%zu", si + 1);
	FILE *dat = NULL, *gp = NULL;
	size_t c, r, i, points = 0;
	double x, y;
	int ret = -1;

	if (!metric || !cx) {
		add_skip(p, base, "section %s: %s", s->name, !metric ?
			 "no configuration has a measured value" :
			 "no contention rate and no kernel lock counts");
		free(base);
		return 0;
	}
	for (c = 0; c < s->n; c++) {
		const struct ds_config *cfg = &p->d->configs[s->cfg[c]];

		for (r = cfg->run0; r < cfg->run0 + cfg->nruns; r++)
			points += contention_point(p, cx, metric, r, &x, &y);
	}
	if (!points) {
		add_skip(p, base, "section %s: no run has both %s and %s",
			 s->name, cx->what, metric);
		free(base);
		return 0;
	}
	if (files_open(p, base, &dat, &gp) < 0)
		goto out;
	fprintf(dat, "# %s metric (one block per configuration)\n",
		cx->column);
	for (c = 0; c < s->n; c++) {
		const struct ds_config *cfg = &p->d->configs[s->cfg[c]];

		for (r = cfg->run0; r < cfg->run0 + cfg->nruns; r++)
			if (contention_point(p, cx, metric, r, &x, &y))
				fprintf(dat, "%.17g %.17g\n", x, y);
		fputs("\n\n", dat);
	}
	script_head(p, gp, base, "contention", 600);
	for (i = 0; i < p->a->ncorr; i++) {
		const struct corr_row *cr = &p->a->corr[i];

		if (cr->config == -1 && !strcmp(cr->section, s->name) &&
		    !strcmp(cr->x, cx->corr) && !strcmp(cr->y, metric)) {
			/* Beside the plot, under the key: never on the title. */
			fprintf(gp, "set label 1 sprintf(\"Pearson r = %%.3f (p = %%.2g)\\nSpearman rho = %%.3f (p = %%.2g)\\nn = %%d runs\", %.17g, %.17g, %.17g, %.17g, %zu) at screen 0.98, screen 0.35 right\n",
				cr->pearson.r, cr->pearson.p, cr->spearman.r,
				cr->spearman.p, cr->pearson.n);
		}
	}
	/* No contention at all is a finding: the axis stays, offsets widen it. */
	fputs("set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n"
	      "set xrange [0:*]\nset xlabel ", gp);
	gp_quote(gp, cx->label);
	fputs("\n" SI_FORMAT, gp);
	if (cx->si)
		fputs("set format x '%.1s%c'\n", gp);
	set_ylabel(gp, metric);
	fputs("plot \\\n", gp);
	for (c = 0; c < s->n; c++) {
		char *label = config_title(p, s, s->cfg[c]);

		fprintf(gp, "  '%s.dat' index %zu using 1:2 with points pt %d ps 1.2 title ",
			base, c, config_flagged(p, s->cfg[c]) ? 6 : 7);
		gp_quote(gp, label);
		fputs(c + 1 < s->n ? ", \\\n" : "\n", gp);
		free(label);
	}
	add_file(p, base, "contention");
	ret = 0;
out:
	if (files_close(p, base, dat, gp))
		ret = -1;
	free(base);
	return ret;
}

/* ---- one panel per section: order and distribution ---- */

/* The y tics for values up to max: SI prefixes from 10^4, else plain. */
static void y_format(FILE *gp, double max)
{
	fputs(fabs(max) >= 1e4 ? SI_FORMAT : "set format y '%g'\n", gp);
}

/* The largest mean-CI bound of metric over the configurations of s. */
static double section_max(const struct plotter *p, const struct section *s,
			  const char *metric)
{
	double max = 0;
	size_t c;

	for (c = 0; c < s->n; c++) {
		const struct metric_summary *ms = analysis_metric(p->a, s->cfg[c], metric);

		if (ms && ms->s.n)
			max = fmax(max, fmax(ms->s.max, ms->s.ci_high));
	}
	return max;
}

/* Within a panel titled by its section: the varying parameters only. */
static char *panel_label(const struct plotter *p, const struct section *s,
			 size_t c)
{
	char *label = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < s->nvary; i++) {
		const char *v = report_param(&p->d->configs[c], s->vary[i]);

		t = xasprintf("%s%s%s=%s", label, *label ? " " : "", s->vary[i],
			      v ? v : "");
		free(label);
		label = t;
	}
	if (!*label) {
		free(label);
		label = xstrdup(s->name);
	}
	if (strlen(label) > 40)
		strcpy(label + 37, "...");
	return label;
}


/* The sections that have a value to draw, with their metric. */
static size_t drawable(const struct plotter *p, size_t *which,
		       const char **metric)
{
	size_t i, n = 0;

	for (i = 0; i < p->nsections; i++) {
		const char *m = section_metric(p, &p->sections[i]);

		if (!m)
			continue;
		which[n] = i;
		metric[n++] = m;
	}
	return n;
}

/* A grid for n panels: side by side up to 2, then two columns. */
static void panel_grid(FILE *gp, size_t n, const char *title)
{
	size_t cols = n < 2 ? 1 : 2;

	fprintf(gp, "set multiplot layout %zu,%zu title ", (n + cols - 1) / cols,
		cols);
	gp_quote(gp, title);
	fputs("\nunset title\n", gp);
}

static int grid_height(size_t n)
{
	return 120 + 380 * (int)((n + 1) / 2);
}

/* A panel's title: the section and the metric it draws. */
static void panel_title(FILE *gp, const struct section *s, const char *metric)
{
	char *t = xasprintf("%s: %s", s->name, metric);

	fputs("set title ", gp);
	gp_quote(gp, t);
	fputc('\n', gp);
	free(t);
}

static int plot_order(struct plotter *p)
{
	const struct dataset *d = p->d;
	size_t *which = xcalloc(p->nsections + 1, sizeof(*which));
	const char **metric = xcalloc(p->nsections + 1, sizeof(*metric));
	size_t n = drawable(p, which, metric), k, c, r, block = 0, block0 = 0;
	FILE *dat = NULL, *gp = NULL;
	bool warmups = false;
	int ret = -1;

	for (r = 0; r < p->d->nruns; r++)
		warmups |= p->d->runs[r].warmup && p->d->runs[r].status == RUN_OK;
	if (!n) {
		add_skip(p, "order", "no configuration has a measured value");
		ret = 0;
		goto out;
	}
	if (files_open(p, "order", &dat, &gp) < 0)
		goto out;
	fputs("# seq metric warmup (one block per configuration, by section)\n", dat);
	script_head(p, gp, "order", "run order", grid_height(n));
	panel_grid(gp, n, "run order: the metric of every ok run against its sequence number");
	fputs("set xlabel 'run sequence number (order of execution)'\n"
	      "set key below horizontal\n", gp);
	for (k = 0; k < n; k++) {
		const struct section *s = &p->sections[which[k]];
		bool first = true;

		panel_title(gp, s, metric[k]);
		set_ylabel(gp, metric[k]);
		y_format(gp, section_max(p, s, metric[k]));
		fputs("plot \\\n", gp);
		for (c = 0; c < s->n; c++) {
			const struct ds_config *cf = &d->configs[s->cfg[c]];
			char *label;

			if (!has_metric(p, s->cfg[c], metric[k]))
				continue;
			for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
				if (d->runs[r].status != RUN_OK)
					continue;
				fprintf(dat, "%ld", d->runs[r].seq);
				put_num(dat, run_value(p, r, metric[k]));
				fprintf(dat, " %d\n", d->runs[r].warmup);
			}
			fputs("\n\n", dat);
			label = panel_label(p, s, s->cfg[c]);
			fprintf(gp, "%s  'order.dat' index %zu using 1:($3 > 0 ? 1/0 : $2) "
				    "with linespoints pt %d title ", first ? "" : ", \\\n",
				block, config_flagged(p, s->cfg[c]) ? 6 : 7);
			gp_quote(gp, label);
			free(label);
			first = false;
			block++;
		}
		/* The warm-ups, after the configurations' lines, under one name. */
		if (warmups)
			fprintf(gp, ", \\\n  for [i=%zu:%zu] 'order.dat' index i using "
				    "1:($3 > 0 ? $2 : 1/0) with points pt 2 ps 1.5 "
				    "lc rgb 'black' title (i == %zu ? 'warm-up' : '')",
				block0, block - 1, block0);
		block0 = block;
		fputc('\n', gp);
	}
	fputs("unset multiplot\n", gp);
	add_file(p, "order", "run order");
	ret = 0;
out:
	if (files_close(p, "order", dat, gp))
		ret = -1;
	free(which);
	free(metric);
	return ret;
}

/* xtics naming every configuration, flagged ones marked with (!). */
static void config_xtics(const struct plotter *p, FILE *gp)
{
	size_t c;

	fputs("set xtics rotate by 30 right (", gp);
	for (c = 0; c < p->d->nconfigs; c++) {
		char *full = config_title(p, &p->sections[p->section_of[c]], c);

		gp_quote(gp, full);
		fprintf(gp, " %zu%s", c + 1, c + 1 < p->d->nconfigs ? ", " : "");
		free(full);
	}
	fprintf(gp, ")\nset xrange [0.4:%zu.6]\nset bmargin 12\nset lmargin 14\n"
		    "set key outside top center horizontal\nset tmargin 5\n", p->d->nconfigs);
}

/*
 * One panel: per configuration of s that has metric, every run as a dot
 * (jittered) and beside them the mean with its interval and the median;
 * box plots would need more runs than a quick experiment has (gnuplot
 * draws none below four).
 */
static void distribution_panel(const struct plotter *p, FILE *dat, FILE *gp,
			       const struct section *s, const char *metric,
			       size_t *block)
{
	const struct dataset *d = p->d;
	size_t c, r, k = 0;

	panel_title(gp, s, metric);
	set_ylabel(gp, metric);
	y_format(gp, section_max(p, s, metric));
	fputs("set xtics rotate by 20 right (", gp);
	for (c = 0; c < s->n; c++) {
		char *label;

		if (!has_metric(p, s->cfg[c], metric))
			continue;
		label = panel_label(p, s, s->cfg[c]);
		fprintf(gp, "%s", k ? ", " : "");
		gp_quote(gp, label);
		fprintf(gp, " %zu", ++k);
		free(label);
	}
	fprintf(gp, ")\nset xrange [0.4:%zu.8]\nplot \\\n", k);
	for (c = 0, k = 0; c < s->n; c++) {
		const struct ds_config *cf = &d->configs[s->cfg[c]];
		const struct metric_summary *ms = analysis_metric(p->a, s->cfg[c], metric);

		if (!has_metric(p, s->cfg[c], metric))
			continue;
		for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
			/* Deterministic jitter from the sequence number. */
			double j = ((double)((d->runs[r].seq * 2654435761u) % 1000) /
				    1000.0 - 0.5) * 0.3;
			double v = run_value(p, r, metric);

			if (analysis_measured(d, r) && isfinite(v))
				fprintf(dat, "%zu %.17g %.3f\n", k + 1, v, j);
		}
		fprintf(dat, "\n\n%zu", k + 1);
		put_num(dat, ms->s.mean);
		put_num(dat, isnan(ms->s.ci_low) ? ms->s.mean : ms->s.ci_low);
		put_num(dat, isnan(ms->s.ci_high) ? ms->s.mean : ms->s.ci_high);
		put_num(dat, ms->s.median);
		fputs("\n\n\n", dat);
		fprintf(gp, "%s  'distribution.dat' index %zu using ($1 + $3):2 with points "
			    "pt 7 ps 0.7 lc rgb '#222222' %s, \\\n"
			    "  'distribution.dat' index %zu using ($1 + 0.35):2:3:4 with "
			    "yerrorbars pt 5 ps 1 lw 2 lc rgb '#4477aa' %s, \\\n"
			    "  'distribution.dat' index %zu using ($1 + 0.35):5:(0.12) with "
			    "xerrorbars pt -1 lw 2 lc rgb '#cc6677' %s",
			k ? ", \\\n" : "", *block, k ? "notitle" : "title 'runs'",
			*block + 1, k ? "notitle" : "title 'mean and CI'",
			*block + 1, k ? "notitle" : "title 'median'");
		*block += 2;
		k++;
	}
	fputc('\n', gp);
}

static int plot_distribution(struct plotter *p)
{
	size_t *which = xcalloc(p->nsections + 1, sizeof(*which));
	const char **metric = xcalloc(p->nsections + 1, sizeof(*metric));
	size_t n = drawable(p, which, metric), k, block = 0;
	FILE *dat = NULL, *gp = NULL;
	int ret = -1;

	if (!n) {
		add_skip(p, "distribution", "no configuration has a measured value");
		ret = 0;
		goto out;
	}
	if (files_open(p, "distribution", &dat, &gp) < 0)
		goto out;
	fputs("# position metric jitter (one block per configuration, by section)\n",
	      dat);
	script_head(p, gp, "distribution", "distribution", grid_height(n) + 80);
	panel_grid(gp, n, "distribution of the measured runs, by configuration");
	fputs("set key below horizontal\nset bmargin 7\n", gp);
	for (k = 0; k < n; k++) {
		/* One legend says what dots, bars and ticks are. */
		if (k == 1)
			fputs("unset key\n", gp);
		distribution_panel(p, dat, gp, &p->sections[which[k]], metric[k],
				   &block);
	}
	fputs("unset multiplot\n", gp);
	add_file(p, "distribution", "distribution");
	ret = 0;
out:
	if (files_close(p, "distribution", dat, gp))
		ret = -1;
	free(which);
	free(metric);
	return ret;
}

static int cmp_desc_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

/* Mean over runs of each thread's share, threads sorted busiest first. */
static size_t fairness_shares(const struct dataset *d, size_t c, double **out)
{
	size_t nthreads = 0, nruns = 0, r, t;
	double *share = NULL;

	for (r = d->configs[c].run0; r < d->configs[c].run0 + d->configs[c].nruns; r++) {
		const struct ds_run *run = &d->runs[r];
		uint64_t *ops, total = 0;

		if (run->warmup || run->status != RUN_OK || !run->nthreads)
			continue;
		if (!share) {
			nthreads = run->nthreads;
			share = xcalloc(nthreads, sizeof(*share));
		}
		if (run->nthreads != nthreads)
			continue;
		ops = xmalloc(nthreads * sizeof(*ops));
		memcpy(ops, &d->thread_ops[run->thread0], nthreads * sizeof(*ops));
		qsort(ops, nthreads, sizeof(*ops), cmp_desc_u64);
		for (t = 0; t < nthreads; t++)
			total += ops[t];
		for (t = 0; t < nthreads && total; t++)
			share[t] += (double)ops[t] / (double)total;
		nruns++;
		free(ops);
	}
	for (t = 0; t < nthreads && nruns; t++)
		share[t] /= (double)nruns;
	*out = share;
	return nruns ? nthreads : 0;
}

static int plot_fairness(struct plotter *p)
{
	const struct dataset *d = p->d;
	FILE *dat = NULL, *gp = NULL;
	size_t c, t, any = 0;
	int ret = -1;

	for (c = 0; c < d->nconfigs; c++)
		if (d->configs[c].nruns && d->nthread_ops)
			any = 1;
	if (!any)
		return 0;
	if (files_open(p, "fairness", &dat, &gp) < 0)
		goto out;
	fputs("# x share fair_share (threads sorted busiest first)\n", dat);
	for (c = 0; c < d->nconfigs; c++) {
		double *share;
		size_t n = fairness_shares(d, c, &share);
		double width = n ? 0.8 / (double)n : 0;

		for (t = 0; t < n; t++)
			fprintf(dat, "%.6f %.17g %.17g %.6f\n",
				(double)(c + 1) - 0.4 + width * ((double)t + 0.5),
				share[t], 1.0 / (double)n, width);
		free(share);
	}
	script_head(p, gp, "fairness", "fairness", 650);
	config_xtics(p, gp);
	fputs("set style fill solid 0.6 border -1\nset yrange [0:1.05]\n"
	      "set ylabel 'share of operations (mean over runs)'\n"
	      "plot 'fairness.dat' using 1:2:4 with boxes lc rgb '#cc6677' title 'thread share, busiest first', \\\n"
	      "  'fairness.dat' using 1:3 with points pt 1 ps 1.5 lc rgb 'black' title 'fair share'\n", gp);
	add_file(p, "fairness", "fairness");
	ret = 0;
out:
	if (files_close(p, "fairness", dat, gp))
		ret = -1;
	return ret;
}

bool plot_have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save = NULL;
	bool found = false;

	if (!path)
		return false;
	dirs = xstrdup(path);
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *exe = xasprintf("%s/gnuplot", dir);

		found = access(exe, X_OK) == 0;
		free(exe);
	}
	free(dirs);
	return found;
}

/*
 * The image gnuplot writes for script: a symlink planted there is removed
 * first (gnuplot's `set output` would write through it); -1 unless the
 * image is there afterwards, not empty (gnuplot on a full disk exits 0).
 */
static int render_target(const char *dir, const char *script,
			 const char *fmt, bool after)
{
	char *out = xasprintf("%s/%.*s.%s", dir, (int)strlen(script) - 3,
			      script, fmt);
	struct stat st;
	int ret = 0;

	if (!after && !lstat(out, &st) && S_ISLNK(st.st_mode) && unlink(out))
		ret = error("%s: %s", out, strerror(errno));
	if (after && (stat(out, &st) || !st.st_size))
		ret = error("%s: gnuplot wrote nothing (a full disk?)", out);
	free(out);
	return ret;
}

/*
 * gnuplot's stderr goes to SCRIPT.log in dir: its warnings ("empty y
 * range") are noise when the image came out, its errors are shown when it
 * did not.
 */
int plot_render(const char *dir, const char *script, const char *fmt)
{
	char *expr, *log;
	int status, ret = 0;
	pid_t pid;

	if (render_target(dir, script, fmt, false))
		return -1;
	expr = xasprintf("fmt='%s'", fmt);
	log = xasprintf("%s/%s.log", dir, script);
	pid = fork();
	if (pid < 0) {
		ret = error("fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		/* Not through a symlink planted there (then stderr stays). */
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
				   O_NOFOLLOW, 0644);

		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		if (chdir(dir) < 0)
			_exit(126);
		execlp("gnuplot", "gnuplot", "-e", expr, script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ret = error("waitpid: %s", strerror(errno));
			goto out;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		FILE *f = fopen(log, "r");
		char line[512];

		while (f && fgets(line, sizeof(line), f))
			fputs(line, stderr);
		if (f)
			fclose(f);
		ret = error("gnuplot failed on %s/%s (its messages are in %s)",
			    dir, script, log);
		goto out;
	}
	unlink(log);
	ret = render_target(dir, script, fmt, true);
out:
	free(expr);
	free(log);
	return ret;
}

static int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			ret = -1;
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		ret = -1;
	if (ret)
		error("cannot create %s: %s", path, strerror(errno));
	free(p);
	return ret;
}

static int render_all(struct plotter *p)
{
	size_t i;
	int ret = 0;

	if (!plot_have_gnuplot())
		return error("gnuplot is not installed: data and scripts are in %s; "
			     "install it with 'apt-get install gnuplot-nox' and run "
			     "'contend plot' again", p->o->out_dir);
	for (i = 0; i < p->out->n; i++) {
		struct plot_file *f = &p->out->files[i];
		int bad = 0;

		if (f->skipped)
			continue;
		if (p->o->png)
			bad |= plot_render(p->o->out_dir, f->name, "png");
		if (p->o->svg)
			bad |= plot_render(p->o->out_dir, f->name, "svg");
		f->rendered = !bad;
		ret |= bad;
	}
	return ret;
}

int plot_experiment(const struct analysis *a, const struct plot_opts *o,
		    struct plot_set *out)
{
	struct plotter p = { .a = a, .d = a->d, .o = o, .out = out };
	size_t i;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	/* Without --metric each section draws its own primary metric. */
	if (o->metric && dataset_metric(p.d, o->metric) < 0)
		return error("experiment %lld has no metric '%s'",
			     (long long)p.d->exp.id, o->metric);
	if (mkdir_p(o->out_dir))
		return -1;
	sections_build(&p);
	for (i = 0; i < p.nsections; i++)
		if (plot_sweep(&p, i) || plot_contention(&p, i))
			goto out;
	if (plot_order(&p) || plot_distribution(&p) || plot_fairness(&p))
		goto out;
	ret = o->render ? render_all(&p) : 0;
out:
	sections_free(&p);
	return ret;
}

void plot_set_release(struct plot_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->files[i].name);
		free(s->files[i].title);
		free(s->files[i].skipped);
	}
	free(s->files);
	memset(s, 0, sizeof(*s));
}
