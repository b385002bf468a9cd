/*
 * wrap.c - greedy word wrapping (see wrap.h).
 */
#include <string.h>

#include "lib/wrap.h"

/*
 * The words of s from column at, each after one blank or, where it would
 * pass width, on a new line of indent blanks; the first after nothing
 * when bare, and then never on a line of its own.  Ends the line.
 */
static void words(FILE *f, const char *s, int at, int indent, int width,
		  int bare)
{
	while (*s) {
		int len = (int)strcspn(s, " ");

		if (!bare && at + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			at = indent;
		} else if (!bare) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", len, s);
		at += len;
		bare = 0;
		s += len;
		s += strspn(s, " ");
	}
	fputc('\n', f);
}

void wrap_print(FILE *f, const char *s, int at, int indent, int width)
{
	int lead = (int)strspn(s, " \n");

	fprintf(f, "%.*s", lead, s);
	words(f, s + lead, at + lead, indent, width, 1);
}

void wrap_lead(FILE *f, const char *lead, const char *s, int indent,
	       int width)
{
	int at = fprintf(f, "%s", lead);

	words(f, s + strspn(s, " "), at, indent, width, at <= indent);
}
