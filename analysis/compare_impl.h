/*
 * compare_impl.h - what the files of compare share.  Private to them.
 */
#ifndef CONTEND_COMPARE_IMPL_H
#define CONTEND_COMPARE_IMPL_H

#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/analysis.h"

/* 0 when o can be judged by (a known direction, confidence and power in
 * (0, 1), threshold >= 0), else -1 after error(). */
int compare_check_opts(const struct compare_opts *o);

/* compare_sideflags.c: has comparison c flag name on side; the carried
 * flags of both sides into r->side_flags. */
bool compare_has_flag(const struct comparison *c, const char *name,
		      const char *side);
void compare_side_flags(struct compare_result *r, const struct compare_side *b,
			const struct compare_side *c);

/* ---- the selections of compare.c ---- */

/* Pulls the measured ok values of one configuration of one dataset. */
typedef series_extract extract_fn;

/* A side's values of one configuration, invocation (experiment) by
 * invocation: the one model's sample (series.h) and its views. */
struct sample {
	double *x;
	size_t n;
	struct series_sample v;
	struct compare_groups g;
	struct compare_unit u;
};

/* compare_sideflags.c: a side's sample of one configuration, by invocation,
 * and its release. */
void compare_sample_build(const struct compare_side *s,
			  const struct series *g, extract_fn fn,
			  const char *metric, struct sample *out);
void compare_sample_release(struct sample *s);
/* futex-hash-differs: the sides' stored futex_hash_slots differ. */
void compare_futex_hash(struct comparison *cmp, const struct compare_side *b,
			const struct series *gb, const struct compare_side *c,
			const struct series *gc);

/*
 * compare_extra.c: every kernel lock either side's runs waited on, A/B from
 * each run's wait (docs/KLOCK.md, "Comparing two builds"), into
 * cmp->klock: the changed first, then by wait; cmp->klock_shown of them
 * for the text.
 */
void compare_klock(struct comparison *cmp, const struct compare_opts *o,
		   const struct compare_side *b, const struct series *gb,
		   const struct compare_side *c, const struct series *gc);

/* compare_extra.c: the beat count and the secondary metrics of cmp. */
void compare_extras(struct comparison *cmp, const struct compare_opts *o,
		    const char *metric, const struct sample *sb,
		    const struct sample *sc, const struct compare_side *b,
		    const struct series *gb, const struct compare_side *c,
		    const struct series *gc);

/* compare_detail.c: the host facts that differ between two sides, and
 * the warnings they call for, at compare's width. */
struct compare_input;
void compare_print_hostdiff(FILE *f, const struct compare_input *b,
			    const struct compare_input *c);

/* compare's text (compare_detail.c): printf wrapped at its width; a
 * change with its interval (malloc'd); a configuration's label; one
 * configuration in detail. */
void compare_para(FILE *f, int indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
char *compare_change_text(const struct compare_stats *st);
/* "section k=v ..." ("[section]" with brackets), the
 * parameters that vary within the section, escaped (malloc'd). */
char *compare_label(const struct compare_result *r,
		    const struct comparison *cmp, bool numbers, bool brackets);
void compare_print_detail(FILE *f, const struct comparison *cmp,
		  const struct compare_result *r, bool numbers);

#endif
