/*
 * report_table.c - the text report's summary table: one row per
 * configuration (its primary metric with the interval, noise, contention,
 * hand-offs and flags) in columns fitted to TABLE_WIDTH, and the legend
 * of its marks.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "lib/util.h"

#define TABLE_WIDTH 100

/* s cut to w columns ("..." marks the cut), on a code point boundary. */
static void cut(char *s, int w)
{
	int n = 0;
	char *p;

	if (columns(s) <= w)
		return;
	for (p = s; *p; p++) {
		if (((unsigned char)*p & 0xc0) == 0x80)
			continue;
		if (n++ == w - 3)
			break;
	}
	strcpy(p, "...");
}

enum { COL_ID, COL_SECTION, COL_VARIES, COL_VALUE, COL_CV, COL_CONT,
       COL_HAND, COL_KLOCK, COL_KWAIT, COL_FLAGS, NCOLS };

struct table {
	int w[NCOLS];           /* 0: the column is left out */
	char *cell[NCOLS];
	bool marks[4];          /* 'm', 'h', '-', a bound below 0: explained */
};

static const char *const col_head[NCOLS] = {
	"#", "section", "varies", "", "CV", "contended", "hand-offs/s",
	"kernel/Mop", "kwait", "flags",
};

/* "throughput (ops/s)": the value column's head for metric. */
static char *value_head(const char *metric)
{
	const char *unit = metric_unit(metric);

	return *unit ? xasprintf("%s (%s)", metric, unit) : xstrdup(metric);
}

/* The cells of row r, escaped; "-" for a figure the workload lacks. */
static void row_cells(const struct analysis *a, const struct report_row *r,
		      struct table *t, char **cell)
{
	const struct config_analysis *ca = &a->configs[r->config];

	cell[COL_ID] = xasprintf("%zu", r->config + 1);
	cell[COL_SECTION] = report_esc(a->d->configs[r->config].section);
	cell[COL_VARIES] = report_esc(*r->varies ? r->varies : "-");
	cut(cell[COL_SECTION], 16);
	if (r->primary) {
		cell[COL_VALUE] = xasprintf("%s%s%c", r->value,
					    r->mark == ' ' ? "" : " ", r->mark);
		cell[COL_CV] = xstrdup(*r->cv ? r->cv : "-");
		cell[COL_CONT] = xstrdup(*r->contended ? r->contended : "-");
		cell[COL_HAND] = xstrdup(*r->handoffs ? r->handoffs : "-");
		cell[COL_KLOCK] = xstrdup(*r->klock ? r->klock : "-");
		cell[COL_KWAIT] = xstrdup(*r->kwait ? r->kwait : "-");
		t->marks[0] |= r->mark == 'm';
		t->marks[1] |= r->mark == 'h';
		t->marks[2] |= !*r->contended || !*r->handoffs || !*r->cv;
		t->marks[3] |= r->mark == ' ' && r->primary->s.ci_low < 0 &&
			       r->primary->s.min >= 0;
	} else if (r->failed && r->failed + ca->warmup + ca->pending >= r->runs) {
		char *why = report_esc(r->first_error);

		cell[COL_VALUE] = xasprintf("all %zu run%s failed: %s", r->failed,
					    r->failed == 1 ? "" : "s", why);
		free(why);
	} else {
		cell[COL_VALUE] = xasprintf("no measured run (%zu failed, %zu "
					    "not run)", r->failed, ca->pending);
	}
	if (!r->primary)
		cell[COL_CV] = cell[COL_CONT] = cell[COL_HAND] =
			cell[COL_KLOCK] = cell[COL_KWAIT] = NULL;
	cell[COL_FLAGS] = xstrdup(*r->flags ? r->flags : "");
}

/*
 * What varies takes the room the other columns leave in TABLE_WIDTH (the
 * flags may go below the row), at least VARIES_MIN columns: a cut value
 * says little, so it is cut only as far as the width must.
 */
#define VARIES_MIN 10
static void fit_varies(struct table *t, char ***cells, size_t n)
{
	int used = 0, room;
	size_t k, i;

	for (k = 0; k < COL_FLAGS; k++)
		if (t->w[k] && k != COL_VARIES)
			used += t->w[k] + (k ? 2 : 1);
	room = MAX(VARIES_MIN, TABLE_WIDTH - used - 2);
	if (t->w[COL_VARIES] <= room)
		return;
	t->w[COL_VARIES] = room;
	for (i = 0; i < n; i++)
		cut(cells[i][COL_VARIES], room);
}

