/*
 * onerun.h - one planned run of a session: spawned in its own process
 * group with its timeout and the session's cancel pipe, judged (ok,
 * failed, timeout, crashed, interrupted), recorded in the store in one
 * transaction, counted in the session's progress and fed to its auto
 * rule.  docs/RUNNING.md describes the protocol and the statuses.
 */
#ifndef CONTEND_ONERUN_H
#define CONTEND_ONERUN_H

#include "db/store.h"
#include "runner/config.h"
#include "runner/kinstr/kinstr.h"
#include "runner/session.h"

/*
 * Runs and records the pending run p of entry e; *st gets its status.
 * Returns 0, or -1 when the run could not be started or stored (a runtime
 * error that ends the experiment).  A program that cannot be run
 * (wl->spawn) is a failed run instead.
 */
int onerun(struct runner *r, const struct config_entry *e,
	   const struct pending_run *p, enum run_status *st);

#endif
