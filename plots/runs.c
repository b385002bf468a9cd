/*
 * runs.c - the figures drawn from the runs themselves: per section the
 * contention scatter (a point per run), and for the experiment the run
 * order, the distribution of each configuration's runs and the threads'
 * fairness, one panel per section so that workloads of different scales
 * never share an axis.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "analysis/report.h"
#include "plots/plot_impl.h"
#include "lib/util.h"

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
		if (pl_section_has(p, s, contention_xs[i].metric))
			return &contention_xs[i];
	return NULL;
}

/* x and y of run r, both finite, for a measured run; else false. */
static bool contention_point(const struct plotter *p,
			     const struct contention_x *cx, const char *metric,
			     size_t r, double *x, double *y)
{
	*x = cx->scale * cx->get(p->d, r);
	*y = pl_run_value(p, r, metric);
	return analysis_measured(p->d, r) && isfinite(*x) && isfinite(*y);
}

int plot_contention(struct plotter *p, size_t si)
{
	const struct section *s = &p->sections[si];
	const char *metric = pl_section_metric(p, s);
	const struct contention_x *cx = contention_x(p, s);
	char *base = xasprintf("contention-%zu", si + 1), *caption;
	FILE *dat = NULL, *gp = NULL;
	size_t c, r, i, points = 0;
	double x, y;
	int ret = -1;

	if (!metric || !cx) {
		pl_add_skip(p, base, "section %s: %s", s->name, !metric ?
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
		pl_add_skip(p, base, "section %s: no run has both %s and %s",
			 s->name, cx->what, metric);
		free(base);
		return 0;
	}
	if (pl_files_open(p, base, &dat, &gp) < 0)
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
	pl_script_head(p, gp, base, "contention", 600);
	/* No contention at all is a finding: the axis stays, offsets widen it. */
	fputs("set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n"
	      "set xrange [0:*]\nset xlabel ", gp);
	escape_gnuplot(gp, cx->label);
	fputs("\n" SI_FORMAT, gp);
	if (cx->si)
		fputs("set format x '%.1s%c'\n", gp);
	pl_set_ylabel(gp, metric);
	/* The section names the key; its entries only what varies. */
	fputs("set key title ", gp);
	escape_gnuplot(gp, s->name);
	fputs(" left\nset key below Left reverse\nplot \\\n", gp);
	for (c = 0; c < s->n; c++) {
		char *panel = pl_panel_label(p, s, s->cfg[c]);
		char *label = xasprintf("%s%s", pl_config_flagged(p, s->cfg[c])
					? "(!) " : "", panel);

		free(panel);
		fputs("  ", gp);
		plot_file_name(gp, base, "dat");
		fprintf(gp, " index %zu using 1:2 with points pt %d ps 1.2 title ",
			c, pl_config_flagged(p, s->cfg[c]) ? 6 : 7);
		escape_gnuplot(gp, label);
		fputs(c + 1 < s->n ? ", \\\n" : "", gp);
		free(label);
	}
	if (pl_any_flagged(p, s))
		pl_flag_keyentry(gp, true);
	/* The correlation in the key, below the plot: never over a point,
	 * never a band of empty page beside it. */
	for (i = 0; i < p->a->ncorr; i++) {
		const struct corr_row *cr = &p->a->corr[i];

		if (cr->config == -1 && !strcmp(cr->section, s->name) &&
		    !strcmp(cr->x, cx->corr) && !strcmp(cr->y, metric))
			fprintf(gp, ", \\\n  keyentry with points pt 1 lc rgb 'white' "
				    "title sprintf('over %%d runs: Pearson r = %%.3f "
				    "(p = %%.2g), Spearman rho = %%.3f (p = %%.2g)', "
				    "%zu, %.17g, %.17g, %.17g, %.17g)", cr->pearson.n,
				cr->pearson.r, cr->pearson.p, cr->spearman.r,
				cr->spearman.p);
	}
	fputc('\n', gp);
	caption = xasprintf("%s against %s, every measured run: %s", metric,
			    cx->label, s->name);
	pl_add_file(p, base, caption);
	free(caption);
	ret = 0;
out:
	if (pl_files_close(p, base, dat, gp))
		ret = -1;
	free(base);
	return ret;
}


/* ---- one panel per section: order and distribution ---- */

int plot_order(struct plotter *p)
{
	const struct dataset *d = p->d;
	size_t *which = xcalloc(p->nsections + 1, sizeof(*which));
	const char **metric = xcalloc(p->nsections + 1, sizeof(*metric));
	size_t n = pl_drawable(p, which, metric), k, c, r, block = 0, block0 = 0;
	size_t keys;
	FILE *dat = NULL, *gp = NULL;
	bool warmups = false;
	int ret = -1;

	for (r = 0; r < p->d->nruns; r++)
		warmups |= p->d->runs[r].warmup && p->d->runs[r].status == RUN_OK;
	if (!n) {
		pl_add_skip(p, "order", "no configuration has a measured value");
		ret = 0;
		goto out;
	}
	if (pl_files_open(p, "order", &dat, &gp) < 0)
		goto out;
	fputs("# seq metric warmup (one block per configuration, by section)\n", dat);
	pl_script_head(p, gp, "order", "run order", pl_grid_height(n));
	pl_panel_grid(gp, n, "run order: the metric of every ok run against its sequence number");
	/* The key below the xlabel, with room for a row per entry of the
	 * fullest panel (a narrow panel stacks them): never over the axis. */
	for (k = 0, keys = 0; k < n; k++)
		if (p->sections[which[k]].n + warmups > keys)
			keys = p->sections[which[k]].n + warmups;
	fprintf(gp, "set xlabel 'run sequence number (order of execution)'\n"
		    "set key below horizontal Left reverse title "
		    "'measured runs, a line per configuration' left\n"
		    "set bmargin %zu\n", keys < 10 ? 6 + keys : 16);
	for (k = 0; k < n; k++) {
		const struct section *s = &p->sections[which[k]];
		bool first = true;

		pl_panel_title(gp, s, metric[k]);
		pl_set_ylabel(gp, metric[k]);
		pl_y_format(gp, pl_section_max(p, s, metric[k]));
		fputs("plot \\\n", gp);
		for (c = 0; c < s->n; c++) {
			const struct ds_config *cf = &d->configs[s->cfg[c]];
			char *label;

			if (!pl_has_metric(p, s->cfg[c], metric[k]))
				continue;
			for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
				if (d->runs[r].status != RUN_OK)
					continue;
				fprintf(dat, "%ld", d->runs[r].seq);
				pl_put_num(dat, pl_run_value(p, r, metric[k]));
				fprintf(dat, " %d\n", d->runs[r].warmup);
			}
			fputs("\n\n", dat);
			label = pl_panel_label(p, s, s->cfg[c]);
			if (pl_config_flagged(p, s->cfg[c])) {
				char *t = xasprintf("(!) %s", label);

				free(label);
				label = t;
			}
			fprintf(gp, "%s  'order.dat' index %zu using 1:($3 > 0 ? 1/0 : $2) "
				    "with linespoints pt %d title ", first ? "" : ", \\\n",
				block, pl_config_flagged(p, s->cfg[c]) ? 6 : 7);
			escape_gnuplot(gp, label);
			free(label);
			first = false;
			block++;
		}
		/* The warm-ups, after the configurations' lines, under one name. */
		if (warmups)
			fprintf(gp, ", \\\n  for [i=%zu:%zu] 'order.dat' index i using "
				    "1:($3 > 0 ? $2 : 1/0) with points pt 2 ps 1.5 "
				    "lc rgb 'black' title (i == %zu ? 'warm-up runs (x, "
				    "no line: not analysed)' : '')",
				block0, block - 1, block0);
		if (pl_any_flagged(p, s))
			pl_flag_keyentry(gp, true);
		block0 = block;
		fputc('\n', gp);
	}
	fputs("unset multiplot\n", gp);
	pl_add_file(p, "order", "every run's primary metric in the order the "
		    "runs ran (drift, warm-ups)");
	ret = 0;
out:
	if (pl_files_close(p, "order", dat, gp))
		ret = -1;
	free(which);
	free(metric);
	return ret;
}

