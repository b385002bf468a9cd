/*
 * flag_add.c - a flag added to a configuration's analysis, with its
 * message and its named numbers: what flags.c and the detectors it calls
 * (kwarn.c, regimes_flag.c) share, below all of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/util.h"

struct flag *analysis_flag_add(struct config_analysis *ca, const char *name,
			       int metric, long other, const char *fmt, ...)
{
	struct flag *f;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	ca->flags = xrealloc(ca->flags, (ca->nflags + 1) * sizeof(*ca->flags));
	f = &ca->flags[ca->nflags++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->message = msg;
	f->metric = metric;
	f->other_config = other;
	return f;
}

void flag_num(struct flag *f, const char *key, double value)
{
	if (f->nnums >= FLAG_MAX_NUMS)
		return;
	f->nums[f->nnums].key = key;
	f->nums[f->nnums++].value = value;
}
