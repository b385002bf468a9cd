/*
 * abfair.h - fairness and acquisition latency judged A/B: Jain's index,
 * the largest thread's share and acquire_p99_ns, each compared on the
 * two-level model with its interval, and the fairness-traded flag for a
 * candidate that is faster and significantly less fair, past locktorture's
 * starvation floor (a run starves when its busiest thread did more than
 * twice the work of its idlest: max/2 > min).  docs/STATISTICS.md,
 * "Fairness A/B".
 */
#ifndef CONTEND_ABFAIR_H
#define CONTEND_ABFAIR_H

#include <stdbool.h>

#include "analysis/analysis.h"
#include "lib/json.h"

enum { ABFAIR_JAIN, ABFAIR_MAX_SHARE, ABFAIR_P99, ABFAIR_N };

struct abfair_one {
	bool have;              /* abfair_judge compared it */
	double base, cand;      /* the model's levels */
	double change_pct, ci_low_pct, ci_high_pct;
	bool worse;             /* the whole interval on the worse side */
	bool better;            /* ... on the better side */
};

struct abfair {
	struct abfair_one m[ABFAIR_N];
	/* runs that starve (max/2 > min), of those with thread counts;
	 * NAN without any */
	double starved_base, starved_cand;
	bool traded;            /* the fairness-traded rule held */
};

/* Per run: the largest thread's share; 1 when max/2 > min, else 0; NAN
 * without per-thread counts. */
double abfair_max_share(const struct dataset *d, size_t r);
double abfair_starved(const struct dataset *d, size_t r);

/* One metric, direction dir, compared under o's model; have false when a
 * side has fewer than 2 values. */
struct compare_groups;
struct compare_opts;
void abfair_judge(const struct compare_groups *b, const struct compare_groups *c,
		  const struct compare_opts *o, int dir, struct abfair_one *out);

/* The mean of x[0..n-1], NAN when n is 0. */
double abfair_mean(const double *x, size_t n);

/* The rule: the candidate improved the compared metric, is significantly
 * worse in Jain's index or the largest share, and at least half its
 * runs starve. */
bool abfair_traded(const struct abfair *f, bool improved);

/* "jain 0.99 -> 0.81, -18% [-22%, -14%] (worse); ..." malloc'd, NULL
 * when nothing could be compared. */
char *abfair_text(const struct abfair *f);
/* The same as a JSON object's members, into the object w has open. */
void abfair_json(struct json_writer *w, const struct abfair *f_);

#endif
