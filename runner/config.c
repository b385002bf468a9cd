/*
 * config.c - the INI experiment language.  inih splits the file into
 * sections and key = value pairs; this file gives them meaning: the
 * [experiment] settings, each [workload NAME] section's parameters and
 * sweeps, and their expansion into configurations.  Every error of a file
 * is collected with its line and printed in line order; nothing of a
 * failed load survives.
 *
 * inih calls back for key = value pairs only, so the line reader below
 * also watches what it hands over: it refuses binary, over-long and
 * non-UTF-8 lines, sees section headers (inih has no callback for them),
 * and notices a line that inih rejected without a callback.  inih reads a
 * line only after it has handled the previous one, so the reader's line
 * number is the handler's.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/config.h"
#include "runner/param.h"
#include "lib/util.h"
#include "runner/workloads/workloads.h"

#define ERRORS_SHOWN 50    /* a binary file must not print a million */
#define ERRORS_KEPT 1000
#define LABEL_MAX 64       /* bytes of a [workload NAME] name */
#define NAME_MAX_BYTES 128 /* bytes of the experiment's name */
#define KEYS_MAX 256       /* keys per section: far above any real one */
#define ENTRY_MSGS_MAX 5   /* distinct per-configuration errors shown */
#define QUOTE_MAX 60
#define PREPARE_TIMEOUT_S 60.0 /* prepare or cleanup without its own */

const char *const order_names[] = {
	[ORDER_BLOCKED] = "blocked",
	[ORDER_RANDOM] = "random",
	[ORDER_SEQUENTIAL] = "sequential",
	NULL, /* so it can serve as the choices of the order key */
};

/*
 * Some builds of inih (Debian's) size the line buffer at run time: widen
 * it to our own limit.  Elsewhere the symbol is absent, the weak reference
 * is NULL, and lines are limited to inih's compiled-in size, which the
 * reader reports as too long rather than letting inih split them.
 */
extern int ini_max_line;
#pragma weak ini_max_line

/* ---- collected errors ------------------------------------------------ */

struct message {
	long line;
	size_t seq;
	char *text;
};

struct kv_line {
	char *key;
	char *value;
	long line;
};

enum section_kind { SEC_EXPERIMENT, SEC_WORKLOAD };

struct section {
	enum section_kind kind;
	char *label; /* NAME of [workload NAME]; NULL for [experiment] */
	long line;
	struct kv_line *keys;
	size_t nkeys;
};

enum { CUR_NONE = -1, CUR_SKIP = -2 };

struct loader {
	const char *file;
	const char *text;
	size_t len, pos;
	long lineno;
	/* the line inih is working on */
	bool indented, expect_call, called;
	char raw[CONFIG_MAX_LINE + 1]; /* its text, which inih cuts up */
	int cur;               /* section index, or CUR_NONE / CUR_SKIP */
	struct section *secs;
	size_t nsecs;
	bool too_many_sections;
	uint64_t runs; /* planned runs so far, for CONFIG_MAX_RUNS */
	struct message *msgs;
	size_t nmsgs, nerrors;
	struct experiment_config *c;
};

