/*
 * thread_ops.c - the text of the per-thread counts (run_threads.ops and
 * run_timeline.ops): a JSON array of unsigned 64-bit integers, written and
 * parsed here exactly over the whole range.  SQLite's JSON functions
 * cannot: its integers are signed, so json_array cannot write a count of
 * 2^63 or more and json_each reads one as REAL (docs/DESIGN-CHANGES.md).
 */
#include <stdint.h>
#include <stdlib.h>

#include "db/store_impl.h"
#include "lib/util.h"
/* Writes v in decimal at p; returns the end. */
static char *u64_format(char *p, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

const char *thread_ops_format(struct store *s, size_t n, const uint64_t *v)
{
	size_t need = 2 + n * 21 + 1, i;
	char *p;

	if (need > s->bufsize) {
		s->bufsize = 2 * need;
		s->buf = xrealloc(s->buf, s->bufsize);
	}
	p = s->buf;
	*p++ = '[';
	for (i = 0; i < n; i++) {
		if (i)
			*p++ = ',';
		p = u64_format(p, v[i]);
	}
	*p++ = ']';
	*p = '\0';
	return s->buf;
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Parses one decimal uint64 at *p; -1 when none or on overflow. */
static int u64_scan(const char **p, uint64_t *v)
{
	const char *q = *p;

	*v = 0;
	while (*q >= '0' && *q <= '9') {
		unsigned digit = (unsigned)(*q++ - '0');

		if (*v > (UINT64_MAX - digit) / 10)
			return -1;
		*v = *v * 10 + digit;
	}
	if (q == *p)
		return -1;
	*p = q;
	return 0;
}

/* Blanks are allowed (the text is JSON); nothing else but the counts. */
int thread_ops_parse(const char *p, uint64_t **out, size_t *n)
{
	uint64_t v;

	p = skip_blanks(p);
	if (*p++ != '[')
		return -1;
	p = skip_blanks(p);
	while (*p != ']') {
		if (u64_scan(&p, &v))
			return -1;
		*out = xgrow(*out, *n, sizeof(**out));
		(*out)[(*n)++] = v;
		p = skip_blanks(p);
		if (*p == ',')
			p = skip_blanks(p + 1);
		else if (*p != ']')
			return -1;
	}
	return *skip_blanks(p + 1) ? -1 : 0;
}

