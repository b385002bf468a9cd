/*
 * regimes_methods.h - the other tests of two regimes tried against the
 * split test of analysis/regimes.c, each calibrated the same way (the
 * worst of the nine unimodal shapes) by tests/test_regimes_sim.c
 * `--methods`: the excess mass (twice Hartigan's dip), the largest gap
 * in robust units, a two-normal mixture's likelihood ratio, and the
 * least p of two (docs/STATISTICS.md "Regimes", what was tried).
 * Each takes sorted logs y[0..n-1], n <= METHODS_MAX_N.
 */
#ifndef CONTEND_TESTS_REGIMES_METHODS_H
#define CONTEND_TESTS_REGIMES_METHODS_H

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define METHODS_MAX_N 512

/*
 * The excess mass of two modes over one (Mueller and Sawitzki 1991):
 * max over levels L of E2(L) - E1(L), Ek(L) the most of sum over k
 * disjoint intervals C of (F_n(C) - L |C|); in one dimension it is twice
 * the dip of Hartigan and Hartigan (1985).  On 400 levels spaced
 * geometrically from 0.1 to 100 over the range (a statistic of its own,
 * calibrated as it is computed).  Intervals run between data points; for
 * each level the best interval ending at or before j (pre) and starting
 * at or after j (suf) are running extremes, so each level is O(n).
 */
static inline double method_excess_mass(const double *y, size_t n)
{
	double pre[METHODS_MAX_N], range = y[n - 1] - y[0], best = 0;
	size_t g, i;

	if (!(range > 0))
		return NAN;
	for (g = 0; g < 400; g++) {
		double lv = 0.1 / range * pow(1000, (double)g / 399) / (double)n;
		double lo = INFINITY, e1 = 0, e2 = 0, hi = -INFINITY, sufbest;

		/* an interval [i, j] scores (j - i + 1) / n - lv (y_j - y_i)
		 * = a_j - b_i with a_j = (j + 1) / n - lv y_j, b_i = i / n -
		 * lv y_i */
		for (i = 0; i < n; i++) {
			double b = (double)i / (double)n - lv * y[i];
			double a = (double)(i + 1) / (double)n - lv * y[i];

			lo = b < lo ? b : lo;
			pre[i] = a - lo;
			if (i && pre[i - 1] > pre[i])
				pre[i] = pre[i - 1];
		}
		e1 = pre[n - 1];
		sufbest = -INFINITY;
		for (i = n - 1; i > 0; i--) {
			double a = (double)(i + 1) / (double)n - lv * y[i];
			double b = (double)i / (double)n - lv * y[i];

			hi = a > hi ? a : hi;          /* best end at or after i */
			sufbest = hi - b > sufbest ? hi - b : sufbest;
			e2 = pre[i - 1] + sufbest > e2 ? pre[i - 1] + sufbest : e2;
		}
		best = e2 - e1 > best ? e2 - e1 : best;
	}
	return best;
}

/*
 * The split statistic D of analysis/regimes.c with the smallest group
 * m instead of max(3, 15% of n): the largest (mean_high - mean_low) /
 * max(s_low, s_high) over the splits of sorted y, written again here
 * (two passes a split) so that m can vary; with gap, the split's gap
 * y[k] - y[k-1] for the difference of the means.
 */
static inline double method_split_gap(const double *y, size_t n, size_t m,
				      bool gap)
{
	double best = -INFINITY;
	size_t k, i;

	for (k = m; k + m <= n; k++) {
		double m1 = 0, m2 = 0, v1 = 0, v2 = 0, v;

		if (!(y[k] > y[k - 1]))
			continue;
		for (i = 0; i < n; i++)
			*(i < k ? &m1 : &m2) += y[i];
		m1 /= (double)k;
		m2 /= (double)(n - k);
		for (i = 0; i < n; i++)
			*(i < k ? &v1 : &v2) += i < k ? (y[i] - m1) * (y[i] - m1)
						      : (y[i] - m2) * (y[i] - m2);
		v1 /= (double)(k - 1);
		v2 /= (double)(n - k - 1);
		v = v1 > v2 ? v1 : v2;
		v = (gap ? y[k] - y[k - 1] : m2 - m1) / sqrt(v);
		best = v > best ? v : best;
	}
	return best;
}

