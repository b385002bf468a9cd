/*
 * report_impl.h - what the writers of report.h share (report*.c,
 * mail.c).  Private to them.
 */
#ifndef CONTEND_REPORT_IMPL_H
#define CONTEND_REPORT_IMPL_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/report.h"
#include "lib/utf8.h"

#define MAX(a, b) ((a) > (b) ? (a) : (b))
/* Kernel locks listed per configuration (report --verbose, JSON, HTML). */
#define REPORT_KWAIT_TOP 10

/* Display columns of UTF-8 s (lib/utf8.h; escapes are ASCII). */
static inline int columns(const char *s)
{
	return (int)utf8_columns(s);
}

/* The text report's tables fit this many columns. */
#define TABLE_WIDTH 80

/* s cut to w columns ("..." marks the cut), on a code point boundary. */
static inline void cut(char *s, int w)
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

/* s padded to w columns, on the left when right is set. */
static inline void pad(FILE *f, const char *s, int w, bool right)
{
	int n = columns(s);

	if (right)
		fprintf(f, "%*s%s", w > n ? w - n : 0, "", s);
	else
		fprintf(f, "%s%*s", s, w > n ? w - n : 0, "");
}

static inline const struct ds_config *cfg(const struct analysis *a, size_t c)
{
	return &a->d->configs[c];
}

static inline const char *mname(const struct analysis *a, int m)
{
	return m >= 0 ? a->d->metrics[m] : "";
}

struct totals {
	size_t planned, measured, warmup, failed, pending, flags;
};

static inline void totals(const struct analysis *a, struct totals *t)
{
	size_t c;

	memset(t, 0, sizeof(*t));
	t->planned = a->d->nruns;
	for (c = 0; c < a->nconfigs; c++) {
		t->measured += a->configs[c].measured;
		t->warmup += a->configs[c].warmup;
		t->failed += a->configs[c].failed;
		t->pending += a->configs[c].pending;
		t->flags += a->configs[c].nflags;
	}
}

/*
 * report_rows.c: the formatted text word-wrapped at 78 columns, the first
 * line after lead; both escaped for the terminal (names come from configs
 * and databases).
 */
void report_wrap(FILE *f, const char *lead, int indent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* report_rows.c: s, then sep (when s is not "") and the formatted text;
 * s freed, the result malloc'd. */
char *report_cat(char *s, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* report_rows.c: the names of ca's flags joined by sep; once: a flag
 * raised twice (against two others) named once (malloc'd). */
char *report_flag_names(const struct config_analysis *ca, const char *sep,
			bool once);
/* report_rows.c: s escaped for the terminal, malloc'd ("" for NULL). */
char *report_esc(const char *s);
/* report_rows.c: `contend ARGS [--db PATH]`, a hint runnable as printed
 * (lib/hint.h) with view's database, escaped for the terminal; malloc'd. */
char *report_hint(const struct report_view *view, const char *args);

/*
 * report_table.c: every flag's message, the most consequential kinds
 * first; brief (the default view): a kind raised by several
 * configurations in one line, its numbers as ranges.
 */
void report_flag_messages(FILE *f, const struct analysis *a, bool brief);

/* report_rows.c: the default report's host summary: the facts db/facts.c
 * marks shown, cut short, in two lines; then "N facts: `contend ...`". */
void report_host_summary(FILE *f, const struct analysis *a,
			 const struct report_view *view);
/* report_rows.c: every host fact, one a line, in db/facts.c's order. */
int report_host_text(FILE *f, const struct analysis *a);

/* report_table.c: the summary table, one row per configuration, and the
 * legend of its marks. */
void report_text_summary(FILE *f, const struct analysis *a);
/* report_rows.c: the observer-effect table, nothing when the experiment
 * has no observer with a none to compare */
struct json_writer;
void report_observer_text(FILE *f, const struct analysis *a);
void report_observer_json(struct json_writer *w, const struct analysis *a);

#endif
