/*
 * param.c - typed parameter values: parse, check against the table's
 * min/max or choices, and print back in one canonical form, so that the
 * INI loader, `contend exec` and `contend list` agree on every value.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "runner/config.h"
#include "runner/param.h"
#include "lib/util.h"

#define QUOTE_MAX ESCAPE_QUOTE_MAX /* lib/escape.h: the one cap */

const char *const param_type_names[] = {
	[PT_INT] = "int",	[PT_U64] = "u64",   [PT_DOUBLE] = "double",
	[PT_DURATION] = "duration", [PT_BOOL] = "bool", [PT_ENUM] = "enum",
	[PT_STRING] = "string", [PT_CPUS] = "cpus",
	[PT_KDELAY] = "kernel delay",
};

const struct param_def harness_params[] = {
	[HARNESS_RUNTIME] = { "runtime", PT_DURATION, "1s", 0.001,
			      CONFIG_MAX_SECONDS, NULL,
			      "fixed time: length of the measured window; the "
			      "run reports ops/s (excludes jobs)" },
	[HARNESS_JOBS] = { "jobs", PT_U64, NULL, 1, 0, NULL,
			   "fixed work: operations per thread or process; the "
			   "run also reports its elapsed time (excludes "
			   "runtime)" },
	[HARNESS_CPUS] = { "cpus", PT_CPUS, NULL, 0, 0, NULL,
			   "cpu list the run is pinned to, e.g. 0-3,6 "
			   "(default: not pinned)" },
	[HARNESS_KDELAY] = { "kernel_delay", PT_KDELAY, NULL, 0, 0, NULL,
			     "TIME@FUNCTION: busy-wait TIME (100ns to 10ms, "
			     "whole ns) "
			     "after each contended kernel lock acquisition "
			     "of the run whose stack holds FUNCTION, "
			     "within per-CPU bounds "
			     "(docs/KLOCK.md; needs BPF); 0: none" },
	[HARNESS_OBSERVER] = { "observer", PT_STRING, NULL, 0, 0, NULL,
			       "a system-wide instrument the runner starts "
			       "before the run and stops after it: none, "
			       "tracefs-lock, perf-lock, bpf, bpftrace, "
			       "klockstat or an [observer NAME] "
			       "(docs/KLOCK.md, \"Observers\")" },
};
const size_t nharness_params = ARRAY_SIZE(harness_params);

void param_clip(char *dst, size_t dstlen, const char *text, size_t max)
{
	escape_clip(dst, dstlen, text, max);
}

static char *trim_dup(const char *s)
{
	const char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	return xstrndup(s, (size_t)(end - s));
}

static bool is_zero(double d)
{
	return fpclassify(d) == FP_ZERO;
}

/* Shortest text that strtod reads back as exactly d. */
static char *format_double(double d)
{
	char buf[64];
	int prec;

	if (is_zero(d))
		d = 0; /* no "-0" */
	for (prec = 1; prec <= 17; prec++) {
		double back;

		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		back = strtod(buf, NULL);
		if (!(back < d) && !(back > d)) /* exactly equal, no NaN here */
			break;
	}
	/* 1e+06 reads worse than 1000000 where the integer is exact. */
	if (strchr(buf, 'e') && fabs(d) >= 1 && fabs(d) < 1e17 &&
	    is_zero(fmod(d, 1.0)))
		snprintf(buf, sizeof(buf), "%.0f", d);
	return xstrdup(buf);
}

/* A duration the way a person writes it: 0.001 -> "1ms", 86400 -> "24h". */
static char *format_duration(double s)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {
		{ "h", 3600 }, { "m", 60 },    { "s", 1 },
		{ "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		double q = s / units[i].scale;

		if (s >= units[i].scale && fabs(q - round(q)) <= 1e-9 * q) {
			char *n = format_double(round(q));
			char *r = xasprintf("%s%s", n, units[i].unit);

			free(n);
			return r;
		}
	}
	{
		char *n = format_double(s), *r = xasprintf("%ss", n);

		free(n);
		return r;
	}
}

