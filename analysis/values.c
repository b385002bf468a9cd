/*
 * values.c - what every analysis file reads (analysis.h): whether a run
 * is measured, its rates and fairness, a configuration's measured values,
 * a metric's primary and direction as stored (db/contract.h), a flag
 * added with its numbers, why a `repetitions = auto` configuration
 * stopped (lib/stoprule.h's rule on the stored runs and settings), and
 * the one model of runs over experiments.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "db/contract.h"
#include "lib/stoprule.h"
#include "lib/util.h"

bool analysis_measured(const struct dataset *d, size_t r)
{
	return !d->runs[r].warmup && d->runs[r].status == RUN_OK &&
	       !d->runs[r].excluded;
}

double analysis_throughput(const struct dataset *d, size_t r)
{
	return dataset_value(d, r, dataset_metric(d, "throughput"));
}

double analysis_contention_rate(const struct dataset *d, size_t r)
{
	return dataset_value(d, r, dataset_metric(d, "contention_rate"));
}

double analysis_handoff_rate(const struct dataset *d, size_t r)
{
	double rate = dataset_value(d, r, dataset_metric(d, "handoff_rate"));
	double h, t;

	if (!isnan(rate))
		return rate;
	h = dataset_value(d, r, dataset_metric(d, "handoffs"));
	t = dataset_value(d, r, dataset_metric(d, "elapsed_s"));
	return t > 0 ? h / t : NAN;
}

double analysis_contended_rate(const struct dataset *d, size_t r)
{
	return analysis_throughput(d, r) * analysis_contention_rate(d, r);
}

double analysis_klock_rate(const struct dataset *d, size_t r)
{
	double n = dataset_value(d, r, dataset_metric(d, "klock_contended"));
	double t = dataset_value(d, r, dataset_metric(d, "elapsed_s"));

	return t > 0 ? n / t : NAN;
}

double analysis_klock_per_op(const struct dataset *d, size_t r)
{
	return dataset_value(d, r, dataset_metric(d, "klock_contended_per_op"));
}

double analysis_jain(const struct dataset *d, size_t r)
{
	const struct ds_run *run = &d->runs[r];

	if (!run->nthreads)
		return NAN;
	return stats_jain(d->thread_ops + run->thread0, run->nthreads);
}

size_t analysis_collect(const struct dataset *d, size_t c, int m,
			double (*get)(const struct dataset *, size_t),
			double *x, size_t *runs)
{
	const struct ds_config *cf = &d->configs[c];
	size_t r, n = 0;

	for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
		double v;

		if (!analysis_measured(d, r))
			continue;
		v = get ? get(d, r) : dataset_value(d, r, m);
		if (isnan(v))
			continue;
		x[n] = v;
		if (runs)
			runs[n] = r;
		n++;
	}
	return n;
}

size_t analysis_values(const struct dataset *d, size_t c, int m,
		       double **out)
{
	*out = xmalloc(d->configs[c].nruns * sizeof(**out));
	return analysis_collect(d, c, m, NULL, *out, NULL);
}

size_t analysis_values_of(const struct dataset *d, size_t c,
			  double (*get)(const struct dataset *, size_t),
			  double **out)
{
	*out = xmalloc(d->configs[c].nruns * sizeof(**out));
	return analysis_collect(d, c, -1, get, *out, NULL);
}

const struct metric_summary *analysis_metric(const struct analysis *a,
					     size_t c, const char *name)
{
	int m = dataset_metric(a->d, name);

	if (m < 0 || c >= a->nconfigs)
		return NULL;
	return &a->configs[c].metrics[m];
}

const char *analysis_declared_primary(const struct dataset *d, size_t c)
{
	return contract_get(&d->exp, CK_PRIMARY, d->configs[c].section, NULL);
}

enum direction analysis_direction(const struct dataset *d, size_t c,
				  const char *name)
{
	const char *v = contract_get(&d->exp, CK_DIRECTION,
				     d->configs[c].section, name);

	if (v && !strcmp(v, CV_HIGHER))
		return DIR_HIGHER;
	if (v && !strcmp(v, CV_LOWER))
		return DIR_LOWER;
	return metric_direction(name);
}

struct flag *analysis_flag_add(struct config_analysis *ca, const char *name,
			       int metric, long other, const char *fmt, ...)
{
	struct flag *f;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	ca->flags = xrealloc(ca->flags, (ca->nflags + 1) * sizeof(*ca->flags));
	f = &ca->flags[ca->nflags++];
	*f = (struct flag){ .message = msg, .metric = metric,
			    .other_config = other };
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

void flag_num(struct flag *f, const char *key, double value)
{
	if (f->nnums >= FLAG_MAX_NUMS)
		return;
	f->nums[f->nnums].key = key;
	f->nums[f->nnums++].value = value;
}

/*
 * The rule the runner stored for section: true with *rule when it is an
 * auto section's and its settings read as the runner checked them
 * (precision in (0, 1), counts of at least 2, min <= max).
 */
