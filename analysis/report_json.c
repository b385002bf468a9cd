/*
 * report_json.c - the report for programs: JSON (docs/report-json.md: the
 * experiment, the methods, per configuration its metrics, flags and
 * profile, the correlations and the count of each flag) and CSV (a header
 * row, then one RFC 4180 row per configuration and metric); and
 * report_write, which picks the format.
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "analysis/flagtab.h"
#include "lib/csv.h"
#include "lib/json.h"
#include "lib/util.h"

/* A metric's statistics as JSON and CSV name them (CSV: the first 10). */
#define STAT(x) { #x, offsetof(struct summary, x) }
static const struct { const char *key; size_t off; } stat_fields[] = {
	STAT(mean), STAT(sd), STAT(cv), STAT(median), STAT(min), STAT(max),
	STAT(ci_low), STAT(ci_high), STAT(median_ci_low), STAT(median_ci_high),
	STAT(median_ci_level), STAT(mad), STAT(skewness), STAT(kurtosis),
	STAT(k2), STAT(k2_p),
};
#define NCSV_STATS 10

static double stat(const struct summary *s, size_t i)
{
	double v;

	memcpy(&v, (const char *)s + stat_fields[i].off, sizeof(v));
	return v;
}

static void str_or_null(struct json_writer *w, const char *key, const char *s)
{
	if (s)
		json_str(w, key, s);
	else
		json_null(w, key);
}

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
	json_str(w, "pair_throughput", "welch");
	json_str(w, "pair_rates", "ratio of means, log-scale delta-method "
		 "interval (stats_ratio)");
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
	for (i = 0; i < ARRAY_SIZE(stat_fields); i++)
		json_num(w, stat_fields[i].key, stat(s, i));
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
	str_or_null(w, "metric", fl->metric >= 0 ? mname(a, fl->metric) : NULL);
	json_num(w, "other_config", fl->other_config >= 0 ?
		 (double)cfg(a, (size_t)fl->other_config)->id : NAN);
	json_str(w, "message", fl->message);
	for (i = 0; i < fl->nnums; i++)
		json_num(w, fl->nums[i].key, fl->nums[i].value);
	json_close(w, '}');
}

/* An older profile = lock run's top kernel locks by caller, ranked; only
 * for a configuration that has one (as the text and HTML reports). */
static void json_profile(struct json_writer *w, const struct ds_config *cf)
{
	size_t i;

	if (!cf->nprofile)
		return;
	json_open(w, "profile", '[');
	for (i = 0; i < cf->nprofile; i++) {
		const struct profile_row *p = &cf->profile[i];

		json_open(w, NULL, '{');
		json_int(w, "rank", (long long)i + 1);
		json_str(w, "caller", p->caller);
		json_str(w, "lock_type", p->lock_type);
		json_int(w, "contended", (long long)p->contended);
		json_num(w, "wait_s", p->wait_s);
		json_num(w, "max_wait_s", p->max_wait_s);
		json_close(w, '}');
	}
	json_close(w, ']');
}

/* A mean per run and its interval. */
static void json_mean_ci(struct json_writer *w, const char *key, double mean,
			 double lo, double hi)
{
	json_open(w, key, '{');
	json_num(w, "mean", mean);
	json_num(w, "ci_low", lo);
	json_num(w, "ci_high", hi);
	json_close(w, '}');
}

/* The kernel locks the runner's BPF program timed, by mean wait per run;
 * only for a configuration whose runs have them (docs/KLOCK.md). */
static void json_kwait_top(struct json_writer *w, const struct analysis *a,
			   size_t c)
{
	struct kwait_top *t;
	size_t n = analysis_kwait_top(a, c, REPORT_KWAIT_TOP, &t), i;

	if (n)
		json_open(w, "klock_top", '[');
	for (i = 0; i < n; i++) {
		json_open(w, NULL, '{');
		json_int(w, "rank", (long long)i + 1);
		json_str(w, "kind", t[i].kind);
		json_str(w, "caller", t[i].caller);
		str_or_null(w, "lock", t[i].lock);
		json_int(w, "runs", (long long)t[i].nruns);
		json_mean_ci(w, "contentions", t[i].contentions,
			     t[i].contentions_lo, t[i].contentions_hi);
		json_mean_ci(w, "wait_s", t[i].wait_s, t[i].wait_lo, t[i].wait_hi);
		json_close(w, '}');
	}
	if (n)
		json_close(w, ']');
	free(t);
}

