/*
 * compare_calib.h - the A/A profile of the hosts a comparison ran on
 * (`contend calibrate`, analysis/calibrate.h), cited under compare's
 * verdicts and its gate: what change the host can show and how often its
 * A/A splits alarm.  The profile of the candidate's host is cited, and
 * the baseline's too when its host differs; a side without one says so
 * in one hint line naming the experiment's config file as stored (shown,
 * never opened: the database may be a received one), quoted as
 * lib/hint.h quotes.
 *
 * Call sequence: compare_calib_load(side) while the side's store is open
 * and its configurations keep their own canonical strings (load_db in
 * compare_input.c, before compare_inputs_match) -> compare_sides() ->
 * compare_calib_print / compare_calib_json (compare_print.h's) ->
 * compare_calib_release (compare_input_release).
 */
#ifndef CONTEND_COMPARE_CALIB_H
#define CONTEND_COMPARE_CALIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/calibrate.h"
#include "analysis/compare.h"
#include "lib/json.h"

struct compare_input;

/* The profile of one (host, workload, canonical parameters) of a side. */
struct compare_calib {
	const char *host;       /* the experiment's hostname meta (borrowed) */
	const char *workload;   /* borrowed from the side's dataset */
	char *canon;            /* the configuration's own, before matching */
	char *config;           /* the experiment's config file as stored,
				 * never opened; NULL: none to show (no
				 * hint) */
	bool found;             /* a profile of this host exists */
	struct calib_profile p;
	int64_t experiment;     /* the calibrate experiment holding it */
	double created;         /* its created_at, Unix seconds */
};

/* A side's profiles: at[] one per configuration of every dataset, in
 * order (set by set), an index into c or SIZE_MAX (no hostname). */
struct compare_calibs {
	size_t n, nat;
	struct compare_calib *c;
	size_t *at;
};

/*
 * Looks up, for every configuration of the side's datasets, the newest
 * profile of its experiment's host in the side's store (the calibrate
 * experiments read once, calib_load; calib_pick per (host, workload,
 * canon)).  0, or -1 after error() when the store cannot be read.  Sides
 * without a store (numbers, exports) have none.
 */
int compare_calib_load(struct compare_input *s);
void compare_calib_release(struct compare_calibs *cc);

/*
 * Text: an "A/A:" paragraph per comparison with a profile to cite (the
 * candidate's host, and the baseline's when it differs), then a hint per
 * host without one; nothing when there is neither.  JSON: the member
 * "calibrations": [...] (docs/compare-json.md), always present.
 */
void compare_calib_print(FILE *f, const struct compare_result *r,
			 const struct compare_input *b,
			 const struct compare_input *c);
void compare_calib_json(struct json_writer *w, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);

#endif