static void report(struct loader *L, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void report(struct loader *L, long line, const char *fmt, ...)
{
	va_list ap;
	char *text;

	L->nerrors++;
	if (L->nmsgs == ERRORS_KEPT)
		return;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (!text)
		text = xstrdup("out of memory");
	L->msgs = xrealloc(L->msgs, (L->nmsgs + 1) * sizeof(*L->msgs));
	L->msgs[L->nmsgs] = (struct message){ line, L->nmsgs, text };
	L->nmsgs++;
}

static int cmp_message(const void *a, const void *b)
{
	const struct message *x = a, *y = b;

	/* file-level conclusions (line 0) come after the lines they sum up */
	if (x->line != y->line) {
		if (!x->line || !y->line)
			return !x->line ? 1 : -1;
		return x->line < y->line ? -1 : 1;
	}
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void errors_flush(struct loader *L)
{
	size_t i;

	if (L->nmsgs)
		qsort(L->msgs, L->nmsgs, sizeof(*L->msgs), cmp_message);
	for (i = 0; i < L->nmsgs && i < ERRORS_SHOWN; i++)
		error_at(L->file, L->msgs[i].line, "%s", L->msgs[i].text);
	if (L->nerrors > ERRORS_SHOWN)
		error_at(L->file, 0, "%zu more errors not shown",
			 L->nerrors - ERRORS_SHOWN);
}

/* ---- bytes and lines --------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2, cp = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3, cp = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	/* Overlong forms, surrogates, and past U+10FFFF are not UTF-8. */
	if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return len;
}

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
		n = utf8_len(u + i, len - i);
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

/* A line inih was expected to call back for, but did not. */
static void line_done(struct loader *L)
{
	if (L->expect_call && !L->called)
		report(L, L->lineno, "expected 'key = value', '[section]' or "
				     "a comment");
	L->expect_call = L->called = false;
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

static struct section *section_find(struct loader *L, enum section_kind k,
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
	static const char *const kinds[] = { "experiment", "workload" };
	char q[QUOTE_MAX + 4];
	const char *s;

	if (!strcmp(word, "experiment")) {
		*k = SEC_EXPERIMENT;
		if (!*rest)
			return 0;
		report(L, L->lineno, "[experiment] takes no name");
		return -1;
	}
	if (!strcmp(word, "workload")) {
		*k = SEC_WORKLOAD;
		if (label_ok(rest))
			return 0;
		param_clip(q, sizeof(q), rest, QUOTE_MAX);
		if (!*rest)
			report(L, L->lineno, "[workload] needs a name: "
					     "[workload NAME]");
		else
			report(L, L->lineno, "bad workload name '%s': use at "
					     "most %d letters, digits, '-', "
					     "'_', '.' or '+'", q, LABEL_MAX);
		return -1;
	}
	param_clip(q, sizeof(q), word, QUOTE_MAX);
	s = suggest(word, kinds, ARRAY_SIZE(kinds));
	report(L, L->lineno, "unknown section [%s] (sections are "
			     "[experiment] and [workload NAME])%s%s%s", q,
	       s ? "; did you mean [" : "", s ? s : "", s ? "]?" : "");
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
		.label = k == SEC_WORKLOAD ? xstrdup(rest) : NULL,
		.line = L->lineno,
	};
	L->cur = (int)L->nsecs++;
}

/*
 * The first of chars in s, or the start of an inline comment (';' after a
 * blank), or the end: inih's rule, for the lines this file splits itself.
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

static char *strip(char *s)
{
	char *end;

	s += strspn(s, " \t");
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
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

/*
 * What the line in L->raw is.  Headers are seen here, indented or not
 * (inih has no callback for them, and takes an indented one after a key
 * for a continuation); any other line but blanks and comments must reach
 * on_pair.
 */
static void line_classify(struct loader *L)
{
	char *p = L->raw + strspn(L->raw, " \t");

	L->indented = p > L->raw;
	if (!*p || *p == ';' || *p == '#')
		return;
	if (*p == '[') {
		section_header(L, p);
		return;
	}
	L->expect_call = true;
}

/* The ini_reader: one line per call, checked, never split. */
static char *read_line(char *str, int num, void *stream)
{
	struct loader *L = stream;
	const char *start, *nl;
	size_t len;

	line_done(L);
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

static struct kv_line *key_find(const struct section *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->nkeys; i++)
		if (!strcmp(s->keys[i].key, key))
			return &s->keys[i];
	return NULL;
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

/*
 * An indented line: inih (with multi-line values, its default) passes it
 * as a continuation of the key above.  contend has no multi-line values,
 * and git-style indented keys are common, so the line is split here
 * exactly as inih splits any line: the same on every build of inih.
 */
static void indented_pair(struct loader *L)
{
	char *p = L->raw, *end = char_or_comment(p, "=:"), *v;

	if (*p && strip(p)[0] == '[')
		return; /* a header: line_classify has it */
	if (*end != '=' && *end != ':') {
		report(L, L->lineno, "expected 'key = value', '[section]' or "
				     "a comment");
		return;
	}
	*end = '\0';
	v = end + 1;
	*char_or_comment(v, NULL) = '\0';
	key_add(L, strip(p), strip(v));
}

/* The ini_handler.  Always 1: errors are collected, not inih's. */
static int on_pair(void *user, const char *section, const char *name,
		   const char *value)
{
	struct loader *L = user;

	(void)section; /* inih truncates it; the reader keeps our own */
	L->called = true;
	if (L->indented)
		indented_pair(L);
	else
		key_add(L, name, value);
	return 1;
}

/* ---- [experiment] settings -------------------------------------------- */

enum { W_EXP, W_SET }; /* stored in experiment_config or run_settings */

#define S_OVERRIDE 0x1 /* a [workload] section may override it */
#define S_AUTO 0x2     /* "auto" is accepted, stored as 0 */
#define S_OPEN_MIN 0x4 /* the minimum itself is excluded */
#define S_OPEN_MAX 0x8 /* the maximum itself is excluded */

struct setting {
	const struct param_def *def;
	unsigned flags;
	int where;
	size_t off;
};

#define EXP(f) W_EXP, offsetof(struct experiment_config, f)
#define SET(f) W_SET, offsetof(struct run_settings, f)

const char *const profile_names[] = { "none", "lock", NULL };

static const struct setting settings[] = {
	{ &(const struct param_def){ "name", PT_STRING, NULL, 0, 0, NULL,
				     "the experiment's name (required)" },
	  0, EXP(name) },
	{ &(const struct param_def){ "repetitions", PT_INT, "10", 1,
				     CONFIG_MAX_RUNS, NULL,
				     "measured runs per configuration, or "
				     "auto" },
	  S_OVERRIDE | S_AUTO, SET(repetitions) },
	{ &(const struct param_def){ "warmup", PT_INT, "1", 0,
				     CONFIG_MAX_RUNS, NULL,
				     "warm-up runs per configuration" },
	  S_OVERRIDE, SET(warmup) },
	{ &(const struct param_def){ "order", PT_ENUM, "blocked", 0, 0,
				     order_names, "order of the runs" },
	  0, EXP(order) },
	{ &(const struct param_def){ "seed", PT_U64, NULL, 0, 0, NULL,
				     "seed of the run order" },
	  0, EXP(seed) },
	{ &harness_params[HARNESS_RUNTIME], S_OVERRIDE, SET(runtime_s) },
	{ &harness_params[HARNESS_JOBS], S_OVERRIDE, SET(jobs) },
	{ &(const struct param_def){ "confidence", PT_DOUBLE, "0.95", 0, 1,
				     NULL, "confidence level of intervals" },
	  S_OPEN_MIN | S_OPEN_MAX, EXP(confidence) },
	{ &(const struct param_def){ "calibration", PT_DOUBLE, NULL, 0, 0,
				     NULL, "busy loops per microsecond for "
					   "every run (default: measured "
					   "once by the runner)" },
	  S_OPEN_MIN, EXP(calibration) },
	{ &(const struct param_def){ "noise", PT_DOUBLE, "0.05", 0, 0,
				     NULL, "CV above which a configuration "
					   "is noisy" },
	  S_OVERRIDE | S_OPEN_MIN, SET(noise) },
	{ &(const struct param_def){ "timeout", PT_DURATION, NULL, 0.001,
				     CONFIG_MAX_SECONDS, NULL,
				     "a run longer than this is killed" },
	  S_OVERRIDE, SET(timeout_s) },
	{ &(const struct param_def){ "randomize_env", PT_BOOL, "no", 0, 0,
				     NULL, "vary the environment size of "
					   "runs" },
	  S_OVERRIDE, SET(randomize_env) },
	{ &(const struct param_def){ "precision", PT_DOUBLE, "0.02", 0, 1,
				     NULL, "auto: target CI half-width / "
					   "mean" },
	  S_OVERRIDE | S_OPEN_MIN | S_OPEN_MAX, SET(precision) },
	{ &(const struct param_def){ "min_repetitions", PT_INT, "5", 2,
				     CONFIG_MAX_RUNS, NULL,
				     "auto: fewest measured runs" },
	  S_OVERRIDE, SET(min_repetitions) },
	{ &(const struct param_def){ "max_repetitions", PT_INT, "30", 2,
				     CONFIG_MAX_RUNS, NULL,
				     "auto: most measured runs" },
	  S_OVERRIDE, SET(max_repetitions) },
	{ &(const struct param_def){ "profile", PT_ENUM, "none", 0, 0,
				     profile_names,
				     "lock: one extra, unmeasured run per "
				     "configuration under perf lock contention, "
				     "its top kernel locks stored" },
	  S_OVERRIDE, SET(profile) },
};

static const struct setting *setting_find(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settings); i++)
		if (!strcmp(settings[i].def->name, key))
			return &settings[i];
	return NULL;
}

static int setting_parse(const struct setting *s, const char *text,
			 union param_value *v, char *err, size_t errlen)
{
	const struct param_def *p = s->def;

	if ((s->flags & S_AUTO) && !strcmp(text, "auto")) {
		v->i = 0;
		return 0;
	}
	if (p->type != PT_STRING && strchr(text, ',')) {
		snprintf(err, errlen, "%s takes a single value: only workload "
				      "parameters, runtime and jobs are swept, "
				      "in [workload] sections", p->name);
		return -1;
	}
	if (param_parse(p, text, v, err, errlen))
		return -1;
	if ((s->flags & S_OPEN_MAX) && v->d >= p->max) {
		snprintf(err, errlen, "%s: %s must be above %g and below %g",
			 p->name, text, p->min, p->max);
		return -1;
	}
	if ((s->flags & S_OPEN_MIN) && v->d <= p->min) {
		if (s->flags & S_OPEN_MAX)
			snprintf(err, errlen, "%s: %s must be above %g and "
					      "below %g", p->name, text, p->min,
				 p->max);
		else
			snprintf(err, errlen, "%s: %s must be above %g",
				 p->name, text, p->min);
		return -1;
	}
	return 0;
}

