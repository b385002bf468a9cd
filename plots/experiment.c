/*
 * experiment.c - plot_experiment: the figures of one experiment (plot.c
 * says which), drawn section by section: the configurations grouped into
 * their workload sections, then each section's sweep and contention
 * figures (sweep.c, runs.c), then run order, distribution and fairness
 * over all of them, then rendered (render.c).  The driver above the
 * figure files, which share plot.c's helpers below.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "analysis/report.h"
#include "plots/plot_impl.h"
#include "lib/util.h"

static void sections_build(struct plotter *p)
{
	const struct dataset *d = p->d;
	size_t c, i, k;

	p->sections = xcalloc(d->nconfigs, sizeof(*p->sections));
	p->section_of = xcalloc(d->nconfigs, sizeof(*p->section_of));
	for (c = 0; c < d->nconfigs; c++) {
		struct section *s = NULL;

		for (i = 0; i < p->nsections; i++)
			if (!strcmp(p->sections[i].name, d->configs[c].section))
				s = &p->sections[i];
		if (!s) {
			s = &p->sections[p->nsections++];
			s->name = d->configs[c].section;
			s->cfg = xcalloc(d->nconfigs, sizeof(*s->cfg));
		}
		s->cfg[s->n++] = c;
		p->section_of[c] = (size_t)(s - p->sections);
	}
	for (i = 0; i < p->nsections; i++) {
		struct section *s = &p->sections[i];
		const struct ds_config *first = &d->configs[s->cfg[0]];

		/*
		 * The keys that vary, as the report's varies column has them:
		 * when a param.NAME is swept, argv, env and the hooks only
		 * repeat its value substituted, so the series are keyed by
		 * the swept parameters, never by the argv they made.
		 */
		s->vary = xcalloc(first->nparams + 1, sizeof(*s->vary));
		for (k = 0; k < first->nparams; k++)
			if (report_param_shown(d, s->cfg[0], first->params[k].key))
				s->vary[s->nvary++] = first->params[k].key;
	}
}

static void sections_free(struct plotter *p)
{
	size_t i;

	for (i = 0; i < p->nsections; i++) {
		free(p->sections[i].cfg);
		free(p->sections[i].vary);
	}
	free(p->sections);
	free(p->section_of);
}

int plot_experiment(const struct analysis *a, const struct plot_opts *o,
		    struct plot_set *out)
{
	struct plotter p = { .a = a, .d = a->d, .o = o, .out = out };
	size_t i;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	/* Without --metric each section draws its own primary metric. */
	if (o->metric && dataset_metric(p.d, o->metric) < 0)
		return error("experiment %lld has no metric '%s'",
			     (long long)p.d->exp.id, escape_quote(o->metric));
	if (plot_mkdir_p(o->out_dir))
		return -1;
	sections_build(&p);
	for (i = 0; i < p.nsections; i++)
		if (plot_sweep(&p, i) || plot_contention(&p, i))
			goto out;
	if (plot_order(&p) || plot_distribution(&p) || plot_fairness(&p))
		goto out;
	ret = o->render ? plot_render_set(o, out) : 0;
out:
	sections_free(&p);
	return ret;
}