static bool has_max(const struct param_def *p)
{
	return !is_zero(p->max);
}

/* Durations without a declared maximum still stop at the 24 h limit. */
static double effective_max(const struct param_def *p)
{
	if (has_max(p))
		return p->max;
	return p->type == PT_DURATION ? CONFIG_MAX_SECONDS : 0;
}

static bool out_of_range(const struct param_def *p, double x)
{
	double max = effective_max(p);

	return x < p->min || (!is_zero(max) && x > max);
}

static char *join_choices(const char *const *choices, const char *sep)
{
	size_t len = 1, i;
	char *s;

	for (i = 0; choices && choices[i]; i++)
		len += strlen(choices[i]) + strlen(sep);
	s = xcalloc(1, len);
	for (i = 0; choices && choices[i]; i++) {
		if (i)
			strcat(s, sep);
		strcat(s, choices[i]);
	}
	return s;
}

char *param_describe_range(const struct param_def *p)
{
	char *lo, *hi, *r, *words;
	double max = effective_max(p);
	char *(*fmt)(double) =
		p->type == PT_DURATION ? format_duration : format_double;

	switch (p->type) {
	case PT_BOOL:
		return xstrdup("yes | no");
	case PT_ENUM:
		return join_choices(p->choices, " | ");
	case PT_STRING:
		return xstrdup("text");
	case PT_CPUS:
		return xstrdup("cpu list");
	case PT_KDELAY:
		return xstrdup("TIME@FUNCTION | 0");
	default:
		break;
	}
	lo = fmt(p->min);
	hi = is_zero(max) ? NULL : fmt(max);
	words = join_choices(p->type == PT_DURATION || p->type == PT_INT ?
			     p->choices : NULL, " | ");
	if (hi)
		r = xasprintf("%s%s%s .. %s", words, *words ? " | " : "", lo,
			      hi);
	else
		r = xasprintf("%s%s>= %s", words, *words ? " | " : "", lo);
	free(words);
	free(lo);
	free(hi);
	return r;
}

char *param_describe_default(const struct param_def *p)
{
	if (param_is_family(p))
		return xstrdup("optional, any number");
	if (!p->def)
		return xstrdup("-");
	if (!*p->def)
		return xstrdup("\"\"");
	return xstrdup(p->def);
}

static int range_fail(const struct param_def *p, const char *t, char *err,
		      size_t errlen)
{
	char q[QUOTE_MAX + 4], *r = param_describe_range(p);

	param_clip(q, sizeof(q), t, QUOTE_MAX);
	error_buf(err, errlen, "%s: %s is out of range (%s)", p->name, q, r);
	free(r);
	return -1;
}

/* An optional sign and digits only: a number too large, not a typo. */
static bool is_integer_text(const char *t)
{
	if (*t == '-' || *t == '+')
		t++;
	if (!*t)
		return false;
	while (isdigit((unsigned char)*t))
		t++;
	return !*t;
}

/*
 * An integer parse_ll/parse_u64 refused although it is all digits: past
 * 64 bits, or negative for a u64.  With no maximum "out of range (>= 1)"
 * would not say what is wrong with 99999999999999999999.
 */
static int too_wide(const struct param_def *p, const char *t, char *err,
		    size_t errlen)
{
	char q[QUOTE_MAX + 4];

	if (*t == '-' || has_max(p))
		return range_fail(p, t, err, errlen);
	param_clip(q, sizeof(q), t, QUOTE_MAX);
	return error_buf(err, errlen, "%s: %s does not fit in 64 bits", p->name,
			 q);
}

static int malformed(const struct param_def *p, const char *t,
		     const char *what, char *err, size_t errlen)
{
	char q[QUOTE_MAX + 4];

	param_clip(q, sizeof(q), t, QUOTE_MAX);
	return error_buf(err, errlen, "%s: '%s' is not %s", p->name, q, what);
}

