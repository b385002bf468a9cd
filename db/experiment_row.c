/*
 * experiment_row.c - what an experiment row in memory offers every layer
 * (store.h): its meta read and set by key, and its release.  Below the
 * store's files and contract.c, which all use it.
 */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"
#include "lib/strmap.h"
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
	if (e->index)
		strmap_release(e->index);
	free(e->index);
	memset(e, 0, sizeof(*e));
}

/* Whether e's index holds every key of its meta (none added by hand). */
static bool indexed(const struct experiment_row *e)
{
	return e->index && e->index->n == e->nmeta;
}

void experiment_meta_index(struct experiment_row *e)
{
	size_t i;

	if (indexed(e))
		return;
	if (!e->index)
		e->index = xcalloc(1, sizeof(*e->index));
	strmap_release(e->index);
	for (i = 0; i < e->nmeta; i++)
		strmap_put(e->index, e->meta[i].key, i);
}

const char *experiment_meta(const struct experiment_row *e, const char *key)
{
	size_t i;

	if (indexed(e))
		return strmap_get(e->index, key, &i) ? e->meta[i].value : NULL;
	for (i = 0; i < e->nmeta; i++)
		if (!strcmp(e->meta[i].key, key))
			return e->meta[i].value;
	return NULL;
}

void meta_set(struct experiment_row *e, const char *key, const char *value)
{
	size_t i;

	experiment_meta_index(e);
	if (strmap_get(e->index, key, &i)) {
		free(e->meta[i].value);
		e->meta[i].value = xstrdup(value);
		return;
	}
	/* doubled when full: n keys cost O(n) copies, however the array
	 * was made (the loader's, a reader's or a fixture's) */
	if ((e->nmeta + 1) * sizeof(*e->meta) > malloc_usable_size(e->meta))
		e->meta = xrealloc(e->meta,
				   2 * (e->nmeta + 1) * sizeof(*e->meta));
	e->meta[e->nmeta].key = xstrdup(key);
	e->meta[e->nmeta].value = xstrdup(value);
	strmap_put(e->index, e->meta[e->nmeta].key, e->nmeta);
	e->nmeta++;
}
