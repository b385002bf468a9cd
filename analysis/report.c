/*
 * report.c - the three faces of an analysis: text for a reviewer (the
 * answer first: one summary row per configuration and the flags; then,
 * with --verbose, a ministat-like block per configuration and the
 * correlation table), json for programs (docs/report-json.md) and csv for
 * spreadsheets.  Numbers are printed with "C" conventions only (no locale,
 * no clock), so a report is a pure function of the analysis; the text
 * prints them through lib/numfmt and every name through lib/escape.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/json.h"
#include "analysis/report.h"
#include "lib/escape.h"
#include "lib/numfmt.h"
#include "lib/util.h"

/* Prose wraps at WIDTH; the summary table may take TABLE_WIDTH. */
#define WIDTH 78
#define TABLE_WIDTH 100
#define MAX(a, b) ((a) > (b) ? (a) : (b))

const char *const report_format_names[] = {
	[REPORT_TEXT] = "text", [REPORT_JSON] = "json", [REPORT_CSV] = "csv",
};

int report_format_parse(const char *name)
{
	int i;

	for (i = 0; i < REPORT_NFORMATS; i++)
		if (!strcmp(report_format_names[i], name))
			return i;
	return -1;
}

char *analysis_fmt(char *buf, size_t len, double v)
{
	return numfmt(buf, len, v);
}

/* ---- shared helpers ---- */

static const struct ds_config *cfg(const struct analysis *a, size_t c)
{
	return &a->d->configs[c];
}

static const char *mname(const struct analysis *a, int m)
{
	return m >= 0 ? a->d->metrics[m] : "";
}

struct totals {
	size_t planned, measured, warmup, failed, pending, flags;
};

static void totals(const struct analysis *a, struct totals *t)
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

/* The order flags are summarized in: the most consequential first. */
static const char *const flag_order[] = {
	"misleading-throughput", "noisy", "drift", "unfair", "outliers",
	"non-normal", "few-runs", "contention-coupled",
};

/* ---- text ---- */

/*
 * Prints text word-wrapped at WIDTH, the first line after lead; both with
 * their control characters escaped (names come from configs and
 * databases).
 */