/*
 * xtics naming every configuration, flagged ones marked with (!), and
 * margins that fit the longest name, rotated (no band of empty page
 * under short ones).
 */
static void config_xtics(const struct plotter *p, FILE *gp)
{
	size_t c, longest = 0;
	bool upward = p->d->nconfigs > 8;

	/* more than 8 names: straight up, where slanted ones overlap */
	fprintf(gp, "set xtics rotate by %d right (", upward ? 90 : 30);
	for (c = 0; c < p->d->nconfigs; c++) {
		char *full = pl_config_title(p, &p->sections[p->section_of[c]], c);

		if (strlen(full) > longest)
			longest = strlen(full);
		escape_gnuplot(gp, full);
		fprintf(gp, " %zu%s", c + 1, c + 1 < p->d->nconfigs ? ", " : "");
		free(full);
	}
	/* A name of L characters at 30 degrees: about L/5 lines down and
	 * L/2 characters left of its configuration (the key's three rows
	 * above the title); L in tens, at most 40 (names are cut there). */
	longest = (longest + 9) / 10 * 10;
	if (longest > 40)
		longest = 40;
	/* upwards: 2 lines for 5 characters, nothing to the left */
	fprintf(gp, ")\nset xrange [0.4:%zu.6]\nset bmargin %zu\nset lmargin %zu\n"
		    "set key outside top center horizontal\nset tmargin 7\n",
		p->d->nconfigs, upward ? 2 + longest * 2 / 5 : 3 + longest / 5,
		!upward && longest / 2 > 12 ? longest / 2 : 12);
}

