/*
 * compare_json.c - compare's result as JSON (docs/compare-json.md): the
 * sides, then per configuration both sides' levels and intervals, the
 * runs' ministat figures, the change, its tests and flags
 * (compare_print.h).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare_print.h"
#include "lib/json.h"
#include "lib/util.h"

/* ---- json (docs/compare-json.md) ---- */

/*
 * The layout here is compare's own (several members a line), so only the
 * string and number primitives of lib/json.h are shared.  An absent
 * or empty string is null.
 */
static void json_key_str(FILE *f, const char *key, const char *v)
{
	fprintf(f, "\"%s\": ", key);
	if (v && *v)
		json_string(f, v);
	else
		fputs("null", f);
}

/* JSON has no NaN: a figure that cannot be computed is null. */
static void json_key_num(FILE *f, const char *key, double v)
{
	fprintf(f, "\"%s\": ", key);
	json_number(f, v);
}

/* A member of an object: a string (JSTR) or a number (JNUM). */
struct json_member {
	const char *key;
	bool number;
	const char *str;
	double num;
};
#define JSTR(key, v) { (key), false, (v), 0 }
#define JNUM(key, v) { (key), true, NULL, (v) }

/* The n members, sep between them. */
static void json_members(FILE *f, const struct json_member *m, size_t n,
			 const char *sep)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fputs(i ? sep : "", f);
		if (m[i].number)
			json_key_num(f, m[i].key, m[i].num);
		else
			json_key_str(f, m[i].key, m[i].str);
	}
}

static void json_selection(FILE *f, const struct compare_input *s)
{
	const struct json_member m[] = {
		JSTR("selector", s->text), JSTR("database", s->db),
	};
	size_t i;

	fputc('{', f);
	json_members(f, m, ARRAY_SIZE(m), ", ");
	fprintf(f, ", \"experiments\": [");
	for (i = 0; i < s->nsets; i++)
		fprintf(f, "%s%" PRId64, i ? ", " : "", s->sets[i].exp.id);
	fprintf(f, "]}");
}

static const char *unit_name(const struct nested *s, bool numbers)
{
	if (numbers && s->k < 2)
		return "values";
	if (s->borrowed)
		return "runs-borrowed-between";
	if (s->k < 2)
		return "runs";
	return s->pooled ? "runs-pooled" : "invocations";
}

/* ministat's figures of the side's runs, as compare's text prints them. */
static void json_runs(FILE *f, const struct summary *runs)
{
	const struct json_member v[] = {
		JNUM("min", runs->min), JNUM("median", runs->median),
		JNUM("mean", runs->mean), JNUM("max", runs->max),
		JNUM("sd", runs->sd),
	};

	fprintf(f, "\"ministat\": {\"n\": %zu, ", runs->n);
	json_members(f, v, ARRAY_SIZE(v), ", ");
	fputc('}', f);
}

static void json_side(FILE *f, const char *key, const struct compare_summary *s,
		      const struct compare_unit *u, const struct nested *m,
		      const struct summary *runs, bool numbers)
{
	const struct json_member v[] = {
		JNUM("mean", s->mean), JNUM("sd", s->sd),
		JNUM("ci_low", s->ci_low), JNUM("ci_high", s->ci_high),
		JNUM("var_between", m->var_between),
		JNUM("var_within", m->var_within), JNUM("df", m->df),
	};

	fprintf(f, "      \"%s\": {\"n\": %zu, ", key, s->n);
	json_members(f, v, ARRAY_SIZE(v), ", ");
	fprintf(f, ", \"unit\": \"%s\", \"invocations\": %zu, \"runs\": %zu, "
		   "\"borrowed_between\": %s, \"pooled\": %s,\n        ",
		unit_name(m, numbers), u->invocations, u->runs,
		m->borrowed ? "true" : "false", m->pooled ? "true" : "false");
	json_runs(f, runs);
	fputs("},\n", f);
}

static void json_params(FILE *f, const struct ds_config *c)
{
	size_t i;

	fputc('{', f);
	for (i = 0; c && i < c->nparams; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, c->params[i].key);
		fputs(": ", f);
		json_string(f, c->params[i].value);
	}
	fputc('}', f);
}

