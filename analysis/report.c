/*
 * report.c - the text report for a reviewer (report.h): the answer first,
 * one summary row per configuration and the flags (report_table.c);
 * then, with --verbose, a ministat-like block per configuration and the
 * correlation table.  Numbers go through lib/numfmt and every name
 * through lib/escape.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "analysis/flagtab.h"
#include "analysis/analysis.h"
#include "lib/escape.h"
#include "lib/hint.h"
#include "lib/numfmt.h"
#include "db/contract.h"
#include "lib/util.h"
#include "lib/wrap.h"

/* ---- text ---- */

/* Appends a line to the header's list. */
static void header_add(char ***lines, size_t *n, char *line)
{
	*lines = xrealloc(*lines, (*n + 1) * sizeof(**lines));
	(*lines)[(*n)++] = line;
}

size_t report_header_lines(const struct analysis *a,
			   const struct report_view *view, char ***out)
{
	const struct experiment_row *e = &a->d->exp;
	const char *host = experiment_meta(e, MK_HOSTNAME);
	const char *kernel = experiment_meta(e, MK_KERNEL_RELEASE);
	const char *ncpus = experiment_meta(e, MK_NCPUS);
	const char *affinity = experiment_meta(e, MK_AFFINITY);
	const char *instruments = experiment_meta(e, MK_KERNEL_INSTRUMENTS);
	char when[32] = "-", *line;
	time_t t = (time_t)e->created_at;
	struct totals tt;
	struct tm tm;
	size_t n = 0;

	*out = NULL;
	if (e->created_at > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	totals(a, &tt);
	header_add(out, &n, xasprintf("experiment %lld \"%s\"%s%s%s, %s",
		(long long)e->id, e->name ? e->name : "",
		e->label && *e->label ? " label \"" : "",
		e->label && *e->label ? e->label : "",
		e->label && *e->label ? "\"" : "", e->status ? e->status : "?"));
	header_add(out, &n, xasprintf("%s, kernel %s%s%s%s%s%s; created %s, "
		"seed %llu, order %s", host ? host : "unknown host",
		kernel ? kernel : "unknown", ncpus ? ", " : "",
		ncpus ? ncpus : "", ncpus ? " CPUs" : "",
		affinity ? ", affinity " : "", affinity ? affinity : "",
		when, (unsigned long long)e->seed, e->order ? e->order : "-"));
	if (instruments)
		header_add(out, &n, xasprintf("kernel instruments: %s",
					      instruments));
	line = instrument_active(e);
	if (line) {
		/* instrument.c: tracing on, or changed during it */
		header_add(out, &n, xasprintf("kernel tracing: %s", line));
		free(line);
	}
	header_add(out, &n, xasprintf("runs: %zu planned: %zu measured, %zu "
		"warm-up, %zu failed, %zu not run", tt.planned, tt.measured,
		tt.warmup, tt.failed, tt.pending));
	if (tt.pending) {
		char *args = xasprintf("run --resume %lld", (long long)e->id);
		char *h = report_hint(view, args);

		header_add(out, &n, xasprintf("INCOMPLETE: %zu of %zu runs are "
			"missing; %s runs them", tt.pending, tt.planned, h));
		free(h);
		free(args);
	}
	return n;
}

/* The experiment line: which, how far it got, on what, and the runs;
 * every line after the first indented. */
static void text_header(FILE *f, const struct analysis *a,
			const struct report_view *view)
{
	char **lines;
	size_t n = report_header_lines(a, view, &lines), i;

	for (i = 0; i < n; i++) {
		/* The INCOMPLETE line's hint, escaped already, is copied and
		 * run whole: never wrapped (e2e_hints). */
		if (!strncmp(lines[i], "INCOMPLETE: ", 12))
			fprintf(f, "  %s\n", lines[i]);
		else
			report_wrap(f, i ? "  " : "", 4, "%s", lines[i]);
		free(lines[i]);
	}
	free(lines);
}

/* ---- failed runs, with their reasons ---- */

static void text_failures(FILE *f, const struct analysis *a)
{
	size_t c, i, k, shown = 0;

	for (c = 0; c < a->nconfigs; c++) {
		struct report_failure *fail;
		size_t n = report_failures(a->d, c, &fail);
		char *varies, *lead, *seqs;

		if (!n)
			continue; /* fail is NULL */
		if (!shown++)
			fprintf(f, "\nfailed runs:\n");
		varies = report_varying(a->d, c, VARY_FULL);
		lead = xasprintf("  config %zu [%s]%s%s:", c + 1,
				 cfg(a, c)->section, *varies ? " " : "", varies);
		report_wrap(f, lead, 4, "%zu of %zu runs failed",
			    a->configs[c].failed, cfg(a, c)->nruns);
		free(lead);
		free(varies);
		for (i = 0; i < n; i++) {
			seqs = xstrdup("");
			for (k = 0; k < fail[i].count && k < REPORT_FAILURE_SEQS; k++)
				seqs = report_cat(seqs, ", ", "%ld", fail[i].seq[k]);
			report_wrap(f, "    - ", 6, "%zu x %s (seq %s%s)",
				    fail[i].count, fail[i].reason, seqs,
				    fail[i].count > REPORT_FAILURE_SEQS ? ", ..." : "");
			free(seqs);
		}
		report_failures_free(fail, n);
	}
}

static void text_methods(FILE *f, const struct analysis *a)
{
	const struct analysis_opts *o = &a->opts;

	report_wrap(f, "methods:", 4,
		"mean with its Student-t %g%% interval; median with a "
		"distribution-free %g%% interval from order statistics "
		"(binomial; the coverage achieved is shown); outliers: modified "
		"z-score > %.1f (MAD), listed and never dropped; normality: "
		"D'Agostino K^2 (n >= 8); under fixed work (jobs) rates are "
		"harmonic means, total work / total time (marked h); flags "
		"judge each configuration's primary metric at alpha %g (drift "
		"%g) and compare configurations of a sweep that differ in one "
		"parameter (Welch t); a hand-off drop of %g%% or more is "
		"misleading, except across a load parameter (independent "
		"locks, work outside the lock), where it is only noted.",
		100 * o->confidence, 100 * o->confidence, STATS_OUTLIER_Z,
		o->alpha, o->drift_alpha, 100 * o->handoff_drop);
}

/* The result a reader takes away: the median when normality failed. */
static void text_headline(FILE *f, const struct analysis *a,
			  const struct config_analysis *ca)
{
	const struct metric_summary *ms;
	char b[NUMFMT_CI_LEN];
	enum direction d;

	if (ca->primary_name && strcmp(ca->primary_name, "throughput")) {
		d = analysis_direction(a->d, ca->config, ca->primary_name);
		fprintf(f, "  primary metric: %s (%s; docs/INI.md \"primary\")\n",
			ca->primary_name, d == DIR_HIGHER ? "higher is better"
			: d == DIR_LOWER ? "lower is better"
			: "no direction declared");
	}
	if (ca->primary < 0 || !ca->metrics[ca->primary].s.n) {
		if (ca->primary_name)
			fprintf(f, "  no run reported the primary metric %s\n",
				ca->primary_name);
		return;
	}
	ms = &ca->metrics[ca->primary];
	if (report_non_normal(a, ms))
		fprintf(f, "  %s: median %s %s (%.1f%% distribution-free; "
			   "not normal), n %zu\n", mname(a, ms->metric),
			numfmt_ci(b, sizeof(b), ms->s.median, ms->s.median_ci_low,
				  ms->s.median_ci_high),
			metric_unit(mname(a, ms->metric)),
			100 * ms->s.median_ci_level, ms->s.n);
	else
		fprintf(f, "  %s: %s %s (%s, %g%% CI), n %zu\n",
			mname(a, ms->metric),
			numfmt_ci(b, sizeof(b), ms->s.mean, ms->s.ci_low,
				  ms->s.ci_high),
			metric_unit(mname(a, ms->metric)),
			ms->harmonic ? "harmonic mean" : "mean",
			100 * a->opts.confidence, ms->s.n);
}

/*
 * The kernel's contended locks of the runs in one line (runner/kinstr/count.h):
 * the mean a run, per operation, and the kind most of them were.
 */
static void text_klock(FILE *f, const struct analysis *a,
		       const struct config_analysis *ca)
{
	/* the kinds' counts (docs/WORKLOADS.md, "Kernel lock contention") */
	static const char *const kinds[] = {
		"klock_spin", "klock_mutex", "klock_rwsem_read",
		"klock_rwsem_write", "klock_rwlock_read",
		"klock_rwlock_write", "klock_rt",
	};
	int m = dataset_metric(a->d, "klock_contended");
	int po = dataset_metric(a->d, "klock_contended_per_op");
	const char *spin = experiment_meta(&a->d->exp, MK_KERNEL_SPIN_VISIBLE);
	int wm = dataset_metric(a->d, "klock_wait_s");
	const char *top = NULL;
	double total, most = 0;
	char v[24], p[24];
	size_t i;

	if (m < 0 || !ca->metrics[m].s.n)
		return;
	total = ca->metrics[m].s.mean;
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		int k = dataset_metric(a->d, kinds[i]);

		if (k < 0 || !ca->metrics[k].s.n ||
		    ca->metrics[k].s.mean <= most)
			continue;
		most = ca->metrics[k].s.mean;
		top = kinds[i] + 6;
	}
	fprintf(f, "  kernel locks: %s contended a run (mean)",
		numfmt(v, sizeof(v), total));
	if (wm >= 0 && ca->metrics[wm].s.n)
		fprintf(f, ", %s s waited",
			numfmt(p, sizeof(p), ca->metrics[wm].s.mean));
	if (po >= 0 && ca->metrics[po].s.n)
		fprintf(f, ", %s per op",
			numfmt(p, sizeof(p), ca->metrics[po].s.mean));
	if (top && total > 0)
		fprintf(f, ", %.0f%% %s", 100 * most / total, top);
	fputc('\n', f);
	/* A 0 where the kernel could not have reported a spinlock is no
	 * evidence of no contention (runner/kinstr/count.h kcount_spin_visible). */
	if (spin && !strncmp(spin, "no", 2))
		report_wrap(f, "    ", 4, "spinlock contention not visible on "
			    "this host (%s, docs/KLOCK.md); the count is of "
			    "sleeping locks and queued spinlocks", spin);
}

