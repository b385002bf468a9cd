/*
 * fuzz_param.c - libFuzzer target for the scalar parsers of outside input:
 * durations ("250ms", "1.5m"), cpu lists ("0-3,6"), integers and every
 * typed parameter value.  Each must accept or refuse without a crash; an
 * accepted value must be finite and in range, and its canonical text must
 * read back as exactly the same value (param_format is param_parse's
 * inverse).  The first byte picks the parser.
 */
#include <math.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runner/param.h"
#include "runner/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const levels[] = { "none", "segv", "abort", NULL };

static const struct param_def defs[] = {
	{ "threads", PT_INT, "1", 1, 4096, NULL, "" },
	{ "offset", PT_INT, "0", -1e18, 1e18, NULL, "" },
	{ "jobs", PT_U64, NULL, 1, 0, NULL, "" },
	{ "scale", PT_DOUBLE, "1", 0, 0, NULL, "" },
	{ "runtime", PT_DURATION, "1s", 0.001, 86400, NULL, "" },
	{ "delay", PT_DURATION, "0", 0, 0, NULL, "" },
	{ "flag", PT_BOOL, "no", 0, 0, NULL, "" },
	{ "fault", PT_ENUM, "none", 0, 0, levels, "" },
	{ "name", PT_STRING, "", 0, 0, NULL, "" },
	{ "cpus", PT_CPUS, NULL, 0, 0, NULL, "" },
};
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static int same(const struct param_def *p, const union param_value *a,
		const union param_value *b)
{
	switch (p->type) {
	case PT_INT:
		return a->i == b->i;
	case PT_U64:
		return a->u == b->u;
	case PT_DOUBLE:
	case PT_DURATION:
		/* Bit-exact, but for -0, which is canonically "0". */
		return !memcmp(&a->d, &b->d, sizeof(a->d)) ||
		       (fpclassify(a->d) == FP_ZERO &&
			fpclassify(b->d) == FP_ZERO);
	case PT_BOOL:
		return a->b == b->b;
	case PT_ENUM:
		return a->e == b->e;
	case PT_STRING:
	case PT_CPUS:
		return !strcmp(a->s, b->s);
	}
	return 0;
}

static void in_range(const struct param_def *p, const union param_value *v)
{
	double x;

	if (p->type == PT_INT)
		x = (double)v->i;
	else if (p->type == PT_U64)
		x = (double)v->u;
	else if (p->type == PT_DOUBLE || p->type == PT_DURATION)
		x = v->d;
	else
		return;
	if (!isfinite(x) || x < p->min || (p->max > 0 && x > p->max))
		abort();
}

static void fuzz_value(const struct param_def *p, const char *text)
{
	union param_value v, w;
	char err[256] = "", *canon, *again;

	if (param_parse(p, text, &v, err, sizeof(err))) {
		if (!err[0])
			abort();
		return;
	}
	in_range(p, &v);
	canon = param_format(p, &v);
	if (param_parse(p, canon, &w, err, sizeof(err)) || !same(p, &v, &w))
		abort();
	again = param_format(p, &w);
	if (strcmp(canon, again))
		abort();
	free(again);
	free(canon);
	if (p->type == PT_STRING || p->type == PT_CPUS) {
		free(v.s);
		free(w.s);
	}
}

static void fuzz_duration(const char *text)
{
	double s;

	if (!parse_duration(text, &s) && (!isfinite(s) || s < 0))
		abort();
}

static void fuzz_cpulist(const char *text)
{
	cpu_set_t a, b;
	char *canon;

	if (cpulist_parse(text, &a))
		return;
	canon = cpulist_format(&a);
	if (cpulist_parse(canon, &b) || !CPU_EQUAL(&a, &b))
		abort();
	free(canon);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;
	unsigned pick;

	if (size < 1)
		return 0;
	pick = data[0] % (NDEFS + 2);
	text = strndup((const char *)data + 1, size - 1);
	if (!text)
		abort();
	if (pick < NDEFS)
		fuzz_value(&defs[pick], text);
	else if (pick == NDEFS)
		fuzz_duration(text);
	else
		fuzz_cpulist(text);
	free(text);
	return 0;
}
