/*
 * compare_run.c - `contend compare`'s one entry point: a request (the
 * sides as the user named them, the options) in, both sides loaded and
 * the result out (compare.h), and what must be said after the
 * result is printed: the regression the gate found, or why nothing was
 * compared; and FreeBSD ministat's two pictures of sides that are all
 * numbers: the table (N, Min, Max, Median, Avg, Stddev, the "Difference
 * at" lines) and, with --ascii, the distribution plot, every value its
 * sample's symbol on one axis and per sample a bar |___M_A___| over mean
 * +- sd, M the median, A the mean (numbers from stats_summarize).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/compare.h"
#include "lib/escape.h"
#include "lib/util.h"

/* ---- the two sides settled ---- */

/* Is key a filter of both sides: the parameter the two sides change? */
static bool changed_key(const char *key, const struct selector *b,
			const struct selector *c)
{
	size_t i, j;

	for (i = 0; i < b->nfilters; i++)
		for (j = 0; j < c->nfilters; j++)
			if (!strcmp(b->filters[i].key, key) &&
			    !strcmp(key, c->filters[j].key))
				return true;
	return false;
}

/*
 * A canonical string without the parameters both sides filter on, so
 * that lockdep@delay=0 and lockdep@delay=10000 match on the rest, and
 * without parameters at the value they had before they were added, so an
 * experiment stored before timeline= existed matches one with timeline=0.
 * Its words are key=value, a value with a blank "quoted" with \ escapes.
 * Rewritten in place: what is kept moves only towards the start.
 */
static void canon_without(char *canon, const struct selector *b,
			  const struct selector *c)
{
	char *o = canon;
	const char *p = canon;

	while (*p) {
		const char *start = p, *eq = strchr(p, '='), *v;
		bool quoted, added;
		char *key;
		size_t vlen;

		if (!eq)
			eq = p + strlen(p);
		p = eq;
		quoted = *p && p[1] == '"';
		for (p += *p ? 1 + quoted : 0; *p && (quoted ? *p != '"' : *p != ' ');
		     p++)
			if (quoted && *p == '\\' && p[1])
				p++;
		p += quoted && *p;
		/* at the value it had before it existed (db/vocab.h) */
		key = xstrndup(start, (size_t)(eq - start));
		v = vocab_added_param(key);
		vlen = *eq ? (size_t)(p - eq - 1) : 0;
		added = *eq && v && strlen(v) == vlen &&
			!strncmp(v, eq + 1, vlen);
		if (!changed_key(key, b, c) && !added) {
			if (o > canon)
				*o++ = ' ';
			memmove(o, start, (size_t)(p - start));
			o += p - start;
		}
		free(key);
		while (*p == ' ')
			p++;
	}
	*o = '\0';
}



/* The primary metric every configuration of s declares, or NULL. */
static const char *side_primary(const struct compare_input *s)
{
	const char *p = NULL, *q;
	size_t i, j;

	for (i = 0; i < s->nsets; i++)
		for (j = 0; j < s->sets[i].nconfigs; j++) {
			q = analysis_declared_primary(&s->sets[i], j);
			if (!q || (p && strcmp(p, q)))
				return NULL;
			p = q;
		}
	return p;
}

/*
 * *metric (NULL: not asked) settled: the primary both database sides
 * declare, else throughput, "value" for two number sides; 0, or -1
 * after error() when a side lacks it.
 */
static int settle_metric(const char **metric, const struct compare_input *b,
			 const struct compare_input *c)
{
	const struct compare_input *side[2] = { b, c };
	const char *pb = b->db ? side_primary(b) : NULL;
	const char *pc = c->db ? side_primary(c) : NULL;

	if (!*metric && pb && (!c->db || (pc && !strcmp(pb, pc))))
		*metric = pb;
	else if (!*metric && !b->db && pc)
		*metric = pc;
	if (!*metric)
		*metric = b->kind == INPUT_NUMBERS && c->kind == INPUT_NUMBERS
				  ? "value" : "throughput";
	for (int i = 0; i < 2; i++)
		if (side[i]->kind != INPUT_NUMBERS &&
		    compare_side_has_metric(&side[i]->side, *metric,
					    side[i]->role) < 0)
			return -1;
	return 0;
}

