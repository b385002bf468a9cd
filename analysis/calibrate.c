/*
 * calibrate.c - an A/A profile from K invocations: ANOVA components,
 * every split into halves compared, the MDE of a design (calibrate.h).
 */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_combination.h>
#include <gsl/gsl_errno.h>

#include "analysis/calibrate.h"
#include "analysis/analysis.h"
#include "analysis/stats.h"
#include "db/contract.h"
#include "lib/util.h"

int calib_compute(const double *x, const size_t *sizes, size_t k,
		  size_t boots, size_t runs, double alpha,
		  struct calib_profile *p)
{
	size_t i, j, n, *sz[2], ks[2];
	double *v[2];
	gsl_combination *half;
	struct anova an;

	memset(p, 0, sizeof(*p));
	if (k < 4 || !boots || !runs || !(alpha > 0 && alpha < 1))
		return -1;
	for (i = 0; i < k; i++)
		if (sizes[i] < 2)
			return -1;
	if (stats_anova(x, sizes, k, &an))
		return -1;
	p->k = k;
	p->n = n = an.n;
	p->s2_b = an.var_between;
	p->s2_w = an.var_within;
	p->boots = boots;
	p->runs = runs;
	p->mde_pct = 100 * expm1(stats_nested_mde(p->s2_b, p->s2_w, runs,
						  boots, alpha, 0.8));
	v[0] = xmalloc(2 * n * sizeof(*x));
	v[1] = v[0] + n;
	sz[0] = xmalloc(2 * k * sizeof(*sizes));
	sz[1] = sz[0] + k;
	half = gsl_combination_calloc(k, k / 2);
	/* lexicographic order: the halves holding invocation 0 come first */
	do {
		struct nested_diff d;
		size_t off = 0, nv[2] = { 0, 0 };

		ks[0] = ks[1] = 0;
		for (i = j = 0; i < k; off += sizes[i], i++) {
			int h = !(j < k / 2 && gsl_combination_get(half, j) == i);

			j += !h;
			memcpy(v[h] + nv[h], x + off, sizes[i] * sizeof(*x));
			nv[h] += sizes[i];
			sz[h][ks[h]++] = sizes[i];
		}
		if (stats_nested_diff(v[0], sz[0], ks[0], v[1], sz[1], ks[1],
				      1 - alpha, &d))
			continue;
		p->splits++;
		p->alarms += d.p < alpha;
	} while (p->splits < CALIB_MAX_SPLITS &&
		 gsl_combination_next(half) == GSL_SUCCESS &&
		 gsl_combination_get(half, 0) == 0);
	free(v[0]);
	free(sz[0]);
	gsl_combination_free(half);
	return 0;
}

/* ---- the invocations of a configuration (the one model, analysis.h) ---- */

/* The logs of the positive values of stored metric of configuration c of
 * d, a series_extract: an invocation without one is none. */
static size_t log_values(const struct dataset *d, size_t c,
			 const char *metric, double **out)
{
	size_t i, n = series_metric_values(d, c, metric, out), m = 0;

	for (i = 0; i < n; i++)
		if ((*out)[i] > 0 && isfinite((*out)[i]))
			(*out)[m++] = log((*out)[i]);
	return m;
}

int calib_profile_of(const struct dataset *ds, size_t nds,
		     const char *workload, const char *canon,
		     const char *metric, size_t boots, size_t runs,
		     struct calib_profile *p, size_t *k, size_t *two)
{
	struct series_list l;
	struct series_sample v = { 0 };
	long at;
	size_t i;
	int ret;

	series_build(ds, nds, &l);
	at = series_find(&l, workload, canon);
	if (at >= 0)
		series_sample(ds, &l.s[at], log_values, metric, &v);
	*k = v.k;
	for (*two = 0, i = 0; i < v.k; i++)
		*two += v.sizes[i] >= 2;
	ret = calib_compute(v.x, v.sizes, v.k, boots, runs, 0.05, p);
	series_sample_release(&v);
	series_release(&l);
	return ret;
}

/* ---- the profile in the store ---- */

static int put(struct store *s, int64_t e, const char *section,
	       const char *key, const char *value)
{
	char *k = xasprintf("calibrate.%s.%s", section, key);
	int ret = store_meta_set(s, e, k, value);

	free(k);
	return ret;
}

/* The profile's numbers as stored, calibrate.SECTION.KEY (docs/STORAGE.md). */
static const char *const calib_keys[] = {
	"invocations", "runs", "s2_between", "s2_within", "aa_splits",
	"aa_alarms", "boots", "runs_per_boot", "mde_pct",
};
#define NKEYS ARRAY_SIZE(calib_keys)

/* A count read as 0 when it is not one (a hand-edited store): a NaN or
 * negative double converted to size_t is undefined. */
static size_t count(double v)
{
	return v >= 0 && v < 1e15 ? (size_t)v : 0;
}

bool calib_valid(const struct calib_profile *p)
{
	/* calib_compute's bounds: k >= 4 invocations, each of two runs */
	return p->k >= 4 && p->n >= 2 * p->k && p->boots >= 1 &&
	       p->runs >= 1 && p->splits >= 1 && p->alarms <= p->splits &&
	       isfinite(p->s2_b) && p->s2_b >= 0 && isfinite(p->s2_w) &&
	       p->s2_w >= 0 && isfinite(p->mde_pct) && p->mde_pct > 0;
}

