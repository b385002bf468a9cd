/*
 * numfile.h - ministat-compatible files of numbers, so `contend compare`
 * can judge samples from any other tool: one value per line, taken from
 * one column (the first unless -C N) of fields split at DELIMS.
 *
 * Format (docs/USER-GUIDE.md, "Comparing"):
 *  - '#' starts a comment that runs to the end of the line;
 *  - blank lines (and lines that are only a comment) are skipped;
 *  - with the default delimiters (blank and tab) runs of blanks separate
 *    fields and leading blanks are ignored, as in awk; any other delimiter
 *    set splits at every delimiter, so "a,,b" has an empty second field,
 *    as in cut(1);
 *  - a trailing '\r' (CRLF files) is ignored;
 *  - the chosen field must be a finite number in full (strtod syntax).
 * Anything else is an error that quotes the file, the line and the field.
 */
#ifndef CONTEND_NUMFILE_H
#define CONTEND_NUMFILE_H

#include <stddef.h>

#define NUMFILE_DEFAULT_DELIMS " \t"
/* Bytes read at most: more is an error. */
#define NUMFILE_MAX_BYTES (256 << 20)
/*
 * Numbers a side may hold (all its files together): each costs compare
 * about 130 bytes (its value, a run of the dataset, sorted copies), so a
 * side stays near 130 MB however small the numbers are written
 * (docs/LIMITS.md).  More is an error at the line of the first one over.
 */
#define NUMFILE_MAX_VALUES 1000000

struct numfile_opts {
	long column;            /* 1-based field number (1) */
	const char *delims;     /* field delimiters (NUMFILE_DEFAULT_DELIMS) */
};
void numfile_opts_default(struct numfile_opts *o);

/*
 * Parses len bytes of text; name is used in messages.  On success *values
 * is a malloc'd array of *n >= 1 numbers in file order.  On any error
 * (malformed line, NUL byte, missing column, no numbers at all, more than
 * NUMFILE_MAX_VALUES) prints
 * "contend: NAME:LINE: ..." and returns -1 with *values NULL.
 */
int numfile_parse(const char *name, const char *text, size_t len,
		  const struct numfile_opts *o, double **values, size_t *n);
/* As numfile_parse on the contents of the file at path. */
int numfile_read(const char *path, const struct numfile_opts *o,
		 double **values, size_t *n);

/*
 * Reads a whole regular file (or FIFO) of at most NUMFILE_MAX_BYTES into a
 * malloc'd buffer; -1 after "contend: PATH: ..." (buffer freed).
 */
int numfile_slurp(const char *path, char **buf, size_t *len);

#endif
