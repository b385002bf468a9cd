/*
 * wrap.c - greedy word wrapping (see wrap.h).
 */
#include <string.h>

#include "lib/wrap.h"

/*
 * One word of len bytes at column *at: after one blank or, where it would
 * pass width, on a new line of indent blanks; after nothing when *bare,
 * and then never on a line of its own.
 */
static void put_word(FILE *f, const char *w, int len, int *at, int indent,
		     int width, int *bare)
{
	if (!*bare && *at + 1 + len > width) {
		fprintf(f, "\n%*s", indent, "");
		*at = indent;
	} else if (!*bare) {
		fputc(' ', f);
		(*at)++;
	}
	fprintf(f, "%.*s", len, w);
	*at += len;
	*bare = 0;
}

/* The words of s (runs of non-blanks) from column at; ends the line. */
static void words(FILE *f, const char *s, int at, int indent, int width,
		  int bare)
{
	while (*s) {
		int len = (int)strcspn(s, " ");

		put_word(f, s, len, &at, indent, width, &bare);
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

void wrap_list(FILE *f, const char *const *list, size_t n, int at, int indent,
	       int width)
{
	int bare = 1;

	for (size_t i = 0; i < n; i++)
		put_word(f, list[i], (int)strlen(list[i]), &at, indent, width,
			 &bare);
	fputc('\n', f);
}
