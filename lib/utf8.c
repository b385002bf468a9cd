/*
 * utf8.c - UTF-8 decoding (see utf8.h).
 */
#include "lib/utf8.h"

size_t utf8_need(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

size_t utf8_len(const char *str, size_t n, uint32_t *cp)
{
	static const unsigned char lead_bits[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	const unsigned char *s = (const unsigned char *)str;
	size_t len = utf8_need(s[0]), i;
	uint32_t c;

	if (!len || n < len)
		return 0;
	c = s[0] & lead_bits[len];
	/* Stops at the first byte that is not a continuation: the NUL too. */
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3fu);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	if (cp)
		*cp = c;
	return len;
}

size_t utf8_columns(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}