static void wrap(FILE *f, const char *lead, int indent, const char *text)
{
	char *safe_lead = escape_text_dup(lead), *safe = escape_text_dup(text);
	int col = fprintf(f, "%s", safe_lead ? safe_lead : "");
	const char *p = safe ? safe : "";

	while (*p) {
		size_t w = strcspn(p, " ");

		if (col > indent && col + 1 + (int)w > WIDTH) {
			col = fprintf(f, "\n%*s", indent, "") - 1;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", (int)w, p);
		p += w;
		p += strspn(p, " ");
	}
	fputc('\n', f);
	free(safe_lead);
	free(safe);
}

/* s escaped for the terminal, malloc'd ("" for NULL). */
static char *esc(const char *s)
{
	char *e = escape_text_dup(s ? s : "");

	return e ? e : xstrdup("");
}

/* The experiment line: which, how far it got, on what, and the runs. */
static void text_header(FILE *f, const struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	const char *host = experiment_meta(e, "hostname");
	const char *kernel = experiment_meta(e, "kernel_release");
	const char *ncpus = experiment_meta(e, "ncpus");
	const char *affinity = experiment_meta(e, "affinity");
	char when[32] = "-", *line;
	time_t t = (time_t)e->created_at;
	struct totals tt;
	struct tm tm;

	if (e->created_at > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	totals(a, &tt);
	line = xasprintf("experiment %lld \"%s\"%s%s%s, %s", (long long)e->id,
			 e->name ? e->name : "", e->label && *e->label ? " label \"" : "",
			 e->label && *e->label ? e->label : "",
			 e->label && *e->label ? "\"" : "", e->status ? e->status : "?");
	wrap(f, "", 4, line);
	free(line);
	line = xasprintf("%s, kernel %s%s%s%s%s%s; created %s, seed %llu, "
			 "order %s", host ? host : "unknown host",
			 kernel ? kernel : "unknown", ncpus ? ", " : "",
			 ncpus ? ncpus : "", ncpus ? " CPUs" : "",
			 affinity ? ", affinity " : "", affinity ? affinity : "",
			 when, (unsigned long long)e->seed,
			 e->order ? e->order : "-");
	wrap(f, "  ", 4, line);
	free(line);
	fprintf(f, "  runs: %zu planned: %zu measured, %zu warm-up, %zu failed, "
		   "%zu not run\n", tt.planned, tt.measured, tt.warmup,
		tt.failed, tt.pending);
	if (tt.pending)
		fprintf(f, "  INCOMPLETE: %zu of %zu runs are missing; "
			   "`contend run --resume %lld` runs them\n",
			tt.pending, tt.planned, (long long)e->id);
}

/* Every host fact, key=value, wrapped: what differed between two runs. */
static void text_host(FILE *f, const struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	char *host = xstrdup(""), *tmp;
	size_t i;

	for (i = 0; i < e->nmeta; i++) {
		if (!report_host_key(e, e->meta[i].key))
			continue;
		tmp = xasprintf("%s%s%s=%s", host, *host ? ", " : "",
				e->meta[i].key, e->meta[i].value);
		free(host);
		host = tmp;
	}
	if (*host) {
		fputc('\n', f);
		wrap(f, "host:", 4, host);
	}
	free(host);
}

/* ---- the summary table ---- */

/* Display columns of UTF-8 s: one per code point (a good approximation
 * for names; escapes are ASCII). */
static int columns(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

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

/* s padded to w columns, on the left when right is set. */
static void pad(FILE *f, const char *s, int w, bool right)
{
	int n = columns(s);

	if (right)
		fprintf(f, "%*s%s", w > n ? w - n : 0, "", s);
	else
		fprintf(f, "%s%*s", s, w > n ? w - n : 0, "");
}

enum { COL_ID, COL_SECTION, COL_VARIES, COL_VALUE, COL_CV, COL_CONT,
       COL_HAND, COL_KLOCK, COL_FLAGS, NCOLS };

struct table {
	int w[NCOLS];           /* 0: the column is left out */
	char *cell[NCOLS];
	bool marks[4];          /* 'm', 'h', '-', a bound below 0: explained */
};

static const char *const col_head[NCOLS] = {
	"#", "section", "varies", "", "CV", "contended", "hand-offs/s",
	"kernel/Mop", "flags",
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
	cell[COL_SECTION] = esc(a->d->configs[r->config].section);
	cell[COL_VARIES] = esc(*r->varies ? r->varies : "-");
	cut(cell[COL_SECTION], 16);
	if (r->primary) {
		cell[COL_VALUE] = xasprintf("%s%s%c", r->value,
					    r->mark == ' ' ? "" : " ", r->mark);
		cell[COL_CV] = xstrdup(*r->cv ? r->cv : "-");
		cell[COL_CONT] = xstrdup(*r->contended ? r->contended : "-");
		cell[COL_HAND] = xstrdup(*r->handoffs ? r->handoffs : "-");
		cell[COL_KLOCK] = xstrdup(*r->klock ? r->klock : "-");
		t->marks[0] |= r->mark == 'm';
		t->marks[1] |= r->mark == 'h';
		t->marks[2] |= !*r->contended || !*r->handoffs || !*r->cv;
		t->marks[3] |= r->mark == ' ' && r->primary->s.ci_low < 0 &&
			       r->primary->s.min >= 0;
	} else if (r->failed && r->failed + ca->warmup + ca->pending >= r->runs) {
		char *why = esc(r->first_error);

		cell[COL_VALUE] = xasprintf("all %zu run%s failed: %s", r->failed,
					    r->failed == 1 ? "" : "s", why);
		free(why);
	} else {
		cell[COL_VALUE] = xasprintf("no measured run (%zu failed, %zu "
					    "not run)", r->failed, ca->pending);
	}
	if (!r->primary)
		cell[COL_CV] = cell[COL_CONT] = cell[COL_HAND] =
			cell[COL_KLOCK] = NULL;
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
	bool cont = false, hand = false, klock = false;
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

/* The answer first: one row per configuration, its primary metric with
 * the interval, noise, contention, hand-offs and flags. */
static void text_summary_table(FILE *f, const struct analysis *a)
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

		wrap(f, " ", 2, legend);
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

/* ---- flag messages, each once ---- */

/* Position of a flag name in flag_order; unknown names come last. */
static size_t flag_rank(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flag_order); i++)
		if (!strcmp(flag_order[i], name))
			return i;
	return ARRAY_SIZE(flag_order);
}

/* "config 2 (vs 1)" for flag fl of configuration c. */
static char *flag_config(size_t c, const struct flag *fl)
{
	if (fl->other_config >= 0)
		return xasprintf("%zu (vs %ld)", c + 1, fl->other_config + 1);
	return xasprintf("%zu", c + 1);
}

/*
 * What a flag found, without the explanation and the remedy that follow
 * (its message up to the first ": " or ". "), when the same kind was
 * explained in full just before; else the whole message.  malloc'd.
 */
static char *finding(const char *message, bool explained)
{
	const char *colon = strstr(message, ": "), *stop = strstr(message, ". ");

	if (!explained)
		return xstrdup(message);
	if (!colon || (stop && stop < colon))
		colon = stop;
	return colon ? xasprintf("%.*s (as above)", (int)(colon - message),
				 message)
		     : xstrdup(message);
}

/*
 * Every flag's message, the most consequential kinds first: the first of
 * a kind in full, the others by what they found; a message several
 * configurations share word for word is printed once with all of them.
 */
static void text_flag_messages(FILE *f, const struct analysis *a)
{
	struct totals t;
	size_t rank, c, i, c2, j, full = (size_t)-1;

	totals(a, &t);
	fputc('\n', f);
	if (!t.flags) {
		fprintf(f, "flags: none raised\n");
		return;
	}
	fprintf(f, "flags: %zu raised (USER-GUIDE.md \"Reading the report\")\n",
		t.flags);
	for (rank = 0; rank <= ARRAY_SIZE(flag_order); rank++)
		for (c = 0; c < a->nconfigs; c++)
			for (i = 0; i < a->configs[c].nflags; i++) {
				const struct flag *fl = &a->configs[c].flags[i];
				char *where, *lead, *more;
				bool seen = false;

				if (flag_rank(fl->name) != rank)
					continue;
				/* Printed already with an earlier configuration? */
				for (c2 = 0; c2 < c && !seen; c2++)
					for (j = 0; j < a->configs[c2].nflags; j++)
						seen |= !strcmp(a->configs[c2].flags[j].name, fl->name) &&
							!strcmp(a->configs[c2].flags[j].message, fl->message);
				if (seen)
					continue;
				where = flag_config(c, fl);
				for (c2 = c + 1; c2 < a->nconfigs; c2++)
					for (j = 0; j < a->configs[c2].nflags; j++) {
						const struct flag *g = &a->configs[c2].flags[j];
						char *w;

						if (strcmp(g->name, fl->name) ||
						    strcmp(g->message, fl->message))
							continue;
						w = flag_config(c2, g);
						more = xasprintf("%s, %s", where, w);
						free(w);
						free(where);
						where = more;
					}
				lead = xasprintf("  ! %s, config%s %s:", fl->name,
						 strchr(where, ',') ? "s" : "", where);
				more = finding(fl->message, full == rank);
				wrap(f, lead, 4, more);
				full = rank;
				free(more);
				free(lead);
				free(where);
			}
}

/* ---- failed runs, with their reasons ---- */

static void text_failures(FILE *f, const struct analysis *a)
{
	bool head = false;
	size_t c, i, k;

	for (c = 0; c < a->nconfigs; c++) {
		struct report_failure *fail;
		size_t n = report_failures(a->d, c, &fail);
		char *varies, *lead, *text;

		if (!n) {
			free(fail);
			continue;
		}
		if (!head)
			fprintf(f, "\nfailed runs:\n");
		head = true;
		varies = report_varying(a->d, c);
		lead = xasprintf("  config %zu [%s]%s%s:", c + 1,
				 cfg(a, c)->section, *varies ? " " : "", varies);
		text = xasprintf("%zu of %zu runs failed", a->configs[c].failed,
				 cfg(a, c)->nruns);
		wrap(f, lead, 4, text);
		free(lead);
		free(text);
		free(varies);
		for (i = 0; i < n; i++) {
			char *seqs = xstrdup(""), *tmp;

			for (k = 0; k < fail[i].count && k < REPORT_FAILURE_SEQS; k++) {
				tmp = xasprintf("%s%s%ld", seqs, k ? ", " : "",
						fail[i].seq[k]);
				free(seqs);
				seqs = tmp;
			}
			text = xasprintf("%zu x %s (seq %s%s)", fail[i].count,
					 fail[i].reason, seqs,
					 fail[i].count > REPORT_FAILURE_SEQS ? ", ..." : "");
			wrap(f, "    - ", 6, text);
			free(text);
			free(seqs);
		}
		report_failures_free(fail, n);
	}
}

static void text_methods(FILE *f, const struct analysis *a)
{
	const struct analysis_opts *o = &a->opts;
	char *m = xasprintf(
		"mean with its Student-t %g%% interval; median with a "
		"distribution-free %g%% interval from order statistics "
		"(binomial; the coverage achieved is shown); outliers: modified "
		"z-score > %.1f (MAD), listed and never dropped; normality: "
		"D'Agostino K^2 (n >= 8); under fixed work (jobs) rates are "
		"harmonic means, total work / total time (marked h); flags "
		"judge each configuration's primary metric at alpha %g (drift "
		"%g) and compare configurations of a sweep that differ in one "
		"parameter (Welch t); a hand-off drop of %g%% or more is "
		"misleading, except across a load parameter (independent "
		"locks, work outside the lock), where it is only noted.",
		100 * o->confidence, 100 * o->confidence, STATS_OUTLIER_Z,
		o->alpha, o->drift_alpha, 100 * o->handoff_drop);

	wrap(f, "methods:", 4, m);
	free(m);
}

/* The primary metric's direction, in words. */
static const char *direction_name(const struct analysis *a,
				  const struct config_analysis *ca)
{
	switch (analysis_direction(a->d, ca->config, ca->primary_name)) {
	case DIR_HIGHER:
		return "higher is better";
	case DIR_LOWER:
		return "lower is better";
	default:
		return "no direction declared";
	}
}

/* The result a reader takes away: the median when normality failed. */
static void text_headline(FILE *f, const struct analysis *a,
			  const struct config_analysis *ca)
{
	const struct metric_summary *ms;
	char b[NUMFMT_CI_LEN];

	if (ca->primary_name && strcmp(ca->primary_name, "throughput"))
		fprintf(f, "  primary metric: %s (%s; docs/INI.md \"primary\")\n",
			ca->primary_name, direction_name(a, ca));
	if (ca->primary < 0 || !ca->metrics[ca->primary].s.n) {
		if (ca->primary_name)
			fprintf(f, "  no run reported the primary metric %s\n",
				ca->primary_name);
		return;
	}
	ms = &ca->metrics[ca->primary];
	if (report_non_normal(a, ms))
		fprintf(f, "  %s: median %s %s (%.1f%% distribution-free; "
			   "not normal), n %zu\n", mname(a, ms->metric),
			numfmt_ci(b, sizeof(b), ms->s.median, ms->s.median_ci_low,
				  ms->s.median_ci_high),
			metric_unit(mname(a, ms->metric)),
			100 * ms->s.median_ci_level, ms->s.n);
	else
		fprintf(f, "  %s: %s %s (%s, %g%% CI), n %zu\n",
			mname(a, ms->metric),
			numfmt_ci(b, sizeof(b), ms->s.mean, ms->s.ci_low,
				  ms->s.ci_high),
			metric_unit(mname(a, ms->metric)),
			ms->harmonic ? "harmonic mean" : "mean",
			100 * a->opts.confidence, ms->s.n);
}

/*
 * The kernel's contended locks of the runs in one line (runner/klock.h):
 * the mean a run, per operation, and the kind most of them were.
 */
static void text_klock(FILE *f, const struct analysis *a,
		       const struct config_analysis *ca)
{
	int m = dataset_metric(a->d, "klock_contended");
	int po = dataset_metric(a->d, "klock_contended_per_op");
	const char *top = NULL;
	double total, most = 0;
	char v[24], p[24];
	size_t i;

	if (m < 0 || !ca->metrics[m].s.n)
		return;
	total = ca->metrics[m].s.mean;
	for (i = 0; i < a->d->nmetrics; i++) {
		const char *name = a->d->metrics[i];

		if (strncmp(name, "klock_", 6) || (int)i == m || (int)i == po ||
		    !ca->metrics[i].s.n || ca->metrics[i].s.mean <= most)
			continue;
		most = ca->metrics[i].s.mean;
		top = name + 6;
	}
	fprintf(f, "  kernel locks: %s contended a run (mean)",
		analysis_fmt(v, sizeof(v), total));
	if (po >= 0 && ca->metrics[po].s.n)
		fprintf(f, ", %s per op",
			analysis_fmt(p, sizeof(p), ca->metrics[po].s.mean));
	if (top && total > 0)
		fprintf(f, ", %.0f%% %s", 100 * most / total, top);
	fputc('\n', f);
}

/* The configuration's profile = lock run: its top kernel locks by caller. */
static void text_profile(FILE *f, const struct ds_config *cf)
{
	size_t i;

	if (!cf->nprofile)
		return;
	fprintf(f, "  kernel locks by caller (one unmeasured run under perf "
		   "lock contention):\n"
		   "    %10s %10s %10s  %-12s %s\n", "contended", "wait_s",
		"max_wait_s", "type", "caller");
	for (i = 0; i < cf->nprofile; i++) {
		const struct profile_row *p = &cf->profile[i];
		char w[24], m[24];

		fprintf(f, "    %10llu %10s %10s  %-12s %s\n",
			(unsigned long long)p->contended,
			analysis_fmt(w, sizeof(w), p->wait_s),
			analysis_fmt(m, sizeof(m), p->max_wait_s), p->lock_type,
			p->caller);
	}
}

enum { M_NAME, M_N, M_MEAN, M_MEDIAN, M_SD, M_CV, M_MIN, M_MAX, M_OUT,
       M_NCOLS };

static const char *const m_head[M_NCOLS] = {
	"metric", "n", "mean [CI]", "median [CI]", "sd", "cv", "min", "max",
	"out",
};

/* The cells of one metric's row: intervals share the mean's digits. */
static void metric_cells(const struct analysis *a,
			 const struct metric_summary *ms, char **cell)
{
	char b[NUMFMT_CI_LEN], c[NUMFMT_CI_LEN];
	const struct summary *s = &ms->s;

	cell[M_NAME] = esc(mname(a, ms->metric));
	cell[M_N] = xasprintf("%zu", s->n);
	cell[M_MEAN] = xasprintf("%s%s", numfmt_ci(b, sizeof(b), s->mean,
						   s->ci_low, s->ci_high),
				 ms->harmonic ? " h" : "");
	cell[M_MEDIAN] = xstrdup(numfmt_ci(b, sizeof(b), s->median,
					   s->median_ci_low, s->median_ci_high));
	cell[M_SD] = xstrdup(numfmt(b, sizeof(b), s->sd));
	cell[M_CV] = isnan(s->cv) ? xstrdup(NUMFMT_MISSING)
				  : xasprintf("%s%%", numfmt_sig(c, sizeof(c),
								 100 * s->cv, 2));
	cell[M_MIN] = xstrdup(numfmt(b, sizeof(b), s->min));
	cell[M_MAX] = xstrdup(numfmt(b, sizeof(b), s->max));
	cell[M_OUT] = xasprintf("%zu", s->noutliers);
}

/* Is metric name one of the comma-separated list (NULL: every one)? */
static bool chosen(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	if (!list)
		return true;
	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

static void text_table(FILE *f, const struct analysis *a,
		       const struct config_analysis *ca, const char *metrics)
{
	char *(*cells)[M_NCOLS] = xcalloc(ca->nmetrics ? ca->nmetrics : 1,
					  sizeof(*cells));
	int w[M_NCOLS];
	size_t m, k, n = 0;

	for (k = 0; k < M_NCOLS; k++)
		w[k] = columns(m_head[k]);
	for (m = 0; m < ca->nmetrics; m++) {
		if (!ca->metrics[m].s.n || !chosen(metrics, mname(a, (int)m)))
			continue;
		metric_cells(a, &ca->metrics[m], cells[n]);
		for (k = 0; k < M_NCOLS; k++)
			w[k] = MAX(w[k], columns(cells[n][k]));
		n++;
	}
	for (k = 0; k < M_NCOLS; k++) {
		fputs(k ? " " : "  ", f);
		pad(f, m_head[k], k + 1 < M_NCOLS ? w[k] : 0, k == M_N || k >= M_SD);
	}
	fputc('\n', f);
	for (m = 0; m < n; m++) {
		for (k = 0; k < M_NCOLS; k++) {
			fputs(k ? " " : "  ", f);
			pad(f, cells[m][k], w[k], k == M_N || k >= M_SD);
			free(cells[m][k]);
		}
		fputc('\n', f);
	}
	free(cells);
}

/* Every outlier of every metric, by run: counted, listed, kept. */
static void text_outliers(FILE *f, const struct analysis *a,
			  const struct config_analysis *ca)
{
	char *s = xstrdup(""), *t, v[24];
	size_t m, i;

	for (m = 0; m < ca->nmetrics; m++) {
		const struct metric_summary *ms = &ca->metrics[m];

		for (i = 0; i < ms->s.noutliers; i++) {
			size_t r = ms->outliers[i];

			t = xasprintf("%s%s%s%s seq %ld = %s", s,
				      *s && !i ? "; " : "", i ? ", " : "",
				      i ? "" : mname(a, ms->metric),
				      a->d->runs[r].seq,
				      analysis_fmt(v, sizeof(v),
						   dataset_value(a->d, r, ms->metric)));
			free(s);
			s = t;
		}
	}
	if (*s)
		wrap(f, "  outlier runs (kept):", 4, s);
	free(s);
}

static void text_fairness(FILE *f, const struct config_analysis *ca)
{
	if (isnan(ca->mean_jain))
		return;
	fprintf(f, "  fairness: Jain %.3f (mean over runs, %zu thread%s), "
		   "busiest thread %.1f%% of the work\n",
		ca->mean_jain, ca->threads, ca->threads == 1 ? "" : "s",
		100 * ca->max_share);
}

static void text_auto(FILE *f, const struct config_analysis *ca)
{
	if (!ca->is_auto)
		return;
	fprintf(f, "  repetitions = auto: %s after %zu measured runs: CI "
		   "half-width %.2f%% of the mean, target %.2f%% (rule: stop once "
		   "%d <= n runs reach it, or at %d)\n",
		ca->auto_stop, ca->measured, 100 * ca->auto_rel_hw,
		100 * ca->auto_precision, ca->auto_min, ca->auto_max);
}

/* The flags' names: their messages are in the summary, once. */
static void text_flags(FILE *f, const struct config_analysis *ca)
{
	char *names = xstrdup(""), *tmp;
	size_t i;

	for (i = 0; i < ca->nflags; i++) {
		tmp = xasprintf("%s%s%s", names, i ? ", " : "", ca->flags[i].name);
		free(names);
		names = tmp;
	}
	if (*names)
		fprintf(f, "  flags: %s (under \"flags\" above)\n", names);
	free(names);
}

static void text_config(FILE *f, const struct analysis *a, size_t c,
			const char *metrics)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	char *lead = xasprintf("config %zu [%s] %s:", c + 1, cf->section,
			       cf->workload);

	fputc('\n', f);
	wrap(f, lead, 4, cf->canon);
	free(lead);
	fprintf(f, "  runs: %zu measured, %zu warm-up, %zu failed, %zu not run\n",
		ca->measured, ca->warmup, ca->failed, ca->pending);
	if (!ca->measured) {
		fprintf(f, "  no measured runs\n");
		text_flags(f, ca);
		return;
	}
	text_headline(f, a, ca);
	text_klock(f, a, ca);
	text_table(f, a, ca, metrics);
	text_profile(f, cf);
	text_outliers(f, a, ca);
	text_fairness(f, ca);
	text_auto(f, ca);
	text_flags(f, ca);
}

static void text_correlations(FILE *f, const struct analysis *a)
{
	size_t i, w = 7;

	fputc('\n', f);
	if (!a->ncorr) {
		fprintf(f, "correlations: none (no section has 3 measured runs "
			   "with varying throughput and contention)\n");
		return;
	}
	for (i = 0; i < a->ncorr; i++)
		if (strlen(a->corr[i].section) > w)
			w = strlen(a->corr[i].section);
	fprintf(f, "correlations with throughput (measured runs; two-sided p):\n");
	fprintf(f, "  %-*s %-10s %-15s %4s %9s %8s %9s %8s\n", (int)w, "section",
		"runs of", "x", "n", "pearson r", "p", "spearman", "p");
	for (i = 0; i < a->ncorr; i++) {
		const struct corr_row *r = &a->corr[i];
		char of[32];

		if (r->config < 0)
			snprintf(of, sizeof(of), "all");
		else
			snprintf(of, sizeof(of), "config %ld", r->config + 1);
		char *sec = esc(r->section);

		fprintf(f, "  %-*s %-10s %-15s %4zu %+9.3f %8.2g %+9.3f %8.2g\n",
			(int)w, sec, of, r->x, r->pearson.n, r->pearson.r,
			r->pearson.p, r->spearman.r, r->spearman.p);
		free(sec);
	}
}

/* "2 (vs 1), 5": the configurations that carry flag name. */
static size_t flag_where(const struct analysis *a, const char *name,
			 char *b, size_t len)
{
	size_t c, i, n = 0, at = 0;

	b[0] = 0;
	for (c = 0; c < a->nconfigs; c++)
		for (i = 0; i < a->configs[c].nflags; i++) {
			const struct flag *fl = &a->configs[c].flags[i];
			int k;

			if (strcmp(fl->name, name))
				continue;
			if (fl->other_config >= 0)
				k = snprintf(b + at, len - at, "%s%zu (vs %ld)",
					     n ? ", " : "", c + 1,
					     fl->other_config + 1);
			else
				k = snprintf(b + at, len - at, "%s%zu",
					     n ? ", " : "", c + 1);
			n++;
			if (k > 0 && (size_t)k < len - at)
				at += (size_t)k;
		}
	return n;
}

int report_text_view(FILE *f, const struct analysis *a,
		     const struct report_view *view)
{
	bool details = view->verbose || view->metrics;
	size_t c;

	text_header(f, a);
	text_summary_table(f, a);
	text_flag_messages(f, a);
	text_failures(f, a);
	if (details) {
		for (c = 0; c < a->nconfigs; c++)
			text_config(f, a, c, view->metrics);
		text_correlations(f, a);
	} else {
		fprintf(f, "\nper-metric tables, outliers, fairness and "
			   "correlations: contend report --verbose\n");
	}
	text_host(f, a);
	fputc('\n', f);
	text_methods(f, a);
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

int report_text(FILE *f, const struct analysis *a)
{
	static const struct report_view plain = { 0 };

	return report_text_view(f, a, &plain);
}

/* ---- json ---- */

static void json_experiment(struct json_writer *w, const struct analysis *a)
{
	const struct experiment_row *e = &a->d->exp;
	struct totals t;
	size_t i;

	totals(a, &t);
	json_open(w, "experiment", '{');
	json_int(w, "id", e->id);
	json_str(w, "uuid", e->uuid);
	json_str(w, "name", e->name);
	json_str(w, "label", e->label);
	json_str(w, "status", e->status);
	json_key(w, "seed");
	fprintf(w->f, "%llu", (unsigned long long)e->seed);
	json_str(w, "order", e->order);
	json_num(w, "confidence", a->opts.confidence);
	json_num(w, "created_at", e->created_at);
	json_num(w, "finished_at", e->finished_at > 0 ? e->finished_at : NAN);
	json_open(w, "host", '{');
	for (i = 0; i < e->nmeta; i++)
		json_str(w, e->meta[i].key, e->meta[i].value);
	json_close(w, '}');
	json_open(w, "runs", '{');
	json_int(w, "planned", (long long)t.planned);
	json_int(w, "measured", (long long)t.measured);
	json_int(w, "warmup", (long long)t.warmup);
	json_int(w, "failed", (long long)t.failed);
	json_int(w, "missing", (long long)t.pending);
	json_close(w, '}');
	json_close(w, '}');
}

static void json_methods(struct json_writer *w, const struct analysis *a)
{
	const struct analysis_opts *o = &a->opts;

	json_open(w, "methods", '{');
	json_num(w, "confidence", o->confidence);
	json_str(w, "mean_ci", "student-t");
	json_str(w, "median_ci", "binomial order statistics");
	json_str(w, "outliers", "modified z-score (MAD)");
	json_num(w, "outlier_threshold", STATS_OUTLIER_Z);
	json_str(w, "normality", "dagostino-k2");
	json_str(w, "fixed_work_mean", "harmonic");
	json_num(w, "alpha", o->alpha);
	json_num(w, "drift_alpha", o->drift_alpha);
	json_num(w, "power", o->power);
	json_num(w, "resolve_pct", o->resolve_pct);
	json_num(w, "handoff_drop", o->handoff_drop);
	json_num(w, "jain_min", o->jain_min);
	json_num(w, "max_share", o->max_share);
	json_int(w, "share_threads", (long long)o->share_threads);
	json_int(w, "min_runs", (long long)o->min_runs);
	json_close(w, '}');
}

static void json_metric(struct json_writer *w, const struct analysis *a,
			const struct metric_summary *ms)
{
	const struct summary *s = &ms->s;
	size_t i;

	json_open(w, mname(a, ms->metric), '{');
	json_str(w, "unit", metric_unit(mname(a, ms->metric)));
	json_int(w, "n", (long long)s->n);
	json_str(w, "mean_kind", ms->harmonic ? "harmonic" : "arithmetic");
	json_num(w, "mean", s->mean);
	json_num(w, "sd", s->sd);
	json_num(w, "cv", s->cv);
	json_num(w, "median", s->median);
	json_num(w, "min", s->min);
	json_num(w, "max", s->max);
	json_num(w, "ci_low", s->ci_low);
	json_num(w, "ci_high", s->ci_high);
	json_num(w, "median_ci_low", s->median_ci_low);
	json_num(w, "median_ci_high", s->median_ci_high);
	json_num(w, "median_ci_level", s->median_ci_level);
	json_num(w, "mad", s->mad);
	json_num(w, "skewness", s->skewness);
	json_num(w, "kurtosis", s->kurtosis);
	json_num(w, "k2", s->k2);
	json_num(w, "k2_p", s->k2_p);
	json_int(w, "outliers", (long long)s->noutliers);
	json_open(w, "outlier_runs", '[');
	for (i = 0; i < s->noutliers; i++) {
		size_t r = ms->outliers[i];

		json_open(w, NULL, '{');
		json_int(w, "run", a->d->runs[r].id);
		json_int(w, "seq", a->d->runs[r].seq);
		json_num(w, "value", dataset_value(a->d, r, ms->metric));
		json_close(w, '}');
	}
	json_close(w, ']');
	json_close(w, '}');
}

static void json_flag(struct json_writer *w, const struct analysis *a,
		      const struct flag *fl)
{
	size_t i;

	json_open(w, NULL, '{');
	json_str(w, "name", fl->name);
	if (fl->metric >= 0)
		json_str(w, "metric", mname(a, fl->metric));
	else
		json_num(w, "metric", NAN);
	if (fl->other_config >= 0)
		json_int(w, "other_config", cfg(a, (size_t)fl->other_config)->id);
	else
		json_num(w, "other_config", NAN);
	json_str(w, "message", fl->message);
	for (i = 0; i < fl->nnums; i++)
		json_num(w, fl->nums[i].key, fl->nums[i].value);
	json_close(w, '}');
}

/* The profile = lock run's top kernel locks by caller, ranked; only
 * for a configuration that has one (as the text and HTML reports). */
static void json_profile(struct json_writer *w, const struct ds_config *cf)
{
	size_t i;

	if (!cf->nprofile)
		return;
	json_open(w, "profile", '[');
	for (i = 0; i < cf->nprofile; i++) {
		const struct profile_row *p = &cf->profile[i];

		json_open(w, NULL, '{');
		json_int(w, "rank", (long long)i + 1);
		json_str(w, "caller", p->caller);
		json_str(w, "lock_type", p->lock_type);
		json_int(w, "contended", (long long)p->contended);
		json_num(w, "wait_s", p->wait_s);
		json_num(w, "max_wait_s", p->max_wait_s);
		json_close(w, '}');
	}
	json_close(w, ']');
}

static void json_config(struct json_writer *w, const struct analysis *a,
			size_t c)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	size_t i;

	json_open(w, NULL, '{');
	json_int(w, "id", cf->id);
	json_int(w, "index", (long long)c + 1);
	json_str(w, "workload", cf->workload);
	json_str(w, "section", cf->section);
	json_str(w, "canon", cf->canon);
	json_open(w, "params", '{');
	for (i = 0; i < cf->nparams; i++)
		json_str(w, cf->params[i].key, cf->params[i].value);
	json_close(w, '}');
	json_bool(w, "fixed_work", ca->fixed_work);
	json_open(w, "runs", '{');
	json_int(w, "measured", (long long)ca->measured);
	json_int(w, "warmup", (long long)ca->warmup);
	json_int(w, "failed", (long long)ca->failed);
	json_int(w, "pending", (long long)ca->pending);
	json_close(w, '}');
	if (ca->primary >= 0)
		json_str(w, "primary_metric", mname(a, ca->primary));
	else
		json_num(w, "primary_metric", NAN);
	if (ca->primary_name) {
		enum direction d = analysis_direction(a->d, ca->config,
						      ca->primary_name);

		json_str(w, "primary", ca->primary_name);
		if (d == DIR_UNKNOWN)
			json_num(w, "direction", NAN);
		else
			json_str(w, "direction",
				 d == DIR_HIGHER ? "higher" : "lower");
	} else {
		json_num(w, "primary", NAN);
		json_num(w, "direction", NAN);
	}
	json_open(w, "metrics", '{');
	for (i = 0; i < ca->nmetrics; i++)
		if (ca->metrics[i].s.n)
			json_metric(w, a, &ca->metrics[i]);
	json_close(w, '}');
	json_open(w, "fairness", '{');
	json_num(w, "mean_jain", ca->mean_jain);
	json_num(w, "max_share", ca->max_share);
	json_int(w, "threads", (long long)ca->threads);
	json_close(w, '}');
	if (ca->is_auto) {
		json_open(w, "auto", '{');
		json_str(w, "stopped", ca->auto_stop);
		json_num(w, "rel_halfwidth", ca->auto_rel_hw);
		json_num(w, "precision", ca->auto_precision);
		json_int(w, "min_repetitions", ca->auto_min);
		json_int(w, "max_repetitions", ca->auto_max);
		json_close(w, '}');
	}
	json_profile(w, cf);
	json_open(w, "flags", '[');
	for (i = 0; i < ca->nflags; i++)
		json_flag(w, a, &ca->flags[i]);
	json_close(w, ']');
	json_close(w, '}');
}

static void json_correlations(struct json_writer *w, const struct analysis *a)
{
	size_t i;

	json_open(w, "correlations", '[');
	for (i = 0; i < a->ncorr; i++) {
		const struct corr_row *r = &a->corr[i];

		json_open(w, NULL, '{');
		json_str(w, "section", r->section);
		if (r->config >= 0)
			json_int(w, "config", cfg(a, (size_t)r->config)->id);
		else
			json_num(w, "config", NAN);
		json_str(w, "x", r->x);
		json_str(w, "y", r->y);
		json_int(w, "n", (long long)r->pearson.n);
		json_num(w, "pearson_r", r->pearson.r);
		json_num(w, "pearson_p", r->pearson.p);
		json_num(w, "spearman_rho", r->spearman.r);
		json_num(w, "spearman_p", r->spearman.p);
		json_close(w, '}');
	}
	json_close(w, ']');
}

static void json_flag_counts(struct json_writer *w, const struct analysis *a)
{
	char where[1024];
	size_t i;

	json_open(w, "flag_counts", '{');
	for (i = 0; i < ARRAY_SIZE(flag_order); i++)
		json_int(w, flag_order[i], (long long)flag_where(a, flag_order[i],
							    where, sizeof(where)));
	json_close(w, '}');
}

int report_json(FILE *f, const struct analysis *a)
{
	struct json_writer w = { .f = f };
	size_t c;

	json_open(&w, NULL, '{');
	json_int(&w, "schema", REPORT_JSON_VERSION);
	json_experiment(&w, a);
	json_methods(&w, a);
	json_open(&w, "configs", '[');
	for (c = 0; c < a->nconfigs; c++)
		json_config(&w, a, c);
	json_close(&w, ']');
	json_correlations(&w, a);
	json_flag_counts(&w, a);
	json_close(&w, '}');
	fputc('\n', f);
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

/* ---- csv ---- */

/* RFC 4180: quote a field holding a comma, quote or line break. */
static void csv_field(FILE *f, const char *s, bool last)
{
	const char *p;

	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (p = s; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g,", v);
	else
		fputc(',', f);
}

static const char *const csv_columns[] = {
	"experiment", "config", "workload", "section", "params", "metric",
	"unit", "n", "mean_kind", "mean", "sd", "cv", "median", "min", "max",
	"ci_low", "ci_high", "median_ci_low", "median_ci_high", "outliers",
	"measured", "warmup", "failed", "pending", "flags",
};

/* The names of the flags of configuration ca that concern metric m. */
static char *csv_flags(const struct config_analysis *ca, int m)
{
	char *s = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < ca->nflags; i++) {
		if (ca->flags[i].metric != m && ca->flags[i].metric >= 0)
			continue;
		t = xasprintf("%s%s%s", s, *s ? ";" : "", ca->flags[i].name);
		free(s);
		s = t;
	}
	return s;
}

static void csv_row(FILE *f, const struct analysis *a, size_t c,
		    const struct metric_summary *ms)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	const struct summary *s = &ms->s;
	char *flags = csv_flags(ca, ms->metric);
	const double stats[] = {
		s->mean, s->sd, s->cv, s->median, s->min, s->max, s->ci_low,
		s->ci_high, s->median_ci_low, s->median_ci_high,
	};
	size_t i;

	fprintf(f, "%lld,%lld,", (long long)a->d->exp.id, (long long)cf->id);
	csv_field(f, cf->workload, false);
	csv_field(f, cf->section, false);
	csv_field(f, cf->canon, false);
	csv_field(f, mname(a, ms->metric), false);
	csv_field(f, metric_unit(mname(a, ms->metric)), false);
	fprintf(f, "%zu,%s,", s->n, ms->harmonic ? "harmonic" : "arithmetic");
	for (i = 0; i < ARRAY_SIZE(stats); i++)
		csv_num(f, s->n ? stats[i] : NAN);
	fprintf(f, "%zu,%zu,%zu,%zu,%zu,", s->noutliers, ca->measured,
		ca->warmup, ca->failed, ca->pending);
	csv_field(f, flags, true);
	free(flags);
}

int report_csv(FILE *f, const struct analysis *a)
{
	/* A configuration without measured runs: one row, metric empty. */
	struct metric_summary none = { .metric = -1 };
	size_t c, m, i;

	for (i = 0; i < ARRAY_SIZE(csv_columns); i++)
		csv_field(f, csv_columns[i], i + 1 == ARRAY_SIZE(csv_columns));
	for (c = 0; c < a->nconfigs; c++) {
		size_t rows = 0;

		for (m = 0; m < a->configs[c].nmetrics; m++)
			if (a->configs[c].metrics[m].s.n) {
				csv_row(f, a, c, &a->configs[c].metrics[m]);
				rows++;
			}
		if (!rows)
			csv_row(f, a, c, &none);
	}
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

int report_write(FILE *f, const struct analysis *a, enum report_format fmt)
{
	static int (*const writers[])(FILE *, const struct analysis *) = {
		[REPORT_TEXT] = report_text,
		[REPORT_JSON] = report_json,
		[REPORT_CSV] = report_csv,
	};

	if (fmt < 0 || fmt >= REPORT_NFORMATS)
		return error("unknown report format %d", (int)fmt);
	return writers[fmt](f, a);
}
