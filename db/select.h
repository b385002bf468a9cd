/*
 * select.h - the selector every reading command takes (report, export,
 * plot, compare), parsed by one grammar and resolved by one helper that
 * opens the store and finds the experiments and configurations it names.
 *
 *   SELECTOR := [DB:]WHAT[~newest][@KEY=VALUE[,KEY=VALUE...]]
 *
 * WHAT is an experiment id, a uuid, an experiment name or a label: the
 * first of these that matches wins, and a name or a label selects every
 * experiment that has it.  Empty WHAT (or a bare DB) is the newest
 * experiment.  ~newest keeps only the newest of the matches.  DB: is the
 * shortest prefix before a ':' that names an existing file; a selector
 * that is itself an existing file is that whole database.  @KEY=VALUE
 * keeps the configurations whose parameter KEY (a workload parameter,
 * param.NAME, or `section` / `workload`) has that value, as text or as
 * the same number ("1e4" is "10000").  The filters start at the last
 * '@' with a '=' after it; an '@' before it is part of WHAT (a label may
 * hold one), so a VALUE cannot hold an '@'.
 *
 * Errors are returned as text in err (the caller prints it); nothing
 * here prints but store_open.
 */
#ifndef CONTEND_SELECT_H
#define CONTEND_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db/store.h"

struct selector {
	char *head;          /* [DB:]WHAT, before ~newest and @ */
	bool newest;         /* ~newest */
	size_t nfilters;
	struct kv *filters;  /* @KEY=VALUE, in the order given */
	/* set by select_open */
	char *db;            /* the database file */
	char *what;          /* within it; NULL: the newest experiment */
};

/* The grammar alone: 0, or -1 with err.  Release with select_release. */
int select_parse(const char *text, struct selector *sel, char *err,
		 size_t errlen);
void select_release(struct selector *sel);

/*
 * Parses text (NULL: the newest experiment of default_db), opens its
 * database read-only into *s and finds its experiments: *ids (malloc'd,
 * oldest first) and *n >= 1.  Returns 0, or the command's exit status
 * (2 for bad input: a malformed selector, no database there, nothing
 * matched; 1 when the machine failed) with err filled (empty when
 * store_open printed the reason), *s NULL and nothing to release but sel.
 */
int select_open(const char *text, const char *default_db,
		struct selector *sel, struct store **s, int64_t **ids,
		size_t *n, char *err, size_t errlen);

/* Configuration c passes every filter of sel. */
bool select_keeps(const struct selector *sel, const struct ds_config *c);
/*
 * Drops from d the configurations sel does not keep, and their runs.
 * Returns how many configurations remain.
 */
size_t select_filter_dataset(const struct selector *sel, struct dataset *d);

/*
 * The reading commands' step after select_open: experiment id of s
 * loaded into d (release it with dataset_release) with only the
 * configurations sel keeps, their number added to *kept.  0, or
 * EXIT_RUNTIME when the load failed (store_load said why).
 */
int select_load(const struct selector *sel, struct store *s, int64_t id,
		struct dataset *d, size_t *kept);
/*
 * When the filters kept nothing: "no configuration of WHAT has KEY=VALUE"
 * in err (without filters: "WHAT has no configuration"), and EXIT_USAGE
 * to return.
 */
int select_none(const struct selector *sel, const char *what, char *err,
		size_t errlen);

#endif
