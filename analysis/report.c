/*
 * report.c - the three faces of an analysis: text for a reviewer (one
 * ministat-like block per configuration, the correlation table, a flag
 * summary), json for programs (docs/report-json.md) and csv for
 * spreadsheets.  Numbers are printed with "C" conventions only (no locale,
 * no clock), so a report is a pure function of the analysis.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/json.h"
#include "analysis/report.h"
#include "runner/util.h"

#define WIDTH 78

const char *const report_format_names[] = {
	[REPORT_TEXT] = "text", [REPORT_JSON] = "json", [REPORT_CSV] = "csv",
};

int report_format_parse(const char *name)
{
	int i;

	for (i = 0; i < REPORT_NFORMATS; i++)
		if (!strcmp(report_format_names[i], name))
			return i;
	return -1;
}

char *analysis_fmt(char *buf, size_t len, double v)
{
	static const char suffix[] = " kMGTPE";
	double s = v;
	size_t k = 0;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, "%sinf", v < 0 ? "-" : "");
		return buf;
	}
	if (fabs(v) < 1e4) {
		snprintf(buf, len, "%.4g", v);
		return buf;
	}
	/* 999.96k would print as 1000.0k: scale on the rounded value. */
	while (fabs(s) >= 999.95 && k < sizeof(suffix) - 2) {
		s /= 1000;
		k++;
	}
	snprintf(buf, len, "%.*f%c", fabs(s) >= 100 ? 1 : fabs(s) >= 10 ? 2 : 3,
		 s, suffix[k]);
	return buf;
}

/* ---- shared helpers ---- */

static const struct ds_config *cfg(const struct analysis *a, size_t c)
{
	return &a->d->configs[c];
}

static const char *mname(const struct analysis *a, int m)
{
	return m >= 0 ? a->d->metrics[m] : "";
}

struct totals {
	size_t planned, measured, warmup, failed, pending, flags;
};

static void totals(const struct analysis *a, struct totals *t)
{
	size_t c;

	memset(t, 0, sizeof(*t));
	t->planned = a->d->nruns;
	for (c = 0; c < a->nconfigs; c++) {
		t->measured += a->configs[c].measured;
		t->warmup += a->configs[c].warmup;
		t->failed += a->configs[c].failed;
		t->pending += a->configs[c].pending;
		t->flags += a->configs[c].nflags;
	}
}

/* The order flags are summarized in: the most consequential first. */
static const char *const flag_order[] = {
	"misleading-throughput", "noisy", "drift", "unfair", "outliers",
	"non-normal", "few-runs", "contention-coupled",
};

/* ---- text ---- */