static void json_flags(FILE *f, const struct comparison *cmp)
{
	size_t i;

	fputs("      \"flags\": [", f);
	for (i = 0; i < cmp->nflags; i++) {
		const struct json_member m[] = {
			JSTR("name", cmp->flags[i].name),
			JSTR("side", cmp->flags[i].side),
			JSTR("message", cmp->flags[i].message),
		};

		fputs(i ? ", {" : "{", f);
		json_members(f, m, ARRAY_SIZE(m), ", ");
		fputc('}', f);
	}
	fputs("]\n", f);
}

/* The kernel locks' wait a run A/B, only where the BPF program timed. */
static void json_klock(FILE *f, const struct comparison *cmp)
{
	size_t i;

	if (!cmp->nklock)
		return;
	fputs("      \"klock\": [", f);
	for (i = 0; i < cmp->nklock; i++) {
		const struct compare_klock *k = &cmp->klock[i];
		const struct json_member m[] = {
			JSTR("kind", k->kind),
			JSTR("caller", k->caller),
			JNUM("base_wait_s", k->base_mean),
			JNUM("cand_wait_s", k->cand_mean),
			JNUM("change_pct", k->change_pct),
			JNUM("change_ci_low_pct", k->ci_low_pct),
			JNUM("change_ci_high_pct", k->ci_high_pct),
			JNUM("p", k->p),
		};

		fputs(i ? ", {" : "{", f);
		json_members(f, m, ARRAY_SIZE(m), ", ");
		fputc('}', f);
	}
	fputs("],\n", f);
}

static void json_comparison(FILE *f, const struct comparison *cmp,
			    const struct compare_result *r, bool bnum,
			    bool cnum)
{
	const struct compare_stats *st = &cmp->st;
	const struct json_member names[] = {
		JSTR("config", cmp->canon),
		JSTR("workload", cmp->workload),
		JSTR("section", cmp->section),
	};
	const struct json_member nums[] = {
		JNUM("change_pct", st->change_pct),
		JNUM("diff", st->diff),
		JNUM("diff_ci_low", st->diff_ci_low),
		JNUM("diff_ci_high", st->diff_ci_high),
		JNUM("change_ci_low_pct", st->change_ci_low_pct),
		JNUM("change_ci_high_pct", st->change_ci_high_pct),
		JNUM("df", st->df),
		JNUM("p_welch", st->p_welch),
		JNUM("p_mannwhitney", st->p_mannwhitney),
		JNUM("hedges_g", st->hedges_g),
		JNUM("mde_pct", st->mde_pct),
		JNUM("se", st->model.se),
	};
	const struct json_member gate[] = {
		JNUM("p", cmp->gate_p), JNUM("p_holm", cmp->gate_p_holm),
	};

	fputs("    {\n      ", f);
	json_members(f, names, ARRAY_SIZE(names), ",\n      ");
	fputs(",\n      \"params\": ", f);
	json_params(f, bnum ? NULL : cmp->config);
	fputs(",\n      ", f);
	json_key_str(f, "metric", r->metric);
	fputs(",\n", f);
	json_side(f, "baseline", &st->base, &cmp->ubase, &st->model.a,
		  &cmp->runs_base, bnum);
	json_side(f, "candidate", &st->cand, &cmp->ucand, &st->model.b,
		  &cmp->runs_cand, cnum);
	fputs("      ", f);
	json_members(f, nums, ARRAY_SIZE(nums), ",\n      ");
	fprintf(f, ",\n      \"scale\": \"%s\",\n",
		st->log_scale ? "log" : "linear");
	if (r->gate_pct >= 0) {
		fputs("      \"gate\": {", f);
		json_members(f, gate, ARRAY_SIZE(gate), ", ");
		fprintf(f, ", \"fails\": %s},\n",
			cmp->gate_fail ? "true" : "false");
	}
	fprintf(f, "      \"mannwhitney_method\": \"%s\",\n",
		st->mw_exact ? "exact" : "normal");
	fprintf(f, "      \"verdict\": \"%s\",\n      \"needed_runs\": ",
		verdict_names[st->verdict]);
	if (st->needed_runs) {
		const struct json_member plan[] = {
			JNUM("runs_opt", st->plan.runs_opt),
			JNUM("boot_cost_s", st->plan.c_boot),
			JNUM("run_cost_s", st->plan.c_run),
		};

		fprintf(f, "%zu,\n      \"needed_invocations\": %zu,\n",
			st->needed_runs, st->needed_invocations);
		fprintf(f, "      \"plan\": {\"boots\": %zu, \"runs\": %zu, ",
			st->plan.boots, st->plan.runs);
		json_members(f, plan, ARRAY_SIZE(plan), ", ");
		fputs("},\n", f);
	} else
		fputs("null,\n      \"needed_invocations\": null,\n", f);
	fputs("      \"fairness\": {", f);     /* analysis/abfair.h */
	abfair_json(f, &cmp->fair);
	fputs("},\n", f);
	json_klock(f, cmp);
	json_flags(f, cmp);
	fputs("    }", f);
}

