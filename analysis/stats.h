/*
 * stats.h - the statistics contend reports, built on GSL: summaries and
 * intervals of one sample, correlations, two-sample tests, power, fairness
 * and variance components.  Pure functions on arrays: no I/O, no database.
 *
 * Every function leaves NAN in a field it cannot compute (n too small,
 * zero variance) rather than inventing a number, and still returns 0.
 * -1 (with error()) means a bad argument: a confidence outside (0, 1), a
 * non-finite sample, an empty ANOVA group; stats_median_ci's -1 for too
 * small an n is silent.  Methods and references: docs/STATISTICS.md.
 */
#ifndef CONTEND_STATS_H
#define CONTEND_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <gsl/gsl_cdf.h>
#include "lib/util.h"

/* Iglewicz-Hoaglin threshold for the modified z-score. */
#define STATS_OUTLIER_Z 3.5

struct summary {
	size_t n;
	double mean, sd, cv;            /* sd with n-1; cv = sd / |mean| */
	double median, min, max;
	double ci_low, ci_high;         /* Student-t CI of the mean */
	double median_ci_low, median_ci_high; /* order statistics (binomial) */
	double median_ci_level;         /* coverage actually achieved (>= asked) */
	double mad;                     /* median absolute deviation (raw) */
	size_t noutliers;               /* modified z-score > 3.5 */
	double skewness, kurtosis;      /* GSL's (kurtosis is excess) */
	double k2, k2_p;                /* D'Agostino K^2 and p; NAN if n < 8 */
};

/* Fills s for x[0..n-1] (x is not modified) at the given confidence. */
int stats_summarize(const double *x, size_t n, double confidence,
		    struct summary *s);
/*
 * Only the mean and its Student-t interval (the same numbers as
 * stats_summarize's mean, ci_low, ci_high), without sorting: for callers
 * that need no more, many times over.  NAN where n is too small; -1 as
 * stats_summarize.
 */
int stats_mean_ci(const double *x, size_t n, double confidence, double *mean,
		  double *lo, double *hi);
/*
 * Modified z-scores 0.6745 (x - median) / MAD of a sample whose median
 * and raw MAD are known (a summary's); writes the indices whose |z| >
 * STATS_OUTLIER_Z to idx (room for n; NULL to count) and returns their count.
 * When the MAD is 0 (over half the values equal) the scale is 1.2533
 * times the mean absolute deviation from the median; when that is 0 too,
 * none.
 */
size_t stats_outliers_around(const double *x, size_t n, double median,
			     double mad, size_t *idx);
/*
 * Distribution-free CI of the median from order statistics: the narrowest
 * symmetric pair (x_(k), x_(n-k+1)) whose binomial(n, 1/2) coverage is at
 * least confidence.  Returns -1 when n is too small for that coverage.
 */
int stats_median_ci(const double *sorted, size_t n, double confidence,
		    double *lo, double *hi, double *level);
/* D'Agostino-Pearson omnibus K^2 (n >= 8), chi-square(2) p-value. */
int stats_dagostino(const double *x, size_t n, double *k2, double *p);
/* n / sum(1/x): the mean rate under fixed work. */
double stats_harmonic_mean(const double *x, size_t n);

struct correlation {
	size_t n;
	double r;   /* Pearson r or Spearman rho */
	double p;   /* two-sided; t with n-2 df */
};
int stats_pearson(const double *x, const double *y, size_t n,
		  struct correlation *c);
/* Spearman's rho: Pearson on mid-ranks (ties averaged). */
int stats_spearman(const double *x, const double *y, size_t n,
		   struct correlation *c);

/* Jain's fairness index (sum x)^2 / (n sum x^2); 1 is perfectly fair. */
double stats_jain(const uint64_t *ops, size_t n);
/* The largest share of the total (0..1). */
double stats_max_share(const uint64_t *ops, size_t n);

/* Welch's unequal-variance t test of mean(b) - mean(a). */
struct welch {
	double diff;            /* mean(b) - mean(a) */
	double se, df, t, p;    /* Welch-Satterthwaite df; two-sided p */
	double ci_low, ci_high; /* CI of diff at the given confidence */
};
int stats_welch(const double *a, size_t na, const double *b, size_t nb,
		double confidence, struct welch *w);

/*
 * The change of a positive quantity as the ratio of the two sides' means,
 * its interval on the log scale (delta method) so that it stays above
 * -100%; df Satterthwaite's, never below 1, at most df_cap when >= 1; p
 * the t test of log ratio = 0 (docs/STATISTICS.md, "Changes of a rate").
 * ma <= 0: all NAN.  mb = 0: a fall of exactly 100%, p = 0.
 */
struct ratio {
	double ratio;           /* mb / ma */
	double change_pct;      /* 100 (ratio - 1) */
	double ci_low_pct, ci_high_pct; /* > -100 when mb > 0 */
	double se_log, df, t, p;
};
/* ma, mb the means; va, vb the squared standard errors of the means. */
int stats_ratio(double ma, double va, double dfa, double mb, double vb,
		double dfb, double df_cap, double confidence, struct ratio *r);
/* From two samples of runs: means, S2/n on n - 1 df each (Welch). */
int stats_ratio_welch(const double *a, size_t na, const double *b, size_t nb,
		      double confidence, struct ratio *r);

/* Mann-Whitney U of a vs b. */
struct mannwhitney {
	double u;       /* U of sample a */
	double z;       /* normal approximation, tie- and continuity-corrected */
	double p;       /* two-sided */
	bool exact;     /* p from the exact distribution (na, nb < 50, no ties) */
};
int stats_mannwhitney(const double *a, size_t na, const double *b, size_t nb,
		      struct mannwhitney *m);