/* The options of the comparison: q's, its direction and confidence
 * settled.  0, or -1 after error(). */
static int settle_opts(const struct compare_request *q,
		       const struct compare_input *b,
		       const struct compare_input *c, const char *metric,
		       struct compare_opts *o)
{
	const struct compare_input *db = b->nsets ? b : c;

	*o = q->opts;
	/* the direction the baseline's section declares, else the metric's */
	o->dir = q->opts.dir != DIR_UNKNOWN ? q->opts.dir
		 : db->nsets && db->sets[0].nconfigs
			 ? analysis_direction(&db->sets[0], 0, metric)
			 : metric_direction(metric);
	/* Two number files ("value", or a name of the user's) default up. */
	if (o->dir == DIR_UNKNOWN && b->kind == INPUT_NUMBERS &&
	    c->kind == INPUT_NUMBERS)
		o->dir = DIR_HIGHER;
	if (o->dir == DIR_UNKNOWN)
		return error("metric '%s' has no declared direction: pass "
			     "--higher-is-better or --lower-is-better",
			     escape_quote(metric));
	if (!(o->confidence > 0)) {
		double ec = db->nsets ? db->sets[0].exp.confidence : 0;

		o->confidence = ec > 0 && ec < 1 ? ec : 0.95;
	}
	return 0;
}

/*
 * An experiment on both sides without a filter that tells its
 * configurations apart (a name that is also another experiment's label,
 * say) is compared with itself: said, since it is rarely meant.
 */
static void warn_overlap(const struct compare_input *b,
			 const struct compare_input *c)
{
	size_t i, k;

	if (b->kind == INPUT_NUMBERS || c->kind == INPUT_NUMBERS ||
	    b->pick.nfilters || c->pick.nfilters)
		return;
	for (i = 0; i < b->nsets; i++)
		for (k = 0; k < c->nsets; k++) {
			const struct experiment_row *x = &b->sets[i].exp;
			const char *u = c->sets[k].exp.uuid;

			if (x->uuid && u && !strcmp(x->uuid, u)) {
				warning("experiment %lld is on both sides "
					"('%s' and '%s'): it is compared with "
					"itself; LABEL~newest or DB:ID picks "
					"one experiment",
					(long long)x->id, escape_quote(b->text),
					escape_quote(c->text));
				return;
			}
		}
}

/* Loads both sides and settles what they are compared by. */
static int prepare(const struct compare_request *q, struct compare_outcome *o,
		   struct compare_opts *co)
{
	struct compare_input *side[2] = { &o->base, &o->cand };
	size_t j, k;
	int i, ret = 0;

	for (i = 0; i < 2 && !ret; i++) {
		side[i]->text = i ? q->cand : q->base;
		side[i]->role = i ? "candidate" : "baseline";
		side[i]->files = q->files;
		ret = compare_input_load(side[i], q, false);
	}
	if (ret)
		return ret;
	warn_overlap(side[0], side[1]);
	for (i = 0; i < 2; i++)
		for (j = 0; j < side[i]->nsets; j++)
			for (k = 0; k < side[i]->sets[j].nconfigs; k++)
				canon_without(side[i]->sets[j].configs[k].canon,
					      &o->base.pick, &o->cand.pick);
	if (settle_metric(&o->r.metric, side[0], side[1]) < 0 ||
	    settle_opts(q, side[0], side[1], o->r.metric, co) < 0)
		return EXIT_USAGE;
	for (i = 0; i < 2; i++)
		if (side[i]->kind == INPUT_NUMBERS &&
		    compare_input_number_side(side[i], side[1 - i],
					      o->r.metric) < 0)
			return EXIT_USAGE;
	return 0;
}

