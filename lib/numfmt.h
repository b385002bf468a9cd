/*
 * numfmt.h - the one way contend prints a number for a person to read
 * (text, markdown and HTML reports, compare, plots' labels).  JSON and CSV
 * keep full precision and do not use it.
 *
 * The digits shown are chosen so that the values shown can be told apart:
 * an interval's half-width decides where the last digit of the mean and
 * its bounds falls (the half-width to two significant digits), and a
 * caller that must separate two values passes their difference as the
 * resolution.  Without either, four significant digits.
 *
 * Form: fixed notation with an SI prefix (k M G T P E) from 10^4 up, so
 * 1234 prints as "1234" and 12345 as "12.35k"; a number that needs more
 * than 7 significant digits prints without a prefix ("1000000000.20"), as
 * ministat would, because "1.0000000002G" cannot be read.  Only a
 * magnitude outside [1e-6, 1e21) uses an exponent ("1.20e-07").  Trailing
 * zeros are kept: they say how precise the value is; but a whole number
 * below 10^4 printed without an interval is exact and has none ("4", a
 * count).  "-0" never appears.
 *
 * Never "nan": a value that is NaN prints as NUMFMT_MISSING, and callers
 * that can say why it is missing (one run, no such metric) test isnan()
 * and say so.  Infinity prints as "inf" / "-inf".
 *
 * Every function writes a NUL-terminated string into buf (cut at len, as
 * snprintf does) and returns buf, so calls nest in a printf.  A buffer of
 * NUMFMT_LEN holds any single number; NUMFMT_CI_LEN any interval.
 */
#ifndef CONTEND_LIB_NUMFMT_H
#define CONTEND_LIB_NUMFMT_H

#include <stddef.h>

#define NUMFMT_LEN 40
#define NUMFMT_CI_LEN 128
#define NUMFMT_MISSING "n/a"

/* v to four significant digits. */
char *numfmt(char *buf, size_t len, double v);
/* v to sig significant digits (1..15). */
char *numfmt_sig(char *buf, size_t len, double v, int sig);
/*
 * v to four significant digits, or more where needed to show the digit at
 * the scale of res (> 0), so that two values res apart print differently.
 * A res that is NaN, zero or infinite is ignored.
 */
char *numfmt_res(char *buf, size_t len, double v, double res);

/*
 * "mean [lo, hi]": the three with the same prefix and the same number of
 * decimals, the last digit where the half-width (hi - lo) / 2 has its
 * second significant digit (never fewer than two significant digits of
 * the mean, never more than 15).  A bound that is NaN prints the mean
 * alone (four significant digits); a half-width of zero prints four.
 */
char *numfmt_ci(char *buf, size_t len, double mean, double lo, double hi);
/* numfmt_ci, with at least the digits numfmt_res(mean, res) would show. */
char *numfmt_ci_res(char *buf, size_t len, double mean, double lo, double hi,
		    double res);

/*
 * A change in percent, signed ("+2.4%", "-0.024%", "0.0%"): one decimal at
 * least and two significant digits, so a change that is not zero never
 * prints as zero ("+0.000000024%"; beneath 10^-15 % with an exponent,
 * "+1.0e-20%").
 */
char *numfmt_pct(char *buf, size_t len, double pct);
/*
 * "+2.4% [+1.1%, +3.7%]": the bounds' decimals from the half-width as in
 * numfmt_ci (one at least); the point estimate with more if it needs them
 * to be non-zero.  A bound that is NaN prints the estimate alone.
 */
char *numfmt_pct_ci(char *buf, size_t len, double pct, double lo, double hi);
/*
 * A time in seconds to three significant digits in s, ms, us or ns, the
 * largest unit it is at least one of ("353 ms", "52.6 ns", "0 s");
 * below 1 ns in ns.  NaN prints NUMFMT_MISSING.
 */
char *numfmt_seconds(char *buf, size_t len, double s);

#endif
