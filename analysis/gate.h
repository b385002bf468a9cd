/*
 * gate.h - what a gate decided: compare --fail-on-regression and history
 * --fail-on-change use the same three words (and their exit statuses
 * 0, 3, 4: lib/util.h), and `none` where no gate judged.
 */
#ifndef CONTEND_GATE_H
#define CONTEND_GATE_H

enum gate_result { GATE_PASS, GATE_FAIL, GATE_INCONCLUSIVE, GATE_NONE };
extern const char *const gate_result_names[]; /* "pass", "fail", ... */

#endif
