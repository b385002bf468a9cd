/*
 * command_extract.c - the command workload's metrics out of its output:
 * `metric`, `contention` and each `metric.NAME` is a POSIX extended regex
 * whose first capture group is the number, times its scale.  Regexes that
 * would compile for too long are refused before regcomp sees them.
 */
#include <ctype.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/workloads/command_impl.h"
#include "lib/util.h"
#include "runner/workloads/workloads.h"

#define REGEX_MAX_COST 1000  /* see regex_cost() */
#define REGEX_MAX_DEPTH 32   /* nested groups */

/* Names the workload reports itself; metric.NAME may not take them. */
static const char *const reserved[] = { "throughput", "contention_rate",
					"elapsed_s" };

/* Adds one regex to the list; "" means the key is unused. */
static void extract_add(struct extracts *x, const char *key, const char *name,
			size_t namelen, const char *re, double scale)
{
	struct extract *e = &x->e[x->n++];

	e->key = key;
	snprintf(e->name, sizeof(e->name), "%.*s", (int)namelen, name);
	e->re = xstrdup(re);
	e->scale = scale;
	e->compiled = false;
}

static bool is_reserved(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reserved); i++)
		if (!strcmp(reserved[i], name))
			return true;
	return false;
}

/* The key of family param named name, or NULL. */
static const struct wl_member *member_find(const struct wl_args *a,
					   int param, const char *name)
{
	size_t i;

	for (i = 0; i < a->nmembers; i++)
		if (a->members[i].param == param &&
		    !strcmp(a->members[i].name, name))
			return &a->members[i];
	return NULL;
}

/* metric.NAME keys, scaled by their scale.NAME; 0, or -1 with err and
 * *key. */
static int extract_members(const struct wl_args *a, struct extracts *x,
			   const char **key, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < a->nmembers; i++) {
		const struct wl_member *m = &a->members[i], *scale;

		if (m->param == P_SCALES) {
			if (member_find(a, P_METRICS, m->name))
				continue;
			snprintf(err, errlen, "%s: there is no metric.%s to "
				 "scale", m->key, m->name);
			*key = m->key;
			return -1;
		}
		if (is_reserved(m->name)) {
			snprintf(err, errlen, "%s: %s is the workload's own "
				 "metric (metric = REGEX gives throughput, "
				 "contention = REGEX contention_rate)",
				 m->key, m->name);
			*key = m->key;
			return -1;
		}
		scale = member_find(a, P_SCALES, m->name);
		extract_add(x, m->key, m->name, strlen(m->name), m->v.s,
			    scale ? scale->v.d : 1);
	}
	return 0;
}

void extracts_release(struct extracts *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		if (x->e[i].compiled)
			regfree(&x->e[i].rx);
		free(x->e[i].re);
	}
	x->n = 0;
}

/* The length of the bracket expression at s ('[' ... ']'), 0 if open. */
static size_t bracket_len(const char *s)
{
	size_t i = 1;

	if (s[i] == '^')
		i++;
	if (s[i] == ']')
		i++; /* a leading ']' is literal */
	for (; s[i]; i++) {
		if (s[i] == '[' && s[i + 1] && strchr(":.=", s[i + 1])) {
			/* [:class:], [.coll.], [=equiv=] */
			char close[3] = { s[i + 1], ']', '\0' };
			const char *end = strstr(s + i + 2, close);

			if (!end)
				return 0;
			i = (size_t)(end - s) + 1;
		} else if (s[i] == ']') {
			return i + 1;
		}
	}
	return 0;
}

/*
 * How much a repetition multiplies its operand's weight in glibc's
 * regcomp, or 0 when s is no repetition; *len is its length.  x{m,n} is
 * n copies of x, x+ is xx*; x* and x? copy nothing but add a branch
 * whose epsilon closures cost as much again (nested "((x+)?)+..." takes
 * seconds at 2^8 copies), so they count double too.
 */
static double repeat_factor(const char *s, size_t *len)
{
	unsigned long m = 0, n;
	const char *p = s + 1;
	char *end = (char *)p;

	*len = 1;
	if (*s == '*' || *s == '?' || *s == '+')
		return 2;
	if (*s != '{')
		return 0;
	/* {m}, {m,}, {m,n}, and glibc's {,n} and {,} (m = 0). */
	if (isdigit((unsigned char)*p))
		m = strtoul(p, &end, 10);
	n = m;
	if (*end == ',') {
		if (isdigit((unsigned char)end[1]))
			n = strtoul(end + 1, &end, 10);
		else
			n = m + 1, end++;
	}
	if (*end != '}' || end == p)
		return 0; /* "{" and "{}" are no repetition */
	*len = (size_t)(end - s) + 1;
	return (double)(n > m ? n : m) + 1;
}

/*
 * A bound of the work regcomp does for re.  glibc copies a repeated
 * operand once per repetition ("x{1,9}" is nine copies of x), so stacked
 * or nested repetitions grow exponentially: "(a){1,9}{1,9}{1,9}{1,9}
 * {1,9}{1,9}" takes 700 MB to compile and one more {1,9} several GB, and
 * time grows faster still: "=?++++++++++" takes 0.8 s, each further '+'
 * four times as long, and "((((((((((((((((a+)?)+)?)+)?)+)?)+)?)+)?)+)?)
 * +)?)" 11 s (all found by tests/fuzz/fuzz_command.c).  POSIX leaves
 * adjacent repetitions undefined anyway.  Real metric regexes weigh
 * tens; under REGEX_MAX_COST compilation stays well under a second.
 */
