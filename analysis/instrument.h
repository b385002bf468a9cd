/*
 * instrument.h - whether two sides of a comparison ran under the same
 * kernel instrumentation: tracing, lock debugging, the kernel's own
 * lock-relevant state and build options, as runner/kstate.c and
 * runner/host.c store them in experiment_meta (docs/STORAGE.md, "Kernel
 * state"), and whether any of it changed during an experiment.
 */
#ifndef CONTEND_INSTRUMENT_H
#define CONTEND_INSTRUMENT_H

#include <stddef.h>

#include "db/store.h"

/*
 * "KEY 'a' vs 'b'; ..." naming every instrumentation key whose value
 * differs between an experiment of b and one of c (each key once, the
 * first pair that differs), then "KEY changed from 'a' to 'b' during
 * experiment N" for every key that changed within one; malloc'd, NULL
 * when nothing differs.  A value "unknown", or a key one side lacks (an
 * experiment stored before the key existed), is no difference.
 */
char *instrument_diff(const struct experiment_row *b, size_t nb,
		      const struct experiment_row *c, size_t nc);

/*
 * "KEY changed from 'a' to 'b'; ..." for every key of e that changed
 * between the start and the end of the experiment; malloc'd, NULL when
 * none did.
 */
char *instrument_changes(const struct experiment_row *e);

/*
 * "kstate.trace_lock=1, kstate.current_tracer=function, ..." for the
 * tracefs instruments that were active when experiment e started (events
 * enabled, a tracer other than nop, probes, lock_stat collecting), then
 * "; changed during the experiment: ..." (instrument_changes); malloc'd,
 * NULL when there is nothing to say.
 */
char *instrument_active(const struct experiment_row *e);

/* The sentence compare prints with the flag: the seed's trap. */
extern const char instrument_why[];

#endif
