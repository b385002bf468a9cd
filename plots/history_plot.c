/*
 * history_plot.c - the figure of a history (analysis/history.h): per
 * configuration, each experiment's level with its interval over the runs
 * in series order (a collapse at its mean), the level of each segment
 * between change points as a line, and each change point as a dashed
 * vertical line labelled with its change and interval, or "collapse" and
 * "recovery".  history-N.dat/.gp, rendered as the other
 * figures are (render.c); every name reaches the script through escape_gnuplot.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/history.h"
#include "db/vocab.h"
#include "lib/escape.h"
#include "lib/numfmt.h"
#include "lib/safefile.h"
#include "lib/util.h"
#include "plots/plot.h"

static void write_data(const struct history_config *c, FILE *dat)
{
	size_t i, j, a = 0;

	fputs("# experiment position, level, ci_low, ci_high (a collapse: "
	      "its mean, no interval; a point without a value: none)\n", dat);
	for (i = 0; i < c->npoints; i++) {
		const struct history_point *p = &c->points[i];

		if (p->state == HP_OK)
			fprintf(dat, "%zu %.17g %.17g %.17g\n", i + 1,
				exp(p->level), exp(p->lo), exp(p->hi));
		else if (p->state == HP_COLLAPSED)
			fprintf(dat, "%zu %.17g %.17g %.17g\n", i + 1,
				p->mean, p->mean, p->mean);
	}
	fputs("\n\n# segments: from, to at their geometric mean level\n", dat);
	for (j = 0; j <= c->ncps; j++) {
		size_t b = j < c->ncps ? c->cps[j].index : c->npoints, n = 0;
		double s = 0;

		for (i = a; i < b; i++)
			if (c->points[i].state == HP_OK) {
				s += c->points[i].level;
				n++;
			}
		if (n)
			fprintf(dat, "%.1f %.17g\n%.1f %.17g\n\n",
				(double)a + 0.5, exp(s / (double)n),
				(double)b + 0.5, exp(s / (double)n));
		a = b;
	}
}

/*
 * "k=v k=v": the parameters of c that differ from their defaults
 * (is_default; NULL: every one), read from the first experiment that has
 * it; cut to 60 characters.  malloc'd.
 */
static char *changed_params(const struct history *h,
			    const struct history_config *c,
			    plot_param_default_fn is_default)
{
	const struct dataset *d = c->npoints ? &h->exps[c->points[0].exp] : NULL;
	char *out = xstrdup(""), *t;
	size_t i, k;

	for (i = 0; d && i < d->nconfigs; i++) {
		const struct ds_config *cf = &d->configs[i];

		if (strcmp(cf->canon, c->canon) || strcmp(cf->workload, c->workload))
			continue;
		for (k = 0; k < cf->nparams; k++) {
			if (is_default && is_default(cf->workload, cf->params[k].key,
						     cf->params[k].value))
				continue;
			t = xasprintf("%s%s%s=%s", out, *out ? " " : "",
				      cf->params[k].key, cf->params[k].value);
			free(out);
			out = t;
		}
		break;
	}
	plot_label_cut(out, 60);
	return out;
}

