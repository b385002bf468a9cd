/*
 * autorule.h - `repetitions = auto` in a session: the measured values of
 * each auto configuration are kept as its runs end (a resumed session
 * reads the earlier ones from the store once), and after each round the
 * stopping rule (lib/stoprule.h, through plan_auto_decide) decides on
 * them which configurations get another round.
 *
 * Call sequence: autorule_init (fresh) or autorule_restore (resume) ->
 * autorule_note after each run -> autorule_grow after each round ->
 * autorule_release.
 */
#ifndef CONTEND_AUTORULE_H
#define CONTEND_AUTORULE_H

#include <stdbool.h>
#include <stddef.h>

#include "db/store.h"
#include "runner/config.h"
#include "runner/workload.h"

struct runner;

/* One auto configuration's primary metric by measured repetition: NAN
 * where that run is still to do, failed, or gave no value. */
struct auto_values {
	double *x;
	size_t n;
};

struct autorule {
	bool any;                   /* some configuration is auto */
	size_t nconfigs;
	struct auto_values *values; /* by entry; empty for fixed ones */
};

bool entry_is_auto(const struct config_entry *e);
void autorule_init(struct autorule *a, const struct experiment_config *c);
/*
 * As autorule_init, with the measured runs already stored in d (the
 * resumed experiment, its configurations in the order of c).
 */
void autorule_restore(struct autorule *a, const struct experiment_config *c,
		      const struct dataset *d);
/* Run p of configuration `config` was stored with status st, result res. */
void autorule_note(struct autorule *a, const struct experiment_config *c,
		   size_t config, const struct pending_run *p,
		   enum run_status st, const struct result *res);
/*
 * After a round: plans and stores one more round of the auto
 * configurations the rule keeps going.  Returns the number of runs
 * added (0: none), or -1 after an error.
 */
int autorule_grow(struct runner *r);
void autorule_release(struct autorule *a);

#endif