/* Stores v where s says; takes over a string. */
static void setting_store(const struct setting *s,
			  struct experiment_config *c,
			  struct run_settings *set, union param_value *v)
{
	char *field = (s->where == W_EXP ? (char *)c : (char *)set) + s->off;

	switch (s->def->type) {
	case PT_INT: /* int fields; every int setting is capped far below */
		*(int *)(void *)field = (int)v->i;
		break;
	case PT_U64:
		*(uint64_t *)(void *)field = v->u;
		break;
	case PT_DOUBLE:
	case PT_DURATION:
		*(double *)(void *)field = v->d;
		break;
	case PT_BOOL:
		*(bool *)(void *)field = v->b;
		break;
	case PT_ENUM: /* order and profile: enums stored as int-sized */
		*(enum run_order *)(void *)field = (enum run_order)v->e;
		break;
	case PT_STRING:
		free(*(char **)(void *)field);
		*(char **)(void *)field = v->s;
		v->s = NULL;
		break;
	default:
		break;
	}
}

/* The table's defaults; they parse by construction. */
static void settings_defaults(struct experiment_config *c)
{
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settings); i++) {
		union param_value v;

		if (settings[i].def->def &&
		    !setting_parse(&settings[i], settings[i].def->def, &v, err,
				   sizeof(err)))
			setting_store(&settings[i], c, &c->defaults, &v);
	}
}

/* Applies one key of section s as a setting; -1 after reporting. */
static int setting_apply(struct loader *L, const struct setting *st,
			 const struct kv_line *k, struct run_settings *set)
{
	union param_value v;
	char err[512];

	if (setting_parse(st, k->value, &v, err, sizeof(err))) {
		report(L, k->line, "%s", err);
		return -1;
	}
	setting_store(st, L->c, set, &v);
	return 0;
}

/* runtime and jobs exclude each other; the later key is reported. */
static int check_runtime_jobs(struct loader *L, const struct section *s)
{
	const struct kv_line *r = key_find(s, "runtime");
	const struct kv_line *j = key_find(s, "jobs");

	if (!r || !j)
		return 0;
	report(L, r->line > j->line ? r->line : j->line,
	       "runtime and jobs are mutually exclusive (the other is at "
	       "line %ld): give one", r->line > j->line ? j->line : r->line);
	return -1;
}

static void check_repetitions(struct loader *L, const struct section *s,
			      const struct run_settings *set)
{
	const struct kv_line *k = key_find(s, "max_repetitions");

	if (!k)
		k = key_find(s, "min_repetitions");
	if (set->min_repetitions > set->max_repetitions)
		report(L, k ? k->line : s->line,
		       "min_repetitions (%d) is above max_repetitions (%d)",
		       set->min_repetitions, set->max_repetitions);
}

/* An explicit timeout must outlast the runtime it would cut short. */
static void check_timeout(struct loader *L, const struct section *s,
			  const struct run_settings *set)
{
	const struct kv_line *k = key_find(s, "timeout");

	if (k && set->timeout_s > 0 && set->runtime_s >= set->timeout_s)
		report(L, k->line, "timeout %gs is not longer than runtime %gs",
		       set->timeout_s, set->runtime_s);
}

static void unknown_experiment_key(struct loader *L, const struct kv_line *k)
{
	const char *names[ARRAY_SIZE(settings)], *s;
	char q[QUOTE_MAX + 4];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(settings); i++)
		names[i] = settings[i].def->name;
	s = suggest(k->key, names, ARRAY_SIZE(settings));
	param_clip(q, sizeof(q), k->key, QUOTE_MAX);
	if (s)
		report(L, k->line, "unknown key '%s' in [experiment]; did you "
				   "mean '%s'?", q, s);
	else
		report(L, k->line, "unknown key '%s' in [experiment] "
				   "(workload parameters go in [workload NAME] "
				   "sections)", q);
}

static void check_name(struct loader *L, const struct section *s)
{
	const struct kv_line *k = key_find(s, "name");
	const char *name = L->c->name;

	if (!k)
		report(L, s->line, "[experiment] has no name: add name = ...");
	else if (!name || !*name)
		report(L, k->line, "name is empty");
	else if (strlen(name) > NAME_MAX_BYTES)
		report(L, k->line, "name is longer than %d bytes",
		       NAME_MAX_BYTES);
}

static void experiment_load(struct loader *L)
{
	struct experiment_config *c = L->c;
	const struct section *s = section_find(L, SEC_EXPERIMENT, NULL);
	size_t i;

	settings_defaults(c);
	if (!s) {
		report(L, 0, "no [experiment] section (it must give the "
			     "experiment a name)");
		return;
	}
	for (i = 0; i < s->nkeys; i++) {
		const struct setting *st = setting_find(s->keys[i].key);

		if (!st)
			unknown_experiment_key(L, &s->keys[i]);
		else
			setting_apply(L, st, &s->keys[i], &c->defaults);
	}
	check_name(L, s);
	if (!check_runtime_jobs(L, s) && key_find(s, "jobs"))
		c->defaults.runtime_s = 0;
	c->has_seed = key_find(s, "seed") != NULL;
	check_repetitions(L, s, &c->defaults);
	check_timeout(L, s, &c->defaults);
}

/* ---- [workload NAME] sections ------------------------------------------ */

/* One key's values; a configuration takes one value of every axis. */
struct axis {
	const char *key;
	char **vals;
	size_t n;
	long line; /* of the key; 0 for a default */
};

struct wsec {
	struct loader *L;
	const struct section *sec;
	const struct workload *wl;
	struct run_settings set;
	/* params in table order, time, cpus, then family keys as given */
	struct axis *axes;
	size_t nmembers;
	/* indexes in axes of a configuration's keys: params, family keys
	 * by key, time, cpus when given */
	size_t *order;
	size_t naxes;
	char *msgs[ENTRY_MSGS_MAX]; /* per-configuration errors, deduped */
	size_t nmsgs;
	size_t nuser; /* param.NAME axes, at user_base() in axes */
	/* section keys of the runner's, not the workload's */
	const struct kv_line *prepare, *cleanup, *primary, *direction;
	double prepare_timeout_s;
	size_t ndirs;
	const struct kv_line *dirs[WL_MAX_MEMBERS]; /* direction.NAME */
};

/* Where in w->axes the user parameters' axes start. */
static size_t user_base(const struct wsec *w)
{
	return w->wl->nparams + 2 + WL_MAX_MEMBERS;
}

static char *known_workloads(void)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < nworkloads; i++)
		len += strlen(workloads[i]->name) + 2;
	s = xcalloc(1, len);
	for (i = 0; i < nworkloads; i++) {
		if (workloads[i]->flags & WL_HIDDEN)
			continue;
		if (*s)
			strcat(s, ", ");
		strcat(s, workloads[i]->name);
	}
	return s;
}

