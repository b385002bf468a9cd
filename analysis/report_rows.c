/*
 * report_rows.c - what the summary of a report says about each
 * configuration, once, for every face of the report (text, markdown,
 * HTML): its row, why its failed runs failed, which host facts are shown;
 * the text report's host facts (a summary, and every one under --host);
 * the text helpers of report_impl.h; and the observer-effect table: each
 * observed configuration paired with its observer = none twin of the same
 * section, the two ratios computed by the estimators the report's pair
 * check uses, in the text and JSON reports, the misleading ones explained.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "analysis/stats.h"
#include "db/contract.h"
#include "db/facts.h"
#include "lib/escape.h"
#include "lib/hint.h"
#include "lib/json.h"
#include "lib/numfmt.h"
#include "lib/util.h"
#include "lib/wrap.h"

/* Does key take another value (or none) in some configuration of c's
 * section? */
static bool varies(const struct dataset *d, size_t c, const char *key)
{
	const char *v = ds_config_param(&d->configs[c], key);
	size_t k;

	for (k = 0; k < d->nconfigs; k++) {
		const char *w;

		if (k == c || strcmp(d->configs[k].section, d->configs[c].section))
			continue;
		w = ds_config_param(&d->configs[k], key);
		if (!w || strcmp(v, w))
			return true;
	}
	return false;
}

/* A user parameter (param.NAME): argv, env, prepare and cleanup that vary
 * with it only repeat its value, substituted. */
static bool user_param(const char *key)
{
	return !strncmp(key, "param.", 6);
}

/* ---- short parameter names (the text table's varies) ---- */

static const char *const unit_words[] = { "ns", "us", "ms", "s", "pct" };

/* key's last word before a unit suffix, without "param.":
 * "contended_delay_ns" -> "delay", "param.size" -> "size" (malloc'd). */
static char *last_word(const char *key)
{
	const char *k = user_param(key) ? key + 6 : key;
	const char *end = k + strlen(k), *unit = strrchr(k, '_'), *start;
	size_t i;

	for (i = 0; unit && unit > k && i < ARRAY_SIZE(unit_words); i++)
		if (!strcmp(unit + 1, unit_words[i]))
			end = unit;
	for (start = end; start > k && start[-1] != '_' && start[-1] != '.';
	     start--)
		;
	return start < end ? xstrndup(start, (size_t)(end - start))
			   : xstrdup(k);
}

char *report_key_short(const struct dataset *d, const char *key)
{
	char *s = last_word(key);
	size_t c, i;

	/* Another varying key with the same short name: no abbreviation. */
	for (c = 0; c < d->nconfigs; c++)
		for (i = 0; i < d->configs[c].nparams; i++) {
			const char *k = d->configs[c].params[i].key;
			char *o;
			bool clash;

			if (!strcmp(k, key) || !report_param_shown(d, c, k))
				continue;
			o = last_word(k);
			clash = !strcmp(o, s);
			free(o);
			if (clash) {
				free(s);
				return xstrdup(user_param(key) ? key + 6 : key);
			}
		}
	return s;
}

bool report_param_shown(const struct dataset *d, size_t c, const char *key)
{
	const struct ds_config *cf = &d->configs[c];
	size_t i;

	if (!varies(d, c, key))
		return false;
	if (user_param(key))
		return true;
	for (i = 0; i < cf->nparams; i++)
		if (user_param(cf->params[i].key) &&
		    varies(d, c, cf->params[i].key))
			return false;
	return true;
}

char *report_varying(const struct dataset *d, size_t c, enum report_vary mode)
{
	static const char *const sep[] = { " ", " ", ", ", " " };
	const struct ds_config *cf = &d->configs[c];
	char *s = xstrdup(""), *part;
	size_t i, n = 0;

	for (i = 0; i < cf->nparams; i++) {
		const char *k = cf->params[i].key, *v = cf->params[i].value;
		bool pair = mode < VARY_KEYS;

		if (!report_param_shown(d, c, k))
			continue;
		if (!pair && strchr(v, ' ')) {
			free(s);
			return NULL;
		}
		part = mode == VARY_FULL     ? xstrdup(k)
		       : mode == VARY_VALUES ? report_esc(v)
					     : report_key_short(d, k);
		s = report_cat(s, "", "%s%s%s%s", n++ ? sep[mode] : "", part,
			       pair ? "=" : "", pair ? v : "");
		free(part);
	}
	return s;
}