/* A row's word (PT_INT, PT_DURATION): choices[k] is parsed as -(k + 1). */
static bool row_word(const struct param_def *p, const char *t, double *x)
{
	size_t k;

	for (k = 0; p->choices && p->choices[k]; k++)
		if (!strcmp(t, p->choices[k])) {
			*x = -(double)(k + 1);
			return true;
		}
	return false;
}

static int parse_int_value(const struct param_def *p, const char *t,
			   union param_value *v, char *err, size_t errlen)
{
	long long x;
	double w;

	if (row_word(p, t, &w)) {
		v->i = (long long)w;
		return 0;
	}
	if (parse_ll(t, &x)) {
		char *words = join_choices(p->choices, ", ");
		char *what = xasprintf("an integer%s%s", *words ? " or " : "",
				       words);
		int ret;

		if (is_integer_text(t))
			ret = too_wide(p, t, err, errlen);
		else
			ret = malformed(p, t, what, err, errlen);
		free(what);
		free(words);
		return ret;
	}
	if (out_of_range(p, (double)x))
		return range_fail(p, t, err, errlen);
	v->i = x;
	return 0;
}

static int parse_u64_value(const struct param_def *p, const char *t,
			   union param_value *v, char *err, size_t errlen)
{
	uint64_t x;

	if (parse_u64(t, &x)) {
		if (is_integer_text(t))
			return too_wide(p, t, err, errlen);
		return malformed(p, t, "an unsigned integer", err, errlen);
	}
	if (out_of_range(p, (double)x))
		return range_fail(p, t, err, errlen);
	v->u = x;
	return 0;
}

static int parse_double_value(const struct param_def *p, const char *t,
			      union param_value *v, char *err, size_t errlen)
{
	double x;

	if (parse_double(t, &x))
		return malformed(p, t, "a number", err, errlen);
	if (out_of_range(p, x))
		return range_fail(p, t, err, errlen);
	v->d = x;
	return 0;
}

/* A PT_DURATION or PT_INT row's word (choices[k] stands for -(k + 1)),
 * or NULL. */
static const char *duration_word(const struct param_def *p, double d)
{
	size_t k;

	for (k = 0; d < 0 && p->choices && p->choices[k]; k++)
		if (is_zero(d + (double)(k + 1)))
			return p->choices[k];
	return NULL;
}

static int parse_duration_value(const struct param_def *p, const char *t,
				union param_value *v, char *err, size_t errlen)
{
	double x;

	if (row_word(p, t, &v->d))
		return 0;
	if (parse_duration(t, &x) || !isfinite(x)) {
		char *words = join_choices(p->choices, ", ");
		char *what = xasprintf("a duration (a number with a unit: ns, "
				       "us, ms, s, m, h)%s%s", *words ? " or " :
				       "", words);
		int ret = malformed(p, t, what, err, errlen);

		free(what);
		free(words);
		return ret;
	}
	if (out_of_range(p, x))
		return range_fail(p, t, err, errlen);
	v->d = x;
	return 0;
}

static int parse_bool_value(const struct param_def *p, const char *t,
			    union param_value *v, char *err, size_t errlen)
{
	int b;

	if (parse_bool(t, &b))
		return malformed(p, t,
				 "a boolean (yes/no, true/false, on/off, 1/0)",
				 err, errlen);
	v->b = b;
	return 0;
}

static int parse_enum_value(const struct param_def *p, const char *t,
			    union param_value *v, char *err, size_t errlen)
{
	char q[QUOTE_MAX + 4], hint[SUGGEST_MAX], *all;
	size_t n;

	for (n = 0; p->choices && p->choices[n]; n++) {
		if (!strcmp(t, p->choices[n])) {
			v->e = (int)n;
			return 0;
		}
	}
	param_clip(q, sizeof(q), t, QUOTE_MAX);
	all = join_choices(p->choices, ", ");
	suggest_hint(hint, sizeof(hint), t, p->choices, n, NULL, NULL);
	error_buf(err, errlen, "%s: unknown value '%s'%s (choices: %s)",
		  p->name, q, hint, all);
	free(all);
	return -1;
}

