/*
 * report.h - struct analysis as text (ministat-like blocks, correlation
 * table, flag summary), json (docs/report-json.md) or csv (one row per
 * configuration x metric).  Output depends only on the analysis, never on
 * the clock or the locale, so it can be checked against golden files.
 */
#ifndef CONTEND_REPORT_H
#define CONTEND_REPORT_H

#include <stdio.h>

#include "analysis/analysis.h"

enum report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV, REPORT_NFORMATS };

extern const char *const report_format_names[]; /* indexed by the enum */
/* "text", "json", "csv" -> the enum; -1 when unknown. */
int report_format_parse(const char *name);

/* Writes the report; 0, or -1 when writing fails. */
int report_write(FILE *f, const struct analysis *a, enum report_format fmt);
int report_text(FILE *f, const struct analysis *a);
int report_json(FILE *f, const struct analysis *a);
int report_csv(FILE *f, const struct analysis *a);

/* JSON_SCHEMA_VERSION of report_json's output (docs/report-json.md). */
#define REPORT_JSON_VERSION 1

#endif
