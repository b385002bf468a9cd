/*
 * fuzz_sweep.c - libFuzzer target for sweep values ("1, 2, 4", "1..16:2",
 * "1..64*2", "0-3,6" ...): the first byte picks a parameter of each type,
 * the rest is the INI value.  Any value expands or fails with a message;
 * an expansion holds 1..SWEEP_MAX_VALUES distinct values, each in the
 * canonical form param_parse accepts and param_format gives back unchanged.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config.h"
#include "runner/param.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const modes[] = { "threads", "processes", NULL };

static const struct param_def defs[] = {
	{ "threads", PT_INT, "1", 1, 4096, NULL, "" },
	{ "delta", PT_INT, "0", -1000000, 1000000, NULL, "" },
	{ "jobs", PT_U64, NULL, 1, 0, NULL, "" },
	{ "ratio", PT_DOUBLE, "0.5", 0, 1, NULL, "" },
	{ "runtime", PT_DURATION, "1s", 0.001, 86400, NULL, "" },
	{ "spin", PT_BOOL, "no", 0, 0, NULL, "" },
	{ "mode", PT_ENUM, "threads", 0, 0, modes, "" },
	{ "argv", PT_STRING, "", 0, 0, NULL, "" },
	{ "cpus", PT_CPUS, NULL, 0, 0, NULL, "" },
};

static void check_value(const struct param_def *p, const char *text)
{
	union param_value v;
	char err[256], *back;

	if (param_parse(p, text, &v, err, sizeof(err)))
		abort();
	back = param_format(p, &v);
	if (strcmp(back, text))
		abort();
	free(back);
	if (p->type == PT_STRING || p->type == PT_CPUS)
		free(v.s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct param_def *p;
	char err[256], *text, **vals = NULL;
	size_t n = 0, i;

	if (size < 1)
		return 0;
	p = &defs[data[0] % (sizeof(defs) / sizeof(defs[0]))];
	text = strndup((const char *)data + 1, size - 1);
	if (!text)
		abort();
	err[0] = '\0';
	if (sweep_expand(p, text, &vals, &n, err, sizeof(err))) {
		if (!err[0])
			abort(); /* a failure must say why */
		free(text);
		return 0;
	}
	if (n < 1 || n > SWEEP_MAX_VALUES)
		abort();
	for (i = 0; i < n; i++) {
		check_value(p, vals[i]);
		if (i && !strcmp(vals[i - 1], vals[i]))
			abort();
	}
	sweep_free(vals, n);
	free(text);
	return 0;
}
