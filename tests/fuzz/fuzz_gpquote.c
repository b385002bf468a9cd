/*
 * fuzz_gpquote.c - libFuzzer target for escape_gnuplot (lib/escape.h), the
 * only way a name reaches a gnuplot script.  For any string, the output
 * must be exactly one gnuplot single-quoted literal: it opens and closes
 * with a quote, every quote inside is doubled, and no control character
 * (line break, CR, ...) appears.  So nothing after it is read as a
 * command, and backquotes and '@' macros only ever appear inside the
 * single quotes, where gnuplot substitutes neither.  Decoding the literal
 * must give the input as the terminal sees it (escape_text): nothing lost
 * but what is shown escaped.  fuzz_gpscript checks whole scripts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Decodes the literal q[0..n-1] into out; -1 when it is not exactly one. */
static int decode(const char *q, size_t n, char *out)
{
	size_t i, o = 0;

	if (n < 2 || q[0] != '\'' || q[n - 1] != '\'')
		return -1;
	for (i = 1; i < n - 1; i++) {
		unsigned char c = (unsigned char)q[i];

		if (c < 0x20 || c == 0x7f)
			return -1;
		if (c == '\'') {
			if (i + 1 >= n - 1 || q[i + 1] != '\'')
				return -1; /* a lone quote ends the literal */
			i++;
		}
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = strndup((const char *)data, size), *q = NULL, *back, *shown;
	size_t qlen = 0;
	FILE *f;

	if (!s)
		abort();
	f = open_memstream(&q, &qlen);
	if (!f)
		abort();
	escape_gnuplot(f, s);
	if (fclose(f))
		abort();
	back = malloc(qlen + 1);
	if (!back || decode(q, qlen, back))
		abort();
	shown = escape_text_dup(s);
	if (!shown || strcmp(shown, back))
		abort();
	free(shown);
	free(back);
	free(q);
	free(s);
	return 0;
}
