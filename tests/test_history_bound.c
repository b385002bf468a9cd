/*
 * test_history_bound.c - what any search for a second change could do on
 * history's staircase (two +2% steps at K/3 and 2K/3, CV 1%) while it
 * keeps 5% false alarms after any single step (docs/STATISTICS.md
 * "History", the staircase's bound).
 *
 * Every test history could use is invariant to the level and the scale
 * of the logs, so it sees only the direction u of the centred series.
 * Under a mean m (centred, in units of the noise's sd) u has the density
 *     f(u; m) = exp(-|m|^2 / 2) I(u . m),
 *     I(t) = integral over r > 0 of r^(K-2) exp(-r^2 / 2 + t r)
 * on the sphere (Wijsman's representation: Lehmann and Romano, Testing
 * Statistical Hypotheses, 6.3 and 6.14).  A test with at most 5% after
 * every single step (the grid below: each place with two points a side,
 * each size up to 8 sd either way) has at most 5% under any mix of them,
 * so its power is at most that of the Neyman-Pearson test of the
 * alternative against the least favourable mix, found by raising the
 * weight of the steps it rejects too often (Elliott, Mueller and Watson,
 * Econometrica 83, 2015).  The alternative is either
 *   told: the staircase itself (a bound on any test), or
 *   blind: every two-change shape, each step -4, -2, +2 or +4%, at every
 *          pair of places (the test of most power on average over them:
 *          what a test that does not know where the changes are can do).
 * `--bound K` prints both, how often the least-squares two-change fit
 * puts both changes within one place of the staircase's edges, and the
 * same for the two-split F told nothing (two_split).  The cmocka test
 * checks I(t) against its closed form.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_erf.h>

#include "lib/util.h"

#define KMAX 64
#define SD 0.01                 /* the noise, 1% CV */
#define ALPHA 0.05
#define TLO (-80.0)             /* the table of log I(t) */
#define TSTEP 0.005
#define TN 32001

static size_t K;
static double logi_tab[TN];

/* log I(t) for r^(n-1): a trapezoid over the integrand's mode +- 40. */
static double logi_direct(double t, size_t n)
{
	double mode = (t + sqrt(t * t + 4.0 * (double)(n - 1))) / 2;
	double top = (double)(n - 1) * log(mode) - mode * mode / 2 + t * mode;
	double h = 0.002 * (mode + 1), s = 0, r;

	for (r = h / 2; r < mode + 40; r += h) {
		double v = (double)(n - 1) * log(r) - r * r / 2 + t * r - top;

		if (v > -50)
			s += exp(v) * h;
	}
	return s > 0 ? top + log(s) : -INFINITY;
}

static void logi_fill(size_t n)
{
	size_t i;

	for (i = 0; i < TN; i++)
		logi_tab[i] = logi_direct(TLO + (double)i * TSTEP, n);
}

static double logi(double t)
{
	double x = (t - TLO) / TSTEP, f;
	size_t i;

	if (x < 0)
		x = 0;
	i = (size_t)x;
	if (i > TN - 2)
		i = TN - 2;
	f = x - (double)i;
	return logi_tab[i] * (1 - f) + logi_tab[i + 1] * f;
}

/* Centres v[0..K); with unit, scales it to length 1. */
static void centre(double *v, int unit)
{
	double m = 0, s = 0;
	size_t i;

	for (i = 0; i < K; i++)
		m += v[i] / (double)K;
	for (i = 0; i < K; i++) {
		v[i] -= m;
		s += v[i] * v[i];
	}
	for (i = 0; unit && i < K; i++)
		v[i] /= sqrt(s);
}

static double logf_u(const double *u, const double *m)
{
	double t = 0, m2 = 0;
	size_t i;

	for (i = 0; i < K; i++) {
		t += u[i] * m[i];
		m2 += m[i] * m[i];
	}
	return -m2 / 2 + logi(t);
}

/* log of sum w_j exp(v_j) (w NULL: the mean). */
static double logsum(const double *v, const double *w, size_t n)
{
	double top = -INFINITY, s = 0;
	size_t j;

	for (j = 0; j < n; j++)
		if ((!w || w[j] > 0) && v[j] > top)
			top = v[j];
	for (j = 0; j < n; j++)
		s += (w ? w[j] : 1.0 / (double)n) * exp(v[j] - top);
	return top + log(s);
}

