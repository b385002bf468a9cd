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

/* ---- the command line of `contend report` and `report --levels` ---- */

struct option;

struct report_cli {
	const struct option *options;   /* getopt_long's table */
	int help;                       /* the id of --help in it */
	const char *usage;
	/* One option of the table for args: 0, or -1 after error(). */
	int (*option)(int id, const char *arg, void *args);
};

/*
 * getopt_long over argv (argv[0] the command) with cli: --help prints the
 * usage to stdout and returns 1; an unknown option, a missing value or a
 * failed cli->option returns -1 after error().  The first operand goes to
 * *operand unless an option set it already; any other is an error.
 * 0 when all is parsed.
 */
int report_cli_parse(const struct report_cli *cli, int argc, char **argv,
		     void *args, const char **operand);
/* A number strictly inside (lo, hi), or -1 after an error naming --opt. */
int report_cli_between(const char *opt, const char *text, double lo,
		       double hi, double *out);

#endif
