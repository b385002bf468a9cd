/*
 * bisect.c - the sequential decision applied after each round of a
 * bisect session, each look stored as meta (bisect.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "runner/bisect.h"
#include "runner/session.h"
#include "lib/util.h"

void bisect_prepare(struct runner *r)
{
	const struct bisect_spec *s = r->o->bisect;
	size_t c;

	r->bisect = xcalloc(r->cfg.nentries + 1, sizeof(*r->bisect));
	for (c = 0; c < r->cfg.nentries; c++) {
		struct run_settings *set = &r->cfg.entries[c].set;

		set->repetitions = 0;
		set->min_repetitions = s->look_every;
		set->max_repetitions = s->max_runs;
		set->precision = 0;
	}
}

void bisect_baseline(struct runner *r, size_t c, const struct seq_baseline *b,
		     int dir)
{
	const struct bisect_spec *s = r->o->bisect;
	struct bisect_entry *e = &r->bisect[c];

	e->ready = true;
	e->base = *b;
	e->design = (struct seq_design){ .delta = -log1p(-s->pct),
					 .dir = dir, .alpha = s->alpha,
					 .beta = s->beta,
					 .max_runs = s->max_runs };
}

/* bisect.SECTION.KEY = value, in the store. */
static void meta(struct runner *r, size_t c, const char *key,
		 const char *fmt, double v)
{
	char *k = xasprintf("bisect.%s.%s", r->cfg.entries[c].section, key);
	char buf[48];

	snprintf(buf, sizeof(buf), fmt, v);
	store_meta_set(r->st, r->exp.id, k, buf);
	free(k);
}

static void store_look(struct runner *r, size_t c)
{
	const struct seq_look *l = &r->bisect[c].last;
	char *k = xasprintf("bisect.%s.decision", r->cfg.entries[c].section);

	store_meta_set(r->st, r->exp.id, k, seq_decision_names[l->decision]);
	free(k);
	meta(r, c, "runs", "%.0f", (double)l->n);
	meta(r, c, "looks", "%.0f", (double)r->bisect[c].st.looks);
	/* the loss as a share of the baseline (r = log(base / cand)) */
	meta(r, c, "regression_pct", "%.6g", -100 * expm1(-l->regression));
	meta(r, c, "ci_low_pct", "%.6g", -100 * expm1(-l->ci_low));
	meta(r, c, "ci_high_pct", "%.6g", -100 * expm1(-l->ci_high));
	meta(r, c, "spent_alpha", "%.6g", r->bisect[c].st.spent_alpha);
	meta(r, c, "spent_beta", "%.6g", r->bisect[c].st.spent_beta);
}

bool bisect_keeps_going(struct runner *r, size_t c, const double *x,
			size_t n, int planned)
{
	struct bisect_entry *e = &r->bisect[c];
	struct seq_design d = e->design;
	bool last = planned >= d.max_runs;
	double *lx;
	size_t i;
	int ret;

	if (!e->ready || e->last.decision != SEQ_CONTINUE)
		return false;
	if (!last && (n < (size_t)r->o->bisect->look_every ||
		      n % (size_t)r->o->bisect->look_every))
		return true;
	if (n < 2)
		return !last;
	/* failed runs count against the cap: the last look is this one */
	if (last)
		d.max_runs = (int)n;
	lx = xmalloc(n * sizeof(*lx));
	for (i = 0; i < n; i++)
		lx[i] = x[i] > 0 ? log(x[i]) : NAN;
	ret = seq_look(&e->base, &d, lx, n, &e->st, &e->last);
	free(lx);
	if (ret) {
		e->last.decision = SEQ_CAP;
		return false;
	}
	store_look(r, c);
	return e->last.decision == SEQ_CONTINUE;
}