/* An older experiment's profile = lock run (removed in schema 5): its top
 * kernel locks by caller. */
static void text_profile(FILE *f, const struct ds_config *cf)
{
	size_t i;

	if (!cf->nprofile)
		return;
	fprintf(f, "  kernel locks by caller (one unmeasured run under perf "
		   "lock contention):\n"
		   "    %10s %10s %10s  %-12s %s\n", "contended", "wait_s",
		"max_wait_s", "type", "caller");
	for (i = 0; i < cf->nprofile; i++) {
		const struct profile_row *p = &cf->profile[i];
		char w[24], m[24];

		fprintf(f, "    %10llu %10s %10s  %-12s %s\n",
			(unsigned long long)p->contended,
			numfmt(w, sizeof(w), p->wait_s),
			numfmt(m, sizeof(m), p->max_wait_s), p->lock_type,
			p->caller);
	}
}

/* "m [lo, hi]" into b (80 bytes), each number formatted alone. */
static const char *mean_ci(char *b, double m, double lo, double hi)
{
	char x[3][24];

	snprintf(b, 80, "%s [%s, %s]", numfmt(x[0], 24, m),
		 numfmt(x[1], 24, lo), numfmt(x[2], 24, hi));
	return b;
}

/* The kernel locks the runner's BPF program timed (docs/KLOCK.md). */
static void text_kwait_top(FILE *f, const struct analysis *a, size_t c)
{
	struct kwait_top *t;
	size_t n = analysis_kwait_top(a, c, REPORT_KWAIT_TOP, &t), i;

	if (n)
		fprintf(f, "  kernel locks by wait (per run, mean [%g%% CI] "
			   "over %zu runs):\n"
			   "    %-34s %-28s %-12s %s\n",
			100 * a->opts.confidence, t[0].nruns, "wait_s",
			"contentions", "kind", "caller (lock)");
	for (i = 0; i < n; i++) {
		char w[80], cn[80];
		/* names from the database: escaped for the terminal */
		char *kind = report_esc(t[i].kind), *caller = report_esc(t[i].caller);
		char *lock = t[i].lock ? report_esc(t[i].lock) : NULL;

		fprintf(f, "    %-34s %-28s %-12s %s%s%s%s\n",
			mean_ci(w, t[i].wait_s, t[i].wait_lo, t[i].wait_hi),
			mean_ci(cn, t[i].contentions, t[i].contentions_lo,
				t[i].contentions_hi),
			kind, caller, lock ? " (" : "", lock ? lock : "",
			lock ? ")" : "");
		free(kind);
		free(caller);
		free(lock);
	}
	free(t);
}