static void json_unmatched(FILE *f, const struct compare_result *r)
{
	size_t i;

	fputs("  \"unmatched\": [", f);
	for (i = 0; i < r->nunmatched; i++) {
		const struct compare_unmatched *u = &r->unmatched[i];
		const struct json_member m[] = {
			JSTR("side", u->side), JSTR("workload", u->workload),
			JSTR("section", u->section), JSTR("config", u->canon),
			JSTR("reason", u->reason),
		};

		fputs(i ? ",\n    {" : "\n    {", f);
		json_members(f, m, ARRAY_SIZE(m), ", ");
		fputc('}', f);
	}
	fputs(r->nunmatched ? "\n  ],\n" : "],\n", f);
}

static void json_side_flags(FILE *f, const struct compare_result *r)
{
	size_t i;

	fputs("  \"side_flags\": [", f);
	for (i = 0; i < r->nside_flags; i++) {
		const struct compare_side_flag *sf = &r->side_flags[i];
		const struct json_member m[] = {
			JSTR("name", sf->name), JSTR("side", sf->side),
			JNUM("configurations", (double)sf->nconfigs),
			JSTR("message", sf->message),
		};

		fputs(i ? ",\n    {" : "\n    {", f);
		json_members(f, m, ARRAY_SIZE(m), ", ");
		fputc('}', f);
	}
	fputs(r->nside_flags ? "\n  ],\n" : "],\n", f);
}

void compare_print_json(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c)
{
	size_t i;

	fputs("{\n  ", f);
	json_key_str(f, "metric", r->metric);
	fputs(",\n  ", f);
	json_key_str(f, "metric_unit", metric_unit(r->metric));
	fprintf(f, ",\n  \"direction\": \"%s\",\n",
		r->opts.dir == DIR_LOWER ? "lower" : "higher");
	fprintf(f, "  \"confidence\": %g,\n  \"threshold_pct\": %g,\n",
		r->opts.confidence, r->opts.threshold_pct);
	fputs("  \"tests\": {\"difference\": \"two-level-satterthwaite\", "
	      "\"rank\": \"mann-whitney-u\"},\n", f);
	fputs("  \"model\": {\"levels\": [\"runs\", \"invocations\"], "
	      "\"components\": \"anova-moments\", \"df\": \"satterthwaite\", "
	      "\"scale\": \"log when every value > 0\"},\n  \"baseline\": ", f);
	json_selection(f, b);
	fputs(",\n  \"candidate\": ", f);
	json_selection(f, c);
	fputs(",\n  \"comparisons\": [", f);
	for (i = 0; i < r->n; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_comparison(f, &r->cmp[i], r, b->kind == INPUT_NUMBERS,
				c->kind == INPUT_NUMBERS);
	}
	fputs(r->n ? "\n  ],\n" : "],\n", f);
	json_unmatched(f, r);
	json_side_flags(f, r);
	compare_calib_json(f, r, b, c);
	fprintf(f, "  \"summary\": {\"faster\": %zu, \"slower\": %zu, "
		   "\"no_change\": %zu, \"inconclusive\": %zu, "
		   "\"unmatched\": %zu}",
		r->count[VERDICT_FASTER], r->count[VERDICT_SLOWER],
		r->count[VERDICT_NO_CHANGE], r->count[VERDICT_INCONCLUSIVE],
		r->nunmatched);
	if (r->gate_pct >= 0)
		fprintf(f, ",\n  \"regression\": {\"threshold_pct\": %g, "
			   "\"count\": %zu, \"correction\": \"holm\", "
			   "\"family\": %zu, \"alpha\": %g, "
			   "\"unguaranteed\": %zu}", r->gate_pct,
			r->gate_failures, r->n, 1 - r->opts.confidence,
			r->gate_unguaranteed);
	fputs("\n}\n", f);
}

