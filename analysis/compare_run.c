/*
 * compare_run.c - `contend compare`'s one entry point: a request (the
 * sides as the user named them, the options) in, both sides loaded and
 * the result out (compare_input.h), and what must be said after the
 * result is printed: the regression the gate found, or why nothing was
 * compared; and ministat's table of sides that are all numbers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_input.h"
#include "lib/escape.h"
#include "lib/util.h"

/* Loads both sides and settles what they are compared by. */
static int prepare(const struct compare_request *q, struct compare_outcome *o,
		   struct compare_opts *co)
{
	struct compare_input *b = &o->base, *c = &o->cand;
	int ret;

	ret = compare_input_load(b, q->db, &q->nf, q->in, q->inlen);
	if (!ret)
		ret = compare_input_load(c, q->db, &q->nf, q->in, q->inlen);
	if (ret)
		return ret;
	compare_inputs_overlap(b, c);
	compare_inputs_match(b, c);
	if (compare_inputs_metric(&o->metric, b, c) < 0 ||
	    compare_inputs_opts(b, c, o->metric, q->dir, q->threshold,
				q->confidence, co) < 0)
		return EXIT_USAGE;
	co->boot_cost = q->boot_cost;
	co->run_cost = q->run_cost;
	co->linear = q->linear;
	if (compare_input_one_value(b) < 0 || compare_input_one_value(c) < 0)
		return EXIT_USAGE;
	if ((b->kind == INPUT_NUMBERS &&
	     compare_input_number_side(b, c, o->metric) < 0) ||
	    (c->kind == INPUT_NUMBERS &&
	     compare_input_number_side(c, b, o->metric) < 0))
		return EXIT_USAGE;
	return 0;
}

int compare_run(const struct compare_request *q, struct compare_outcome *o)
{
	struct compare_opts co;
	struct compare_result *r = &o->r;

	memset(o, 0, sizeof(*o));
	o->base = (struct compare_input){ .text = q->base, .role = "baseline",
					  .files = q->files };
	o->cand = (struct compare_input){ .text = q->cand,
					  .role = "candidate",
					  .files = q->files };
	o->metric = q->metric;
	o->status = prepare(q, o, &co);
	if (o->status)
		return o->status;
	if (compare_sides(&o->base.side, &o->cand.side, o->metric, &co, r) < 0)
		return o->status = EXIT_USAGE;
	o->regressions = q->fail_pct >= 0 ? compare_gate(r, q->fail_pct) : 0;
	if (q->strict && r->gate_unguaranteed) {
		error("compare: --strict: %zu of %zu configurations have one "
		      "experiment a side, so the gate's false-alarm rate is "
		      "not guaranteed (docs/AB-KERNEL.md); run the baseline "
		      "at least twice (e.g. in two boots)",
		      r->gate_unguaranteed, r->n);
		compare_result_release(r);
		return o->status = EXIT_USAGE;
	}
	o->compared = true;
	o->status = o->regressions ? EXIT_REGRESSION
		    : r->n ? compare_gate_status(r) : EXIT_USAGE;
	return o->status;
}

/* ---- after the result ---- */

/* The primary metric of every configuration of s, ", "-joined, each once
 * (malloc'd); "" for number files. */
static char *side_primaries(const struct compare_input *s)
{
	char *out = xstrdup(""), *t;
	size_t i, j;

	for (i = 0; s->kind != INPUT_NUMBERS && s->an && i < s->nsets; i++)
		for (j = 0; j < s->an[i].nconfigs; j++) {
			int m = s->an[i].configs[j].primary;
			const char *name = m >= 0 ? s->sets[i].metrics[m] : NULL;
			char *quoted;

			if (!name)
				continue;
			quoted = xasprintf("'%s'", name);
			if (!strstr(out, quoted)) {
				t = xasprintf("%s%s%s", out, *out ? ", " : "",
					      quoted);
				free(out);
				out = t;
			}
			free(quoted);
		}
	return out;
}

/* Do the two lists of side_primaries share no metric? */
static bool disjoint(const char *a, const char *b)
{
	char *copy = xstrdup(a), *name, *save = NULL;
	bool none = true;

	for (name = strtok_r(copy, ", ", &save); name && none;
	     name = strtok_r(NULL, ", ", &save))
		none = !strstr(b, name);
	free(copy);
	return none;
}

