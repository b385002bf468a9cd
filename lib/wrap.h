/*
 * wrap.h - a paragraph printed wrapped at blanks for an 80- or 100-column
 * terminal: the one word wrapper of the text outputs.
 */
#ifndef CONTEND_LIB_WRAP_H
#define CONTEND_LIB_WRAP_H

#include <stddef.h>
#include <stdio.h>

/*
 * Prints s with its words (runs of non-blanks) separated by one blank,
 * starting at column at, breaking before a word that would pass column
 * width; continuation lines start with indent blanks.  Leading blanks and
 * newlines of s are kept.  Ends with a newline.  A word longer than the
 * line is printed whole.
 */
void wrap_print(FILE *f, const char *s, int at, int indent, int width);
/*
 * Prints lead, then the words of s (leading blanks dropped) on lead's
 * line as wrap_print does from lead's width: when lead passes column
 * indent ("methods:" at indent 4) the first word follows after a blank,
 * or on the next line like any other word; when it does not ("    - " at
 * indent 6) the first word follows lead directly.
 */
void wrap_lead(FILE *f, const char *lead, const char *s, int indent,
	       int width);
/*
 * As wrap_print, the words given one by one: a blank inside one is kept
 * and never breaks it ("[--db PATH]" of a usage line).
 */
void wrap_list(FILE *f, const char *const *list, size_t n, int at, int indent,
	       int width);

#endif
