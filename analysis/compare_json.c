/*
 * compare_json.c - compare's result as JSON, as docs/compare-json.md
 * describes it (compare.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/compare.h"
#include "lib/json.h"
#include "lib/util.h"

/* The document and each comparison one member a line, the small objects
 * flat; an absent or empty string is null. */
static void str_or_null(struct json_writer *w, const char *key,
			const char *v)
{
	if (v && *v)
		json_str(w, key, v);
	else
		json_null(w, key);
}

/* A member of an object: a string, a number (an integer is printed as
 * one) or a boolean. */
struct json_member {
	const char *key;
	char type;
	const char *str;
	double num;
};
#define JSTR(key, v) { (key), 's', (v), 0 }
#define JNUM(key, v) { (key), 'n', NULL, (double)(v) }
#define JBOOL(key, v) { (key), 'b', NULL, (v) }

static void json_members(struct json_writer *w, const struct json_member *m,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (m[i].type == 'n')
			json_num(w, m[i].key, m[i].num);
		else if (m[i].type == 'b')
			json_bool(w, m[i].key, m[i].num > 0);
		else
			str_or_null(w, m[i].key, m[i].str);
	}
}

static void json_object(struct json_writer *w, const char *key,
			const struct json_member *m, size_t n)
{
	json_open_flat(w, key, '{');
	json_members(w, m, n);
	json_close(w, '}');
}

static void json_selection(struct json_writer *w, const char *key,
			   const struct compare_input *s)
{
	size_t i;

	json_open_flat(w, key, '{');
	str_or_null(w, "selector", s->text);
	str_or_null(w, "database", s->db);
	json_open(w, "experiments", '[');
	for (i = 0; i < s->nsets; i++)
		json_int(w, NULL, s->sets[i].exp.id);
	json_close(w, ']');
	json_close(w, '}');
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

static void json_side(struct json_writer *w, const struct comparison *cmp,
		      bool cand, bool numbers)
{
	const struct compare_summary *s = cand ? &cmp->st.cand : &cmp->st.base;
	const struct compare_unit *u = cand ? &cmp->ucand : &cmp->ubase;
	const struct nested *m = cand ? &cmp->st.model.b : &cmp->st.model.a;
	const struct summary *runs = cand ? &cmp->runs_cand : &cmp->runs_base;
	const struct json_member v[] = {
		JNUM("n", s->n), JNUM("mean", s->mean), JNUM("sd", s->sd),
		JNUM("ci_low", s->ci_low), JNUM("ci_high", s->ci_high),
		JNUM("var_between", m->var_between),
		JNUM("var_within", m->var_within), JNUM("df", m->df),
		JSTR("unit", unit_name(m, numbers)),
		JNUM("invocations", u->invocations), JNUM("runs", u->runs),
		JBOOL("borrowed_between", m->borrowed),
		JBOOL("pooled", m->pooled),
	};
	const struct json_member ministat[] = {
		JNUM("n", runs->n), JNUM("min", runs->min),
		JNUM("median", runs->median), JNUM("mean", runs->mean),
		JNUM("max", runs->max), JNUM("sd", runs->sd),
	};

	json_open_flat(w, cand ? "candidate" : "baseline", '{');
	json_members(w, v, ARRAY_SIZE(v));
	json_object(w, "ministat", ministat, ARRAY_SIZE(ministat));
	json_close(w, '}');
}

static void json_params(struct json_writer *w, const struct ds_config *c)
{
	size_t i;

	json_open_flat(w, "params", '{');
	for (i = 0; c && i < c->nparams; i++)
		json_str(w, c->params[i].key, c->params[i].value);
	json_close(w, '}');
}

/* The kernel locks' wait a run A/B (only where the BPF program timed),
 * how often B beat A (null: fewer than 2 invocations a side), every
 * secondary metric by |z| with its BH q, and the flags. */
static void json_extras(struct json_writer *w, const struct comparison *cmp)
{
	const struct compare_beat *b = &cmp->beat;
	const struct json_member beat[] = {
		JNUM("pairs", (double)b->pairs), JNUM("wins", (double)b->wins),
		JNUM("ties", (double)b->ties),
		JNUM("p_mannwhitney", cmp->st.p_mannwhitney),
		JNUM("p_min", b->p_min), JBOOL("reachable", b->reachable),
	};
	size_t i;

	if (cmp->nklock)
		json_open_flat(w, "klock", '[');
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
			JNUM("p_holm", k->p_holm),
		};

		json_object(w, NULL, m, ARRAY_SIZE(m));
	}
	if (cmp->nklock)
		json_close(w, ']');
	if (b->pairs)
		json_object(w, "beat", beat, ARRAY_SIZE(beat));
	else
		json_null(w, "beat");
	json_open_flat(w, "secondary", '[');
	for (i = 0; i < cmp->nsecond; i++) {
		const struct compare_second *s = &cmp->second[i];
		const struct json_member m[] = {
			JSTR("metric", s->name), JNUM("base", s->base),
			JNUM("cand", s->cand), JNUM("change_pct", s->change_pct),
			JNUM("change_ci_low_pct", s->ci_low_pct),
			JNUM("change_ci_high_pct", s->ci_high_pct),
			JNUM("z", s->z), JNUM("p", s->p), JNUM("q", s->q),
		};

		json_object(w, NULL, m, ARRAY_SIZE(m));
	}
	json_close(w, ']');
	json_open_flat(w, "flags", '[');
	for (i = 0; i < cmp->nflags; i++) {
		const struct json_member m[] = {
			JSTR("name", cmp->flags[i].name),
			JSTR("side", cmp->flags[i].side),
			JSTR("message", cmp->flags[i].message),
		};

		json_object(w, NULL, m, ARRAY_SIZE(m));
	}
	json_close(w, ']');
}