/* Hedges' g of b vs a (bias-corrected standardized mean difference). */
double stats_hedges_g(const double *a, size_t na, const double *b, size_t nb);

/*
 * Power: the smallest true difference two groups of n runs each with
 * standard deviation sd detect with two-sided alpha and the given power
 * (t distribution, 2n-2 df), and the runs per side needed for delta.
 */
double stats_mde(double sd, size_t n, double alpha, double power);
/* 0 when it cannot be computed (delta <= 0, sd not finite). */
size_t stats_needed_n(double sd, double delta, double alpha, double power);

/* One-way random-effects ANOVA (groups = invocations, e.g. boots). */
struct anova {
	size_t k, n;                  /* groups, observations */
	double ms_between, ms_within;
	double f, p;
	double var_between, var_within; /* variance components (>= 0) */
	double icc;                   /* var_between / total */
	double n0;                    /* effective group size (unbalanced) */
};
/* x holds the groups back to back; sizes[i] observations in group i. */
int stats_anova(const double *x, const size_t *sizes, size_t k,
		struct anova *a);

/*
 * The two-level model: runs nested in invocations, invocations in sides,
 * x_sij = mu_s + b_si + e_sij, Var b = s2_b, Var e = s2_w; moment
 * estimates of the components, mu_s by generalised least squares, df
 * Satterthwaite's (docs/STATISTICS.md, "Two-level model").  The d_*
 * fields are the derivatives of var_mean by each mean square, for the df.
 */
struct nested {
	size_t k, n;            /* invocations, runs */
	struct anova anova;     /* of this side alone */
	double var_between;     /* s2_b used */
	double var_within;      /* s2_w used (MSW, or S2 when pooled) */
	double pool_var;        /* S2: variance of all runs, N - 1 df */
	bool borrowed;          /* k = 1: s2_b comes from the other side */
	bool pooled;            /* s2_b = 0: the runs pooled */
	double mean, var_mean;  /* estimate of mu, its variance; NAN: unknown */
	double df;              /* Satterthwaite df of var_mean */
	double d_msb, d_msw, d_pool;     /* MSB, MSW, S2 */
};

/*
 * One side alone (the levels report): x holds k groups back to back,
 * sizes[i] values in group i (k >= 1, every size >= 1).  -1 as
 * stats_anova.
 */
int stats_nested(const double *x, const size_t *sizes, size_t k,
		 struct nested *s);
/* The Student-t interval of s->mean on s->df (NAN when unknown). */
void stats_nested_ci(const struct nested *s, double confidence, double *lo,
		     double *hi);

/*
 * mu_b - mu_a, s2_b and s2_w common to both sides (the ANOVA of
 * invocations nested in sides: MSB on K - 2 df), so that a side of one
 * invocation borrows the other's s2_b.
 */
struct nested_diff {
	struct nested a, b;
	double diff, se, df, t, p;      /* Satterthwaite df over both sides */
	double df_between;              /* K - 2: the df of MSB (0: none) */
	double ci_low, ci_high;         /* exact diff when se = 0 */
};
int stats_nested_diff(const double *xa, const size_t *sa, size_t ka,
		      const double *xb, const size_t *sb, size_t kb,
		      double confidence, struct nested_diff *d);
/*
 * One-sided p of H1: diff < margin (lower) or diff > margin (!lower), on
 * at most df_between df when there are any (docs/STATISTICS.md, "The gate").
 */
double stats_nested_p_beyond(const struct nested_diff *d, double margin,
			     bool lower);

/*
 * The smallest difference k invocations of n runs a side detect
 * (two-sided alpha, power; t on 2(k-1) df, or 2(n-1) when k = 1).
 */
double stats_nested_mde(double s2_b, double s2_w, size_t n, size_t k,
			double alpha, double power);

/*
 * How many boots of how many runs, the plan levels and compare print:
 * Kalibera & Jones's runs per boot, then the fewest boots (>= 2) that
 * detect delta (docs/STATISTICS.md, "How many boots of how many runs").
 * Unknown costs (c_run <= 0 or NAN): the runs stay at n_now.  boots = 0:
 * no plan up to 100000 boots.
 */
struct boot_plan {
	double runs_opt;        /* r*; INFINITY when s2_b = 0, NAN unknown */
	size_t runs, boots;     /* R runs per boot, B boots a side */
	double c_boot, c_run;   /* the costs it used (NAN: unknown) */
};
int stats_boot_plan(double s2_b, double s2_w, double c_boot, double c_run,
		    size_t n_now, double delta, double alpha, double power,
		    struct boot_plan *p);
/* The integer >= 1 (<= 10^6) next to r_opt of least cost per precision. */
long stats_runs_best(double s2_b, double s2_w, double c_boot, double c_run,
		     double r_opt);

/* What stats.c and stats_nested.c share. */
/* Exact equality without -Wfloat-equal's complaint: ties are exact here. */
static inline bool stats_same(double a, double b)
{
	return !(a < b) && !(a > b);
}

static inline int stats_check_confidence(double c)
{
	return c > 0.0 && c < 1.0
		       ? 0
		       : error("stats: confidence %g is not in (0, 1)", c);
}

static inline int stats_check_finite(const double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return error("stats: sample %zu of %zu is not a finite number",
				     i + 1, n);
	return 0;
}

/* Two-sided Student-t quantile t_{(1+c)/2, df}. */
static inline double stats_t_crit(double confidence, double df)
{
	return gsl_cdf_tdist_Pinv((1.0 + confidence) / 2.0, df);
}

/* Two-sided p of a t statistic with df degrees of freedom. */
static inline double stats_t_pvalue(double t, double df)
{
	return fmin(1.0, 2.0 * gsl_cdf_tdist_Q(fabs(t), df));
}

#endif
