/*
 * util.h - error reporting, checked allocation and strict number parsing
 * shared by every module.
 */
#ifndef CONTEND_UTIL_H
#define CONTEND_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Every exit status of contend (docs/contend.1, EXIT STATUS), here only:
 * 0 success; 1 the machine or a run failed (runtime); 2 bad input (a
 * usage error, a bad config or database, nothing matched); 3 a
 * regression or change shown (compare --fail-on-regression, history
 * --fail-on-change); 4 inconclusive (such a gate could neither pass nor
 * fail); 130 stopped by a signal, as a shell reports a SIGINT death.
 *
 * `contend bisect` alone speaks git bisect run's language: 0 good, 1
 * bad, 125 skip, and 128 or more for what is not a decision (128 bad
 * input, 129 a runtime or I/O error, 130 interrupted), so that git
 * aborts the bisection instead of blaming a commit.
 */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_REGRESSION = 3,
	EXIT_INCONCLUSIVE = 4,  /* a gate that can neither pass nor fail */
	EXIT_INTERRUPTED = 130,
};

enum {
	EXIT_BISECT_GOOD = 0,
	EXIT_BISECT_BAD = 1,
	EXIT_BISECT_SKIP = 125,
	EXIT_BISECT_USAGE = 128,
	EXIT_BISECT_RUNTIME = 129,
	EXIT_BISECT_INTERRUPTED = EXIT_INTERRUPTED,
};

/* Prints "contend: msg" to stderr and returns -1, for `return error(...)`. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "contend: FILE:LINE: msg" to stderr and returns -1. */
int error_at(const char *file, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Formats the message into err (errlen bytes; nothing when errlen is 0)
 * and returns -1: error() for functions that hand their message back.
 */
int error_buf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * " (too many open files: ...)" when this process cannot open one more
 * file descriptor now (EMFILE, ENFILE), else "": for the messages of
 * libraries and files that say only "unable to open".
 */
const char *fd_shortage(void);

/* Allocation failure is not recoverable in a CLI tool: these abort. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/*
 * An array of n elements of size bytes, grown for element n: allocated
 * with room for 8 at n = 0, doubled when n is 8 or more and a power of
 * two (so an array only ever appended to through it has room for the
 * next power of two): appending n elements costs O(n) copies.
 */
void *xgrow(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* xasprintf for a function that takes its own format and arguments. */
char *xvasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/*
 * Strict parsers: the whole of s (surrounding blanks allowed) must be the
 * number; 0 on success, -1 on malformed input or overflow.
 */
int parse_ll(const char *s, long long *out);
int parse_u64(const char *s, uint64_t *out);
int parse_double(const char *s, double *out);
/* "250ms", "2s", "1.5m", "1h", "100us", "5ns", bare number = seconds. */
int parse_duration(const char *s, double *seconds);
/* "yes/no/true/false/on/off/1/0" */
int parse_bool(const char *s, int *out);

/* Levenshtein distance, for "did you mean" suggestions. */
size_t edit_distance(const char *a, const char *b);
/* The candidate closest to s within distance 2 (or 1/3 of length), or NULL. */
const char *suggest(const char *s, const char *const *candidates, size_t n);
/*
 * The "did you mean" of every message: "; did you mean 'X'?" for the X
 * suggest() picks, X between open and close (NULL: a single quote each;
 * "'--" and "'" for an option, "[" and "]" for a section), or "" when
 * there is none; written into buf (len bytes) and returned.
 */
#define SUGGEST_MAX 160
const char *suggest_hint(char *buf, size_t len, const char *s,
			 const char *const *candidates, size_t n,
			 const char *open, const char *close);

/* Monotonic clock in seconds. */
double now_monotonic(void);
double now_realtime(void);
/* Sleeps until now_monotonic() reaches deadline, through signals. */
void sleep_until(double deadline);

#endif