/*
 * One panel: per configuration of s that has metric, every run as a dot
 * (jittered) and beside them the mean with its interval and the median;
 * box plots would need more runs than a quick experiment has (gnuplot
 * draws none below four).
 */
static void distribution_panel(const struct plotter *p, FILE *dat, FILE *gp,
			       const struct section *s, const char *metric,
			       const char *mean_title, size_t *block)
{
	const struct dataset *d = p->d;
	size_t c, r, k = 0;
	bool unbounded;

	pl_panel_title(gp, s, metric);
	pl_set_ylabel(gp, metric);
	pl_y_format(gp, pl_section_max(p, s, metric));
	fputs("set xtics rotate by 20 right (", gp);
	for (c = 0; c < s->n; c++) {
		char *label;

		if (!pl_has_metric(p, s->cfg[c], metric))
			continue;
		label = pl_panel_label(p, s, s->cfg[c]);
		fprintf(gp, "%s", k ? ", " : "");
		escape_gnuplot(gp, label);
		fprintf(gp, " %zu", ++k);
		free(label);
	}
	fprintf(gp, ")\nset xrange [0.4:%zu.8]\nunset label\n", k);
	/* Where the mean has no interval, the words say so by its mark. */
	for (c = 0, k = 0; c < s->n; c++) {
		const struct metric_summary *ms = analysis_metric(p->a, s->cfg[c], metric);

		if (!pl_has_metric(p, s->cfg[c], metric))
			continue;
		k++;
		if (isnan(ms->s.ci_low) || isnan(ms->s.ci_high))
			fprintf(gp, "set label 'no interval' at %zu.35, %.17g "
				    "offset 1, 0 font ',8'\n", k, ms->s.mean);
	}
	fputs("plot \\\n", gp);
	for (c = 0, k = 0; c < s->n; c++) {
		const struct ds_config *cf = &d->configs[s->cfg[c]];
		const struct metric_summary *ms = analysis_metric(p->a, s->cfg[c], metric);

		if (!pl_has_metric(p, s->cfg[c], metric))
			continue;
		for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
			/* Deterministic jitter from the sequence number. */
			double j = ((double)((d->runs[r].seq * 2654435761u) % 1000) /
				    1000.0 - 0.5) * 0.3;
			double v = pl_run_value(p, r, metric);

			if (analysis_measured(d, r) && isfinite(v))
				fprintf(dat, "%zu %.17g %.3f\n", k + 1, v, j);
		}
		/* An interval with a bound missing (a harmonic mean's, its
		 * upper bound unbounded) is no bar: never half of one. */
		unbounded = isnan(ms->s.ci_low) || isnan(ms->s.ci_high);
		fprintf(dat, "\n\n%zu", k + 1);
		pl_put_num(dat, ms->s.mean);
		pl_put_num(dat, unbounded ? ms->s.mean : ms->s.ci_low);
		pl_put_num(dat, unbounded ? ms->s.mean : ms->s.ci_high);
		pl_put_num(dat, ms->s.median);
		fputs("\n\n\n", dat);
		fprintf(gp, "%s  'distribution.dat' index %zu using ($1 + $3):2 with points "
			    "pt 7 ps 0.7 lc rgb '#222222' %s, \\\n"
			    "  'distribution.dat' index %zu using ($1 + 0.35):2:3:4 with "
			    "yerrorbars pt 5 ps 1 lw 2 lc rgb '#4477aa' %s, \\\n"
			    "  'distribution.dat' index %zu using ($1 + 0.35):5:(0.12) with "
			    "xerrorbars pt -1 lw 2 lc rgb '#cc6677' %s",
			k ? ", \\\n" : "", *block, k ? "notitle" : "title 'runs'",
			*block + 1, k ? "notitle" : mean_title,
			*block + 1, k ? "notitle" : "title 'median'");
		*block += 2;
		k++;
	}
	fputc('\n', gp);
}

