/*
 * safefile.h - an output file written whole or not at all, and never
 * through a link someone planted where it is to go.
 *
 *     FILE *f = safefile_open("out/report.html");
 *     if (!f)                    -> errno says why; nothing was created
 *         ...
 *     fprintf(f, ...);  ...
 *     if (fclose(f))             -> errno says why; out/report.html is as
 *         ...                       it was before, the temporary is gone
 *
 * The bytes go to a new temporary file in the target's directory,
 * created with O_EXCL | O_NOFOLLOW (so never an existing file, nor the
 * target of a symlink), mode 0666 less the umask.  fclose() flushes,
 * fsyncs, closes and renames it onto the path: a symlink at the path is
 * replaced, its target untouched; a reader never sees half a file.  Any
 * write, flush, fsync, close or rename that failed makes fclose() fail
 * (EOF, errno set: ENOSPC on a full disk) and removes the temporary.
 * The stream is for writing only (fopen's "w"), by one thread.
 */
#ifndef CONTEND_LIB_SAFEFILE_H
#define CONTEND_LIB_SAFEFILE_H

#include <stdio.h>

FILE *safefile_open(const char *path);

#endif