int calib_store(struct store *s, int64_t experiment, const char *section,
		const char *workload, const char *canon,
		const struct calib_profile *p)
{
	double v[NKEYS] = { (double)p->k, (double)p->n, p->s2_b, p->s2_w,
			    (double)p->splits, (double)p->alarms,
			    (double)p->boots, (double)p->runs, p->mde_pct };
	char buf[40];

	if (!calib_valid(p))
		return error("calibrate: [%s]: the profile is not finite; "
			     "nothing stored", section);
	/* one transaction: a full disk leaves the profile whole or absent */
	if (store_begin(s))
		return -1;
	if (put(s, experiment, section, "workload", workload) ||
	    put(s, experiment, section, "params", canon))
		goto fail;
	for (size_t i = 0; i < NKEYS; i++) {
		snprintf(buf, sizeof(buf), "%.17g", v[i]);
		if (put(s, experiment, section, calib_keys[i], buf))
			goto fail;
	}
	if (!store_commit(s))
		return 0;
fail:
	store_rollback(s);
	return -1;
}

/* The number meta key PREFIX.key of e (prefix "calibrate.SECTION", its
 * first len bytes), or NAN. */
static double get_num(const struct experiment_row *e, const char *prefix,
		      int len, const char *key)
{
	char *k = xasprintf("%.*s.%s", len, prefix, key);
	const char *v = experiment_meta(e, k);
	double d = NAN;

	free(k);
	if (v && parse_double(v, &d))
		d = NAN;
	return d;
}

/* The profile of (workload, canon) among e's meta: true when found
 * whole (calib_valid). */
static bool profile_in(const struct experiment_row *e, const char *workload,
		       const char *canon, struct calib_profile *p)
{
	size_t i;

	for (i = 0; i < e->nmeta; i++) {
		const char *k = e->meta[i].key, *dot;
		char *wkey;
		double v[NKEYS];
		bool match;

		if (strncmp(k, "calibrate.", 10) ||
		    !(dot = strrchr(k, '.')) || strcmp(dot, ".params") ||
		    strcmp(e->meta[i].value, canon))
			continue;
		wkey = xasprintf("%.*s.workload", (int)(dot - k), k);
		match = experiment_meta(e, wkey) &&
			!strcmp(experiment_meta(e, wkey), workload);
		free(wkey);
		/* a partial, hand-edited or non-finite one is not cited:
		 * the next (older) one is */
		for (size_t j = 0; match && j < NKEYS; j++)
			match = !isnan(v[j] = get_num(e, k, (int)(dot - k),
						      calib_keys[j]));
		if (!match)
			continue;
		*p = (struct calib_profile){ count(v[0]), count(v[1]), v[2],
					     v[3], count(v[4]), count(v[5]),
					     count(v[6]), count(v[7]), v[8] };
		if (calib_valid(p))
			return true;
	}
	return false;
}

int calib_load(struct store *s, struct experiment_row **rows)
{
	int64_t *ids = NULL;
	int n = store_experiment_find(s, "calibrate", &ids), i, got = 0;

	*rows = NULL;
	if (n < 0)
		return -1;
	*rows = xcalloc(n ? (size_t)n : 1, sizeof(**rows));
	/* newest first */
	for (i = n - 1; i >= 0; i--, got++)
		if (store_experiment_get(s, ids[i], &(*rows)[got]))
			break;
	free(ids);
	if (got == n)
		return got;
	while (got-- > 0)
		experiment_row_release(&(*rows)[got]);
	free(*rows);
	*rows = NULL;
	return -1;
}

int calib_pick(const struct experiment_row *rows, size_t n,
	       const char *hostname, const char *workload, const char *canon,
	       struct calib_profile *p)
{
	size_t i;

	for (i = 0; i < n && i < INT_MAX; i++) {
		const char *h = experiment_meta(&rows[i], MK_HOSTNAME);

		if (h && hostname && !strcmp(h, hostname) &&
		    profile_in(&rows[i], workload, canon, p))
			return (int)i;
	}
	return -1;
}

int calib_find(struct store *s, const char *hostname, const char *workload,
	       const char *canon, struct calib_profile *p, int64_t *experiment)
{
	struct experiment_row *rows;
	int n = calib_load(s, &rows), i, at;

	if (n < 0)
		return -1;
	at = calib_pick(rows, (size_t)n, hostname, workload, canon, p);
	if (at >= 0)
		*experiment = rows[at].id;
	for (i = 0; i < n; i++)
		experiment_row_release(&rows[i]);
	free(rows);
	return at >= 0 ? 0 : 1;
}

char *calib_cite(const struct calib_profile *p, const char *host,
		 int64_t experiment, double created)
{
	char when[40] = "calibrate ";
	time_t t = (time_t)created;
	struct tm tm;

	if (host)
		when[0] = '\0';
	if (host && created > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "calibrated %Y-%m-%d %H:%M UTC, ",
			 &tm);
	return xasprintf("on %s%s (%sexperiment %lld: %zu invocations) a %.1f%% "
			 "change is detectable with %zu boots of %zu runs; A/A "
			 "false alarms %zu/%zu; between invocations %.2f%%, "
			 "within %.2f%% (CV)", host ? "host " : "this host",
			 host ? host : "", when, (long long)experiment, p->k,
			 p->mde_pct, p->boots, p->runs, p->alarms, p->splits,
			 100 * sqrt(fmax(p->s2_b, 0)),
			 100 * sqrt(fmax(p->s2_w, 0)));
}
