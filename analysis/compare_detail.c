/*
 * compare_detail.c - compare's text, each configuration in detail: each
 * side's level and what its interval rests on, the runs, what a decision
 * would need, the kernel locks, the flags told in full; the host facts
 * that differ between the sides and the warnings they call for; and the
 * helpers the rest of the text shares (compare.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/flagtab.h"
#include "analysis/report_impl.h"
#include "db/contract.h"
#include "lib/escape.h"
#include "lib/numfmt.h"
#include "lib/wrap.h"
#include "lib/util.h"

/* Prose and tables wrap as compare_text.c's do. */
#define WIDTH 78
#define TABLE_WIDTH 80

void compare_para(FILE *f, int indent, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	wrap_print(f, s, 0, indent, WIDTH);
	free(s);
}

char *compare_change_text(const struct compare_stats *st)
{
	char buf[NUMFMT_CI_LEN];

	if (isnan(st->change_ci_low_pct))
		return xasprintf("%s [no interval]",
				 numfmt_pct(buf, sizeof(buf), st->change_pct));
	return xstrdup(numfmt_pct_ci(buf, sizeof(buf), st->change_pct,
				     st->change_ci_low_pct,
				     st->change_ci_high_pct));
}

/* Is parameter key the same in every compared configuration of section? */
static bool param_constant(const struct compare_result *r, const char *section,
			   const char *key, const char *value)
{
	size_t i, j;

	for (i = 0; i < r->n; i++) {
		const struct ds_config *c = r->cmp[i].config;

		if (!c || strcmp(r->cmp[i].section, section))
			continue;
		for (j = 0; j < c->nparams; j++)
			if (!strcmp(c->params[j].key, key) &&
			    strcmp(c->params[j].value, value))
				return false;
	}
	return true;
}

char *compare_label(const struct compare_result *r,
		    const struct comparison *cmp, bool numbers, bool brackets)
{
	const struct ds_config *c = cmp->config;
	const char *head = *cmp->section ? cmp->section
			   : *cmp->workload ? cmp->workload : "values";
	char *l = xasprintf(brackets ? "[%s]" : "%s", head), *e;
	size_t j;

	for (j = 0; !numbers && c && j < c->nparams; j++) {
		if (param_constant(r, cmp->section, c->params[j].key,
				   c->params[j].value))
			continue;
		l = report_cat(l, " ", "%s=%s", c->params[j].key,
			       c->params[j].value);
	}
	/* One line of the table: a line break in a name shown as \n. */
	e = escape_text_dup(l);
	if (!e)
		return l;
	free(l);
	return e;
}

/* The variance a side's interval rests on, in words. */
static const char *unit_text(const struct nested *s)
{
	if (s->n < 2)
		return "one value: no interval";
	if (s->borrowed)
		return "runs + the other side's between-invocation variance";
	if (s->k < 2)
		return "runs of one invocation (between-invocation variance "
		       "unknown)";
	if (s->pooled)
		return "runs' mean (between-invocation variance estimated "
		       "as 0; its error from the invocation means)";
	return "invocations (two-level model)";
}

/* A variance component as an sd: % on the log scale, else the unit. */
static char *sd_text(char *buf, size_t len, double var, bool log_scale)
{
	if (!isfinite(var))
		snprintf(buf, len, "n/a");
	else if (log_scale)
		snprintf(buf, len, "%.2g%%", 100 * sqrt(var));
	else
		numfmt_sig(buf, len, sqrt(var), 3);
	return buf;
}
#define SD(v, l) sd_text((char[24]){ 0 }, 24, (v), (l))

/* rest after a line that holds at columns, under it when the line would
 * pass the width; rest is freed. */
static void print_rest(FILE *f, int at, char *rest)
{
	if (at + 2 + (int)strlen(rest) > TABLE_WIDTH)
		fprintf(f, "\n%12s%s\n", "", rest);
	else
		fprintf(f, "  %s\n", rest);
	free(rest);
}

