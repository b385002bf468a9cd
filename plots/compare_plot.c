/*
 * compare_plot.c - the picture of an A/B comparison, two panels sharing
 * the configurations' axis: above, baseline and candidate per
 * configuration with their intervals (as % of the baseline mean); below,
 * the change with its interval, the band a change must leave to count,
 * and the change and verdict written by each.  Flagged configurations
 * are marked (!) and the key says what that means; a gain flagged
 * misleading-throughput is "suspect" in amber, never a green "faster".
 * Nothing is computed here: every number is compare_run's.
 */
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/escape.h"
#include "lib/numfmt.h"
#include "lib/safefile.h"
#include "plots/plot_impl.h"
#include "lib/util.h"

/* Does key take more than one value among the section's comparisons? */
static bool varies(const struct compare_result *r, const char *section,
		   const char *key)
{
	const char *first = NULL;
	bool seen = false;
	size_t i;

	for (i = 0; i < r->n; i++) {
		const char *v = r->cmp[i].config
				? ds_config_param(r->cmp[i].config, key) : NULL;

		if (strcmp(r->cmp[i].section, section))
			continue;
		if (seen && (!first || !v || strcmp(first, v)))
			return true;
		first = v;
		seen = true;
	}
	return false;
}

/*
 * "section k=v ..." with only the parameters that vary within the
 * section, cut to 40 characters, "(!) " when flagged.
 */
static char *comparison_label(const struct compare_result *r, size_t k)
{
	const struct comparison *c = &r->cmp[k];
	const struct ds_config *cfg = c->config;
	char *label = xasprintf("%s%s", c->nflags ? "(!) " : "",
				*c->section ? c->section : "values");
	size_t i;

	for (i = 0; cfg && i < cfg->nparams; i++) {
		char *longer;

		if (!varies(r, c->section, cfg->params[i].key))
			continue;
		longer = xasprintf("%s %s=%s", label, cfg->params[i].key,
				   cfg->params[i].value);
		free(label);
		label = longer;
	}
	plot_label_cut(label, 40);
	return label;
}

/* A gain that the flags tie to fewer hand-offs (misleading-throughput). */
static bool comparison_suspect(const struct comparison *c)
{
	size_t i;

	for (i = 0; i < c->nflags; i++)
		if (!strcmp(c->flags[i].name, "misleading-throughput"))
			return true;
	return false;
}

/* The verdict's colour: amber for a suspect gain, red slower, green
 * faster, grey otherwise; in the data file too (lc rgb variable). */
static const char *verdict_colour(const struct comparison *c)
{
	return comparison_suspect(c) ? "#b86e00" :
	       c->st.verdict == VERDICT_SLOWER ? "#bb0000" :
	       c->st.verdict == VERDICT_FASTER ? "#007700" : "#444444";
}

/*
 * Both sides as a percentage of the baseline mean, so configurations of
 * any scale (ops/s of a spinlock, seconds of a creat storm) share an axis.
 */
static void write_data(FILE *f, const struct compare_result *r)
{
	size_t i;

	fputs("# x base_pct base_lo base_hi cand_pct cand_lo cand_hi (% of the "
	      "baseline mean) change_pct change_lo change_hi (%) colour\n", f);
	for (i = 0; i < r->n; i++) {
		const struct compare_stats *st = &r->cmp[i].st;
		/* A zero baseline has no percentage: NaN, which gnuplot skips. */
		double scale = fabs(st->base.mean) > 0 ? 100 / st->base.mean : NAN;

		fprintf(f, "%zu %.17g %.17g %.17g %.17g %.17g %.17g",
			i + 1, st->base.mean * scale,
			(isnan(st->base.ci_low) ? st->base.mean : st->base.ci_low) * scale,
			(isnan(st->base.ci_high) ? st->base.mean : st->base.ci_high) * scale,
			st->cand.mean * scale,
			(isnan(st->cand.ci_low) ? st->cand.mean : st->cand.ci_low) * scale,
			(isnan(st->cand.ci_high) ? st->cand.mean : st->cand.ci_high) * scale);
		/* No interval of the change: the point alone, never a bar to 0. */
		pl_put_num(f, st->change_pct);
		pl_put_num(f, isnan(st->change_ci_low_pct) ? st->change_pct
							     : st->change_ci_low_pct);
		pl_put_num(f, isnan(st->change_ci_high_pct) ? st->change_pct
							      : st->change_ci_high_pct);
		fprintf(f, " %ld\n", strtol(verdict_colour(&r->cmp[i]) + 1, NULL, 16));
	}
}

