/*
 * json.c - a minimal pretty-printing JSON emitter: keys, values, nesting.
 * The layout is the contract of docs/report-json.md and of the golden
 * files under tests/data/report and tests/data/levels.
 */
#include <math.h>
#include <stdint.h>

#include "lib/json.h"
#include "lib/utf8.h"

/* True when text is printable ASCII without '"' or '\\': copied as is. */
static bool json_plain(const char *text)
{
	const unsigned char *p;

	for (p = (const unsigned char *)text; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			return false;
	return true;
}

/*
 * Names, labels and parameters come from databases and command lines that
 * need not be UTF-8 (a --label of raw bytes, a database written by another
 * tool), and JSON must be: so each byte that does not begin a valid
 * sequence becomes U+FFFD (tests/test_json.c, tests/e2e_utf8.sh).  Shared
 * by every JSON output: report, levels, compare and export.
 */
void json_string(FILE *f, const char *s)
{
	const char *text = s ? s : "";
	const unsigned char *p = (const unsigned char *)text;

	fputc('"', f);
	if (json_plain(text)) {
		fputs(text, f);
		fputc('"', f);
		return;
	}
	while (*p) {
		size_t n = utf8_len((const char *)p, UTF8_NUL, NULL);

		if (*p == '"' || *p == '\\') {
			fputc('\\', f);
			fputc(*p, f);
		} else if (*p == '\n') {
			fputs("\\n", f);
		} else if (*p == '\t') {
			fputs("\\t", f);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
		} else if (n == 0) {
			fputs("\\ufffd", f);
		} else {
			fwrite(p, 1, n, f);
		}
		p += n ? n : 1;
	}
	fputc('"', f);
}

/* v as %.15g, or null when it is NaN or infinite. */
static void json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g", v);
	else
		fputs("null", f);
}

/* Are the members at the writer's depth written on one line? */
static bool is_flat(const struct json_writer *w)
{
	return w->flat && w->depth >= w->flat;
}

void json_key(struct json_writer *w, const char *key)
{
	if (w->more[w->depth])
		fputs(is_flat(w) ? ", " : ",", w->f);
	w->more[w->depth] = true;
	if (w->depth && !is_flat(w))
		fprintf(w->f, "\n%*s", 2 * w->depth, "");
	if (key) {
		json_string(w->f, key);
		fputs(": ", w->f);
	}
}

void json_open(struct json_writer *w, const char *key, char c)
{
	json_key(w, key);
	fputc(c, w->f);
	w->more[++w->depth] = false;
}

void json_open_flat(struct json_writer *w, const char *key, char c)
{
	json_open(w, key, c);
	if (!w->flat)
		w->flat = w->depth;
}

void json_close(struct json_writer *w, char c)
{
	/* The closing bracket on a line of its own, unless nothing came. */
	if (w->more[w->depth] && !is_flat(w))
		fprintf(w->f, "\n%*s", 2 * (w->depth - 1), "");
	fputc(c, w->f);
	if (w->flat == w->depth)
		w->flat = 0;
	w->depth--;
}

void json_num(struct json_writer *w, const char *key, double v)
{
	json_key(w, key);
	json_number(w->f, v);
}

void json_int(struct json_writer *w, const char *key, long long v)
{
	json_key(w, key);
	fprintf(w->f, "%lld", v);
}

void json_str(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w->f, s);
}

void json_bool(struct json_writer *w, const char *key, bool v)
{
	json_key(w, key);
	fputs(v ? "true" : "false", w->f);
}

void json_null(struct json_writer *w, const char *key)
{
	json_key(w, key);
	fputs("null", w->f);
}