/*
 * Both sides loaded, yet no configuration on both: the selectors name
 * different things (another sweep, a filter on one side only...), which
 * is bad input, not a comparison of nothing.  Said after the result,
 * whose "Not compared" list shows what each side has.  Sides judged by
 * different primary metrics are different workloads or measurements: no
 * filter makes them match, and the message says so instead.
 */
static void nothing_compared(const struct compare_outcome *o)
{
	const struct compare_result *r = &o->r;
	char *pb = side_primaries(&o->base), *pc = side_primaries(&o->cand);

	if (r->nunmatched && *pb && *pc && disjoint(pb, pc))
		error("compare: nothing compared: the sides measure different "
		      "things: the baseline's configurations are judged by "
		      "%s, the candidate's by %s; compare experiments of the "
		      "same workload and primary metric", pb, pc);
	else
		error("compare: nothing compared: %s",
		      r->nunmatched ? "no configuration of the baseline "
				      "matches one of the candidate (see \"Not "
				      "compared\"); name the parameter the "
				      "sides change as a filter on both, "
				      "BASE@KEY=V1 CAND@KEY=V2"
				    : "no configuration on either side");
	error("compare: baseline '%s', candidate '%s'",
	      escape_quote(o->base.text), escape_quote(o->cand.text));
	free(pb);
	free(pc);
}

void compare_outcome_say(const struct compare_outcome *o,
			 const struct compare_request *q)
{
	if (!o->compared)
		return;
	if (o->regressions)
		error("regression: %zu configuration%s slower by more than "
		      "%g%% (Holm-corrected over %zu)", o->regressions,
		      o->regressions == 1 ? "" : "s", q->fail_pct, o->r.n);
	else if (o->r.gate_inconclusive)
		error("regression gate inconclusive: %zu of %zu "
		      "configuration%s can neither pass nor fail at %g%% "
		      "(exit 4)", o->r.gate_inconclusive, o->r.n,
		      o->r.n == 1 ? "" : "s", q->fail_pct);
	if (!o->r.n)
		nothing_compared(o);
}

void compare_outcome_release(struct compare_outcome *o)
{
	if (o->compared)
		compare_result_release(&o->r);
	compare_input_release(&o->base);
	compare_input_release(&o->cand);
	memset(o, 0, sizeof(*o));
}

/* ---- ministat's table ---- */

int compare_ministat(FILE *f, const struct compare_request *q,
		     const char *const *texts, size_t n, bool ascii,
		     bool *done)
{
	struct ministat_set set[MINISTAT_SETS];
	struct compare_input sides[MINISTAT_SETS];
	size_t i;
	int ret = 0;

	*done = false;
	if (n > MINISTAT_SETS)
		return 0;
	memset(sides, 0, sizeof(sides));
	for (i = 0; i < n && !ret; i++) {
		sides[i].text = texts[i];
		sides[i].role = i ? "candidate" : "baseline";
		sides[i].files = q->files;
		if (compare_input_is_file_list(sides[i].text))
			ret = 0;        /* number files, one invocation each */
		else if (compare_input_is_export(&sides[i]))
			goto out;       /* an export file: compare's tables */
		else
			ret = compare_input_resolve(&sides[i], q->db) < 0
				      ? EXIT_USAGE : 0;
		if (!ret && sides[i].db) {
			/* a database side: compare's own tables */
			if (ascii)
				warning("--ascii draws files of numbers only; "
					"%s is a database", sides[i].text);
			goto out;
		}
		if (!ret)
			ret = compare_input_load(&sides[i], q->db, &q->nf,
						 q->in, q->inlen);
		set[i] = (struct ministat_set){ sides[i].text, sides[i].values,
						sides[i].nvalues };
	}
	/* ministat's order: legend, plot, the table with its differences. */
	if (!ret) {
		ministat_legend(f, set, n);
		if ((ascii && ministat_plot(f, set, n, MINISTAT_WIDTH) < 0) ||
		    ministat_table(f, set, n, q->confidence > 0
						      ? q->confidence
						      : 0.95) < 0)
			ret = EXIT_USAGE;
	}
	*done = !ret;
out:
	for (i = 0; i < n; i++)
		compare_input_release(&sides[i]);
	return ret;
}