int compare_run(const struct compare_request *q, struct compare_outcome *o)
{
	struct compare_opts co;
	struct compare_result *r = &o->r;
	int ret;

	memset(o, 0, sizeof(*o));
	o->r.metric = q->metric;
	ret = prepare(q, o, &co);
	if (ret)
		return ret;
	if (compare_sides(&o->base.side, &o->cand.side, o->r.metric, &co,
			  r) < 0)
		return EXIT_USAGE;
	if (q->fail_pct >= 0)
		compare_gate(r, q->fail_pct);
	if (q->strict && r->gate_unguaranteed) {
		error("compare: --strict: %zu of %zu configurations have one "
		      "experiment a side, so the gate's false-alarm rate is "
		      "not guaranteed (docs/AB-KERNEL.md); run the baseline "
		      "at least twice (e.g. in two boots)",
		      r->gate_unguaranteed, r->n);
		compare_result_release(r);
		return EXIT_USAGE;
	}
	o->compared = true;
	return r->n ? compare_gate_status(r) : EXIT_USAGE;
}

/* ---- after the result ---- */

/*
 * The primary metric of every configuration of s, quoted, ", "-joined,
 * each once (malloc'd); "" for number files.  *shared: one of them is in
 * other, such a list.
 */
static char *side_primaries(const struct compare_input *s, const char *other,
			    bool *shared)
{
	char *out = xstrdup(""), *t;
	size_t i, j;

	for (i = 0; s->kind != INPUT_NUMBERS && s->an && i < s->nsets; i++)
		for (j = 0; j < s->an[i].nconfigs; j++) {
			int m = s->an[i].configs[j].primary;
			const char *name = m >= 0 ? s->sets[i].metrics[m] : NULL;
			char *quoted;

			if (!name)
				continue;
			quoted = xasprintf("'%s'", name);
			*shared = *shared || strstr(other, quoted);
			if (!strstr(out, quoted)) {
				t = xasprintf("%s%s%s", out, *out ? ", " : "",
					      quoted);
				free(out);
				out = t;
			}
			free(quoted);
		}
	return out;
}

void compare_outcome_say(const struct compare_outcome *o)
{
	const struct compare_result *r = &o->r;
	bool shared = false;
	char *pb, *pc;

	if (!o->compared)
		return;
	if (r->gate_failures)
		error("regression: %zu configuration%s slower by more than "
		      "%g%% (Holm-corrected over %zu)", r->gate_failures,
		      r->gate_failures == 1 ? "" : "s", r->gate_pct, r->n);
	else if (r->gate_inconclusive)
		error("regression gate inconclusive: %zu of %zu "
		      "configuration%s can neither pass nor fail at %g%% "
		      "(exit 4)", r->gate_inconclusive, r->n,
		      r->n == 1 ? "" : "s", r->gate_pct);
	if (r->n)
		return;
	/*
	 * Both sides loaded, yet no configuration on both: the selectors name
	 * different things (another sweep, a filter on one side only...), which
	 * is bad input, not a comparison of nothing.  Said after the result,
	 * whose "Not compared" list shows what each side has.  Sides judged by
	 * different primary metrics are different workloads or measurements: no
	 * filter makes them match, and the message says so instead.
	 */
	pc = side_primaries(&o->cand, "", &shared);
	pb = side_primaries(&o->base, pc, &shared);
	if (r->nunmatched && *pb && *pc && !shared)
		error("compare: nothing compared: the sides measure different "
		      "things: the baseline's configurations are judged by "
		      "%s, the candidate's by %s; compare experiments of the "
		      "same workload and primary metric", pb, pc);
	else
		error("compare: nothing compared: %s",
		      r->nunmatched ? "no configuration of the baseline "
				      "matches one of the candidate (see \"Not "
				      "compared\"); name the parameter the "
				      "sides change as a filter on both, "
				      "BASE@KEY=V1 CAND@KEY=V2"
				    : "no configuration on either side");
	error("compare: baseline '%s', candidate '%s'",
	      escape_quote(o->base.text), escape_quote(o->cand.text));
	free(pb);
	free(pc);
}

void compare_outcome_release(struct compare_outcome *o)
{
	if (o->compared)
		compare_result_release(&o->r);
	compare_input_release(&o->base);
	compare_input_release(&o->cand);
	memset(o, 0, sizeof(*o));
}

/* ---- ministat ---- */

#define MINISTAT_WIDTH 74   /* plot columns inside the frame */

struct ministat_set {
	const char *name;
	const double *x;
	size_t n;
	struct summary m;       /* m.median ministat's, x[n/2] */
};

