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
					 .max_runs = s->max_runs,
					 .looks = (s->max_runs + s->look_every - 1) /
						  s->look_every };
}

void bisect_prior(struct runner *r, size_t c, const struct seq_prior *p)
{
	r->bisect[c].prior = *p;
}

/* bisect.SECTION.KEY = value, in the store. */
static void meta(struct runner *r, size_t c, const char *key,
		 const char *fmt, double v)
{
	char *k = xasprintf("bisect.%s.%s", r->cfg.entries[c].section, key);
	char buf[48];

	if (isnan(v))
		goto out;
	snprintf(buf, sizeof(buf), fmt, v);
	store_meta_set(r->st, r->exp.id, k, buf);
out:
	free(k);
}

static void store_look(struct runner *r, size_t c)
{
	const struct seq_look *l = &r->bisect[c].last;
	char *k = xasprintf("bisect.%s.decision", r->cfg.entries[c].section);

	store_meta_set(r->st, r->exp.id, k, seq_decision_names[l->decision]);
	free(k);
	k = xasprintf("bisect.%s.reason", r->cfg.entries[c].section);
	store_meta_set(r->st, r->exp.id, k, seq_reason_names[l->reason]);
	free(k);
	meta(r, c, "runs", "%.0f", (double)(l->n + l->collapsed));
	meta(r, c, "collapsed", "%.0f", (double)l->collapsed);
	meta(r, c, "p_collapse", "%.6g", l->p_collapse);
	meta(r, c, "looks", "%.0f", (double)r->bisect[c].st.looks);
	meta(r, c, "boots", "%.0f", (double)r->bisect[c].prior.j + 1);
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
	size_t every = (size_t)r->o->bisect->look_every, i, k = 0, m;
	bool last = planned >= d.max_runs;
	double *lx;
	int ret;

	/* every measured run planned so far has ended: those without a
	 * value (failed, no metric) collapsed, as did values not above 0 */
	m = planned > 0 && (size_t)planned > n ? (size_t)planned : n;
	if (!e->ready || e->last.decision != SEQ_CONTINUE)
		return false;
	if (!last && (m < every || m % every))
		return true;
	if (m < 2)
		return !last;
	/* the last look is this one, whatever the cap said */
	if (last)
		d.max_runs = (int)m;
	lx = xmalloc((n + 1) * sizeof(*lx));
	for (i = 0; i < n; i++)
		if (x[i] > 0)
			lx[k++] = log(x[i]);
	ret = seq_look_prior(&e->base, &d, &e->prior, lx, k, m - k, &e->st,
			     &e->last);
	free(lx);
	if (ret) {
		e->last.decision = SEQ_CAP;
		return false;
	}
	store_look(r, c);
	return e->last.decision == SEQ_CONTINUE;
}
