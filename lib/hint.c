/*
 * hint.c - the words of a command contend prints for its user to run: a
 * shell word quoted only where it must be, a database by its absolute
 * path (hint.h).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/hint.h"
#include "lib/util.h"

static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
			   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-";

char *hint_word(const char *s)
{
	size_t n = 0, i;
	char *out, *o;

	if (*s && strspn(s, safe) == strlen(s))
		return xstrdup(s);
	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	out = o = xmalloc(n + 3);
	*o++ = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = s[i];
		}
	}
	*o++ = '\'';
	*o = '\0';
	return out;
}

char *hint_db(const char *path)
{
	char *abs = realpath(path, NULL), *word, *ret;

	if (!abs && *path != '/') {
		char *cwd = getcwd(NULL, 0);

		abs = cwd ? xasprintf("%s/%s", cwd, path) : NULL;
		free(cwd);
	}
	word = hint_word(abs ? abs : path);
	ret = xasprintf("--db %s", word);
	free(word);
	free(abs);
	return ret;
}
