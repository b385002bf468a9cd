/*
 * stats_nested.c - the statistics of stats.h for planning and for
 * repeated experiments: the power of a test (minimum detectable effect,
 * runs needed), variance components (one-way ANOVA) and the two-level
 * model of runs within experiments (stats_nested*).  Conventions as in
 * stats.c; docs/STATISTICS.md gives each formula and its reference.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis/stats.h"
#include "lib/util.h"

/* ---- power ------------------------------------------------------------ */

/* t_{1-alpha/2} + t_power on df: a power computation's multiplier. */
static double t_power(double alpha, double power, double df)
{
	return gsl_cdf_tdist_Pinv(1.0 - alpha / 2.0, df) +
	       gsl_cdf_tdist_Pinv(power, df);
}

static bool valid_power_args(double sd, double alpha, double power)
{
	return sd >= 0.0 && isfinite(sd) && alpha > 0.0 && alpha < 1.0 &&
	       power > 0.0 && power < 1.0;
}

double stats_mde(double sd, size_t n, double alpha, double power)
{
	double df;

	if (n < 2 || !valid_power_args(sd, alpha, power))
		return NAN;
	df = 2.0 * (double)n - 2.0;
	return t_power(alpha, power, df) * sd * sqrt(2.0 / (double)n);
}

size_t stats_needed_n(double sd, double delta, double alpha, double power)
{
	double nz;
	size_t n = 2;

	if (!valid_power_args(sd, alpha, power) || !(delta > 0.0) ||
	    !isfinite(delta))
		return 0;
	/* Start at the normal law's n, a lower bound when power >= 1/2. */
	nz = 2.0 * pow((gsl_cdf_ugaussian_Pinv(1.0 - alpha / 2.0) +
			gsl_cdf_ugaussian_Pinv(power)) * sd / delta, 2.0);
	if (nz >= 1e15)
		return SIZE_MAX;
	if (power >= 0.5 && nz > 2.0)
		n = (size_t)nz;
	while (stats_mde(sd, n, alpha, power) > delta)
		n++;
	return n;
}

/* ---- variance components ---------------------------------------------- */

static double sizes_sq(const size_t *sizes, size_t k)
{
	double sq = 0.0;

	for (size_t i = 0; i < k; i++)
		sq += (double)sizes[i] * (double)sizes[i];
	return sq;
}

/* Sums of squares between and within groups (two-pass). */
static void anova_sums(const double *x, const size_t *sizes, size_t k,
		       size_t n, double *ssb, double *ssw)
{
	double grand = gsl_stats_mean(x, 1, n);
	const double *g = x;

	*ssb = *ssw = 0.0;
	for (size_t i = 0; i < k; g += sizes[i], i++) {
		double m = gsl_stats_mean(g, 1, sizes[i]);

		*ssb += (double)sizes[i] * (m - grand) * (m - grand);
		*ssw += gsl_stats_tss_m(g, 1, sizes[i], m);
	}
}

int stats_anova(const double *x, const size_t *sizes, size_t k,
		struct anova *a)
{
	double ssb, ssw, n;

	*a = (struct anova){ .k = k, .ms_between = NAN, .ms_within = NAN,
			     .f = NAN, .p = NAN, .var_between = NAN,
			     .var_within = NAN, .icc = NAN, .n0 = NAN };
	for (size_t i = 0; i < k; i++) {
		if (sizes[i] == 0)
			return error("stats: ANOVA group %zu of %zu is empty",
				     i + 1, k);
		a->n += sizes[i];
	}
	if (stats_check_finite(x, a->n) < 0)
		return -1;
	if (k < 2 || a->n <= k)
		return 0;
	n = (double)a->n;
	anova_sums(x, sizes, k, a->n, &ssb, &ssw);
	a->ms_between = ssb / (double)(k - 1);
	a->ms_within = ssw / (n - (double)k);
	/* n0: the group size that makes E[MS_between] = s2_w + n0 s2_b. */
	a->n0 = (n - sizes_sq(sizes, k) / n) / (double)(k - 1);
	a->var_within = a->ms_within;
	a->var_between = fmax(0.0, (a->ms_between - a->ms_within) / a->n0);
	if (a->var_between + a->var_within > 0.0)
		a->icc = a->var_between / (a->var_between + a->var_within);
	if (a->ms_within > 0.0) {
		a->f = a->ms_between / a->ms_within;
		a->p = gsl_cdf_fdist_Q(a->f, (double)(k - 1), n - (double)k);
	}
	return 0;
}