/* The mean, in sd units, of steps d1 at p1 and d2 at p2 (log ratios). */
static void shape(double *m, size_t p1, double d1, size_t p2, double d2)
{
	size_t i;

	for (i = 0; i < K; i++)
		m[i] = ((i >= p1) * d1 + (i >= p2) * d2) / SD;
	centre(m, 0);
}

/*
 * The least-squares fits of one and of two changes to y (two points a
 * segment): returns the two-split F, (RSS1 - RSS2) / (RSS2 / (K - 3)),
 * and whether the two changes sit within one place of a and b.
 */
static double fit2(const double *y, size_t a, size_t b, int *at)
{
	double cs[KMAX + 1] = { 0 }, cq[KMAX + 1] = { 0 };
	double r1 = INFINITY, r2 = INFINITY;
	size_t i, p, q, bp = 0, bq = 0;

	for (i = 0; i < K; i++) {
		cs[i + 1] = cs[i] + y[i];
		cq[i + 1] = cq[i] + y[i] * y[i];
	}
#define SSE(i, j) (cq[j] - cq[i] - (cs[j] - cs[i]) * (cs[j] - cs[i]) / \
		   (double)((j) - (i)))
	for (p = 2; p + 2 <= K; p++) {
		double r = SSE(0, p) + SSE(p, K);

		r1 = r < r1 ? r : r1;
		for (q = p + 2; q + 2 <= K; q++) {
			r = SSE(0, p) + SSE(p, q) + SSE(q, K);
			if (r < r2) {
				r2 = r;
				bp = p;
				bq = q;
			}
		}
	}
#undef SSE
	*at = bp + 1 >= a && bp <= a + 1 && bq + 1 >= b && bq <= b + 1;
	return (r1 - r2) / (r2 / (double)(K - 3));
}

static int cmp_double(const void *x, const void *y)
{
	double u = *(const double *)x, v = *(const double *)y;

	return (u > v) - (u < v);
}

/*
 * The two-split F (the generalised likelihood ratio of two changes
 * against one), told nothing, cut at the largest 95th percentile over
 * the single steps of bound()'s grid and no step (ndraw draws each; the
 * largest of noisy percentiles, so a little conservative): how often it
 * rejects at the staircase and has both changes at its edges.
 */
static void two_split(size_t k)
{
	const size_t ndraw = 2000, npos = 16, na = 20000;
	double *f = xmalloc(ndraw * sizeof(*f)), y[KMAX], m[KMAX], cv = 0;
	double rej = 0, both = 0, st = log1p(0.02);
	size_t a, b, p, i, d, h;
	int at;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	K = k;
	a = K / 3;
	b = 2 * K / 3;
	gsl_rng_set(rng, 4343 + K);
	for (p = 2; p + 2 <= K; p++)
		for (h = 0; h <= 2 * npos; h++) {
			shape(m, p, SD * 0.5 * ((double)h - (double)npos), K, 0);
			for (d = 0; d < ndraw; d++) {
				for (i = 0; i < K; i++)
					y[i] = m[i] + gsl_ran_ugaussian(rng);
				f[d] = fit2(y, a, b, &at);
			}
			qsort(f, ndraw, sizeof(*f), cmp_double);
			cv = f[ndraw * 95 / 100] > cv ? f[ndraw * 95 / 100] : cv;
		}
	shape(m, a, st, b, st);
	for (d = 0; d < na; d++) {
		for (i = 0; i < K; i++)
			y[i] = m[i] + gsl_ran_ugaussian(rng);
		if (fit2(y, a, b, &at) > cv) {
			rej++;
			both += at;
		}
	}
	printf("  history staircase two-split F K=%zu: cut %.2f (its largest "
	       "95th percentile over %zu steps x %zu draws); rejects %.3f, "
	       "with both edges %.3f (%zu staircases)\n", K, cv,
	       (K - 3) * (2 * npos + 1), ndraw, rej / (double)na,
	       both / (double)na, na);
	free(f);
	gsl_rng_free(rng);
}

