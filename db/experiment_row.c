/*
 * experiment_row.c - what an experiment row in memory offers every layer
 * (store.h): its meta read and set by key, and its release.  Below the
 * store's files and contract.c, which all use it.
 */
#include <stdlib.h>
#include <string.h>

#include "db/store.h"
#include "lib/util.h"

void experiment_row_release(struct experiment_row *e)
{
	size_t i;

	free(e->uuid);
	free(e->name);
	free(e->label);
	free(e->config_path);
	free(e->config_text);
	free(e->order);
	free(e->status);
	for (i = 0; i < e->nmeta; i++) {
		free(e->meta[i].key);
		free(e->meta[i].value);
	}
	free(e->meta);
	memset(e, 0, sizeof(*e));
}

const char *experiment_meta(const struct experiment_row *e, const char *key)
{
	size_t i;

	for (i = 0; i < e->nmeta; i++)
		if (!strcmp(e->meta[i].key, key))
			return e->meta[i].value;
	return NULL;
}

void meta_set(struct experiment_row *e, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < e->nmeta; i++) {
		if (!strcmp(e->meta[i].key, key)) {
			free(e->meta[i].value);
			e->meta[i].value = xstrdup(value);
			return;
		}
	}
	e->meta = xrealloc(e->meta, (e->nmeta + 1) * sizeof(*e->meta));
	e->meta[e->nmeta].key = xstrdup(key);
	e->meta[e->nmeta].value = xstrdup(value);
	e->nmeta++;
}
