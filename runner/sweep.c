/*
 * sweep.c - the sweep grammar of one INI value: "1, 2, 4", "1..16",
 * "1..16:2", "1..64*2", "threads, processes".  Every value it yields has
 * been through param_parse, so a sweep is typed and range-checked as a
 * whole before a single configuration exists.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "runner/config.h"
#include "runner/param.h"
#include "lib/util.h"

#define QUOTE_MAX ESCAPE_QUOTE_MAX /* lib/escape.h: the one cap */
/*
 * Signed bounds are mapped to unsigned by flipping the sign bit, which
 * keeps their order, so one piece of unsigned arithmetic (no overflow UB)
 * walks both int and u64 ranges.
 */
#define SIGN_BIT (UINT64_C(1) << 63)

struct vals {
	char **v;
	size_t n, cap;
};

static char *trim_dup(const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	return xstrndup(s, len);
}

static int too_many(const struct param_def *p, char *err, size_t errlen)
{
	return error_buf(err, errlen, "%s: the sweep has more than %d values",
			 p->name, SWEEP_MAX_VALUES);
}

/* Room for more values?  Checked before a range is walked. */
static int vals_room(const struct vals *vs, uint64_t more,
		     const struct param_def *p, char *err, size_t errlen)
{
	if (more > (uint64_t)(SWEEP_MAX_VALUES - vs->n))
		return too_many(p, err, errlen);
	return 0;
}

/* Parses text as one value of p and appends its canonical text. */
static int vals_add(struct vals *vs, const struct param_def *p,
		    const char *text, char *err, size_t errlen)
{
	union param_value v;

	if (vals_room(vs, 1, p, err, errlen))
		return -1;
	if (param_parse(p, text, &v, err, errlen))
		return -1;
	if (vs->n == vs->cap) {
		vs->cap = vs->cap ? 2 * vs->cap : 8;
		vs->v = xrealloc(vs->v, vs->cap * sizeof(*vs->v));
	}
	vs->v[vs->n++] = param_format(p, &v);
	if (param_holds_string(p->type))
		free(v.s);
	return 0;
}

static uint64_t to_biased(const struct param_def *p,
			  const union param_value *v)
{
	return p->type == PT_INT ? (uint64_t)v->i ^ SIGN_BIT : v->u;
}

static char *biased_text(const struct param_def *p, uint64_t b)
{
	if (p->type == PT_INT)
		return xasprintf("%lld", (long long)(b ^ SIGN_BIT));
	return xasprintf("%" PRIu64, b);
}

/* A range bound: a typed, in-range value of p. */
static int range_bound(const struct param_def *p, const char *t,
		       const char *whole, uint64_t *b, char *err,
		       size_t errlen)
{
	union param_value v;

	if (!*t)
		return error_buf(err, errlen, "%s: incomplete range '%s'",
				 p->name, whole);
	if (param_parse(p, t, &v, err, errlen))
		return -1;
	*b = to_biased(p, &v);
	return 0;
}

/* The step after ':' or the factor after '*': a plain integer. */
static int range_increment(const struct param_def *p, char op,
			   const char *t, const char *whole, uint64_t *inc,
			   char *err, size_t errlen)
{
	const char *what = op == ':' ? "step" : "factor";
	long long x;

	if (parse_ll(t, &x))
		return error_buf(err, errlen,
				 "%s: malformed %s '%s' in range '%s'", p->name,
				 what, t, whole);
	if (op == ':' && x <= 0)
		return error_buf(err, errlen,
				 "%s: %s step in range '%s' (the "
				 "step must be at least 1)",
				 p->name, x ? "negative" : "zero", whole);
	if (op == '*' && x < 2)
		return error_buf(err, errlen,
				 "%s: geometric factor %lld in range "
				 "'%s' must be at least 2",
				 p->name, x, whole);
	*inc = (uint64_t)x;
	return 0;
}

static int walk_stepped(struct vals *vs, const struct param_def *p,
			uint64_t lo, uint64_t hi, uint64_t step, char *err,
			size_t errlen)
{
	uint64_t k, count = (hi - lo) / step;

	/* count + 1 values; checked before the + 1 can overflow. */
	if (count >= SWEEP_MAX_VALUES || vals_room(vs, count + 1, p, err,
						   errlen))
		return too_many(p, err, errlen);
	for (k = 0; k <= count; k++) {
		char *t = biased_text(p, lo + k * step);
		int ret = vals_add(vs, p, t, err, errlen);

		free(t);
		if (ret)
			return -1;
	}
	return 0;
}

static int walk_geometric(struct vals *vs, const struct param_def *p,
			  uint64_t lo, uint64_t hi, uint64_t factor,
			  const char *whole, char *err, size_t errlen)
{
	uint64_t v;

	/* Geometric ranges need positive values: back to plain numbers. */
	if (p->type == PT_INT) {
		if (lo <= SIGN_BIT)
			return error_buf(err, errlen,
					 "%s: geometric range '%s' "
					 "must start at 1 or more",
					 p->name, whole);
		lo ^= SIGN_BIT;
		hi ^= SIGN_BIT;
	} else if (lo == 0) {
		return error_buf(err, errlen,
				 "%s: geometric range '%s' must start "
				 "at 1 or more",
				 p->name, whole);
	}
	for (v = lo;; v *= factor) {
		char *t = xasprintf("%" PRIu64, v);
		int ret = vals_add(vs, p, t, err, errlen);

		free(t);
		if (ret)
			return -1;
		if (v > hi / factor)
			return 0; /* the next one passes hi (or overflows) */
	}
}