static bool stored_rule(const struct experiment_row *e, const char *section,
			double confidence, struct stop_rule *rule)
{
	const char *rep = contract_get(e, CK_REPETITIONS, section, NULL);
	const char *prec = contract_get(e, CK_AUTO_PRECISION, section, NULL);
	const char *lo = contract_get(e, CK_AUTO_MIN, section, NULL);
	const char *hi = contract_get(e, CK_AUTO_MAX, section, NULL);
	long long min, max;

	if (!rep || strcmp(rep, CV_AUTO) || !prec || !lo || !hi ||
	    parse_double(prec, &rule->precision) || parse_ll(lo, &min) ||
	    parse_ll(hi, &max) ||
	    !(rule->precision > 0 && rule->precision < 1) || min < 2 ||
	    max < min || max > INT_MAX)
		return false;
	rule->min_repetitions = (int)min;
	rule->max_repetitions = (int)max;
	rule->confidence = confidence;
	return true;
}

/* ---- the report's statement ---- */

static const char *const stop_reasons[] = {
	[PLAN_PRECISION] = "precision reached",
	[PLAN_CAP] = "cap reached (max_repetitions) before the precision",
};

static void auto_config(struct analysis *a, size_t c,
			const struct stop_rule *rule)
{
	struct config_analysis *ca = &a->configs[c];
	int m = ca->primary; /* what the runner watched, as it stored it */
	double *x = NULL, rel = NAN;
	size_t n = m < 0 ? 0 : analysis_values(a->d, c, m, &x);
	int planned = (int)(ca->measured + ca->failed + ca->pending);
	enum plan_stop s = stop_rule_decide(x, n, planned, rule, &rel);

	ca->is_auto = true;
	ca->auto_stop = s != PLAN_CONTINUE ? stop_reasons[s]
			: ca->pending ? "unfinished (runs still planned)"
				      : "stopped before the rule was met";
	ca->auto_rel_hw = rel;
	ca->auto_precision = rule->precision;
	ca->auto_min = rule->min_repetitions;
	ca->auto_max = rule->max_repetitions;
	free(x);
}

void analysis_auto(struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	/* The rule ran at the experiment's confidence, whatever the
	 * report's. */
	double confidence = e->confidence > 0 && e->confidence < 1
				    ? e->confidence : a->opts.confidence;
	struct stop_rule rule;
	size_t c;

	for (c = 0; c < a->nconfigs; c++) {
		const char *section = a->d->configs[c].section;

		if (stored_rule(e, section, confidence, &rule))
			auto_config(a, c, &rule);
	}
}

/* ---- series: the one model of runs (analysis.h) ---- */

/* A configuration, or a series, under its key (workload, canon). */
struct series_key {
	const char *workload, *canon;
	size_t at;              /* place over the sets, or the series' index */
	struct series_member m;
};

/* By (workload, canon) alone. */
static int name_cmp(const void *pa, const void *pb)
{
	const struct series_key *a = pa, *b = pb;
	int k = strcmp(a->workload, b->workload);

	return k ? k : strcmp(a->canon, b->canon);
}

static int key_cmp(const void *pa, const void *pb)
{
	const struct series_key *a = pa, *b = pb;
	int k = name_cmp(a, b);

	return k ? k : (a->at > b->at) - (a->at < b->at);
}

static int first_cmp(const void *pa, const void *pb)
{
	const struct series *a = pa, *b = pb;

	return (a->first > b->first) - (a->first < b->first);
}

void series_build(const struct dataset *sets, size_t nsets,
		  struct series_list *l)
{
	size_t total = 0, i, j, c, at = 0;
	struct series_key *k;

