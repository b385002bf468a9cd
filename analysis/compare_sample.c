/*
 * compare_sample.c - a side's sample of one configuration, invocation by
 * invocation, and a flag added to a comparison: what compare.c (the
 * matching, the driver) and compare_checks.c (the checks it runs) share,
 * below both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_impl.h"
#include "lib/util.h"

/*
 * A side's sample for one configuration: the runs of every invocation that
 * has any, grouped by invocation (experiment) for the two-level model.
 */
void compare_sample_build(const struct compare_side *s,
			  const struct series *g, extract_fn fn,
			  const char *metric, struct sample *out)
{
	memset(out, 0, sizeof(*out));
	series_sample(s->sets, g, fn, metric, &out->v);
	out->x = out->v.x;
	out->n = out->v.n;
	out->u.invocations = out->v.k;
	out->u.runs = out->n;
	out->g = (struct compare_groups){ out->x, out->v.sizes, out->v.k };
}

void compare_sample_release(struct sample *s)
{
	series_sample_release(&s->v);
}

void comparison_flag(struct comparison *c, const char *name,
		     const char *side, char *message)
{
	struct compare_flag *f;

	c->flags = xrealloc(c->flags, (c->nflags + 1) * sizeof(*c->flags));
	f = &c->flags[c->nflags++];
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->side = side;
	f->message = message;
}
