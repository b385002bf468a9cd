/*
 * report_table.c - the text report's summary: one row per configuration
 * (its primary metric with the interval, noise, contention, hand-offs and
 * flags) in columns fitted to TABLE_WIDTH (80), the legend of its marks,
 * short column heads and short parameter names; then the flag messages,
 * the most consequential kinds first: under --verbose every message once
 * (the first of a kind in full, the others by what they found); by
 * default what each found, a kind raised by several configurations in one
 * line with its numbers as ranges ("CV 6.2-24% of throughput is above
 * ...").
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "analysis/flagtab.h"
#include "lib/strmap.h"
#include "lib/util.h"

enum { COL_ID, COL_SECTION, COL_VARIES, COL_VALUE, COL_CV, COL_CONT,
       COL_HAND, COL_KLOCK, COL_KWAIT, COL_FLAGS, NCOLS };

struct table {
	int w[NCOLS];           /* 0: the column is left out */
	bool marks[4];          /* 'm', 'h', '-', a bound below 0: explained */
	char *varies_keys;      /* "threads, delay": the varies cells hold
				   only these keys' values; NULL: key=value */
};

static const char *const col_head[NCOLS] = {
	"#", "section", "varies", "", "CV", "cont", "hand/s", "kl/Mop",
	"kwait", "flags",
};

/* The legend of the short heads. */
static const char *const col_legend[NCOLS] = {
	[COL_CONT] = "cont: contended acquisitions, % of all",
	[COL_HAND] = "hand/s: lock hand-offs per second",
	[COL_KLOCK] = "kl/Mop: kernel lock contentions per million operations",
	[COL_KWAIT] = "kwait: kernel lock wait, share of the tasks' time",
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
	const char *fig[] = { r->cv, r->contended, r->handoffs, r->klock,
			      r->kwait };
	size_t k;

	cell[COL_ID] = xasprintf("%zu", r->config + 1);
	cell[COL_SECTION] = report_esc(a->d->configs[r->config].section);
	cell[COL_VARIES] = report_esc(*r->brief ? r->brief : "-");
	cut(cell[COL_SECTION], 16);
	if (r->primary) {
		cell[COL_VALUE] = xasprintf("%s%s%c", r->value,
					    r->mark == ' ' ? "" : " ", r->mark);
		for (k = COL_CV; k <= COL_KWAIT; k++)
			cell[k] = xstrdup(*fig[k - COL_CV] ? fig[k - COL_CV] : "-");
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
	cell[COL_FLAGS] = xstrdup(*r->flags ? r->flags : "");
}

/* The space before column k: one between the figures after CV. */
static const char *gap(size_t k)
{
	return !k ? " " : k > COL_CV && k < COL_FLAGS ? " " : "  ";
}

/* Width of a row up to its flags. */
static int row_width(const struct table *t)
{
	int col = 0;
	size_t k;

	for (k = 0; k < COL_FLAGS; k++)
		if (t->w[k])
			col += (int)strlen(gap(k)) + t->w[k];
	return col;
}

/* s cut to w columns in every row. */
static void cut_column(char *(*cells)[NCOLS], size_t n, size_t k, int w)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (cells[i][k])
			cut(cells[i][k], w);
}

/*
 * A row passing TABLE_WIDTH (its flags may go below it) takes the room
 * from the section down to SECTION_MIN columns, then from what varies
 * down to VARIES_MIN: a cut value says little, so each is cut only as far
 * as the width must.
 */
#define SECTION_MIN 8
#define VARIES_MIN 10
/*
 * Where a row is too wide and every row varies the same keys, the varies
 * cells keep the values alone ("2 10000", at most w columns) and the
 * legend names the keys once: cut, a key=value list would lose the values
 * that tell the rows apart.
 */
static void varies_values(const struct dataset *d, struct table *t,
			  char *(*cells)[NCOLS], size_t n, int w)
{
	char *keys = NULL;
	size_t i;
	int widest = columns(col_head[COL_VARIES]);

	for (i = 0; i < n; i++) {
		char *k = report_varying(d, i, VARY_KEYS);

		if (!k || !*k || (keys && strcmp(k, keys))) {
			free(k);
			free(keys);
			return;
		}
		free(keys);
		keys = k;
	}
	for (i = 0; i < n; i++) {
		free(cells[i][COL_VARIES]);
		cells[i][COL_VARIES] = report_varying(d, i, VARY_VALUES);
		widest = MAX(widest, columns(cells[i][COL_VARIES]));
	}
	if (widest > w) {
		/* still too wide: the values cut as any cell */
		widest = w;
		cut_column(cells, n, COL_VARIES, w);
	}
	t->w[COL_VARIES] = widest;
	t->varies_keys = keys;
}