/* The baseline's (cand false) or the candidate's level and its unit. */
static void print_detail_side(FILE *f, const struct compare_stats *st,
			      bool cand)
{
	const struct compare_summary *cs = cand ? &st->cand : &st->base;
	const struct nested *s = cand ? &st->model.b : &st->model.a;
	char ci[NUMFMT_CI_LEN], *rest;
	int at;

	at = fprintf(f, "  %-9s %s%s", cand ? "candidate" : "baseline",
		     numfmt_ci(ci, sizeof(ci), cs->mean, cs->ci_low,
			       cs->ci_high),
		     isnan(cs->ci_low) ? " (no interval)" : "");
	rest = xasprintf("%zu inv x %.3g runs  s_between %s  s_within %s",
			 s->k, s->k ? (double)s->n / (double)s->k : 0.0,
			 st->model.df_between >= 1
				 ? SD(s->var_between, st->log_scale) : "unknown",
			 SD(s->var_within, st->log_scale));
	print_rest(f, at, rest);
	compare_para(f, 18, "  %-9s unit: %s", "", unit_text(s));
}

static void print_needed(FILE *f, const struct compare_stats *st,
			 const struct compare_opts *o)
{
	char *m;

	if (st->base.n < 2 || st->cand.n < 2) {
		compare_para(f, 4, "  missing: a side has a single value, so "
			   "there is no spread and no interval; run at least 2 "
			   "(better 10) runs a side");
		return;
	}
	m = xstrdup("");
	if (isfinite(st->mde_pct))
		m = report_cat(m, "", "  detectable now (%.0f%% power): %s",
			       100 * o->power,
			       numfmt_pct((char[NUMFMT_LEN]){ 0 }, NUMFMT_LEN,
					  st->mde_pct));
	if (st->needed_runs)
		m = report_cat(m, "", "; plan: %zu boots of %zu runs a side "
			       "would resolve %g%%", st->plan.boots,
			       st->plan.runs, o->threshold_pct);
	if (st->needed_runs && isfinite(st->plan.runs_opt))
		m = report_cat(m, "", " (runs per boot r* %.3g for a boot of "
			       "%g s, a run of %.3g s)", st->plan.runs_opt,
			       st->plan.c_boot, st->plan.c_run);
	else if (st->needed_runs && isinf(st->plan.runs_opt))
		m = report_cat(m, "", " (no between-boot variance seen: the "
			       "cheapest boots x runs)");
	else if (st->needed_runs)
		m = report_cat(m, "", " (runs per boot as now: the run's "
			       "cost unknown)");
	if (*m)
		compare_para(f, 4, "%s", m);
	free(m);
}

/* The runs of a configuration as ministat lays them out, the figures by
 * lib/numfmt (four significant digits, never in exponent form). */
static void print_detail_runs(FILE *f, const struct comparison *cmp)
{
	const struct summary *side[2] = { &cmp->runs_base, &cmp->runs_cand };
	static const char *const role[2] = { "  baseline", "  candidate" };
	char v[5][NUMFMT_LEN];
	size_t i;

	fprintf(f, "%-12s%4s %11s %11s %11s %11s %11s\n", "  runs", "N",
		"Min", "Max", "Median", "Avg", "Stddev");
	for (i = 0; i < 2; i++) {
		const struct summary *m = side[i];

		fprintf(f, "%-12s%4zu %11s %11s %11s %11s %11s\n", role[i],
			m->n, numfmt(v[0], NUMFMT_LEN, m->min),
			numfmt(v[1], NUMFMT_LEN, m->max),
			numfmt(v[2], NUMFMT_LEN, m->median),
			numfmt(v[3], NUMFMT_LEN, m->mean),
			m->n < 2 ? "-" : numfmt(v[4], NUMFMT_LEN, m->sd));
	}
}

/* The kernel locks A/B, two lines a lock so that a row fits 80 columns
 * (the change on the log scale: above -100%). */
static void print_klock(FILE *f, const struct comparison *cmp,
			const struct compare_opts *o)
{
	size_t i;

	for (i = 0; i < cmp->klock_shown; i++) {
		const struct compare_klock *k = &cmp->klock[i];
		char kind[24], caller[48], wb[NUMFMT_LEN], wc[NUMFMT_LEN];
		char ci[NUMFMT_CI_LEN];

		if (!i)
			fprintf(f, "  kernel locks, wait a run (docs/KLOCK.md; p "
				   "Holm-corrected over %zu locks):\n",
				cmp->nklock);
		/* names from the database: escaped for the terminal, cut */
		escape_text(kind, sizeof(kind), k->kind);
		escape_text(caller, sizeof(caller), k->caller);
		fprintf(f, "    %s %s\n      %s -> %s  %s  p = %.2g%s\n", kind,
			caller, numfmt_seconds(wb, sizeof(wb), k->base_mean),
			numfmt_seconds(wc, sizeof(wc), k->cand_mean),
			!(k->base_mean > 0) ? "none in the baseline"
			: !(k->cand_mean > 0) ? "none in the candidate"
			: numfmt_pct_ci(ci, sizeof(ci), k->change_pct,
					k->ci_low_pct, k->ci_high_pct),
			k->p_holm, k->p_holm < o->alpha ? " *" : "");
	}
	if (cmp->nklock > cmp->klock_shown)
		fprintf(f, "    %zu more compared, none changed, not shown "
			   "(--format json has them)\n",
			cmp->nklock - cmp->klock_shown);
}