static const char symbols[MINISTAT_SETS] = { 'x', '+', '*', '%', '#', '@',
					     'O' };

/*
 * ministat's Student t: its table holds the quantiles to 3 decimals for
 * 1-100 df and the normal one beyond (checked against Debian's ministat
 * 20150715 for 4-300 df at 80, 90, 95, 98 and 99%: tests/data/ministat).
 * Its "99.5%" column holds t_{0.999}; contend's 99.5% is t_{0.9975}.
 */
static double ministat_t(double confidence, double df)
{
	double p = (1 + confidence) / 2;
	double t = df > 100 ? gsl_cdf_ugaussian_Pinv(p)
			    : gsl_cdf_tdist_Pinv(p, df);

	return round(t * 1000) / 1000;
}

/*
 * ministat's "Difference at C% confidence" of b against a: b - a with
 * Student's t on the pooled variance (na + nb - 2 df), in the unit and in
 * % of a's mean; "proven" when |diff| exceeds the half-width.  Nothing
 * when a side has < 2 values.
 */
static void difference(FILE *f, const struct ministat_set *a,
		       const struct ministat_set *b, double confidence)
{
	double ma, mb, df, s, diff, half;

	if (a->n < 2 || b->n < 2)
		return;
	ma = gsl_stats_mean(a->x, 1, a->n);
	mb = gsl_stats_mean(b->x, 1, b->n);
	df = (double)(a->n + b->n - 2);
	s = sqrt(((double)(a->n - 1) * gsl_stats_variance_m(a->x, 1, a->n, ma) +
		  (double)(b->n - 1) * gsl_stats_variance_m(b->x, 1, b->n, mb)) /
		 df);
	diff = mb - ma;
	half = ministat_t(confidence, df) * s *
	       sqrt(1.0 / (double)a->n + 1.0 / (double)b->n);
	if (!(fabs(diff) > half)) {
		fprintf(f, "No difference proven at %.1f%% confidence\n",
			100 * confidence);
		return;
	}
	fprintf(f, "Difference at %.1f%% confidence\n", 100 * confidence);
	fprintf(f, "\t%g +/- %g\n", diff, half);
	fprintf(f, "\t%g%% +/- %g%%\n", diff * 100 / ma, half * 100 / ma);
	fprintf(f, "\t(Student's t, pooled s = %g)\n", s);
}

/*
 * The table, a line per set in ministat's columns, under every set after
 * the first its difference from the first.
 */
static void ministat_table(FILE *f, const struct ministat_set *s, size_t n,
			   double confidence)
{
	const int w = 13, digits = w - 5;  /* ministat's columns */

	fprintf(f, "%-1s%4s %*s %*s %*s %*s %*s\n", "", "N", w, "Min", w,
		"Max", w, "Median", w, "Avg", w, "Stddev");
	for (size_t i = 0; i < n; i++) {
		const struct summary *m = &s[i].m;

		fprintf(f, "%c%4zu %*.*g %*.*g %*.*g %*.*g ", symbols[i], m->n,
			w, digits, m->min, w, digits, m->max, w, digits,
			m->median, w, digits, m->mean);
		if (isfinite(m->sd))
			fprintf(f, "%*.*g\n", w, digits, m->sd);
		else /* a single value has no spread */
			fprintf(f, "%*s\n", w, "-");
		if (i)
			difference(f, &s[0], &s[i], confidence);
	}
}

struct axis {
	double lo, hi;
	int width;
};

static int column(const struct axis *a, double v)
{
	double t = a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
	long c = lround(t * (a->width - 1));

	return c < 0 ? 0 : c >= a->width ? a->width - 1 : (int)c;
}

/*
 * The values as symbols, stacked: row 0 is the bottom one.  Each column
 * keeps its height, so a value finds its row at once: linear in the
 * values (tied ones included) plus the grid, whose rows are the tallest
 * column's.
 */
