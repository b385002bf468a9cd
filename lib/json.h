/*
 * json.h - the JSON writer of the reports (report.c, levels_report.c) and
 * the string and number primitives cmd_compare.c and cli/cmd_export.c lay
 * out by hand.
 * JSON has no NaN or infinity: a number that is not finite is null.
 *
 * Output of the writer: pretty-printed, one member or element a line,
 * indented two spaces a level, ": " after a key; an empty object or array
 * is "{}" or "[]".  What json_open_flat opens is written on one line
 * instead, its members and everything inside them separated by ", "
 * (compare's small objects: {"n": 4, "mean": 2.5}).  Usage: a struct
 * json_writer set to { .f = f }, json_open(&w, NULL, '{'), members,
 * json_close(&w, '}'); the caller writes the final newline.  Nesting goes
 * JSON_MAX_DEPTH - 1 deep.
 */
#ifndef CONTEND_JSON_H
#define CONTEND_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json_writer {
	FILE *f;
	int depth;
	bool more[JSON_MAX_DEPTH]; /* a value was already written at this depth */
	int flat;                  /* the depth written on one line from; 0 none */
};

/*
 * s quoted: '"' and '\\' escaped, \n and \t as such, other control bytes
 * and DEL as \u00XX, valid UTF-8 as is, and each byte that does not begin
 * a valid UTF-8 sequence (overlong forms, surrogates and code points past
 * U+10FFFF included) as \ufffd: the output is always valid JSON text.
 * NULL is "".
 */
void json_string(FILE *f, const char *s);

/*
 * The comma and line break before a value, then "key": unless key is NULL
 * (an array element, or the top-level value).  The json_* writers below
 * call it; a caller calls it itself to write a value of its own format.
 */
void json_key(struct json_writer *w, const char *key);
/* Opens an object ('{') or an array ('[') as member key (or element). */
void json_open(struct json_writer *w, const char *key, char c);
/* As json_open, the object or array on one line (see above). */
void json_open_flat(struct json_writer *w, const char *key, char c);
/* Closes what json_open or json_open_flat opened: c is '}' or ']'. */
void json_close(struct json_writer *w, char c);
void json_num(struct json_writer *w, const char *key, double v);
void json_int(struct json_writer *w, const char *key, long long v);
void json_str(struct json_writer *w, const char *key, const char *s);
void json_bool(struct json_writer *w, const char *key, bool v);
void json_null(struct json_writer *w, const char *key);

#endif