/* Prints text word-wrapped at WIDTH, the first line after lead. */
static void wrap(FILE *f, const char *lead, int indent, const char *text)
{
	int col = fprintf(f, "%s", lead);
	const char *p = text;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (col > indent && col + 1 + (int)w > WIDTH) {
			col = fprintf(f, "\n%*s", indent, "") - 1;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", (int)w, p);
		p += w;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

static void text_header(FILE *f, const struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	char when[32] = "-", *host = xstrdup(""), *tmp;
	time_t t = (time_t)e->created_at;
	struct totals tt;
	struct tm tm;
	size_t i;

	if (e->created_at > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	totals(a, &tt);
	fprintf(f, "experiment %lld \"%s\"%s%s%s, %s\n", (long long)e->id,
		e->name ? e->name : "", e->label && *e->label ? " label \"" : "",
		e->label && *e->label ? e->label : "",
		e->label && *e->label ? "\"" : "", e->status ? e->status : "?");
	fprintf(f, "  seed %llu, order %s, created %s\n",
		(unsigned long long)e->seed, e->order ? e->order : "-", when);
	for (i = 0; i < e->nmeta; i++) {
		tmp = xasprintf("%s%s%s=%s", host, i ? ", " : "", e->meta[i].key,
				e->meta[i].value);
		free(host);
		host = tmp;
	}
	if (e->nmeta)
		wrap(f, "  host:", 4, host);
	free(host);
	fprintf(f, "  runs: %zu planned: %zu measured, %zu warm-up, %zu failed, "
		   "%zu not run\n", tt.planned, tt.measured, tt.warmup,
		tt.failed, tt.pending);
	if (tt.pending)
		fprintf(f, "  INCOMPLETE: %zu of %zu runs are missing; "
			   "`contend run --resume %lld` runs them\n",
			tt.pending, tt.planned, (long long)e->id);
}

static void text_methods(FILE *f, const struct analysis *a)
{
	const struct analysis_opts *o = &a->opts;
	char *m = xasprintf(
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

	wrap(f, "methods:", 4, m);
	free(m);
}

static const char *ci(char *b, size_t len, double lo, double hi)
{
	char l[24], h[24];

	if (isnan(lo) && isnan(hi))
		snprintf(b, len, "-");
	else
		snprintf(b, len, "[%s, %s]", analysis_fmt(l, sizeof(l), lo),
			 analysis_fmt(h, sizeof(h), hi));
	return b;
}

static int name_width(const struct analysis *a)
{
	size_t i;
	int w = 6;

	for (i = 0; i < a->d->nmetrics; i++)
		if ((int)strlen(a->d->metrics[i]) > w)
			w = (int)strlen(a->d->metrics[i]);
	return w;
}

/* The result a reader takes away: the median when normality failed. */
static void text_headline(FILE *f, const struct analysis *a,
			  const struct config_analysis *ca)
{
	const struct metric_summary *ms;
	char v[24], b[64];

	if (ca->primary < 0)
		return;
	ms = &ca->metrics[ca->primary];
	if (ms->s.n >= 8 && ms->s.k2_p < a->opts.alpha)
		fprintf(f, "  %s: median %s %s %s (%.1f%% distribution-free; "
			   "not normal), n %zu\n", mname(a, ms->metric),
			analysis_fmt(v, sizeof(v), ms->s.median),
			metric_unit(mname(a, ms->metric)),
			ci(b, sizeof(b), ms->s.median_ci_low, ms->s.median_ci_high),
			100 * ms->s.median_ci_level, ms->s.n);
	else
		fprintf(f, "  %s: %s %s %s (%s, %g%% CI), n %zu\n",
			mname(a, ms->metric), analysis_fmt(v, sizeof(v), ms->s.mean),
			metric_unit(mname(a, ms->metric)),
			ci(b, sizeof(b), ms->s.ci_low, ms->s.ci_high),
			ms->harmonic ? "harmonic mean" : "mean",
			100 * a->opts.confidence, ms->s.n);
}

/*
 * The kernel's contended locks of the runs in one line (runner/klock.h):
 * the mean a run, per operation, and the kind most of them were.
 */
static void text_klock(FILE *f, const struct analysis *a,
		       const struct config_analysis *ca)
{
	int m = dataset_metric(a->d, "klock_contended");
	int po = dataset_metric(a->d, "klock_contended_per_op");
	const char *top = NULL;
	double total, most = 0;
	char v[24], p[24];
	size_t i;

	if (m < 0 || !ca->metrics[m].s.n)
		return;
	total = ca->metrics[m].s.mean;
	for (i = 0; i < a->d->nmetrics; i++) {
		const char *name = a->d->metrics[i];

		if (strncmp(name, "klock_", 6) || (int)i == m || (int)i == po ||
		    !ca->metrics[i].s.n || ca->metrics[i].s.mean <= most)
			continue;
		most = ca->metrics[i].s.mean;
		top = name + 6;
	}
	fprintf(f, "  kernel locks: %s contended a run (mean)",
		analysis_fmt(v, sizeof(v), total));
	if (po >= 0 && ca->metrics[po].s.n)
		fprintf(f, ", %s per op",
			analysis_fmt(p, sizeof(p), ca->metrics[po].s.mean));
	if (top && total > 0)
		fprintf(f, ", %.0f%% %s", 100 * most / total, top);
	fputc('\n', f);
}

/* The configuration's profile = lock run: its top kernel locks by caller. */
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
			analysis_fmt(w, sizeof(w), p->wait_s),
			analysis_fmt(m, sizeof(m), p->max_wait_s), p->lock_type,
			p->caller);
	}
}

static void text_row(FILE *f, const struct analysis *a,
		     const struct metric_summary *ms, int w)
{
	char mean[24], med[24], sd[24], mn[24], mx[24], c1[64], c2[64], cv[16];

	if (isnan(ms->s.cv))
		snprintf(cv, sizeof(cv), "-");
	else
		snprintf(cv, sizeof(cv), "%.1f%%", 100 * ms->s.cv);
	fprintf(f, "  %-*s %3zu %8s%c %-19s %8s %-19s %8s %6s %8s %8s %3zu\n", w,
		mname(a, ms->metric), ms->s.n,
		analysis_fmt(mean, sizeof(mean), ms->s.mean),
		ms->harmonic ? 'h' : ' ',
		ci(c1, sizeof(c1), ms->s.ci_low, ms->s.ci_high),
		analysis_fmt(med, sizeof(med), ms->s.median),
		ci(c2, sizeof(c2), ms->s.median_ci_low, ms->s.median_ci_high),
		analysis_fmt(sd, sizeof(sd), ms->s.sd), cv,
		analysis_fmt(mn, sizeof(mn), ms->s.min),
		analysis_fmt(mx, sizeof(mx), ms->s.max), ms->s.noutliers);
}

static void text_table(FILE *f, const struct analysis *a,
		       const struct config_analysis *ca)
{
	int w = name_width(a);
	size_t m;

	fprintf(f, "  %-*s %3s %9s %-19s %8s %-19s %8s %6s %8s %8s %3s\n", w,
		"metric", "n", "mean", "CI of mean", "median", "CI of median",
		"sd", "cv", "min", "max", "out");
	for (m = 0; m < ca->nmetrics; m++)
		if (ca->metrics[m].s.n)
			text_row(f, a, &ca->metrics[m], w);
}

/* Every outlier of every metric, by run: counted, listed, kept. */
static void text_outliers(FILE *f, const struct analysis *a,
			  const struct config_analysis *ca)
{
	char *s = xstrdup(""), *t, v[24];
	size_t m, i;

	for (m = 0; m < ca->nmetrics; m++) {
		const struct metric_summary *ms = &ca->metrics[m];

		for (i = 0; i < ms->s.noutliers; i++) {
			size_t r = ms->outliers[i];

			t = xasprintf("%s%s%s%s seq %ld = %s", s,
				      *s && !i ? "; " : "", i ? ", " : "",
				      i ? "" : mname(a, ms->metric),
				      a->d->runs[r].seq,
				      analysis_fmt(v, sizeof(v),
						   dataset_value(a->d, r, ms->metric)));
			free(s);
			s = t;
		}
	}
	if (*s)
		wrap(f, "  outlier runs (kept):", 4, s);
	free(s);
}

static void text_fairness(FILE *f, const struct config_analysis *ca)
{
	if (isnan(ca->mean_jain))
		return;
	fprintf(f, "  fairness: Jain %.3f (mean over runs, %zu thread%s), "
		   "busiest thread %.1f%% of the work\n",
		ca->mean_jain, ca->threads, ca->threads == 1 ? "" : "s",
		100 * ca->max_share);
}

static void text_auto(FILE *f, const struct config_analysis *ca)
{
	if (!ca->is_auto)
		return;
	fprintf(f, "  repetitions = auto: %s after %zu measured runs: CI "
		   "half-width %.2f%% of the mean, target %.2f%% (rule: stop once "
		   "%d <= n runs reach it, or at %d)\n",
		ca->auto_stop, ca->measured, 100 * ca->auto_rel_hw,
		100 * ca->auto_precision, ca->auto_min, ca->auto_max);
}

static void text_flags(FILE *f, const struct config_analysis *ca)
{
	size_t i;

	for (i = 0; i < ca->nflags; i++) {
		char *lead = xasprintf("  ! %s:", ca->flags[i].name);

		wrap(f, lead, 4, ca->flags[i].message);
		free(lead);
	}
}

static void text_config(FILE *f, const struct analysis *a, size_t c)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	char *lead = xasprintf("config %zu [%s] %s:", c + 1, cf->section,
			       cf->workload);

	fputc('\n', f);
	wrap(f, lead, 4, cf->canon);
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
	text_table(f, a, ca);
	text_profile(f, cf);
	text_outliers(f, a, ca);
	text_fairness(f, ca);
	text_auto(f, ca);
	text_flags(f, ca);
}

