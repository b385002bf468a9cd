/*
 * levels_plot.c - the figure of the invocations of one level (a label's
 * experiments, one per boot): a panel per section, and in it per
 * configuration each invocation's mean as a dot of that invocation's
 * colour, beside them the level's mean with the interval of the
 * two-level model (levels.h, the interval compare uses) and, for
 * contrast, the interval of every run as if independent, which is too
 * narrow when boots differ.  Written as invocations.dat/.gp and rendered
 * as plot.c's figures are.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "analysis/report.h"
#include "lib/safefile.h"
#include "plots/plot_impl.h"
#include "db/contract.h"
#include "lib/util.h"

#define BASE "invocations"
#define LABEL_MAX 40

/* The configurations of one section with a value, and what varies. */
struct lp_section {
	const char *name;
	size_t n;
	size_t *cfg;            /* indices into level.configs */
	size_t nvary;
	const char **vary;
};

/* A configuration of the level: the parameters one invocation holds. */
struct lp_config {
	const struct ds_config *params;
};

struct lplot {
	const struct levels *l;
	const struct level *lv;
	struct lp_config *dc;           /* per level config */
	size_t nsections;
	struct lp_section *sections;
};

/* The parameters of level configuration c: from an invocation that has it. */
static const struct ds_config *config_params(const struct level *lv,
					     const struct level_config *c)
{
	for (size_t i = 0; i < lv->ninv; i++)
		for (size_t k = 0; k < lv->inv[i].nconfigs; k++) {
			const struct ds_config *d = &lv->inv[i].configs[k];

			if (!strcmp(d->workload, c->workload) &&
			    !strcmp(d->canon, c->canon))
				return d;
		}
	return NULL;
}

/* The keys of s whose values differ between its configurations. */
static void section_vary(struct lplot *p, struct lp_section *s)
{
	const struct ds_config *first = p->dc[s->cfg[0]].params;

	s->vary = xcalloc(first->nparams + 1, sizeof(*s->vary));
	for (size_t k = 0; k < first->nparams; k++)
		for (size_t c = 1; c < s->n; c++) {
			const char *v = ds_config_param(p->dc[s->cfg[c]].params,
						     first->params[k].key);

			if (!v || strcmp(v, first->params[k].value)) {
				s->vary[s->nvary++] = first->params[k].key;
				break;
			}
		}
}

/* Sections in first-seen order, of the configurations with a value. */
static void sections_build(struct lplot *p)
{
	const struct level *lv = p->lv;

	p->dc = xcalloc(lv->nconfigs + 1, sizeof(*p->dc));
	p->sections = xcalloc(lv->nconfigs + 1, sizeof(*p->sections));
	for (size_t c = 0; c < lv->nconfigs; c++) {
		struct lp_section *s = NULL;

		p->dc[c].params = config_params(lv, &lv->configs[c]);
		if (!lv->configs[c].k || !p->dc[c].params)
			continue;
		for (size_t i = 0; i < p->nsections && !s; i++)
			if (!strcmp(p->sections[i].name, lv->configs[c].section))
				s = &p->sections[i];
		if (!s) {
			s = &p->sections[p->nsections++];
			s->name = lv->configs[c].section;
			s->cfg = xcalloc(lv->nconfigs, sizeof(*s->cfg));
		}
		s->cfg[s->n++] = c;
	}
	for (size_t i = 0; i < p->nsections; i++)
		section_vary(p, &p->sections[i]);
}

static void sections_free(struct lplot *p)
{
	for (size_t i = 0; i < p->nsections; i++) {
		free(p->sections[i].cfg);
		free(p->sections[i].vary);
	}
	free(p->sections);
	free(p->dc);
}

/* "threads=2 spin=10": the parameters that vary in the section. */
static char *config_label(const struct lplot *p, const struct lp_section *s,
			  size_t c)
{
	char *label = xstrdup(""), *t;

	for (size_t i = 0; i < s->nvary; i++) {
		const char *v = ds_config_param(p->dc[c].params, s->vary[i]);

		t = xasprintf("%s%s%s=%s", label, *label ? " " : "", s->vary[i],
			      v ? v : "");
		free(label);
		label = t;
	}
	if (!*label) {
		free(label);
		label = xstrdup(s->name);
	}
	plot_label_cut(label, LABEL_MAX);
	return label;
}

