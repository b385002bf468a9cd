/*
 * levels_report.c - invocations of a level as text (the method stated
 * once, then one aligned block per configuration) or json
 * (docs/report-json.md, "levels"); the command is cli/cmd_levels.c.
 * Output is a pure function of the analysis: "C" number formats, times
 * in UTC, no clock.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "lib/escape.h"
#include "lib/json.h"
#include "lib/numfmt.h"
#include "analysis/levels.h"
#include "analysis/report.h"
#include "lib/utf8.h"
#include "lib/wrap.h"
#include "db/contract.h"
#include "lib/util.h"

#define LEVELS_JSON_VERSION 1
#define WIDTH 78

/* ---- numbers ---- */

/* numfmt: 4 significant digits, k/M/G above 10^4, as the report. */
#define NUM(v) numfmt((char[24]){ 0 }, 24, (v))

static const char *pct(char *buf, size_t len, double frac)
{
	if (isfinite(frac))
		snprintf(buf, len, "%.1f%%", 100 * frac);
	else
		snprintf(buf, len, "-");
	return buf;
}

#define PCT(v) pct((char[16]){ 0 }, 16, (v))

static const char *utc(char *buf, size_t len, double t)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (!(t > 0) || !gmtime_r(&s, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%SZ", &tm))
		snprintf(buf, len, "-");
	return buf;
}

/* ---- the advice, in words (text and json share it) ---- */

static char *advice_split(const struct level_config *c, const char *what)
{
	const struct level_plan *p = &c->plan;

	return xasprintf("%s: %ld run%s per boot instead of %s (n_opt %.3g "
			 "for c_r %.3g s, c_i %.3g s); in the same time the "
			 "CI would be %.1f%% narrower",
			 what, p->n_best, p->n_best == 1 ? "" : "s",
			 NUM(p->n_now), p->n_opt, p->run_cost, p->boot_cost,
			 100 * (1 - 1 / p->gain));
}

static char *advice_message(const struct level_config *c)
{
	const struct level_plan *p = &c->plan;
	const struct anova *a = &c->anova;

	switch (p->advice) {
	case ADVICE_INSUFFICIENT:
		return xstrdup(c->k == 0 ? "no measured run has this metric"
			: c->k == 1 ? "one invocation only: run the experiment "
				      "again (e.g. after a reboot) to separate "
				      "boot-to-boot from run-to-run variance"
			: "no invocation has two runs: the within-invocation "
			  "variance is unknown");
	case ADVICE_NO_COST:
		return xstrdup("no run wall times recorded: give --run-cost "
			       "SECONDS for the runs-per-boot advice");
	case ADVICE_NO_SPREAD:
		return xstrdup("every run gave the same value: nothing to "
			       "allocate");
	case ADVICE_ONE_INVOCATION:
		return xasprintf("no between-invocation variance detected "
				 "(F p %.3g >= %g): runs within a boot tell "
				 "about as much as runs across boots, but the "
				 "interval rests on the boots (k-1 df), so "
				 "keep at least 2: see the plan", a->p,
				 LEVELS_ALPHA);
	case ADVICE_MORE_BOOTS:
		return advice_split(c, p->n_best == 1
			? "more boots, as few runs per boot as possible"
			: "more boots, fewer runs per boot");
	case ADVICE_MORE_RUNS:
		return advice_split(c, "more runs per boot, fewer boots");
	case ADVICE_KEEP:
		return xasprintf("keep %ld run%s per boot: already the best "
				 "split of time between runs and boots (n_opt "
				 "%.3g for c_r %.3g s, c_i %.3g s)", p->n_best,
				 p->n_best == 1 ? "" : "s", p->n_opt,
				 p->run_cost, p->boot_cost);
	default:
		return xstrdup("?");
	}
}

/*
 * compare's plan in compare's words: what a comparison of this level with
 * another like it needs to resolve the threshold.  NULL: no plan.
 */
static char *plan_message(const struct level_config *c,
			  const struct levels_opts *o)
{
	const struct boot_plan *b = &c->boot;
	char r[96] = "runs per boot as now: the run's cost unknown";

	if (!b->boots)
		return NULL;
	if (isinf(b->runs_opt))
		snprintf(r, sizeof(r), "no between-boot variance seen: the "
			 "cheapest boots x runs");
	else if (isfinite(b->runs_opt))
		snprintf(r, sizeof(r), "runs per boot r* %.3g for a boot of "
			 "%g s, a run of %.3g s", b->runs_opt, b->c_boot,
			 b->c_run);
	return xasprintf("%zu boots of %zu runs a side would resolve %g%% in a "
			 "compare (%.0f%% power; %s)", b->boots, b->runs,
			 o->threshold_pct, 100 * LEVELS_POWER, r);
}

/* ---- text ---- */

static void text_invocations(FILE *f, const struct level *lv)
{
	fprintf(f, "%-6s %-8s %-21s %-12s %s\n", "inv", "id", "created",
		"status", "kernel");
	for (size_t i = 0; i < lv->ninv; i++) {
		const struct experiment_row *e = &lv->inv[i].exp;
		const char *kernel = experiment_meta(e, MK_KERNEL_RELEASE);

		fprintf(f, "%-6zu %-8lld %-21s %-12s %s\n", i + 1,
			(long long)e->id, utc((char[32]){ 0 }, 32, e->created_at),
			e->status, kernel ? kernel : "-");
	}
}

static void text_config_runs(FILE *f, const struct level *lv,
			     const struct level_config *c)
{
	fprintf(f, "  %-14s %6s %12s %12s\n", "invocation", "runs", "mean",
		"sd");
	for (size_t i = 0; i < c->k; i++) {
		const struct level_invocation *v = &c->inv[i];
		char name[32];

		snprintf(name, sizeof(name), "%zu (id %lld)", v->inv + 1,
			 (long long)lv->inv[v->inv].exp.id);
		fprintf(f, "  %-14s %6zu %12s %12s\n", name, v->n,
			NUM(v->mean), NUM(v->sd));
	}
}

/* The interval's line with its note after it, or under it when the
 * line would pass WIDTH columns. */
static void text_ci(FILE *f, const char *what, const struct summary *s,
		    double conf, const char *note)
{
	double half = (s->ci_high - s->ci_low) / 2;
	char line[160];

	snprintf(line, sizeof(line), "  %-10s %s  %g%% CI [%s, %s] ±%s", what,
		 NUM(s->mean), 100 * conf, NUM(s->ci_low), NUM(s->ci_high),
		 PCT(half / fabs(s->mean)));
	if (utf8_columns(line) + 2 + strlen(note) <= WIDTH) {
		fprintf(f, "%s  %s\n", line, note);
		return;
	}
	fprintf(f, "%s\n%13s", line, "");
	wrap_print(f, note, 13, 13, WIDTH);
}

static void text_config(FILE *f, const struct levels *l, const struct level *lv,
			const struct level_config *c)
{
	const struct anova *a = &c->anova;
	char note[192], *msg, *lead;

	lead = xasprintf("[%s] %s", c->section, c->workload);
	wrap_lead(f, lead, c->canon, 4, WIDTH);
	free(lead);
	if (c->k) {
		text_config_runs(f, lv, c);
		if (c->model.pooled)
			snprintf(note, sizeof(note), "(two-level model, unit: "
				 "runs pooled: no between-invocation variance "
				 "seen, but the error rests on the %zu "
				 "invocations, t %.3g df)", c->k,
				 c->model.df);
		else
			snprintf(note, sizeof(note), "(two-level model, unit: "
				 "invocations, t %.3g df)", c->model.df);
		text_ci(f, "mean", &c->grand, l->opts.confidence, note);
		snprintf(note, sizeof(note), "(%zu runs as if independent)",
			 c->n);
		text_ci(f, "pooled", &c->pooled, l->opts.confidence, note);
		if (c->log_scale)
			fprintf(f, "  %-10s of logs: between sd %s (%s)  "
				"within sd %s (%s)\n", "variance",
				PCT(sqrt(a->var_between)), PCT(c->share_between),
				PCT(sqrt(a->var_within)), PCT(c->share_within));
		else
			fprintf(f, "  %-10s between %s (sd %s, %s)  within %s "
				"(sd %s, %s)\n", "variance",
				NUM(a->var_between), NUM(sqrt(a->var_between)),
				PCT(c->share_between), NUM(a->var_within),
				NUM(sqrt(a->var_within)), PCT(c->share_within));
		fprintf(f, "  %-10s ICC %.3f  F(%zu, %zu) = %.4g, p = %.3g  "
			"n_eff %.3g of %zu runs\n", "", a->icc,
			a->k > 0 ? a->k - 1 : 0, a->n > a->k ? a->n - a->k : 0,
			a->f, a->p, c->n_eff, c->n);
	}
	msg = advice_message(c);
	fprintf(f, "  %-10s ", "advice");
	wrap_print(f, msg, 13, 13, WIDTH);
	free(msg);
	msg = plan_message(c, &l->opts);
	if (msg) {
		fprintf(f, "  %-10s ", "plan");
		wrap_print(f, msg, 13, 13, WIDTH);
		free(msg);
	}
	fputc('\n', f);
}

static const char method_text[] =
	"Method: per configuration, a one-way random-effects ANOVA over the "
	"invocations (moment estimates; Searle, Casella & McCulloch 1992) "
	"splits the variance into between-invocation s2_b and "
	"within-invocation s2_w; ICC = s2_b/(s2_b+s2_w); F tests s2_b = 0; "
	"effective runs n_eff = N/(1+(n0-1)ICC).  The CI of the mean is "
	"compare's two-level model (generalised least squares with the ANOVA "
	"components, Satterthwaite df at most k-1; when s2_b is estimated "
	"below 0, the runs' mean with its variance from the untruncated "
	"estimate, the invocation means' t interval in a balanced design); "
	"the pooled CI, all runs as if independent, is too narrow when "
	"ICC > 0.  Positive values are analysed as logs, as compare does "
	"(the level a geometric mean, the components of logs, their sd in "
	"%; --scale linear: the values).  The plan is compare's "
	"(stats_boot_plan): B boots of R runs a side that resolve "
	"--threshold with 80% power.  Runs per boot that buy the most precision per second "
	"(Kalibera & Jones 2013): n_opt = sqrt(c_i*s2_w/(c_r*s2_b)) with ";

static void text_method(FILE *f, const struct levels *l)
{
	const struct levels_opts *o = &l->opts;
	const char *unit = metric_unit(o->metric);
	char cr[48] = "the mean run wall time", *m;

	fprintf(f, "Invocations: experiments with the same name and label "
		   "(e.g. one per boot).\n"
		   "Metric %s%s%s%s, measured ok runs; confidence %g%%.\n",
		o->metric, *unit ? " (" : "", unit, *unit ? ")" : "",
		100 * o->confidence);
	if (l->filter)
		fprintf(f, "Configurations with %s only (the selector's "
			   "filter).\n", l->filter);
	if (o->run_cost > 0)
		snprintf(cr, sizeof(cr), "%g s per run", o->run_cost);
	m = xasprintf("%sc_i = %g s per boot, c_r = %s.", method_text,
		      o->boot_cost, cr);
	wrap_print(f, m, 0, 2, WIDTH);
	fputc('\n', f);
	free(m);
}

/*
 * Through escape_stream: no control byte of a name from the database
 * reaches the terminal; the level's name and label, which head their
 * block, escaped whole, line breaks too.
 */
int levels_write_text(FILE *out, const struct levels *l)
{
	FILE *f = escape_stream(out);

	if (!f)
		return error("writing the levels report: out of memory");
	text_method(f, l);
	for (size_t i = 0; i < l->nlevels; i++) {
		const struct level *lv = &l->levels[i];
		char *name = escape_text_dup(lv->name);
		char *label = escape_text_dup(*lv->label ? lv->label : "(no label)");

		fprintf(f, "== level %s / %s: %zu invocation%s ==\n",
			name ? name : "?", label ? label : "?", lv->ninv,
			lv->ninv == 1 ? "" : "s");
		free(name);
		free(label);
		text_invocations(f, lv);
		fputc('\n', f);
		for (size_t c = 0; c < lv->nconfigs; c++)
			text_config(f, l, lv, &lv->configs[c]);
	}
	fclose(f);
	return ferror(out) ? error("writing the levels report: I/O error") : 0;
}

/* ---- json ---- */

static void json_methods(struct json_writer *w)
{
	json_open(w, "methods", '{');
	json_str(w, "invocation", "experiments with the same name and label");
	json_str(w, "anova", "one-way random effects, moment estimates");
	json_str(w, "mean_ci", "two-level model: GLS with the ANOVA "
		 "components (runs' mean, untruncated variance, when s2_b "
		 "is estimated below 0), student-t on Satterthwaite df at "
		 "most k-1; one invocation: its runs, n-1 df");
	json_str(w, "n_eff", "N / (1 + (n0 - 1) icc)");
	json_str(w, "n_opt", "sqrt(c_i var_within / (c_r var_between))");
	json_close(w, '}');
}

static void json_anova(struct json_writer *w, const struct level_config *c)
{
	const struct anova *a = &c->anova;

	json_open(w, "anova", '{');
	json_int(w, "df_between", a->k > 0 ? (long long)a->k - 1 : 0);
	json_int(w, "df_within", a->n > a->k ? (long long)(a->n - a->k) : 0);
	json_num(w, "ms_between", a->ms_between);
	json_num(w, "ms_within", a->ms_within);
	json_num(w, "f", a->f);
	json_num(w, "p", a->p);
	json_num(w, "var_between", a->var_between);
	json_num(w, "var_within", a->var_within);
	json_num(w, "share_between", c->share_between);
	json_num(w, "share_within", c->share_within);
	json_num(w, "icc", a->icc);
	json_num(w, "n0", a->n0);
	json_close(w, '}');
}

static void json_ci(struct json_writer *w, const char *key,
		    const struct summary *s, double df)
{
	json_open(w, key, '{');
	json_num(w, "mean", s->mean);
	json_num(w, "ci_low", s->ci_low);
	json_num(w, "ci_high", s->ci_high);
	json_num(w, "df", df);
	json_close(w, '}');
}

static void json_advice(struct json_writer *w, const struct level_config *c)
{
	const struct level_plan *p = &c->plan;
	char *msg = advice_message(c);

	json_open(w, "advice", '{');
	json_str(w, "code", levels_advice_names[p->advice]);
	json_num(w, "run_cost_s", p->run_cost);
	json_num(w, "boot_cost_s", p->boot_cost);
	json_num(w, "n_now", p->n_now);
	json_num(w, "n_opt", p->n_opt);
	json_bool(w, "n_opt_unbounded", isinf(p->n_opt));
	json_num(w, "n_best", p->n_best > 0 ? (double)p->n_best : NAN);
	json_num(w, "gain", p->gain);
	json_str(w, "message", msg);
	json_close(w, '}');
	free(msg);
}

static void json_plan(struct json_writer *w, const struct level_config *c,
		      const struct levels_opts *o)
{
	const struct boot_plan *b = &c->boot;
	char *msg = plan_message(c, o);

	json_open(w, "plan", '{');
	json_num(w, "boots", b->boots ? (double)b->boots : NAN);
	json_num(w, "runs", b->boots ? (double)b->runs : NAN);
	json_num(w, "runs_opt", b->runs_opt);
	json_bool(w, "runs_opt_unbounded", isinf(b->runs_opt));
	json_num(w, "threshold_pct", o->threshold_pct);
	json_num(w, "power", LEVELS_POWER);
	if (msg)
		json_str(w, "message", msg);
	json_close(w, '}');
	free(msg);
}

static void json_config(struct json_writer *w, const struct levels *l,
			const struct level *lv, const struct level_config *c)
{
	json_open(w, NULL, '{');
	json_str(w, "section", c->section);
	json_str(w, "workload", c->workload);
	json_str(w, "canon", c->canon);
	json_int(w, "k", (long long)c->k);
	json_int(w, "n", (long long)c->n);
	json_open(w, "invocations", '[');
	for (size_t i = 0; i < c->k; i++) {
		json_open(w, NULL, '{');
		json_int(w, "experiment", (long long)lv->inv[c->inv[i].inv].exp.id);
		json_int(w, "n", (long long)c->inv[i].n);
		json_num(w, "mean", c->inv[i].mean);
		json_num(w, "sd", c->inv[i].sd);
		json_close(w, '}');
	}
	json_close(w, ']');
	json_str(w, "scale", c->log_scale ? "log" : "linear");
	json_anova(w, c);
	json_num(w, "n_eff", c->n_eff);
	json_ci(w, "mean", &c->grand, c->k >= 2 ? c->model.df : NAN);
	json_ci(w, "pooled", &c->pooled, c->n ? (double)c->n - 1 : 0);
	json_advice(w, c);
	json_plan(w, c, &l->opts);
	json_close(w, '}');
}

static void json_level(struct json_writer *w, const struct levels *l,
		       const struct level *lv)
{
	json_open(w, NULL, '{');
	json_str(w, "name", lv->name);
	json_str(w, "label", lv->label);
	json_open(w, "invocations", '[');
	for (size_t i = 0; i < lv->ninv; i++) {
		const struct experiment_row *e = &lv->inv[i].exp;

		json_open(w, NULL, '{');
		json_int(w, "id", (long long)e->id);
		json_str(w, "uuid", e->uuid);
		json_num(w, "created_at", e->created_at);
		json_str(w, "status", e->status);
		json_close(w, '}');
	}
	json_close(w, ']');
	json_open(w, "configs", '[');
	for (size_t c = 0; c < lv->nconfigs; c++)
		json_config(w, l, lv, &lv->configs[c]);
	json_close(w, ']');
	json_close(w, '}');
}

int levels_write_json(FILE *f, const struct levels *l)
{
	const struct levels_opts *o = &l->opts;
	struct json_writer w = { .f = f };

	json_open(&w, NULL, '{');
	json_int(&w, "schema", LEVELS_JSON_VERSION);
	json_str(&w, "report", "levels");
	json_str(&w, "metric", o->metric);
	json_str(&w, "unit", metric_unit(o->metric));
	json_num(&w, "confidence", o->confidence);
	json_num(&w, "alpha", LEVELS_ALPHA);
	json_num(&w, "boot_cost_s", o->boot_cost);
	json_num(&w, "run_cost_s", o->run_cost > 0 ? o->run_cost : NAN);
	if (l->filter)
		json_str(&w, "filter", l->filter);
	json_methods(&w);
	json_open(&w, "levels", '[');
	for (size_t i = 0; i < l->nlevels; i++)
		json_level(&w, l, &l->levels[i]);
	json_close(&w, ']');
	json_close(&w, '}');
	fputc('\n', f);
	return ferror(f) ? error("writing the levels report: I/O error") : 0;
}