/* ---- the two-level model ---------------------------------------------- */

/* Pooled runs: Var mu = S2 / N on N - 1 df. */
static void nested_pool(const double *x, struct nested *s)
{
	s->pooled = true;
	s->borrowed = false;
	s->d_msb = s->d_msw = 0.0;
	s->var_between = 0.0;
	s->var_within = s->pool_var;
	s->mean = gsl_stats_mean(x, 1, s->n);
	s->var_mean = s->pool_var / (double)s->n;
	s->d_pool = 1.0 / (double)s->n;
}

/* GLS with the side's own components s2_b > 0 (k >= 2). */
static void nested_gls(const double *x, const size_t *sizes, struct nested *s)
{
	double sb = s->var_between, sw = s->var_within, sumw = 0.0;
	double sumwm = 0.0, sumw2 = 0.0, sumw2n = 0.0, n0 = s->anova.n0;
	const double *g = x;

	for (size_t i = 0; i < s->k; g += sizes[i], i++) {
		double ni = (double)sizes[i], w = 1.0 / (sb + sw / ni);

		sumw += w;
		sumwm += w * gsl_stats_mean(g, 1, sizes[i]);
		sumw2 += w * w;
		sumw2n += w * w / ni;
	}
	s->mean = sumwm / sumw;
	s->var_mean = 1.0 / sumw;
	/* dV/ds2_b = V^2 sum w^2, dV/ds2_w = V^2 sum w^2/n_i; s2_b = (MSB - MSW)/n0. */
	s->d_msb = s->var_mean * s->var_mean * sumw2 / n0;
	s->d_msw = s->var_mean * s->var_mean * sumw2n - s->d_msb;
}

/*
 * s2_b estimated as 0 (MSB <= MSW), one side's or the joint: the runs'
 * mean, its variance from the untruncated s2_b = (MSB - MSW) / n0:
 * Var = c1 MSB + c2 MSW, c1 = sum n_i^2 / (N^2 n0), c2 = 1/N - c1, left
 * in d_msb and d_msw (docs/STATISTICS.md, "Small designs": truncating
 * at 0 would cost coverage once ICC > 0).
 */
static void untruncated(const double *x, const size_t *sizes, double msb,
			double msw, double n0, struct nested *s)
{
	double n = (double)s->n, c1, c2;

	c1 = sizes_sq(sizes, s->k) / (n * n * n0);
	c2 = 1.0 / n - c1;
	s->pooled = true;
	s->borrowed = s->k == 1;
	s->var_between = 0.0;
	s->var_within = msw;
	s->mean = gsl_stats_mean(x, 1, s->n);
	s->var_mean = c1 * msb + c2 * msw;
	if (!(s->var_mean > 0.0)) {
		/* MSB far below MSW and c2 < 0 (one long invocation). */
		c2 = 0.0;
		c1 = fmin(c1, 1.0 / n);
		s->var_mean = c1 * msb;
	}
	s->d_msb = c1;
	s->d_msw = c2;
	s->d_pool = 0.0;
}

/* Sum over the sources of (dV/dMS)^2 MS^2 / df, one side's own sources. */
static double nested_own_terms(const struct nested *s)
{
	const struct anova *a = &s->anova;
	double t = 0.0;

	if (!stats_same(s->d_msb, 0.0))
		t += pow(s->d_msb * a->ms_between, 2) / (double)(a->k - 1);
	if (!stats_same(s->d_msw, 0.0))
		t += pow(s->d_msw * a->ms_within, 2) / (double)(a->n - a->k);
	if (!stats_same(s->d_pool, 0.0))
		t += pow(s->d_pool * s->pool_var, 2) / (double)(s->n - 1);
	return t;
}