/* The share of the M pooled null draws' mass beyond cv, for null j. */
static double reject_rate(const float *l0, const double *lq, const double *T,
			  size_t M, size_t J, size_t j, double cv)
{
	double s = 0;
	size_t d;

	for (d = 0; d < M; d++)
		if (T[d] > cv)
			s += exp(l0[d * J + j] - lq[d]);
	return s / (double)M;
}

static void bound(size_t k, int blind)
{
	const size_t npos = 16, per = 300, na = 20000;
	const double dstep = log1p(0.02), sizes[] = { -0.04, -0.02, 0.02, 0.04 };
	size_t a, b, J, M, nalt = 0, i, j, d, p, q, it, s1, s2;
	double (*m0)[KMAX], (*m1)[KMAX], y[KMAX], stair[KMAX], *tmp;
	double *lw, *w, *lq, *l1, *T, *mq, *ta, *a1;
	float *l0, *al0;
	char *loc;
	int at;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	K = k;
	a = K / 3;
	b = 2 * K / 3;
	logi_fill(K - 1);
	J = (K - 3) * 2 * npos + 1;
	m0 = xcalloc(J, sizeof(*m0));
	for (j = 1, p = 2; p + 2 <= K; p++)
		for (i = 0; i < 2 * npos; i++, j++)
			shape(m0[j], p, SD * 0.5 * ((double)(i % npos) + 1) *
				  (i < npos ? -1 : 1), K, 0);
	m1 = xcalloc(blind ? K * K * 16 : 1, sizeof(*m1));
	if (!blind)
		shape(m1[nalt++], a, dstep, b, dstep);
	for (p = 2; blind && p + 4 <= K; p++)
		for (q = p + 2; q + 2 <= K; q++)
			for (s1 = 0; s1 < 4; s1++)
				for (s2 = 0; s2 < 4; s2++)
					shape(m1[nalt++], p, log1p(sizes[s1]),
					      q, log1p(sizes[s2]));
	tmp = xmalloc((J > nalt ? J : nalt) * sizeof(*tmp));
	M = J * per;
	l0 = xmalloc(M * J * sizeof(*l0));
	lq = xmalloc(M * sizeof(*lq));
	l1 = xmalloc(M * sizeof(*l1));
	al0 = xmalloc(na * J * sizeof(*al0));
	a1 = xmalloc(na * sizeof(*a1));
	loc = xmalloc(na);
	gsl_rng_set(rng, 4242 + K);
	/* the pooled draws: per from each null, their densities under all */
	for (d = 0; d < M; d++) {
		for (i = 0; i < K; i++)
			y[i] = m0[d / per][i] + gsl_ran_ugaussian(rng);
		centre(y, 1);
		for (j = 0; j < J; j++)
			l0[d * J + j] = (float)(tmp[j] = logf_u(y, m0[j]));
		lq[d] = logsum(tmp, NULL, J);
		for (j = 0; j < nalt; j++)
			tmp[j] = logf_u(y, m1[j]);
		l1[d] = logsum(tmp, NULL, nalt);
	}
	/* the staircase's draws */
	shape(stair, a, dstep, b, dstep);
	for (d = 0; d < na; d++) {
		for (i = 0; i < K; i++)
			y[i] = stair[i] + gsl_ran_ugaussian(rng);
		centre(y, 1);
		fit2(y, a, b, &at);
		loc[d] = (char)at;
		for (j = 0; j < J; j++)
			al0[d * J + j] = (float)logf_u(y, m0[j]);
		for (j = 0; j < nalt; j++)
			tmp[j] = logf_u(y, m1[j]);
		a1[d] = logsum(tmp, NULL, nalt);
	}
	lw = xcalloc(J, sizeof(*lw));
	w = xmalloc(J * sizeof(*w));
	T = xmalloc(M * sizeof(*T));
	mq = xmalloc(M * sizeof(*mq));
	ta = xmalloc(na * sizeof(*ta));
	for (it = 0; it <= 50; it++) {
		double top = -INFINITY, sw = 0, lo = -100, hi = 300, worst = 0;
		double cv, up = 0, level = 0, both = 0, fit = 0;
		size_t k2;

		for (j = 0; j < J; j++)
			top = lw[j] > top ? lw[j] : top;
		for (j = 0; j < J; j++)
			sw += (w[j] = exp(lw[j] - top));
		for (j = 0; j < J; j++)
			w[j] = w[j] / sw < 1e-9 ? 0 : w[j] / sw;
		for (d = 0; d < M; d++) {
			double l;

			for (j = 0; j < J; j++)
				tmp[j] = l0[d * J + j];
			l = logsum(tmp, w, J);
			T[d] = l1[d] - l;
			mq[d] = exp(l - lq[d]);
		}
		/* cv: 5% under the mix */
		for (k2 = 0; k2 < 60; k2++) {
			double size = 0;

			cv = (lo + hi) / 2;
			for (d = 0; d < M; d++)
				size += T[d] > cv ? mq[d] : 0;
			*(size / (double)M > ALPHA ? &lo : &hi) = cv;
		}
		cv = hi;
		for (j = 0; j < J; j++) {
			double rp = reject_rate(l0, lq, T, M, J, j, cv);

			worst = rp > worst ? rp : worst;
			lw[j] += 20 * (rp - ALPHA);
		}
		if (it < 50)
			continue; /* the report: after 50 rounds of weights */
		for (d = 0; d < na; d++) {
			for (j = 0; j < J; j++)
				tmp[j] = al0[d * J + j];
			ta[d] = a1[d] - logsum(tmp, w, J);
			up += ta[d] > cv;
		}
		/* the same statistic at a cut that holds 5% on every step */
		for (lo = cv, hi = 300, k2 = 0; k2 < 40; k2++) {
			double c = (lo + hi) / 2, mx = 0;

			for (j = 0; j < J; j++) {
				double rp = reject_rate(l0, lq, T, M, J, j, c);

				mx = rp > mx ? rp : mx;
			}
			*(mx > ALPHA ? &lo : &hi) = c;
		}
		for (d = 0; d < na; d++) {
			level += ta[d] > hi;
			both += ta[d] > hi && loc[d];
			fit += loc[d];
		}
		printf("  history staircase bound K=%zu %s: Neyman-Pearson vs the "
		       "least favourable mix %.3f; at 5%% on every step %.3f "
		       "(largest rate on a step at the mix's cut %.3f); with the "
		       "two-change fit at both edges %.3f; the fit alone %.3f "
		       "(%zu staircases, %zu steps x %zu draws)\n",
		       K, blind ? "blind" : "told", up / (double)na,
		       level / (double)na, worst, both / (double)na,
		       fit / (double)na, na, J, per);
	}
	free(m0), free(m1), free(tmp), free(l0), free(lq), free(l1);
	free(al0), free(a1), free(loc), free(lw), free(w), free(T), free(mq);
	free(ta);
	gsl_rng_free(rng);
}

