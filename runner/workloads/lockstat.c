/*
 * lockstat.c - /proc/lock_stat snapshots and their deltas as metrics.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/readfile.h"
#include "lib/util.h"
#include "runner/workloads/lockstat.h"

#define LOCKSTAT_PATH "/proc/lock_stat"
/* The file is one line per class and a few per contention point. */
#define LOCKSTAT_MAX_BYTES (64u << 20)

/*
 * The numeric columns after the class name: at least con-bounces and
 * contentions, and nothing but numbers.  Returns contentions via *out.
 */
static int parse_columns(const char *s, uint64_t *out)
{
	unsigned count = 0;
	uint64_t contentions = 0;

	for (;;) {
		char *end;
		double v;

		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		errno = 0;
		v = strtod(s, &end);
		if (end == s || errno || !isfinite(v) || v < 0)
			return -1;
		if (++count == 2)
			contentions = (uint64_t)v;
		s = end;
	}
	if (count < 2)
		return -1;
	*out = contentions;
	return 0;
}

/*
 * One line: "   NAME: n n n ...".  The name may contain anything but ends
 * at the last ':' (the columns hold no ':').
 */
static int parse_line(const char *line, size_t len, struct lockstat_class *c)
{
	char *copy = xstrndup(line, len), *colon, *name;
	int ret = -1;

	colon = strrchr(copy, ':');
	if (!colon)
		goto out;
	*colon = '\0';
	if (parse_columns(colon + 1, &c->contentions))
		goto out;
	for (name = copy; isspace((unsigned char)*name); name++)
		;
	if (!*name)
		goto out;
	c->name = xstrdup(name);
	ret = 0;
out:
	free(copy);
	return ret;
}

size_t lockstat_parse(const char *text, struct lockstat *ls)
{
	size_t cap = 0;

	ls->n = 0;
	ls->classes = NULL;
	while (*text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		struct lockstat_class c;

		if (!parse_line(text, len, &c)) {
			if (ls->n == cap) {
				cap = cap ? 2 * cap : 64;
				ls->classes = xrealloc(ls->classes,
						       cap * sizeof(c));
			}
			ls->classes[ls->n++] = c;
		}
		text += len + (nl != NULL);
	}
	return ls->n;
}

size_t lockstat_read(struct lockstat *ls)
{
	char *text;

	ls->n = 0;
	ls->classes = NULL;
	readfile_at(AT_FDCWD, LOCKSTAT_PATH, LOCKSTAT_MAX_BYTES, &text, NULL);
	if (!text)
		return 0;
	lockstat_parse(text, ls);
	free(text);
	return ls->n;
}

void lockstat_release(struct lockstat *ls)
{
	size_t i;

	for (i = 0; i < ls->n; i++)
		free(ls->classes[i].name);
	free(ls->classes);
	ls->n = 0;
	ls->classes = NULL;
}

void lockstat_metric_name(const char *cls, char *out, size_t outlen)
{
	static const char prefix[] = "lockstat_";
	size_t len = sizeof(prefix) - 1;

	if (outlen <= len) {
		if (outlen)
			out[0] = '\0';
		return;
	}
	memcpy(out, prefix, len);
	/* Runs of other characters become one '_'; none leads or trails. */
	for (; *cls && len + 1 < outlen; cls++) {
		unsigned char ch = (unsigned char)*cls;

		if (isalnum(ch) || ch == '_') {
			if (ch == '_' && out[len - 1] == '_')
				continue;
			out[len++] = (char)ch;
		} else if (out[len - 1] != '_') {
			out[len++] = '_';
		}
	}
	while (len > sizeof(prefix) - 1 && out[len - 1] == '_')
		len--;
	out[len] = '\0';
}

struct delta {
	const char *name;
	uint64_t grew;
};

static int by_growth(const void *a, const void *b)
{
	const struct delta *x = a, *y = b;

	if (x->grew != y->grew)
		return x->grew < y->grew ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Contentions of a class in a snapshot; 0 when it was not there yet. */
static uint64_t contentions_of(const struct lockstat *ls, const char *name)
{
	size_t i;

	for (i = 0; i < ls->n; i++)
		if (!strcmp(ls->classes[i].name, name))
			return ls->classes[i].contentions;
	return 0;
}

size_t lockstat_report(struct result *r, const struct lockstat *before,
		       const struct lockstat *after, size_t k)
{
	struct delta *d = xcalloc(after->n, sizeof(*d));
	size_t nd = 0, i, added = 0;

	for (i = 0; i < after->n; i++) {
		uint64_t was = contentions_of(before, after->classes[i].name);
		uint64_t now = after->classes[i].contentions;

		/* A counter that fell was reset (echo 0 > /proc/lock_stat). */
		if (now > was)
			d[nd++] = (struct delta){ after->classes[i].name,
						  now - was };
	}
	qsort(d, nd, sizeof(*d), by_growth);
	for (i = 0; i < nd && i < k; i++) {
		char name[METRIC_NAME_MAX];
		double v;

		lockstat_metric_name(d[i].name, name, sizeof(name));
		v = result_value(r, name);
		if (!isnan(v)) {
			result_add(r, name, v + (double)d[i].grew);
			continue;
		}
		if (!result_add(r, name, (double)d[i].grew))
			added++;
	}
	free(d);
	return added;
}