/*
 * Satterthwaite: df = V^2 / sum (dV/dMS_j MS_j)^2 / df_j, never below 1
 * (a mean square on a fraction of a degree of freedom is no estimate;
 * below 1 the t quantile explodes: t_{0.975, 0.5} = 160).
 */
static double satterthwaite(double v, double terms)
{
	return terms > 0.0 ? fmax(1.0, v * v / terms) : NAN;
}

int stats_nested(const double *x, const size_t *sizes, size_t k,
		 struct nested *s)
{
	*s = (struct nested){ .k = k, .var_between = NAN, .var_within = NAN,
			      .pool_var = NAN, .mean = NAN, .var_mean = NAN,
			      .df = NAN };
	if (k == 0)
		return error("stats: a side of the two-level model has no "
			     "invocations");
	if (stats_anova(x, sizes, k, &s->anova) < 0)
		return -1;
	s->n = s->anova.n;
	if (s->n >= 2)
		s->pool_var = gsl_stats_variance(x, 1, s->n);
	if (k >= 2 && s->anova.var_between > 0.0) {
		s->var_between = s->anova.var_between;
		s->var_within = s->anova.var_within;
		nested_gls(x, sizes, s);
	} else if (k >= 2 && s->n > k) {
		untruncated(x, sizes, s->anova.ms_between, s->anova.ms_within,
			    s->anova.n0, s);
	} else if (s->n >= 2) {
		nested_pool(x, s);
	} else {
		s->mean = x[0];         /* one value: no spread */
		return 0;
	}
	s->df = satterthwaite(s->var_mean, nested_own_terms(s));
	/* Never more df than MSB's k - 1 (as stats_nested_diff's K - 2). */
	if (k >= 2)
		s->df = fmin(s->df, (double)(k - 1));
	return 0;
}

void stats_nested_ci(const struct nested *s, double confidence, double *lo,
		     double *hi)
{
	double h = isfinite(s->df) && confidence > 0.0 && confidence < 1.0
			   ? stats_t_crit(confidence, s->df) * sqrt(s->var_mean)
			   : NAN;

	*lo = s->mean - h;
	*hi = s->mean + h;
	if (stats_same(s->var_mean, 0.0))
		*lo = *hi = s->mean;
}

/* The joint ANOVA of two sides: invocations nested in sides. */
struct joint {
	double msb, msw, n0, dfb, dfw, sb;
};

static void joint_anova(const double *xa, const size_t *sa, size_t ka,
			const double *xb, const size_t *sb, size_t kb,
			const struct nested *a, const struct nested *b,
			struct joint *j)
{
	double ssba, sswa, ssbb, sswb, n = (double)(a->n + b->n);

	anova_sums(xa, sa, ka, a->n, &ssba, &sswa);
	anova_sums(xb, sb, kb, b->n, &ssbb, &sswb);
	j->dfb = (double)(ka + kb) - 2.0;
	j->dfw = n - (double)(ka + kb);
	j->msb = j->msw = j->n0 = j->sb = NAN;
	if (j->dfw >= 1.0)
		j->msw = (sswa + sswb) / j->dfw;
	if (j->dfb < 1.0 || !(j->dfw >= 1.0))
		return;
	j->msb = (ssba + ssbb) / j->dfb;
	/* E[MSB] = s2_w + n0 s2_b for invocations nested in sides. */
	j->n0 = (n - sizes_sq(sa, ka) / (double)a->n -
		 sizes_sq(sb, kb) / (double)b->n) / j->dfb;
	j->sb = fmax(0.0, (j->msb - j->msw) / j->n0);
}

