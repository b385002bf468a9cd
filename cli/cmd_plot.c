/*
 * cmd_plot.c - `contend plot`: analyse an experiment and write its plots
 * (data, gnuplot scripts, PNG/SVG) under plots/out/<name>-<id>/; several
 * (a label's invocations) as one figure under plots/out/<name>-<label>/.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/levels.h"
#include "db/select.h"
#include "plots/plot.h"
#include "cli/commands.h"
#include "lib/escape.h"
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

		if (set->files[i].skipped) {
			/* The reason names a section: shown, never obeyed. */
			printf("%.*s: skipped, ", len, name);
			escape_fputs(stdout, set->files[i].skipped);
			putchar('\n');
		}
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
	char *dir = NULL, *name, msg[512], what[64];
	size_t kept = 0;
	int ret = EXIT_RUNTIME;

	if (select_load(sel, s, id, &d, &kept))
		goto out;
	if (!kept && sel->nfilters) {
		snprintf(what, sizeof(what), "experiment %lld", (long long)id);
		ret = select_none(sel, what, msg, sizeof(msg));
		error("plot: %s", msg);
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
	int ret = levels_load(s, sel->what, sel, &l);

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
		if (!ret) {
			printf("%zu invocations of ", lv->ninv);
			escape_fputs(stdout, lv->name);
			fputs(" / ", stdout);
			escape_fputs(stdout, *lv->label ? lv->label : "(no label)");
			printf(" plotted in %s/\n", dir);
		}
		plot_set_release(&set);
		free(dir);
	}
out:
	levels_release(&l);
	return ret;
}

struct plot_args {
	const char *db, *selector, *out;
	struct plot_opts po;
};

static int set_format(const char *opt, const char *arg, void *field,
		      int value)
{
	struct plot_opts *po = field;

	(void)value;
	if (strcmp(arg, "png") && strcmp(arg, "svg") && strcmp(arg, "both"))
		return error("plot: %s must be png, svg or both, not '%s'", opt,
			     escape_quote(arg));
	po->png = strcmp(arg, "svg") != 0;
	po->svg = strcmp(arg, "png") != 0;
	return 0;
}

#define FIELD(f) offsetof(struct plot_args, f)

static const struct opt plot_rows[] = {
	DB_ROW(FIELD(db)),
	{ NULL, 0, "EXPERIMENT", "a selector, " SELECTOR_TEXT "; default: the "
	  "newest experiment; several (a label's invocations) are plotted "
	  "together, one figure per level", NULL, FIELD(selector), 0, OPT_OPTIONAL },
	{ "out", 0, "DIR", "where to write (default: " PLOT_DEFAULT_DIR
	  "/NAME-ID)", NULL, FIELD(out), 0, 0 },
	{ "format", 0, "png|svg|both", "the images gnuplot renders (default "
	  "png)", set_format, FIELD(po), 0, 0 },
	{ "x", 0, "PARAM", "the parameter of the scaling plots' x axis "
	  "(default: the numeric one swept most)", NULL, FIELD(po.x_param), 0,
	  0 },
	{ "metric", 0, "M", "the metric plotted (default: throughput)", NULL,
	  FIELD(po.metric), 0, 0 },
};

const struct opt_cmd plot_cli = {
	"plot", "draw the plots of an experiment with gnuplot", plot_rows,
	ARRAY_SIZE(plot_rows),
	"Writes the data files and gnuplot scripts, and renders them when "
	"gnuplot is installed.",
};

int cmd_plot(int argc, char **argv)
{
	struct plot_args pa = { .db = store_default_path(),
				.po = { .png = true, .render = true } };
	struct selector sel = { 0 };
	struct store *s = NULL;
	int64_t *ids = NULL;
	char err[512];
	size_t n = 0;
	int ret = opt_parse(&plot_cli, argc, argv, &pa);

	if (ret)
		return opt_exit(ret);
	/* Nothing selected is bad input, as for report and export. */
	ret = select_open(pa.selector, pa.db, &sel, &s, &ids, &n, err,
			  sizeof(err));
	if (ret && *err)
		error("plot: %s", err);
	/* several experiments: a label's invocations, plotted together */
	if (!ret && n > 1)
		ret = plot_invocations(s, &sel, &pa.po, pa.out);
	else if (!ret)
		ret = plot_one(s, ids[0], &sel, &pa.po, pa.out);
	free(ids);
	if (s)
		store_close(s);
	select_release(&sel);
	return ret;
}
