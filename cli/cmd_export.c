/*
 * cmd_export.c - `contend export`: every run of one or all experiments in
 * long ("tidy") format, as CSV or JSON (the writer: analysis/export.c),
 * for pandas, R or a spreadsheet.  --threads adds one row per thread of
 * each run.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "db/select.h"
#include "db/store.h"
#include "cli/commands.h"
#include "db/contract.h"
#include "lib/util.h"

struct export_opts {
	const char *db, *selector;
	enum export_format format;
	bool threads;
};

#define FIELD(f) offsetof(struct export_opts, f)

static const struct opt export_rows[] = {
	DB_ROW(FIELD(db)),
	{ NULL, 0, "EXPERIMENT", "a selector, " SELECTOR_TEXT " (WHAT: an "
	  "id, uuid, name or label); default: every experiment", NULL,
	  FIELD(selector), 0, OPT_OPTIONAL },
	{ "format", 0, "csv|json", "csv (default) or json", opt_choice,
	  FIELD(format), 0, 0 },
	{ "threads", 0, NULL, "also one row per thread of each run (metric "
	  "thread_ops)", NULL, FIELD(threads), 0, 0 },
};

const struct opt_cmd export_cli = {
	"export", "export runs and samples in long format", export_rows,
	ARRAY_SIZE(export_rows),
	"One row per run and metric; a run without samples still has one "
	"row, with metric and value empty.",
};

/*
 * The store and the ids to export: those the selector names (select.h),
 * or without one every experiment.  0, or the exit status.
 */
static int select_ids(const struct export_opts *o, struct selector *sel,
		      struct store **s, int64_t **ids, size_t *n)
{
	char err[512];
	int k;

	if (o->selector) {
		k = select_open(o->selector, o->db, sel, s, ids, n, err,
				sizeof(err));
		if (k && *err)
			error("export: %s", err);
		return k;
	}
	memset(sel, 0, sizeof(*sel));
	k = store_open(o->db, STORE_RDONLY, s);
	if (k)
		return store_exit_status(k);
	k = store_experiment_list(*s, ids);
	if (k < 0)
		return EXIT_RUNTIME;
	*n = (size_t)k;
	return 0;
}

int cmd_export(int argc, char **argv)
{
	struct exporter x = { 0 };
	struct export_opts o = { store_default_path(), NULL, EXPORT_CSV, false };
	struct selector sel = { 0 };
	struct store *s = NULL;
	int64_t *ids = NULL;
	size_t n = 0, i, kept = 0;
	int ret;

	ret = opt_parse(&export_cli, argc, argv, &o);
	if (ret)
		return opt_exit(ret);
	ret = select_ids(&o, &sel, &s, &ids, &n);
	if (ret)
		goto out;
	ret = EXIT_RUNTIME;
	export_begin(&x, stdout, o.format, o.threads);
	for (i = 0; i < n; i++)
		if (export_experiment(&x, s, ids[i], &sel, &kept))
			goto out;
	export_end(&x);
	if (sel.nfilters && !kept) {
		char *what = xasprintf("'%s'", o.selector), err[512];

		ret = select_none(&sel, what, err, sizeof(err));
		error("export: %s", err);
		free(what);
		goto out;
	}
	if (fflush(x.f) || ferror(x.f)) {
		error("export: write error on standard output");
		goto out;
	}
	ret = 0;
out:
	free(ids);
	if (s)
		store_close(s);
	select_release(&sel);
	return ret;
}
