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

size_t compare_extract_metric(const struct dataset *d, size_t c,
			      const char *metric, double **out)
{
	int m = dataset_metric(d, metric);

	*out = NULL;
	return m < 0 ? 0 : analysis_values(d, c, m, out);
}

/*
 * A side's sample for one configuration: the runs of every invocation that
 * has any, grouped by invocation for the two-level model.
 */
void compare_sample_build(const struct compare_side *s, const struct group *g,
			  extract_fn fn, const char *metric, struct sample *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->sizes = xcalloc(g->n ? g->n : 1, sizeof(*out->sizes));
	for (i = 0; i < g->n; i++) {
		const struct dataset *d = &s->sets[g->inv[i].set];
		double *v;
		size_t k = fn(d, g->inv[i].config, metric, &v);

		if (k) {
			out->x = xrealloc(out->x, (out->n + k) * sizeof(*out->x));
			memcpy(out->x + out->n, v, k * sizeof(*v));
			out->n += k;
			out->sizes[out->u.invocations++] = k;
		}
		free(v);
	}
	out->u.runs = out->n;
	out->g = (struct compare_groups){ out->x, out->sizes,
					  out->u.invocations };
}

void compare_sample_release(struct sample *s)
{
	free(s->x);
	free(s->sizes);
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
