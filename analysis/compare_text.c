/*
 * compare_text.c - compare's result as text, summary first: a table of
 * every configuration, then each in detail, then the method
 * (compare.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_math.h>

#include "analysis/compare.h"
#include "analysis/flagtab.h"
#include "analysis/report_impl.h"
#include "lib/escape.h"
#include "lib/numfmt.h"
#include "lib/wrap.h"
#include "lib/util.h"

/* Prose wraps at this column; tables fit TABLE_WIDTH. */
#define WIDTH 78
#define TABLE_WIDTH 80

static void print_side_line(FILE *f, const struct compare_input *s)
{
	size_t i;

	fprintf(f, "%-10s %s", s->role, s->text);
	if (s->kind == INPUT_NUMBERS) {
		fprintf(f, " (number file%s, %zu values)\n",
			s->nfiles > 1 ? "s, one invocation each" : "",
			s->nvalues);
		return;
	}
	fprintf(f, " (%s, experiment%s", s->kind == INPUT_EXPORT ? "export"
							     : s->db,
		s->nsets > 1 ? "s" : "");
	for (i = 0; i < s->nsets; i++)
		fprintf(f, "%s%" PRId64, i ? ", " : " ", s->sets[i].exp.id);
	fprintf(f, ")\n");
}

/* The sides cmp carries flag name on: bit 0 both, 1 baseline, 2 candidate. */
static unsigned flag_sides(const struct comparison *cmp, const char *name)
{
	static const char *const side[] = { "both", "baseline", "candidate" };
	unsigned bits = 0;
	size_t j;

	for (j = 0; j < ARRAY_SIZE(side); j++)
		bits |= (unsigned)compare_has_flag(cmp, name, side[j]) << j;
	return bits;
}

/*
 * "M Nbc S": the letter of each flag (flagtab.h, in the column's order),
 * with the sides (b, c) of one-sided ones.
 */
static void flag_names(const struct comparison *cmp, char *buf, size_t len)
{
	const struct flag_def *d;
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; (d = flag_nth(FV_COLUMN, i)) && at + 5 < len; i++) {
		unsigned s = flag_sides(cmp, d->name);

		if (s)
			at += (size_t)snprintf(buf + at, len - at, "%s%c%s%s",
					       at ? " " : "", d->letter,
					       (s & 3) == 2 ? "b" : "",
					       (s & 5) == 4 ? "c" : "");
	}
}

/* The letters the table shows, each with its flag's name. */
static void print_legend(FILE *f, const struct compare_result *r)
{
	const struct flag_def *d;
	char s[1024] = "";       /* every flag's name fits */
	unsigned all, one_side = 0;
	size_t i, j, at = 0;

	for (i = 0; (d = flag_nth(FV_COLUMN, i)) && at < sizeof(s); i++) {
		for (j = 0, all = 0; j < r->n; j++)
			all |= flag_sides(&r->cmp[j], d->name);
		one_side |= all & 6;
		if (all)
			at += (size_t)snprintf(s + at, sizeof(s) - at,
					       "%s %c %s", at ? "," : "flags:",
					       d->letter, d->name);
	}
	compare_para(f, 7, "%s%s", s, one_side ? " (b/c: on the "
		   "baseline/candidate only)" : "");
}

/* The configuration column is as wide as its widest label, up to this,
 * and gives up room down to its head's width for the table to fit
 * TABLE_WIDTH; a longer label is printed whole on a line of its own,
 * above its row (never cut: the labels tell the rows apart). */
#define LABEL_MAX 40

