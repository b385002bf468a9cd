/*
 * regimes.h - runs that fall into two regimes (a bimodal metric: 70% of the
 * runs at 100, 30% at 115), told from one noisy regime by a split test
 * calibrated by simulation (docs/STATISTICS.md, "Regimes"): on the logs,
 *     D = max_k (mean_high - mean_low) / max(s_low,k, s_high,k)
 * over the splits into groups of at least max(3, 15% of n), against its
 * critical value at n.  Samples of fewer than REGIMES_MIN_N values, or
 * with a value <= 0, are not tested (tested false).
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
 * Raises multimodal on ca when its primary metric's
 * measured runs are multimodal, else when its contention rates are, with
 * the high regime's level more than 10 times the low one's.  Call after
 * the summaries and before the outliers flag.
 */
struct analysis;
struct config_analysis;
void regimes_flag(const struct analysis *a, struct config_analysis *ca);
/* Whether ca carries multimodal on metric. */
bool regimes_flagged(const struct config_analysis *ca, int metric);

/* regimes_compare.c: two sides' runs against the regimes of both. */
struct regimes_cmp {
	struct regimes g;       /* of the pooled runs */
	double share_high_base, share_high_cand;
	double p;               /* Fisher's exact test of the shares */
	bool differ;            /* p < 1 - confidence */
	char *message;          /* malloc'd when g.multimodal, else NULL:
				 * shares, p, the changes within regimes */
};
/*
 * When b[0..nb-1] or c[0..nc-1] is multimodal by itself and the two
 * together are, fills the shares of the pooled regimes, the test and the
 * message (the caller frees it); else leaves g.multimodal false (two
 * sides each in one regime, apart, are a change, not two regimes).
 * Returns 0, or -1 for a bad confidence.
 */
int regimes_compare(const double *b, size_t nb, const double *c, size_t nc,
		    double confidence, struct regimes_cmp *out);
/* Fisher's exact test, two-sided, of the table (a b / c d). */
double regimes_fisher(unsigned a, unsigned b, unsigned c, unsigned d);

#endif