void compare_print_detail(FILE *f, const struct comparison *cmp,
		  const struct compare_result *r, bool numbers)
{
	const struct compare_stats *st = &cmp->st;
	char *change = compare_change_text(st), *fair, *rest;
	size_t i;
	int at;

	if (*cmp->workload)
		compare_para(f, 6, "\n== %s [%s] %s", cmp->workload,
			   cmp->section, cmp->canon);
	else
		fprintf(f, "\n== values\n");
	print_detail_side(f, st, false);
	print_detail_side(f, st, true);
	if (!numbers)
		print_detail_runs(f, cmp);
	at = fprintf(f, "  change    %s", change);
	rest = isfinite(st->df)
		? xasprintf("df %.3g (Satterthwaite), p = %.3g  verdict %s",
			    st->df, st->p_welch, verdict_names[st->verdict])
		: xasprintf("verdict %s", verdict_names[st->verdict]);
	print_rest(f, at, rest);
	if (st->verdict == VERDICT_INCONCLUSIVE)
		print_needed(f, st, &r->opts);
	fair = abfair_text(&cmp->fair);     /* analysis/abfair.h */
	if (fair)
		compare_para(f, 4, "  fairness: %s", fair);
	free(fair);
	print_klock(f, cmp, &r->opts);
	compare_print_extras(f, cmp, r->opts.confidence, false);
	for (i = 0; i < cmp->nflags; i++) {
		const struct flag_def *d = flag_def_find(cmp->flags[i].name);

		/* a flag with a brief is told in full here */
		if (d && d->brief)
			compare_para(f, 4, "  flag %s (%s): %s",
				     cmp->flags[i].name, cmp->flags[i].side,
				     cmp->flags[i].message);
	}
	free(change);
}

/* ---- the host facts that differ ---- */

/* v as the sides are compared on it, malloc'd: the cgroup the runner
 * makes for each experiment ("cgroup v2 PARENT/contend-PID-N") by its
 * parent only, else v. */
static char *side_value(const char *key, const char *v)
{
	const char *last = strrchr(v, '/');

	if (!strcmp(key, "containment") && !strncmp(v, "cgroup v2 ", 10) &&
	    last && !strncmp(last, "/contend-", 9))
		return xasprintf("%.*s/contend-*", (int)(last - v), v);
	return xstrdup(v);
}

/* The distinct values of key over a side's experiments, ", "-joined. */
static char *side_values(const struct compare_input *s, const char *key)
{
	char *out = NULL;
	size_t i;

	for (i = 0; s->kind != INPUT_NUMBERS && i < s->nsets; i++) {
		const char *m = experiment_meta(&s->sets[i].exp, key);
		char *v, *t;

		if (!m)
			continue;
		v = side_value(key, m);
		if (!out || !strstr(out, v)) {
			t = xasprintf("%s%s%s", out ? out : "", out ? ", " : "",
				      v);
			free(out);
			out = t;
		}
		free(v);
	}
	return out;
}

/* The keys of a side's experiments not in keys yet, borrowed from them. */
static void meta_keys(const struct compare_input *s, const char ***keys,
		      size_t *n)
{
	size_t i, k, j;

	for (i = 0; s->kind != INPUT_NUMBERS && i < s->nsets; i++)
		for (k = 0; k < s->sets[i].exp.nmeta; k++) {
			const char *key = s->sets[i].exp.meta[k].key;

			/* loadavg: load_start under its old name */
			if (!strcmp(key, MK_LOADAVG) &&
			    experiment_meta(&s->sets[i].exp, MK_LOAD_START))
				continue;
			for (j = 0; j < *n && strcmp((*keys)[j], key); j++)
				;
			if (j < *n)
				continue;
			*keys = xgrow(*keys, *n, sizeof(**keys));
			(*keys)[(*n)++] = key;
		}
}