static void print_table(FILE *f, const struct compare_result *r,
			bool numbers)
{
	struct {
		char *label, *change, level[2][NUMFMT_LEN];
	} *row = xcalloc(r->n ? r->n : 1, sizeof(*row));
	int lw = (int)strlen("configuration"), cw = (int)strlen("change [CI]");
	int bw = (int)strlen("base"), vw = (int)strlen("verdict"), at;
	double res;
	size_t i;

	for (i = 0; i < r->n; i++) {
		const struct comparison *cmp = &r->cmp[i];

		row[i].label = compare_label(r, cmp, numbers, false);
		row[i].change = compare_change_text(&cmp->st);
		/* the levels at a resolution that tells them apart */
		res = fabs(cmp->st.base.mean - cmp->st.cand.mean);
		numfmt_res(row[i].level[0], NUMFMT_LEN, cmp->st.base.mean, res);
		numfmt_res(row[i].level[1], NUMFMT_LEN, cmp->st.cand.mean, res);
		lw = GSL_MAX_INT(lw, (int)strlen(row[i].label));
		cw = GSL_MAX_INT(cw, (int)strlen(row[i].change));
		bw = GSL_MAX_INT(bw, GSL_MAX_INT((int)strlen(row[i].level[0]),
						 (int)strlen(row[i].level[1])));
		vw = GSL_MAX_INT(vw,
				 (int)strlen(verdict_names[cmp->st.verdict]));
	}
	/* where the flags start: the label gives up what would push the
	 * column's head past the width */
	at = 1 + bw + 1 + bw + 2 + cw + 1 + vw + 1;
	lw = GSL_MAX_INT((int)strlen("configuration"),
			 GSL_MIN_INT(GSL_MIN_INT(lw, LABEL_MAX),
				     TABLE_WIDTH - 5 - at));
	at += lw;
	fprintf(f, "\n%-*s %*s %*s  %-*s ", lw, "configuration", bw, "base",
		bw, "cand", cw, "change [CI]");
	if (at + 5 > TABLE_WIDTH)
		fprintf(f, "verdict\n");
	else
		fprintf(f, "%-*s flags\n", vw, "verdict");
	for (i = 0; i < r->n; i++) {
		const struct comparison *cmp = &r->cmp[i];
		char flags[48];

		flag_names(cmp, flags, sizeof(flags));
		if ((int)strlen(row[i].label) > lw)
			fprintf(f, "%s\n%*s", row[i].label, lw, "");
		else
			fprintf(f, "%-*s", lw, row[i].label);
		fprintf(f, " %*s %*s  %-*s %-*s", bw, row[i].level[0], bw,
			row[i].level[1], cw, row[i].change, *flags ? vw : 0,
			verdict_names[cmp->st.verdict]);
		/* flags that would pass the width: under the change */
		if (*flags && at + (int)strlen(flags) > TABLE_WIDTH)
			fprintf(f, "\n%*sflags %s", lw + 2 * bw + 4, "", flags);
		else if (*flags)
			fprintf(f, " %s", flags);
		fputc('\n', f);
		free(row[i].label);
		free(row[i].change);
	}
	free(row);
	for (i = 0; i < r->n; i++)
		if (r->cmp[i].nflags) {
			print_legend(f, r);
			break;
		}
}

/* One configuration's line under the gate: what it got and, when it
 * is inconclusive, what this design detects and what would decide. */
static void print_gate_line(FILE *f, const struct compare_result *r,
			    const struct comparison *cmp, bool numbers)
{
	char *label = compare_label(r, cmp, numbers, false);
	char *change = compare_change_text(&cmp->st);
	const struct boot_plan *p = &cmp->gate_plan;
	char mde[NUMFMT_LEN], plan[96] = "no plan of up to 100000 boots";

	if (cmp->gate == GATE_FAIL) {
		compare_para(f, 9, "  fails: %s %s (Holm p = %.2g)", label,
			   change, cmp->gate_p_holm);
	} else if (cmp->gate == GATE_PASS) {
		compare_para(f, 9, "  passes: %s %s", label, change);
	} else {
		if (p->boots)
			snprintf(plan, sizeof(plan), "about %zu boots x %zu "
				 "runs a side would decide", p->boots,
				 p->runs);
		numfmt_sig(mde, sizeof(mde), cmp->st.mde_pct, 2);
		compare_para(f, 9, "  inconclusive: %s %s: this design "
			   "detects changes of %s%%; %s", label, change,
			   isnan(cmp->st.mde_pct) ? "unknown size" : mde,
			   plan);
	}
	free(label);
	free(change);
}