/* A side under the joint components s2_b > 0: GLS as nested_gls. */
static void side_joint(const double *x, const size_t *sizes,
		       const struct joint *j, struct nested *s)
{
	s->anova.n0 = j->n0;    /* nested_gls's chain rule uses it */
	s->var_between = j->sb;
	s->var_within = j->msw;
	s->pooled = false;
	s->borrowed = s->k == 1;
	nested_gls(x, sizes, s);
	s->df = satterthwaite(s->var_mean,
			      pow(s->d_msb * j->msb, 2) / j->dfb +
			      pow(s->d_msw * j->msw, 2) / j->dfw);
}

int stats_nested_diff(const double *xa, const size_t *sa, size_t ka,
		      const double *xb, const size_t *sb, size_t kb,
		      double confidence, struct nested_diff *d)
{
	struct joint j;
	double v, h, terms;

	memset(d, 0, sizeof(*d));
	d->se = d->df = d->t = d->p = d->ci_low = d->ci_high = NAN;
	if (stats_check_confidence(confidence) < 0)
		return -1;
	if (stats_nested(xa, sa, ka, &d->a) < 0 ||
	    stats_nested(xb, sb, kb, &d->b) < 0)
		return -1;
	joint_anova(xa, sa, ka, xb, sb, kb, &d->a, &d->b, &j);
	d->df_between = fmax(0.0, j.dfb);
	if (j.sb > 0.0) {
		side_joint(xa, sa, &j, &d->a);
		side_joint(xb, sb, &j, &d->b);
		terms = pow((d->a.d_msb + d->b.d_msb) * j.msb, 2) / j.dfb +
			pow((d->a.d_msw + d->b.d_msw) * j.msw, 2) / j.dfw;
	} else if (isfinite(j.msb) && j.n0 > 0.0 && d->a.n && d->b.n) {
		untruncated(xa, sa, j.msb, j.msw, j.n0, &d->a);
		untruncated(xb, sb, j.msb, j.msw, j.n0, &d->b);
		terms = pow((d->a.d_msb + d->b.d_msb) * j.msb, 2) / j.dfb +
			pow((d->a.d_msw + d->b.d_msw) * j.msw, 2) / j.dfw;
	} else {
		/* One invocation a side: runs pooled, Welch. */
		if (ka >= 2)
			nested_pool(xa, &d->a);
		if (kb >= 2)
			nested_pool(xb, &d->b);
		terms = nested_own_terms(&d->a) + nested_own_terms(&d->b);
	}
	d->diff = d->b.mean - d->a.mean;
	v = d->a.var_mean + d->b.var_mean;
	if (!isfinite(v))
		return 0;
	d->se = sqrt(v);
	if (stats_same(v, 0.0)) {
		d->ci_low = d->ci_high = d->diff;
		return 0;
	}
	d->df = satterthwaite(v, terms);
	/*
	 * Never more df than MSB has (K - 2), or the interval undercovers
	 * with few invocations (docs/STATISTICS.md, "Small designs"); one
	 * invocation a side has no MSB: the runs' df stand.
	 */
	if (d->df_between >= 1.0)
		d->df = fmin(d->df, d->df_between);
	d->t = d->diff / d->se;
	d->p = stats_t_pvalue(d->t, d->df);
	h = stats_t_crit(confidence, d->df) * d->se;
	d->ci_low = d->diff - h;
	d->ci_high = d->diff + h;
	return 0;
}

double stats_nested_p_beyond(const struct nested_diff *d, double margin,
			     bool lower)
{
	double t, df = d->df_between >= 1.0 ? fmin(d->df, d->df_between)
					    : d->df;

	if (!(d->se > 0.0) || !isfinite(df))
		return NAN;
	t = (d->diff - margin) / d->se;
	return lower ? gsl_cdf_tdist_P(t, df) : gsl_cdf_tdist_Q(t, df);
}