static void text_correlations(FILE *f, const struct analysis *a)
{
	size_t i, w = 7;

	fputc('\n', f);
	if (!a->ncorr) {
		fprintf(f, "correlations: none (no section has 3 measured runs "
			   "with varying throughput and contention)\n");
		return;
	}
	for (i = 0; i < a->ncorr; i++)
		if (strlen(a->corr[i].section) > w)
			w = strlen(a->corr[i].section);
	fprintf(f, "correlations with throughput (measured runs; two-sided p):\n");
	fprintf(f, "  %-*s %-10s %-15s %4s %9s %8s %9s %8s\n", (int)w, "section",
		"runs of", "x", "n", "pearson r", "p", "spearman", "p");
	for (i = 0; i < a->ncorr; i++) {
		const struct corr_row *r = &a->corr[i];
		char of[32];

		if (r->config < 0)
			snprintf(of, sizeof(of), "all");
		else
			snprintf(of, sizeof(of), "config %ld", r->config + 1);
		fprintf(f, "  %-*s %-10s %-15s %4zu %+9.3f %8.2g %+9.3f %8.2g\n",
			(int)w, r->section, of, r->x, r->pearson.n, r->pearson.r,
			r->pearson.p, r->spearman.r, r->spearman.p);
	}
}

/* "2 (vs 1), 5": the configurations that carry flag name. */
static size_t flag_where(const struct analysis *a, const char *name,
			 char *b, size_t len)
{
	size_t c, i, n = 0, at = 0;

	b[0] = 0;
	for (c = 0; c < a->nconfigs; c++)
		for (i = 0; i < a->configs[c].nflags; i++) {
			const struct flag *fl = &a->configs[c].flags[i];
			int k;

			if (strcmp(fl->name, name))
				continue;
			if (fl->other_config >= 0)
				k = snprintf(b + at, len - at, "%s%zu (vs %ld)",
					     n ? ", " : "", c + 1,
					     fl->other_config + 1);
			else
				k = snprintf(b + at, len - at, "%s%zu",
					     n ? ", " : "", c + 1);
			n++;
			if (k > 0 && (size_t)k < len - at)
				at += (size_t)k;
		}
	return n;
}

