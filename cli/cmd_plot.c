/*
 * cmd_plot.c - `contend plot`: analyse an experiment and write its plots
 * (data, gnuplot scripts, PNG/SVG) under plots/out/<name>-<id>/; several
 * (a label's invocations) as one figure under plots/out/<name>-<label>/.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/levels.h"
#include "db/select.h"
#include "plots/plot.h"
#include "cli/commands.h"
#include "lib/util.h"

#define PLOT_DEFAULT_DIR "plots/out"

/* A file-system-safe rendering of an experiment name. */
static char *safe_name(const char *name)
{
	char *s = xstrdup(*name ? name : "experiment"), *p;

	for (p = s; *p; p++)
		if (!(('a' <= *p && *p <= 'z') || ('A' <= *p && *p <= 'Z') ||
		      ('0' <= *p && *p <= '9') || *p == '-' || *p == '_' ||
		      *p == '.'))
			*p = '_';
	if (s[0] == '.')
		s[0] = '_';
	return s;
}

/*
 * --x names a parameter of the experiment, or is refused (it used to be
 * ignored without a word).  Returns 0, or -1 after naming the choices.
 */
static int x_param_check(const struct dataset *d, const char *x)
{
	char *names = xstrdup(" "), *more; /* " a b c ": each once */
	size_t c, i;

	for (c = 0; c < d->nconfigs; c++)
		for (i = 0; i < d->configs[c].nparams; i++) {
			const char *k = d->configs[c].params[i].key;
			char *word = xasprintf(" %s ", k);

			if (!strcmp(k, x)) {
				free(word);
				free(names);
				return 0;
			}
			if (!strstr(names, word)) {
				more = xasprintf("%s%s ", names, k);
				free(names);
				names = more;
			}
			free(word);
		}
	error("plot: --x %s: experiment %lld has no such parameter (it has:%.*s)",
	      x, (long long)d->exp.id, (int)strlen(names) - 1, names);
	free(names);
	return -1;
}

/* Lists what plot_experiment wrote into dir. */
static void list_files(const struct plot_set *set, const struct plot_opts *po)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		const char *name = set->files[i].name;
		int len = (int)strlen(name) - 3; /* without ".gp" */

		if (set->files[i].skipped)
			printf("%.*s: skipped, %s\n", len, name, set->files[i].skipped);
		else if (!set->files[i].rendered)
			printf("%s/%s (script and data; not rendered)\n",
			       po->out_dir, name);
		if (set->files[i].rendered && po->png)
			printf("%s/%.*s.png\n", po->out_dir, len, name);
		if (set->files[i].rendered && po->svg)
			printf("%s/%.*s.svg\n", po->out_dir, len, name);
	}
}

/*
 * The plots of one experiment, of the configurations sel keeps, into
 * out (NULL: plots/out/NAME-ID).  0, or the exit status.
 */
static int plot_one(struct store *s, int64_t id, const struct selector *sel,
		    const struct plot_opts *opts, const char *out)
{
	struct plot_opts po = *opts;
	struct dataset d = { 0 };
	struct analysis a = { 0 };
	struct analysis_opts ao;
	struct plot_set set = { 0 };
	char *dir = NULL, *name;
	int ret = EXIT_RUNTIME;

	if (store_load(s, id, &d))
		goto out;
	if (!select_filter_dataset(sel, &d)) {
		error("plot: no configuration of experiment %lld has %s=%s%s",
		      (long long)id, sel->filters[0].key, sel->filters[0].value,
		      sel->nfilters > 1 ? " and the other filters" : "");
		ret = EXIT_USAGE;
		goto out;
	}
	if (po.x_param && x_param_check(&d, po.x_param)) {
		ret = EXIT_USAGE;
		goto out;
	}
	analysis_opts_default(&ao);
	if (analysis_run(&d, &ao, &a))
		goto out;
	name = safe_name(d.exp.name);
	if (!out)
		dir = xasprintf("%s/%s-%lld", PLOT_DEFAULT_DIR, name,
				(long long)d.exp.id);
	free(name);
	po.out_dir = dir ? dir : out;
	/* both, even when the first fails (gnuplot missing) */
	ret = plot_experiment(&a, &po, &set);
	if (plot_streaks(&d, s, &po, &set) == 0 && ret == 0)
		ret = 0;
	else
		ret = EXIT_RUNTIME;
	list_files(&set, &po);
	if (!ret)
		printf("plots of experiment %lld written to %s/\n",
		       (long long)d.exp.id, po.out_dir);
out:
	plot_set_release(&set);
	analysis_release(&a);
	dataset_release(&d);
	free(dir);
	return ret;
}

