/*
 * compare_plot.c - the picture of an A/B comparison: baseline and
 * candidate per configuration with their intervals, the change and the
 * verdict annotated, flagged configurations marked; a gain flagged
 * misleading-throughput is "suspect" in amber, never a green "faster".
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
#include "plots/plot.h"
#include "lib/util.h"

static const char *param_of(const struct ds_config *c, const char *key)
{
	size_t i;

	for (i = 0; c && i < c->nparams; i++)
		if (!strcmp(c->params[i].key, key))
			return c->params[i].value;
	return NULL;
}

/* Does key take more than one value among the section's comparisons? */
static bool varies(const struct compare_result *r, const char *section,
		   const char *key)
{
	const char *first = NULL;
	bool seen = false;
	size_t i;

	for (i = 0; i < r->n; i++) {
		const char *v = param_of(r->cmp[i].config, key);

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

/*
 * Both sides as a percentage of the baseline mean, so configurations of
 * any scale (ops/s of a spinlock, seconds of a creat storm) share an axis.
 */
static void write_data(FILE *f, const struct compare_result *r)
{
	size_t i;

	fputs("# x base_pct base_lo base_hi cand_pct cand_lo cand_hi change_pct "
	      "(all % of the baseline mean)\n", f);
	for (i = 0; i < r->n; i++) {
		const struct compare_stats *st = &r->cmp[i].st;
		/* A zero baseline has no percentage: NaN, which gnuplot skips. */
		double scale = fabs(st->base.mean) > 0 ? 100 / st->base.mean : NAN;

		fprintf(f, "%zu %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
			i + 1, st->base.mean * scale,
			(isnan(st->base.ci_low) ? st->base.mean : st->base.ci_low) * scale,
			(isnan(st->base.ci_high) ? st->base.mean : st->base.ci_high) * scale,
			st->cand.mean * scale,
			(isnan(st->cand.ci_low) ? st->cand.mean : st->cand.ci_low) * scale,
			(isnan(st->cand.ci_high) ? st->cand.mean : st->cand.ci_high) * scale,
			st->change_pct);
	}
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

static void write_script(FILE *f, const struct compare_result *r,
			 const char *base, const char *cand)
{
	char *title = xasprintf("compare: %s vs %s — %s (%.0f%% confidence)",
				base, cand, r->metric, 100 * r->opts.confidence);
	char *ylabel = xasprintf("%s, %% of the baseline mean", r->metric);
	size_t i;

	plot_comment_head(f, "A/B comparison of contend compare --plot",
			  "compare");
	plot_terminal(f, "compare", 650);
	fputs("set title ", f);
	escape_gnuplot(f, title);
	fputs("\nset ylabel ", f);
	escape_gnuplot(f, ylabel);
	fputs("\nset grid ytics\nset border 3\nset tics nomirror\n"
	      "set key outside top center horizontal\nset tmargin 5\n"
	      "set bmargin 12\nset lmargin 22\nset offsets 0, 0, graph 0.15, graph 0.05\n", f);
	/* The band a change must leave to count: +-threshold. */
	fprintf(f, "set object 1 rectangle from graph 0, first %.17g to graph 1, first %.17g "
		   "fillcolor rgb '#eeeeee' fillstyle solid noborder behind\n",
		100 - r->opts.threshold_pct, 100 + r->opts.threshold_pct);
	fprintf(f, "set xrange [0.4:%zu.6]\n", r->n);
	fputs("set xtics rotate by 30 right (", f);
	for (i = 0; i < r->n; i++) {
		char *label = comparison_label(r, i);

		escape_gnuplot(f, label);
		fprintf(f, " %zu%s", i + 1, i + 1 < r->n ? ", " : "");
		free(label);
	}
	fputs(")\n", f);
	/* Change and verdict above each pair: the script's own strings.  A
	 * gain that came from fewer lock hand-offs is suspect, in amber: it
	 * is not "faster", whatever its interval says. */
	for (i = 0; i < r->n; i++) {
		const struct comparison *c = &r->cmp[i];
		bool suspect = comparison_suspect(c);
		const char *colour = suspect ? "#b86e00" :
				     c->st.verdict == VERDICT_SLOWER ? "#bb0000" :
				     c->st.verdict == VERDICT_FASTER ? "#007700" :
								     "#444444";
		char change[NUMFMT_LEN], *verdict;

		numfmt_pct(change, sizeof(change), c->st.change_pct);
		verdict = xasprintf("%s%s", verdict_names[c->st.verdict],
				    suspect ? " (suspect)" : "");
		fprintf(f, "set label %zu ", 2 * i + 1);
		escape_gnuplot(f, change);
		fprintf(f, " at %zu, graph 0.98 center textcolor rgb '%s'\n",
			i + 1, colour);
		fprintf(f, "set label %zu ", 2 * i + 2);
		escape_gnuplot(f, verdict);
		fprintf(f, " at %zu, graph 0.94 center font ',8' textcolor rgb '%s'\n",
			i + 1, colour);
		free(verdict);
	}
	fputs("plot ", f);
	escape_gnuplot(f, "compare.dat");
	fputs(" using ($1 - 0.12):2:3:4 with yerrorbars pt 7 ps 1.3 lc rgb '#4477aa' title ", f);
	escape_gnuplot(f, base);
	fputs(", \\\n  ", f);
	escape_gnuplot(f, "compare.dat");
	fputs(" using ($1 + 0.12):5:6:7 with yerrorbars pt 5 ps 1.3 lc rgb '#cc6677' title ", f);
	escape_gnuplot(f, cand);
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