static void text_summary(FILE *f, const struct analysis *a)
{
	struct totals t;
	char where[1024];
	size_t i, n;

	totals(a, &t);
	fputc('\n', f);
	if (!t.flags) {
		fprintf(f, "flags: none raised\n");
		return;
	}
	fprintf(f, "flags: %zu raised (see the configurations above; "
		   "USER-GUIDE.md \"Reading the report\")\n", t.flags);
	for (i = 0; i < ARRAY_SIZE(flag_order); i++) {
		char *lead;

		n = flag_where(a, flag_order[i], where, sizeof(where));
		if (!n)
			continue;
		lead = xasprintf("  %-22s %3zu  config%s", flag_order[i], n,
				 n > 1 ? "s" : "");
		wrap(f, lead, 33, where);
		free(lead);
	}
}

int report_text(FILE *f, const struct analysis *a)
{
	size_t c;

	text_header(f, a);
	text_methods(f, a);
	for (c = 0; c < a->nconfigs; c++)
		text_config(f, a, c);
	text_correlations(f, a);
	text_summary(f, a);
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

/* ---- json ---- */

static void json_experiment(struct json_writer *w, const struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	struct totals t;
	size_t i;

	totals(a, &t);
	json_open(w, "experiment", '{');
	json_int(w, "id", e->id);
	json_str(w, "uuid", e->uuid);
	json_str(w, "name", e->name);
	json_str(w, "label", e->label);
	json_str(w, "status", e->status);
	json_key(w, "seed");
	fprintf(w->f, "%llu", (unsigned long long)e->seed);
	json_str(w, "order", e->order);
	json_num(w, "confidence", a->opts.confidence);
	json_num(w, "created_at", e->created_at);
	json_num(w, "finished_at", e->finished_at > 0 ? e->finished_at : NAN);
	json_open(w, "host", '{');
	for (i = 0; i < e->nmeta; i++)
		json_str(w, e->meta[i].key, e->meta[i].value);
	json_close(w, '}');
	json_open(w, "runs", '{');
	json_int(w, "planned", (long long)t.planned);
	json_int(w, "measured", (long long)t.measured);
	json_int(w, "warmup", (long long)t.warmup);
	json_int(w, "failed", (long long)t.failed);
	json_int(w, "missing", (long long)t.pending);
	json_close(w, '}');
	json_close(w, '}');
}

static void json_methods(struct json_writer *w, const struct analysis *a)
{
	const struct analysis_opts *o = &a->opts;

	json_open(w, "methods", '{');
	json_num(w, "confidence", o->confidence);
	json_str(w, "mean_ci", "student-t");
	json_str(w, "median_ci", "binomial order statistics");
	json_str(w, "outliers", "modified z-score (MAD)");
	json_num(w, "outlier_threshold", STATS_OUTLIER_Z);
	json_str(w, "normality", "dagostino-k2");
	json_str(w, "fixed_work_mean", "harmonic");
	json_num(w, "alpha", o->alpha);
	json_num(w, "drift_alpha", o->drift_alpha);
	json_num(w, "power", o->power);
	json_num(w, "resolve_pct", o->resolve_pct);
	json_num(w, "handoff_drop", o->handoff_drop);
	json_num(w, "jain_min", o->jain_min);
	json_num(w, "max_share", o->max_share);
	json_int(w, "share_threads", (long long)o->share_threads);
	json_int(w, "min_runs", (long long)o->min_runs);
	json_close(w, '}');
}

static void json_metric(struct json_writer *w, const struct analysis *a,
			const struct metric_summary *ms)
{
	const struct summary *s = &ms->s;
	size_t i;

	json_open(w, mname(a, ms->metric), '{');
	json_str(w, "unit", metric_unit(mname(a, ms->metric)));
	json_int(w, "n", (long long)s->n);
	json_str(w, "mean_kind", ms->harmonic ? "harmonic" : "arithmetic");
	json_num(w, "mean", s->mean);
	json_num(w, "sd", s->sd);
	json_num(w, "cv", s->cv);
	json_num(w, "median", s->median);
	json_num(w, "min", s->min);
	json_num(w, "max", s->max);
	json_num(w, "ci_low", s->ci_low);
	json_num(w, "ci_high", s->ci_high);
	json_num(w, "median_ci_low", s->median_ci_low);
	json_num(w, "median_ci_high", s->median_ci_high);
	json_num(w, "median_ci_level", s->median_ci_level);
	json_num(w, "mad", s->mad);
	json_num(w, "skewness", s->skewness);
	json_num(w, "kurtosis", s->kurtosis);
	json_num(w, "k2", s->k2);
	json_num(w, "k2_p", s->k2_p);
	json_int(w, "outliers", (long long)s->noutliers);
	json_open(w, "outlier_runs", '[');
	for (i = 0; i < s->noutliers; i++) {
		size_t r = ms->outliers[i];

		json_open(w, NULL, '{');
		json_int(w, "run", a->d->runs[r].id);
		json_int(w, "seq", a->d->runs[r].seq);
		json_num(w, "value", dataset_value(a->d, r, ms->metric));
		json_close(w, '}');
	}
	json_close(w, ']');
	json_close(w, '}');
}

static void json_flag(struct json_writer *w, const struct analysis *a,
		      const struct flag *fl)
{
	size_t i;

	json_open(w, NULL, '{');
	json_str(w, "name", fl->name);
	if (fl->metric >= 0)
		json_str(w, "metric", mname(a, fl->metric));
	else
		json_num(w, "metric", NAN);
	if (fl->other_config >= 0)
		json_int(w, "other_config", cfg(a, (size_t)fl->other_config)->id);
	else
		json_num(w, "other_config", NAN);
	json_str(w, "message", fl->message);
	for (i = 0; i < fl->nnums; i++)
		json_num(w, fl->nums[i].key, fl->nums[i].value);
	json_close(w, '}');
}

static void json_config(struct json_writer *w, const struct analysis *a,
			size_t c)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	size_t i;

	json_open(w, NULL, '{');
	json_int(w, "id", cf->id);
	json_int(w, "index", (long long)c + 1);
	json_str(w, "workload", cf->workload);
	json_str(w, "section", cf->section);
	json_str(w, "canon", cf->canon);
	json_open(w, "params", '{');
	for (i = 0; i < cf->nparams; i++)
		json_str(w, cf->params[i].key, cf->params[i].value);
	json_close(w, '}');
	json_bool(w, "fixed_work", ca->fixed_work);
	json_open(w, "runs", '{');
	json_int(w, "measured", (long long)ca->measured);
	json_int(w, "warmup", (long long)ca->warmup);
	json_int(w, "failed", (long long)ca->failed);
	json_int(w, "pending", (long long)ca->pending);
	json_close(w, '}');
	if (ca->primary >= 0)
		json_str(w, "primary_metric", mname(a, ca->primary));
	else
		json_num(w, "primary_metric", NAN);
	json_open(w, "metrics", '{');
	for (i = 0; i < ca->nmetrics; i++)
		if (ca->metrics[i].s.n)
			json_metric(w, a, &ca->metrics[i]);
	json_close(w, '}');
	json_open(w, "fairness", '{');
	json_num(w, "mean_jain", ca->mean_jain);
	json_num(w, "max_share", ca->max_share);
	json_int(w, "threads", (long long)ca->threads);
	json_close(w, '}');
	if (ca->is_auto) {
		json_open(w, "auto", '{');
		json_str(w, "stopped", ca->auto_stop);
		json_num(w, "rel_halfwidth", ca->auto_rel_hw);
		json_num(w, "precision", ca->auto_precision);
		json_int(w, "min_repetitions", ca->auto_min);
		json_int(w, "max_repetitions", ca->auto_max);
		json_close(w, '}');
	}
	json_open(w, "flags", '[');
	for (i = 0; i < ca->nflags; i++)
		json_flag(w, a, &ca->flags[i]);
	json_close(w, ']');
	json_close(w, '}');
}