bool report_non_normal(const struct analysis *a, const struct metric_summary *ms)
{
	return ms->s.n >= 8 && ms->s.k2_p < a->opts.alpha;
}

/* A metric's mean as a number of sig digits, or "" when not measured. */
static void mean_of(const struct analysis *a, size_t c, const char *name,
		    double scale, const char *unit, char *buf, size_t len)
{
	const struct metric_summary *ms = analysis_metric(a, c, name);
	char v[NUMFMT_LEN];

	buf[0] = '\0';
	if (ms && ms->s.n && !isnan(ms->s.mean))
		snprintf(buf, len, "%s%s", numfmt_sig(v, sizeof(v),
						      scale * ms->s.mean, 3), unit);
}

/* The mean kernel wait share of configuration c's measured runs. */
static void kwait_of(const struct analysis *a, size_t c, char *buf,
		     size_t len)
{
	double *x, mean;
	size_t n = analysis_values_of(a->d, c, analysis_kwait_share, &x);
	char v[NUMFMT_LEN];

	buf[0] = '\0';
	mean = n ? gsl_stats_mean(x, 1, n) : NAN;
	if (isfinite(mean))
		snprintf(buf, len, "%s%%", numfmt_sig(v, sizeof(v), 100 * mean,
						       2));
	free(x);
}

static void row_primary(const struct analysis *a, struct report_row *r)
{
	const struct config_analysis *ca = &a->configs[r->config];
	const struct metric_summary *ms;
	char cv[NUMFMT_LEN];

	if (ca->primary < 0 || !ca->metrics[ca->primary].s.n)
		return;
	ms = r->primary = &ca->metrics[ca->primary];
	r->metric = a->d->metrics[ca->primary];
	if (report_non_normal(a, ms)) {
		r->mark = 'm';
		numfmt_ci(r->value, sizeof(r->value), ms->s.median,
			  ms->s.median_ci_low, ms->s.median_ci_high);
	} else {
		r->mark = ms->harmonic ? 'h' : ' ';
		numfmt_ci(r->value, sizeof(r->value), ms->s.mean, ms->s.ci_low,
			  ms->s.ci_high);
	}
	if (!isnan(ms->s.cv))
		snprintf(r->cv, sizeof(r->cv), "%s%%",
			 numfmt_sig(cv, sizeof(cv), 100 * ms->s.cv, 2));
}

char *report_flag_names(const struct config_analysis *ca, const char *sep,
			bool once)
{
	char *s = xstrdup("");
	size_t i, j = 0;

	for (i = 0; i < ca->nflags; i++) {
		for (j = 0; once && j < i && strcmp(ca->flags[j].name,
						    ca->flags[i].name); j++)
			;
		if (!once || j == i)
			s = report_cat(s, sep, "%s", ca->flags[i].name);
	}
	return s;
}

/* A run that finished without success (failed, crashed, timeout...). */
static bool run_failed(const struct ds_run *r)
{
	return r->status != RUN_OK && r->status != RUN_PLANNED &&
	       r->status != RUN_INTERRUPTED;
}

/* "crashed: killed by signal 11" (malloc'd). */
static char *run_reason(const struct ds_run *r)
{
	return xasprintf("%s%s%s", run_status_names[r->status],
			 r->error && *r->error ? ": " : "",
			 r->error ? r->error : "");
}

size_t report_rows(const struct analysis *a, struct report_row **out)
{
	struct report_row *rows = xcalloc(a->nconfigs ? a->nconfigs : 1,
					  sizeof(*rows));
	size_t c;

	for (c = 0; c < a->nconfigs; c++) {
		const struct config_analysis *ca = &a->configs[c];
		const struct ds_config *cf = &a->d->configs[c];
		struct report_row *r = &rows[c];
		size_t k;

		r->config = c;
		r->varies = report_varying(a->d, c, VARY_FULL);
		r->brief = report_varying(a->d, c, VARY_BRIEF);
		row_primary(a, r);
		mean_of(a, c, "contention_rate", 100, "%", r->contended,
			sizeof(r->contended));
		mean_of(a, c, "handoff_rate", 1, "", r->handoffs,
			sizeof(r->handoffs));
		mean_of(a, c, "klock_contended_per_op", 1e6, "", r->klock,
			sizeof(r->klock));
		kwait_of(a, c, r->kwait, sizeof(r->kwait));
		r->flags = report_flag_names(ca, ",", true);
		r->runs = cf->nruns;
		r->failed = ca->failed;
		for (k = cf->run0; k < cf->run0 + cf->nruns && !r->first_error; k++)
			if (run_failed(&a->d->runs[k]))
				r->first_error = run_reason(&a->d->runs[k]);
	}
	*out = rows;
	return a->nconfigs;
}