/* "lo..hi", "lo..hi:step" or "lo..hi*factor"; dots points at "..". */
static int expand_range(struct vals *vs, const struct param_def *p,
			const char *e, const char *dots, char *err,
			size_t errlen)
{
	const char *rest = dots + 2, *op = strpbrk(rest, ":*");
	char *lo_t = trim_dup(e, (size_t)(dots - e));
	char *hi_t = trim_dup(rest, op ? (size_t)(op - rest) : strlen(rest));
	char *inc_t = op ? trim_dup(op + 1, strlen(op + 1)) : NULL;
	char whole[QUOTE_MAX + 4];
	uint64_t lo = 0, hi = 0, inc = 1;
	int ret = -1;

	param_clip(whole, sizeof(whole), e, QUOTE_MAX);
	if (p->type != PT_INT && p->type != PT_U64) {
		error_buf(err, errlen,
			  "%s: a range like '%s' needs an integer "
			  "parameter, and %s is of type %s: list its "
			  "values instead",
			  p->name, whole, p->name, param_type_names[p->type]);
		goto out;
	}
	if (range_bound(p, lo_t, whole, &lo, err, errlen) ||
	    range_bound(p, hi_t, whole, &hi, err, errlen))
		goto out;
	if (op && range_increment(p, *op, inc_t, whole, &inc, err, errlen))
		goto out;
	if (hi < lo) {
		error_buf(err, errlen,
			  "%s: reversed range '%s' (write the low "
			  "bound first)",
			  p->name, whole);
		goto out;
	}
	if (op && *op == '*')
		ret = walk_geometric(vs, p, lo, hi, inc, whole, err, errlen);
	else
		ret = walk_stepped(vs, p, lo, hi, inc, err, errlen);
out:
	free(lo_t);
	free(hi_t);
	free(inc_t);
	return ret;
}

static int expand_element(struct vals *vs, const struct param_def *p,
			  const char *e, char *err, size_t errlen)
{
	const char *dots = strstr(e, "..");

	if (dots)
		return expand_range(vs, p, e, dots, err, errlen);
	return vals_add(vs, p, e, err, errlen);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Two equal values would make two identical configurations. */
static int check_unique(const struct vals *vs, const struct param_def *p,
			char *err, size_t errlen)
{
	char q[QUOTE_MAX + 4], **sorted;
	size_t i;
	int ret = 0;

	if (vs->n < 2)
		return 0;
	sorted = xmalloc(vs->n * sizeof(*sorted));
	memcpy(sorted, vs->v, vs->n * sizeof(*sorted));
	qsort(sorted, vs->n, sizeof(*sorted), cmp_str);
	for (i = 1; i < vs->n && !ret; i++) {
		if (!strcmp(sorted[i - 1], sorted[i])) {
			param_clip(q, sizeof(q), sorted[i], QUOTE_MAX);
			ret = error_buf(err, errlen,
					"%s: value %s appears twice in "
					"the sweep",
					p->name, q);
		}
	}
	free(sorted);
	return ret;
}

static int expand_list(struct vals *vs, const struct param_def *p,
		       const char *value, char *err, size_t errlen)
{
	const char *s = value, *comma;
	char whole[QUOTE_MAX + 4];
	size_t commas = 0;

	for (comma = value; (comma = strchr(comma, ',')); comma++)
		if (++commas >= SWEEP_MAX_VALUES)
			return too_many(p, err, errlen);
	param_clip(whole, sizeof(whole), value, QUOTE_MAX);
	for (;;) {
		char *e;
		int ret;

		comma = strchr(s, ',');
		e = trim_dup(s, comma ? (size_t)(comma - s) : strlen(s));
		if (*e)
			ret = expand_element(vs, p, e, err, errlen);
		else
			ret = error_buf(err, errlen,
					"%s: empty element in the list "
					"'%s'",
					p->name, whole);
		free(e);
		if (ret)
			return -1;
		if (!comma)
			return 0;
		s = comma + 1;
	}
}

void sweep_free(char **vals, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(vals[i]);
	free(vals);
}

/* With split, a PT_STRING value is a list too (a user parameter's). */
static int expand(const struct param_def *p, const char *value, bool split,
		  char ***out, size_t *n, char *err, size_t errlen)
{
	struct vals vs = { NULL, 0, 0 };
	char *t = trim_dup(value, strlen(value));
	int ret;

	if (!split && (p->type == PT_STRING || p->type == PT_CPUS))
		ret = vals_add(&vs, p, t, err, errlen); /* commas are literal */
	else if (!*t)
		ret = error_buf(err, errlen, "%s: empty sweep", p->name);
	else
		ret = expand_list(&vs, p, t, err, errlen);
	if (!ret)
		ret = check_unique(&vs, p, err, errlen);
	free(t);
	if (ret) {
		sweep_free(vs.v, vs.n);
		return -1;
	}
	*out = vs.v;
	*n = vs.n;
	return 0;
}

int sweep_expand(const struct param_def *p, const char *value, char ***out,
		 size_t *n, char *err, size_t errlen)
{
	return expand(p, value, false, out, n, err, errlen);
}

int sweep_expand_user(const char *key, const char *value, char ***out,
		      size_t *n, char *err, size_t errlen)
{
	/* the widest range a double bound still holds exactly */
	const struct param_def num = { key, PT_INT, NULL, -9007199254740992.0,
				       9007199254740992.0, NULL, NULL };
	const struct param_def word = { key, PT_STRING, NULL, 0, 0, NULL,
					NULL };

	return expand(strstr(value, "..") ? &num : &word, value, true, out, n,
		      err, errlen);
}