static void fit_width(const struct dataset *d, struct table *t,
		      char *(*cells)[NCOLS], size_t n)
{
	static const struct { size_t col; int min; } give[] = {
		{ COL_SECTION, SECTION_MIN }, { COL_VARIES, VARIES_MIN },
	};
	int over = row_width(t) - TABLE_WIDTH, k, w;
	size_t g;

	/* varies would be cut too: its values alone first, so that the
	 * section's name keeps what room they leave */
	if (n && over > t->w[COL_SECTION] - SECTION_MIN)
		varies_values(d, t, cells, n, t->w[COL_VARIES]);
	for (g = 0; g < ARRAY_SIZE(give); g++) {
		k = (int)give[g].col;
		over = row_width(t) - TABLE_WIDTH;
		w = MAX(give[g].min, t->w[k] - MAX(over, 0));
		if (over <= 0)
			return;
		if (w < t->w[k]) {
			t->w[k] = w;
			cut_column(cells, n, (size_t)k, w);
		}
	}
}

/* Is the figure absent ("" or "-") or zero ("0", "0%")? */
static bool nothing(const char *cell)
{
	double v;
	char *end;

	if (!cell || !*cell || !strcmp(cell, "-"))
		return true;
	v = strtod(cell, &end);
	return end != cell && (!*end || !strcmp(end, "%")) && !(v < 0) &&
	       !(v > 0);
}

static void table_widths(const struct analysis *a, const struct report_row *rows,
			 size_t n, struct table *t, char *(*cells)[NCOLS])
{
	bool shown[NCOLS] = { false };
	size_t i, k;

	for (k = 0; k < NCOLS; k++)
		t->w[k] = columns(col_head[k]);
	for (i = 0; i < n; i++) {
		row_cells(a, &rows[i], t, cells[i]);
		if (rows[i].metric) {
			char *head = value_head(rows[i].metric);

			t->w[COL_VALUE] = MAX(t->w[COL_VALUE], columns(head));
			free(head);
		}
		for (k = COL_CV; k < COL_FLAGS; k++)
			shown[k] |= rows[i].primary && !nothing(cells[i][k]);
		for (k = 0; k < NCOLS; k++)
			if (cells[i][k] && (rows[i].primary || k != COL_VALUE))
				t->w[k] = MAX(t->w[k], columns(cells[i][k]));
	}
	/* A figure absent or zero in every row is left out. */
	for (k = COL_CV; k < COL_FLAGS; k++)
		if (!shown[k])
			t->w[k] = 0;
	fit_width(a->d, t, cells, n);
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
			if (row_width(t) + 2 + columns(col_head[k]) <= TABLE_WIDTH)
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
	int col = 0, at = row_width(t) + 2; /* where flags start */
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

/* "delay: contended_delay_ns" for every key the varies column shortens,
 * once each, in the order of the configurations. */
static char *key_legend(const struct dataset *d, char *s)
{
	struct strmap seen = { 0 };
	size_t c, i, v;

	for (c = 0; c < d->nconfigs; c++)
		for (i = 0; i < d->configs[c].nparams; i++) {
			const char *key = d->configs[c].params[i].key;
			char *brief, *k;

			if (strmap_get(&seen, key, &v) ||
			    !report_param_shown(d, c, key))
				continue;
			strmap_put(&seen, key, 0);
			brief = report_key_short(d, key);
			/* shortened more than by "param." */
			if (strcmp(brief, key + (strncmp(key, "param.", 6) ? 0 : 6))) {
				k = report_esc(key);
				s = report_cat(s, "; ", "%s: %s", brief, k);
				free(k);
			}
			free(brief);
		}
	strmap_release(&seen);
	return s;
}

/* The marks, short heads and short names the table uses, or "". */
static char *table_legend(const struct analysis *a, const struct table *t)
{
	static const char below0[] = "a lower bound below 0 for a quantity "
		"that cannot be negative: too few or too noisy runs to bound it";
	static const char *const mark_legend[] = {
		"m: median [distribution-free CI], the runs are not normal",
		"h: harmonic mean (fixed work)", "-: not measured", below0,
	};
	char *s = xstrdup("");
	size_t k;

	if (t->marks[0] || t->marks[1] || t->marks[2] || t->marks[3])
		s = report_cat(s, "; ", "mean [%g%% CI]",
			       100 * a->opts.confidence);
	for (k = 0; k < ARRAY_SIZE(mark_legend); k++)
		if (t->marks[k])
			s = report_cat(s, "; ", "%s", mark_legend[k]);
	for (k = 0; k < NCOLS; k++)
		if (t->w[k] && col_legend[k])
			s = report_cat(s, "; ", "%s", col_legend[k]);
	if (t->varies_keys)
		s = report_cat(s, "; ", "varies: values of %s", t->varies_keys);
	return key_legend(a->d, s);
}

void report_text_summary(FILE *f, const struct analysis *a)
{
	struct report_row *rows;
	size_t n = report_rows(a, &rows), i, k;
	char *(*cells)[NCOLS] = xcalloc(n ? n : 1, sizeof(*cells));
	const char *shown = NULL;
	struct table t = { 0 };
	char *legend;

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
	legend = table_legend(a, &t);
	if (*legend)
		report_wrap(f, " ", 2, "%s", legend);
	free(legend);
	for (i = 0; i < n; i++)
		for (k = 0; k < NCOLS; k++)
			free(cells[i][k]);
	free(cells);
	free(t.varies_keys);
	report_rows_free(rows, n);
}

/* ---- the flag messages ---- */

/* "config 2 (vs 1)" for flag fl of configuration c. */
static char *flag_config(size_t c, const struct flag *fl)
{
	if (fl->other_config >= 0)
		return xasprintf("%zu (vs %ld)", c + 1, fl->other_config + 1);
	return xasprintf("%zu", c + 1);
}

/* The length of what a flag found: its message up to the first ": " or
 * ". " outside parentheses (the explanation and the remedy follow), else
 * all of it. */
static size_t found_len(const char *message)
{
	const char *p;
	int depth = 0;

	for (p = message; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth > 0)
			depth--;
		else if (!depth && (*p == ':' || *p == '.') && p[1] == ' ')
			break;
	}
	return (size_t)(p - message);
}