void report_rows_free(struct report_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].varies);
		free(rows[i].brief);
		free(rows[i].flags);
		free(rows[i].first_error);
	}
	free(rows);
}

size_t report_failures(const struct dataset *d, size_t c,
		       struct report_failure **out)
{
	const struct ds_config *cf = &d->configs[c];
	struct report_failure *f = NULL;
	size_t n = 0, r, i;

	for (r = cf->run0; r < cf->run0 + cf->nruns; r++) {
		char *why;

		if (!run_failed(&d->runs[r]))
			continue;
		why = run_reason(&d->runs[r]);
		for (i = 0; i < n && strcmp(f[i].reason, why); i++)
			;
		if (i == n) {
			f = xrealloc(f, (n + 1) * sizeof(*f));
			f[n++] = (struct report_failure){ .reason = why };
		} else {
			free(why);
		}
		if (f[i].count < REPORT_FAILURE_SEQS)
			f[i].seq[f[i].count] = d->runs[r].seq;
		f[i].count++;
	}
	*out = f;
	return n;
}

void report_failures_free(struct report_failure *f, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(f[i].reason);
	free(f);
}

bool report_host_key(const struct experiment_row *e, const char *key)
{
	/* What a section is judged by and how its runs were counted are
	 * shown with its configurations; loadavg is load_start under its
	 * old name. */
	if (!strcmp(key, MK_LOADAVG))
		return !experiment_meta(e, MK_LOAD_START);
	return !contract_section_key(key);
}

/* ---- text helpers (report_impl.h) ---- */

char *report_hint(const struct report_view *view, const char *args)
{
	char *db = view && view->db ? hint_db(view->db) : xstrdup("");
	char *h = xasprintf("`contend %s%s%s`", args, *db ? " " : "", db);
	char *e = report_esc(h);

	free(h);
	free(db);
	return e;
}
/* Prose wraps at 78 columns; the summary table may take TABLE_WIDTH. */
void report_wrap(FILE *f, const char *lead, int indent, const char *fmt, ...)
{
	char *text, *safe_lead = report_esc(lead), *safe;
	va_list ap;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	safe = report_esc(text);
	wrap_lead(f, safe_lead, safe, indent, 78);
	free(safe_lead);
	free(safe);
	free(text);
}

char *report_cat(char *s, const char *sep, const char *fmt, ...)
{
	char *more, *t;
	va_list ap;

	va_start(ap, fmt);
	more = xvasprintf(fmt, ap);
	va_end(ap);
	t = xasprintf("%s%s%s", s, *s ? sep : "", more);
	free(s);
	free(more);
	return t;
}

char *report_esc(const char *s)
{
	char *e = escape_text_dup(s ? s : "");

	return e ? e : xstrdup("");
}

/* A summary value is cut to this many columns; the summary to two lines. */
#define SUMMARY_VALUE 24
#define SUMMARY_TEXT ((size_t)2 * 70)
/* --host: a value is cut to this many columns (cmdline can be 4096). */
#define HOST_VALUE 400

size_t report_host_count(const struct experiment_row *e)
{
	size_t i, n = 0;

	for (i = 0; i < e->nmeta; i++)
		n += report_host_key(e, e->meta[i].key);
	return n;
}

/* "key=value" with value escaped and cut to w columns, malloc'd. */
static char *pair(const char *key, const char *value, int w)
{
	char *v = report_esc(value), *ret;

	cut(v, w);
	ret = xasprintf("%s=%s", key, v);
	free(v);
	return ret;
}

void report_host_summary(FILE *f, const struct analysis *a,
			 const struct report_view *view)
{
	const struct experiment_row *e = &a->d->exp;
	char *text, *h, *args, *t;
	size_t i, n = report_host_count(e);

	if (!n)
		return;
	text = xstrdup("");
	for (i = 0; i < fact_nrows; i++) {
		const char *v = experiment_meta(e, fact_rows[i].key);
		char *p;

		if (!fact_rows[i].shown || !v)
			continue;
		p = pair(fact_rows[i].key, v, SUMMARY_VALUE);
		if (strlen(text) + strlen(p) + 2 <= SUMMARY_TEXT)
			text = report_cat(text, ", ", "%s", p);
		free(p);
	}
	fputc('\n', f);
	if (*text)
		report_wrap(f, "host:", 4, "%s", text);
	free(text);
	t = view && view->what ? hint_word(view->what)
			       : xasprintf("%lld", (long long)e->id);
	args = xasprintf("report %s --host", t);
	free(t);
	h = report_hint(view, args);
	fprintf(f, "  %zu facts: %s\n", n, h);
	free(h);
	free(args);
}

