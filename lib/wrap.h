/*
 * wrap.h - a paragraph printed wrapped at blanks for an 80- or 100-column
 * terminal: the one word wrapper of the text outputs.
 */
#ifndef CONTEND_LIB_WRAP_H
#define CONTEND_LIB_WRAP_H

#include <stdio.h>

/*
 * Prints s with its words (runs of non-blanks) separated by one blank,
 * starting at column at, breaking before a word that would pass column
 * width; continuation lines start with indent blanks.  Leading blanks and
 * newlines of s are kept.  Ends with a newline.  A word longer than the
 * line is printed whole.
 */
void wrap_print(FILE *f, const char *s, int at, int indent, int width);

#endif