/* A side's name in the key, which has 30 characters beside the plot. */
static void key_name(FILE *f, const char *name)
{
	char *cut = xstrdup(name);

	plot_label_cut(cut, 30);
	escape_gnuplot(f, cut);
	free(cut);
}

static void write_script(FILE *f, const struct compare_result *r,
			 const char *base, const char *cand)
{
	char *title = xasprintf("compare: %s vs %s — %s (%.0f%% confidence)",
				base, cand, r->metric, 100 * r->opts.confidence);
	char *ylabel = xasprintf("%s, %% of the baseline mean", r->metric);
	char *band = xasprintf("within ±%g%%: no change", r->opts.threshold_pct);
	bool flagged = false;
	size_t i, longest = 0;
	double left, bottom;

	for (i = 0; i < r->n; i++) {
		char *label = comparison_label(r, i);

		flagged |= r->cmp[i].nflags > 0;
		if (strlen(label) > longest)
			longest = strlen(label);
		free(label);
	}
	plot_comment_head(f, "A/B comparison of contend compare --plot",
			  "compare");
	plot_terminal(f, "compare", 820);
	/* Two panels sharing the x axis: the sides above, the change below;
	 * the margins hold the configurations' names, rotated 30 degrees
	 * (about 3.3 pixels down and 5.6 left a character), and no more. */
	longest = (longest + 9) / 10 * 10; /* in tens: as config_xtics */
	bottom = fmin(0.3, (40 + 3.3 * (double)longest) / 820);
	left = fmax(0.1, fmin(0.3, 5.6 * (double)longest / 1000 -
				    0.3 / (double)r->n));
	fprintf(f, "set multiplot layout 2,1 margins %.3f, 0.76, %.3f, 0.92 "
		   "spacing 0, 0.08 title ", left, bottom);
	escape_gnuplot(f, title);
	fprintf(f, "\nset grid ytics\nset border 3\nset tics nomirror\n"
		   "set key at screen 0.77, graph 1 left top Left reverse\n"
		   "set xrange [0.4:%zu.6]\n", r->n);
	/* ---- the two sides, each with its interval ---- */
	fputs("set ylabel ", f);
	escape_gnuplot(f, ylabel);
	fputs("\nset format x ''\nset xtics (", f);
	for (i = 0; i < r->n; i++)
		fprintf(f, "'' %zu%s", i + 1, i + 1 < r->n ? ", " : "");
	fputs(")\nset offsets 0, 0, graph 0.1, graph 0.1\nplot ", f);
	escape_gnuplot(f, "compare.dat");
	fputs(" using ($1 - 0.12):2:3:4 with yerrorbars pt 7 ps 1.3 lc rgb '#4477aa' title ", f);
	key_name(f, base);
	fputs(", \\\n  ", f);
	escape_gnuplot(f, "compare.dat");
	fputs(" using ($1 + 0.12):5:6:7 with yerrorbars pt 5 ps 1.3 lc rgb '#cc6677' title ", f);
	key_name(f, cand);
	fprintf(f, ", \\\n  keyentry with points pt 1 lc rgb 'white' title 'mean, %.0f%% CI'",
		100 * r->opts.confidence);
	if (flagged)
		fputs(", \\\n  keyentry with points pt 1 lc rgb 'white' title '(!) flagged: see "
		      "the text'", f);
	fputs("\n", f);
	/* ---- the change, with its interval ---- */
	fprintf(f, "set object 1 rectangle from graph 0, first %.17g to graph 1, "
		   "first %.17g fillcolor rgb '#e4e4e4' fillstyle solid noborder behind\n",
		-r->opts.threshold_pct, r->opts.threshold_pct);
	fputs("set ylabel 'change, % (candidate / baseline - 1)'\n"
	      "set format x '%g'\nset xtics rotate by 30 right (", f);
	for (i = 0; i < r->n; i++) {
		char *label = comparison_label(r, i);

		escape_gnuplot(f, label);
		fprintf(f, " %zu%s", i + 1, i + 1 < r->n ? ", " : "");
		free(label);
	}
	/* 0 and the band always in sight: the change is read against them */
	fprintf(f, ")\nset xzeroaxis lt -1\nset yrange [*<%.6g:%.6g<*]\n",
		-2 * r->opts.threshold_pct, 2 * r->opts.threshold_pct);
	/* The change and verdict by each interval: the script's own strings.
	 * A gain that came from fewer lock hand-offs is suspect, in amber: it
	 * is not "faster", whatever its interval says. */
	for (i = 0; i < r->n; i++) {
		const struct comparison *c = &r->cmp[i];
		bool suspect = comparison_suspect(c);
		char change[NUMFMT_LEN], *text;

		numfmt_pct(change, sizeof(change), c->st.change_pct);
		text = xasprintf("%s%s", verdict_names[c->st.verdict],
				 suspect ? " (suspect)" : "");
		fprintf(f, "set label %zu ", 2 * i + 1);
		escape_gnuplot(f, change);
		fprintf(f, " at %zu, graph 1.13 center textcolor rgb '%s'\n",
			i + 1, verdict_colour(c));
		fprintf(f, "set label %zu ", 2 * i + 2);
		escape_gnuplot(f, text);
		fprintf(f, " at %zu, graph 1.05 center font ',8' textcolor rgb '%s'\n",
			i + 1, verdict_colour(c));
		free(text);
	}
	fputs("plot ", f);
	escape_gnuplot(f, "compare.dat");
	fprintf(f, " using 1:8:9:10:11 with yerrorbars pt 9 ps 1.5 lw 2 "
		   "lc rgb variable title 'change, %.0f%% CI', \\\n  "
		   "keyentry with boxes fillcolor rgb '#e4e4e4' fillstyle solid "
		   "noborder title ", 100 * r->opts.confidence);
	escape_gnuplot(f, band);
	fputs("\nunset multiplot\n", f);
	free(title);
	free(ylabel);
	free(band);
}

