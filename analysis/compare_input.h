/*
 * compare_input.h - the sides of `contend compare` as the user names
 * them: a selector in a database (db/select.h), a `contend export` CSV
 * file, or ministat-style number files (comma-joined for several
 * invocations, "-" for standard input); resolving and loading each,
 * matching two sides filtered on a changed parameter, and settling the
 * metric and options both are compared with; the output (below).
 *
 * One entry point (compare_run.c): a struct compare_request in ->
 * compare_run -> print the struct compare_outcome (below) ->
 * compare_outcome_say -> compare_outcome_release.  compare_run does, per
 * pair: compare_input_load (each side), the sides matched and their
 * metric and options settled, compare_input_number_side (number sides)
 * -> compare_sides -> compare_gate.
 */
#ifndef CONTEND_COMPARE_INPUT_H
#define CONTEND_COMPARE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "db/select.h"
#include "analysis/calibrate.h"
#include "lib/json.h"

/*
 * ---- compare_calib.c ----
 * The A/A profiles (`contend calibrate`) of the hosts a comparison ran
 * on, cited under its verdicts and gate.  compare_calib_load(side) while
 * its store is open and before the sides are matched (load_db) ->
 * compare_sides() -> compare_calib_print / _json -> compare_calib_release.
 */
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
 * For every configuration of the side's datasets, the newest profile of
 * its experiment's host in the side's store.  0, or -1 after error() when
 * the store cannot be read.  Sides without a store have none.
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

/*
 * ---- the files that are sides (sidefile.c) ----
 * Number files, ministat's: a value a line from one column of fields
 * split at DELIMS, '#' comments (docs/USER-GUIDE.md, "Comparing"); the
 * default delimiters split at runs of blanks, as awk, any other set at
 * every delimiter, as cut(1).  The limits are docs/LIMITS.md's: bytes
 * read, and numbers a side holds (each costs compare about 130 bytes).
 */
#define NUMFILE_DEFAULT_DELIMS " \t"
#define NUMFILE_MAX_BYTES (256 << 20)
#define NUMFILE_MAX_VALUES 1000000

struct numfile_opts {
	long column;            /* 1-based field number (1) */
	const char *delims;     /* field delimiters (NUMFILE_DEFAULT_DELIMS) */
};
void numfile_opts_default(struct numfile_opts *o);

/* *values a malloc'd array of *n >= 1 numbers in file order, or -1
 * after "contend: NAME:LINE: ..." (*values NULL). */
int numfile_parse(const char *name, const char *text, size_t len,
		  const struct numfile_opts *o, double **values, size_t *n);

/* A whole file (or FIFO) of at most NUMFILE_MAX_BYTES in a malloc'd
 * buffer; -1 after "contend: PATH: ..." (buffer freed). */
int numfile_slurp(const char *path, char **buf, size_t *len);

/*
 * Export files: `contend export --format csv` read back as a side, each
 * uuid an invocation, through an in-memory store (db/store.h, "rows").
 * An invocation of more runs x metrics cells than EXPORT_CELLS_PER_VALUE
 * a value (and EXPORT_CELLS_MIN) is refused: memory follows the values
 * (docs/LIMITS.md).
 */
#define EXPORT_CELLS_PER_VALUE 8
#define EXPORT_CELLS_MIN 65536

/* True when the first line of text is a header naming uuid and metric. */
bool exportside_is_export(const char *text, size_t len);
/* *sets a malloc'd array of *nsets datasets (each dataset_release'd),
 * oldest experiment_id first; -1 after "contend: NAME:LINE: ...". */
int exportside_parse(const char *name, const char *text, size_t len,
		     struct dataset **sets, size_t *nsets);

/* ---- the sides ---- */
enum compare_input_kind { INPUT_DB, INPUT_NUMBERS, INPUT_EXPORT };

/*
 * The files sides name that are not regular (a FIFO, /dev/fd/N), read
 * whole once and kept: a second open of a FIFO waits for a writer that
 * is gone.  One for the whole command; zeroed, then compare_files_release.
 */
struct compare_file {
	char *path;
	char *buf;                      /* NULL: reading it failed (said) */
	size_t len;
};
struct compare_files {
	struct compare_file *f;
	size_t n;
};
void compare_files_release(struct compare_files *files);

