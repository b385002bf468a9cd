/*
 * config_impl.h - what the files of the INI loader share; nothing
 * outside runner/config*.c includes it (runner/config.h is the API).
 *
 *   config_read.c      lines in, through inih: sections and their keys,
 *                      each recorded with its line (struct kv_line)
 *   config_diag.c      errors collected with their line, printed in order
 *   config_settings.c  [experiment]'s settings, and the runner's own keys
 *   config_axes.c      a [workload] section's keys into its named axes
 *   config_expand.c    the axes' Cartesian product into configurations
 *   config.c           loading a file or a buffer, releasing, printing
 */
#ifndef CONTEND_CONFIG_IMPL_H
#define CONTEND_CONFIG_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/escape.h"
#include "runner/config.h"

#define ERRORS_SHOWN 50    /* a binary file must not print a million */
#define ERRORS_KEPT 1000
#define LABEL_MAX 64       /* bytes of a [workload NAME] name */
#define NAME_MAX_BYTES 128 /* bytes of the experiment's name */
#define KEYS_MAX 256       /* keys per section: far above any real one */
#define ENTRY_MSGS_MAX 5   /* distinct per-configuration errors shown */
#define QUOTE_MAX ESCAPE_QUOTE_MAX /* lib/escape.h: the one cap */
#define PREPARE_TIMEOUT_S 60.0 /* prepare or cleanup without its own */

struct message {
	long line;
	size_t seq;
	char *text;
};

/* One key as the reader found it: where it came from is its line. */
struct kv_line {
	char *key;
	char *value;
	long line;
};

enum section_kind { SEC_EXPERIMENT, SEC_WORKLOAD, SEC_OBSERVER };

struct section {
	enum section_kind kind;
	char *label; /* NAME of [workload NAME]; NULL for [experiment] */
	long line;
	struct kv_line *keys;
	size_t nkeys;
};

/* prepare, cleanup (NULL: none) and their timeout, as a section gave them */
struct hooks {
	const struct kv_line *prepare, *cleanup;
	double timeout_s;
};

enum { CUR_NONE = -1, CUR_SKIP = -2 };

struct loader {
	const char *file;
	const char *text;
	size_t len, pos;
	long lineno;
	/* the line inih is working on, which it cuts up */
	char raw[CONFIG_MAX_LINE + 1];
	int cur;               /* section index, or CUR_NONE / CUR_SKIP */
	struct section *secs;
	size_t nsecs;
	bool too_many_sections;
	uint64_t runs; /* planned runs so far, for CONFIG_MAX_RUNS */
	uint64_t plan_bytes; /* arguments so far, for CONFIG_MAX_PLAN_BYTES */
	bool plan_full;      /* past it: reported, expansion stops */
	struct message *msgs;
	size_t nmsgs, nerrors;
	struct experiment_config *c;
	struct hooks hooks; /* [experiment]'s: every section's defaults */
};

/* One key's values; a configuration takes one value of every axis. */
struct axis {
	const char *key;
	char **vals;
	size_t n;  /* 0: no axis */
	long line; /* of the key; 0 for a default */
};

#define AXES_MAX (WL_MAX_PARAMS + WL_MAX_MEMBERS + 4 + CONFIG_MAX_USER_PARAMS)

/* A [workload] section's axes, each kind in a field of its own. */
struct axes {
	struct axis params[WL_MAX_PARAMS]; /* the workload's, in table order;
					    * a family's row stays empty */
	struct axis members[WL_MAX_MEMBERS]; /* family keys (metric.NAME) */
	size_t nmembers;
	struct axis time;  /* runtime or jobs; none with WL_OWN_DURATION */
	struct axis cpus;  /* none when the section sets no cpus */
	struct axis kdelay; /* kernel_delay; none when the section sets none */
	struct axis observer; /* observer; none when the section sets none */
	struct axis user[CONFIG_MAX_USER_PARAMS]; /* param.NAME keys */
	size_t nuser;
	/* a configuration's keys in canonical order (axes_order): params,
	 * family keys by key, time, cpus, kernel_delay, observer, user parameters by
	 * key */
	const struct axis *order[AXES_MAX];
	size_t n;
};

/* A [workload] section on its way to configurations. */
struct wsec {
	struct loader *L;
	const struct section *sec;
	const struct workload *wl;
	struct run_settings set;
	struct axes ax;
	char *msgs[ENTRY_MSGS_MAX]; /* per-configuration errors, deduped */
	size_t nmsgs;
	/* section keys of the runner's, not the workload's */
	struct hooks hooks; /* from [experiment], replaced key by key */
	const struct kv_line *primary, *direction;
	size_t ndirs;
	const struct kv_line *dirs[WL_MAX_MEMBERS]; /* direction.NAME */
	char *hook_ok[2]; /* the last prepare, cleanup that hook_check passed */
};

/* config_observer.c: an [observer NAME] section into c->observers */
void observer_load(struct loader *L, const struct section *s);
/* config_observer.c: `observer = NAME, ...` into axis a, each value
 * checked (known, installed, usable here; kernel_instruments none);
 * -1 after reporting */
int observer_axis(struct wsec *w, struct axis *a, const struct kv_line *k);

/* config_diag.c */
void report(struct loader *L, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void errors_flush(struct loader *L);
/*
 * An error of one configuration, reported once per section however many
 * configurations share it, at the line of the first of blame[0..n-1] (the
 * keys it is about, most to blame first; NULL: none) the section gave,
 * else at its header.
 */
void entry_error(struct wsec *w, const char *const *blame, size_t n,
		 const char *msg);

/* The key of s named key, or NULL: every file of the loader looks keys
 * up, the errors of config_diag.c included, so it sits here, below them. */
static inline struct kv_line *key_find(const struct section *s,
				       const char *key)
{
	size_t i;

	for (i = 0; i < s->nkeys; i++)
		if (!strcmp(s->keys[i].key, key))
			return &s->keys[i];
	return NULL;
}

/* config_read.c */
void parse_sections(struct loader *L);
int check_binary(struct loader *L);
struct section *section_find(struct loader *L, enum section_kind k,
			     const char *label);

/* config_settings.c */
void experiment_load(struct loader *L);
int check_runtime_jobs(struct loader *L, const struct section *s);
void check_repetitions(struct loader *L, const struct section *s,
		       const struct run_settings *set);
/*
 * The section keys the runner reads itself (prepare, cleanup,
 * prepare_timeout, primary, direction, direction.NAME): 0 when k was one
 * of them, -1 after reporting, 1 when it is none of them.
 */
int runner_key(struct wsec *w, const struct kv_line *k);
/* k as an [experiment] setting the section overrides; -1 after reporting,
 * unknown keys too. */
int override_key(struct wsec *w, const struct kv_line *k);

/* config_axes.c */
const struct workload *workload_of(struct loader *L, const struct section *s);
/* One key of a [workload] section; -1 after reporting. */
int wsec_key(struct wsec *w, const struct kv_line *k);
/* Fills the axes no key gave, and orders them; -1 after reporting. */
int wsec_fill(struct wsec *w);
void wsec_release(struct wsec *w);

/* config_expand.c */
void workload_load(struct loader *L, const struct section *s);

#endif
