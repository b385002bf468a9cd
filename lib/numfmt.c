/*
 * numfmt.c - the one number formatter (numfmt.h).  Everything is decided
 * by `last`, the power of ten of the last digit shown, and `e3`, the
 * power of ten the SI prefix stands for; snprintf does the rounding.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numfmt.h"

#define DEFAULT_SIG 4
#define MAX_SIG 15
#define PLAIN_SIG 7     /* more significant digits than this: no prefix */
#define MAX_E3 18       /* E */
#define MIN_FIXED 1e-6  /* below this magnitude (and from 1e21): exponent */
#define MAX_FIXED 1e21
#define PCT_MIN_LAST (-15)
#define PCT_MIN_FIXED 1e-15

static const char prefixes[] = "kMGTPE";

/* floor(log10(a)) for a finite a > 0, exact at powers of ten. */
static int decade(double a)
{
	int e = (int)floor(log10(a));

	if (a >= pow(10, e + 1))
		e++;
	else if (a < pow(10, e))
		e--;
	return e;
}

/* The decade of a once rounded to a digit at 10^last (last <= decade(a)):
 * 9.9996 rounded to 10^-3 is 10.000, one decade up. */
static int rounded_decade(double a, int last)
{
	char b[NUMFMT_LEN];
	const char *e;

	snprintf(b, sizeof(b), "%.*e", decade(a) - last, a);
	e = strchr(b, 'e');
	return e ? (int)strtol(e + 1, NULL, 10) : decade(a);
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* "-0.00" and "+0.0%" are zero: the sign goes. */
static void drop_zero_sign(char *buf)
{
	const char *p = buf + 1;

	if (buf[0] != '-' && buf[0] != '+')
		return;
	p += strspn(p, "0.");
	if (*p >= '1' && *p <= '9')
		return;
	memmove(buf, buf + 1, strlen(buf));
}

/* Not a finite number: the missing form, or infinity. */
static bool special(char *buf, size_t len, double v, const char *unit)
{
	if (isnan(v))
		snprintf(buf, len, "%s", NUMFMT_MISSING);
	else if (isinf(v))
		snprintf(buf, len, "%sinf%s", v < 0 ? "-" : unit[0] ? "+" : "",
			 unit);
	else
		return false;
	return true;
}

/* The prefix for a magnitude a shown to 10^last: none below 10^4 or when
 * the digits are too many to read behind one. */
static int scale_of(double a, int last)
{
	int d;

	if (!(a > 0))
		return 0;
	d = rounded_decade(a, last);
	if (d < 4 || d - last + 1 > PLAIN_SIG)
		return 0;
	return d / 3 * 3 > MAX_E3 ? MAX_E3 : d / 3 * 3;
}

static bool fixed_range(double a)
{
	return !(a > 0) || (a >= MIN_FIXED && a < MAX_FIXED);
}

/* The form of a magnitude a shown to 10^last: the prefix's power of ten,
 * or EXPONENT outside the fixed range. */
#define EXPONENT (-1)
static int form_of(double a, int last)
{
	return fixed_range(a) ? scale_of(a, last) : EXPONENT;
}

/* v with its last digit at 10^last, divided by 10^e3 and prefixed; or,
 * with e3 EXPONENT, with an exponent and the same resolution.  An
 * interval's three values share the form of its mean. */
static char *put(char *buf, size_t len, double v, int e3, int last)
{
	double a = fabs(v);
	char unit[2] = "";

	if (e3 >= 3) /* a prefix's power of ten is a multiple of 3 */
		unit[0] = prefixes[e3 / 3 - 1];
	if (special(buf, len, v, ""))
		return buf;
	if (e3 == EXPONENT) {
		if (!(a > 0))
			snprintf(buf, len, "0");
		else
			snprintf(buf, len, "%.*e",
				 clamp(decade(a) - last, 0, MAX_SIG - 1), v);
		return buf;
	}
	/* %f cannot drop digits before the point: round them away. */
	if (last > e3)
		v = round(v / pow(10, last)) * pow(10, last);
	snprintf(buf, len, "%.*f%s", e3 - last > 0 ? e3 - last : 0,
		 v / pow(10, e3), unit);
	drop_zero_sign(buf);
	return buf;
}

/* The last digit for sig significant digits of a (> 0), after the carry
 * of rounding (999.96 to four digits is 1000, not 1000.0). */
static int last_for(double a, int sig)
{
	int last = decade(a) - sig + 1;

	return rounded_decade(a, last) > decade(a) ? last + 1 : last;
}

/* last moved down to show res's leading digit, within MAX_SIG of a. */
static int with_res(int last, double a, double res)
{
	if (isfinite(res) && res > 0 && decade(res) < last)
		last = decade(res);
	if (a > 0 && last < decade(a) - MAX_SIG + 1)
		last = decade(a) - MAX_SIG + 1;
	return last;
}

static char *one(char *buf, size_t len, double v, int sig, double res)
{
	double a = fabs(v);
	int last;

	if (special(buf, len, v, ""))
		return buf;
	if (!(a > 0)) {
		snprintf(buf, len, "0");
		return buf;
	}
	last = with_res(last_for(a, clamp(sig, 1, MAX_SIG)), a, res);
	/* A whole number without an interval is exact: "4", not "4.000". */
	if (last < 0 && a < 1e4 && floor(a) >= a &&
	    !(res > 0 && isfinite(res)))
		last = 0;
	return put(buf, len, v, form_of(a, last), last);
}

char *numfmt(char *buf, size_t len, double v)
{
	return one(buf, len, v, DEFAULT_SIG, NAN);
}

char *numfmt_sig(char *buf, size_t len, double v, int sig)
{
	return one(buf, len, v, sig, NAN);
}

char *numfmt_res(char *buf, size_t len, double v, double res)
{
	return one(buf, len, v, DEFAULT_SIG, res);
}

/* The last digit an interval of half-width hw around mean is shown to. */
static int ci_last(double mean, double hw, double res)
{
	double a = fabs(mean);
	int last;

	if (!(hw > 0) || !isfinite(hw))
		last = a > 0 ? last_for(a, DEFAULT_SIG) : 0;
	else
		last = decade(hw) - 1;
	if (a > 0 && last > decade(a) - 1)
		last = decade(a) - 1;
	return with_res(last, a, res);
}

char *numfmt_ci_res(char *buf, size_t len, double mean, double lo, double hi,
		    double res)
{
	char m[NUMFMT_LEN], l[NUMFMT_LEN], h[NUMFMT_LEN];
	double a = fabs(mean);
	int last, e3;

	if (isnan(lo) || isnan(hi) || !isfinite(mean))
		return numfmt_res(buf, len, mean, res);
	last = ci_last(mean, fabs(hi - lo) / 2, res);
	if (!(a > 0))
		a = fmax(fabs(lo), fabs(hi));
	e3 = isfinite(a) ? form_of(a, last) : 0;
	snprintf(buf, len, "%s [%s, %s]", put(m, sizeof(m), mean, e3, last),
		 put(l, sizeof(l), lo, e3, last), put(h, sizeof(h), hi, e3, last));
	return buf;
}

char *numfmt_ci(char *buf, size_t len, double mean, double lo, double hi)
{
	return numfmt_ci_res(buf, len, mean, lo, hi, NAN);
}

/* pct with its last digit at 10^last (< 0), signed. */
static char *pct_put(char *buf, size_t len, double pct, int last)
{
	if (special(buf, len, pct, "%"))
		return buf;
	snprintf(buf, len, "%+.*f%%", -last, pct);
	drop_zero_sign(buf);
	return buf;
}

/* Two significant digits of pct, one decimal at least. */
static int pct_last(double pct, int last)
{
	if (fabs(pct) > 0 && isfinite(pct) && decade(fabs(pct)) - 1 < last)
		last = decade(fabs(pct)) - 1;
	return clamp(last, PCT_MIN_LAST, -1);
}

char *numfmt_pct(char *buf, size_t len, double pct)
{
	/* Below 10^-15 % the change is beneath a double's precision, but it
	 * is not zero: say so in the one form that can. */
	if (fabs(pct) > 0 && fabs(pct) < PCT_MIN_FIXED) {
		snprintf(buf, len, "%+.1e%%", pct);
		return buf;
	}
	return pct_put(buf, len, pct, pct_last(pct, -1));
}

char *numfmt_pct_ci(char *buf, size_t len, double pct, double lo, double hi)
{
	char p[NUMFMT_LEN], l[NUMFMT_LEN], h[NUMFMT_LEN];
	double hw = fabs(hi - lo) / 2;
	int last = -1;

	if (isnan(lo) || isnan(hi))
		return numfmt_pct(buf, len, pct);
	if (hw > 0 && isfinite(hw))
		last = clamp(decade(hw) - 1, PCT_MIN_LAST, -1);
	snprintf(buf, len, "%s [%s, %s]",
		 pct_put(p, sizeof(p), pct, pct_last(pct, last)),
		 pct_put(l, sizeof(l), lo, last), pct_put(h, sizeof(h), hi, last));
	return buf;
}

char *numfmt_seconds(char *buf, size_t len, double s)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = { { 1, "s" }, { 1e-3, "ms" }, { 1e-6, "us" },
		      { 1e-9, "ns" } };
	size_t i = 0;
	char num[NUMFMT_LEN];

	if (isnan(s)) {
		snprintf(buf, len, "%s", NUMFMT_MISSING);
		return buf;
	}
	/* the largest unit the value is at least one of, once rounded */
	while (i + 1 < sizeof(units) / sizeof(units[0]) &&
	       fabs(s) < units[i].scale * (1 - 5e-4))
		i++;
	if (!(fabs(s) > 0))
		i = 0;
	numfmt_sig(num, sizeof(num), s / units[i].scale, 3);
	snprintf(buf, len, "%s %s", num, units[i].unit);
	return buf;
}
