/*
 * report_csv.c - the report for spreadsheets: a header row, then one
 * RFC 4180 row per configuration and metric; and the driver above the
 * report formats: their names and report_write, which hands the analysis
 * to the text report (report.c), the JSON one (report_json.c), the CSV
 * one (here) or the mail one (mail.c).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "lib/csv.h"
#include "lib/util.h"

/* A field, then the separator or the line end. */
static void csv_field(FILE *f, const char *s, bool last)
{
	csv_write_field(f, s);
	fputc(last ? '\n' : ',', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g,", v);
	else
		fputc(',', f);
}

static const char *const csv_columns[] = {
	"experiment", "config", "workload", "section", "params", "metric",
	"unit", "n", "mean_kind", "mean", "sd", "cv", "median", "min", "max",
	"ci_low", "ci_high", "median_ci_low", "median_ci_high", "outliers",
	"measured", "warmup", "failed", "pending", "flags",
};

/* The names of the flags of configuration ca that concern metric m. */
static char *csv_flags(const struct config_analysis *ca, int m)
{
	char *s = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < ca->nflags; i++) {
		if (ca->flags[i].metric != m && ca->flags[i].metric >= 0)
			continue;
		t = xasprintf("%s%s%s", s, *s ? ";" : "", ca->flags[i].name);
		free(s);
		s = t;
	}
	return s;
}

static void csv_row(FILE *f, const struct analysis *a, size_t c,
		    const struct metric_summary *ms)
{
	const struct config_analysis *ca = &a->configs[c];
	const struct ds_config *cf = cfg(a, c);
	const struct summary *s = &ms->s;
	char *flags = csv_flags(ca, ms->metric);
	const double stats[] = {
		s->mean, s->sd, s->cv, s->median, s->min, s->max, s->ci_low,
		s->ci_high, s->median_ci_low, s->median_ci_high,
	};
	size_t i;

	fprintf(f, "%lld,%lld,", (long long)a->d->exp.id, (long long)cf->id);
	csv_field(f, cf->workload, false);
	csv_field(f, cf->section, false);
	csv_field(f, cf->canon, false);
	csv_field(f, mname(a, ms->metric), false);
	csv_field(f, metric_unit(mname(a, ms->metric)), false);
	fprintf(f, "%zu,%s,", s->n, ms->harmonic ? "harmonic" : "arithmetic");
	for (i = 0; i < ARRAY_SIZE(stats); i++)
		csv_num(f, s->n ? stats[i] : NAN);
	fprintf(f, "%zu,%zu,%zu,%zu,%zu,", s->noutliers, ca->measured,
		ca->warmup, ca->failed, ca->pending);
	csv_field(f, flags, true);
	free(flags);
}

static int report_csv(FILE *f, const struct analysis *a)
{
	/* A configuration without measured runs: one row, metric empty. */
	struct metric_summary none = { .metric = -1 };
	size_t c, m, i;

	for (i = 0; i < ARRAY_SIZE(csv_columns); i++)
		csv_field(f, csv_columns[i], i + 1 == ARRAY_SIZE(csv_columns));
	for (c = 0; c < a->nconfigs; c++) {
		size_t rows = 0;

		for (m = 0; m < a->configs[c].nmetrics; m++)
			if (a->configs[c].metrics[m].s.n) {
				csv_row(f, a, c, &a->configs[c].metrics[m]);
				rows++;
			}
		if (!rows)
			csv_row(f, a, c, &none);
	}
	return ferror(f) ? error("writing the report: %s", "I/O error") : 0;
}

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
