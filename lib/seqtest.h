/*
 * seqtest.h - the sequential decision of `contend bisect`: after each
 * round of runs of the kernel under test (one boot: one invocation),
 * whether it is bad (regressed by PCT against the stored baseline of
 * several boots of the good kernel), good (such a regression ruled out),
 * or not yet known; pure statistics, below the runner that applies it
 * after every round and the command that states the result.
 *
 * The model is compare's two-level one (docs/STATISTICS.md): on the log
 * scale x_ij = mu + b_i + e_ij, Var b = s2_b between boots, Var e = s2_w
 * within.  The candidate's mean after n runs, m_C, has variance
 * s2_b + s2_w / n; the baseline's mean m_B of k boots (n0 runs each, on
 * average) about (s2_b + s2_w / n0) / k.  The regression is
 * r = -dir (m_C - m_B) (positive: worse), and
 *
 *	V(n) = MSB (1 + 1/k) / n0 + MSW (1/n - 1/n0)
 *
 * its variance from the ANOVA mean squares (MSB of the baseline's boots,
 * MSW of the runs within boots, the candidate's included), on
 * Satterthwaite's df; with s2_b estimated as 0, V = MSW (1/n + 1/(k n0))
 * on MSW's df.  Two hypotheses: H0 r = 0 (nothing regressed) and H1
 * r = delta = -log(1 - PCT) (the regression hunted).  At look j, with
 * information I_j = 1/V(n_j) and fraction t_j = I_j / I(max_runs):
 *
 *	bad   when  r / sqrt(V)          > t_{1 - a_j, df}
 *	good  when  (delta - r) / sqrt(V) > t_{1 - b_j, df}
 *
 * a_j the increment of the O'Brien-Fleming-type spending function
 * alpha(t) = 2 - 2 Phi(z_{1-alpha/2} / sqrt t) (Lan & DeMets 1983), b_j
 * the same for beta, alpha and beta being the boot's shares of the
 * step's (seq_boot_level: 3/4 on the first boot).  Adding the increments
 * (Bonferroni over the looks and the boots) keeps P(bad | H0) <= alpha
 * and P(good | H1) <= beta over every boot of a step whatever the
 * correlation of the looks: conservative, checked by seeded simulation
 * (tests/test_seqtest.c, tests/test_bisect_sim.c).  At max_runs without a decision: cap (bisect's
 * "skip", exit 125).
 *
 * Zero spread (V = 0: every run of both sides the same value) knows r:
 * bad when r > 0, good otherwise (|r| below 1e-12 counts as 0).
 *
 * Collapsed runs (failed, or a metric of 0 or less, which has no log)
 * are an outcome of their own: at every look, when the candidate's share
 * of collapsed runs is above the baseline's, Fisher's exact test (one
 * sided, the hypergeometric tail) of the candidate's count against the
 * baseline's, at the boot's share of alpha / looks (Bonferroni), calls
 * the kernel bad.  Under H0 (the same kernel: collapses exchangeable
 * between the sides) that holds P(bad by collapse) <= alpha, so a step's
 * false alarm is at most alpha where the good kernel never collapses and
 * 2 alpha in all.  While the candidate collapses more often than the
 * baseline it is never called good: its loss includes the collapsed runs.
 */
#ifndef CONTEND_SEQTEST_H
#define CONTEND_SEQTEST_H

#include <stddef.h>

/* The stored baseline of one configuration, on the log scale. */
struct seq_baseline {
	size_t k;               /* boots (invocations), >= 2 */
	double n0;              /* runs per boot (mean) */
	double mean;            /* m_B: GLS mean of the boots */
	double msb, df_b;       /* between-boot mean square, k - 1 df */
	double ssw, df_w;       /* within-boot sum of squares and its df */
	size_t runs;            /* measured outcomes: values and collapses */
	size_t collapsed;       /* of those, failed or not above 0 */
};

struct seq_design {
	double delta;           /* -log(1 - PCT): the regression hunted, > 0 */
	int dir;                /* +1 higher is better, -1 lower is better */
	double alpha, beta;     /* 0.05, 0.10 */
	int max_runs;           /* the candidate's cap */
	int looks;              /* looks planned (collapse test: alpha/looks) */
};

enum seq_decision { SEQ_CONTINUE, SEQ_BAD, SEQ_GOOD, SEQ_CAP };
extern const char *const seq_decision_names[]; /* "continue", "bad", ... */

/* Why: the level's test, exact (zero spread), or the collapsed runs. */
enum seq_reason { SEQ_BY_LEVEL, SEQ_BY_EXACT, SEQ_BY_COLLAPSE };
extern const char *const seq_reason_names[]; /* "level", "exact", ... */

