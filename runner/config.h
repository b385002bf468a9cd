/*
 * config.h - the INI experiment language: load, validate, and expand every
 * [workload NAME] section into its configurations (the Cartesian product of
 * its sweeps).  Nothing is half-loaded: on any error the caller gets -1 and
 * every error of the file has been printed as "contend: FILE:LINE: msg".
 * The loader is runner/config*.c; config_impl.h says which does what.
 */
#ifndef CONTEND_CONFIG_H
#define CONTEND_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "db/contract.h"
#include "db/vocab.h"
#include "runner/kinstr/kinstr.h"
#include "runner/observer.h"
#include "runner/workload.h"

enum run_order { ORDER_BLOCKED, ORDER_RANDOM, ORDER_SEQUENTIAL };

/* Limits (docs/LIMITS.md); CONFIG_MAX_FILE and CONFIG_MAX_SECTIONS are
 * db/contract.h's, which bounds its reading of stored config texts by them. */
#define CONFIG_MAX_RUNS     100000   /* configurations x (reps + warmup) */
#define CONFIG_MAX_WORKERS  4096     /* threads/processes per run */
#define CONFIG_MAX_SECONDS  86400.0  /* any duration */
#define CONFIG_MAX_LINE     4096     /* bytes per INI line */
#define SWEEP_MAX_VALUES    10000    /* values of one sweep */
/* Bytes of one argument (key=value, prepare, cleanup) once {NAME} is
 * replaced: under Linux's MAX_ARG_STRLEN (128 KiB), which exec enforces. */
#define CONFIG_MAX_ARG      65536
/* Bytes of every configuration's arguments and hooks together, {NAME}
 * replaced: what the expanded plan holds in memory and --dry-run prints. */
#define CONFIG_MAX_PLAN_BYTES (64 << 20)

/* [experiment] keys a workload section may override. */
struct run_settings {
	int repetitions;      /* measured runs; 0 = auto (see precision) */
	int warmup;
	double runtime_s;     /* 0 when jobs is set */
	uint64_t jobs;        /* 0 when runtime is set */
	double timeout_s;
	double noise;         /* CV threshold of the noisy flag */
	bool randomize_env;
	double precision;     /* auto: target CI half-width / mean */
	int min_repetitions, max_repetitions;
};


/* One configuration: a workload with every parameter fixed. */
struct config_entry {
	const struct workload *wl;
	char *section;        /* the user's label: [workload SECTION] */
	long line;            /* line of the section header */
	size_t nkv;
	char **kv;            /* "key=value": every parameter (defaults too) in
			       * table order, then runtime= or jobs=, cpus= */
	char *canon;          /* kv joined by ' ', values with blanks quoted:
			       * the key that matches configurations across
			       * experiments */
	struct run_settings set;
	size_t nuser;
	char **user;          /* "param.NAME=value": the user's parameters
			       * (param.NAME keys), ordered by NAME; part of
			       * canon, not of kv ({NAME} in argv and env is
			       * already replaced in kv) */
	char *prepare, *cleanup; /* argv run before and after each run,
				  * outside its measured window; NULL: none */
	double prepare_timeout_s;
	char *primary;        /* the metric it is judged by (never NULL) */
	size_t ndirections;
	char **directions;    /* "METRIC=higher" or "METRIC=lower", given */
};

/* User parameters per section: param.NAME keys. */
#define CONFIG_MAX_USER_PARAMS 32

struct experiment_config {
	char *path;
	char *text;           /* the whole file, stored with the experiment */
	char *name;
	enum run_order order;
	bool has_seed;
	uint64_t seed;
	double confidence;
	double calibration;   /* busy loops per us; 0: measured by the runner */
	struct kinstr_list kinstr; /* kernel_instruments, by preference */
	long kinstr_line;     /* its line; 0: the default */
	struct run_settings defaults;
	size_t nentries;
	struct config_entry *entries;
	/* A cpus value naming a cpu this machine does not give us, and its
	 * line: the runner refuses the config here (NULL: none). */
	/* what this machine cannot run (a cpu not online, kernel_delay
	 * without BPF): the runner refuses it, a dry run warns */
	char *offline;
	long offline_line;
	/* [observer NAME] sections (runner/config_observer.c): their strings
	 * belong to the config */
	struct observer_def *observers;
	size_t nobservers;
};

/* runner/config_settings.c: the order key's words */
extern const char *const order_names[]; /* indexed by enum run_order */
/* The value of key in an entry's kv list ("key=value" words), or NULL. */
const char *entry_value(const struct config_entry *e, const char *key);


/* The observer called name: the file's [observer NAME], else a built-in
 * (runner/observer.h); NULL when there is none. */
const struct observer_def *config_observer(const struct experiment_config *c,
					   const char *name);

int config_load(const char *path, struct experiment_config *c);
/* As config_load on text already in memory; name is used in messages. */
int config_load_buffer(const char *name, const char *text, size_t len,
		       struct experiment_config *c);
void config_release(struct experiment_config *c);
/*
 * The metric a configuration is judged by (repetitions = auto, the flags,
 * the summary): its section's `primary`, else what its workload declares,
 * else throughput.
 */
const char *config_primary_metric(const struct config_entry *e);
/*
 * Whether more of metric is better in configuration e: its section's
 * `direction` (primary) or `direction.METRIC`, else the vocabulary's
 * (db/vocab.h) - what analysis_direction reads back from the stored meta.
 */
enum direction config_direction(const struct config_entry *e,
				const char *metric);
/*
 * Replaces every {NAME} in text by the value of param.NAME in user
 * (nuser "param.NAME=value" strings).  A brace that does not enclose a
 * name is kept, as is ${NAME} (the shell's).  Returns the new text
 * (malloc'd), or NULL with err naming the first unknown {NAME}.
 */
char *config_substitute(const char *text, char *const *user, size_t nuser,
			char *err, size_t errlen);
/*
 * Prints the plan a config describes, for `contend run --dry-run`: every
 * configuration (section, workload, canonical parameters, its runs) and
 * the number of warm-up and measured runs.
 */
void config_print(const struct experiment_config *c, FILE *f);

/*
 * sweep.c: expands one INI value into its values as text.  Forms: a list
 * "1, 2, 4", a range "1..16", a stepped range "1..16:2", a geometric range
 * "1..64*2", or a single value; PT_STRING values are never split.
 * Each value is checked by param_parse and returned in its canonical
 * param_format text; a value given twice is an error, as are more than
 * SWEEP_MAX_VALUES values.
 * Returns 0 with *out (array of malloc'd strings) and *n, or -1 with err.
 */
int sweep_expand(const struct param_def *p, const char *value, char ***out,
		 size_t *n, char *err, size_t errlen);
/*
 * The values of a user parameter (param.NAME = SWEEP), key its whole
 * key: with a range ("1..8", "1..64*2") integers, else a list of words
 * ("ext4, xfs"), each kept as written less blanks around it.
 */
int sweep_expand_user(const char *key, const char *value, char ***out,
		      size_t *n, char *err, size_t errlen);
void sweep_free(char **vals, size_t n);

#endif
