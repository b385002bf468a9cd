/*
 * flagtab.h - the one table of flags: every flag of `contend report` and
 * `contend compare`, one row each; every output that lists, orders or
 * colours flags, and the docs table (docs/USER-GUIDE.md, "Every flag at a
 * glance"), read it (adding a flag: docs/ARCHITECTURE.md, "How to add").
 */
#ifndef CONTEND_ANALYSIS_FLAGTAB_H
#define CONTEND_ANALYSIS_FLAGTAB_H

#include <stddef.h>

#include "analysis/analysis.h"

/* How much a flag matters: its colour in the HTML report, its docs row. */
enum flag_level {
	FLAG_HIGH,      /* the result is not what it seems (red) */
	FLAG_MID,       /* it cannot be trusted as measured (amber) */
	FLAG_LOW,       /* a note (grey) */
};

/* Which command raises it. */
enum flag_shows {
	FLAG_REPORT,    /* the analysis of one experiment (report) */
	FLAG_COMPARE,   /* compare only */
	FLAG_BOTH,      /* each judges it on its own data */
	FLAG_CARRIED,   /* the analysis raises it; compare carries it per side */
};

/* The lists a flag is placed in, each by its own rank (lower first). */
enum flag_view {
	FV_REPORT,      /* the text report's flags, JSON flag_counts */
	FV_COMPARE,     /* compare's "Flags:" overview, the most severe first */
	FV_COLUMN,      /* compare's flags column and its legend (letters) */
	FV_HTML,        /* the HTML and Markdown report: by level, then report */
};

struct flag_def {
	const char *name;
	char letter;            /* compare's flags column, 0: none */
	enum flag_level level;
	enum flag_shows shows;
	/*
	 * Places in the report (FV_REPORT), compare's overview (FV_COMPARE)
	 * and its flags column (FV_COLUMN), lower first; 0 where the flag
	 * is not shown.  Steps of 10 leave room for a new flag between two.
	 */
	unsigned rank[3];
	/*
	 * The detector that raises it per configuration, run in the table's
	 * order by analysis_flag (a detector reading another's flags comes
	 * after it: outliers after multimodal); NULL for a flag raised
	 * elsewhere (the pair flags in flags_pair.c, compare's in compare*.c).
	 */
	void (*raise)(const struct analysis *a, struct config_analysis *ca);
	/*
	 * compare: non-NULL for a flag told in full under each configuration
	 * it concerns; the overview then sums it up by this sentence.
	 */
	const char *brief;
	const char *doc;        /* its row in the docs (markdown) */
};

extern const struct flag_def flag_defs[];
extern const size_t nflag_defs;

/* The row of flag name, or NULL. */
const struct flag_def *flag_def_find(const char *name);
/* Does compare carry name from each side's analysis? */
bool flag_carried(const char *name);
/* The i-th flag of view v in its order, NULL past the last. */
const struct flag_def *flag_nth(enum flag_view v, size_t i);
/* The place of name in view v (0 first); names not in v come last. */
size_t flag_place(enum flag_view v, const char *name);
size_t flag_count(enum flag_view v);

/* flags_pair.c: the pair flags of one sweep (misleading-throughput,
 * contention-coupled), after every per-configuration detector. */
void flag_pairs(struct analysis *a);

#endif
