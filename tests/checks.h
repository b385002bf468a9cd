/*
 * checks.h - cmocka checks whose failure names what was wanted and what was
 * got: a value within a tolerance of its reference, a string within
 * another.  Include after <cmocka.h>; header-only (static inline) so each
 * test binary takes what it uses.
 */
#ifndef CONTEND_TEST_CHECKS_H
#define CONTEND_TEST_CHECKS_H

#include <math.h>
#include <string.h>

/* |got - want| <= rel |want| + abs, with both values in the message. */
static inline void check_close_at(const char *what, double got, double want,
				  double rel, double abs_tol, const char *file,
				  int line)
{
	double tol = rel * fabs(want) + abs_tol;

	if (!(fabs(got - want) <= tol))
		fail_msg("%s:%d: %s = %.17g, want %.17g (tolerance %.3g)", file,
			 line, what, got, want, tol);
}
#define check_close(what, got, want, rel, abs_tol) \
	check_close_at(what, got, want, rel, abs_tol, __FILE__, __LINE__)

static inline void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("'%s' not found in '%s'", needle, hay);
}

#endif
