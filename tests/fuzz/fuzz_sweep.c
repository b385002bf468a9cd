/*
 * fuzz_sweep.c - libFuzzer target for the sweep grammar.  The first byte
 * picks a parameter (every type, several ranges), the rest is the value.
 * Every value a sweep yields must be canonical: it parses back to itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config.h"
#include "runner/param.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const choices[] = { "threads", "processes", "a..b", NULL };

static const struct param_def params[] = {
	{ "i", PT_INT, "1", 1, 4096, NULL, "" },
	{ "i", PT_INT, "0", -1e6, 1e6, NULL, "" },
	{ "i", PT_INT, "0", -9.3e18, 0, NULL, "" },
	{ "u", PT_U64, "1", 0, 0, NULL, "" },
	{ "u", PT_U64, "1", 1, 1e12, NULL, "" },
	{ "d", PT_DOUBLE, "0", 0, 1, NULL, "" },
	{ "d", PT_DOUBLE, "0", -1e300, 0, NULL, "" },
	{ "t", PT_DURATION, "1s", 0.001, 86400, NULL, "" },
	{ "t", PT_DURATION, "1s", 0, 0, NULL, "" },
	{ "b", PT_BOOL, "no", 0, 0, NULL, "" },
	{ "e", PT_ENUM, "threads", 0, 0, choices, "" },
	{ "s", PT_STRING, "", 0, 0, NULL, "" },
	{ "c", PT_CPUS, "0", 0, 0, NULL, "" },
};

static void check_value(const struct param_def *p, const char *text)
{
	union param_value v;
	char err[512], *again;

	if (param_parse(p, text, &v, err, sizeof(err)))
		abort();
	again = param_format(p, &v);
	if (strcmp(again, text))
		abort();
	free(again);
	if (p->type == PT_STRING || p->type == PT_CPUS)
		free(v.s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct param_def *p;
	char **vals, err[512], *value;
	size_t n, i;

	if (!size)
		return 0;
	p = &params[data[0] % (sizeof(params) / sizeof(params[0]))];
	value = strndup((const char *)data + 1, size - 1);
	if (!value)
		abort();
	if (!sweep_expand(p, value, &vals, &n, err, sizeof(err))) {
		if (!n || n > SWEEP_MAX_VALUES)
			abort();
		for (i = 0; i < n; i++)
			check_value(p, vals[i]);
		sweep_free(vals, n);
	}
	free(value);
	return 0;
}
