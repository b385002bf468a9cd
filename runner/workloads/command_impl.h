/*
 * command_impl.h - what command.c (running the program) and command_extract.c
 * (its metrics out of its output) share; private to those two files.
 */
#ifndef CONTEND_COMMAND_IMPL_H
#define CONTEND_COMMAND_IMPL_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "runner/workload.h"

#define COMMAND_TAIL_LINES 4 /* output lines quoted when a regex fails */

/* The rows of command's parameter table. */
enum {
	P_ARGV, P_SHELL, P_ENV, P_METRIC, P_SCALE, P_CONTENTION, P_CSCALE,
	P_OK_STATUS, P_METRICS, P_SCALES, P_NPARAMS
};

/* One regex to apply: which key it came from and what it yields. */
struct extract {
	const char *key;
	char name[METRIC_NAME_MAX];
	char *re;
	double scale;
	regex_t rx;
	bool compiled;
};

struct extracts {
	size_t n;
	struct extract e[2 + WL_MAX_MEMBERS];
};

/* The text of string parameter i, "" when unset. */
static inline const char *command_str(const struct wl_args *a, int i)
{
	return a->v[i].s ? a->v[i].s : "";
}

/*
 * The regexes of a configuration, compiled: 0, or -1 with err and *key
 * the key whose regex failed.
 */
int extracts_build(const struct wl_args *a, struct extracts *x,
		   const char **key, char *err, size_t errlen);
/* Every regex over out[0..len-1] (NUL-terminated, modified in place). */
int extracts_apply(const struct extracts *x, char *out, size_t len,
		   struct result *r);
void extracts_release(struct extracts *x);
/* The last lines of the output, printable, for an error message. */
void tail_lines(const char *buf, size_t len, char *out, size_t outlen);

#endif
