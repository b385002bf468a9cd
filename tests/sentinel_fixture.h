/*
 * sentinel_fixture.h - what the sentinel's tests share: a kernel log the
 * test queues records in, handed out one a read (sentinel_set_reader),
 * and files of a fake /proc and /sys tree.  Include after cmocka.h.
 */
#ifndef CONTEND_TEST_SENTINEL_FIXTURE_H
#define CONTEND_TEST_SENTINEL_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "lib/util.h"

/* ---- the fake kernel log ---- */

struct fake_log {
	const char *rec[16];
	size_t n, next;
};

static inline ssize_t fake_read(void *arg, char *buf, size_t len)
{
	struct fake_log *l = arg;
	size_t n;

	if (l->next >= l->n)
		return 0;
	n = strlen(l->rec[l->next]);
	if (n > len)
		n = len;
	memcpy(buf, l->rec[l->next++], n);
	return (ssize_t)n;
}

static inline void log_push(struct fake_log *l, const char *rec)
{
	assert_true(l->n < ARRAY_SIZE(l->rec));
	l->rec[l->n++] = rec;
}

/* ---- the fake tree ---- */

static inline void write_file(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s%s", root, rel);
	char *slash = path + strlen(root);
	FILE *f;

	while ((slash = strchr(slash + 1, '/'))) {
		*slash = '\0';
		mkdir(path, 0700);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(path);
}

#endif
