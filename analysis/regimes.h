/*
 * regimes.h - runs that fall into two regimes (a bimodal metric: 70% of the
 * runs at 100, 30% at 115), told from one noisy regime by a split test
 * calibrated by simulation (docs/STATISTICS.md, "Regimes").
 *
 * The test: on the logarithms of the values, over every split of the
 * sorted sample into a low and a high group of at least max(3, 15% of n)
 * values each, the largest separation of the two groups' means in units
 * of their pooled within-group standard deviation,
 *     D = max_k (mean_high - mean_low) / sqrt(SSW_k / (n - 2)).
 * D above its 5% critical value at n (the larger of the 96th percentiles
 * under normal and Student t(3) data, simulated, so that false alarms stay
 * at or under 5%; log-normal data are normal on this scale) calls the
 * sample multimodal.  Samples of fewer
 * than REGIMES_MIN_N values, or with a value <= 0, are not tested.
 * Statistics do not fail on data: a sample not tested has tested false.
 */
#ifndef CONTEND_REGIMES_H
#define CONTEND_REGIMES_H

#include <stdbool.h>
#include <stddef.h>

#define REGIMES_MIN_N 8

struct regime {
	size_t n;
	double share;           /* n / all values */
	double level, lo, hi;   /* mean, Student-t interval, in x's units */
	double min, max;
};

struct regimes {
	size_t n;               /* values */
	bool tested;
	bool multimodal;        /* d > critical */
	double d, critical;
	double cut;             /* a value <= cut is in regime 0 (low) */
	struct regime r[2];     /* low, high: the best split, tested or not */
};

/* The 5% critical value of D at n (n >= REGIMES_MIN_N; NAN below). */
double regimes_critical(size_t n);

/*
 * D of x[0..n-1] alone (x is not modified): the split's statistic, NAN
 * when it cannot be computed; for the simulations of the tests.
 */
double regimes_statistic(const double *x, size_t n);

/*
 * Tests x[0..n-1] and describes its two groups at confidence.  Returns 0
 * (-1 only for a confidence outside (0, 1)).
 */
int regimes_detect(const double *x, size_t n, double confidence,
		   struct regimes *g);

/* 0 for a value of the low regime, 1 for the high one. */
int regimes_which(const struct regimes *g, double v);

/*
 * regimes_flag.c: raises multimodal on ca when its primary metric's
 * measured runs are multimodal, else when its contention rates are, with
 * the high regime's level more than 10 times the low one's.  Call after
 * the summaries and before the outliers flag.
 */
struct analysis;
struct config_analysis;
void regimes_flag(const struct analysis *a, struct config_analysis *ca);
/* Whether ca carries multimodal on metric. */
bool regimes_flagged(const struct config_analysis *ca, int metric);

#endif
