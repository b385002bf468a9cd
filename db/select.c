/*
 * select.c - the selector grammar (select.h) and its resolution against a
 * store.  Knows nothing of analysis: a filter compares stored parameter
 * text, numerically when both sides are numbers.
 */
#include "db/select.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/escape.h"
#include "lib/util.h"

#define NEWEST "~newest"


static bool key_ok(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.')
			return false;
	return n > 0;
}

/* The '@' that starts the filters: the last with a '=' after it. */
static const char *filters_at(const char *text)
{
	const char *p, *at = NULL;

	for (p = strchr(text, '@'); p; p = strchr(p + 1, '@'))
		if (strchr(p + 1, '='))
			at = p;
	return at;
}

/*
 * Whether the n bytes at v read as NaN or an infinity ("nan", "-inf",
 * "Infinity"): compared as a number, NaN would match every value.
 */
static bool not_finite(const char *v, size_t n)
{
	char *text = xstrndup(v, n), *end;
	double x = strtod(text, &end);
	bool bad = end != text && !*end && !isfinite(x);

	free(text);
	return bad;
}

/* A message naming what a user or a database wrote, escaped in place
 * (lib/escape.h): a selector's control bytes shown, never obeyed. */
static void shown(char *err, size_t errlen)
{
	char *e = escape_text_dup(err);

	if (e)
		snprintf(err, errlen, "%s", e);
	free(e);
}

/* KEY=VALUE[,KEY=VALUE...] into sel->filters. */
static int parse_filters(const char *text, const char *s,
			 struct selector *sel, char *err, size_t errlen)
{
	size_t cap = 1;
	const char *p;