/* The metric of a level's figure: --metric, else the first invocation's
 * declared primary, else throughput. */
static const char *level_metric(const struct levels *l, const char *asked)
{
	const struct dataset *d = &l->levels[0].inv[0];
	const char *p = d->nconfigs ? analysis_declared_primary(d, 0) : NULL;

	return asked ? asked : p ? p : "throughput";
}

/* out (one level) or OUT/NAME-LABEL; plots/out/NAME-LABEL without out. */
static char *level_dir(const struct level *lv, const char *out, bool several)
{
	char *name = safe_name(lv->name), *label, *dir;

	if (out && !several) {
		free(name);
		return xstrdup(out);
	}
	label = safe_name(*lv->label ? lv->label : "invocations");
	dir = xasprintf("%s/%s-%s", out ? out : PLOT_DEFAULT_DIR, name, label);
	free(name);
	free(label);
	return dir;
}

/*
 * Several experiments (a label's, one per boot): the invocations of each
 * level they make in one figure (plot_level), of the configurations sel
 * keeps.  0, or the exit status.
 */
static int plot_invocations(struct store *s, const struct selector *sel,
			    const struct plot_opts *opts, const char *out)
{
	struct plot_opts po = *opts;
	struct levels_opts lo;
	struct levels l;
	int ret = levels_load_selected(s, sel->what, sel, &l);

	if (ret)
		return ret == -2 ? EXIT_USAGE : EXIT_RUNTIME;
	if (po.x_param) {
		error("plot: --x: the figure of several invocations has the "
		      "configurations on its x axis; plot one of them "
		      "(%s~newest, or an id) for a sweep against %s",
		      sel->what, po.x_param);
		ret = EXIT_USAGE;
		goto out;
	}
	levels_opts_default(&lo);
	lo.metric = level_metric(&l, po.metric);
	ret = levels_analyze(&l, &lo);
	if (ret) {
		ret = ret == -2 ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	for (size_t i = 0; i < l.nlevels && !ret; i++) {
		const struct level *lv = &l.levels[i];
		char *dir = level_dir(lv, out, l.nlevels > 1);
		struct plot_set set = { 0 };

		po.out_dir = dir;
		ret = plot_level(&l, i, &po, &set) ? EXIT_RUNTIME : 0;
		list_files(&set, &po);
		if (!ret)
			printf("%zu invocations of %s / %s plotted in %s/\n",
			       lv->ninv, lv->name,
			       *lv->label ? lv->label : "(no label)", dir);
		plot_set_release(&set);
		free(dir);
	}
out:
	levels_release(&l);
	return ret;
}

int cmd_plot(int argc, char **argv)
{
	static const struct option options[] = {
		{ "db", required_argument, NULL, 'D' },
		{ "out", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "x", required_argument, NULL, 'x' },
		{ "metric", required_argument, NULL, 'm' },
		{ NULL, 0, NULL, 0 },
	};
	struct plot_opts po = { .png = true, .render = true };
	const char *db = NULL, *format = "png", *selector = NULL, *out = NULL;
	struct selector sel = { 0 };
	struct store *s = NULL;
	int64_t *ids = NULL;
	char err[512];
	size_t n = 0;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'D': db = optarg; break;
		case 'o': out = optarg; break;
		case 'f': format = optarg; break;
		case 'x': po.x_param = optarg; break;
		case 'm': po.metric = optarg; break;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		selector = argv[optind++];
	if (optind < argc) {
		error("plot: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!strcmp(format, "png") || !strcmp(format, "svg") ||
	    !strcmp(format, "both")) {
		po.png = strcmp(format, "svg") != 0;
		po.svg = strcmp(format, "png") != 0;
	} else {
		error("plot: --format must be png, svg or both, not '%s'", format);
		return EXIT_USAGE;
	}
	/* Nothing selected is bad input, as for report and export. */
	ret = select_open(selector, db ? db : store_default_path(), &sel, &s,
			  &ids, &n, err, sizeof(err));
	if (ret && *err)
		error("plot: %s", err);
	/* several experiments: a label's invocations, plotted together */
	if (!ret && n > 1)
		ret = plot_invocations(s, &sel, &po, out);
	else if (!ret)
		ret = plot_one(s, ids[0], &sel, &po, out);
	free(ids);
	if (s)
		store_close(s);
	select_release(&sel);
	return ret;
}
