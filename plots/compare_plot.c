/*
 * compare_plot.c - the picture of an A/B comparison: baseline and
 * candidate per configuration with their intervals, the change and the
 * verdict annotated, flagged configurations marked.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plots/plot.h"
#include "runner/util.h"

/* "section k=v ..." cut to 40 characters, "(!) " first when flagged. */
static char *comparison_label(const struct comparison *c)
{
	char *full = xasprintf("%s%s %s", c->nflags ? "(!) " : "",
			       *c->section || *c->canon ? c->section : "values",
			       c->canon);

	if (strlen(full) > 40)
		strcpy(full + 37, "...");
	return full;
}

static void write_data(FILE *f, const struct compare_result *r)
{
	size_t i;

	fputs("# x base_mean base_lo base_hi cand_mean cand_lo cand_hi change_pct top\n", f);
	for (i = 0; i < r->n; i++) {
		const struct compare_stats *st = &r->cmp[i].st;
		double top = fmax(st->base.ci_high, st->cand.ci_high);

		if (isnan(top))
			top = fmax(st->base.mean, st->cand.mean);
		fprintf(f, "%zu %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
			i + 1, st->base.mean,
			isnan(st->base.ci_low) ? st->base.mean : st->base.ci_low,
			isnan(st->base.ci_high) ? st->base.mean : st->base.ci_high,
			st->cand.mean,
			isnan(st->cand.ci_low) ? st->cand.mean : st->cand.ci_low,
			isnan(st->cand.ci_high) ? st->cand.mean : st->cand.ci_high,
			st->change_pct, top);
	}
}

static void write_script(FILE *f, const struct compare_result *r,
			 const char *base, const char *cand)
{
	char *title = xasprintf("compare: %s vs %s — %s (%.0f%% confidence)",
				base, cand, r->metric, 100 * r->opts.confidence);
	const char *unit = metric_unit(r->metric);
	char *ylabel = *unit ? xasprintf("%s (%s)", r->metric, unit)
			     : xstrdup(r->metric);
	size_t i;

	fputs("# A/B comparison written by contend compare --plot.\n"
	      "if (!exists('fmt')) fmt = 'png'\n"
	      "if (fmt eq 'svg') {\n"
	      "    set terminal svg size 1000,650 dynamic noenhanced font 'sans,11' background rgb 'white'\n"
	      "    set output 'compare.svg'\n"
	      "} else {\n"
	      "    set terminal pngcairo size 1000,650 noenhanced font 'sans,10'\n"
	      "    set output 'compare.png'\n"
	      "}\n", f);
	fputs("set title ", f);
	gp_quote(f, title);
	fputs("\nset ylabel ", f);
	gp_quote(f, ylabel);
	fputs("\nset grid ytics\nset border 3\nset tics nomirror\n"
	      "set key outside top center horizontal\nset tmargin 5\n"
	      "set bmargin 12\nset lmargin 14\nset yrange [0:*]\n"
	      "set offsets 0, 0, graph 0.1, 0\n", f);
	fprintf(f, "set xrange [0.4:%zu.6]\n", r->n);
	fputs("set xtics rotate by 30 right (", f);
	for (i = 0; i < r->n; i++) {
		char *label = comparison_label(&r->cmp[i]);

		gp_quote(f, label);
		fprintf(f, " %zu%s", i + 1, i + 1 < r->n ? ", " : "");
		free(label);
	}
	fputs(")\n", f);
	/* Verdicts as labels above each pair: the script's own strings. */
	for (i = 0; i < r->n; i++) {
		const struct comparison *c = &r->cmp[i];
		char *text = xasprintf("%+.1f%% %s", c->st.change_pct,
				       verdict_names[c->st.verdict]);

		fprintf(f, "set label %zu ", i + 1);
		gp_quote(f, text);
		fprintf(f, " at %zu, graph 0.97 center textcolor rgb '%s'\n",
			i + 1, c->st.verdict == VERDICT_SLOWER ? "#bb0000" :
			       c->st.verdict == VERDICT_FASTER ? "#007700" :
							       "#444444");
		free(text);
	}
	fputs("plot 'compare.dat' using ($1 - 0.12):2:3:4 with yerrorbars pt 7 ps 1.3 lc rgb '#4477aa' title ", f);
	gp_quote(f, base);
	fputs(", \\\n  'compare.dat' using ($1 + 0.12):5:6:7 with yerrorbars pt 5 ps 1.3 lc rgb '#cc6677' title ", f);
	gp_quote(f, cand);
	fputc('\n', f);
	free(title);
	free(ylabel);
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
	fd = fopen(dat, "w");
	fg = fopen(gp, "w");
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
