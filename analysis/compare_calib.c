/*
 * compare_calib.c - the hosts' A/A profiles cited by compare and its
 * gate: looked up when a database side is loaded, found again per
 * comparison, printed as text or JSON (compare.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/contract.h"
#include "analysis/compare.h"
#include "lib/hint.h"
#include "lib/json.h"
#include "lib/util.h"
#include "lib/wrap.h"

#define WIDTH 78
#define INDENT 9        /* "A/A:     ", as compare's "Gate:    " */
#define CONFIG_PATH_SHOWN 1024 /* bytes of a stored path in a hint */

/* ---- the lookup ---- */

/*
 * The config file e ran from, as stored, for the hint; NULL when there
 * is none to show.  Shown, never opened or resolved: a received database
 * names it (a stored /proc/kmsg would block, another path would make
 * compare an oracle on the reader's files).
 */
static char *config_file(const struct experiment_row *e)
{
	const char *p = e->config_path;
	size_t i;

	if (!p || !*p || strlen(p) > CONFIG_PATH_SHOWN)
		return NULL;
	for (i = 0; p[i]; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return NULL;
	return xstrdup(p);
}

/* The entry of (host, workload, canon), looked up among the calibrate
 * experiments rows when new: its index. */
static size_t entry(struct compare_calibs *cc,
		    const struct experiment_row *rows, size_t nrows,
		    const struct experiment_row *e, const char *host,
		    const struct ds_config *dc)
{
	struct compare_calib *x;
	size_t i;
	int at;

	for (i = 0; i < cc->n; i++)
		if (!strcmp(cc->c[i].host, host) &&
		    !strcmp(cc->c[i].workload, dc->workload) &&
		    !strcmp(cc->c[i].canon, dc->canon))
			return i;
	cc->c = xgrow(cc->c, cc->n, sizeof(*cc->c));
	x = &cc->c[cc->n++];
	*x = (struct compare_calib){ .host = host, .workload = dc->workload,
				     .canon = xstrdup(dc->canon) };
	at = calib_pick(rows, nrows, host, dc->workload, dc->canon, &x->p);
	x->found = at >= 0;
	if (x->found) {
		x->experiment = rows[at].id;
		x->created = rows[at].created_at;
	} else {
		x->config = config_file(e); /* for the hint */
	}
	return i;
}

int compare_calib_load(struct compare_input *s)
{
	struct compare_calibs *cc = &s->calib;
	struct experiment_row *rows;
	size_t i, j;
	int nrows;

	if (!s->st)
		return 0;
	nrows = calib_load(s->st, &rows);
	if (nrows < 0)
		return error("%s: the hosts' A/A profiles cannot be read from "
			     "%s", s->role, s->db);
	for (i = 0; i < s->nsets; i++) {
		const struct experiment_row *e = &s->sets[i].exp;
		const char *host = experiment_meta(e, MK_HOSTNAME);

		for (j = 0; j < s->sets[i].nconfigs; j++) {
			cc->at = xgrow(cc->at, cc->nat, sizeof(*cc->at));
			cc->at[cc->nat++] =
				host ? entry(cc, rows, (size_t)nrows, e, host,
					     &s->sets[i].configs[j])
				     : SIZE_MAX;
		}
	}
	for (i = 0; i < (size_t)nrows; i++)
		experiment_row_release(&rows[i]);
	free(rows);
	return 0;
}

void compare_calib_release(struct compare_calibs *cc)
{
	size_t i;

	for (i = 0; i < cc->n; i++) {
		free(cc->c[i].canon);
		free(cc->c[i].config);
	}
	free(cc->c);
	free(cc->at);
	memset(cc, 0, sizeof(*cc));
}

/* Side s's entry for cmp: one with a profile, else the first without
 * (for the hint), else NULL (no database side, no hostname). */
static const struct compare_calib *
compare_calib_of(const struct compare_input *s, const struct comparison *cmp)
{
	const struct compare_calibs *cc = &s->calib;
	const struct compare_calib *first = NULL;
	size_t i, j, k = 0;

	for (i = 0; i < s->nsets; i++)
		for (j = 0; j < s->sets[i].nconfigs; j++, k++) {
			const struct ds_config *dc = &s->sets[i].configs[j];
			const struct compare_calib *x;

			/* the canon matched on, as compare_sides saw it */
			if (k >= cc->nat || cc->at[k] == SIZE_MAX ||
			    strcmp(dc->workload, cmp->workload) ||
			    strcmp(dc->canon, cmp->canon))
				continue;
			x = &cc->c[cc->at[k]];
			if (x->found)
				return x;
			if (!first)
				first = x;
		}
	return first;
}

/* ---- output ---- */

/* A profile comparison i cites (found) or lacks (!found), with its side. */
struct citation {
	size_t i;
	const struct compare_calib *x;
	const struct compare_input *s;
	bool done;
};

/*
 * The citations of every comparison of r, 0 to 2 each, malloc'd, their
 * count in *n: the candidate's host's; the baseline's host's when it
 * differs, or when only the baseline's database holds the profile of the
 * same host.  A host lacks one only where no side's database has it.
 */
static struct citation *citations(const struct compare_result *r,
				  const struct compare_input *b,
				  const struct compare_input *c, bool found,
				  size_t *n)
{
	struct citation *out = xcalloc(2 * r->n + 1, sizeof(*out));
	size_t i;

	*n = 0;
	for (i = 0; i < r->n; i++) {
		const struct compare_calib *pc = compare_calib_of(c, &r->cmp[i]);
		const struct compare_calib *pb = compare_calib_of(b, &r->cmp[i]);
		bool same = pc && pb && !strcmp(pb->host, pc->host);

		if (pc && pc->found == found && !(same && pb->found && !found))
			out[(*n)++] = (struct citation){ i, pc, c, false };
		if (pb && pb->found == found &&
		    (!same || (found && !pc->found)))
			out[(*n)++] = (struct citation){ i, pb, b, false };
	}
	return out;
}

/* Unix seconds t as strftime's fmt in UTC into buf, "" when unknown. */
static char *utc(char *buf, size_t len, const char *fmt, double t)
{
	time_t s = (time_t)t;
	struct tm tm;

	buf[0] = '\0';
	if (t > 0 && gmtime_r(&s, &tm))
		strftime(buf, len, fmt, &tm);
	return buf;
}

/* What starts a paragraph: "A/A:" the first time, else its indent. */
static void lead(FILE *f, bool *head)
{
	fprintf(f, "%-*s", INDENT, *head ? "" : "A/A:");
	*head = true;
}

/* Every citation in full: a sentence each. */
static void cite_full(FILE *f, const struct compare_result *r,
		      const struct citation *c, size_t n, bool *head)
{
	bool two = n == 2 && c[0].i == c[1].i;
	size_t k;

	for (k = 0; k < n; k++) {
		char *l = compare_label(r, &r->cmp[c[k].i], false, true);
		char *s = calib_cite(&c[k].x->p, c[k].x->host,
				     c[k].x->experiment, c[k].x->created);
		char *g = r->gate_pct >= 0 && c[k].x->p.mde_pct > r->gate_pct
			? xasprintf("; the gate's %g%% is smaller than that "
				    "design shows here", r->gate_pct)
			: xstrdup("");
		bool say = two || strcmp(c[k].s->role, "candidate");
		char *line = xasprintf("%s %s%s%s%s", l,
				       say ? c[k].s->role : "",
				       say ? ": " : "", s, g);

		lead(f, head);
		wrap_print(f, line, INDENT, INDENT + 2, WIDTH);
		free(line);
		free(g);
		free(s);
		free(l);
	}
}

/* Many citations: the host and experiment once, a line a configuration. */
static void cite_short(FILE *f, const struct compare_result *r,
		       struct citation *c, size_t n, bool *head)
{
	size_t k, m;

	for (k = 0; k < n; k++) {
		const struct compare_calib *x = c[k].x;
		bool say = strcmp(c[k].s->role, "candidate");
		char when[40], *line;

		if (c[k].done)
			continue;
		utc(when, sizeof(when), "calibrated %Y-%m-%d %H:%M UTC, ",
		    x->created);
		line = xasprintf("%s%son host %s (%sexperiment %lld: %zu "
				 "invocations): the change %zu boots of %zu "
				 "runs detect, the A/A false alarms, the CV "
				 "between and within invocations%s:",
				 say ? c[k].s->role : "", say ? ": " : "",
				 x->host, when,
				 (long long)x->experiment, x->p.k, x->p.boots,
				 x->p.runs, r->gate_pct >= 0 ? " (*: a change "
				 "above the gate's, which that design cannot "
				 "show here)" : "");
		lead(f, head);
		wrap_print(f, line, INDENT, INDENT + 2, WIDTH);
		free(line);
		for (m = k; m < n; m++) {
			const struct calib_profile *p = &c[m].x->p;
			char *l;

			if (c[m].done || strcmp(c[m].x->host, x->host) ||
			    c[m].x->experiment != x->experiment ||
			    c[m].x->p.boots != x->p.boots ||
			    c[m].x->p.runs != x->p.runs || c[m].s != c[k].s)
				continue;
			c[m].done = true;
			l = compare_label(r, &r->cmp[c[m].i], false, true);
			line = xasprintf("%s: %.1f%%%s, %zu/%zu, %.2f%% and "
					 "%.2f%%", l, p->mde_pct,
					 r->gate_pct >= 0 &&
					 p->mde_pct > r->gate_pct ? " *" : "",
					 p->alarms, p->splits,
					 100 * sqrt(fmax(p->s2_b, 0)),
					 100 * sqrt(fmax(p->s2_w, 0)));
			fprintf(f, "%*s", INDENT + 2, "");
			wrap_print(f, line, INDENT + 2, INDENT + 4, WIDTH);
			free(line);
			free(l);
		}
	}
}

/* One hint per host without a profile (the first configuration's file). */
static void hints(FILE *f, const struct compare_result *r,
		  const struct compare_input *b,
		  const struct compare_input *c, bool *head)
{
	size_t n, i, j, m;
	struct citation *h = citations(r, b, c, false, &n);

	for (i = 0; i < n; i++) {
		const struct compare_calib *x = h[i].x;
		char *cfg, *db;

		for (j = 0; j < i && (!h[j].x->config ||
				      strcmp(h[j].x->host, x->host)); j++)
			;
		if (j < i || !x->config)
			continue;
		for (j = 0, m = 0; j < r->n; j++) {
			const struct compare_calib *y =
				compare_calib_of(h[i].s, &r->cmp[j]);

			m += y && !y->found && !strcmp(y->host, x->host);
		}
		cfg = hint_word(x->config);
		db = hint_db(h[i].s->db);
		lead(f, head);
		fprintf(f, "no profile of host %s for %zu configuration%s; to "
			   "make one, run there:\n%*s`contend calibrate %s "
			   "%s`\n", x->host, m, m == 1 ? "" : "s", INDENT + 2,
			"", cfg, db);
		free(cfg);
		free(db);
	}
	free(h);
}

void compare_calib_print(FILE *f, const struct compare_result *r,
			 const struct compare_input *b,
			 const struct compare_input *c)
{
	bool head = false;
	size_t n;
	struct citation *cite = citations(r, b, c, true, &n);

	if (n <= 2)
		cite_full(f, r, cite, n, &head);
	else
		cite_short(f, r, cite, n, &head);
	free(cite);
	hints(f, r, b, c, &head);
}

void compare_calib_json(struct json_writer *w, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c)
{
	size_t n, i, k;
	struct citation *cite = citations(r, b, c, true, &n);

	json_open(w, "calibrations", '[');
	for (i = 0; i < n; i++) {
		const struct calib_profile *p = &cite[i].x->p;
		const struct { const char *key; double v; } num[] = {
			{ "invocations", (double)p->k }, { "runs", (double)p->n },
			{ "s2_between", p->s2_b }, { "s2_within", p->s2_w },
			{ "aa_splits", (double)p->splits },
			{ "aa_alarms", (double)p->alarms },
			{ "boots", (double)p->boots },
			{ "runs_per_boot", (double)p->runs },
			{ "mde_pct", p->mde_pct },
		};
		char when[32];

		utc(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
		    cite[i].x->created);
		json_open_flat(w, NULL, '{');
		json_int(w, "comparison", (long long)cite[i].i);
		json_str(w, "section", r->cmp[cite[i].i].section);
		json_str(w, "side", cite[i].s->role);
		json_str(w, "hostname", cite[i].x->host);
		json_int(w, "experiment_id", (long long)cite[i].x->experiment);
		if (*when)
			json_str(w, "created", when);
		else
			json_null(w, "created");
		for (k = 0; k < ARRAY_SIZE(num); k++)
			json_num(w, num[k].key, num[k].v);
		json_close(w, '}');
	}
	json_close(w, ']');
	free(cite);
}
