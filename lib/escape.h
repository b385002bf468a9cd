/*
 * escape.h - names that come from configs, command lines and databases
 * (labels, section names, hostnames, parameters, metric names) made safe
 * to write, one function per sink: a terminal, where an ESC or a newline
 * would be obeyed; markdown, where a backtick would end a code span and
 * open raw HTML; HTML, where '<' opens a tag; and a gnuplot script, where
 * a line break starts a new command (docs/RELIABILITY.md, "Sinks").
 * Nothing from a database reaches one of them any other way.
 */
#ifndef CONTEND_LIB_ESCAPE_H
#define CONTEND_LIB_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Text for a terminal: \n, \r and \t as those two characters; every other
 * control byte, DEL and each byte that does not begin valid UTF-8 as \xNN;
 * the C1 controls (U+0080..U+009F), the bidirectional overrides and
 * isolates (U+202A..U+202E, U+2066..U+2069, which reorder what follows
 * them on screen) and the invisible characters (U+00AD, U+200B..U+200F,
 * U+2028, U+2029, U+2060..U+2064, U+FEFF: 'na<U+200B>me' is not 'name')
 * as \uNNNN.  Everything else, valid UTF-8 included, is
 * copied; a backslash stays one backslash.  NULL is "".
 *
 * escape_text writes at most len bytes (NUL included, cut on a whole
 * escape) and returns the length the whole escaped text has, as snprintf
 * does; escape_text_dup returns it in malloc'd memory (NULL when out of
 * memory); escape_fputs writes it.
 */
size_t escape_text(char *dst, size_t len, const char *s);
char *escape_text_dup(const char *s);
void escape_fputs(FILE *f, const char *s);

/*
 * Data quoted in a message (a stored key, a pattern, a value typed),
 * escaped and capped: escape_clip writes s as escape_text does, cut to at
 * most max bytes (and to dst's dstlen, NUL included) on a whole escape
 * or character, "..." ending a cut, so that a message quoting a 5,000
 * byte pattern stays a line.  ESCAPE_QUOTE_MAX is the cap every message
 * uses; a buffer of ESCAPE_QUOTE_BUF holds it:
 *     char q[ESCAPE_QUOTE_BUF];
 *     escape_clip(q, sizeof(q), pattern, ESCAPE_QUOTE_MAX);
 *     error("'%s' matches ...", q);
 */
#define ESCAPE_QUOTE_MAX 60
#define ESCAPE_QUOTE_BUF (ESCAPE_QUOTE_MAX + 1)
void escape_clip(char *dst, size_t dstlen, const char *s, size_t max);
/*
 * escape_clip(..., ESCAPE_QUOTE_MAX) into one of 4 buffers of the calling
 * thread, used in turn (as git's oid_to_hex), for a message's arguments:
 *     error("%s: '%s' is not a number", opt, escape_quote(arg));
 * Valid until the fourth call after it.
 */
const char *escape_quote(const char *s);

/*
 * s as one markdown code span (CommonMark 6.1): opened and closed by one
 * backtick more than the longest run of backticks in s, padded with a
 * space when s begins or ends with a backtick or a space, so nothing in s
 * can close it; control characters escaped as escape_text does, so the
 * span stays on one line.  In a table (GFM) '|' is written "\|", which the
 * table reads as a '|' of the cell, not a cell boundary.  An empty s
 * prints as `""`, a code span cannot be empty.
 */
void escape_md_code(FILE *f, const char *s, bool in_table);
/*
 * s as markdown inline text: the characters that can give inline text
 * a meaning (\ ` * _ [ ] < > | # ! ~ &: emphasis, links, code, raw HTML,
 * entities, table cells) backslash-escaped, controls as escape_text
 * writes them.
 */
void escape_md_text(FILE *f, const char *s);

/*
 * s as one gnuplot single-quoted string literal, quotes included: every
 * quote inside doubled (the only character a single-quoted string gives
 * a meaning to: no backslash escapes, backquote substitution or '@'
 * macros happen there), control characters, invalid UTF-8 and the code
 * points escape_text escapes written as escape_text writes them (with
 * a backslash, which the literal keeps as it is).  So the literal is on
 * one line, ends where it should, and nothing after it is read as a
 * command.  The one way a string reaches a gnuplot script, its comments
 * and file names included (plots/).
 */
void escape_gnuplot(FILE *f, const char *s);
/*
 * s as HTML text or a double-quoted attribute value: & < > " ' as
 * entities, controls and invalid UTF-8 as escape_text writes them.
 */
void escape_html(FILE *f, const char *s);

/*
 * A stream for a terminal report: what is written to it reaches out as
 * escape_text writes it, except line breaks and tabs, which pass (the
 * report's own layout); a UTF-8 sequence cut between two writes is
 * joined first.  So an ESC, a carriage return or a bidirectional
 * override in any name a printer formats into its lines is shown, never
 * obeyed, whichever printf wrote it.  fclose() writes what is pending to
 * out (which stays open).  NULL when out of memory.
 */
FILE *escape_stream(FILE *out);

#endif
