/*
 * config_read.c - the INI file's lines into sections and keys.  inih
 * splits the file into sections and key = value pairs; the line reader
 * here records each key with the line it came from, which every later
 * message cites.
 *
 * inih's own options do what they can (Debian's libinih sets them at run
 * time, declared in its ini.h): ini_max_line widens its line buffer to
 * contend's limit, multi-line values are off (an indented line is a key
 * of its own, as git writes them), and a line with no '=' reaches the
 * handler with a NULL value, which is reported here.  The line reader
 * (ini_parse_stream's reader callback) keeps what inih cannot do:
 * contend's byte checks (binary, over-long and non-UTF-8 lines) and the
 * section headers, for which Debian's build has no callback
 * (INI_CALL_HANDLER_ON_NEW_SECTION is not compiled in) and whose line
 * and exact name the diagnostics need.  inih reads a line only after it
 * has handled the previous one, so the reader's line number is the
 * handler's (docs/DESIGN-CHANGES.md, "Configuration").
 */
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config_impl.h"
#include "runner/param.h"
#include "lib/utf8.h"
#include "lib/util.h"

/* ---- bytes and lines --------------------------------------------------- */

/* Reports the first bad byte of a line: control characters, bad UTF-8. */
static bool line_bytes_ok(struct loader *L, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		if ((u[i] < 0x20 && u[i] != '\t') || u[i] == 0x7F) {
			report(L, L->lineno, "control character 0x%02x at "
					     "column %zu", u[i], i + 1);
			return false;
		}
		n = utf8_len(s + i, len - i, NULL);
		if (!n) {
			report(L, L->lineno, "invalid UTF-8 at column %zu",
			       i + 1);
			return false;
		}
		i += n;
	}
	return true;
}

static bool line_ok(struct loader *L, const char *s, size_t len, int num)
{
	if (len > CONFIG_MAX_LINE) {
		report(L, L->lineno, "line is %zu bytes long; the limit is %d",
		       len, CONFIG_MAX_LINE);
		return false;
	}
	if (len + 2 > (size_t)num) {
		report(L, L->lineno, "line is %zu bytes long; the inih library "
				     "in use reads at most %d", len, num - 2);
		return false;
	}
	return line_bytes_ok(L, s, len);
}

/* ---- sections ---------------------------------------------------------- */

static bool label_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > LABEL_MAX)
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789-_.+") == n;
}

struct section *section_find(struct loader *L, enum section_kind k,
			     const char *label)
{
	size_t i;

	for (i = 0; i < L->nsecs; i++) {
		struct section *s = &L->secs[i];

		if (s->kind == k && (k == SEC_EXPERIMENT ||
				     !strcmp(s->label, label)))
			return s;
	}
	return NULL;
}

/* Checks a header's words; -1 after reporting when it names nothing. */
static int section_kind_of(struct loader *L, const char *word,
			   const char *rest, enum section_kind *k)
{
	static const char *const kinds[] = { "experiment", "workload",
					     "observer" };
	char q[QUOTE_MAX + 4], hint[SUGGEST_MAX];

	if (!strcmp(word, "experiment")) {
		*k = SEC_EXPERIMENT;
		if (!*rest)
			return 0;
		report(L, L->lineno, "[experiment] takes no name");
		return -1;
	}
	if (!strcmp(word, "workload") || !strcmp(word, "observer")) {
		*k = !strcmp(word, "workload") ? SEC_WORKLOAD : SEC_OBSERVER;
		if (label_ok(rest))
			return 0;
		param_clip(q, sizeof(q), rest, QUOTE_MAX);
		if (!*rest)
			report(L, L->lineno, "[%s] needs a name: "
					     "[%s NAME]", word, word);
		else
			report(L, L->lineno, "bad %s name '%s': use at "
					     "most %d letters, digits, '-', "
					     "'_', '.' or '+'", word, q,
			       LABEL_MAX);
		return -1;
	}
	param_clip(q, sizeof(q), word, QUOTE_MAX);
	suggest_hint(hint, sizeof(hint), word, kinds, ARRAY_SIZE(kinds), "[",
		     "]");
	report(L, L->lineno, "unknown section [%s] (sections are "
			     "[experiment], [workload NAME] and "
			     "[observer NAME])%s", q, hint);
	return -1;
}

static void section_open(struct loader *L, char *label)
{
	char *rest = label + strcspn(label, " \t");
	enum section_kind k;
	struct section *dup;

	if (*rest) {
		*rest++ = '\0';
		rest += strspn(rest, " \t");
	}
	if (section_kind_of(L, label, rest, &k))
		return;
	dup = section_find(L, k, rest);
	if (dup) {
		report(L, L->lineno, "duplicate section [%s%s%s] (first at "
				     "line %ld)", label, *rest ? " " : "",
		       rest, dup->line);
		return;
	}
	if (L->nsecs == CONFIG_MAX_SECTIONS) {
		if (!L->too_many_sections)
			report(L, L->lineno, "more than %d sections",
			       CONFIG_MAX_SECTIONS);
		L->too_many_sections = true;
		return;
	}
	L->secs = xrealloc(L->secs, (L->nsecs + 1) * sizeof(*L->secs));
	L->secs[L->nsecs] = (struct section){
		.kind = k,
		.label = k != SEC_EXPERIMENT ? xstrdup(rest) : NULL,
		.line = L->lineno,
	};
	L->cur = (int)L->nsecs++;
}

/*
 * The first of chars in s, or the start of an inline comment (';' after a
 * blank), or the end: inih's rule, for the headers this file reads.
 */