/* Where invocation i of n sits left of configuration k's position. */
static double inv_x(size_t k, size_t i, size_t n)
{
	return (double)(k + 1) - 0.3 + (n > 1 ? 0.3 * (double)i /
						   (double)(n - 1) : 0.15);
}

/* A bound, or the mean when there is no interval (one invocation). */
static double bound(double v, double mean)
{
	return isnan(v) ? mean : v;
}

/*
 * The blocks of a panel (a section): one per invocation (x, its mean),
 * then one of x, the level's mean and its two-level interval, the pooled
 * interval.  The largest value drawn goes to *max, the smallest mean to
 * *min.
 */
static void panel_data(const struct lplot *p, size_t panel, FILE *dat,
		       double *min, double *max)
{
	const struct lp_section *s = &p->sections[panel];
	const struct level *lv = p->lv;

	for (size_t i = 0; i < lv->ninv; i++) {
		fprintf(dat, "# panel %zu: invocation %zu (experiment %lld): "
			     "x mean\n", panel, i + 1,
			(long long)lv->inv[i].exp.id);
		for (size_t k = 0; k < s->n; k++) {
			const struct level_config *c = &lv->configs[s->cfg[k]];

			for (size_t j = 0; j < c->k; j++)
				if (c->inv[j].inv == i) {
					fprintf(dat, "%.3f", inv_x(k, i, lv->ninv));
					pl_put_num(dat, c->inv[j].mean);
					fputc('\n', dat);
					*min = fmin(*min, c->inv[j].mean);
					*max = fmax(*max, c->inv[j].mean);
				}
		}
		fputs("\n\n", dat);
	}
	fprintf(dat, "# panel %zu: x mean ci_low ci_high (two-level) "
		     "pooled_low pooled_high\n", panel);
	for (size_t k = 0; k < s->n; k++) {
		const struct level_config *c = &lv->configs[s->cfg[k]];
		const struct summary *g = &c->grand, *r = &c->pooled;

		fprintf(dat, "%zu", k + 1);
		pl_put_num(dat, g->mean);
		pl_put_num(dat, bound(g->ci_low, g->mean));
		pl_put_num(dat, bound(g->ci_high, g->mean));
		pl_put_num(dat, bound(r->ci_low, r->mean));
		pl_put_num(dat, bound(r->ci_high, r->mean));
		fputc('\n', dat);
		*max = fmax(*max, fmax(bound(g->ci_high, g->mean),
				       bound(r->ci_high, r->mean)));
	}
	fputs("\n\n", dat);
}

/* Has invocation i a value in section s? */
static bool inv_in(const struct level *lv, const struct lp_section *s,
		   size_t i)
{
	for (size_t k = 0; k < s->n; k++) {
		const struct level_config *c = &lv->configs[s->cfg[k]];

		for (size_t j = 0; j < c->k; j++)
			if (c->inv[j].inv == i)
				return true;
	}
	return false;
}

/* Labels too wide for their slots side by side: turned 30 degrees.  A
 * panel 850 pixels wide, a character about 7. */
static bool tics_rotated(const struct lplot *p, const struct lp_section *s)
{
	size_t widest = 0;

	for (size_t k = 0; k < s->n; k++) {
		char *label = config_label(p, s, s->cfg[k]);

		widest = strlen(label) > widest ? strlen(label) : widest;
		free(label);
	}
	return 7 * widest * s->n > 850;
}