static const struct workload *workload_of(struct loader *L,
					  const struct section *s)
{
	const struct kv_line *k = key_find(s, "type");
	const struct workload *wl;
	const char *names[64], *hint;
	char q[QUOTE_MAX + 4], *known = known_workloads();
	size_t i, n = 0;

	if (!k) {
		report(L, s->line, "[workload %s] has no type: add type = "
				   "WORKLOAD (known: %s)", s->label, known);
	} else if (!(wl = workload_find(k->value))) {
		for (i = 0; i < nworkloads && n < ARRAY_SIZE(names); i++)
			if (!(workloads[i]->flags & WL_HIDDEN))
				names[n++] = workloads[i]->name;
		hint = suggest(k->value, names, n);
		param_clip(q, sizeof(q), k->value, QUOTE_MAX);
		report(L, k->line, "unknown workload type '%s'%s%s%s (known: "
				   "%s)", q, hint ? "; did you mean '" : "",
		       hint ? hint : "", hint ? "'?" : "", known);
	} else if (wl->unsupported) {
		report(L, k->line, "workload %s cannot run here: %s",
		       wl->name, wl->unsupported);
	} else if (wl->nparams > WL_MAX_PARAMS) {
		report(L, k->line, "workload %s has too many parameters",
		       wl->name);
	} else {
		free(known);
		return wl;
	}
	free(known);
	return NULL;
}

/* For "did you mean": the keys runner_key and user_param take. */
static const char *const runner_keys[] = {
	"prepare", "cleanup", "prepare_timeout", "primary", "direction",
	"param.NAME", "direction.NAME",
};

static void unknown_workload_key(struct wsec *w, const struct kv_line *k)
{
	const char *names[WL_MAX_PARAMS + ARRAY_SIZE(settings) +
			  ARRAY_SIZE(runner_keys) + 4], *s;
	char q[QUOTE_MAX + 4];
	size_t i, n = 0;

	names[n++] = "type";
	for (i = 0; i < w->wl->nparams; i++)
		names[n++] = w->wl->params[i].name;
	for (i = 0; i < nharness_params; i++)
		names[n++] = harness_params[i].name;
	for (i = 0; i < ARRAY_SIZE(settings); i++)
		if (settings[i].flags & S_OVERRIDE)
			names[n++] = settings[i].def->name;
	for (i = 0; i < ARRAY_SIZE(runner_keys); i++)
		names[n++] = runner_keys[i];
	s = suggest(k->key, names, n);
	param_clip(q, sizeof(q), k->key, QUOTE_MAX);
	report(w->L, k->line, "unknown key '%s' for workload %s%s%s%s", q,
	       w->wl->name, s ? "; did you mean '" : "", s ? s : "",
	       s ? "'?" : "");
}

