/*
 * scratch.h - private scratch directories for workloads that touch the
 * filesystem (WL_SCRATCH): made with mkdtemp under a user-chosen parent,
 * removed afterwards without ever following a symlink out of them.
 */
#ifndef CONTEND_SCRATCH_H
#define CONTEND_SCRATCH_H

/*
 * Creates "<parent>/contend.XXXXXX" (mode 0700).  parent must exist and be
 * a directory.  Returns the malloc'd path, or NULL after error().
 */
char *scratch_create(const char *parent);
/*
 * As scratch_create, for a runner: "<parent>/contend-run.TAG.XXXXXX",
 * TAG naming this process (claim.h's procid_tag), so that a later runner
 * can tell the directory of one that died (scratch_sweep) from a live
 * one's.
 */
char *scratch_create_owned(const char *parent);
/*
 * Removes the directories scratch_create_owned made in parent whose
 * runner is dead, saying so on stderr for each.  Returns how many.
 */
int scratch_sweep(const char *parent);
/*
 * Removes path and everything under it; symlinks are unlinked, never
 * followed, and nothing outside path is touched.  0 or -1 after error().
 */
int scratch_remove(const char *path);
/*
 * The parent a workload's `dir` parameter names: dir itself when set, else
 * $TMPDIR when set and non-empty, else "/tmp".  Never NULL.
 */
const char *scratch_parent(const char *dir);

#endif