static void panel_axes(const struct lplot *p, const struct lp_section *s,
		       FILE *gp, double min, double max)
{
	bool rotated = tics_rotated(p, s);

	const char *metric = p->l->opts.metric, *unit = metric_unit(metric);
	char *t = xasprintf("%s: %s", s->name, metric);

	fputs("set title ", gp);
	escape_gnuplot(gp, t);
	free(t);
	t = *unit ? xasprintf("%s (%s)", metric, unit) : xstrdup(metric);
	fputs("\nset ylabel ", gp);
	escape_gnuplot(gp, t);
	free(t);
	fputs(fabs(max) >= 1e4 ? "\nset format y '%.1s%c'\n"
			       : "\nset format y '%g'\n", gp);
	/* Means >= 0 (a rate): from 0, an interval below it cut there. */
	if (min >= 0 && max > 0) /* the top: autoscale skips a bar cut at 0 */
		fprintf(gp, "set yrange [0:%.17g]\n", 1.05 * max);
	else
		fputs("set yrange [*:*]\n", gp);
	fprintf(gp, "set xtics %s (", rotated ? "rotate by 30 right"
					      : "norotate");
	for (size_t k = 0; k < s->n; k++) {
		char *label = config_label(p, s, s->cfg[k]);

		fputs(k ? ", " : "", gp);
		escape_gnuplot(gp, label);
		fprintf(gp, " %zu", k + 1);
		free(label);
	}
	fprintf(gp, ")\nset xrange [0.5:%zu.5]\n", s->n);
}

/* "title 'TEXT'" the first time (*titled false), then "notitle". */
static void key_title(FILE *gp, bool *titled, const char *text)
{
	if (*titled) {
		fputs("notitle", gp);
	} else {
		fputs("title ", gp);
		escape_gnuplot(gp, text);
	}
	*titled = true;
}

/* The plot command of a panel whose blocks start at block; legend
 * entries for what titled[] (per invocation, then the two intervals)
 * says has none yet. */
static void panel_plot(const struct lplot *p, const struct lp_section *s,
		       FILE *gp, size_t block, bool *titled)
{
	static const struct {
		const char *using, *style, *what;
	} bars[] = {
		{ "($1 + 0.12):2:3:4", "pt 5 ps 1.2 lw 2.5 lc rgb '#222222'",
		  "mean, %g%% CI: two-level model" },
		{ "($1 + 0.24):2:5:6", "pt 7 ps 0.4 lw 1.5 lc rgb '#999999'",
		  "%g%% CI: runs as if independent" },
	};
	const struct level *lv = p->lv;
	const char *sep = "";

	fputs("plot \\\n", gp);
	for (size_t i = 0; i < lv->ninv; i++) {
		char *title;

		if (!inv_in(lv, s, i))
			continue;
		title = xasprintf("invocation %zu (id %lld)", i + 1,
				  (long long)lv->inv[i].exp.id);
		fprintf(gp, "%s  '" BASE ".dat' index %zu using 1:2 with points "
			    "pt 7 ps 1.1 lc %zu ", sep, block + i, i + 1);
		key_title(gp, &titled[i], title);
		free(title);
		sep = ", \\\n";
	}
	for (size_t k = 0; k < ARRAY_SIZE(bars); k++) {
		char *title = xasprintf(bars[k].what,
					100 * p->l->opts.confidence);

		fprintf(gp, ", \\\n  '" BASE ".dat' index %zu using %s with "
			    "yerrorbars %s ", block + lv->ninv, bars[k].using,
			bars[k].style);
		key_title(gp, &titled[lv->ninv + k], title);
		free(title);
	}
	fputc('\n', gp);
}

/* "name (label): 3 invocations, host, kernel" */
static char *figure_title(const struct level *lv)
{
	const struct experiment_row *e = &lv->inv[0].exp;
	const char *host = experiment_meta(e, MK_HOSTNAME);
	const char *kernel = experiment_meta(e, MK_KERNEL_RELEASE);

	for (size_t i = 1; i < lv->ninv && kernel; i++) {
		const char *k = experiment_meta(&lv->inv[i].exp,
						MK_KERNEL_RELEASE);

		if (!k || strcmp(k, kernel))
			kernel = "kernels differ";
	}
	return xasprintf("%s%s%s%s: %zu invocations — %s, %s", lv->name, *lv->label ? " (" : "",
			 lv->label, *lv->label ? ")" : "", lv->ninv,
			 host ? host : "unknown host",
			 kernel ? kernel : "unknown kernel");
}

