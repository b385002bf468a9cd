/*
 * contract.c - the runner-analysis contract's keys (db/contract.h): their
 * names, one setter and one getter, and the keys of experiments stored
 * before them, read from their config text.
 */
#include <ctype.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

#include "db/contract.h"
#include "lib/strmap.h"
#include "lib/util.h"

/* Each key is PREFIX.SECTION, or PREFIX.SECTION.SUFFIX. */
static const struct {
	const char *prefix, *suffix; /* suffix NULL: CK_DIRECTION's metric */
} keys[CK_COUNT] = {
	[CK_PRIMARY] = { "primary", "" },
	[CK_DIRECTION] = { "direction", NULL },
	[CK_REPETITIONS] = { "repetitions", "" },
	[CK_AUTO_PRECISION] = { "auto", "precision" },
	[CK_AUTO_MIN] = { "auto", "min_repetitions" },
	[CK_AUTO_MAX] = { "auto", "max_repetitions" },
};

char *contract_key(enum contract_key k, const char *section,
		   const char *metric)
{
	const char *suffix = keys[k].suffix ? keys[k].suffix : metric;

	return xasprintf("%s.%s%s%s", keys[k].prefix, section,
			 *suffix ? "." : "", suffix);
}

void contract_set(struct experiment_row *e, enum contract_key k,
		  const char *section, const char *metric, const char *value)
{
	char *key = contract_key(k, section, metric);

	meta_set(e, key, value);
	free(key);
}

const char *contract_get(const struct experiment_row *e, enum contract_key k,
			 const char *section, const char *metric)
{
	char *key = contract_key(k, section, metric);
	const char *v = experiment_meta(e, key);

	free(key);
	return v;
}

bool contract_section_key(const char *key)
{
	size_t k, n;

	for (k = 0; k < CK_COUNT; k++) {
		n = strlen(keys[k].prefix);
		if (!strncmp(key, keys[k].prefix, n) && key[n] == '.')
			return true;
	}
	return false;
}

/* ---- experiments stored before the keys ---- */

/* The settings a section's repetitions were counted by, in key order. */
static const enum contract_key rule_keys[] = {
	CK_REPETITIONS, CK_AUTO_PRECISION, CK_AUTO_MIN, CK_AUTO_MAX,
};
#define NRULE ARRAY_SIZE(rule_keys)
/* Their names in a config file, and the defaults of the versions that did
 * not store them. */
static const char *const ini_names[NRULE] = {
	"repetitions", "precision", "min_repetitions", "max_repetitions",
};
static const char *const old_defaults[NRULE] = { "10", "0.02", "5", "30" };

struct legacy_section {
	char *name;          /* NULL: [experiment] */
	char *val[NRULE];
};

struct legacy {
	struct legacy_section *s; /* s[0]: [experiment] */
	size_t n;
	struct strmap names;      /* a workload section's name -> index */
};

/* The section's entry, added when new; NULL for one not a workload. */
static struct legacy_section *legacy_section(struct legacy *l,
					     const char *section)
{
	size_t i;

	if (!strcmp(section, "experiment"))
		return &l->s[0];
	if (strncmp(section, "workload", 8) ||
	    !isspace((unsigned char)section[8]))
		return NULL;
	for (section += 8; isspace((unsigned char)*section); section++)
		;
	if (strmap_get(&l->names, section, &i))
		return &l->s[i];
	if (l->n >= CONFIG_MAX_SECTIONS) /* the loader refused more */
		return NULL;
	l->s = xrealloc(l->s, (l->n + 1) * sizeof(*l->s));
	memset(&l->s[l->n], 0, sizeof(l->s[l->n]));
	l->s[l->n].name = xstrdup(section);
	strmap_put(&l->names, l->s[l->n].name, l->n);
	return &l->s[l->n++];
}

static int on_pair(void *user, const char *section, const char *name,
		   const char *value)
{
	struct legacy_section *s = legacy_section(user, section);
	size_t k;

	for (k = 0; s && k < NRULE; k++)
		if (!strcmp(name, ini_names[k])) {
			free(s->val[k]);
			s->val[k] = xstrdup(value);
		}
	return 1;
}

void contract_from_config(struct experiment_row *e)
{
	struct legacy l = { xcalloc(1, sizeof(*l.s)), 1, { 0 } };
	size_t i, k;

	/* Cheap test first: most experiments never used auto.  A line inih
	 * rejects (none did, or the config was refused) is skipped: the
	 * keys of the other lines still count. */
	if (e->config_text && strstr(e->config_text, CV_AUTO) &&
	    strnlen(e->config_text, CONFIG_MAX_FILE + 1) <= CONFIG_MAX_FILE &&
	    ini_parse_string(e->config_text, on_pair, &l) >= 0) {
		for (i = 1; i < l.n; i++) {
			const char *val[NRULE];

			for (k = 0; k < NRULE; k++)
				val[k] = l.s[i].val[k] ? l.s[i].val[k]
				       : l.s[0].val[k] ? l.s[0].val[k]
				       : old_defaults[k];
			if (strcmp(val[0], CV_AUTO) ||
			    contract_get(e, CK_REPETITIONS, l.s[i].name, NULL))
				continue;
			for (k = 0; k < NRULE; k++)
				contract_set(e, rule_keys[k], l.s[i].name,
					     NULL, val[k]);
		}
	}
	for (i = 0; i < l.n; i++) {
		free(l.s[i].name);
		for (k = 0; k < NRULE; k++)
			free(l.s[i].val[k]);
	}
	free(l.s);
	strmap_release(&l.names);
}