static void json_correlations(struct json_writer *w, const struct analysis *a)
{
	size_t i;

	json_open(w, "correlations", '[');
	for (i = 0; i < a->ncorr; i++) {
		const struct corr_row *r = &a->corr[i];

		json_open(w, NULL, '{');
		json_str(w, "section", r->section);
		if (r->config >= 0)
			json_int(w, "config", cfg(a, (size_t)r->config)->id);
		else
			json_num(w, "config", NAN);
		json_str(w, "x", r->x);
		json_str(w, "y", r->y);
		json_int(w, "n", (long long)r->pearson.n);
		json_num(w, "pearson_r", r->pearson.r);
		json_num(w, "pearson_p", r->pearson.p);
		json_num(w, "spearman_rho", r->spearman.r);
		json_num(w, "spearman_p", r->spearman.p);
		json_close(w, '}');
	}
	json_close(w, ']');
}

static void json_flag_counts(struct json_writer *w, const struct analysis *a)
{
	char where[1024];
	size_t i;

	json_open(w, "flag_counts", '{');
	for (i = 0; i < ARRAY_SIZE(flag_order); i++)
		json_int(w, flag_order[i], (long long)flag_where(a, flag_order[i],
							    where, sizeof(where)));
	json_close(w, '}');
}

int report_json(FILE *f, const struct analysis *a)
{
	struct json_writer w = { .f = f };
	size_t c;

	json_open(&w, NULL, '{');
	json_int(&w, "schema", REPORT_JSON_VERSION);
	json_experiment(&w, a);
	json_methods(&w, a);
	json_open(&w, "configs", '[');
	for (c = 0; c < a->nconfigs; c++)
		json_config(&w, a, c);
	json_close(&w, ']');
	json_correlations(&w, a);
	json_flag_counts(&w, a);
	json_close(&w, '}');
	fputc('\n', f);
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

/* ---- csv ---- */

/* RFC 4180: quote a field holding a comma, quote or line break. */
static void csv_field(FILE *f, const char *s, bool last)
{
	const char *p;

	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (p = s; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g,", v);
	else
		fputc(',', f);
}

static const char *const csv_columns[] = {
	"experiment", "config", "workload", "section", "params", "metric",
	"unit", "n", "mean_kind", "mean", "sd", "cv", "median", "min", "max",
	"ci_low", "ci_high", "median_ci_low", "median_ci_high", "outliers",
	"measured", "warmup", "failed", "pending", "flags",
};

/* The names of the flags of configuration ca that concern metric m. */
static char *csv_flags(const struct config_analysis *ca, int m)
{
	char *s = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < ca->nflags; i++) {
		if (ca->flags[i].metric != m && ca->flags[i].metric >= 0)
			continue;
		t = xasprintf("%s%s%s", s, *s ? ";" : "", ca->flags[i].name);
		free(s);
		s = t;
	}
	return s;
}

static void csv_row(FILE *f, const struct analysis *a, size_t c,
		    const struct metric_summary *ms)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	const struct summary *s = &ms->s;
	char *flags = csv_flags(ca, ms->metric);
	const double stats[] = {
		s->mean, s->sd, s->cv, s->median, s->min, s->max, s->ci_low,
		s->ci_high, s->median_ci_low, s->median_ci_high,
	};
	size_t i;

	fprintf(f, "%lld,%lld,", (long long)a->d->exp.id, (long long)cf->id);
	csv_field(f, cf->workload, false);
	csv_field(f, cf->section, false);
	csv_field(f, cf->canon, false);
	csv_field(f, mname(a, ms->metric), false);
	csv_field(f, metric_unit(mname(a, ms->metric)), false);
	fprintf(f, "%zu,%s,", s->n, ms->harmonic ? "harmonic" : "arithmetic");
	for (i = 0; i < ARRAY_SIZE(stats); i++)
		csv_num(f, s->n ? stats[i] : NAN);
	fprintf(f, "%zu,%zu,%zu,%zu,%zu,", s->noutliers, ca->measured,
		ca->warmup, ca->failed, ca->pending);
	csv_field(f, flags, true);
	free(flags);
}

int report_csv(FILE *f, const struct analysis *a)
{
	/* A configuration without measured runs: one row, metric empty. */
	struct metric_summary none = { .metric = -1 };
	size_t c, m, i;

	for (i = 0; i < ARRAY_SIZE(csv_columns); i++)
		csv_field(f, csv_columns[i], i + 1 == ARRAY_SIZE(csv_columns));
	for (c = 0; c < a->nconfigs; c++) {
		size_t rows = 0;

		for (m = 0; m < a->configs[c].nmetrics; m++)
			if (a->configs[c].metrics[m].s.n) {
				csv_row(f, a, c, &a->configs[c].metrics[m]);
				rows++;
			}
		if (!rows)
			csv_row(f, a, c, &none);
	}
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

int report_write(FILE *f, const struct analysis *a, enum report_format fmt)
{
	static int (*const writers[])(FILE *, const struct analysis *) = {
		[REPORT_TEXT] = report_text,
		[REPORT_JSON] = report_json,
		[REPORT_CSV] = report_csv,
	};

	if (fmt < 0 || fmt >= REPORT_NFORMATS)
		return error("unknown report format %d", (int)fmt);
	return writers[fmt](f, a);
}