static void print_gate(FILE *f, const struct compare_result *r, bool numbers)
{
	char *guarantee;
	size_t i;

	if (r->gate_pct < 0)
		return;
	guarantee = r->gate_unguaranteed
		? xasprintf("false-alarm rate not guaranteed: one experiment "
			    "a side in %zu, whose between-experiment variance "
			    "is unknown; --strict refuses this design, and 2 "
			    "or more baseline experiments restore the %g%% "
			    "bound, docs/AB-KERNEL.md", r->gate_unguaranteed,
			    100 * (1 - r->opts.confidence))
		: xasprintf("family-wise false-alarm rate <= %g%%",
			    100 * (1 - r->opts.confidence));
	compare_para(f, 9, "Gate:    --fail-on-regression %g%%: %s (one-sided "
		     "tests of a loss beyond %g%%, Holm-corrected over %zu "
		     "configurations: %s)", r->gate_pct,
		     r->gate_failures ? "FAILED (exit 3)" :
		     r->gate_inconclusive ? "INCONCLUSIVE (exit 4)" : "passed",
		     r->gate_pct, r->n, guarantee);
	free(guarantee);
	compare_para(f, 9, "         each configuration: fail when that "
		   "loss is shown, pass when it is ruled out (%g%% "
		   "one-sided), else inconclusive", 100 * (1 -
		   r->opts.confidence));
	for (i = 0; i < r->n; i++)
		print_gate_line(f, r, &r->cmp[i], numbers);
}

/*
 * The labels of the comparisons carrying flag fl (its name and side, and
 * its message unless by_side), malloc'd, and their count in *n; NULL
 * when one before upto carries it: it is listed already.
 */
static char *flag_group(const struct compare_result *r,
			const struct compare_flag *fl, size_t upto,
			bool by_side, bool numbers, size_t *n)
{
	char *s = xstrdup(""), *label;
	size_t i, k;

	*n = 0;
	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->cmp[i].nflags; k++) {
			const struct compare_flag *g = &r->cmp[i].flags[k];

			if (strcmp(g->name, fl->name) ||
			    strcmp(g->side, fl->side) ||
			    (!by_side && strcmp(g->message, fl->message)))
				continue;
			if (i < upto) {
				free(s);
				return NULL;
			}
			label = compare_label(r, &r->cmp[i], numbers, false);
			s = report_cat(s, ", ", "%s", label);
			(*n)++;
			free(label);
			break;
		}
	return s;
}

/*
 * Every raised flag once, the most severe first (FV_COMPARE); a flag with
 * a brief (its message holds per configuration numbers) is summed up by
 * the brief here and told in full under its configuration.
 */
static void print_flags(FILE *f, const struct compare_result *r, bool numbers)
{
	const struct flag_def *d;
	bool head = false, sided;
	size_t s, i, k, n;

	for (s = 0; (d = flag_nth(FV_COMPARE, s)); s++) {
		sided = false;
		for (i = 0; i < r->nside_flags; i++) {
			const struct compare_side_flag *sf = &r->side_flags[i];

			if (strcmp(sf->name, d->name))
				continue;
			if (!head)
				fprintf(f, "\nFlags:\n");
			head = sided = true;
			compare_para(f, 4, "  %s (%s): %s", sf->name, sf->side,
				     sf->message);
		}
		/* the carried flags are told per side only */
		if (sided || d->shows == FLAG_CARRIED)
			continue;
		for (i = 0; i < r->n; i++)
			for (k = 0; k < r->cmp[i].nflags; k++) {
				const struct compare_flag *fl = &r->cmp[i].flags[k];
				char *which;

				if (strcmp(fl->name, d->name) ||
				    !(which = flag_group(r, fl, i, d->brief,
							 numbers, &n)))
					continue;
				if (!head)
					fprintf(f, "\nFlags:\n");
				head = true;
				compare_para(f, 4, "  %s (%s, %zu of %zu "
					     "configurations%s%s): %s%s",
					     fl->name, fl->side, n, r->n,
					     d->brief ? ": " : "",
					     d->brief ? which : "",
					     d->brief ? d->brief : fl->message,
					     d->brief ? "; the numbers are under "
					     "each configuration below" : "");
				free(which);
			}
	}
}

