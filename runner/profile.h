/*
 * profile.h - the `profile = lock` pass: one extra, unmeasured run of a
 * configuration under `perf lock record`, then `perf lock contention` on
 * what it recorded, parsed into the top contended kernel locks by caller
 * (stored as the configuration's profile, db/store.h struct profile_row).
 *
 * Call sequence: profile_find_perf once (NULL: say why, skip the pass);
 * per configuration profile_run with the argv of its `contend exec`;
 * store the rows; store_profile_free them.
 */
#ifndef CONTEND_PROFILE_H
#define CONTEND_PROFILE_H

#include <stddef.h>

#include "db/store.h"

/* Rows kept per configuration (perf lock contention -E). */
#define PROFILE_TOP 10

/*
 * The perf executable on PATH, malloc'd, or NULL with the reason (and
 * what to install) in why.
 */
char *profile_find_perf(char *why, size_t whylen);

struct cgroup;

/*
 * Runs exec_argv (argv[0] is replaced by this executable's path) under
 * `perf lock record` with timeout_s (0: none), then reads the contention
 * table.  Returns 0 with *rows malloc'd (possibly none: nothing contended),
 * or -1 with the reason in why.  cancel_fd as in spawn.h; perf and all
 * it starts run in cg (NULL: none), and the guard knows their group and
 * perf's scratch directory (guard.h).
 */
int profile_run(const char *perf, char *const *exec_argv, double timeout_s,
		int cancel_fd, const struct cgroup *cg,
		struct profile_row **rows, size_t *n, char *why,
		size_t whylen);

/*
 * Parses the table `perf lock contention` prints (perf 6.x: contended,
 * total wait, max wait, avg wait, type, caller; times with ns/us/ms/s
 * units).  Lines that are not rows are skipped.  Returns the row count,
 * *rows malloc'd.
 */
size_t profile_parse(const char *text, struct profile_row **rows);

#endif