static char *points(const struct ministat_set *s, size_t n,
		    const struct axis *a, size_t *nrows)
{
	size_t *height = xcalloc((size_t)a->width, sizeof(*height));
	size_t i, j, w = (size_t)a->width;
	char *grid;

	*nrows = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			size_t h = ++height[column(a, s[i].x[j])];

			if (h > *nrows)
				*nrows = h;
		}
	grid = xasprintf("%*s", (int)(*nrows * w), ""); /* to draw on */
	memset(height, 0, w * sizeof(*height));
	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			size_t c = (size_t)column(a, s[i].x[j]);

			grid[height[c]++ * w + c] = symbols[i];
		}
	free(height);
	return grid;
}

/* |___M_A___|: mean +- sd, the median and the mean. */
static void bar(FILE *f, const struct ministat_set *s, const struct axis *a)
{
	char *line = xasprintf("%*s", a->width, "");
	const struct summary *m = &s->m;
	int lo, hi, c;

	if (isfinite(m->sd) && m->sd > 0) {
		lo = column(a, m->mean - m->sd);
		hi = column(a, m->mean + m->sd);
		for (c = lo; c <= hi; c++)
			line[c] = '_';
		line[lo] = line[hi] = '|';
	}
	line[column(a, m->median)] = 'M';
	line[column(a, m->mean)] = 'A';
	fprintf(f, "|%s|\n", line);
	free(line);
}

/* The distribution plot, MINISTAT_WIDTH columns inside its frame. */
static void ministat_plot(FILE *f, const struct ministat_set *s, size_t n)
{
	struct axis a = { INFINITY, -INFINITY, MINISTAT_WIDTH };
	size_t i, j, nrows;
	char *grid, *rule;

	for (i = 0; i < n; i++)
		for (j = 0; j < s[i].n; j++) {
			a.lo = fmin(a.lo, s[i].x[j]);
			a.hi = fmax(a.hi, s[i].x[j]);
		}
	grid = points(s, n, &a, &nrows);
	rule = xasprintf("+%*s+\n", a.width, "");
	memset(rule + 1, '-', (size_t)a.width);
	fputs(rule, f);
	for (i = nrows; i-- > 0;)
		fprintf(f, "|%.*s|\n", a.width, grid + i * (size_t)a.width);
	for (i = 0; i < n; i++)
		bar(f, &s[i], &a);
	fputs(rule, f);
	free(rule);
	free(grid);
}

/* ---- the sides of compare that are numbers ---- */

int compare_ministat(FILE *f, const struct compare_request *q,
		     char *const *cands, size_t ncands, bool ascii, bool *done)
{
	struct ministat_set set[MINISTAT_SETS];
	struct compare_input sides[MINISTAT_SETS];
	size_t i, n = ncands + 1;
	int ret = 0;

	*done = false;
	if (n > MINISTAT_SETS)
		return 0;
	memset(sides, 0, sizeof(sides));
	for (i = 0; i < n && !ret; i++) {
		sides[i].text = i ? cands[i - 1] : q->base;
		sides[i].role = i ? "candidate" : "baseline";
		sides[i].files = q->files;
		ret = compare_input_load(&sides[i], q, true);
		if (!ret && sides[i].kind != INPUT_NUMBERS) {
			/* a database or an export: compare's own tables */
			if (ascii && sides[i].kind == INPUT_DB)
				warning("--ascii draws files of numbers only; "
					"%s is a database", sides[i].text);
			goto out;
		}
		set[i] = (struct ministat_set){ .name = sides[i].text,
						.x = sides[i].values,
						.n = sides[i].nvalues };
		if (!ret &&
		    stats_summarize(set[i].x, set[i].n, 0.95, &set[i].m))
			ret = EXIT_USAGE;
		set[i].m.median = ministat_median(set[i].x, set[i].n);
	}
	/* ministat's order: legend, plot, the table with its differences. */
	if (!ret) {
		for (i = 0; i < n; i++) /* the legend, "x name" a line */
			fprintf(f, "%c %s\n", symbols[i], set[i].name);
		if (ascii)
			ministat_plot(f, set, n);
		ministat_table(f, set, n, q->opts.confidence > 0
						  ? q->opts.confidence : 0.95);
	}
	*done = !ret;
out:
	for (i = 0; i < n; i++)
		compare_input_release(&sides[i]);
	return ret;
}