static void json_config(struct json_writer *w, const struct analysis *a,
			size_t c)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	enum direction d;
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
	str_or_null(w, "primary_metric",
		    ca->primary >= 0 ? mname(a, ca->primary) : NULL);
	str_or_null(w, "primary", ca->primary_name);
	d = ca->primary_name ? analysis_direction(a->d, ca->config,
						  ca->primary_name)
			     : DIR_UNKNOWN;
	str_or_null(w, "direction", d == DIR_UNKNOWN ? NULL
				    : d == DIR_HIGHER ? "higher" : "lower");
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
	json_profile(w, cf);
	json_kwait_top(w, a, c);
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
		json_num(w, "config", r->config >= 0 ?
			 (double)cfg(a, (size_t)r->config)->id : NAN);
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
	const struct flag_def *d;
	size_t i, c, k, n;

	json_open(w, "flag_counts", '{');
	for (i = 0; (d = flag_nth(FV_REPORT, i)); i++) {
		for (n = c = 0; c < a->nconfigs; c++)
			for (k = 0; k < a->configs[c].nflags; k++)
				n += !strcmp(a->configs[c].flags[k].name, d->name);
		json_int(w, d->name, (long long)n);
	}
	json_close(w, '}');
}

static int report_json(FILE *f, const struct analysis *a)
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
	report_observer_json(&w, a);
	json_flag_counts(&w, a);
	json_close(&w, '}');
	fputc('\n', f);
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

/* ---- CSV ---- */

/* A field, then the separator or the line end. */
static void csv_field(FILE *f, const char *s, bool last)
{
	csv_write_field(f, s);
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
	char *s = xstrdup("");
	size_t i;

	for (i = 0; i < ca->nflags; i++)
		if (ca->flags[i].metric == m || ca->flags[i].metric < 0)
			s = report_cat(s, ";", "%s", ca->flags[i].name);
	return s;
}

static void csv_row(FILE *f, const struct analysis *a, size_t c,
		    const struct metric_summary *ms)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	const struct summary *s = &ms->s;
	char *flags = csv_flags(ca, ms->metric);
	size_t i;

	fprintf(f, "%lld,%lld,", (long long)a->d->exp.id, (long long)cf->id);
	csv_field(f, cf->workload, false);
	csv_field(f, cf->section, false);
	csv_field(f, cf->canon, false);
	csv_field(f, mname(a, ms->metric), false);
	csv_field(f, metric_unit(mname(a, ms->metric)), false);
	fprintf(f, "%zu,%s,", s->n, ms->harmonic ? "harmonic" : "arithmetic");
	for (i = 0; i < NCSV_STATS; i++)
		csv_num(f, s->n ? stat(s, i) : NAN);
	fprintf(f, "%zu,%zu,%zu,%zu,%zu,", s->noutliers, ca->measured,
		ca->warmup, ca->failed, ca->pending);
	csv_field(f, flags, true);
	free(flags);
}

static int report_csv(FILE *f, const struct analysis *a)
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

static const struct {
	const char *name;
	int (*write)(FILE *, const struct analysis *);
} formats[] = {
	[REPORT_TEXT] = { "text", report_text },
	[REPORT_JSON] = { "json", report_json },
	[REPORT_CSV] = { "csv", report_csv },
	[REPORT_MAIL] = { "mail", report_mail },
};

int report_format_parse(const char *name)
{
	int i;

	for (i = 0; i < REPORT_NFORMATS; i++)
		if (!strcmp(formats[i].name, name))
			return i;
	return -1;
}

int report_write(FILE *f, const struct analysis *a, enum report_format fmt)
{
	if (fmt < 0 || fmt >= REPORT_NFORMATS)
		return error("unknown report format %d", (int)fmt);
	return formats[fmt].write(f, a);
}