static int parse_string_value(const struct param_def *p, const char *t,
			      union param_value *v, char *err, size_t errlen)
{
	(void)p;
	(void)err;
	(void)errlen;
	v->s = xstrdup(t);
	return 0;
}

static void skip_blanks(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

/* Reads a cpu number; values past CPU_SETSIZE saturate (range-checked). */
static bool read_cpu(const char **p, unsigned long *cpu)
{
	const char *s = *p;
	unsigned long v = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++)
		v = v > CPU_SETSIZE ? v : v * 10 + (unsigned long)(*s - '0');
	*p = s;
	*cpu = v;
	return true;
}

/* One "N" or "N-M" item of a cpu list into set. */
static int cpulist_item(const char **p, cpu_set_t *set, char *err,
			size_t errlen)
{
	unsigned long lo, hi, c;

	skip_blanks(p);
	if (!read_cpu(p, &lo))
		return error_buf(err, errlen, "expected a cpu number");
	hi = lo;
	skip_blanks(p);
	if (**p == '-') {
		(*p)++;
		skip_blanks(p);
		if (!read_cpu(p, &hi))
			return error_buf(err, errlen,
					 "expected a cpu number after "
					 "'-'");
	}
	if (hi >= CPU_SETSIZE)
		return error_buf(
			err, errlen, "cpu %s%lu is out of range (0 .. %d)",
			hi > CPU_SETSIZE ? "above " : "",
			hi > CPU_SETSIZE ? (unsigned long)CPU_SETSIZE : hi,
			CPU_SETSIZE - 1);
	if (hi < lo)
		return error_buf(err, errlen, "reversed range %lu-%lu", lo, hi);
	for (c = lo; c <= hi; c++)
		CPU_SET(c, set);
	skip_blanks(p);
	return 0;
}

static int cpulist_scan(const char *text, cpu_set_t *set, char *err,
			size_t errlen)
{
	const char *p = text;

	CPU_ZERO(set);
	for (;;) {
		if (cpulist_item(&p, set, err, errlen))
			return -1;
		if (!*p)
			return 0;
		if (*p != ',')
			return error_buf(err, errlen, "unexpected '%c'", *p);
		p++;
	}
}

int cpulist_parse(const char *text, cpu_set_t *set)
{
	char err[128];

	return cpulist_scan(text, set, err, sizeof(err));
}

char *cpulist_format(const cpu_set_t *set)
{
	/* Worst case "0,2,4,...": under 5 bytes per cpu. */
	char *s = xcalloc(CPU_SETSIZE, 5);
	size_t len = 0;
	int c = 0;

	while (c < CPU_SETSIZE) {
		int lo;

		if (!CPU_ISSET(c, set)) {
			c++;
			continue;
		}
		for (lo = c; c + 1 < CPU_SETSIZE && CPU_ISSET(c + 1, set); c++)
			;
		len += (size_t)sprintf(s + len, "%s%d", len ? "," : "", lo);
		if (c > lo)
			len += (size_t)sprintf(s + len, "-%d", c);
		c++;
	}
	return s;
}

static int parse_cpus_value(const struct param_def *p, const char *t,
			    union param_value *v, char *err, size_t errlen)
{
	char why[128], q[QUOTE_MAX + 4];
	cpu_set_t set;

	if (cpulist_scan(t, &set, why, sizeof(why))) {
		param_clip(q, sizeof(q), t, QUOTE_MAX);
		return error_buf(err, errlen,
				 "%s: bad cpu list '%s': %s (write "
				 "cpus like 0-3,6)",
				 p->name, q, why);
	}
	v->s = cpulist_format(&set);
	return 0;
}

/*
 * kernel_delay: "0" (none) or TIME@FUNCTION, TIME a whole number of
 * nanoseconds from KDELAY_MIN_S to KDELAY_MAX_S, FUNCTION a kernel
 * symbol's name; kept as "TIME@FUNCTION" with TIME in its shortest unit.
 */