static void write_script(const struct history *h,
			 const struct history_config *c, const char *base,
			 plot_param_default_fn is_default, FILE *gp)
{
	char *changed = changed_params(h, c, is_default);
	const char *unit = metric_unit(h->opts.metric);
	char *t;
	size_t j;
	bool big = false;

	for (j = 0; j < c->npoints; j++)
		big |= c->points[j].state == HP_OK &&
		       exp(c->points[j].level) >= 1e4;
	plot_comment_head(gp, "the history of one configuration", base);
	plot_terminal(gp, base, 480);
	/* the parameters that differ from their defaults, cut to the line */
	t = xasprintf("%s%s%s: %s over %zu experiments matching %s",
		      c->section, *changed ? " " : "", changed, h->opts.metric,
		      c->npoints, h->pattern);
	fputs("set title ", gp);
	escape_gnuplot(gp, t);
	free(t);
	free(changed);
	t = *unit ? xasprintf("%s (%s)", h->opts.metric, unit)
		  : xstrdup(h->opts.metric);
	fputs(" noenhanced\nset ylabel ", gp);
	escape_gnuplot(gp, t);
	free(t);
	fprintf(gp, "\nset xlabel 'experiment, oldest first'\n"
		    "set grid\nset border 3\nset tics nomirror\n"
		    "set key outside bottom center horizontal\n"
		    "set xrange [0.5:%zu.5]\nset xtics 1\n", c->npoints);
	fputs(big ? "set format y '%.1s%c'\n" : "set format y '%g'\n", gp);
	for (j = 0; j < c->ncps; j++) {
		char pct[64];

		fprintf(gp, "set arrow from %.1f, graph 0 to %.1f, graph 1 "
			    "nohead dt 2 lc rgb '#cc0000'\n",
			(double)c->cps[j].index + 0.5,
			(double)c->cps[j].index + 0.5);
		if (c->cps[j].kind == CP_LEVEL)
			numfmt_pct_ci(pct, sizeof(pct), c->cps[j].change_pct,
				      c->cps[j].ci_low_pct,
				      c->cps[j].ci_high_pct);
		else
			snprintf(pct, sizeof(pct), "%s",
				 c->cps[j].kind == CP_COLLAPSE ? "collapse"
							       : "recovery");
		fprintf(gp, "set label %zu ", j + 1);
		escape_gnuplot(gp, pct);
		fprintf(gp, " at %.1f, graph 0.96 left offset 0.5, 0 "
			    "tc rgb '#cc0000' noenhanced\n",
			(double)c->cps[j].index + 0.5);
	}
	fputs("plot ", gp);
	plot_file_name(gp, base, "dat");
	fprintf(gp, " index 0 using 1:2:3:4 with yerrorbars pt 7 lc rgb "
		    "'#222222' title 'level, %g%% CI over its runs', \\\n  ",
		100 * h->opts.confidence);
	plot_file_name(gp, base, "dat");
	fputs(" index 1 using 1:2 with lines lw 2 lc rgb '#1f77b4' title "
	      "'segment level (change points dashed)'\n", gp);
}

static int write_one(const struct history *h, size_t c, const char *dir,
		     plot_param_default_fn is_default, char **base)
{
	char *dpath, *gpath;
	FILE *dat, *gp;
	int ret = 0;

	*base = xasprintf("history-%zu", c + 1);
	dpath = xasprintf("%s/%s.dat", dir, *base);
	gpath = xasprintf("%s/%s.gp", dir, *base);
	dat = safefile_open(dpath);
	gp = safefile_open(gpath);
	if (!dat || !gp) {
		ret = error("%s: %s", dat ? gpath : dpath, strerror(errno));
	} else {
		write_data(&h->configs[c], dat);
		write_script(h, &h->configs[c], *base, is_default, gp);
	}
	if (dat && fclose(dat))
		ret = error("%s: %s", dpath, strerror(errno));
	if (gp && fclose(gp))
		ret = error("%s: %s", gpath, strerror(errno));
	free(dpath);
	free(gpath);
	return ret;
}

int plot_history(const struct history *h, const char *dir,
		 plot_param_default_fn is_default)
{
	bool render = plot_have_gnuplot();
	size_t c;

	if (plot_mkdir_p(dir))
		return -1;
	for (c = 0; c < h->nconfigs; c++) {
		char *base, *script;
		int ret;

		if (h->configs[c].npoints < 2)
			continue;
		ret = write_one(h, c, dir, is_default, &base);
		script = xasprintf("%s.gp", base);
		if (!ret && render)
			ret = plot_render(dir, script, "png");
		if (!ret)
			fprintf(stderr, "contend: wrote %s/%s.%s\n",
				escape_quote(dir), escape_quote(base),
				render ? "png" : "gp (gnuplot is not "
				"installed: not rendered)");
		free(script);
		free(base);
		if (ret)
			return -1;
	}
	return 0;
}