enum { M_NAME, M_N, M_MEAN, M_MEDIAN, M_SD, M_CV, M_MIN, M_MAX, M_OUT,
       M_NCOLS };

static const char *const m_head[M_NCOLS] = {
	"metric", "n", "mean [CI]", "median [CI]", "sd", "cv", "min", "max",
	"out",
};

/* The cells of one metric's row: intervals share the mean's digits. */
static void metric_cells(const struct analysis *a,
			 const struct metric_summary *ms, char **cell)
{
	char b[NUMFMT_CI_LEN], c[NUMFMT_CI_LEN];
	const struct summary *s = &ms->s;

	cell[M_NAME] = report_esc(mname(a, ms->metric));
	cell[M_N] = xasprintf("%zu", s->n);
	cell[M_MEAN] = xasprintf("%s%s", numfmt_ci(b, sizeof(b), s->mean,
						   s->ci_low, s->ci_high),
				 ms->harmonic ? " h" : "");
	cell[M_MEDIAN] = xstrdup(numfmt_ci(b, sizeof(b), s->median,
					   s->median_ci_low, s->median_ci_high));
	cell[M_SD] = xstrdup(numfmt(b, sizeof(b), s->sd));
	cell[M_CV] = isnan(s->cv) ? xstrdup(NUMFMT_MISSING)
				  : xasprintf("%s%%", numfmt_sig(c, sizeof(c),
								 100 * s->cv, 2));
	cell[M_MIN] = xstrdup(numfmt(b, sizeof(b), s->min));
	cell[M_MAX] = xstrdup(numfmt(b, sizeof(b), s->max));
	cell[M_OUT] = xasprintf("%zu", s->noutliers);
}

