/*
 * report_host.c - the host facts in the text report: a summary of at
 * most three lines by default (the facts the one table of host facts
 * marks shown, db/facts.c, and how many there are), and every fact,
 * one a line, under `contend report --host`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "db/facts.h"
#include "lib/hint.h"
#include "lib/util.h"

/* A summary value is cut to this many columns; the summary to two lines. */
#define SUMMARY_VALUE 24
#define SUMMARY_TEXT ((size_t)2 * 70)
/* --host: a value is cut to this many columns (cmdline can be 4096). */
#define HOST_VALUE 400

size_t report_host_count(const struct experiment_row *e)
{
	size_t i, n = 0;

	for (i = 0; i < e->nmeta; i++)
		n += report_host_key(e, e->meta[i].key);
	return n;
}

/* "key=value" with value escaped and cut to w columns, malloc'd. */
static char *pair(const char *key, const char *value, int w)
{
	char *v = report_esc(value), *ret;

	cut(v, w);
	ret = xasprintf("%s=%s", key, v);
	free(v);
	return ret;
}

void report_host_summary(FILE *f, const struct analysis *a,
			 const struct report_view *view)
{
	const struct experiment_row *e = &a->d->exp;
	char *text = xstrdup(""), *h, *args, *t;
	size_t i, n = report_host_count(e);

	for (i = 0; i < fact_nrows; i++) {
		const char *v = experiment_meta(e, fact_rows[i].key);
		char *p;

		if (!fact_rows[i].shown || !v)
			continue;
		p = pair(fact_rows[i].key, v, SUMMARY_VALUE);
		if (strlen(text) + strlen(p) + 2 <= SUMMARY_TEXT) {
			t = xasprintf("%s%s%s", text, *text ? ", " : "", p);
			free(text);
			text = t;
		}
		free(p);
	}
	if (!n) {
		free(text);
		return;
	}
	fputc('\n', f);
	if (*text)
		report_wrap(f, "host:", 4, text);
	free(text);
	t = view && view->what ? hint_word(view->what)
			       : xasprintf("%lld", (long long)e->id);
	args = xasprintf("report %s --host", t);
	free(t);
	h = report_hint(view, args);
	fprintf(f, "  %zu facts: %s\n", n, h);
	free(h);
	free(args);
}

/* Every fact of row r (a family: each member; kstate_end.NAME too). */
static void host_row(FILE *f, const struct experiment_row *e,
		     const struct fact_row *r, bool *done)
{
	size_t i;

	for (i = 0; i < e->nmeta; i++) {
		char *p, *lead;

		if (done[i] || !report_host_key(e, e->meta[i].key) ||
		    (r && fact_find(e->meta[i].key) != r))
			continue;
		done[i] = true;
		p = pair(e->meta[i].key, e->meta[i].value, HOST_VALUE);
		lead = r ? xasprintf("  [%s]", fact_when_names[r->when])
			 : xstrdup("  [other]");
		report_wrap(f, lead, 6, p);
		free(lead);
		free(p);
	}
}

int report_host_text(FILE *f, const struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	bool *done = xcalloc(e->nmeta ? e->nmeta : 1, sizeof(*done));
	size_t i;

	fprintf(f, "experiment %lld: %zu facts, when read (docs/STORAGE.md "
		   "\"Host facts\")\n", (long long)e->id, report_host_count(e));
	for (i = 0; i < fact_nrows; i++)
		host_row(f, e, &fact_rows[i], done);
	/* the experiment's other facts, written as it ran */
	host_row(f, e, NULL, done);
	free(done);
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}
