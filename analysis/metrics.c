/*
 * metrics.c - a metric's primary and direction as the experiment stored
 * them (its meta), else the data dictionary's (db/vocab.h).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/util.h"

const char *analysis_declared_primary(const struct dataset *d, size_t c)
{
	char *key = xasprintf("primary.%s", d->configs[c].section);
	const char *v = experiment_meta(&d->exp, key);

	free(key);
	return v;
}

enum direction analysis_direction(const struct dataset *d, size_t c,
				  const char *name)
{
	char *key = xasprintf("direction.%s.%s", d->configs[c].section, name);
	const char *v = experiment_meta(&d->exp, key);

	free(key);
	if (v && !strcmp(v, "higher"))
		return DIR_HIGHER;
	if (v && !strcmp(v, "lower"))
		return DIR_LOWER;
	return metric_direction(name);
}