/* One side as the user named it, and what it loaded. */
struct compare_input {
	const char *text;
	const char *role;               /* "baseline" or "candidate" */
	struct compare_files *files;    /* NULL: every file read afresh */
	enum compare_input_kind kind;
	char *db;                       /* INPUT_DB only */
	char *sel;                      /* selector in db; NULL = newest */
	struct selector pick;           /* the grammar's ~newest, @filters */
	struct store *st;
	int64_t *ids;
	size_t nsets;
	struct dataset *sets;
	struct analysis *an;
	double *values;                 /* number files, back to back */
	size_t nvalues;
	size_t nfiles, *sizes;          /* values per file (invocation) */
	struct compare_side side;
	struct compare_calibs calib;    /* the hosts' A/A profiles */
};

struct compare_request;
/*
 * Loads side s (s->text, s->role and s->files set by the caller) as q
 * reads sides: a database side or an export analysed, numbers read (q->in:
 * standard input, for the side "-").  numbers_only: s->kind set, only a
 * number side loaded.  0, or the exit status (2 bad input, 1 the machine
 * failed) after error().
 */
int compare_input_load(struct compare_input *s,
		       const struct compare_request *q, bool numbers_only);
void compare_input_release(struct compare_input *s);

/*
 * A number side loaded as an export side is, through an in-memory store,
 * its configuration shaped like the other side's only one; -1 after
 * error().
 */
int compare_input_number_side(struct compare_input *s,
			      const struct compare_input *other,
			      const char *metric);

/* ---- the one entry point (compare_run.c) ---- */

/* What `contend compare BASE CAND` is asked, one candidate. */
struct compare_request {
	const char *base, *cand;        /* the sides as the user named them */
	const char *db;                 /* the default database */
	const char *metric;             /* NULL: settled from the sides */
	struct compare_opts opts;       /* dir DIR_UNKNOWN: the baseline's
					 * declared, else the metric's;
					 * confidence 0: the baseline's, else
					 * 0.95 */
	double fail_pct;                /* the gate's PCT; < 0: no gate */
	bool strict;                    /* refuse an unguaranteed gate */
	struct numfile_opts nf;         /* how number files are read */
	const char *in;                 /* standard input, for a side "-" */
	size_t inlen;
	struct compare_files *files;    /* FIFOs read once, shared by the
					 * requests of one command */
};

struct compare_outcome {
	struct compare_input base, cand; /* loaded, for the printers */
	const char *metric;             /* as settled */
	bool compared;                  /* r holds a result to print */
	struct compare_result r;
};

/*
 * Loads both sides, settles the metric and options, compares them,
 * applies the gate (fail_pct >= 0) and --strict.  The exit status (2 also
 * when nothing matched, said by compare_outcome_say after the result).
 * o->compared: o->r is to be printed.  Release o in every case.
 */
int compare_run(const struct compare_request *q, struct compare_outcome *o);
/* What is said after the result: the regression, or why nothing was
 * compared (stderr). */
void compare_outcome_say(const struct compare_outcome *o);
void compare_outcome_release(struct compare_outcome *o);
/*
 * ministat's legend, table (and with ascii its plot) of q->base and
 * cands[0..ncands) when every one is numbers: *done set.  0 with *done
 * false when one is not, or there are more than MINISTAT_SETS; else the
 * exit status after error().
 */
int compare_ministat(FILE *f, const struct compare_request *q,
		     char *const *cands, size_t ncands, bool ascii, bool *done);

/* ---- compare_text.c, compare_json.c (docs/compare-json.md), mail.c ---- */
void compare_print_text(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);
void compare_print_json(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c);
/* The mail format (mail.c): at most 72 columns; verbose lists
 * every secondary metric of a row. */
void compare_print_mail(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c, bool verbose);
/* Under a row (text and mail): how often B beat A and the secondary
 * metrics that changed (all: every one), indented, within 72 columns. */
void compare_print_extras(FILE *f, const struct comparison *cmp,
			  double confidence, bool all);

/* ---- ministat (compare_run.c) ---- */
#define MINISTAT_SETS 7     /* symbols: x + * % # @ O */

#endif