/*
 * I(t) against its closed form: I_1(t) = sqrt(pi/2) exp(t^2/2)
 * erfc(-t/sqrt 2), I_2 = 1 + t I_1, and I_{n+1} = t I_n + (n - 1) I_{n-1}
 * (integration by parts), for r^(n-1) with n = 19 (K = 20).
 */
static void test_logi(void **state)
{
	static const double ts[] = { -1, 0, 0.7, 2, 8 };
	size_t i, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ts); i++) {
		double t = ts[i], lo = exp(t * t / 2) * sqrt(M_PI / 2) *
			   gsl_sf_erfc(-t / M_SQRT2), hi = 1 + t * lo;

		for (n = 2; n < 19; n++) {
			double next = t * hi + (double)(n - 1) * lo;

			lo = hi;
			hi = next;
		}
		assert_true(fabs(logi_direct(t, 19) - log(hi)) < 1e-6);
	}
	K = 20;
	logi_fill(19);
	assert_true(fabs(logi(0.7) - logi_direct(0.7, 19)) < 1e-4);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_logi),
	};

	if (argc > 2 && !strcmp(argv[1], "--bound")) {
		size_t k = strtoul(argv[2], NULL, 10);

		if (k < 8 || k > KMAX)
			return 2;
		bound(k, 0);
		bound(k, 1);
		two_split(k);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