	for (p = s; *p; p++)
		cap += *p == ',';
	sel->filters = xcalloc(cap, sizeof(*sel->filters));
	for (;;) {
		size_t len = strcspn(s, ","), klen = strcspn(s, "=");

		if (klen >= len || !key_ok(s, klen) || klen + 1 == len) {
			snprintf(err, errlen, "selector '%s': '%.*s' is not "
					      "KEY=VALUE (write SELECTOR@KEY="
					      "VALUE[,KEY=VALUE...])",
				 text, (int)len, s);
			shown(err, errlen);
			return -1;
		}
		if (not_finite(s + klen + 1, len - klen - 1)) {
			snprintf(err, errlen, "selector '%s': '%.*s': a parameter "
					      "is never NaN or infinite (give a "
					      "finite number or a word)",
				 text, (int)len, s);
			shown(err, errlen);
			return -1;
		}
		sel->filters[sel->nfilters].key = xstrndup(s, klen);
		sel->filters[sel->nfilters++].value =
			xstrndup(s + klen + 1, len - klen - 1);
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

int select_parse(const char *text, struct selector *sel, char *err,
		 size_t errlen)
{
	const char *at = filters_at(text);
	size_t len = at ? (size_t)(at - text) : strlen(text);
	const size_t nl = strlen(NEWEST);

	memset(sel, 0, sizeof(*sel));
	if (at && parse_filters(text, at + 1, sel, err, errlen)) {
		select_release(sel);
		return -1;
	}
	if (len >= nl && !memcmp(text + len - nl, NEWEST, nl)) {
		sel->newest = true;
		len -= nl;
	}
	sel->head = xstrndup(text, len);
	return 0;
}

void select_release(struct selector *sel)
{
	size_t i;

	for (i = 0; i < sel->nfilters; i++) {
		free(sel->filters[i].key);
		free(sel->filters[i].value);
	}
	free(sel->filters);
	free(sel->head);
	free(sel->db);
	free(sel->what);
	memset(sel, 0, sizeof(*sel));
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* sel->db and sel->what from sel->head. */
static void locate(struct selector *sel, const char *default_db)
{
	const char *h = sel->head, *p;

	if (*h && is_file(h)) {
		sel->db = xstrdup(h);
		return;
	}
	for (p = strchr(h, ':'); p; p = strchr(p + 1, ':')) {
		char *prefix = xstrndup(h, (size_t)(p - h));

		if (is_file(prefix)) {
			sel->db = prefix;
			sel->what = p[1] ? xstrdup(p + 1) : NULL;
			return;
		}
		free(prefix);
	}
	sel->db = xstrdup(default_db);
	sel->what = *h ? xstrdup(h) : NULL;
}

int select_open(const char *text, const char *default_db,
		struct selector *sel, struct store **s, int64_t **ids,
		size_t *n, char *err, size_t errlen)
{
	const int usage = store_exit_status(STORE_BAD_FILE);
	int k;

	*s = NULL;
	*ids = NULL;
	err[0] = '\0';
	if (select_parse(text ? text : "", sel, err, errlen))
		return usage;
	locate(sel, default_db);
	k = store_open(sel->db, STORE_RDONLY, s);
	if (k)
		return store_exit_status(k);
	k = store_experiment_find(*s, sel->what, ids);
	if (k <= 0) {
		if (!k)
			snprintf(err, errlen, "%s: no experiment %s'%s' (give an "
					      "id, uuid, name or label)",
				 sel->db, sel->what ? "" : "at all ",
				 sel->what ? sel->what : "");
		shown(err, errlen);
		store_close(*s);
		*s = NULL;
		free(*ids);
		*ids = NULL;
		return k ? store_exit_status(-1) : usage;
	}
	if (sel->newest && k > 1) {
		(*ids)[0] = (*ids)[k - 1];
		k = 1;
	}
	*n = (size_t)k;
	return 0;
}

/* Equal as text, or as numbers that both parse whole. */
static bool same_value(const char *a, const char *b)
{
	char *ea, *eb;
	double x, y;

	if (!strcmp(a, b))
		return true;
	x = strtod(a, &ea);
	y = strtod(b, &eb);
	return ea != a && eb != b && !*ea && !*eb && !isnan(x) && !isnan(y) &&
	       !(x < y) && !(x > y);
}

static const char *param_of(const struct ds_config *c, const char *key)
{
	if (!strcmp(key, "section"))
		return c->section;
	if (!strcmp(key, "workload"))
		return c->workload;
	return ds_config_param(c, key);
}

bool select_keeps(const struct selector *sel, const struct ds_config *c)
{
	size_t i;

	for (i = 0; i < sel->nfilters; i++) {
		const char *v = param_of(c, sel->filters[i].key);

		if (!v || !same_value(v, sel->filters[i].value))
			return false;
	}
	return true;
}

size_t select_filter_dataset(const struct selector *sel, struct dataset *d)
{
	struct ds_config *configs;
	struct ds_run *runs;
	double *values;
	size_t c, r, nc = 0, nr = 0;

	if (!sel->nfilters)
		return d->nconfigs;
	configs = xcalloc(d->nconfigs + 1, sizeof(*configs));
	runs = xcalloc(d->nruns + 1, sizeof(*runs));
	values = xcalloc(d->nruns * d->nmetrics + 1, sizeof(*values));
	for (c = 0; c < d->nconfigs; c++) {
		struct ds_config *dc = &d->configs[c];

		if (!select_keeps(sel, dc)) {
			ds_config_release(dc);
			for (r = dc->run0; r < dc->run0 + dc->nruns; r++)
				free(d->runs[r].error);
			continue;
		}
		/* thread_ops stays whole: the runs' slices still point in it */
		for (r = dc->run0; r < dc->run0 + dc->nruns; r++) {
			runs[nr] = d->runs[r];
			runs[nr].config = nc;
			memcpy(values + nr * d->nmetrics,
			       d->values + r * d->nmetrics,
			       d->nmetrics * sizeof(*values));
			nr++;
		}
		configs[nc] = *dc;
		configs[nc].run0 = nr - dc->nruns;
		/* its kernel locks name their runs by index: moved too */
		for (r = 0; r < dc->nklock; r++)
			dc->klock[r].run += configs[nc].run0 - dc->run0;
		nc++;
	}
	free(d->configs);
	free(d->runs);
	free(d->values);
	d->configs = configs;
	d->nconfigs = nc;
	d->runs = runs;
	d->nruns = nr;
	d->values = values;
	return nc;
}

int select_load(const struct selector *sel, struct store *s, int64_t id,
		struct dataset *d, size_t *kept)
{
	if (store_load(s, id, d) < 0)
		return EXIT_RUNTIME;
	*kept += select_filter_dataset(sel, d);
	return 0;
}

int select_none(const struct selector *sel, const char *what, char *err,
		size_t errlen)
{
	if (!sel->nfilters)
		snprintf(err, errlen, "%s has no configuration", what);
	else
		snprintf(err, errlen, "no configuration of %s has %s=%s%s",
			 what, sel->filters[0].key, sel->filters[0].value,
			 sel->nfilters > 1 ? " and the other filters" : "");
	shown(err, errlen);
	return EXIT_USAGE;
}
