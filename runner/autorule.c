/*
 * autorule.c - `repetitions = auto` fed from the session's own results
 * (autorule.h): no reload of the experiment between rounds.
 */
#include <math.h>
#include <stdlib.h>

#include "runner/autorule.h"
#include "runner/session.h"
#include "lib/util.h"

bool entry_is_auto(const struct config_entry *e)
{
	return e->set.repetitions == 0;
}

void autorule_init(struct autorule *a, const struct experiment_config *c)
{
	size_t i;

	a->any = false;
	a->nconfigs = c->nentries;
	a->values = xcalloc(c->nentries, sizeof(*a->values));
	for (i = 0; i < c->nentries; i++)
		a->any |= entry_is_auto(&c->entries[i]);
}

/* Configuration c's value of measured repetition rep (NAN: none). */
static void put(struct autorule *a, size_t c, int rep, double v)
{
	struct auto_values *av = &a->values[c];
	size_t i;

	if (rep < 0)
		return;
	if ((size_t)rep >= av->n) {
		size_t n = (size_t)rep + 1 > 2 * av->n ? (size_t)rep + 1
						       : 2 * av->n;

		av->x = xrealloc(av->x, n * sizeof(*av->x));
		for (i = av->n; i < n; i++)
			av->x[i] = NAN;
		av->n = n;
	}
	av->x[rep] = v;
}

void autorule_note(struct autorule *a, const struct experiment_config *c,
		   size_t config, const struct pending_run *p,
		   enum run_status st, const struct result *res)
{
	const struct config_entry *e = &c->entries[config];

	if (p->warmup || st != RUN_OK || !entry_is_auto(e))
		return;
	put(a, config, p->repetition,
	    result_value(res, config_primary_metric(e)));
}

void autorule_restore(struct autorule *a, const struct experiment_config *c,
		      const struct dataset *d)
{
	size_t k, i;

	autorule_init(a, c);
	for (k = 0; k < d->nconfigs && k < c->nentries; k++) {
		const struct config_entry *e = &c->entries[k];
		const struct ds_config *dc = &d->configs[k];
		int m = dataset_metric(d, config_primary_metric(e));

		if (!entry_is_auto(e))
			continue;
		for (i = dc->run0; i < dc->run0 + dc->nruns; i++)
			if (!d->runs[i].warmup && d->runs[i].status == RUN_OK)
				put(a, k, d->runs[i].repetition,
				    dataset_value(d, i, m));
	}
}

/*
 * The rule on configuration c's values so far, in the order of their
 * runs (a configuration's measured repetitions run in seq order).
 */
static bool keeps_going(struct runner *r, size_t c)
{
	const struct auto_values *av = &r->autorule.values[c];
	double *x = xcalloc(av->n + 1, sizeof(*x)), hw;
	size_t i, n = 0;
	bool more;

	for (i = 0; i < av->n; i++)
		if (!isnan(av->x[i]))
			x[n++] = av->x[i];
	if (r->bisect)
		more = bisect_keeps_going(r, c, x, n,
					  r->plan.measured[c]);
	else
		more = plan_auto_decide(x, n, r->plan.measured[c],
					&r->cfg.entries[c].set,
					r->cfg.confidence, &hw) == PLAN_CONTINUE;
	free(x);
	return more;
}

/* Stores the runs the plan gained past index from, in one transaction. */
static int store_new_runs(struct runner *r, size_t from)
{
	size_t i;

	if (store_begin(r->st))
		return -1;
	for (i = from; i < r->plan.nruns; i++) {
		const struct plan_run *p = &r->plan.runs[i];
		int64_t id;

		if (store_run_plan(r->st, r->exp.id, r->config_ids[p->config],
				   p->seq, p->repetition, p->warmup, &id)) {
			store_rollback(r->st);
			return -1;
		}
	}
	return store_commit(r->st);
}

int autorule_grow(struct runner *r)
{
	bool *active = xcalloc(r->cfg.nentries, sizeof(*active));
	size_t from = r->plan.nruns, c, i, jobs = 0;
	double secs = 0;
	int n;

	for (c = 0; c < r->cfg.nentries; c++)
		active[c] = entry_is_auto(&r->cfg.entries[c]) &&
			    keeps_going(r, c);
	n = plan_add_round(&r->plan, active);
	free(active);
	if (n > 0 && store_new_runs(r, from))
		return -1;
	if (n <= 0)
		return n;
	r->expect[RUN_PLANNED] += n;
	for (i = from; i < r->plan.nruns; i++) {
		double rt = r->cfg.entries[r->plan.runs[i].config].set.runtime_s;

		secs += rt;
		jobs += rt <= 0;
	}
	progress_grow(&r->prog, (size_t)n, secs, jobs);
	return n;
}

void autorule_release(struct autorule *a)
{
	size_t i;

	for (i = 0; a->values && i < a->nconfigs; i++)
		free(a->values[i].x);
	free(a->values);
	a->values = NULL;
	a->nconfigs = 0;
}