/*
 * A panel per section, one under the other (configurations need the
 * width), every plot area the same size: fixed pixels for the figure's
 * title, each panel (330), the tic labels under it (more when turned),
 * each panel's title, and the legend at the bottom (gnuplot sets its
 * entries two a row), as fractions of the figure's height.
 */
static void script_head(const struct lplot *p, FILE *gp)
{
	char *title = figure_title(p->lv), *what;
	bool rotated = false;
	int n = (int)p->nsections, key = 20 * (((int)p->lv->ninv + 3) / 2) + 20;
	int tics, height;

	for (size_t i = 0; i < p->nsections; i++)
		rotated |= tics_rotated(p, &p->sections[i]);
	tics = rotated ? 120 : 45;
	height = 70 + n * 330 + n * tics + (n - 1) * 40 + key;
	what = xasprintf("the invocations of a level (experiments %lld to %lld)",
			 (long long)p->lv->inv[0].exp.id,
			 (long long)p->lv->inv[p->lv->ninv - 1].exp.id);
	plot_comment_head(gp, what, BASE);
	free(what);
	plot_terminal(gp, BASE, height);
	fputs("set grid\nset border 3\nset tics nomirror\n"
	      "set key at screen 0.5, screen 0.01 center bottom horizontal\n",
	      gp);
	fprintf(gp, "set multiplot layout %d,1 margins %.3f, 0.97, %.4f, %.4f "
		    "spacing 0, %.4f title ", n, rotated ? 0.14 : 0.1,
		(double)(tics + key) / height, 1 - 70.0 / height,
		(double)(tics + 40) / height);
	escape_gnuplot(gp, title);
	fputc('\n', gp);
	free(title);
}

static int write_files(const struct lplot *p, const char *dir)
{
	char *dpath = xasprintf("%s/" BASE ".dat", dir);
	char *gpath = xasprintf("%s/" BASE ".gp", dir);
	FILE *dat = safefile_open(dpath), *gp = safefile_open(gpath);
	bool *titled = xcalloc(p->lv->ninv + 2, sizeof(*titled));
	size_t block = 0;
	int ret = 0;

	if (!dat || !gp) {
		ret = error("%s: %s", dat ? gpath : dpath, strerror(errno));
		goto out;
	}
	script_head(p, gp);
	for (size_t i = 0; i < p->nsections; i++) {
		double min = INFINITY, max = -INFINITY;

		panel_data(p, i, dat, &min, &max);
		panel_axes(p, &p->sections[i], gp, min, max);
		panel_plot(p, &p->sections[i], gp, block, titled);
		block += p->lv->ninv + 1;
	}
	fputs("unset multiplot\n", gp);
out:
	if (dat && fclose(dat))
		ret = error("%s: %s", dpath, strerror(errno));
	if (gp && fclose(gp))
		ret = error("%s: %s", gpath, strerror(errno));
	free(titled);
	free(dpath);
	free(gpath);
	return ret;
}

static void add_entry(struct plot_set *set, const char *title, char *skipped)
{
	set->files = xrealloc(set->files, (set->n + 1) * sizeof(*set->files));
	set->files[set->n] = (struct plot_file){ .name = xstrdup(BASE ".gp"),
						 .title = xstrdup(title),
						 .skipped = skipped };
	set->n++;
}

int plot_level(const struct levels *l, size_t which,
	       const struct plot_opts *o, struct plot_set *out)
{
	struct lplot p = { .l = l, .lv = &l->levels[which] };
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (plot_mkdir_p(o->out_dir))
		return -1;
	sections_build(&p);
	if (!p.nsections) {
		add_entry(out, "invocations",
			  xasprintf("no invocation has a measured value of %s",
				    l->opts.metric));
		ret = 0;
		goto out;
	}
	if (write_files(&p, o->out_dir))
		goto out;
	add_entry(out, "invocations", NULL);
	ret = o->render ? plot_render_set(o, out) : 0;
out:
	sections_free(&p);
	return ret;
}