/* Is metric name one of the comma-separated list (NULL: every one)? */
static bool chosen(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	if (!list)
		return true;
	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

/* What is left out, in this order, while the table is wider than
 * TABLE_WIDTH (JSON and CSV have it all): the median's interval (the
 * median kept), then columns. */
static const struct {
	const char *what;
	int col[2];             /* M_NCOLS: none */
} m_drop[] = {
	{ "the median's CI", { M_NCOLS, M_NCOLS } },
	{ "min and max", { M_MIN, M_MAX } },
	{ "sd", { M_SD, M_NCOLS } },
	{ "the median", { M_MEDIAN, M_NCOLS } },
};

/* The table's width in columns; w: each column's. */
static int table_width(char *(*cells)[M_NCOLS], size_t n,
		       const char *const *head, const bool *shown, int *w)
{
	int width = 1;
	size_t m, k;

	for (k = 0; k < M_NCOLS; k++) {
		w[k] = columns(head[k]);
		for (m = 0; m < n; m++)
			w[k] = MAX(w[k], columns(cells[m][k]));
		if (shown[k])
			width += 1 + w[k];
	}
	return width;
}

static void text_table(FILE *f, const struct analysis *a,
		       const struct config_analysis *ca, const char *metrics)
{
	char *(*cells)[M_NCOLS] = xcalloc(ca->nmetrics ? ca->nmetrics : 1,
					  sizeof(*cells));
	const char *head[M_NCOLS];
	bool median_ci = false, shown[M_NCOLS];
	int w[M_NCOLS];
	size_t m, k, n = 0, d;
	char *left = xstrdup(""), *t;

	memcpy(head, m_head, sizeof(head));
	memset(shown, true, sizeof(shown));
	for (m = 0; m < ca->nmetrics; m++) {
		const struct summary *sm = &ca->metrics[m].s;

		if (!sm->n || !chosen(metrics, mname(a, (int)m)))
			continue;
		metric_cells(a, &ca->metrics[m], cells[n++]);
		median_ci |= !isnan(sm->median_ci_low);
	}
	if (!median_ci)
		head[M_MEDIAN] = "median";
	for (d = 0; table_width(cells, n, head, shown, w) > TABLE_WIDTH &&
		    d < ARRAY_SIZE(m_drop); d++) {
		if (m_drop[d].col[0] == M_NCOLS && !median_ci)
			continue;
		left = report_cat(left, ", ", "%s", m_drop[d].what);
		for (k = 0; k < 2; k++)
			if (m_drop[d].col[k] < M_NCOLS)
				shown[m_drop[d].col[k]] = false;
		if (m_drop[d].col[0] < M_NCOLS)
			continue;
		head[M_MEDIAN] = "median";
		for (m = 0; m < n; m++)
			if ((t = strstr(cells[m][M_MEDIAN], " [")))
				*t = '\0';
	}
	for (m = 0; m <= n; m++) {
		for (k = 0; k < M_NCOLS; k++) {
			if (!shown[k])
				continue;
			fputs(k ? " " : "  ", f);
			pad(f, m ? cells[m - 1][k] : head[k], w[k],
			    k == M_N || k >= M_SD);
		}
		fputc('\n', f);
	}
	if (*left) {
		char lead[40];

		snprintf(lead, sizeof(lead), "  left out to fit %d columns:",
			 TABLE_WIDTH);
		report_wrap(f, lead, 4, "%s (in --format json)", left);
	}
	free(left);
	for (m = 0; m < n; m++)
		for (k = 0; k < M_NCOLS; k++)
			free(cells[m][k]);
	free(cells);
}

/* Every outlier of every metric, by run: counted, listed, kept. */
static void text_outliers(FILE *f, const struct analysis *a,
			  const struct config_analysis *ca)
{
	char *s = xstrdup(""), v[24];
	size_t m, i;

	for (m = 0; m < ca->nmetrics; m++) {
		const struct metric_summary *ms = &ca->metrics[m];

		for (i = 0; i < ms->s.noutliers; i++) {
			size_t r = ms->outliers[i];

			s = report_cat(s, i ? ", " : "; ", "%s seq %ld = %s",
				       i ? "" : mname(a, ms->metric),
				       a->d->runs[r].seq,
				       numfmt(v, sizeof(v),
						    dataset_value(a->d, r, ms->metric)));
		}
	}
	if (*s)
		report_wrap(f, "  outlier runs (kept):", 4, "%s", s);
	free(s);
}

/* The flags' names: their messages are in the summary, once. */
static void text_flags(FILE *f, const struct config_analysis *ca)
{
	char *names = report_flag_names(ca, ", ", false);

	if (*names)
		report_wrap(f, "  flags:", 4, "%s (under \"flags\" above)", names);
	free(names);
}

static void text_config(FILE *f, const struct analysis *a, size_t c,
			const char *metrics)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	char *lead = xasprintf("config %zu [%s] %s:", c + 1, cf->section,
			       cf->workload);

	fputc('\n', f);
	report_wrap(f, lead, 4, "%s", cf->canon);
	free(lead);
	fprintf(f, "  runs: %zu measured, %zu warm-up, %zu failed, %zu not run\n",
		ca->measured, ca->warmup, ca->failed, ca->pending);
	if (!ca->measured) {
		fprintf(f, "  no measured runs\n");
		text_flags(f, ca);
		return;
	}
	text_headline(f, a, ca);
	text_klock(f, a, ca);
	text_table(f, a, ca, metrics);
	text_profile(f, cf);
	text_kwait_top(f, a, c);
	text_outliers(f, a, ca);
	if (!isnan(ca->mean_jain))
		report_wrap(f, "  fairness:", 4, "Jain %.3f (mean over runs, %zu "
			    "thread%s), busiest thread %.1f%% of the work",
			    ca->mean_jain, ca->threads,
			    ca->threads == 1 ? "" : "s", 100 * ca->max_share);
	if (ca->is_auto)
		report_wrap(f, "  repetitions = auto:", 4, "%s after %zu measured "
			    "runs: CI half-width %.2f%% of the mean, target "
			    "%.2f%% (rule: stop once %d <= n runs reach it, or "
			    "at %d)", ca->auto_stop, ca->measured,
			    100 * ca->auto_rel_hw, 100 * ca->auto_precision,
			    ca->auto_min, ca->auto_max);
	text_flags(f, ca);
}