static void json_comparison(struct json_writer *w, const struct comparison *cmp,
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
		JSTR("scale", st->log_scale ? "log" : "linear"),
	};
	const struct json_member gate[] = {
		JSTR("result", gate_result_names[cmp->gate]),
		JNUM("p", cmp->gate_p), JNUM("p_holm", cmp->gate_p_holm),
		JNUM("p_pass", cmp->gate_p_pass), JBOOL("fails", cmp->gate_fail),
	};
	const struct json_member plan[] = {
		JNUM("boots", cmp->gate_plan.boots),
		JNUM("runs", cmp->gate_plan.runs),
	};
	const struct json_member after[] = {     /* needed: null when none */
		JSTR("mannwhitney_method", st->mw_exact ? "exact" : "normal"),
		JSTR("verdict", verdict_names[st->verdict]),
		JNUM("needed_runs",
		     st->needed_runs ? (double)st->needed_runs : NAN),
		JNUM("needed_invocations",
		     st->needed_runs ? (double)st->needed_invocations : NAN),
	};
	const struct json_member need[] = {
		JNUM("boots", st->plan.boots), JNUM("runs", st->plan.runs),
		JNUM("runs_opt", st->plan.runs_opt),
		JNUM("boot_cost_s", st->plan.c_boot),
		JNUM("run_cost_s", st->plan.c_run),
	};

	json_open(w, NULL, '{');
	json_members(w, names, ARRAY_SIZE(names));
	json_params(w, bnum ? NULL : cmp->config);
	str_or_null(w, "metric", r->metric);
	json_side(w, cmp, false, bnum);
	json_side(w, cmp, true, cnum);
	json_members(w, nums, ARRAY_SIZE(nums));
	if (r->gate_pct >= 0) {
		json_open_flat(w, "gate", '{');
		json_members(w, gate, ARRAY_SIZE(gate));
		if (cmp->gate == GATE_INCONCLUSIVE && cmp->gate_plan.boots)
			json_object(w, "plan", plan, ARRAY_SIZE(plan));
		json_close(w, '}');
	}
	json_members(w, after, ARRAY_SIZE(after));
	if (st->needed_runs)
		json_object(w, "plan", need, ARRAY_SIZE(need));
	json_open_flat(w, "fairness", '{');     /* analysis/abfair.h */
	abfair_json(w, &cmp->fair);
	json_close(w, '}');
	json_extras(w, cmp);
	json_close(w, '}');
}

