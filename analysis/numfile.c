/*
 * numfile.c - ministat-compatible number files (see numfile.h for the
 * format).  The whole file is read into memory and parsed line by line from
 * a (pointer, length) slice, so a NUL byte or a missing final newline can
 * never make the parser read past what it was given.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/numfile.h"
#include "lib/escape.h"
#include "lib/readfile.h"
#include "lib/util.h"

/* Longest part of a bad field quoted back in a message. */
#define QUOTE_MAX ESCAPE_QUOTE_MAX /* lib/escape.h: the one cap */

struct line {
	const char *s;
	size_t len;
	long no;
};

void numfile_opts_default(struct numfile_opts *o)
{
	o->column = 1;
	o->delims = NUMFILE_DEFAULT_DELIMS;
}

static bool is_delim(const char *delims, char c)
{
	return c != '\0' && strchr(delims, c) != NULL;
}

/* Blank-only delimiter sets split like awk (runs collapse). */
static bool delims_collapse(const char *delims)
{
	for (; *delims; delims++)
		if (!isspace((unsigned char)*delims))
			return false;
	return true;
}

static bool all_blank(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * Finds field `column` (1-based) of the line; returns its count of fields
 * seen when the line is shorter, with *start left NULL.
 */
static long find_field(const struct line *l, const struct numfile_opts *o,
		       const char **start, size_t *flen)
{
	bool collapse = delims_collapse(o->delims);
	const char *p = l->s, *end = l->s + l->len;
	long k = 0;

	*start = NULL;
	for (;;) {
		const char *f;

		if (collapse)
			while (p < end && is_delim(o->delims, *p))
				p++;
		if (collapse && p == end)
			return k;
		f = p;
		while (p < end && !is_delim(o->delims, *p))
			p++;
		if (++k == o->column) {
			*start = f;
			*flen = (size_t)(p - f);
			return k;
		}
		if (p == end)
			return k;
		p++;    /* past the one delimiter that ended the field */
	}
}

/* A printable copy of at most QUOTE_MAX bytes of s for a message. */
static void quote(const char *s, size_t len, char *out)
{
	size_t i, n = len < QUOTE_MAX ? len : QUOTE_MAX;

	for (i = 0; i < n; i++)
		out[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	if (len > QUOTE_MAX)
		memcpy(out + n, "...", 4);
	else
		out[n] = '\0';
}

static int parse_line(const char *name, const struct line *l,
		      const struct numfile_opts *o, double *v)
{
	char q[QUOTE_MAX + 4], *text;
	const char *f;
	size_t flen = 0;
	long nf;
	int ret;

	nf = find_field(l, o, &f, &flen);
	if (!f)
		return error_at(name, l->no,
				"line has %ld field%s, column %ld asked (-C)",
				nf, nf == 1 ? "" : "s", o->column);
	quote(f, flen, q);
	if (all_blank(f, flen))
		return error_at(name, l->no, "column %ld is empty", o->column);
	text = xstrndup(f, flen);
	ret = parse_double(text, v);
	free(text);
	if (ret < 0)
		return error_at(name, l->no, "not a finite number: '%s'%s", q,
				o->column > 1 ? " (column chosen with -C)" : "");
	return 0;
}

/* Cuts the comment, the CR of CRLF; 1 when something is left to parse. */
static int trim_line(const char *name, struct line *l)
{
	const char *hash;

	if (memchr(l->s, '\0', l->len))
		return error_at(name, l->no, "NUL byte: not a text file");
	hash = memchr(l->s, '#', l->len);
	if (hash)
		l->len = (size_t)(hash - l->s);
	if (l->len && l->s[l->len - 1] == '\r')
		l->len--;
	return !all_blank(l->s, l->len);
}

static void push(double **values, size_t *n, size_t *cap, double v)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		*values = xrealloc(*values, *cap * sizeof(**values));
	}
	(*values)[(*n)++] = v;
}

int numfile_parse(const char *name, const char *text, size_t len,
		  const struct numfile_opts *o, double **values, size_t *n)
{
	const char *p = text, *end = text + len;
	struct line l = { .no = 0 };
	size_t cap = 0;
	double v = 0;
	int ret = -1, keep;

	*values = NULL;
	*n = 0;
	if (o->column < 1 || !o->delims || !*o->delims)
		return error("%s: column must be >= 1 and delimiters non-empty",
			     name);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		l.s = p;
		l.len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		l.no++;
		p = nl ? nl + 1 : end;
		keep = trim_line(name, &l);
		if (keep < 0)
			goto out;
		if (!keep)
			continue;
		if (parse_line(name, &l, o, &v) < 0)
			goto out;
		if (*n == NUMFILE_MAX_VALUES) {
			error_at(name, l.no, "more than %d numbers: the limit "
				 "of a side (docs/LIMITS.md)",
				 NUMFILE_MAX_VALUES);
			goto out;
		}
		push(values, n, &cap, v);
	}
	if (*n == 0) {
		error_at(name, 0, "no numbers (the file is empty or holds "
			 "only comments and blank lines)");
		goto out;
	}
	ret = 0;
out:
	if (ret < 0) {
		free(*values);
		*values = NULL;
		*n = 0;
	}
	return ret;
}

int numfile_slurp(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY), r, e;
	struct stat st;

	*buf = NULL;
	if (fd < 0)
		return error_at(path, 0, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return error_at(path, 0, "is a directory, not a file of numbers");
	}
	r = readfile_fd(fd, NUMFILE_MAX_BYTES, buf, len);
	e = errno;
	close(fd);
	if (r) {
		free(*buf);
		*buf = NULL;
	}
	/* An endless input (/dev/zero, a pipe) must not eat the RAM. */
	if (r > 0)
		return error_at(path, 0, "file is larger than %d MiB",
				NUMFILE_MAX_BYTES >> 20);
	if (r < 0)
		return error_at(path, 0, "read error: %s", strerror(e));
	return 0;
}

int numfile_read(const char *path, const struct numfile_opts *o,
		 double **values, size_t *n)
{
	size_t len = 0;
	char *buf;
	int ret;

	*values = NULL;
	*n = 0;
	if (numfile_slurp(path, &buf, &len) < 0)
		return -1;
	ret = numfile_parse(path, buf, len, o, values, n);
	free(buf);
	return ret;
}