/* The correlations' columns after the section's: "  " and the section
 * (at most what is left of TABLE_WIDTH) before them. */
#define CORR_COLS 64

static void text_correlations(FILE *f, const struct analysis *a)
{
	int w = 7;
	size_t i;

	fputc('\n', f);
	if (!a->ncorr) {
		fprintf(f, "correlations: none (no section has 3 measured runs "
			   "with varying throughput and contention)\n");
		return;
	}
	for (i = 0; i < a->ncorr; i++)
		w = MAX(w, columns(a->corr[i].section));
	w = w < TABLE_WIDTH - 2 - CORR_COLS ? w : TABLE_WIDTH - 2 - CORR_COLS;
	fprintf(f, "correlations with throughput (measured runs; two-sided p):\n");
	fprintf(f, "  %-*s %-9s %-15s %4s %7s %7s %8s %7s\n", w, "section",
		"runs of", "x", "n", "pearson", "p", "spearman", "p");
	for (i = 0; i < a->ncorr; i++) {
		const struct corr_row *r = &a->corr[i];
		char of[32], *sec = report_esc(r->section);

		if (r->config < 0)
			snprintf(of, sizeof(of), "all");
		else
			snprintf(of, sizeof(of), "config %ld", r->config + 1);
		cut(sec, w);
		fputs("  ", f);
		pad(f, sec, w, false);
		fprintf(f, " %-9s %-15s %4zu %+7.3f %7.2g %+8.3f %7.2g\n", of,
			r->x, r->pearson.n, r->pearson.r, r->pearson.p,
			r->spearman.r, r->spearman.p);
		free(sec);
	}
}

int report_text_view(FILE *f, const struct analysis *a,
		     const struct report_view *view)
{
	bool details = view->verbose || view->metrics;
	size_t c;

	if (view->host)
		return report_host_text(f, a);
	text_header(f, a, view);
	report_text_summary(f, a);
	report_observer_text(f, a);
	report_flag_messages(f, a, !details);
	text_failures(f, a);
	if (details) {
		for (c = 0; c < a->nconfigs; c++)
			text_config(f, a, c, view->metrics);
		text_correlations(f, a);
	} else {
		char *what = view->what ? hint_word(view->what)
					: xasprintf("%lld", (long long)a->d->exp.id);
		char *args = xasprintf("report %s --verbose", what);
		char *h = report_hint(view, args);

		fprintf(f, "\nevery flag in full, per-metric tables, outliers, "
			   "fairness, correlations\nand methods:\n  %s\n", h);
		free(h);
		free(args);
		free(what);
	}
	report_host_summary(f, a, view);
	if (details) {
		fputc('\n', f);
		text_methods(f, a);
	}
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

int report_text(FILE *f, const struct analysis *a)
{
	static const struct report_view plain = { 0 };

	return report_text_view(f, a, &plain);
}