	for (i = 0; i < nsets; i++)
		total += sets[i].nconfigs;
	/* every configuration's key, sorted by key, then place */
	k = xcalloc(total + 1, sizeof(*k));
	for (i = 0; i < nsets; i++)
		for (c = 0; c < sets[i].nconfigs; c++, at++)
			k[at] = (struct series_key){ sets[i].configs[c].workload,
						     sets[i].configs[c].canon,
						     at, { i, c } };
	qsort(k, total, sizeof(*k), key_cmp);
	memset(l, 0, sizeof(*l));
	l->s = xcalloc(total + 1, sizeof(*l->s));
	for (i = 0; i < total; i = j) {
		struct series *s = &l->s[l->n++];

		for (j = i + 1; j < total && !name_cmp(&k[i], &k[j]); j++)
			;
		s->workload = k[i].workload;
		s->canon = k[i].canon;
		s->section = sets[k[i].m.set].configs[k[i].m.config].section;
		s->first = k[i].at;
		s->n = j - i;
		s->member = xcalloc(j - i, sizeof(*s->member));
		for (c = i; c < j; c++) {
			s->member[c - i] = k[c].m;
			/* sorted by place, so one experiment's are adjacent */
			s->ninv += c == i || k[c].m.set != k[c - 1].m.set;
		}
	}
	qsort(l->s, l->n, sizeof(*l->s), first_cmp);
	for (i = 0; i < l->n; i++)
		k[i] = (struct series_key){ l->s[i].workload, l->s[i].canon, i,
					    { 0, 0 } };
	qsort(k, l->n, sizeof(*k), key_cmp);
	l->index = k;
}

long series_find(const struct series_list *l, const char *workload,
		 const char *canon)
{
	struct series_key key = { .workload = workload, .canon = canon };
	const struct series_key *k = bsearch(&key, l->index, l->n, sizeof(key),
					     name_cmp);

	return k ? (long)k->at : -1;
}

void series_release(struct series_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->s[i].member);
	free(l->s);
	free(l->index);
	memset(l, 0, sizeof(*l));
}

size_t series_metric_values(const struct dataset *d, size_t c,
			    const char *metric, double **out)
{
	int m = dataset_metric(d, metric);

	*out = NULL;
	return m < 0 ? 0 : analysis_values(d, c, m, out);
}

/* Appends v[0..k) to member i's invocation (a new one at a new set). */
static void add(struct series_sample *o, const struct series *s, size_t i,
		const double *v, size_t k)
{
	bool same = o->k && o->set[o->k - 1] == s->member[i].set;

	if (!k)
		return;
	o->x = xrealloc(o->x, (o->n + k) * sizeof(*o->x));
	memcpy(o->x + o->n, v, k * sizeof(*v));
	o->n += k;
	if (!same) {
		o->set[o->k] = s->member[i].set;
		o->sizes[o->k++] = 0;
	}
	o->sizes[o->k - 1] += k;
}

void series_sample(const struct dataset *sets, const struct series *s,
		   series_extract fn, const char *arg,
		   struct series_sample *out)
{
	memset(out, 0, sizeof(*out));
	out->sizes = xcalloc(s->ninv + 1, sizeof(*out->sizes));
	out->set = xcalloc(s->ninv + 1, sizeof(*out->set));
	for (size_t i = 0; i < s->n; i++) {
		double *v;
		size_t k = fn(&sets[s->member[i].set], s->member[i].config,
			      arg, &v);

		add(out, s, i, v, k);
		free(v);
	}
}

/* The runs series_metric_values counts, with their wall times. */
void series_sample_metric(const struct dataset *sets, const struct series *s,
			  const char *metric, struct series_sample *out)
{
	series_sample(sets, s, series_metric_values, metric, out);
	for (size_t i = 0; i < s->n; i++) {
		const struct dataset *d = &sets[s->member[i].set];
		const struct ds_config *cf = &d->configs[s->member[i].config];
		int m = dataset_metric(d, metric);

		for (size_t r = cf->run0; m >= 0 && r < cf->run0 + cf->nruns;
		     r++) {
			double w = d->runs[r].wall_s;

			if (analysis_measured(d, r) &&
			    !isnan(dataset_value(d, r, m)) && w > 0 &&
			    isfinite(w)) {
				out->wall += w;
				out->nwall++;
			}
		}
	}
}

void series_sample_release(struct series_sample *v)
{
	free(v->x);
	free(v->sizes);
	free(v->set);
	memset(v, 0, sizeof(*v));
}
