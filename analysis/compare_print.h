/*
 * compare_print.h - the result of `contend compare` for its reader:
 * text, summary first (the table, the verdicts, the gate, the flags, the
 * host keys that differ between the sides, then each configuration in
 * detail), or JSON (docs/compare-json.md).
 */
#ifndef CONTEND_COMPARE_PRINT_H
#define CONTEND_COMPARE_PRINT_H

#include <stdio.h>

#include "analysis/compare.h"
#include "analysis/compare_input.h"

void compare_print_text(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);
void compare_print_json(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);

#endif
