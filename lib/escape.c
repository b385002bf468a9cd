/*
 * escape.c - text safe for each sink contend writes names into: a
 * terminal, markdown, HTML and gnuplot scripts (escape.h).  One step,
 * next(), decides what the bytes at a position become; each sink adds
 * what its own syntax needs (a sink_fn) and the writers loop over both.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/utf8.h"

/* Longest output of one step: "\u202e" or "\xNN", and a NUL. */
#define STEP_MAX 8

/*
 * Code points a terminal obeys or that reorder the text around them; and
 * the invisible ones (soft hyphen, zero-width spaces and joiners,
 * direction marks, line and paragraph separators, word joiners, the byte
 * order mark), with which 'na<U+200B>me' would look like 'name'.
 */
static bool unsafe_point(uint32_t c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0xad ||
	       (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) ||
	       (c >= 0x2060 && c <= 0x2069) || c == 0xfeff;
}

/*
 * What the bytes at s become: *out (NUL-terminated, or NULL when they are
 * copied as they are) and the number of bytes of s taken.  *s is not NUL.
 */
static size_t next(const char *s, char out[STEP_MAX], const char **rep)
{
	unsigned char b = (unsigned char)*s;
	uint32_t c;
	size_t n = utf8_len(s, UTF8_NUL, &c);

	*rep = out;
	if (n == 0) {
		snprintf(out, STEP_MAX, "\\x%02x", b);
		return 1;
	}
	if (b == '\n' || b == '\r' || b == '\t') {
		snprintf(out, STEP_MAX, "\\%c", b == '\n' ? 'n' : b == '\r' ? 'r' : 't');
	} else if (b < 0x20 || b == 0x7f) {
		snprintf(out, STEP_MAX, "\\x%02x", b);
	} else if (unsafe_point(c)) {
		snprintf(out, STEP_MAX, "\\u%04x", (unsigned)c);
	} else {
		*rep = NULL;
	}
	return n;
}

size_t escape_text(char *dst, size_t len, const char *s)
{
	char out[STEP_MAX];
	const char *rep;
	size_t total = 0;
	bool full = false;

	if (len)
		dst[0] = '\0';
	if (!s)
		return 0;
	while (*s) {
		const char *from = s;
		size_t n = next(s, out, &rep), w = rep ? strlen(rep) : n;

		s += n;
		if (!full && total + w < len) {
			memcpy(dst + total, rep ? rep : from, w);
			dst[total + w] = '\0';
		} else {
			full = true;
		}
		total += w;
	}
	return total;
}

void escape_clip(char *dst, size_t dstlen, const char *s, size_t max)
{
	size_t n = escape_text(NULL, 0, s), cut;

	if (!dstlen)
		return;
	if (n <= max && n < dstlen) {
		escape_text(dst, dstlen, s);
		return;
	}
	/* room for what is kept, "..." and the NUL */
	cut = max < dstlen - 1 ? max : dstlen - 1;
	if (cut < 3) {
		snprintf(dst, dstlen, "%.*s", (int)cut, "...");
		return;
	}
	escape_text(dst, cut - 3 + 1, s);  /* cut on a whole escape */
	strcat(dst, "...");
}

const char *escape_quote(const char *s)
{
	static _Thread_local char buf[4][ESCAPE_QUOTE_BUF];
	static _Thread_local unsigned next_buf;
	char *b = buf[next_buf++ % 4];

	escape_clip(b, ESCAPE_QUOTE_BUF, s, ESCAPE_QUOTE_MAX);
	return b;
}

char *escape_text_dup(const char *s)
{
	size_t n = escape_text(NULL, 0, s);
	char *d = malloc(n + 1);

	if (d)
		escape_text(d, n + 1, s);
	return d;
}

/*
 * What a sink does with a byte escape_text would copy: writes its own
 * form of c to f and returns true, or false to have it copied.
 */
typedef bool (*sink_fn)(FILE *f, char c);

/* Writes s as escape_text does, each copied byte first offered to sink. */
static void put_escaped(FILE *f, const char *s, sink_fn sink)
{
	char out[STEP_MAX];
	const char *rep;

	while (s && *s) {
		size_t n = next(s, out, &rep);

		if (rep)
			fputs(rep, f);
		else if (!(n == 1 && sink && sink(f, *s)))
			fwrite(s, 1, n, f);
		s += n;
	}
}

/* A backslash before each byte of special. */
static bool backslashed(FILE *f, char c, const char *special)
{
	if (!strchr(special, c))
		return false;
	fprintf(f, "\\%c", c);
	return true;
}

