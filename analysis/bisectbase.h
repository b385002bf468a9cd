/*
 * bisectbase.h - the baseline of `contend bisect`: the good kernel's
 * stored boots of one configuration, as lib/seqtest.h's two-level
 * summary on the log scale, with how many of its runs collapsed.
 */
#ifndef CONTEND_BISECTBASE_H
#define CONTEND_BISECTBASE_H

#include <stddef.h>

#include "db/store.h"
#include "lib/seqtest.h"

/*
 * Configuration (workload, canon)'s metric over the datasets ds[0..nds),
 * one boot (invocation) per experiment, never per section: the runs
 * analysis_measured counts (ok, measured, not excluded) whose value is
 * above 0 are the values; a measured run that failed, or whose value is
 * missing or not above 0, is a collapse (seqtest.h).  Returns 0 with *b
 * filled, or -1 after error() when fewer than 2 boots have values.
 * section names the configuration in that message.
 */
int bisect_base_of(const struct dataset *ds, size_t nds, const char *workload,
		   const char *canon, const char *metric, const char *section,
		   struct seq_baseline *b);

/*
 * The candidate's earlier boots of a continued step (seqtest.h, struct
 * seq_prior): configuration (workload, canon)'s metric over ds[0..nds),
 * one boot per experiment, counted as bisect_base_of counts.
 */
void bisect_prior_of(const struct dataset *ds, size_t nds,
		     const char *workload, const char *canon,
		     const char *metric, struct seq_prior *p);

#endif