double stats_nested_mde(double s2_b, double s2_w, size_t n, size_t k,
			double alpha, double power)
{
	double df, v;

	if (!n || !k || !(s2_b >= 0.0) || !(s2_w >= 0.0) ||
	    !valid_power_args(0.0, alpha, power))
		return NAN;
	/* stats_nested_diff's df: K - 2, or the pooled runs' at k = 1. */
	df = k >= 2 ? 2.0 * ((double)k - 1.0) : 2.0 * ((double)n - 1.0);
	if (df < 1.0)
		return NAN;
	v = 2.0 * (s2_b + s2_w / (double)n) / (double)k;
	return t_power(alpha, power, df) * sqrt(v);
}

/* ---- how many boots of how many runs ---------------------------------- */

/* Variance of a level times the cost of a boot of n runs (K&J's f). */
static double alloc_cost(double sb, double sw, double cb, double cr, double n)
{
	return (sb + sw / n) * (cb + n * cr);
}

long stats_runs_best(double s2_b, double s2_w, double c_boot, double c_run,
		     double r_opt)
{
	double lo = floor(fmin(r_opt, 1e6));

	if (!(lo >= 1))
		return 1;
	if (lo >= 1e6)
		return 1000000;
	if (alloc_cost(s2_b, s2_w, c_boot, c_run, lo) <=
	    alloc_cost(s2_b, s2_w, c_boot, c_run, lo + 1))
		return (long)lo;
	return (long)lo + 1;
}

/* The fewest boots a side (>= 2) at r runs each that detect delta. */
static size_t boots_for(double sb, double sw, size_t r, double delta,
			double alpha, double power)
{
	for (size_t k = 2; k <= 100000; k++)
		if (stats_nested_mde(sb, sw, r, k, alpha, power) <= delta)
			return k;
	return 0;
}

int stats_boot_plan(double s2_b, double s2_w, double c_boot, double c_run,
		    size_t n_now, double delta, double alpha, double power,
		    struct boot_plan *p)
{
	bool costs = c_boot >= 0.0 && isfinite(c_boot) && c_run > 0.0 &&
		     isfinite(c_run);
	double best = INFINITY;
	size_t runs_now = n_now ? n_now : 2;

	*p = (struct boot_plan){ .runs_opt = NAN, .runs = 0, .boots = 0,
				 .c_boot = costs ? c_boot : NAN,
				 .c_run = costs ? c_run : NAN };
	if (!(s2_b >= 0.0) || !(s2_w >= 0.0) || !isfinite(s2_b + s2_w) ||
	    !(delta > 0.0) || !isfinite(delta) ||
	    !valid_power_args(0.0, alpha, power))
		return 0;
	if (!(s2_b + s2_w > 0.0)) {
		p->runs = runs_now;
		p->boots = 2;
		return 0;
	}
	/*
	 * Kalibera & Jones: r* = sqrt(c_boot/c_run s2_w/s2_b), unbounded at
	 * s2_b = 0, where the interval rests on the boots (2(k - 1) df): the
	 * cheapest k >= 2 with the runs each needs, when the costs are known.
	 */
	if (!(s2_b > 0.0))
		p->runs_opt = INFINITY;
	else if (costs)
		p->runs_opt = sqrt(c_boot / c_run * s2_w / s2_b);
	if (s2_b > 0.0 || !costs) {
		p->runs = costs ? (size_t)stats_runs_best(s2_b, s2_w, c_boot,
							  c_run, p->runs_opt)
				: runs_now;
		p->boots = boots_for(s2_b, s2_w, p->runs, delta, alpha, power);
		return 0;
	}
	for (size_t k = 2; k <= 1000; k++) {
		double q = t_power(alpha, power, 2.0 * ((double)k - 1.0));
		double r = ceil(2.0 * q * q * s2_w /
				((double)k * delta * delta));
		double cost;

		r = fmax(r, 2.0);
		if (r > 1e6)
			continue;
		cost = (double)k * (c_boot + r * c_run);
		if (cost < best) {
			best = cost;
			p->boots = k;
			p->runs = (size_t)r;
		}
	}
	return 0;
}
