/*
 * report_format.c - a report in the format asked: the formats' names and
 * report_write, which hands the analysis to the text report (report.c),
 * the JSON one (report_json.c), the CSV one (report_csv.c) or the mail
 * one (report_mail.c): the driver above the four.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "lib/util.h"

static const char *const report_format_names[] = {
	[REPORT_TEXT] = "text", [REPORT_JSON] = "json", [REPORT_CSV] = "csv",
	[REPORT_MAIL] = "mail",
};

int report_format_parse(const char *name)
{
	int i;

	for (i = 0; i < REPORT_NFORMATS; i++)
		if (!strcmp(report_format_names[i], name))
			return i;
	return -1;
}

int report_write(FILE *f, const struct analysis *a, enum report_format fmt)
{
	static int (*const writers[])(FILE *, const struct analysis *) = {
		[REPORT_TEXT] = report_text,
		[REPORT_JSON] = report_json,
		[REPORT_CSV] = report_csv,
		[REPORT_MAIL] = report_mail,
	};

	if (fmt < 0 || fmt >= REPORT_NFORMATS)
		return error("unknown report format %d", (int)fmt);
	return writers[fmt](f, a);
}
