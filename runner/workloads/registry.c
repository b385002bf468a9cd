/*
 * registry.c - the one explicit list of workloads.  `contend list`, the INI
 * loader and `contend exec` all look workloads up here.
 */
#include <string.h>

#include "lib/util.h"
#include "runner/workload.h"
#include "runner/workloads/workloads.h"

const struct workload *const workloads[] = {
	&noop_workload,
	&futex_mutex_workload,
	&pthread_mutex_workload,
	&spinlock_workload,
	&rwlock_workload,
	&paramtest_workload,
	&creat_workload,
	&chat_workload,
	&command_workload,
};
const size_t nworkloads = ARRAY_SIZE(workloads);

const struct workload *workload_find(const char *name)
{
	size_t i;

	for (i = 0; i < nworkloads; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

bool param_is_family(const struct param_def *p)
{
	size_t n = strlen(p->name), sn = strlen(PARAM_FAMILY_SUFFIX);

	return n > sn && !strcmp(p->name + n - sn, PARAM_FAMILY_SUFFIX);
}

int workload_param_index(const struct workload *wl, const char *name)
{
	size_t i;

	for (i = 0; i < wl->nparams; i++)
		if (!param_is_family(&wl->params[i]) &&
		    !strcmp(wl->params[i].name, name))
			return (int)i;
	return -1;
}

int workload_family_index(const struct workload *wl, const char *key)
{
	const char *dot = strchr(key, '.');
	size_t i;

	if (!dot)
		return -1;
	for (i = 0; i < wl->nparams; i++) {
		const struct param_def *p = &wl->params[i];
		size_t len = strlen(p->name) - strlen(PARAM_FAMILY_SUFFIX);

		/* "metric.NAME" is the family of "metric.X" */
		if (param_is_family(p) && len == (size_t)(dot - key) &&
		    !memcmp(p->name, key, len))
			return (int)i;
	}
	return -1;
}