/* The configurations not compared, and the flags carried per side. */
static void json_unmatched(struct json_writer *w,
			   const struct compare_result *r)
{
	size_t i;

	json_open(w, "unmatched", '[');
	for (i = 0; i < r->nunmatched; i++) {
		const struct compare_unmatched *u = &r->unmatched[i];
		const struct json_member m[] = {
			JSTR("side", u->side), JSTR("workload", u->workload),
			JSTR("section", u->section), JSTR("config", u->canon),
			JSTR("reason", u->reason),
		};

		json_object(w, NULL, m, ARRAY_SIZE(m));
	}
	json_close(w, ']');
	json_open(w, "side_flags", '[');
	for (i = 0; i < r->nside_flags; i++) {
		const struct compare_side_flag *sf = &r->side_flags[i];
		const struct json_member m[] = {
			JSTR("name", sf->name), JSTR("side", sf->side),
			JNUM("configurations", (double)sf->nconfigs),
			JSTR("message", sf->message),
		};

		json_object(w, NULL, m, ARRAY_SIZE(m));
	}
	json_close(w, ']');
}

static void json_summary(struct json_writer *w, const struct compare_result *r)
{
	const struct json_member sum[] = {
		JNUM("faster", r->count[VERDICT_FASTER]),
		JNUM("slower", r->count[VERDICT_SLOWER]),
		JNUM("no_change", r->count[VERDICT_NO_CHANGE]),
		JNUM("inconclusive", r->count[VERDICT_INCONCLUSIVE]),
		JNUM("unmatched", r->nunmatched),
	};

	json_object(w, "summary", sum, ARRAY_SIZE(sum));
	if (r->gate_pct < 0)
		return;
	json_open_flat(w, "regression", '{');
	json_key(w, "threshold_pct");
	fprintf(w->f, "%g", r->gate_pct);
	json_str(w, "result", r->gate_failures ? "fail" :
		 r->gate_inconclusive ? "inconclusive" : "pass");
	json_int(w, "exit", compare_gate_status(r));
	json_int(w, "count", (long long)r->gate_failures);
	json_int(w, "inconclusive", (long long)r->gate_inconclusive);
	json_str(w, "correction", "holm");
	json_int(w, "family", (long long)r->n);
	json_key(w, "alpha");
	fprintf(w->f, "%g", 1 - r->opts.confidence);
	json_int(w, "unguaranteed", (long long)r->gate_unguaranteed);
	json_close(w, '}');
}

void compare_print_json(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c)
{
	struct json_writer w = { .f = f };
	size_t i;

	json_open(&w, NULL, '{');
	str_or_null(&w, "metric", r->metric);
	str_or_null(&w, "metric_unit", metric_unit(r->metric));
	json_str(&w, "direction", r->opts.dir == DIR_LOWER ? "lower" : "higher");
	json_key(&w, "confidence");     /* as typed: %g */
	fprintf(f, "%g", r->opts.confidence);
	json_key(&w, "threshold_pct");
	fprintf(f, "%g", r->opts.threshold_pct);
	/* the tests and the model every interval comes from: fixed text */
	json_key(&w, "tests");
	fputs("{\"difference\": \"two-level-satterthwaite\", \"rank\": "
	      "\"mann-whitney-u\"}", f);
	json_key(&w, "model");
	fputs("{\"levels\": [\"runs\", \"invocations\"], \"components\": "
	      "\"anova-moments\", \"df\": \"satterthwaite\", \"scale\": "
	      "\"log when every value > 0\"}", f);
	json_selection(&w, "baseline", b);
	json_selection(&w, "candidate", c);
	json_open(&w, "comparisons", '[');
	for (i = 0; i < r->n; i++)
		json_comparison(&w, &r->cmp[i], r, b->kind == INPUT_NUMBERS,
				c->kind == INPUT_NUMBERS);
	json_close(&w, ']');
	json_unmatched(&w, r);
	compare_calib_json(&w, r, b, c);
	json_summary(&w, r);
	json_close(&w, '}');
	fputc('\n', f);
}
