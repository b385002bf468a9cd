/*
 * bisect.h - the runner's side of `contend bisect`: every configuration
 * runs in rounds as under `repetitions = auto`, and every look_every runs
 * the sequential decision of lib/seqtest.h, against that configuration's
 * stored baseline, says whether it needs more.  Each look is stored as
 * experiment meta (bisect.SECTION.*, docs/STORAGE.md), so the decision,
 * its interval and its looks stay with the experiment.
 *
 * Call sequence (cli/cmd_bisect.c): runner_load with runner_opts.bisect
 * set (every configuration becomes auto: look_every runs first, max_runs
 * at most) -> bisect_baseline for each configuration -> runner_fresh ->
 * read runner.bisect[c].last -> runner_release.
 */
#ifndef CONTEND_BISECT_H
#define CONTEND_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/seqtest.h"

struct runner;

/* The step's decision (bad, good, skip), stored as experiment meta by
 * cli/cmd_bisect.c and read back by --continue: a key of this module. */
#define BISECT_DECISION "bisect.decision"

/* What the command line decides. */
struct bisect_spec {
	double pct;             /* the regression hunted, in (0, 1) */
	double alpha, beta;     /* P(bad | none), P(good | pct) */
	int look_every;         /* runs between looks, the first look too */
	int max_runs;           /* per configuration */
};

/* One configuration's state. */
struct bisect_entry {
	bool ready;             /* bisect_baseline was called */
	struct seq_baseline base;
	struct seq_prior prior; /* earlier boots of a continued step */
	struct seq_design design;
	struct seq_state st;
	struct seq_look last;   /* decision SEQ_CONTINUE before a look */
};

/* runner_load's part: every entry auto, r->bisect allocated. */
void bisect_prepare(struct runner *r);
/* Entry c's baseline and the direction of its primary metric (+1, -1). */
void bisect_baseline(struct runner *r, size_t c, const struct seq_baseline *b,
		     int dir);
/* Entry c's earlier boots (a step continued after a reboot). */
void bisect_prior(struct runner *r, size_t c, const struct seq_prior *p);
/*
 * After a round, entry c's values so far (x[0..n), the metric itself)
 * with planned measured runs planned: true when it needs another round.
 */
bool bisect_keeps_going(struct runner *r, size_t c, const double *x,
			size_t n, int planned);

#endif
