/*
 * util.c - error reporting, checked allocation and strict number parsing.
 */
#include "lib/util.h"
#include "lib/escape.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/*
 * "contend: " where, then the message, escaped for the terminal as one
 * line (lib/escape.h): whatever data a message quotes, a file name, a
 * stored key, a pattern, its control bytes are shown, never obeyed.  No
 * message has a line break or a tab of its own.
 */
static void vreport(const char *where, const char *fmt, va_list ap)
{
	char *msg, *safe = NULL;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	if (msg)
		safe = escape_text_dup(msg);
	fprintf(stderr, "contend: %s%s\n", where,
		safe ? safe : "(out of memory for a message)");
	free(safe);
	free(msg);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

int error_at(const char *file, long line, const char *fmt, ...)
{
	char *where, *safe;
	va_list ap;

	if (line > 0)
		where = xasprintf("%s:%ld: ", file, line);
	else
		where = xasprintf("%s: ", file);
	safe = escape_text_dup(where);
	va_start(ap, fmt);
	vreport(safe ? safe : "", fmt, ap);
	va_end(ap);
	free(safe);
	free(where);
	return -1;
}

int error_buf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* clang-analyzer 14 loses track of va_start here: a false alarm */
	if (errlen)
		vsnprintf(err, errlen, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

static void *check(void *p)
{
	if (!p) {
		fputs("contend: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t n)
{
	return check(malloc(n ? n : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

void *xgrow(void *p, size_t n, size_t size)
{
	if (n == 0)
		return xmalloc(8 * size);
	if (n >= 8 && !(n & (n - 1)))
		return xrealloc(p, 2 * n * size);
	return p;
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n));
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		check(NULL);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static int only_blanks(const char *end)
{
	while (isspace((unsigned char)*end))
		end++;
	return *end == '\0';
}

int parse_ll(const char *s, long long *out)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (end == s || errno || !only_blanks(end))
		return -1;
	*out = v;
	return 0;
}

int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno || !only_blanks(end))
		return -1;
	*out = v;
	return 0;
}

/*
 * strtod of a decimal or exponent number only (docs/INI.md): not hex
 * ("0x10", which strtod reads as 16), "inf" or "nan".  A number too
 * small for a normal double is its nearest double, a denormal
 * (4.9e-324) or 0, not an error, though strtod sets ERANGE for it;
 * one too large is (inf).  *end == s when there is no number.
 */
static double decimal_strtod(const char *s, char **end)
{
	const char *p = s;
	double v;

	*end = (char *)s;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		p++;
	if (!(isdigit((unsigned char)*p) || *p == '.') ||
	    (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')))
		return 0;
	errno = 0;
	v = strtod(s, end);
	if (errno == ERANGE && isfinite(v))
		errno = 0;
	if (!isfinite(v))
		errno = ERANGE;
	return v;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	v = decimal_strtod(s, &end);
	if (end == s || errno || !only_blanks(end))
		return -1;
	*out = v;
	return 0;
}

int parse_duration(const char *s, double *seconds)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 },
		{ "s", 1 },     { "m", 60 },    { "h", 3600 },
	};
	char *end;
	double v;
	size_t i;

	v = decimal_strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	if (only_blanks(end)) {
		*seconds = v;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		size_t len = strlen(units[i].suffix);

		if (!strncmp(end, units[i].suffix, len) &&
		    only_blanks(end + len)) {
			*seconds = v * units[i].scale;
			return 0;
		}
	}
	return -1;
}

int parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *row = xcalloc(lb + 1, sizeof(*row));
	size_t d;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

const char *suggest(const char *s, const char *const *candidates, size_t n)
{
	size_t best = (size_t)-1, limit = strlen(s) / 3, i;
	const char *pick = NULL;

	if (limit < 2)
		limit = 2;
	for (i = 0; i < n; i++) {
		size_t d = edit_distance(s, candidates[i]);

		if (d < best) {
			best = d;
			pick = candidates[i];
		}
	}
	return best <= limit ? pick : NULL;
}

const char *suggest_hint(char *buf, size_t len, const char *s,
			 const char *const *candidates, size_t n,
			 const char *open, const char *close)
{
	const char *pick = suggest(s, candidates, n);

	if (!len)
		return "";
	if (!pick) {
		*buf = '\0';
		return buf;
	}
	snprintf(buf, len, "; did you mean %s%s%s?", open ? open : "'", pick,
		 close ? close : "'");
	return buf;
}

static double clock_seconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double now_monotonic(void)
{
	return clock_seconds(CLOCK_MONOTONIC);
}

double now_realtime(void)
{
	return clock_seconds(CLOCK_REALTIME);
}

void sleep_until(double deadline)
{
	struct timespec ts;

	ts.tv_sec = (time_t)deadline;
	ts.tv_nsec = (long)((deadline - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

const char *fd_shortage(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return "";
	}
	if (errno == EMFILE)
		return " (too many open files: the limit, ulimit -n, is reached)";
	if (errno == ENFILE)
		return " (too many open files in the system)";
	return "";
}
