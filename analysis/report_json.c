/*
 * report_json.c - the report for programs (docs/report-json.md): the
 * experiment, the methods, per configuration its metrics, flags and
 * profile, the correlations and the count of each flag.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "analysis/flagtab.h"
#include "lib/json.h"
#include "lib/util.h"

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

	if (n) {
		json_open(w, "klock_top", '[');
		for (i = 0; i < n; i++) {
			json_open(w, NULL, '{');
			json_int(w, "rank", (long long)i + 1);
			json_str(w, "kind", t[i].kind);
			json_str(w, "caller", t[i].caller);
			if (t[i].lock)
				json_str(w, "lock", t[i].lock);
			else
				json_num(w, "lock", NAN);
			json_int(w, "runs", (long long)t[i].nruns);
			json_mean_ci(w, "contentions", t[i].contentions,
				     t[i].contentions_lo, t[i].contentions_hi);
			json_mean_ci(w, "wait_s", t[i].wait_s, t[i].wait_lo,
				     t[i].wait_hi);
			json_close(w, '}');
		}
		json_close(w, ']');
	}
	free(t);
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
	if (ca->primary_name) {
		enum direction d = analysis_direction(a->d, ca->config,
						      ca->primary_name);

		json_str(w, "primary", ca->primary_name);
		if (d == DIR_UNKNOWN)
			json_num(w, "direction", NAN);
		else
			json_str(w, "direction",
				 d == DIR_HIGHER ? "higher" : "lower");
	} else {
		json_num(w, "primary", NAN);
		json_num(w, "direction", NAN);
	}
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

static void json_flag_counts(struct json_writer *w, const struct analysis *a)
{
	const struct flag_def *d;
	char where[1024];
	size_t i;

	json_open(w, "flag_counts", '{');
	for (i = 0; (d = flag_nth(FV_REPORT, i)); i++)
		json_int(w, d->name, (long long)flag_where(a, d->name, where,
							    sizeof(where)));
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
	report_observer_json(&w, a);
	json_flag_counts(&w, a);
	json_close(&w, '}');
	fputc('\n', f);
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}