static int parse_kdelay_value(const struct param_def *p, const char *t,
			      union param_value *v, char *err, size_t errlen)
{
	char q[QUOTE_MAX + 4], *time, *dur;
	const char *at = strchr(t, '@'), *f;
	double s;
	int bad;

	if (!strcmp(t, "0") || !strcmp(t, "none")) {
		v->s = xstrdup("0");
		return 0;
	}
	param_clip(q, sizeof(q), t, QUOTE_MAX);
	if (!at || !at[1] || at - t > 64 || strlen(at + 1) > 127)
		return error_buf(err, errlen, "%s: '%s' is not TIME@FUNCTION "
				 "(e.g. 1ms@do_unlinkat) or 0", p->name, q);
	for (f = at + 1; *f; f++)
		if (!isalnum((unsigned char)*f) && *f != '_' && *f != '.')
			return error_buf(err, errlen, "%s: '%s': FUNCTION is a "
					 "kernel function's name (letters, "
					 "digits, _ and .)", p->name, q);
	time = xstrndup(t, (size_t)(at - t));
	bad = parse_duration(time, &s) || !isfinite(s);
	free(time);
	if (bad || s <= 0 || s > KDELAY_MAX_S)
		return error_buf(err, errlen, "%s: '%s': TIME is a duration "
				 "above 0 and at most 10ms", p->name, q);
	if (s < KDELAY_MIN_S)
		return error_buf(err, errlen, "%s: '%s': TIME is below 100ns, "
				 "shorter than the delay loop's own clock "
				 "reads", p->name, q);
	/* the program's unit (within a decimal's error as a double) */
	if (fabs(s * 1e9 - nearbyint(s * 1e9)) > s)
		return error_buf(err, errlen, "%s: '%s': TIME is not a whole "
				 "number of nanoseconds, the program's unit",
				 p->name, q);
	dur = format_duration(s);
	v->s = xasprintf("%s@%s", dur, at + 1);
	free(dur);
	return 0;
}

typedef int (*parse_fn)(const struct param_def *p, const char *t,
			union param_value *v, char *err, size_t errlen);

static const parse_fn parsers[] = {
	[PT_INT] = parse_int_value,	      [PT_U64] = parse_u64_value,
	[PT_DOUBLE] = parse_double_value,     [PT_DURATION] = parse_duration_value,
	[PT_BOOL] = parse_bool_value,	      [PT_ENUM] = parse_enum_value,
	[PT_STRING] = parse_string_value,     [PT_CPUS] = parse_cpus_value,
	[PT_KDELAY] = parse_kdelay_value,
};

int param_parse(const struct param_def *p, const char *text,
		union param_value *v, char *err, size_t errlen)
{
	char *t = trim_dup(text);
	int ret;

	if ((unsigned)p->type >= ARRAY_SIZE(parsers))
		ret = error_buf(err, errlen, "%s: unknown parameter type",
				p->name);
	else if (!*t && p->type != PT_STRING)
		ret = error_buf(err, errlen, "%s: empty value", p->name);
	else
		ret = parsers[p->type](p, t, v, err, errlen);
	free(t);
	return ret;
}

char *param_format(const struct param_def *p, const union param_value *v)
{
	switch (p->type) {
	case PT_INT:
		if (duration_word(p, (double)v->i))
			return xstrdup(duration_word(p, (double)v->i));
		return xasprintf("%lld", v->i);
	case PT_U64:
		return xasprintf("%" PRIu64, v->u);
	case PT_DURATION:
		if (duration_word(p, v->d))
			return xstrdup(duration_word(p, v->d));
		return format_double(v->d);
	case PT_DOUBLE:
		return format_double(v->d);
	case PT_BOOL:
		return xstrdup(v->b ? "yes" : "no");
	case PT_ENUM:
		return xstrdup(p->choices[v->e]);
	case PT_STRING:
	case PT_CPUS:
	case PT_KDELAY:
		return xstrdup(v->s ? v->s : "");
	}
	return xstrdup("");
}

bool param_holds_string(enum param_type t)
{
	return t == PT_STRING || t == PT_CPUS || t == PT_KDELAY;
}