/* Keys whose value is a number of threads or processes in one run. */
static bool is_worker_key(const char *key)
{
	static const char *const keys[] = { "threads", "processes" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

static int check_workers(struct wsec *w, const struct axis *a)
{
	size_t i;

	if (!is_worker_key(a->key))
		return 0;
	for (i = 0; i < a->n; i++) {
		long long v;

		if (!parse_ll(a->vals[i], &v) && v > CONFIG_MAX_WORKERS) {
			report(w->L, a->line, "%s: %s is above the limit of "
					      "%d per run", a->key, a->vals[i],
			       CONFIG_MAX_WORKERS);
			return -1;
		}
	}
	return 0;
}

/* Expands a key's value into axis a; -1 after reporting. */
static int axis_sweep(struct wsec *w, struct axis *a,
		      const struct param_def *p, const struct kv_line *k)
{
	char err[512];

	a->key = p->name;
	a->line = k->line;
	if (sweep_expand(p, k->value, &a->vals, &a->n, err, sizeof(err))) {
		report(w->L, k->line, "%s", err);
		return -1;
	}
	return check_workers(w, a);
}

/*
 * The first cpu of the cpus axis this process may not run on (cpus =
 * 1023 on a 2-cpu machine: every run pinned there would fail), noted in
 * the config for the runner to refuse (config_offline); the file itself
 * is fine, and may be meant for a bigger machine.
 */
static void check_cpus_online(struct wsec *w, const struct axis *a)
{
	struct experiment_config *cfg = w->L->c;
	cpu_set_t here, want;
	size_t i;
	int c;

	if (cfg->offline || sched_getaffinity(0, sizeof(here), &here))
		return; /* one is enough; or cannot tell: the runs will say */
	for (i = 0; i < a->n; i++) {
		if (cpulist_parse(a->vals[i], &want))
			continue;
		for (c = 0; c < CPU_SETSIZE; c++) {
			char *list;

			if (!CPU_ISSET(c, &want) || CPU_ISSET(c, &here))
				continue;
			list = cpulist_format(&here);
			cfg->offline = xasprintf("cpus: cpu %d is not online here "
						 "(contend may run on cpus %s)",
						 c, list);
			cfg->offline_line = a->line;
			free(list);
			return;
		}
	}
}

/* A single value, given as canonical text already. */
static void axis_single(struct axis *a, const char *key, char *val)
{
	a->key = key;
	a->vals = xmalloc(sizeof(*a->vals));
	a->vals[0] = val;
	a->n = 1;
	a->line = 0;
}

static int axis_default(struct wsec *w, struct axis *a,
			const struct param_def *p)
{
	union param_value v;
	char err[512];

	if (!p->def) {
		report(w->L, w->sec->line, "[workload %s] must set %s (it has "
					   "no default)", w->sec->label,
		       p->name);
		return -1;
	}
	if (param_parse(p, p->def, &v, err, sizeof(err))) {
		report(w->L, w->sec->line, "workload %s: bad default: %s",
		       w->wl->name, err);
		return -1;
	}
	axis_single(a, p->name, param_format(p, &v));
	if (p->type == PT_STRING || p->type == PT_CPUS)
		free(v.s);
	return 0;
}

/* param.NAME = SWEEP: one more axis, named by its whole key. */
static int user_param(struct wsec *w, const struct kv_line *k)
{
	const char *name = k->key + 6;
	struct axis *a;
	char err[512];

	if (!param_name_ok(name, strlen(name))) {
		report(w->L, k->line, "%s: the NAME of param.NAME is letters, "
				      "digits and _, not a digit first, under "
				      "%d bytes", k->key, METRIC_NAME_MAX);
		return -1;
	}
	if (w->nuser == CONFIG_MAX_USER_PARAMS) {
		report(w->L, k->line, "%s: at most %d param.NAME keys in one "
				      "section", k->key, CONFIG_MAX_USER_PARAMS);
		return -1;
	}
	a = &w->axes[user_base(w) + w->nuser++];
	a->key = k->key;
	a->line = k->line;
	if (sweep_expand_user(k->key, k->value, &a->vals, &a->n, err,
			      sizeof(err))) {
		report(w->L, k->line, "%s", err);
		return -1;
	}
	return 0;
}

static const char *const directions[] = { "higher", "lower", NULL };

/* higher | lower, or -1 after reporting. */
static int direction_check(struct wsec *w, const struct kv_line *k)
{
	const struct param_def p = { k->key, PT_ENUM, NULL, 0, 0, directions,
				     NULL };
	union param_value v;
	char err[512];

	if (param_parse(&p, k->value, &v, err, sizeof(err))) {
		report(w->L, k->line, "%s", err);
		return -1;
	}
	return 0;
}

/* A metric's name, as primary and direction.NAME take it. */
static int metric_name_check(struct wsec *w, const struct kv_line *k,
			     const char *name)
{
	char q[QUOTE_MAX + 4];

	if (param_name_ok(name, strlen(name)))
		return 0;
	param_clip(q, sizeof(q), name, QUOTE_MAX);
	report(w->L, k->line, "%s: '%s' is not a metric name (letters, digits "
			      "and _, not a digit first, under %d bytes)",
	       k->key, q, METRIC_NAME_MAX);
	return -1;
}

/*
 * The section keys the runner reads itself (prepare, cleanup,
 * prepare_timeout, primary, direction, direction.NAME): 0 when k was one
 * of them, -1 after reporting, 1 when it is none of them.
 */
static int runner_key(struct wsec *w, const struct kv_line *k)
{
	const struct param_def pt = { "prepare_timeout", PT_DURATION, NULL,
				      0.001, CONFIG_MAX_SECONDS, NULL, NULL };
	union param_value v;
	char err[512];

	if (!strcmp(k->key, "prepare") || !strcmp(k->key, "cleanup")) {
		char **argv;
		size_t n;

		*(k->key[0] == 'p' ? &w->prepare : &w->cleanup) = k;
		if (command_split(k->value, &argv, &n, err, sizeof(err))) {
			report(w->L, k->line, "%s: %s", k->key, err);
			return -1;
		}
		command_argv_free(argv);
		return 0;
	}
	if (!strcmp(k->key, "prepare_timeout")) {
		if (param_parse(&pt, k->value, &v, err, sizeof(err))) {
			report(w->L, k->line, "%s", err);
			return -1;
		}
		w->prepare_timeout_s = v.d;
		return 0;
	}
	if (!strcmp(k->key, "primary")) {
		w->primary = k;
		return metric_name_check(w, k, k->value);
	}
	if (!strcmp(k->key, "direction")) {
		w->direction = k;
		return direction_check(w, k);
	}
	if (strncmp(k->key, "direction.", 10))
		return 1;
	if (metric_name_check(w, k, k->key + 10) || direction_check(w, k))
		return -1;
	if (w->ndirs == WL_MAX_MEMBERS) {
		report(w->L, k->line, "%s: at most %d direction.NAME keys in one "
				      "section", k->key, WL_MAX_MEMBERS);
		return -1;
	}
	w->dirs[w->ndirs++] = k;
	return 0;
}

/* One key of a [workload] section; -1 after reporting. */
static int wsec_key(struct wsec *w, const struct kv_line *k)
{
	const size_t np = w->wl->nparams;
	const struct setting *st;
	int idx = workload_param_index(w->wl, k->key);

	if (!strcmp(k->key, "type"))
		return 0;
	if (idx >= 0)
		return axis_sweep(w, &w->axes[idx], &w->wl->params[idx], k);
	idx = workload_family_index(w->wl, k->key);
	if (idx >= 0 && w->nmembers == WL_MAX_MEMBERS) {
		report(w->L, k->line, "%s: at most %d keys of families (like "
				      "%s) in one section", k->key,
		       WL_MAX_MEMBERS, w->wl->params[idx].name);
		return -1;
	}
	if (idx >= 0) {
		/* messages and the axis name the key given, not the family */
		struct param_def member = w->wl->params[idx];

		member.name = k->key;
		return axis_sweep(w, &w->axes[np + 2 + w->nmembers++], &member,
				  k);
	}
	/* runtime and jobs share the time axis (both: check_runtime_jobs) */
	if (!strcmp(k->key, "runtime") && !w->axes[np].n)
		return axis_sweep(w, &w->axes[np],
				  &harness_params[HARNESS_RUNTIME], k);
	if (!strcmp(k->key, "jobs") && !w->axes[np].n)
		return axis_sweep(w, &w->axes[np],
				  &harness_params[HARNESS_JOBS], k);
	if (!strcmp(k->key, "runtime") || !strcmp(k->key, "jobs"))
		return -1;
	if (!strcmp(k->key, "cpus")) {
		if (axis_sweep(w, &w->axes[np + 1],
			       &harness_params[HARNESS_CPUS], k))
			return -1;
		check_cpus_online(w, &w->axes[np + 1]);
		return 0;
	}
	if (!strncmp(k->key, "param.", 6))
		return user_param(w, k);
	if (runner_key(w, k) <= 0)
		return 0;
	st = setting_find(k->key);
	if (st && (st->flags & S_OVERRIDE))
		return setting_apply(w->L, st, k, &w->set);
	if (st) {
		report(w->L, k->line, "%s can be set only in [experiment]",
		       k->key);
		return -1;
	}
	unknown_workload_key(w, k);
	return -1;
}

static int axis_key_cmp(const void *a, const void *b)
{
	const struct axis *x = a, *y = b;

	return strcmp(x->key, y->key);
}

/* w->order: the canonical order of a configuration's keys. */
static void wsec_order(struct wsec *w)
{
	const size_t np = w->wl->nparams;
	size_t i, n = 0;

	qsort(&w->axes[np + 2], w->nmembers, sizeof(w->axes[0]), axis_key_cmp);
	qsort(&w->axes[user_base(w)], w->nuser, sizeof(w->axes[0]),
	      axis_key_cmp);
	w->order = xcalloc(np + 2 + w->nmembers + w->nuser, sizeof(size_t));
	for (i = 0; i < np; i++)
		if (!param_is_family(&w->wl->params[i]))
			w->order[n++] = i;
	for (i = 0; i < w->nmembers; i++)
		w->order[n++] = np + 2 + i;
	if (w->axes[np].n) /* none with WL_OWN_DURATION */
		w->order[n++] = np;
	if (w->axes[np + 1].n) /* cpus: no key, no axis */
		w->order[n++] = np + 1;
	for (i = 0; i < w->nuser; i++)
		w->order[n++] = user_base(w) + i;
	w->naxes = n;
}

/* The axis of a configuration's i-th key. */
static const struct axis *wsec_axis(const struct wsec *w, size_t i)
{
	return &w->axes[w->order[i]];
}

/* Fills the axes no key gave: defaults, the inherited runtime or jobs. */
static int wsec_fill(struct wsec *w)
{
	const size_t np = w->wl->nparams;
	const struct param_def *p;
	union param_value v;
	size_t i;

	for (i = 0; i < np; i++)
		if (!w->axes[i].n && !param_is_family(&w->wl->params[i]) &&
		    axis_default(w, &w->axes[i], &w->wl->params[i]))
			return -1;
	/* a workload of its own duration has no time axis (nor inherits one) */
	if (!w->axes[np].n && !(w->wl->flags & WL_OWN_DURATION)) {
		bool jobs = w->set.jobs != 0;

		p = &harness_params[jobs ? HARNESS_JOBS : HARNESS_RUNTIME];
		if (jobs)
			v.u = w->set.jobs;
		else
			v.d = w->set.runtime_s;
		axis_single(&w->axes[np], p->name, param_format(p, &v));
	}
	wsec_order(w);
	return 0;
}

/* Configurations and runs within CONFIG_MAX_RUNS, without overflow. */
static int wsec_count(struct wsec *w, size_t *count)
{
	const struct run_settings *s = &w->set;
	uint64_t n = 1, per, runs;
	size_t i;

	for (i = 0; i < w->naxes; i++) {
		if (wsec_axis(w, i)->n > CONFIG_MAX_RUNS / n) {
			report(w->L, w->sec->line, "[workload %s] expands to "
						   "more than %d configurations",
			       w->sec->label, CONFIG_MAX_RUNS);
			return -1;
		}
		n *= wsec_axis(w, i)->n;
	}
	per = (uint64_t)(s->repetitions ? s->repetitions : s->max_repetitions) +
	      (uint64_t)s->warmup;
	runs = n * per; /* both at most CONFIG_MAX_RUNS: no overflow */
	if (runs > CONFIG_MAX_RUNS - w->L->runs) {
		report(w->L, w->sec->line, "[workload %s] brings the "
					   "experiment to %" PRIu64 " runs "
					   "(configurations x (repetitions + "
					   "warmup)); the limit is %d",
		       w->sec->label, w->L->runs + runs, CONFIG_MAX_RUNS);
		return -1;
	}
	w->L->runs += runs;
	*count = (size_t)n;
	return 0;
}

/* At s: a character that continues a key ('.' only inside one). */
static bool is_key_char(const char *s)
{
	return isalnum((unsigned char)s[0]) || s[0] == '_' ||
	       (s[0] == '.' && (isalnum((unsigned char)s[1]) || s[1] == '_'));
}

/* The line to blame for a message about a configuration: its first key. */
static long blame_line(const struct wsec *w, const char *msg)
{
	const char *best = NULL;
	long line = w->sec->line;
	size_t i;

	for (i = 0; i < w->sec->nkeys; i++) {
		const struct kv_line *k = &w->sec->keys[i];
		const char *at = strstr(msg, k->key);
		size_t n = strlen(k->key);

		/* a whole key only: "threads" is not in "nthreads_max",
		 * "metric" not in "metric.ops" */
		while (at && ((at > msg && is_key_char(at - 1)) ||
			      is_key_char(at + n)))
			at = strstr(at + 1, k->key);
		if (at && (!best || at < best)) {
			best = at;
			line = k->line;
		}
	}
	return line;
}

static void entry_error(struct wsec *w, const char *msg)
{
	size_t i;

	for (i = 0; i < w->nmsgs; i++)
		if (!strcmp(w->msgs[i], msg))
			return;
	if (w->nmsgs == ENTRY_MSGS_MAX)
		return;
	w->msgs[w->nmsgs++] = xstrdup(msg);
	report(w->L, blame_line(w, msg), "[workload %s] %s", w->sec->label,
	       msg);
}

static bool needs_quotes(const char *v)
{
	return !*v || strpbrk(v, " \t\"'\\") != NULL;
}

/* kv joined by ' '; values with blanks or quotes double-quoted. */
static char *canon_of(char **kv, size_t n)
{
	size_t i, len = 1;
	char *s, *o;

	for (i = 0; i < n; i++)
		len += 2 * strlen(kv[i]) + 4;
	s = o = xmalloc(len);
	for (i = 0; i < n; i++) {
		const char *eq = strchr(kv[i], '='), *v = eq + 1;

		if (i)
			*o++ = ' ';
		memcpy(o, kv[i], (size_t)(v - kv[i]));
		o += v - kv[i];
		if (!needs_quotes(v)) {
			o = stpcpy(o, v);
			continue;
		}
		*o++ = '"';
		for (; *v; v++) {
			if (*v == '"' || *v == '\\')
				*o++ = '\\';
			*o++ = *v;
		}
		*o++ = '"';
	}
	*o = '\0';
	return s;
}

/* A run past its timeout is killed: it must at least outlast runtime. */
static double entry_timeout(struct wsec *w, const struct wl_args *a)
{
	if (!(w->set.timeout_s > 0)) /* not set: a default from the run */
		return a->runtime_s > 0 ? 30 + 2 * a->runtime_s : 300;
	if (a->runtime_s >= w->set.timeout_s) {
		char msg[128];

		/*
		 * Blamed on the section's timeout or runtime key; with
		 * neither, both came from [experiment], which reported it.
		 */
		snprintf(msg, sizeof(msg), "timeout %gs is not longer than "
					   "runtime %gs", w->set.timeout_s,
			 a->runtime_s);
		if (key_find(w->sec, "timeout") || key_find(w->sec, "runtime"))
			entry_error(w, msg);
		return -1;
	}
	return w->set.timeout_s;
}

/* At s, a '{' in text: the length of NAME when s is "{NAME}", else 0. */
static size_t brace_name(const char *text, const char *s)
{
	size_t n = 0;

	if (s > text && s[-1] == '$') /* the shell's ${NAME} */
		return 0;
	while (isalnum((unsigned char)s[1 + n]) || s[1 + n] == '_')
		n++;
	if (s[1 + n] != '}' || !param_name_ok(s + 1, n))
		return 0;
	return n;
}

/* The value of NAME (n bytes) in user, or NULL. */
static const char *user_value(const char *name, size_t n, char *const *user,
			      size_t nuser)
{
	size_t i;

	for (i = 0; i < nuser; i++)
		if (!strncmp(user[i] + 6, name, n) && user[i][6 + n] == '=')
			return user[i] + 6 + n + 1;
	return NULL;
}

char *config_substitute(const char *text, char *const *user, size_t nuser,
			char *err, size_t errlen)
{
	size_t len = 0, cap = strlen(text) + 1;
	char *out = xmalloc(cap);
	const char *s;

	for (s = text; *s; s++) {
		size_t n = *s == '{' ? brace_name(text, s) : 0;
		const char *v = n ? user_value(s + 1, n, user, nuser) : NULL;
		size_t add = v ? strlen(v) : 1;

		if (n && !v) {
			error_buf(err, errlen, "unknown parameter {%.*s}: declare "
					       "it in the section, e.g. param.%.*s "
					       "= 1, 2",
				  (int)n, s + 1, (int)n, s + 1);
			free(out);
			return NULL;
		}
		if (len + add + 1 > cap) {
			cap = 2 * (len + add + 1);
			out = xrealloc(out, cap);
		}
		memcpy(out + len, v ? v : s, add);
		len += add;
		if (v)
			s += n + 1;
	}
	out[len] = '\0';
	return out;
}

/* Is key a workload parameter that takes {NAME}, or prepare/cleanup? */
static bool is_template(const struct wsec *w, const char *key)
{
	const char *const *t;

	if (!strcmp(key, "prepare") || !strcmp(key, "cleanup"))
		return true;
	for (t = w->wl->templates; t && *t; t++)
		if (!strcmp(*t, key))
			return true;
	return false;
}

/* The user parameters of a configuration: the last nuser of kv. */
static char *const *entry_user(const struct wsec *w, char *const *kv)
{
	return kv + w->naxes - w->nuser;
}

/* Every {NAME} of the section names a param.NAME of it. */
static void check_templates(struct wsec *w)
{
	char **user = xcalloc(w->nuser + 1, sizeof(*user)), err[512], *t;
	size_t i;

	for (i = 0; i < w->nuser; i++)
		user[i] = xasprintf("%s=", w->axes[user_base(w) + i].key);
	for (i = 0; i < w->sec->nkeys; i++) {
		const struct kv_line *k = &w->sec->keys[i];

		if (!is_template(w, k->key))
			continue;
		t = config_substitute(k->value, user, w->nuser, err,
				      sizeof(err));
		if (!t)
			report(w->L, k->line, "%s: %s", k->key, err);
		free(t);
	}
	for (i = 0; i < w->nuser; i++)
		free(user[i]);
	free(user);
}

/* {NAME} in the values of template keys of kv replaced: by construction
 * (check_templates) every name is known. */
static void substitute_kv(const struct wsec *w, char **kv, size_t nargs)
{
	char err[256];
	size_t i;

	for (i = 0; i < nargs; i++) {
		const char *eq = strchr(kv[i], '=');
		char *key = xstrndup(kv[i], (size_t)(eq - kv[i])), *v;

		if (is_template(w, key) &&
		    (v = config_substitute(eq + 1, entry_user(w, kv), w->nuser,
					   err, sizeof(err)))) {
			free(kv[i]);
			kv[i] = xasprintf("%s=%s", key, v);
			free(v);
		}
		free(key);
	}
}

/* prepare or cleanup of a configuration, {NAME} replaced; NULL: none. */
static char *entry_hook(const struct wsec *w, const struct kv_line *k,
			char *const *kv)
{
	char err[256];

	if (!k || !*k->value)
		return NULL;
	return config_substitute(k->value, entry_user(w, kv), w->nuser, err,
				 sizeof(err));
}

/* The section's primary, else the workload's own, else throughput. */
static char *entry_primary(const struct wsec *w, const struct wl_args *a)
{
	const char **keys, *p = NULL;
	char *ret;
	size_t i;

	if (w->primary)
		return xstrdup(w->primary->value);
	if (w->wl->primary) {
		keys = xcalloc(w->sec->nkeys + 1, sizeof(*keys));
		for (i = 0; i < w->sec->nkeys; i++)
			keys[i] = w->sec->keys[i].key;
		p = w->wl->primary(a, keys, w->sec->nkeys);
		ret = xstrdup(p ? p : "throughput");
		free(keys);
		return ret;
	}
	return xstrdup("throughput");
}

/* direction (of the primary) and direction.NAME as "METRIC=higher". */
static void entry_directions(const struct wsec *w, struct config_entry *e)
{
	size_t i;

	e->directions = xcalloc(w->ndirs + 1, sizeof(*e->directions));
	if (w->direction)
		e->directions[e->ndirections++] =
			xasprintf("%s=%s", e->primary, w->direction->value);
	for (i = 0; i < w->ndirs; i++)
		e->directions[e->ndirections++] =
			xasprintf("%s=%s", w->dirs[i]->key + 10,
				  w->dirs[i]->value);
}

static void entry_add(struct experiment_config *c, struct wsec *w,
		      char **kv, char *canon, const struct wl_args *a,
		      double timeout)
{
	const size_t nargs = w->naxes - w->nuser;
	struct config_entry *e;

	/* capacity doubles: full whenever the count is a power of two */
	if (!(c->nentries & (c->nentries - 1)))
		c->entries = xrealloc(c->entries, (c->nentries ? 2 * c->nentries
							       : 1) *
							  sizeof(*e));
	e = &c->entries[c->nentries++];
	*e = (struct config_entry){
		.wl = w->wl,
		.section = xstrdup(w->sec->label),
		.line = w->sec->line,
		.nkv = nargs,
		.kv = kv,
		.canon = canon,
		.set = w->set,
		.nuser = w->nuser,
		.user = xcalloc(w->nuser + 1, sizeof(char *)),
		.prepare = entry_hook(w, w->prepare, kv),
		.cleanup = entry_hook(w, w->cleanup, kv),
		.prepare_timeout_s = w->prepare_timeout_s,
		.primary = entry_primary(w, a),
	};
	memcpy(e->user, kv + nargs, w->nuser * sizeof(char *));
	entry_directions(w, e);
	e->set.runtime_s = a->runtime_s;
	e->set.jobs = a->jobs;
	e->set.timeout_s = timeout;
}

/* Builds, checks and keeps one configuration: one value of each axis. */
static void wsec_entry(struct wsec *w, const size_t *pick)
{
	char **kv = xcalloc(w->naxes, sizeof(*kv)), err[512] = "", *canon;
	const size_t nargs = w->naxes - w->nuser;
	struct wl_args a;
	double timeout;
	size_t i;

	for (i = 0; i < w->naxes; i++)
		kv[i] = xasprintf("%s=%s", wsec_axis(w, i)->key,
				  wsec_axis(w, i)->vals[pick[i]]);
	/*
	 * The identity keeps {NAME} as written: the user parameters say
	 * what it stood for, and a compare across one of them (x@n=1 vs
	 * x@n=2) then matches argv too.
	 */
	canon = canon_of(kv, w->naxes);
	substitute_kv(w, kv, nargs);
	if (args_from_kv(w->wl, nargs, kv, &a, err, sizeof(err))) {
		entry_error(w, err);
		goto fail;
	}
	if (w->wl->validate && w->wl->validate(&a, err, sizeof(err))) {
		entry_error(w, err);
		goto fail_args;
	}
	timeout = entry_timeout(w, &a);
	if (timeout < 0)
		goto fail_args;
	entry_add(w->L->c, w, kv, canon, &a, timeout);
	args_release(&a);
	return;
fail_args:
	args_release(&a);
fail:
	free(canon);
	for (i = 0; i < w->naxes; i++)
		free(kv[i]);
	free(kv);
}

/* The Cartesian product, the last axis varying fastest. */
static void wsec_expand(struct wsec *w, size_t count)
{
	size_t *pick = xcalloc(w->naxes, sizeof(*pick)), n, i;

	for (n = 0; n < count && w->L->nerrors < ERRORS_KEPT; n++) {
		wsec_entry(w, pick);
		for (i = w->naxes; i-- > 0;) {
			if (++pick[i] < wsec_axis(w, i)->n)
				break;
			pick[i] = 0;
		}
	}
	free(pick);
}

static void wsec_release(struct wsec *w)
{
	size_t i;

	for (i = 0; w->axes && i < w->wl->nparams + 2 + w->nmembers; i++)
		sweep_free(w->axes[i].vals, w->axes[i].n);
	for (i = 0; w->axes && i < w->nuser; i++)
		sweep_free(w->axes[user_base(w) + i].vals,
			   w->axes[user_base(w) + i].n);
	free(w->axes);
	free(w->order);
	for (i = 0; i < w->nmsgs; i++)
		free(w->msgs[i]);
}

static void workload_load(struct loader *L, const struct section *s)
{
	struct wsec w = { .L = L, .sec = s, .set = L->c->defaults };
	size_t before = L->nerrors, i, count;

	w.wl = workload_of(L, s);
	if (!w.wl)
		return;
	w.axes = xcalloc(user_base(&w) + CONFIG_MAX_USER_PARAMS,
			 sizeof(*w.axes));
	w.prepare_timeout_s = PREPARE_TIMEOUT_S;
	for (i = 0; i < s->nkeys; i++)
		wsec_key(&w, &s->keys[i]);
	check_templates(&w);
	check_runtime_jobs(L, s);
	/* inherited bounds were checked (and reported) in [experiment] */
	if (key_find(s, "min_repetitions") || key_find(s, "max_repetitions"))
		check_repetitions(L, s, &w.set);
	if (L->nerrors == before && !wsec_fill(&w) && !wsec_count(&w, &count))
		wsec_expand(&w, count);
	wsec_release(&w);
}

/* ---- loading ----------------------------------------------------------- */

static void loader_release(struct loader *L)
{
	size_t i, j;

	for (i = 0; i < L->nsecs; i++) {
		for (j = 0; j < L->secs[i].nkeys; j++) {
			free(L->secs[i].keys[j].key);
			free(L->secs[i].keys[j].value);
		}
		free(L->secs[i].keys);
		free(L->secs[i].label);
	}
	free(L->secs);
	for (i = 0; i < L->nmsgs; i++)
		free(L->msgs[i].text);
	free(L->msgs);
}

static bool any_workload(const struct loader *L)
{
	size_t i;

	for (i = 0; i < L->nsecs; i++)
		if (L->secs[i].kind == SEC_WORKLOAD)
			return true;
	return false;
}

/* A NUL byte: a binary file, reported once rather than line by line. */
static int check_binary(struct loader *L)
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

static void parse_sections(struct loader *L)
{
	int rc;

	if (&ini_max_line && ini_max_line < CONFIG_MAX_LINE + 3)
		ini_max_line = CONFIG_MAX_LINE + 3;
	rc = ini_parse_stream(read_line, L, on_pair, L);
	line_done(L);
	/* Every error inih can find is found above; this is a safety net. */
	if (rc && !L->nerrors)
		report(L, rc > 0 ? rc : 0, "the INI parser failed (%d)", rc);
}

/* Loads text (NUL-terminated, owned by c from here on). */
static int config_parse(const char *file, char *text, size_t len,
			struct experiment_config *c)
{
	struct loader L = { .file = file, .text = text, .len = len,
			    .cur = CUR_NONE, .c = c };
	size_t i;
	int ret;

	memset(c, 0, sizeof(*c));
	c->path = xstrdup(file);
	c->text = text;
	L.file = c->path;
	if (!check_binary(&L)) {
		parse_sections(&L);
		experiment_load(&L);
		for (i = 0; i < L.nsecs; i++)
			if (L.secs[i].kind == SEC_WORKLOAD)
				workload_load(&L, &L.secs[i]);
		if (!any_workload(&L))
			report(&L, 0, "no [workload NAME] section: nothing to "
				      "run");
	}
	ret = L.nerrors ? -1 : 0;
	errors_flush(&L);
	loader_release(&L);
	if (ret)
		config_release(c);
	return ret;
}

/* Reads at most CONFIG_MAX_FILE + 1 bytes: enough to know it is too big. */
static int read_fd(const char *path, int fd, char **text, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = xmalloc(cap + 1);
	ssize_t r;

	for (;;) {
		if (n == cap) {
			if (cap > CONFIG_MAX_FILE)
				break;
			cap = 2 * cap > CONFIG_MAX_FILE ? CONFIG_MAX_FILE + 1
							: 2 * cap;
			buf = xrealloc(buf, cap + 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			return error_at(path, 0, "cannot read: %s", strerror(e));
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

int config_load(const char *path, struct experiment_config *c)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	memset(c, 0, sizeof(*c));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return error_at(path, 0, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return error_at(path, 0, "is a directory, not an INI file");
	}
	ret = read_fd(path, fd, &text, &len);
	close(fd);
	if (ret)
		return -1;
	if (len > CONFIG_MAX_FILE) {
		free(text);
		return error_at(path, 0, "file is larger than %d bytes",
				CONFIG_MAX_FILE);
	}
	return config_parse(path, text, len, c);
}

int config_load_buffer(const char *name, const char *text, size_t len,
		       struct experiment_config *c)
{
	char *copy;

	memset(c, 0, sizeof(*c));
	if (len > CONFIG_MAX_FILE)
		return error_at(name, 0, "file is larger than %d bytes",
				CONFIG_MAX_FILE);
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	return config_parse(name, copy, len, c);
}

void config_release(struct experiment_config *c)
{
	size_t i, j;

	for (i = 0; i < c->nentries; i++) {
		struct config_entry *e = &c->entries[i];

		for (j = 0; j < e->nkv; j++)
			free(e->kv[j]);
		free(e->kv);
		for (j = 0; j < e->nuser; j++)
			free(e->user[j]);
		free(e->user);
		for (j = 0; j < e->ndirections; j++)
			free(e->directions[j]);
		free(e->directions);
		free(e->prepare);
		free(e->cleanup);
		free(e->primary);
		free(e->canon);
		free(e->section);
	}
	free(c->entries);
	free(c->path);
	free(c->text);
	free(c->name);
	free(c->offline);
	memset(c, 0, sizeof(*c));
}

/* ---- the plan, for --dry-run ------------------------------------------- */

static void print_runs(const struct run_settings *s, FILE *f)
{
	if (s->repetitions)
		fprintf(f, "%d warm-up + %d", s->warmup, s->repetitions);
	else
		fprintf(f, "%d warm-up + auto %d..%d", s->warmup,
			s->min_repetitions, s->max_repetitions);
}

void config_print(const struct experiment_config *c, FILE *f)
{
	uint64_t warm = 0, measured = 0;
	bool any_auto = false;
	size_t i;

	for (i = 0; i < c->nentries; i++) {
		const struct run_settings *s = &c->entries[i].set;

		warm += (uint64_t)s->warmup;
		measured += (uint64_t)(s->repetitions ? s->repetitions :
							 s->max_repetitions);
		any_auto |= !s->repetitions;
	}
	fprintf(f, "experiment %s (%s)\n", c->name, c->path);
	fprintf(f, "order %s, ", order_names[c->order]);
	if (c->has_seed)
		fprintf(f, "seed %" PRIu64, c->seed);
	else
		fprintf(f, "seed drawn at run time");
	fprintf(f, ", confidence %g\n\n", c->confidence);
	for (i = 0; i < c->nentries; i++) {
		const struct config_entry *e = &c->entries[i];

		fprintf(f, "%4zu  [%s] %s: %s  (", i + 1, e->section,
			e->wl->name, e->canon);
		print_runs(&e->set, f);
		fprintf(f, " runs, timeout %gs)\n", e->set.timeout_s);
	}
	fprintf(f, "\n%zu configurations: %" PRIu64 " warm-up + %s%" PRIu64
		   " measured = %s%" PRIu64 " runs\n", c->nentries, warm,
		any_auto ? "up to " : "", measured, any_auto ? "up to " : "",
		warm + measured);
}

const char *config_primary_metric(const struct config_entry *e)
{
	return e->primary;
}
