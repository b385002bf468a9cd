/*
 * cmd_list.c - `contend list [WORKLOAD] [--format text|markdown]`: the
 * workload registry as people read it, every parameter with its type,
 * default, accepted values and help, then the harness keys every workload
 * takes.  The markdown form is what docs/INI.md embeds.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "cli/commands.h"
#include "runner/param.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "runner/workload.h"

#define WRAP 78 /* text output width */

enum list_format { FMT_TEXT, FMT_MARKDOWN };

struct list_opts {
	enum list_format fmt;
	const char *name;
};

/* ---- text -------------------------------------------------------------- */

#define KEYCOL 26 /* where the help of a parameter starts */

/*
 * Prints text word-wrapped to WRAP columns with a hanging indent, going on
 * from column col (< indent) of the current line, and ends the line.
 */
static void print_wrapped(FILE *f, const char *text, int indent, int col)
{
	text += strspn(text, " ");
	if (*text)
		fprintf(f, "%*s", indent - col, "");
	wrap_print(f, text, indent, indent, WRAP);
}

static void text_param(FILE *f, const struct param_def *p)
{
	char *def = param_describe_default(p), *range = param_describe_range(p);
	char *tail = xasprintf("%s%s; values %s",
			       p->def ? "default " : "",
			       p->def || param_is_family(p) ? def : "no default",
			       range);
	int col = fprintf(f, "    %s=%s", p->name, param_type_names[p->type]);

	if (col >= KEYCOL - 1) {
		fputc('\n', f);
		col = 0;
	}
	print_wrapped(f, p->help ? p->help : "", KEYCOL, col);
	print_wrapped(f, tail, KEYCOL, 0);
	free(tail);
	free(def);
	free(range);
}

static void text_workload(FILE *f, const struct workload *wl)
{
	size_t i;

	fprintf(f, "%s: %s\n", wl->name, wl->summary);
	if (wl->unsupported)
		fprintf(f, "    (cannot run here: %s)\n", wl->unsupported);
	if (wl->help) {
		fputc('\n', f);
		print_wrapped(f, wl->help, 4, 0);
	}
	fputc('\n', f);
	for (i = 0; i < wl->nparams; i++)
		text_param(f, &wl->params[i]);
	fputc('\n', f);
}

static void text_harness(FILE *f)
{
	size_t i;

	fprintf(f, "every workload also takes:\n\n");
	for (i = 0; i < nharness_params; i++)
		text_param(f, &harness_params[i]);
}

/* ---- markdown ---------------------------------------------------------- */

/* A table cell: '|' would end the cell, so it is escaped. */
static void md_cell(FILE *f, const char *s, bool code)
{
	fputs(code ? " `" : " ", f);
	for (; *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs(code ? "` |" : " |", f);
}

static void md_table(FILE *f, const struct param_def *params, size_t n)
{
	size_t i;

	fprintf(f, "| key | type | default | values | description |\n");
	fprintf(f, "|-----|------|---------|--------|-------------|\n");
	for (i = 0; i < n; i++) {
		const struct param_def *p = &params[i];
		char *def = param_describe_default(p);
		char *range = param_describe_range(p);

		fputc('|', f);
		md_cell(f, p->name, true);
		md_cell(f, param_type_names[p->type], false);
		md_cell(f, def, p->def != NULL);
		md_cell(f, range, false);
		md_cell(f, p->help ? p->help : "", false);
		fputc('\n', f);
		free(def);
		free(range);
	}
}

static void md_workload(FILE *f, const struct workload *wl)
{
	fprintf(f, "### %s\n\n%s.\n\n", wl->name, wl->summary);
	if (wl->unsupported)
		fprintf(f, "*Cannot run on this machine: %s.*\n\n",
			wl->unsupported);
	if (wl->help)
		fprintf(f, "%s\n\n", wl->help);
	md_table(f, wl->params, wl->nparams);
	fputc('\n', f);
}

static void md_harness(FILE *f)
{
	fprintf(f, "### Keys of every workload\n\n");
	md_table(f, harness_params, nharness_params);
}

/* ---- command ----------------------------------------------------------- */

static const struct opt list_rows[] = {
	{ NULL, 0, "WORKLOAD", "only this workload (default: every one)",
	  NULL, offsetof(struct list_opts, name), 0, OPT_OPTIONAL },
	{ "format", 0, "text|markdown",
	  "text (default), or markdown as docs/INI.md embeds it", opt_choice,
	  offsetof(struct list_opts, fmt), 0, 0 },
};

const struct opt_cmd list_cli = {
	"list", "list workloads and their parameters", list_rows,
	ARRAY_SIZE(list_rows), NULL,
};

static int unknown_workload(const char *name)
{
	const char *names[64] = { NULL };
	char hint[SUGGEST_MAX];
	size_t i, n = 0;
	char *known;

	for (i = 0; i < nworkloads && n < ARRAY_SIZE(names); i++)
		if (!(workloads[i]->flags & WL_HIDDEN))
			names[n++] = workloads[i]->name;
	suggest_hint(hint, sizeof(hint), name, names, n, NULL, NULL);
	known = xstrdup("");
	for (i = 0; i < n; i++) {
		char *k = xasprintf("%s%s%s", known, i ? ", " : "", names[i]);

		free(known);
		known = k;
	}
	error("unknown workload '%s'%s (known: %s)", escape_quote(name), hint,
	      known);
	free(known);
	return EXIT_USAGE;
}

static void list_one(FILE *f, const struct workload *wl,
		     enum list_format fmt)
{
	if (fmt == FMT_MARKDOWN)
		md_workload(f, wl);
	else
		text_workload(f, wl);
}

int cmd_list(int argc, char **argv)
{
	struct list_opts o = { FMT_TEXT, NULL };
	int p = opt_parse(&list_cli, argc, argv, &o);
	size_t i;

	if (p)
		return opt_exit(p);
	if (o.name) {
		const struct workload *wl = workload_find(o.name);

		if (!wl)
			return unknown_workload(o.name);
		list_one(stdout, wl, o.fmt);
	} else {
		/* hidden workloads are testing aids, named only on purpose */
		for (i = 0; i < nworkloads; i++)
			if (!(workloads[i]->flags & WL_HIDDEN))
				list_one(stdout, workloads[i], o.fmt);
	}
	if (o.fmt == FMT_MARKDOWN)
		md_harness(stdout);
	else
		text_harness(stdout);
	if (fflush(stdout) || ferror(stdout)) {
		error("cannot write the list to stdout");
		return EXIT_RUNTIME;
	}
	return 0;
}
