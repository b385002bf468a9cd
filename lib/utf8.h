/*
 * utf8.h - the one UTF-8 decoder: JSON strings (lib/json.c), names made
 * safe for a terminal (lib/escape.c) and the INI reader's check of every
 * line (runner/config_read.c).  RFC 3629: no overlong forms, surrogates
 * or code points past U+10FFFF.
 */
#ifndef CONTEND_LIB_UTF8_H
#define CONTEND_LIB_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* For a NUL-terminated s: the NUL ends any sequence. */
#define UTF8_NUL SIZE_MAX

/*
 * Length of the valid UTF-8 sequence at s, within the n bytes left
 * (UTF8_NUL for a string), its code point in *cp when cp is not NULL; 0
 * when s does not begin one or n cuts it.  A NUL is a sequence of one.
 */
size_t utf8_len(const char *s, size_t n, uint32_t *cp);
/*
 * The length of the sequence the byte c begins, from c alone (2 to 4),
 * 1 for ASCII, 0 for a byte no sequence begins with (a continuation,
 * 0xc0, 0xc1, 0xf5 and above).
 */
size_t utf8_need(unsigned char c);
/*
 * The columns s takes on a terminal, one per code point (every byte but
 * a continuation byte): right for the names and figures contend prints,
 * which hold no wide or combining characters it would have to measure.
 */
size_t utf8_columns(const char *s);

#endif