/* ---- one line for a kind several configurations raised ---- */

/* The length of the number at s in a finding: digits, a decimal part,
 * an exponent ("7.1e-19"); 0 when s holds none. */
static size_t number_at(const char *s)
{
	size_t n = 0, e;

	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)s[n]) ||
	       (s[n] == '.' && isdigit((unsigned char)s[n + 1])))
		n++;
	e = n + 1 + (s[n + 1] == '-' || s[n + 1] == '+');
	if (s[n] == 'e' && isdigit((unsigned char)s[e]))
		for (n = e; isdigit((unsigned char)s[n]); n++)
			;
	return n;
}

/*
 * The findings of the n flags fl[] as one when they read the same but for
 * their numbers: each number the range of its values ("6.2-24"), or the
 * value when all agree; NULL when their words differ.  malloc'd.
 */
static char *ranged(const struct flag *const *fl, size_t n)
{
	const char *m = fl[0]->message;
	size_t len = found_len(m), i = 0, k, num, llo, lhi;
	size_t *at = xcalloc(n, sizeof(*at)); /* where each fl[k] is read */
	char *out = xstrdup("");

	while (i < len) {
		const char *lo = m + i, *hi = m + i;

		num = llo = lhi = number_at(m + i);
		for (k = 1; k < n; k++) {
			const char *p = fl[k]->message + at[k];
			size_t w = number_at(p);

			if (at[k] >= found_len(fl[k]->message) || !num != !w ||
			    (!num && *p != m[i]))
				goto differ;
			at[k] += num ? w : 1;
			if (num && strtod(p, NULL) < strtod(lo, NULL)) {
				lo = p;
				llo = w;
			}
			if (num && strtod(p, NULL) > strtod(hi, NULL)) {
				hi = p;
				lhi = w;
			}
		}
		if (!num)
			out = report_cat(out, "", "%c", m[i]);
		else if (lo == hi || (llo == lhi && !strncmp(lo, hi, llo)))
			out = report_cat(out, "", "%.*s", (int)llo, lo);
		else
			out = report_cat(out, "", "%.*s-%.*s", (int)llo, lo,
					 (int)lhi, hi);
		i += num ? num : 1;
	}
	for (k = 1; k < n; k++)
		if (at[k] != found_len(fl[k]->message))
			goto differ;
	free(at);
	return out;
differ:
	free(at);
	free(out);
	return NULL;
}

/* "1-4, 6": the configurations of fl[], consecutive ones as a range. */
static char *config_list(const size_t *cfgs, size_t n)
{
	char *s = xstrdup("");
	size_t i = 0, j;

	while (i < n) {
		for (j = i; j + 1 < n && cfgs[j + 1] == cfgs[j] + 1; j++)
			;
		s = j > i ? report_cat(s, ", ", "%zu-%zu", cfgs[i] + 1,
				       cfgs[j] + 1)
			  : report_cat(s, ", ", "%zu", cfgs[i] + 1);
		i = j + 1;
	}
	return s;
}

