/*
 * fuzz_command.c - libFuzzer target for what the command workload takes
 * from outside: its argv/env word splitting, and metric extraction by
 * regex from a benchmark's output.  Input: line 1 the metric regex, line
 * 2 "NAME = REGEX", given as the key metric.NAME = REGEX, the rest the
 * command's output (NULs and all).  Splitting must give NUL-terminated words or fail; extraction must
 * give finite metrics or fail with a reason, never crash.
 */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/proc.h"
#include "runner/param.h"
#include "runner/workload.h"
#include "runner/workloads/workloads.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The next line of data as a C string (malloc'd); advances *p. */
static char *take_line(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *nl = memchr(*p, '\n', (size_t)(end - *p));
	const uint8_t *stop = nl ? nl : end;
	char *s = strndup((const char *)*p, (size_t)(stop - *p));

	if (!s)
		abort();
	*p = nl ? nl + 1 : end;
	return s;
}

static void fuzz_split(const char *s)
{
	char err[128] = "", **argv;
	size_t n, i;

	if (proc_split(s, &argv, &n, err, sizeof(err))) {
		if (!err[0])
			abort();
		return;
	}
	for (i = 0; i < n; i++)
		if (!argv[i])
			abort();
	if (argv[n])
		abort();
	proc_argv_free(argv);
}

static void fuzz_extract(char *metric, char *metric1, const uint8_t *out,
			 size_t len)
{
	char argv_kv[] = "argv=true", *kv[] = { argv_kv, metric, metric1 };
	struct wl_args a;
	struct result r;
	char err[256], *buf;
	size_t i;

	if (args_from_kv(&command_workload, 3, kv, &a, err, sizeof(err)))
		return;
	buf = malloc(len + 1);
	if (!buf)
		abort();
	memcpy(buf, out, len);
	buf[len] = '\0';
	result_init(&r);
	if (command_extract(&a, buf, len, &r)) {
		if (!r.error[0])
			abort();
	} else {
		for (i = 0; i < r.nmetrics; i++)
			if (!isfinite(r.metrics[i].value))
				abort();
	}
	result_release(&r);
	free(buf);
	args_release(&a);
}

/* "NAME = REGEX" -> "metric.NAME=REGEX" (blanks around '=' dropped). */
static void member_kv(char *dst, const char *line)
{
	const char *eq = strchr(line, '='), *end;

	strcpy(dst, "metric.");
	if (!eq) {
		strcat(dst, line);
		return;
	}
	for (end = eq; end > line && isspace((unsigned char)end[-1]);)
		end--;
	strncat(dst, line, (size_t)(end - line));
	strcat(dst, "=");
	for (eq++; isspace((unsigned char)*eq); eq++)
		;
	strcat(dst, eq);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	char *re = take_line(&p, end), *re1 = take_line(&p, end);
	char *metric = malloc(strlen(re) + 8);
	char *metric1 = malloc(strlen(re1) + 9);

	if (!metric || !metric1)
		abort();
	fuzz_split(re);
	/* Long regexes only test glibc's regcomp, and slowly. */
	if (strlen(re) < 80 && strlen(re1) < 80 && size - (size_t)(p - data) < 8192) {
		strcpy(metric, "metric=");
		strcat(metric, re);
		member_kv(metric1, re1);
		fuzz_extract(metric, metric1, p, (size_t)(end - p));
	}
	free(metric);
	free(metric1);
	free(re);
	free(re1);
	return 0;
}
