/*
 * claim.c - one live runner per experiment (claim.h), the runner named
 * as lib/procid.h names a process.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/claim.h"
#include "lib/procid.h"
#include "lib/util.h"

int claim_take(struct store *s, int64_t experiment)
{
	char *mine = procid_text(getpid()), *held = NULL;
	pid_t pid = 0;
	int ret = -1;

	if (!mine && *fd_shortage())
		return error("cannot name this process%s", fd_shortage());
	if (!mine)
		return error("cannot name this process (%s or /proc/self/stat "
			     "unreadable)", BOOT_ID_PATH);
	if (store_begin(s))
		goto out;
	if (!store_meta_get(s, experiment, CLAIM_KEY, &held)) {
		if (held && strcmp(held, mine) && procid_alive(held, &pid))
			error("experiment %" PRId64 " is being run by process "
			      "%ld; wait for it to end (or stop it) before "
			      "resuming", experiment, (long)pid);
		else if (!store_meta_set(s, experiment, CLAIM_KEY, mine) &&
			 !store_commit(s))
			ret = 0;
	}
	if (ret)
		store_rollback(s);
out:
	free(held);
	free(mine);
	return ret;
}

int claim_release(struct store *s, int64_t experiment)
{
	char *mine = procid_text(getpid()), *held = NULL;
	int ret = -1;

	if (!mine)
		return -1;
	if (store_begin(s))
		goto out;
	if (store_meta_get(s, experiment, CLAIM_KEY, &held) ||
	    (held && !strcmp(held, mine) &&
	     store_meta_set(s, experiment, CLAIM_KEY, NULL)) ||
	    store_commit(s)) {
		store_rollback(s);
		goto out;
	}
	ret = 0;
out:
	free(held);
	free(mine);
	return ret;
}