static inline double method_split(const double *y, size_t n, size_t m)
{
	return method_split_gap(y, n, m, false);
}

/*
 * The largest gap between the two groups' nearest values, in the wider
 * group's standard deviations, over the splits of D.
 */
static inline double method_group_gap(const double *y, size_t n, size_t m)
{
	return method_split_gap(y, n, m, true);
}

/*
 * The largest gap between neighbours that leaves at least m values on
 * each side, in units of the sample's median absolute deviation.
 */
static inline double method_gap(const double *y, size_t n, size_t m)
{
	double d[METHODS_MAX_N] = { 0 }, med, mad, g = 0;
	size_t i;

	med = n % 2 ? y[n / 2] : (y[n / 2 - 1] + y[n / 2]) / 2;
	for (i = 0; i < n; i++)
		d[i] = fabs(y[i] - med);
	for (i = 1; i < n; i++) {       /* insertion sort: n is small */
		double v = d[i];
		size_t k = i;

		for (; k > 0 && d[k - 1] > v; k--)
			d[k] = d[k - 1];
		d[k] = v;
	}
	mad = n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
	if (!(mad > 0))
		return NAN;
	for (i = m; i + m <= n; i++)
		g = y[i] - y[i - 1] > g ? y[i] - y[i - 1] : g;
	return g / mad;
}

/*
 * Twice the log likelihood ratio of two normals with one variance
 * against one normal, by EM from every split of the sorted sample at
 * the quartiles and the median (the best of the three fits).
 */
static inline double method_mixture_lr(const double *y, size_t n)
{
	static const double starts[] = { 0.25, 0.5, 0.75 };
	double m = 0, v = 0, best = -INFINITY, l0;
	size_t i, s, it;

	for (i = 0; i < n; i++)
		m += y[i] / (double)n;
	for (i = 0; i < n; i++)
		v += (y[i] - m) * (y[i] - m) / (double)n;
	if (!(v > 0))
		return NAN;
	l0 = -(double)n / 2 * (log(2 * M_PI * v) + 1);
	for (s = 0; s < 3; s++) {
		size_t k = (size_t)(starts[s] * (double)n);
		double p = (double)k / (double)n, m1 = 0, m2 = 0, sv = v / 4;
		double ll = 0;

		for (i = 0; i < n; i++)
			*(i < k ? &m1 : &m2) += y[i];
		m1 /= (double)k;
		m2 /= (double)(n - k);
		for (it = 0; it < 200; it++) {
			double w1 = 0, s1 = 0, s2 = 0, ss = 0, r;

			ll = 0;
			for (i = 0; i < n; i++) {
				double a = (y[i] - m1) * (y[i] - m1) / (2 * sv);
				double b = (y[i] - m2) * (y[i] - m2) / (2 * sv);
				double mn = a < b ? a : b;
				double pa = p * exp(mn - a), pb = (1 - p) * exp(mn - b);

				ll += log(pa + pb) - mn - 0.5 * log(2 * M_PI * sv);
				r = pa / (pa + pb);
				w1 += r;
				s1 += r * y[i];
				s2 += (1 - r) * y[i];
			}
			if (w1 < 0.5 || w1 > (double)n - 0.5)
				break;
			p = w1 / (double)n;
			m1 = s1 / w1;
			m2 = s2 / ((double)n - w1);
			for (i = 0; i < n; i++) {
				double a = (y[i] - m1) * (y[i] - m1) / (2 * sv);
				double b = (y[i] - m2) * (y[i] - m2) / (2 * sv);
				double mn = a < b ? a : b;
				double pa = p * exp(mn - a), pb = (1 - p) * exp(mn - b);

				r = pa / (pa + pb);
				ss += r * (y[i] - m1) * (y[i] - m1) +
				      (1 - r) * (y[i] - m2) * (y[i] - m2);
			}
			sv = ss / (double)n;
			if (!(sv > 1e-12 * v))
				break;
		}
		best = ll > best ? ll : best;
	}
	return 2 * (best - l0);
}

#endif