static void table_widths(const struct analysis *a, const struct report_row *rows,
			 size_t n, struct table *t, char ***cells)
{
	bool cont = false, hand = false, klock = false, kwait = false;
	size_t i, k;

	memset(t->w, 0, sizeof(t->w));
	for (k = 0; k < NCOLS; k++)
		t->w[k] = columns(col_head[k]);
	for (i = 0; i < n; i++) {
		row_cells(a, &rows[i], t, cells[i]);
		if (rows[i].metric) {
			char *head = value_head(rows[i].metric);

			t->w[COL_VALUE] = MAX(t->w[COL_VALUE], columns(head));
			free(head);
		}
		cont |= *rows[i].contended != '\0';
		hand |= *rows[i].handoffs != '\0';
		klock |= *rows[i].klock != '\0';
		kwait |= *rows[i].kwait != '\0';
		for (k = 0; k < NCOLS; k++)
			if (cells[i][k] && (rows[i].primary || k != COL_VALUE))
				t->w[k] = MAX(t->w[k], columns(cells[i][k]));
	}
	if (!cont)
		t->w[COL_CONT] = 0;
	if (!hand)
		t->w[COL_HAND] = 0;
	if (!klock)
		t->w[COL_KLOCK] = 0;
	if (!kwait)
		t->w[COL_KWAIT] = 0;
	fit_varies(t, cells, n);
}

/* The space before column k: one between the figures after CV. */
static const char *gap(size_t k)
{
	return !k ? " " : k > COL_CV && k < COL_FLAGS ? " " : "  ";
}

/* Column where the flags would start. */
static int flags_at(const struct table *t)
{
	int col = 0;
	size_t k;

	for (k = 0; k < COL_FLAGS; k++)
		if (t->w[k])
			col += (int)strlen(gap(k)) + t->w[k];
	return col + 2;
}

static void table_head(FILE *f, const struct table *t, const char *metric)
{
	char *head = metric ? value_head(metric) : xstrdup("");
	size_t k;

	for (k = 0; k < NCOLS; k++) {
		if (!t->w[k])
			continue;
		if (k == COL_FLAGS) {
			/* Rows that wide put their flags below them. */
			if (flags_at(t) + columns(col_head[k]) <= TABLE_WIDTH)
				fprintf(f, "%s%s", gap(k), col_head[k]);
			continue;
		}
		fputs(gap(k), f);
		pad(f, k == COL_VALUE ? head : col_head[k], t->w[k],
		    k == COL_ID || k >= COL_CV);
	}
	fputc('\n', f);
	free(head);
}

/*
 * One row; a configuration without a value gets its reason instead, cut
 * to the table's width.  Flags that would pass TABLE_WIDTH go on a line
 * of their own under the row.
 */
static void table_row(FILE *f, const struct table *t, char **cell,
		      bool have_value)
{
	int col = 0, at = flags_at(t);
	bool below = at + columns(cell[COL_FLAGS]) > TABLE_WIDTH;
	size_t k;

	for (k = 0; k < COL_FLAGS; k++) {
		if (!t->w[k] || (!have_value && k > COL_VALUE))
			continue;
		col += fprintf(f, "%s", gap(k));
		if (!have_value && k == COL_VALUE) {
			cut(cell[k], MAX(20, TABLE_WIDTH - col -
				       (below ? 0 : columns(cell[COL_FLAGS]) + 2)));
			col += fprintf(f, "%s", cell[k]);
		} else {
			pad(f, cell[k], t->w[k], k == COL_ID || k >= COL_CV);
			col += t->w[k];
		}
	}
	if (*cell[COL_FLAGS] && below)
		fprintf(f, "\n%*s! %s", t->w[COL_ID] + 3, "", cell[COL_FLAGS]);
	else if (*cell[COL_FLAGS])
		fprintf(f, "%*s%s", have_value ? at - col : 2, "", cell[COL_FLAGS]);
	fputc('\n', f);
}

void report_text_summary(FILE *f, const struct analysis *a)
{
	struct report_row *rows;
	size_t n = report_rows(a, &rows), i, k;
	char ***cells = xcalloc(n ? n : 1, sizeof(*cells));
	const char *shown = NULL;
	struct table t = { 0 };

	for (i = 0; i < n; i++)
		cells[i] = xcalloc(NCOLS, sizeof(**cells));
	table_widths(a, rows, n, &t, cells);
	fputc('\n', f);
	for (i = 0; i < n; i++) {
		/* The head again where the primary metric changes. */
		if (!i || (rows[i].metric && (!shown || strcmp(shown, rows[i].metric)))) {
			table_head(f, &t, rows[i].metric);
			if (rows[i].metric)
				shown = rows[i].metric;
		}
		table_row(f, &t, cells[i], rows[i].primary != NULL);
	}
	if (t.marks[0] || t.marks[1] || t.marks[2] || t.marks[3]) {
		char *legend = xasprintf(
			"mean [%g%% CI]%s%s%s%s", 100 * a->opts.confidence,
			t.marks[0] ? "; m: median [distribution-free CI], the "
				     "runs are not normal" : "",
			t.marks[1] ? "; h: harmonic mean (fixed work)" : "",
			t.marks[2] ? "; -: not measured" : "",
			t.marks[3] ? "; a lower bound below 0 for a quantity that "
				     "cannot be negative: too few or too noisy runs "
				     "to bound it" : "");

		report_wrap(f, " ", 2, legend);
		free(legend);
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < NCOLS; k++)
			free(cells[i][k]);
		free(cells[i]);
	}
	free(cells);
	report_rows_free(rows, n);
}