int plot_distribution(struct plotter *p)
{
	size_t *which = xcalloc(p->nsections + 1, sizeof(*which));
	const char **metric = xcalloc(p->nsections + 1, sizeof(*metric));
	size_t n = pl_drawable(p, which, metric), k, c, block = 0;
	FILE *dat = NULL, *gp = NULL;
	bool harmonic = false;
	char *title;
	int ret = -1;

	if (!n) {
		pl_add_skip(p, "distribution", "no configuration has a measured value");
		ret = 0;
		goto out;
	}
	if (pl_files_open(p, "distribution", &dat, &gp) < 0)
		goto out;
	fputs("# position metric jitter (one block per configuration, by section)\n",
	      dat);
	pl_script_head(p, gp, "distribution", "distribution", pl_grid_height(n) + 80);
	pl_panel_grid(gp, n, "distribution of the measured runs, by configuration");
	fputs("set key below horizontal\nset bmargin 7\n", gp);
	/* A mean of fixed work is harmonic (total work over total time):
	 * the key says so, as the report's "h" does. */
	for (k = 0; k < n; k++)
		for (c = 0; c < p->sections[which[k]].n; c++) {
			const struct metric_summary *ms = analysis_metric(p->a,
				p->sections[which[k]].cfg[c], metric[k]);

			harmonic |= ms && ms->s.n && ms->harmonic;
		}
	title = xasprintf("title '%s and its %g%% CI'", harmonic ?
			  "mean (harmonic: fixed work)" : "mean",
			  100 * p->a->opts.confidence);
	for (k = 0; k < n; k++) {
		/* One legend says what dots, bars and ticks are. */
		if (k == 1)
			fputs("unset key\n", gp);
		distribution_panel(p, dat, gp, &p->sections[which[k]], metric[k],
				   title, &block);
	}
	free(title);
	fputs("unset multiplot\n", gp);
	pl_add_file(p, "distribution", "the distribution of the measured "
		    "runs, by configuration");
	ret = 0;
out:
	if (pl_files_close(p, "distribution", dat, gp))
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

/*
 * What a configuration's fairness panel says in words instead of bars:
 * one thread has nothing to share; threads that all did their fair share
 * (within 1% of it) show no variation; runs without per-thread counts
 * have none to show.  sep between the phrases ("\\n", or " " for a
 * label written upwards).  NULL: draw the bars.
 */
static char *fairness_words(const double *share, size_t n, bool runs,
			    const char *sep)
{
	if (!n)
		return runs ? xasprintf("no per-thread%scounts", sep) : NULL;
	if (n == 1)
		return xasprintf("one thread:%snothing to share", sep);
	if ((share[0] - share[n - 1]) * (double)n < 0.01)
		return xasprintf("%zu threads, each%sits fair share 1/%zu:%s"
				 "no variation", n, sep, n, sep);
	return NULL;
}

/*
 * Each thread's share of its configuration's operations over the fair
 * share (1 = fair), busiest first: a bar each, or the words of
 * fairness_words.
 */
int plot_fairness(struct plotter *p)
{
	const struct dataset *d = p->d;
	FILE *dat = NULL, *gp = NULL;
	size_t c, t, any = 0, bars = 0, label = 0;
	bool upward = d->nconfigs > 8;
	double top = 1.25;
	int ret = -1;

	for (c = 0; c < d->nconfigs; c++)
		if (d->configs[c].nruns && d->nthread_ops)
			any = 1;
	if (!any)
		return 0;
	if (pl_files_open(p, "fairness", &dat, &gp) < 0)
		goto out;
	/* upward names take 18 lines: a taller figure keeps the bars' room */
	pl_script_head(p, gp, "fairness", "fairness", upward ? 800 : 650);
	config_xtics(p, gp);
	fputs("# x share/fair_share width (threads sorted busiest first)\n", dat);
	for (c = 0; c < d->nconfigs; c++) {
		double *share;
		size_t n = fairness_shares(d, c, &share);
		double width = n ? 0.8 / (double)n : 0;
		char *words = fairness_words(share, n, d->configs[c].nruns > 0,
					     upward ? " " : "\\n");

		/* many configurations: the words go upwards in their slot,
		 * where lines side by side would run into each other */
		if (words && upward)
			fprintf(gp, "set label %zu \"%s\" at %zu, graph 0.03 left "
				"rotate by 90\n", ++label, words, c + 1);
		else if (words)
			fprintf(gp, "set label %zu \"%s\" at %zu, graph 0.5 center\n",
				++label, words, c + 1);
		if (words)
			n = 0;
		for (t = 0; t < n; t++) {
			fprintf(dat, "%.6f %.17g %.6f\n",
				(double)(c + 1) - 0.4 + width * ((double)t + 0.5),
				share[t] * (double)n, width);
			if (share[t] * (double)n * 1.1 > top)
				top = share[t] * (double)n * 1.1;
			bars++;
		}
		free(words);
		free(share);
	}
	fprintf(gp, "set style fill solid 0.7 border rgb 'white'\n"
		    "set yrange [0:%.3g]\nset format y '%%g'\n"
		    "set ylabel \"a thread's share / the fair share (1 = fair)\"\n"
		    "set arrow from graph 0, first 1 to graph 1, first 1 nohead "
		    "dt 2 lw 1.5 lc rgb 'black'\nplot ", top);
	fputs(bars ? "'fairness.dat' using 1:2:3 with boxes lc rgb '#cc6677' "
		     "title 'each thread, busiest first (mean over runs)'"
		   : "1/0 notitle", gp);
	fputs(", \\\n  keyentry with lines dt 2 lw 1.5 lc rgb 'black' "
	      "title 'fair share: every thread the same'", gp);
	if (pl_any_flagged(p, NULL))
		pl_flag_keyentry(gp, false);
	fputc('\n', gp);
	pl_add_file(p, "fairness", "each thread's share of the operations "
		    "over the fair share (fairness), by configuration");
	ret = 0;
out:
	if (pl_files_close(p, "fairness", dat, gp))
		ret = -1;
	return ret;
}