static bool md_table_sink(FILE *f, char c)
{
	return backslashed(f, c, "|");
}

static bool md_text_sink(FILE *f, char c)
{
	return backslashed(f, c, "\\`*_[]<>|#!~&");
}

/* Inside gnuplot's single quotes only a quote means something: doubled. */
static bool gnuplot_sink(FILE *f, char c)
{
	if (c != '\'')
		return false;
	fputs("''", f);
	return true;
}

static bool html_sink(FILE *f, char c)
{
	static const struct {
		char c;
		const char *entity;
	} map[] = {
		{ '&', "&amp;" }, { '<', "&lt;" }, { '>', "&gt;" },
		{ '"', "&quot;" }, { '\'', "&#39;" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (c == map[i].c) {
			fputs(map[i].entity, f);
			return true;
		}
	return false;
}

void escape_fputs(FILE *f, const char *s)
{
	put_escaped(f, s, NULL);
}

void escape_gnuplot(FILE *f, const char *s)
{
	fputc('\'', f);
	put_escaped(f, s, gnuplot_sink);
	fputc('\'', f);
}

void escape_html(FILE *f, const char *s)
{
	put_escaped(f, s, html_sink);
}

void escape_md_code(FILE *f, const char *s, bool in_table)
{
	size_t run = 0, longest = 0, i, len = s ? strlen(s) : 0;
	bool pad;

	if (len == 0) {
		fputs("`\"\"`", f);
		return;
	}
	for (i = 0; i < len; i++) {
		run = s[i] == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	pad = s[0] == '`' || s[0] == ' ' || s[len - 1] == '`' ||
	      s[len - 1] == ' ';
	for (i = 0; i <= longest; i++)
		fputc('`', f);
	if (pad)
		fputc(' ', f);
	put_escaped(f, s, in_table ? md_table_sink : NULL);
	if (pad)
		fputc(' ', f);
	for (i = 0; i <= longest; i++)
		fputc('`', f);
}

void escape_md_text(FILE *f, const char *s)
{
	put_escaped(f, s, md_text_sink);
}

/* ---- a terminal stream: every byte written escaped but line breaks ---- */

struct estream {
	FILE *out;
	char carry[4];  /* the start of a UTF-8 sequence cut by a write */
	size_t ncarry;
};

/* How many bytes at the end of b[0..n) begin a sequence not complete. */
static size_t cut_tail(const char *b, size_t n)
{
	for (size_t k = 1; k <= 3 && k <= n; k++) {
		unsigned char c = (unsigned char)b[n - k];
		size_t need = utf8_need(c);

		if (need > 1)
			return need > k ? k : 0;
		if ((c & 0xc0) != 0x80)
			return 0;
	}
	return 0;
}

/* s[0..n) as escape_text writes it, '\n' and '\t' as they are; a NUL
 * as \x00. */
static void put_lines(FILE *f, const char *s, size_t n)
{
	const char *end = s + n, *rep;
	char out[STEP_MAX];

	while (s < end) {
		size_t k;

		if (!*s) {
			fputs("\\x00", f);
			s++;
			continue;
		}
		k = next(s, out, &rep);
		if (*s == '\n' || *s == '\t')
			fputc(*s, f);
		else if (rep)
			fputs(rep, f);
		else
			fwrite(s, 1, k, f);
		s += k;
	}
}

static ssize_t es_write(void *cookie, const char *buf, size_t n)
{
	struct estream *es = cookie;
	size_t total = es->ncarry + n, tail;
	char *s = malloc(total + 1);

	if (!s)
		return 0;
	memcpy(s, es->carry, es->ncarry);
	memcpy(s + es->ncarry, buf, n);
	s[total] = '\0';
	tail = cut_tail(s, total);
	memcpy(es->carry, s + total - tail, tail);
	es->ncarry = tail;
	s[total - tail] = '\0';
	put_lines(es->out, s, total - tail);
	free(s);
	return (ssize_t)n;
}

static int es_close(void *cookie)
{
	struct estream *es = cookie;
	char rest[5];

	/* A sequence never completed: its bytes escaped one by one. */
	memcpy(rest, es->carry, es->ncarry);
	rest[es->ncarry] = '\0';
	put_lines(es->out, rest, es->ncarry);
	free(es);
	return 0;
}

FILE *escape_stream(FILE *out)
{
	static const cookie_io_functions_t io = { .write = es_write,
						  .close = es_close };
	struct estream *es = calloc(1, sizeof(*es));
	FILE *f;

	if (!es)
		return NULL;
	es->out = out;
	f = fopencookie(es, "w", io);
	if (!f)
		free(es);
	return f;
}