/* Before the first warning: a blank line when no key line precedes it. */
static void gap(FILE *f, bool *blank)
{
	if (*blank)
		fputc('\n', f);
	*blank = false;
}

/*
 * The first load above 0.5 per CPU on an experiment of each side (at its
 * start, its end, or loadavg in older databases), then the busy loop's
 * calibration when it differs between the experiments: a warning each.
 */
static void host_warnings(FILE *f, bool *blank, const struct compare_input *b,
			  const struct compare_input *c)
{
	static const char *const load_keys[] = { MK_LOAD_START, MK_LOAD_END,
						 MK_LOADAVG };
	const struct compare_input *side[2] = { b, c };
	double lo = INFINITY, hi = -INFINITY, v, ncpu;
	size_t i, j, k;
	bool said;

	for (j = 0; j < 2; j++)
		for (i = 0, said = false; side[j]->kind != INPUT_NUMBERS &&
					  i < side[j]->nsets; i++) {
			const struct experiment_row *e = &side[j]->sets[i].exp;
			const char *nc = experiment_meta(e, MK_NCPUS);
			const char *t = experiment_meta(e, MK_CALIBRATION);

			if (t && parse_double(t, &v) == 0 && v > 0) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
			if (said || !nc || parse_double(nc, &ncpu) < 0 ||
			    !(ncpu > 0))
				continue;
			for (k = 0; k < ARRAY_SIZE(load_keys) && !said; k++) {
				t = experiment_meta(e, load_keys[k]);
				if (!t || parse_double(t, &v) < 0 ||
				    !(v / ncpu > 0.5))
					continue;
				gap(f, blank);
				compare_para(f, 4, "warning: %s %s on %g CPUs "
					     "(experiment %lld of the %s): other "
					     "work disturbed the runs",
					     load_keys[k], t, ncpu,
					     (long long)e->id, side[j]->role);
				said = true;
			}
		}
	if (lo > 0 && isfinite(lo) && hi / lo > 1.05) {
		gap(f, blank);
		compare_para(f, 4, "warning: " MK_CALIBRATION " differs by "
			     "%.1f%% between experiments: the busy loop did "
			     "different work (pin it with calibration = N)",
			     100 * (hi / lo - 1));
	}
}

void compare_print_hostdiff(FILE *f, const struct compare_input *b,
			    const struct compare_input *c)
{
#define CPUS "warning", ": the sides ran on different CPUs"
#define KERNEL "note", " (expected when kernels are compared; nothing else " \
		       "should)"
#define ROW "%-24s baseline %s | candidate %s"
	static const char *const note[][3] = {
		{ MK_AFFINITY, CPUS }, { MK_CPUSET, CPUS },
		{ MK_CPUS_ONLINE, CPUS }, { MK_KERNEL_RELEASE, KERNEL },
		{ MK_KERNEL_VERSION, KERNEL },
	};
	const char **keys = NULL;
	size_t nkeys = 0, nd = 0, i, k;
	bool blank;

	meta_keys(b, &keys, &nkeys);
	meta_keys(c, &keys, &nkeys);
	for (i = 0; i < nkeys; i++) {
		char *vb = side_values(b, keys[i]), *vc = side_values(c, keys[i]);

		if (vb && vc && strcmp(vb, vc)) {
			if (!nd)
				fprintf(f, "\nHost keys that differ between "
					   "the sides:\n");
			/* the values whole, under the key when too wide */
			if (2 + snprintf(NULL, 0, ROW, keys[i], vb, vc) > WIDTH)
				fprintf(f, "  %s\n    baseline  %s\n    "
					   "candidate %s\n", keys[i], vb, vc);
			else
				fprintf(f, "  " ROW "\n", keys[i], vb, vc);
			keys[nd++] = keys[i];
		}
		free(vb);
		free(vc);
	}
	blank = !nd;
	for (i = 0; i < nd; i++)
		for (k = 0; k < ARRAY_SIZE(note); k++)
			if (!strcmp(keys[i], note[k][0])) {
				gap(f, &blank);
				compare_para(f, 4, "%s: %s differs%s",
					     note[k][1], keys[i], note[k][2]);
			}
	free(keys);
	host_warnings(f, &blank, b, c);
}