/* Every fact of row r (a family: each member; kstate_end.NAME too). */
static void host_row(FILE *f, const struct experiment_row *e,
		     const struct fact_row *r, bool *done)
{
	size_t i;

	for (i = 0; i < e->nmeta; i++) {
		char *p, lead[40];

		if (done[i] || !report_host_key(e, e->meta[i].key) ||
		    (r && fact_find(e->meta[i].key) != r))
			continue;
		done[i] = true;
		p = pair(e->meta[i].key, e->meta[i].value, HOST_VALUE);
		snprintf(lead, sizeof(lead), "  [%s]",
			 r ? fact_when_names[r->when] : "other");
		report_wrap(f, lead, 6, "%s", p);
		free(p);
	}
}

int report_host_text(FILE *f, const struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	bool *done = xcalloc(e->nmeta ? e->nmeta : 1, sizeof(*done));
	size_t i;

	fprintf(f, "experiment %lld: %zu facts, when read (docs/STORAGE.md "
		   "\"Host facts\")\n", (long long)e->id, report_host_count(e));
	for (i = 0; i < fact_nrows; i++)
		host_row(f, e, &fact_rows[i], done);
	/* the experiment's other facts, written as it ran */
	host_row(f, e, NULL, done);
	free(done);
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

/* ---- the observer-effect table ---- */

/* Whether b is a's twin: same section and parameters but the observer. */
static bool twins(const struct ds_config *a, const struct ds_config *b)
{
	size_t k;

	if (strcmp(a->section, b->section) || a->nparams != b->nparams)
		return false;
	for (k = 0; k < a->nparams; k++) {
		const char *v = ds_config_param(b, a->params[k].key);

		if (!v)
			return false;
		if (strcmp(a->params[k].key, OBSERVER_KEY) &&
		    strcmp(v, a->params[k].value))
			return false;
	}
	return true;
}

/* The none configuration of c's section with c's other parameters. */
static long base_of(const struct dataset *d, size_t c)
{
	size_t i;

	for (i = 0; i < d->nconfigs; i++) {
		const char *o = ds_config_param(&d->configs[i], OBSERVER_KEY);

		if (i != c && o && !strcmp(o, OBSERVER_NONE) &&
		    twins(&d->configs[c], &d->configs[i]))
			return (long)i;
	}
	return -1;
}

static void row_fill(const struct analysis *a, struct observer_row *row)
{
	const struct dataset *d = a->d;
	const struct config_analysis *ca = &a->configs[row->config];
	double *tb = NULL, *to = NULL, *hb = NULL, *ho = NULL;
	size_t nhb, nho;
	struct pair_side sb, so;
	struct handoff_check chk;
	double conf = a->opts.confidence;

	row->metric = ca->primary >= 0 ? d->metrics[ca->primary] : "-";
	row->nbase = ca->primary >= 0 ?
		analysis_values(d, row->base, ca->primary, &tb) : 0;
	row->nobs = ca->primary >= 0 ?
		analysis_values(d, row->config, ca->primary, &to) : 0;
	nhb = analysis_values_of(d, row->base, analysis_handoff_rate, &hb);
	nho = analysis_values_of(d, row->config, analysis_handoff_rate, &ho);
	stats_ratio_welch(tb, row->nbase, to, row->nobs, conf, &row->tput);
	stats_ratio_welch(hb, nhb, ho, nho, conf, &row->handoffs);
	/* the misleading-throughput rule, on throughput (never elapsed) */
	sb = (struct pair_side){ tb, hb, NULL, row->nbase, nhb, 0 };
	so = (struct pair_side){ to, ho, NULL, row->nobs, nho, 0 };
	if (ca->primary >= 0 && !strcmp(row->metric, "throughput") &&
	    row->nbase >= 2 && row->nobs >= 2) {
		analysis_handoff_check(&sb, &so, &a->opts, conf, &chk);
		row->misleading = chk.misleading;
	}
	free(tb);
	free(to);
	free(hb);
	free(ho);
}

size_t observer_rows(const struct analysis *a, struct observer_row **rows)
{
	const struct dataset *d = a->d;
	size_t c, n = 0;

	*rows = NULL;
	for (c = 0; c < d->nconfigs; c++) {
		const char *o = ds_config_param(&d->configs[c], OBSERVER_KEY);
		long b;

		if (!o || !strcmp(o, OBSERVER_NONE))
			continue;
		b = base_of(d, c);
		if (b < 0)
			continue;
		*rows = xrealloc(*rows, (n + 1) * sizeof(**rows));
		(*rows)[n] = (struct observer_row){ .base = (size_t)b,
						    .config = c,
						    .observer = o };
		row_fill(a, &(*rows)[n++]);
	}
	return n;
}

/* ---- in the text and JSON reports ---- */

#define OBS_COL 13 /* observer names are cut to this many columns */

/* "0.950 [0.933, 0.968]", or "-" where it cannot be computed. */
static const char *ratio_cell(char *b, size_t len, const struct ratio *r)
{
	if (isnan(r->ratio))
		snprintf(b, len, "-");
	else if (isnan(r->ci_low_pct))
		snprintf(b, len, "%.3f", r->ratio);
	else
		snprintf(b, len, "%.3f [%.3f, %.3f]", r->ratio,
			 1 + r->ci_low_pct / 100, 1 + r->ci_high_pct / 100);
	return b;
}

void report_observer_text(FILE *f, const struct analysis *a)
{
	struct observer_row *rows;
	bool misleading = false;
	size_t n = observer_rows(a, &rows), i;

	if (!n)
		goto out;
	fprintf(f, "\nobserver effect: each observer / observer = none, "
		   "ratio of the runs' means\n(%g%% interval, log scale):\n",
		100 * a->opts.confidence);
	fprintf(f, "  %-8s %-*s %-21s %s\n", "config", OBS_COL, "observer",
		"throughput", "hand-offs/s");
	for (i = 0; i < n; i++) {
		const struct observer_row *r = &rows[i];
		char vs[24], tp[48], ho[48], *name = report_esc(r->observer);

		snprintf(vs, sizeof(vs), "%zu/%zu", r->config + 1, r->base + 1);
		cut(name, OBS_COL);
		fprintf(f, "  %-8s ", vs);
		pad(f, name, OBS_COL, false);
		fprintf(f, " %-21s %-*s%s\n",
			ratio_cell(tp, sizeof(tp), &r->tput),
			r->misleading ? 21 : 0,
			ratio_cell(ho, sizeof(ho), &r->handoffs),
			r->misleading ? " misleading" : "");
		misleading |= r->misleading;
		free(name);
	}
	fprintf(f, "  (config: observed/none, as numbered above; throughput "
		   "is each one's primary\n  metric)\n");
	if (misleading)
		fprintf(f, "  misleading: the observer raised throughput while "
			   "hand-offs per second fell:\n  it slowed the lock's "
			   "contended path, so waiters slept and one thread "
			   "ran\n  alone, as lockdep and lock tracing do; the "
			   "gain is the observer's, not the\n  lock's "
			   "(misleading-throughput below).\n");
out:
	free(rows);
}

static void json_ratio(struct json_writer *w, const char *key,
		       const struct ratio *r)
{
	json_open(w, key, '{');
	json_num(w, "ratio", r->ratio);
	json_num(w, "ci_low", 1 + r->ci_low_pct / 100);
	json_num(w, "ci_high", 1 + r->ci_high_pct / 100);
	json_num(w, "p", r->p);
	json_close(w, '}');
}

void report_observer_json(struct json_writer *w, const struct analysis *a)
{
	struct observer_row *rows;
	size_t n = observer_rows(a, &rows), i;

	if (!n)
		goto out;
	json_open(w, "observer_effect", '[');
	for (i = 0; i < n; i++) {
		const struct observer_row *r = &rows[i];

		json_open(w, NULL, '{');
		json_int(w, "config", cfg(a, r->config)->id);
		json_int(w, "base_config", cfg(a, r->base)->id);
		json_str(w, "observer", r->observer);
		json_str(w, "metric", r->metric);
		json_int(w, "n_base", (long long)r->nbase);
		json_int(w, "n_observed", (long long)r->nobs);
		json_ratio(w, "throughput", &r->tput);
		json_ratio(w, "handoff_rate", &r->handoffs);
		json_bool(w, "misleading", r->misleading);
		json_close(w, '}');
	}
	json_close(w, ']');
out:
	free(rows);
}
