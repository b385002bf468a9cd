/*
 * plot.c - data files and gnuplot scripts for the plots of one experiment:
 * scaling, contention, order, distribution and fairness.
 *
 * Data files hold only numbers; every name reaches gnuplot as a single-
 * quoted literal written by gp_quote(), inside the script.  Each script
 * picks its terminal from the variable fmt (png by default), so
 * `gnuplot -e "fmt='svg'" scaling-1.gp` re-renders it as SVG.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/safefile.h"
#include "plots/plot.h"
#include "runner/util.h"

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
	const char *metric;
	int m;                  /* dataset index of metric */
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

static const char *param_value(const struct ds_config *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nparams; i++)
		if (!strcmp(c->params[i].key, key))
			return c->params[i].value;
	return NULL;
}

/* "section threads=2 delay=10" using only the parameters that vary. */
static char *config_label(const struct plotter *p, const struct section *s,
			  size_t c, const char *skip)
{
	const struct ds_config *cfg = &p->d->configs[c];
	size_t len = strlen(cfg->section) + 1, i;
	char *label;

	for (i = 0; i < s->nvary; i++) {
		const char *v = param_value(cfg, s->vary[i]);

		len += strlen(s->vary[i]) + (v ? strlen(v) : 0) + 2;
	}
	label = xmalloc(len + 4);
	strcpy(label, p->nsections > 1 || !s->nvary ? cfg->section : "");
	for (i = 0; i < s->nvary; i++) {
		const char *v = param_value(cfg, s->vary[i]);

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
				const char *v = param_value(&d->configs[s->cfg[c]], key);

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
	fprintf(f, "if (!exists('fmt')) fmt = 'png'\n"
		   "if (fmt eq 'svg') {\n"
		   "    set terminal svg size 1000,%d dynamic noenhanced font 'sans,11' background rgb 'white'\n"
		   "    set output '%s.svg'\n"
		   "} else {\n"
		   "    set terminal pngcairo size 1000,%d noenhanced font 'sans,10'\n"
		   "    set output '%s.png'\n"
		   "}\n",
		height, base, height, base);
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
	s->n++;
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

/* ---- scaling ---- */

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
			const char *v = param_value(&p->d->configs[s->cfg[c]], s->vary[i]);

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
static bool geometric(const double *x, size_t n)
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
	return true;
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
				a = param_value(&p->d->configs[s->cfg[i]], s->vary[k]);
				b = param_value(&p->d->configs[s->cfg[j]], s->vary[k]);
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

static void scaling_block(const struct plotter *p, FILE *f,
			  const struct section *s, const char *x,
			  const size_t *series, size_t which, double *cr_max)
{
	struct xpoint *pts = xcalloc(s->n, sizeof(*pts));
	size_t n = 0, i;

	for (i = 0; i < s->n; i++) {
		if (series[i] != which)
			continue;
		parse_double(param_value(&p->d->configs[s->cfg[i]], x), &pts[n].x);
		pts[n++].c = s->cfg[i];
	}
	qsort(pts, n, sizeof(*pts), cmp_xpoint);
	fprintf(f, "# x mean ci_low ci_high contention_mean ci_low ci_high flagged\n");
	for (i = 0; i < n; i++) {
		const struct metric_summary *m =
			analysis_metric(p->a, pts[i].c, p->metric);
		const struct metric_summary *cr =
			analysis_metric(p->a, pts[i].c, "contention_rate");

		if (!m || !m->s.n)
			continue;
		fprintf(f, "%.17g %.17g %.17g %.17g", pts[i].x, m->s.mean,
			isnan(m->s.ci_low) ? m->s.mean : m->s.ci_low,
			isnan(m->s.ci_high) ? m->s.mean : m->s.ci_high);
		if (cr && cr->s.n)
			*cr_max = fmax(*cr_max, cr->s.max);
		if (cr && cr->s.n)
			fprintf(f, " %.17g %.17g %.17g", cr->s.mean,
				isnan(cr->s.ci_low) ? cr->s.mean : cr->s.ci_low,
				isnan(cr->s.ci_high) ? cr->s.mean : cr->s.ci_high);
		else
			fputs(" NaN NaN NaN", f);
		fprintf(f, " %d\n", config_flagged(p, pts[i].c));
	}
	fputs("\n\n", f);
	free(pts);
}

static int plot_scaling(struct plotter *p, size_t si)
{
	const struct section *s = &p->sections[si];
	const char *x = scaling_x(p, s);
	size_t *series, nseries, i, nx = 0;
	double *xs;
	bool log2x, have_cr = dataset_metric(p->d, "contention_rate") >= 0;
	double cr_max = 0;
	char *base;
	FILE *dat, *gp;
	int ret = -1;

	if (!x)
		return 0; /* nothing numeric is swept: no scaling to show */
	series = xcalloc(s->n, sizeof(*series));
	nseries = series_of(p, s, x, series);
	xs = xcalloc(s->n, sizeof(*xs));
	for (i = 0; i < s->n; i++) {
		double v;

		parse_double(param_value(&p->d->configs[s->cfg[i]], x), &v);
		if (!nx || !bsearch(&v, xs, nx, sizeof(*xs), cmp_double)) {
			xs[nx++] = v;
			qsort(xs, nx, sizeof(*xs), cmp_double);
		}
	}
	log2x = geometric(xs, nx);
	base = xasprintf("scaling-%zu", si + 1);
	if (files_open(p, base, &dat, &gp) < 0)
		goto out;
	for (i = 0; i < nseries; i++)
		scaling_block(p, dat, s, x, series, i, &cr_max);
	script_head(p, gp, base, "scaling", have_cr ? 800 : 550);
	if (have_cr)
		fputs("set multiplot layout 2,1\n", gp);
	fputs("set xlabel ", gp);
	gp_quote(gp, x);
	fputc('\n', gp);
	set_ylabel(gp, p->metric);
	fputs("set yrange [0:*]\n", gp);
	if (log2x)
		fputs("set logscale x 2\n", gp);
	else
		fputs("set offsets graph 0.03, graph 0.03, 0, 0\n", gp);
	for (int panel = 0; panel < (have_cr ? 2 : 1); panel++) {
		int col = panel ? 5 : 2;

		if (panel) {
			/* All zero is a finding; give it an axis, not a warning. */
			fprintf(gp, "unset title\nset yrange [0:%s]\n"
				"set ylabel 'contention rate (contended / ops)'\n",
				cr_max > 0 ? "*" : "1");
		}
		fputs("plot \\\n", gp);
		for (i = 0; i < nseries; i++) {
			size_t first = 0;
			char *label;

			while (series[first] != i)
				first++;
			label = config_label(p, s, s->cfg[first], x);
			fprintf(gp, "  '%s.dat' index %zu using 1:%d:%d:%d with yerrorlines lw 2 pt 7 title ",
				base, i, col, col + 1, col + 2);
			gp_quote(gp, *label ? label : s->name);
			fputs(", \\\n", gp);
			free(label);
		}
		fprintf(gp, "  for [i=0:%zu] '%s.dat' index i using 1:($8 > 0 ? $%d : 1/0) "
			    "with points pt 6 ps 3 lc rgb 'red' title (i == 0 ? 'flagged' : '')\n",
			nseries - 1, base, col);
	}
	if (have_cr)
		fputs("unset multiplot\n", gp);
	add_file(p, base, "scaling");
	ret = 0;
out:
	if (files_close(p, base, dat, gp))
		ret = -1;
	free(base);
	free(series);
	free(xs);
	return ret;
}

/* ---- one point per run: contention and order ---- */

static int plot_contention(struct plotter *p, size_t si)
{
	const struct section *s = &p->sections[si];
	int mc = dataset_metric(p->d, "contention_rate");
	char *base = NULL;
	FILE *dat = NULL, *gp = NULL;
	double xmin = INFINITY, xmax = -INFINITY;
	size_t c, r, i;
	int ret = -1;

	if (mc < 0 || p->m < 0)
		return 0;
	base = xasprintf("contention-%zu", si + 1);
	if (files_open(p, base, &dat, &gp) < 0)
		goto out;
	fputs("# contention_rate metric (one block per configuration)\n", dat);
	for (c = 0; c < s->n; c++) {
		const struct ds_config *cfg = &p->d->configs[s->cfg[c]];

		for (r = cfg->run0; r < cfg->run0 + cfg->nruns; r++) {
			const struct ds_run *run = &p->d->runs[r];
			double x = dataset_value(p->d, r, mc);

			if (run->warmup || run->status != RUN_OK)
				continue;
			xmin = fmin(xmin, x);
			xmax = fmax(xmax, x);
			fprintf(dat, "%.17g %.17g\n", x, dataset_value(p->d, r, p->m));
		}
		fputs("\n\n", dat);
	}
	script_head(p, gp, base, "contention", 600);
	/* No contention at all is a finding, not an empty axis. */
	if (!(xmax > xmin))
		fprintf(gp, "set xrange [%.17g:%.17g]\n", xmin - 0.5, xmin + 0.5);
	for (i = 0; i < p->a->ncorr; i++) {
		const struct corr_row *cr = &p->a->corr[i];

		if (cr->config == -1 && !strcmp(cr->section, s->name) &&
		    !strcmp(cr->x, "contention_rate") && !strcmp(cr->y, p->metric)) {
			fprintf(gp, "set label 1 sprintf('Pearson r = %%.3f (p = %%.2g)   Spearman rho = %%.3f (p = %%.2g)   n = %%d', %.17g, %.17g, %.17g, %.17g, %zu) at graph 0, graph 1.03\nset tmargin 4\n",
				cr->pearson.r, cr->pearson.p, cr->spearman.r,
				cr->spearman.p, cr->pearson.n);
		}
	}
	fputs("set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n"
	      "set xlabel 'contention rate (contended / ops)'\n", gp);
	set_ylabel(gp, p->metric);
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

static int plot_order(struct plotter *p)
{
	const struct dataset *d = p->d;
	FILE *dat, *gp;
	size_t c, r;
	int ret = -1;

	if (files_open(p, "order", &dat, &gp) < 0 || p->m < 0)
		goto out;
	fputs("# seq metric warmup (one block per configuration)\n", dat);
	for (c = 0; c < d->nconfigs; c++) {
		for (r = d->configs[c].run0; r < d->configs[c].run0 + d->configs[c].nruns; r++)
			if (d->runs[r].status == RUN_OK)
				fprintf(dat, "%ld %.17g %d\n", d->runs[r].seq,
					dataset_value(d, r, p->m), d->runs[r].warmup);
		fputs("\n\n", dat);
	}
	script_head(p, gp, "order", "run order", 600);
	fputs("set xlabel 'run sequence number (order of execution)'\n", gp);
	set_ylabel(gp, p->metric);
	fputs("plot \\\n", gp);
	for (c = 0; c < d->nconfigs; c++) {
		char *label = config_title(p, &p->sections[p->section_of[c]], c);

		fprintf(gp, "  'order.dat' index %zu using 1:($3 > 0 ? 1/0 : $2) with linespoints pt %d title ",
			c, config_flagged(p, c) ? 6 : 7);
		gp_quote(gp, label);
		fputs(", \\\n", gp);
		free(label);
	}
	fprintf(gp, "  for [i=0:%zu] 'order.dat' index i using 1:($3 > 0 ? $2 : 1/0) with points pt 2 ps 1.5 lc rgb 'black' title (i == 0 ? 'warm-up' : '')\n",
		d->nconfigs ? d->nconfigs - 1 : 0);
	add_file(p, "order", "run order");
	ret = 0;
out:
	if (files_close(p, "order", dat, gp))
		ret = -1;
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

static int plot_distribution(struct plotter *p)
{
	const struct dataset *d = p->d;
	FILE *dat, *gp;
	size_t c, r;
	int ret = -1;

	if (files_open(p, "distribution", &dat, &gp) < 0 || p->m < 0)
		goto out;
	fputs("# position metric jitter (one block per configuration)\n", dat);
	for (c = 0; c < d->nconfigs; c++) {
		for (r = d->configs[c].run0; r < d->configs[c].run0 + d->configs[c].nruns; r++) {
			const struct ds_run *run = &d->runs[r];
			/* Deterministic jitter from the sequence number. */
			double j = ((double)((run->seq * 2654435761u) % 1000) / 1000.0 - 0.5) * 0.3;

			if (run->warmup || run->status != RUN_OK)
				continue;
			fprintf(dat, "%zu %.17g %.3f\n", c + 1,
				dataset_value(d, r, p->m), j);
		}
		fputs("\n\n", dat);
	}
	script_head(p, gp, "distribution", "distribution", 650);
	config_xtics(p, gp);
	fputs("set style fill solid 0.25 border -1\nset style boxplot nooutliers\n",
	      gp);
	set_ylabel(gp, p->metric);
	fprintf(gp, "plot for [i=0:%zu] 'distribution.dat' index i using (i + 1):2 with boxplot lc rgb '#4477aa' notitle, \\\n"
		    "  'distribution.dat' using ($1 + $3):2 with points pt 7 ps 0.6 lc rgb '#222222' title 'runs'\n",
		d->nconfigs ? d->nconfigs - 1 : 0);
	add_file(p, "distribution", "distribution");
	ret = 0;
out:
	if (files_close(p, "distribution", dat, gp))
		ret = -1;
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

int plot_render(const char *dir, const char *script, const char *fmt)
{
	char *expr;
	int status;
	pid_t pid;

	if (render_target(dir, script, fmt, false))
		return -1;
	expr = xasprintf("fmt='%s'", fmt);
	pid = fork();
	if (pid < 0) {
		free(expr);
		return error("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		if (chdir(dir) < 0)
			_exit(126);
		/* gnuplot talks on stderr only when something is wrong. */
		execlp("gnuplot", "gnuplot", "-e", expr, script, (char *)NULL);
		_exit(127);
	}
	free(expr);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return error("gnuplot failed on %s/%s", dir, script);
	return render_target(dir, script, fmt, true);
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
	p.metric = o->metric ? o->metric : "throughput";
	p.m = dataset_metric(p.d, p.metric);
	if (p.m < 0)
		return error("experiment %lld has no metric '%s'",
			     (long long)p.d->exp.id, p.metric);
	if (mkdir_p(o->out_dir))
		return -1;
	sections_build(&p);
	for (i = 0; i < p.nsections; i++)
		if (plot_scaling(&p, i) || plot_contention(&p, i))
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
	}
	free(s->files);
	memset(s, 0, sizeof(*s));
}
