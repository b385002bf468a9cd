/*
 * config_load.h - loads an INI file or buffer with its stderr captured,
 * for tests/test_config*.c.  Include after <cmocka.h>.
 */
#ifndef CONTEND_TESTS_CONFIG_LOAD_H
#define CONTEND_TESTS_CONFIG_LOAD_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "runner/config.h"

/* ---- loading with stderr captured -------------------------------------- */

struct load_call {
	const char *path;
	const char *text; /* NULL: config_load(path); else the buffer */
	size_t len;
};

static char *slurp(FILE *f)
{
	long n;
	char *buf;

	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	return buf;
}

/* Runs the load with fd 2 on a temporary file; returns what it printed. */
static char *load_captured(const struct load_call *lc,
			   struct experiment_config *c, int *ret)
{
	FILE *tmp = tmpfile();
	int saved;
	char *out;

	assert_non_null(tmp);
	fflush(stderr);
	saved = dup(2);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), 2) == 2);
	if (lc->text)
		*ret = config_load_buffer(lc->path, lc->text, lc->len, c);
	else
		*ret = config_load(lc->path, c);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	out = slurp(tmp);
	fclose(tmp);
	return out;
}

/* A failed load leaves nothing behind (and ASan finds any leak). */
static void assert_empty(const struct experiment_config *c)
{
	assert_null(c->path);
	assert_null(c->text);
	assert_null(c->name);
	assert_null(c->entries);
	assert_int_equal(c->nentries, 0);
}

#endif