/* What one look saw; the spending so far is carried in spent_*. */
struct seq_look {
	size_t n;                /* candidate runs */
	double regression;       /* r, log scale */
	double se, df;           /* sqrt V, its df */
	double frac;             /* information fraction t_j */
	double a, b;             /* this look's alpha and beta increments */
	double ci_low, ci_high;  /* 1 - 2 alpha interval of r, log scale */
	size_t collapsed;        /* candidate runs collapsed (not in n) */
	double p_collapse;       /* Fisher's one-sided p; NAN: not tested */
	enum seq_decision decision;
	enum seq_reason reason;
};

struct seq_state {
	int looks;
	double spent_alpha, spent_beta;
};

/*
 * The candidate's earlier boots in a step continued after a reboot
 * (`bisect --continue`): J = j + 1 boots with the current one, the
 * candidate's level the mean of their means, so that
 *
 *	V = s2_b (1/J + 1/k) + s2_w (S / J^2 + 1/(k n0)),  S = sum 1/n_i,
 *
 * the candidate's between-boot variance staying in V however many runs
 * its boots have.  MSW is pooled over every boot of both sides, and s2_b
 * over both kernels' boots: the baseline's MSB / n0 (k - 1 df) estimates
 * s2_b + s2_w / n0, the variance of the candidate's J boot means (J - 1
 * df) s2_b + s2_w S / J; V, a combination of the three mean squares, is
 * on Satterthwaite's df.  With j = 0 it is the one-boot V above.
 */
struct seq_prior {
	size_t j;               /* earlier boots with values */
	double sum_means;       /* sum of their means (logs) */
	double sum_sq_means;    /* sum of their means' squares */
	double sum_inv_n;       /* sum of 1 / n_i over them */
	double ss, df;          /* within-boot sum of squares, sum (n_i - 1) */
	size_t runs, collapsed; /* their outcomes, for the collapse test */
	size_t boots;           /* earlier boots, with values or collapses */
};

/*
 * The share of level (alpha or beta) that a step's boot-th boot (1 the
 * first) spends: G(boot) - G(boot - 1) for the spending function
 * G(j) = level (1 - 1/(j + 1)^2) of the boots so far, so that however
 * many boots continue a step their shares add up to less than level:
 * 3/4 of it on the first boot, 5/36 on the second, 7/144 on the third,
 * (2j + 1) / (j (j + 1))^2 on the j-th.  0 for boot 0.
 */
double seq_boot_level(double level, size_t boot);

/*
 * One earlier boot added to *p: its values logx[0..n) (logs) and its
 * collapsed runs.  A boot without values adds its collapses only.
 */
void seq_prior_add(struct seq_prior *p, const double *logx, size_t n,
		   size_t collapsed);

/*
 * The look after the candidate's values logx[0..n) (logs of the metric)
 * and collapsed further runs that gave none.  Returns 0 with *out filled
 * and st advanced (with n < 2 only the collapse test is made: regression
 * and its interval NAN), or -1 on a bad argument (a baseline of fewer
 * than 2 boots, n + collapsed < 2, delta <= 0, alpha or beta outside
 * (0, 0.5)).
 */
int seq_look(const struct seq_baseline *b, const struct seq_design *d,
	     const double *logx, size_t n, size_t collapsed,
	     struct seq_state *st, struct seq_look *out);
/* seq_look with the candidate's earlier boots (NULL: none). */
int seq_look_prior(const struct seq_baseline *b, const struct seq_design *d,
		   const struct seq_prior *prior, const double *logx,
		   size_t n, size_t collapsed, struct seq_state *st,
		   struct seq_look *out);

/*
 * Boots J of the candidate, of max_runs runs each, at which the step
 * would decide at the baseline's variance components: the J-th boot's
 * shares a_J, b_J of alpha and beta (seq_boot_level) separate 0 from
 * delta by max(z_{1-a_J} + z_{1-beta}, z_{1-b_J} + z_{1-alpha})
 * standard errors (bad at its alpha with power 1 - beta, good at its
 * beta with power 1 - alpha); 0 when no J up to 1000 does (the
 * baseline's own boots limit it: more boots of the good kernel).
 */
size_t seq_boots_needed(const struct seq_baseline *b,
			const struct seq_design *d);

/*
 * Fisher's exact one-sided p of "the candidate collapses more often":
 * P(X >= c) for X hypergeometric, c of the candidate's m runs and a of
 * the baseline's m0 collapsed.  1 when c is 0; NAN on m or m0 of 0.
 */
double seq_collapse_p(size_t a, size_t m0, size_t c, size_t m);

#endif
