/*
 * metrics.c - a metric's primary and direction as the experiment stored
 * them (db/contract.h), else the data dictionary's (db/vocab.h).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "db/contract.h"
#include "lib/util.h"

const char *analysis_declared_primary(const struct dataset *d, size_t c)
{
	return contract_get(&d->exp, CK_PRIMARY, d->configs[c].section, NULL);
}

enum direction analysis_direction(const struct dataset *d, size_t c,
				  const char *name)
{
	const char *v = contract_get(&d->exp, CK_DIRECTION,
				     d->configs[c].section, name);

	if (v && !strcmp(v, CV_HIGHER))
		return DIR_HIGHER;
	if (v && !strcmp(v, CV_LOWER))
		return DIR_LOWER;
	return metric_direction(name);
}
