/*
 * html_observer.c - the observer-effect table (analysis/report.h) in
 * the HTML and Markdown report bundle, after the summary: each observer
 * against observer = none, throughput and hand-offs per second as ratios
 * with their intervals, misleading ones marked.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/report.h"
#include "lib/escape.h"
#include "plots/plot_impl.h"

static void put(FILE *f, bool md, const char *s)
{
	if (md)
		escape_md_text(f, s);
	else
		escape_html(f, s);
}

static void row(FILE *f, bool md, const char *const *cells, size_t n,
		bool head)
{
	size_t i;

	fputs(md ? "|" : "<tr>", f);
	for (i = 0; i < n; i++) {
		if (md)
			fputc(' ', f);
		else
			fputs(head ? "<th>" : "<td>", f);
		put(f, md, cells[i]);
		fputs(md ? " |" : head ? "</th>" : "</td>", f);
	}
	fputs(md ? "\n" : "</tr>\n", f);
}

static void ratio_text(char *b, size_t len, const struct ratio *r)
{
	if (isnan(r->ratio))
		snprintf(b, len, "-");
	else
		snprintf(b, len, "%.3f [%.3f, %.3f]", r->ratio,
			 1 + r->ci_low_pct / 100, 1 + r->ci_high_pct / 100);
}

void html_observer_table(FILE *f, const struct analysis *a, bool md)
{
	static const char *const head[] = { "config", "vs none", "observer",
					    "throughput", "hand-offs/s",
					    "misleading" };
	struct observer_row *rows;
	size_t n = observer_rows(a, &rows), i;

	if (!n)
		goto out;
	fprintf(f, md ? "\n## Observer effect\n\n" : "<h2>Observer effect</h2>\n");
	if (!md)
		fputs("<table>\n", f);
	row(f, md, head, 6, true);
	if (md)
		fputs("|---:|---:|---|---|---|---|\n", f);
	for (i = 0; i < n; i++) {
		const struct observer_row *r = &rows[i];
		char c[24], b[24], tp[64], ho[64];
		const char *cells[6] = { c, b, r->observer, tp, ho,
					 r->misleading ? "yes" : "no" };

		snprintf(c, sizeof(c), "%zu", r->config + 1);
		snprintf(b, sizeof(b), "%zu", r->base + 1);
		ratio_text(tp, sizeof(tp), &r->tput);
		ratio_text(ho, sizeof(ho), &r->handoffs);
		row(f, md, cells, 6, false);
	}
	if (!md)
		fputs("</table>\n", f);
	fprintf(f, md ? "\nRatios of the runs' means, observed / none, with "
			"their %g%% interval (log scale).\n"
		      : "<p>Ratios of the runs' means, observed / none, with "
			"their %g%% interval (log scale).</p>\n",
		100 * a->opts.confidence);
out:
	free(rows);
}