/* The scale compared on (--scale), as the metric line states it. */
static const char *scale_text(const struct compare_result *r)
{
	size_t i, logs = 0;

	if (r->opts.linear)
		return "scale linear (arithmetic means, differences)";
	for (i = 0; i < r->n; i++)
		logs += r->cmp[i].st.log_scale;
	if (logs == r->n)
		return "scale auto: logs (geometric means, ratios; --scale "
		       "linear for arithmetic means)";
	if (!logs)
		return "scale auto: values (some are <= 0: arithmetic means)";
	return "scale auto: logs where every value is > 0, else values";
}

static const char method_text[] =
	"Method: per configuration, a two-level model (runs nested in "
	"invocations, invocations in sides): variance components s2_between "
	"and s2_within common to both sides, from the ANOVA of invocations "
	"nested in sides (moment estimates); each side's level by generalised "
	"least squares, weights 1/(s2_b + s2_w/n_i), or the runs' mean when "
	"s2_b is estimated below 0, its variance then from the untruncated "
	"estimate; the interval of the difference on Satterthwaite df, at "
	"most K-2 (the between-invocation mean square's).  A side of one "
	"invocation takes s2_b from the other side's invocations; with one "
	"invocation a side the runs are pooled (Welch), which holds only if "
	"invocations do not differ.  "
	"Positive metrics are compared as ratios (log values; levels are "
	"geometric means).  The verdict compares the interval with the "
	"threshold.  docs/STATISTICS.md, \"Two-level model\".";

/* Through escape_stream: no control byte of a name from a database or a
 * file reaches the terminal. */
void compare_print_text(FILE *out, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c)
{
	FILE *f = escape_stream(out);
	bool numbers = b->kind == INPUT_NUMBERS && c->kind == INPUT_NUMBERS;
	const char *unit = metric_unit(r->metric);
	char *line, sus[128] = "";
	size_t i, k, suspect;

	if (!f) {
		error("compare: out of memory");
		return;
	}

	line = xasprintf("%s%s%s%s, %s; change in %% of the baseline, "
			 "%.3g%% CI; %s", r->metric, *unit ? " (" : "", unit,
			 *unit ? ")" : "", r->opts.dir == DIR_LOWER ?
			 "lower is better" : "higher is better",
			 100 * r->opts.confidence, scale_text(r));
	fputs("metric     ", f);
	wrap_print(f, line, 11, 11, WIDTH);
	free(line);
	print_side_line(f, b);
	print_side_line(f, c);
	print_table(f, r, numbers);
	for (i = 0, suspect = 0; i < r->n; i++)
		for (k = 0; k < r->cmp[i].nflags; k++)
			suspect += r->cmp[i].st.verdict == VERDICT_FASTER &&
				   !strcmp(r->cmp[i].flags[k].name,
					   "misleading-throughput");
	if (suspect)
		snprintf(sus, sizeof(sus), "; %zu of the faster marked M, "
			 "misleading-throughput: not a speed-up (Flags, "
			 "below)", suspect);
	compare_para(f, 9, "\nVerdict: %zu faster, %zu slower, %zu no-change, "
		   "%zu inconclusive (%zu compared, %zu not compared; "
		   "threshold %g%%)%s",
		r->count[VERDICT_FASTER], r->count[VERDICT_SLOWER],
		r->count[VERDICT_NO_CHANGE], r->count[VERDICT_INCONCLUSIVE],
		r->n, r->nunmatched, r->opts.threshold_pct, sus);
	print_gate(f, r, numbers);
	compare_calib_print(f, r, b, c);
	print_flags(f, r, numbers);
	compare_print_hostdiff(f, b, c);
	for (i = 0; i < r->n; i++)
		compare_print_detail(f, &r->cmp[i], r, numbers);
	if (r->nunmatched)
		fprintf(f, "\nNot compared:\n");
	for (i = 0; i < r->nunmatched; i++)
		fprintf(f, "  %s: %s [%s] %s: %s\n", r->unmatched[i].side,
			r->unmatched[i].workload, r->unmatched[i].section,
			r->unmatched[i].canon, r->unmatched[i].reason);
	fputc('\n', f);
	wrap_print(f, method_text, 0, 0, WIDTH);
	fclose(f);
}