int plot_compare(const struct compare_result *r, const char *base,
		 const char *cand, const struct plot_opts *o,
		 struct plot_set *out)
{
	char *dat = xasprintf("%s/compare.dat", o->out_dir);
	char *gp = xasprintf("%s/compare.gp", o->out_dir);
	FILE *fd = NULL, *fg = NULL;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!r->n) {
		ret = error("compare --plot: no matched configuration to draw");
		goto out;
	}
	if (mkdir(o->out_dir, 0755) < 0 && errno != EEXIST) {
		error("cannot create %s: %s", o->out_dir, strerror(errno));
		goto out;
	}
	fd = safefile_open(dat);
	fg = safefile_open(gp);
	if (!fd || !fg) {
		error("cannot write in %s: %s", o->out_dir, strerror(errno));
		goto out;
	}
	write_data(fd, r);
	write_script(fg, r, base, cand);
	if (fclose(fd) | fclose(fg)) {
		fd = fg = NULL;
		error("write error in %s", o->out_dir);
		goto out;
	}
	fd = fg = NULL;
	out->files = xcalloc(1, sizeof(*out->files));
	out->files[0].name = xstrdup("compare.gp");
	out->files[0].title = xstrdup("compare");
	out->n = 1;
	ret = 0;
	if (o->render) {
		if (!plot_have_gnuplot()) {
			ret = error("gnuplot is not installed: data and script are in %s; "
				    "install it with 'apt-get install gnuplot-nox'",
				    o->out_dir);
			goto out;
		}
		if (o->png)
			ret |= plot_render(o->out_dir, "compare.gp", "png");
		if (o->svg)
			ret |= plot_render(o->out_dir, "compare.gp", "svg");
		out->files[0].rendered = !ret;
	}
out:
	if (fd)
		fclose(fd);
	if (fg)
		fclose(fg);
	free(dat);
	free(gp);
	return ret;
}
