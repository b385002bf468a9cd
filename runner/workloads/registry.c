/*
 * registry.c - the one explicit list of workloads.  `contend list`, the INI
 * loader and `contend exec` all look workloads up here.
 */
#include <string.h>

#include "runner/util.h"
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

int workload_param_index(const struct workload *wl, const char *name)
{
	size_t i;

	for (i = 0; i < wl->nparams; i++)
		if (!strcmp(wl->params[i].name, name))
			return (int)i;
	return -1;
}
