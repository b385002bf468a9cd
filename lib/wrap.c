/*
 * wrap.c - greedy word wrapping (see wrap.h).
 */
#include <string.h>

#include "lib/wrap.h"

void wrap_print(FILE *f, const char *s, int at, int indent, int width)
{
	int lead = (int)strspn(s, " \n");
	int first = 1;

	fprintf(f, "%.*s", lead, s);
	at += lead;
	s += lead;
	while (*s) {
		int len = (int)strcspn(s, " ");

		if (!first && at + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			at = indent;
		} else if (!first) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", len, s);
		at += len;
		first = 0;
		s += len;
		s += strspn(s, " ");
	}
	fputc('\n', f);
}