static char *char_or_comment(char *s, const char *chars)
{
	bool was_space = false;

	while (*s && !(chars && strchr(chars, *s)) &&
	       !(was_space && *s == ';')) {
		was_space = *s == ' ' || *s == '\t';
		s++;
	}
	return s;
}

/* p points at '[' of a header line (NUL-terminated). */
static void section_header(struct loader *L, char *p)
{
	char *q = char_or_comment(p + 1, "]"), *after;
	char *label;
	size_t len;

	L->cur = CUR_SKIP; /* until the header proves good */
	if (*q != ']') {
		report(L, L->lineno, "malformed section header: no closing "
				     "']'");
		return;
	}
	after = q + 1 + strspn(q + 1, " \t");
	if (*after && *after != '\n' && *after != ';' && *after != '#') {
		report(L, L->lineno, "unexpected text after ']'");
		return;
	}
	p++;
	p += strspn(p, " \t");
	for (len = (size_t)(q - p); len && (p[len - 1] == ' ' ||
					    p[len - 1] == '\t'); len--)
		;
	label = xstrndup(p, len);
	section_open(L, label);
	free(label);
}

/* Headers are seen here, indented or not: inih has no callback for them. */
static void line_classify(struct loader *L)
{
	char *p = L->raw + strspn(L->raw, " \t");

	if (*p == '[')
		section_header(L, p);
}

/* The ini_reader: one line per call, checked, never split. */
static char *read_line(char *str, int num, void *stream)
{
	struct loader *L = stream;
	const char *start, *nl;
	size_t len;

	if (L->pos >= L->len || num < 2)
		return NULL;
	start = L->text + L->pos;
	nl = memchr(start, '\n', L->len - L->pos);
	len = nl ? (size_t)(nl - start) : L->len - L->pos;
	L->pos += len + (nl != NULL);
	L->lineno++;
	if (len && start[len - 1] == '\r')
		len--;
	if (L->lineno == 1 && len >= 3 && !memcmp(start, "\xEF\xBB\xBF", 3))
		start += 3, len -= 3;
	if (!line_ok(L, start, len, num)) {
		/* Keys after a header we could not read belong nowhere. */
		if (start[strspn(start, " \t")] == '[')
			L->cur = CUR_SKIP;
		strcpy(str, "\n");
		return str;
	}
	memcpy(str, start, len);
	strcpy(str + len, "\n");
	memcpy(L->raw, start, len);
	L->raw[len] = '\0';
	line_classify(L);
	return str;
}

static void key_add(struct loader *L, const char *name, const char *value)
{
	char q[QUOTE_MAX + 4];
	struct section *s;
	struct kv_line *dup;

	if (L->cur == CUR_SKIP)
		return;
	param_clip(q, sizeof(q), name, QUOTE_MAX);
	if (L->cur == CUR_NONE) {
		report(L, L->lineno, "'%s' is outside any section: put it "
				     "under [experiment] or [workload NAME]",
		       q);
		return;
	}
	s = &L->secs[L->cur];
	if (!*name) {
		report(L, L->lineno, "missing key before '='");
	} else if ((dup = key_find(s, name))) {
		report(L, L->lineno, "duplicate key '%s' (first set at line "
				     "%ld)", q, dup->line);
	} else if (s->nkeys == KEYS_MAX) {
		report(L, L->lineno, "more than %d keys in one section",
		       KEYS_MAX);
		L->cur = CUR_SKIP;
	} else {
		s->keys = xrealloc(s->keys, (s->nkeys + 1) * sizeof(*s->keys));
		s->keys[s->nkeys++] = (struct kv_line){
			xstrdup(name), xstrdup(value), L->lineno
		};
	}
}

/* The ini_handler.  Always 1: errors are collected, not inih's. */
static int on_pair(void *user, const char *section, const char *name,
		   const char *value)
{
	struct loader *L = user;

	(void)section; /* inih truncates it; the reader keeps our own */
	if (!value) /* ini_allow_no_value: a line without '=' or ':' */
		report(L, L->lineno, "expected 'key = value', '[section]' or "
				     "a comment");
	else
		key_add(L, name, value);
	return 1;
}

/* A NUL byte: a binary file, reported once rather than line by line. */
int check_binary(struct loader *L)
{
	const char *nul = memchr(L->text, '\0', L->len), *p;
	long line = 1;

	if (!nul)
		return 0;
	for (p = L->text; (p = memchr(p, '\n', (size_t)(nul - p))); p++)
		line++;
	report(L, line, "NUL byte: this is a binary file, not an INI file");
	return -1;
}

/*
 * inih's options are process-wide: set for this parse and put back, so
 * that another reader of INI text in the process keeps inih's defaults.
 */
void parse_sections(struct loader *L)
{
	int max_line = ini_max_line;
	bool multiline = ini_allow_multiline, no_value = ini_allow_no_value;
	int rc;

	if (ini_max_line < CONFIG_MAX_LINE + 3)
		ini_max_line = CONFIG_MAX_LINE + 3;
	ini_allow_multiline = false;
	ini_allow_no_value = true;
	rc = ini_parse_stream(read_line, L, on_pair, L);
	ini_max_line = max_line;
	ini_allow_multiline = multiline;
	ini_allow_no_value = no_value;
	/* Every error inih can find is found above; this is a safety net. */
	if (rc && !L->nerrors)
		report(L, rc > 0 ? rc : 0, "the INI parser failed (%d)", rc);
}

/* Loads text (NUL-terminated, owned by c from here on). */
