/*
 * cmd_plot.c - `contend plot`: analyse an experiment and write its plots
 * (data, gnuplot scripts, PNG/SVG) under plots/out/<name>-<id>/.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "plots/plot.h"
#include "runner/commands.h"
#include "runner/util.h"

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
	const char *db = NULL, *format = "png", *selector = NULL;
	char *out_dir = NULL;
	struct store *s = NULL;
	struct dataset d = { 0 };
	struct analysis a = { 0 };
	struct analysis_opts ao;
	struct plot_set set = { 0 };
	int64_t *ids = NULL;
	int c, n, ret = EXIT_RUNTIME;
	size_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (c) {
		case 'D': db = optarg; break;
		case 'o': po.out_dir = optarg; break;
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
	n = store_open(db ? db : store_default_path(), STORE_RDONLY, &s);
	if (n)
		return store_exit_status(n);
	n = store_experiment_find(s, selector, &ids);
	if (n <= 0) {
		/* Nothing selected is bad input, as for report and export. */
		if (!n) {
			error("no experiment matches '%s'", selector ? selector : "(newest)");
			ret = EXIT_USAGE;
		}
		goto out;
	}
	if (store_load(s, ids[n - 1], &d))
		goto out;
	analysis_opts_default(&ao);
	if (analysis_run(&d, &ao, &a))
		goto out;
	if (!po.out_dir) {
		char *name = safe_name(d.exp.name);

		out_dir = xasprintf("%s/%s-%lld", PLOT_DEFAULT_DIR, name,
				    (long long)d.exp.id);
		free(name);
		po.out_dir = out_dir;
	}
	/* both, even when the first fails (gnuplot missing) */
	n = plot_experiment(&a, &po, &set);
	if (plot_streaks(&d, s, &po, &set) == 0 && n == 0)
		ret = 0;
	for (i = 0; i < set.n; i++) {
		const char *name = set.files[i].name;
		int len = (int)strlen(name) - 3; /* without ".gp" */

		if (set.files[i].skipped)
			printf("%.*s: skipped, %s\n", len, name, set.files[i].skipped);
		else if (!set.files[i].rendered)
			printf("%s/%s (script and data; not rendered)\n",
			       po.out_dir, name);
		if (set.files[i].rendered && po.png)
			printf("%s/%.*s.png\n", po.out_dir, len, name);
		if (set.files[i].rendered && po.svg)
			printf("%s/%.*s.svg\n", po.out_dir, len, name);
	}
	if (!ret)
		printf("plots of experiment %lld written to %s/\n",
		       (long long)d.exp.id, po.out_dir);
out:
	plot_set_release(&set);
	analysis_release(&a);
	dataset_release(&d);
	free(ids);
	free(out_dir);
	store_close(s);
	return ret;
}
