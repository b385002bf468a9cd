/*
 * compare_print.h - the result of `contend compare` for its reader:
 * text, summary first (the table, the verdicts, the gate, the flags, the
 * host keys that differ between the sides, then each configuration in
 * detail), or JSON (docs/compare-json.md).
 */
#ifndef CONTEND_COMPARE_PRINT_H
#define CONTEND_COMPARE_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/compare_input.h"

void compare_print_text(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);
void compare_print_json(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);
/* The mail format (compare_mail.c): at most 72 columns; verbose lists
 * every secondary metric of a row. */
void compare_print_mail(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c, bool verbose);
/* Under a row (text and mail): how often B beat A and the secondary
 * metrics that changed (all: every one), indented, within 72 columns. */
void compare_print_extras(FILE *f, const struct comparison *cmp,
			  double confidence, bool all);

#endif
