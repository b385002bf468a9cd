/*
 * csv.c - RFC 4180 fields written and records read (see csv.h).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/csv.h"
#include "lib/util.h"

void csv_write_field(FILE *f, const char *s)
{
	const char *p;

	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void record_clear(struct csv_record *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->f[i]);
	r->n = 0;
}

static void record_push(struct csv_record *r, size_t len)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->f = xrealloc(r->f, r->cap * sizeof(*r->f));
	}
	r->f[r->n++] = xstrndup(len ? r->buf : "", len);
}

/* Appends c to the field being read (r->buf, *len). */
static void field_put(struct csv_record *r, size_t *len, char c)
{
	if (*len + 1 >= r->bufcap) {
		r->bufcap = r->bufcap ? 2 * r->bufcap : 256;
		r->buf = xrealloc(r->buf, r->bufcap);
	}
	r->buf[(*len)++] = c;
}

int csv_record_read(struct csv_record *r, const char *file, const char **p,
		    const char *end, long *line)
{
	const char *s = *p;
	size_t len = 0;
	bool quoted = false, any = false;

	record_clear(r);
	r->line = *line;
	for (; s < end; s++) {
		if (quoted) {
			if (*s == '"' && s + 1 < end && s[1] == '"')
				field_put(r, &len, *s++);
			else if (*s == '"')
				quoted = false;
			else {
				*line += *s == '\n';
				field_put(r, &len, *s);
			}
			continue;
		}
		if (*s == '"') {
			quoted = any = true;
		} else if (*s == ',') {
			record_push(r, len);
			len = 0;
		} else if (*s == '\n') {
			break;
		} else if (*s != '\r' || (s + 1 < end && s[1] != '\n')) {
			field_put(r, &len, *s);
			any = true;
		}
	}
	if (quoted)
		return error_at(file, r->line, "a quoted field is not closed");
	if (len || any || r->n)
		record_push(r, len);
	*line += s < end;
	*p = s < end ? s + 1 : s;
	return 0;
}

void csv_record_release(struct csv_record *r)
{
	record_clear(r);
	free(r->f);
	free(r->buf);
	r->f = NULL;
	r->buf = NULL;
	r->cap = r->bufcap = 0;
}