/* How many configurations raise flag name; each of them and its flag
 * into cfgs and fl when not NULL. */
static size_t raised_by(const struct analysis *a, const char *name,
			size_t *cfgs, const struct flag **fl)
{
	size_t c, i, n = 0;

	for (c = 0; c < a->nconfigs; c++)
		for (i = 0; i < a->configs[c].nflags; i++)
			if (!strcmp(a->configs[c].flags[i].name, name)) {
				if (cfgs) {
					cfgs[n] = c;
					fl[n] = &a->configs[c].flags[i];
				}
				n++;
				break;
			}
	return n;
}

static void one_line(FILE *f, const struct analysis *a, const char *name)
{
	size_t *cfgs = xcalloc(a->nconfigs, sizeof(*cfgs));
	const struct flag **fl = xcalloc(a->nconfigs, sizeof(*fl)); /* NOLINT(bugprone-sizeof-expression): an array of pointers */
	size_t n = raised_by(a, name, cfgs, fl);
	char *list = config_list(cfgs, n), *text = ranged(fl, n), *lead;

	lead = xasprintf("  ! %s, configs %s:", name, list);
	if (text)
		report_wrap(f, lead, 4, "%s", text);
	else
		report_wrap(f, lead, 4, "%.*s (config %zu)",
			    (int)found_len(fl[0]->message), fl[0]->message,
			    cfgs[0] + 1);
	free(text);
	free(lead);
	free(list);
	free(fl);
	free(cfgs);
}

/* ---- every message ---- */

/* Whether a flag before configuration c's i-th has its name (and, with
 * words, its message: it was printed with that one). */
static bool earlier(const struct analysis *a, size_t c, size_t i, bool words)
{
	const struct flag *fl = &a->configs[c].flags[i], *g;
	size_t c2, j;

	for (c2 = 0; c2 <= c; c2++)
		for (j = 0; j < (c2 < c ? a->configs[c2].nflags : i); j++) {
			g = &a->configs[c2].flags[j];
			if (!strcmp(g->name, fl->name) &&
			    (!words || !strcmp(g->message, fl->message)))
				return true;
		}
	return false;
}

/* Configuration c's flag fl, with every later configuration that has
 * the same message word for word. */
static void message(FILE *f, const struct analysis *a, size_t c,
		    const struct flag *fl, bool explained, bool brief)
{
	char *where = flag_config(c, fl), *lead, *more;
	size_t c2, j, n = found_len(fl->message);

	for (c2 = c + 1; c2 < a->nconfigs; c2++)
		for (j = 0; j < a->configs[c2].nflags; j++) {
			const struct flag *g = &a->configs[c2].flags[j];

			if (strcmp(g->name, fl->name) ||
			    strcmp(g->message, fl->message))
				continue;
			more = flag_config(c2, g);
			where = report_cat(where, ", ", "%s", more);
			free(more);
		}
	lead = xasprintf("  ! %s, config%s %s:", fl->name,
			 strchr(where, ',') ? "s" : "", where);
	/* by default what was found, with its numbers; why and what to do
	 * under --verbose (the hint below the flags says so), but for a kind
	 * explained in full just before */
	if (brief || (explained && fl->message[n]))
		report_wrap(f, lead, 4, "%.*s%s", (int)n, fl->message,
			    brief ? "" : " (as above)");
	else
		report_wrap(f, lead, 4, "%s", fl->message);
	free(lead);
	free(where);
}

void report_flag_messages(FILE *f, const struct analysis *a, bool brief)
{
	struct totals t;
	size_t rank, c, i, full = (size_t)-1;
	size_t nrank = flag_count(FV_REPORT);

	totals(a, &t);
	fputc('\n', f);
	if (!t.flags) {
		fprintf(f, "flags: none raised\n");
		return;
	}
	fprintf(f, "flags: %zu raised (USER-GUIDE.md \"Reading the report\")\n",
		t.flags);
	for (rank = 0; rank <= nrank; rank++)
		for (c = 0; c < a->nconfigs; c++)
			for (i = 0; i < a->configs[c].nflags; i++) {
				const struct flag *fl = &a->configs[c].flags[i];
				bool many;

				if (flag_place(FV_REPORT, fl->name) != rank)
					continue;
				many = brief && raised_by(a, fl->name, NULL, NULL) > 1;
				if (many && !earlier(a, c, i, false))
					one_line(f, a, fl->name);
				if (many || earlier(a, c, i, true))
					continue;
				message(f, a, c, fl, full == rank, brief);
				full = rank;
			}
}