static double regex_cost(const char *re)
{
	double sum[REGEX_MAX_DEPTH + 1] = { 0 }, atom[REGEX_MAX_DEPTH + 1] = { 0 };
	int d = 0;
	const char *s = re;

	bool repeated = false; /* the last token was a repetition */

	while (*s && sum[0] <= REGEX_MAX_COST) {
		size_t len = 1;
		double f = repeat_factor(s, &len);

		/* Adjacent repetitions: undefined in POSIX, and "$x*++++++++"
		 * compiles for minutes where "x*++++++++" takes 20 ms. */
		if (f > 0 && repeated)
			return INFINITY;
		repeated = f > 0;
		if (f > 0) {
			sum[d] += atom[d] * (f - 1);
			atom[d] *= f;
		} else if (*s == '(') {
			if (++d > REGEX_MAX_DEPTH)
				return INFINITY;
			sum[d] = atom[d] = 0;
		} else if (*s == ')' && d > 0) {
			atom[d - 1] = sum[d] + 1;
			sum[d - 1] += atom[d - 1];
			d--;
		} else {
			if (*s == '[')
				len = bracket_len(s) ? bracket_len(s) : 1;
			else if (*s == '\\' && s[1])
				len = 2;
			atom[d] = *s == '|' ? 0 : 1;
			sum[d] += atom[d];
		}
		s += len;
	}
	/* Groups left open: their cost counts all the same. */
	while (d > 0) {
		sum[d - 1] += sum[d];
		d--;
	}
	return sum[0];
}

/* Compiles every regex; each needs a capture group for its number. */
static int extracts_compile(struct extracts *x, const char **key, char *err,
			    size_t errlen)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		struct extract *e = &x->e[i];
		char msg[128];
		int rc;

		*key = e->key;

		if (regex_cost(e->re) > REGEX_MAX_COST) {
			snprintf(err, errlen, "%s: regex '%s' nests or stacks "
				 "repetitions too deeply to compile safely "
				 "(adjacent ones like '+?' are undefined in POSIX; "
				 "write each repetition once)", e->key, e->re);
			return -1;
		}
		rc = regcomp(&e->rx, e->re, REG_EXTENDED | REG_NEWLINE);
		if (rc) {
			regerror(rc, &e->rx, msg, sizeof(msg));
			snprintf(err, errlen, "%s: invalid regex '%s': %s",
				 e->key, e->re, msg);
			return -1;
		}
		e->compiled = true;
		if (!e->rx.re_nsub) {
			snprintf(err, errlen, "%s: regex '%s' has no capture "
				 "group ( ) around the number", e->key, e->re);
			return -1;
		}
	}
	return 0;
}

int extracts_build(const struct wl_args *a, struct extracts *x,
		   const char **key, char *err, size_t errlen)
{
	x->n = 0;
	if (*command_str(a, P_METRIC))
		extract_add(x, "metric", "throughput", strlen("throughput"),
			    command_str(a, P_METRIC), a->v[P_SCALE].d);
	if (*command_str(a, P_CONTENTION))
		extract_add(x, "contention", "contention_rate",
			    strlen("contention_rate"),
			    command_str(a, P_CONTENTION), a->v[P_CSCALE].d);
	if (extract_members(a, x, key, err, errlen))
		goto fail;
	if (!extracts_compile(x, key, err, errlen))
		return 0;
fail:
	extracts_release(x);
	return -1;
}

void tail_lines(const char *buf, size_t len, char *out, size_t outlen)
{
	size_t end = len, start, lines = 0, o = 0;

	if (end && buf[end - 1] == '\n')
		end--;
	for (start = end; start > 0; start--)
		if (buf[start - 1] == '\n' && ++lines == COMMAND_TAIL_LINES)
			break;
	if (end - start > outlen - 1)
		start = end - (outlen - 1);
	for (; start < end; start++) {
		unsigned char ch = (unsigned char)buf[start];

		out[o++] = (char)(ch == '\n' || isprint(ch) ? ch : '?');
	}
	out[o] = '\0';
}

/* Applies one regex; its first group must be a number. */
static int extract_one(const struct extract *e, const char *out, size_t len,
		       struct result *r)
{
	regmatch_t m[2];
	char num[64], tail[256];
	double v;

	if (regexec(&e->rx, out, 2, m, 0) || m[1].rm_so < 0) {
		tail_lines(out, len, tail, sizeof(tail));
		return result_fail(r, "command: %s regex '%s' did not match; "
				   "output ends:\n%s", e->key, e->re, tail);
	}
	snprintf(num, sizeof(num), "%.*s", (int)(m[1].rm_eo - m[1].rm_so),
		 out + m[1].rm_so);
	if (parse_double(num, &v))
		return result_fail(r, "command: %s regex '%s' captured '%s', "
				   "not a number", e->key, e->re, num);
	result_add(r, e->name, v * e->scale);
	return 0;
}

int extracts_apply(const struct extracts *x, char *out, size_t len,
		   struct result *r)
{
	size_t i;

	/* regexec stops at NUL: binary output must not hide the rest. */
	for (i = 0; i < len; i++)
		if (!out[i])
			out[i] = ' ';
	for (i = 0; i < x->n; i++)
		if (extract_one(&x->e[i], out, len, r))
			return -1;
	return 0;
}

int command_extract(const struct wl_args *a, char *out, size_t len,
		    struct result *r)
{
	struct extracts x = { 0 };
	const char *key;
	char err[256];
	int ret;

	if (extracts_build(a, &x, &key, err, sizeof(err)))
		return result_fail(r, "command: %s", err);
	ret = extracts_apply(&x, out, len, r);
	extracts_release(&x);
	return ret;
}
