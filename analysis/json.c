/*
 * json.c - a minimal pretty-printing JSON emitter: keys, values, nesting.
 * The layout is the contract of docs/report-json.md and of the golden
 * files under tests/data/report and tests/data/levels.
 */
#include <math.h>

#include "analysis/json.h"

void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.15g", v);
	else
		fputs("null", f);
}

void json_key(struct json_writer *w, const char *key)
{
	if (w->more[w->depth])
		fputc(',', w->f);
	w->more[w->depth] = true;
	if (w->depth)
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

void json_close(struct json_writer *w, char c)
{
	bool had = w->more[w->depth--];

	/* The closing bracket on a line of its own, unless nothing came. */
	if (had)
		fprintf(w->f, "\n%*s", 2 * w->depth, "");
	fputc(c, w->f);
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
