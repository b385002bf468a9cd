/*
 * fuzz_param.c - libFuzzer target for the value parsers: durations, cpu
 * lists, every parameter type, and exec's key=value argument lists.  The
 * first byte picks which; canonical text must be a fixed point of
 * parse -> format, and a cpu set must survive format -> parse.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/param.h"
#include "lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const choices[] = { "none", "segv", "abort", NULL };

static const struct param_def params[] = {
	{ "i", PT_INT, "1", -10, 100, NULL, "" },
	{ "i", PT_INT, "0", 0, 0, NULL, "" },
	{ "u", PT_U64, "1", 1, 0, NULL, "" },
	{ "d", PT_DOUBLE, "0", 0, 1, NULL, "" },
	{ "d", PT_DOUBLE, "0", -1e308, 0, NULL, "" },
	{ "t", PT_DURATION, "1s", 0.001, 86400, NULL, "" },
	{ "b", PT_BOOL, "no", 0, 0, NULL, "" },
	{ "e", PT_ENUM, "none", 0, 0, choices, "" },
	{ "s", PT_STRING, "", 0, 0, NULL, "" },
	{ "c", PT_CPUS, "0", 0, 0, NULL, "" },
};
#define NPARAMS (sizeof(params) / sizeof(params[0]))

static void fuzz_duration(const char *s)
{
	double d;

	if (!parse_duration(s, &d) && (d < 0 || isnan(d)))
		abort();
}

static void fuzz_cpulist(const char *s)
{
	cpu_set_t set, back;
	char *text;

	if (cpulist_parse(s, &set))
		return;
	text = cpulist_format(&set);
	if (cpulist_parse(text, &back) || !CPU_EQUAL(&set, &back))
		abort();
	free(text);
}

static void fuzz_value(const struct param_def *p, const char *s)
{
	union param_value v, back;
	char err[512], *text, *again;

	if (param_parse(p, s, &v, err, sizeof(err)))
		return;
	text = param_format(p, &v);
	if (param_parse(p, text, &back, err, sizeof(err)))
		abort();
	again = param_format(p, &back);
	if (strcmp(text, again))
		abort();
	free(text);
	free(again);
	if (p->type == PT_STRING || p->type == PT_CPUS) {
		free(v.s);
		free(back.s);
	}
}

/* Newline-separated key=value items, as exec receives them in argv. */
static void fuzz_args(const char *s)
{
	const struct workload *wl = workload_find("paramtest");
	char *copy = strdup(s), *kv[16], *save = NULL, *tok, err[512];
	struct wl_args a;
	size_t n = 0;

	if (!wl || !copy)
		abort();
	for (tok = strtok_r(copy, "\n", &save); tok && n < 16;
	     tok = strtok_r(NULL, "\n", &save))
		kv[n++] = tok;
	if (!args_from_kv(wl, n, kv, &a, err, sizeof(err)))
		args_release(&a);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned pick;
	char *s;

	if (!size)
		return 0;
	pick = data[0] % (NPARAMS + 3);
	s = strndup((const char *)data + 1, size - 1);
	if (!s)
		abort();
	if (pick == NPARAMS)
		fuzz_duration(s);
	else if (pick == NPARAMS + 1)
		fuzz_cpulist(s);
	else if (pick == NPARAMS + 2)
		fuzz_args(s);
	else
		fuzz_value(&params[pick], s);
	free(s);
	return 0;
}
