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
	cc->c = xrealloc(cc->c, (cc->n + 1) * sizeof(*cc->c));
	x = &cc->c[cc->n++];
	memset(x, 0, sizeof(*x));
	x->host = host;
	x->workload = dc->workload;
	x->canon = xstrdup(dc->canon);
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
	size_t i, j, n = 0;
	int nrows;

	if (!s->st)
		return 0;
	nrows = calib_load(s->st, &rows);
	if (nrows < 0)
		return error("%s: the hosts' A/A profiles cannot be read from "
			     "%s", s->role, s->db);
	for (i = 0; i < s->nsets; i++)
		n += s->sets[i].nconfigs;
	cc->at = xcalloc(n ? n : 1, sizeof(*cc->at));
	for (i = 0; i < s->nsets; i++) {
		const struct experiment_row *e = &s->sets[i].exp;
		const char *host = experiment_meta(e, MK_HOSTNAME);

		for (j = 0; j < s->sets[i].nconfigs; j++)
			cc->at[cc->nat++] =
				host ? entry(cc, rows, (size_t)nrows, e, host,
					     &s->sets[i].configs[j])
				     : SIZE_MAX;
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

/*
 * The profiles comparison cmp cites (found) or lacks (!found), 0 to 2,
 * each with its side: the candidate's host's; the baseline's host's when
 * it differs, or when only the baseline's database holds the profile of
 * the same host.  A host lacks one only where no side's database has it.
 */
static size_t cited(const struct compare_input *b,
		    const struct compare_input *c,
		    const struct comparison *cmp,
		    const struct compare_calib *who[2], const char *side[2],
		    bool found)
{
	const struct compare_calib *pc = compare_calib_of(c, cmp);
	const struct compare_calib *pb = compare_calib_of(b, cmp);
	bool same = pc && pb && !strcmp(pb->host, pc->host);
	size_t n = 0;

	if (pc && pc->found == found && !(same && pb->found && !found)) {
		side[n] = "candidate";
		who[n++] = pc;
	}
	if (pb && pb->found == found && (!same || (found && !pc->found))) {
		side[n] = "baseline";
		who[n++] = pb;
	}
	return n;
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

/* One paragraph under "A/A:" (the first) or indented as its rest. */
static void para(FILE *f, const char *line, bool *head)
{
	fprintf(f, "%-*s", INDENT, *head ? "" : "A/A:");
	*head = true;
	wrap_print(f, line, INDENT, INDENT + 2, WIDTH);
}

struct citation {
	size_t i;
	const struct compare_calib *x;
	const char *side;
	bool done;
};

/* Every citation in full: a sentence each. */
static void cite_full(FILE *f, const struct compare_result *r,
		      const struct citation *c, size_t n, bool two,
		      bool *head)
{
	size_t k;

	for (k = 0; k < n; k++) {
		char *l = compare_label(r, &r->cmp[c[k].i], false, true);
		char *s = calib_cite(&c[k].x->p, c[k].x->host,
				     c[k].x->experiment, c[k].x->created);
		char *g = r->gate_pct >= 0 && c[k].x->p.mde_pct > r->gate_pct
			? xasprintf("; the gate's %g%% is smaller than that "
				    "design shows here", r->gate_pct)
			: xstrdup("");
		bool say = two || strcmp(c[k].side, "candidate");
		char *line = xasprintf("%s %s%s%s%s", l, say ? c[k].side : "",
				       say ? ": " : "", s, g);

		para(f, line, head);
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
		bool say = strcmp(c[k].side, "candidate");
		char when[40], *line;

		if (c[k].done)
			continue;
		utc(when, sizeof(when), "calibrated %Y-%m-%d %H:%M UTC, ",
		    x->created);
		line = xasprintf("%s%son host %s (%sexperiment %lld: %zu "
				 "invocations): the change %zu boots of %zu "
				 "runs detect, the A/A false alarms, the CV "
				 "between and within invocations%s:",
				 say ? c[k].side : "", say ? ": " : "", x->host,
				 when,
				 (long long)x->experiment, x->p.k, x->p.boots,
				 x->p.runs, r->gate_pct >= 0 ? " (*: a change "
				 "above the gate's, which that design cannot "
				 "show here)" : "");
		para(f, line, head);
		free(line);
		for (m = k; m < n; m++) {
			const struct calib_profile *p = &c[m].x->p;
			char *l;

			if (c[m].done || strcmp(c[m].x->host, x->host) ||
			    c[m].x->experiment != x->experiment ||
			    c[m].x->p.boots != x->p.boots ||
			    c[m].x->p.runs != x->p.runs ||
			    strcmp(c[m].side, c[k].side))
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
	const char **done = xcalloc(2 * r->n + 1, sizeof(*done));
	size_t i, j, k, ndone = 0;

	for (i = 0; i < r->n; i++) {
		const struct compare_calib *who[2];
		const char *side[2];
		size_t n = cited(b, c, &r->cmp[i], who, side, false);

		for (k = 0; k < n; k++) {
			const struct compare_input *s =
				!strcmp(side[k], "candidate") ? c : b;
			char *cfg, *db;
			size_t m = 0;

			for (j = 0; j < ndone; j++)
				if (!strcmp(done[j], who[k]->host))
					break;
			if (j < ndone || !who[k]->config)
				continue;
			done[ndone++] = who[k]->host;
			for (j = 0; j < r->n; j++) {
				const struct compare_calib *x =
					compare_calib_of(s, &r->cmp[j]);

				m += x && !x->found &&
				     !strcmp(x->host, who[k]->host);
			}
			cfg = hint_word(who[k]->config);
			db = hint_db(s->db);
			fprintf(f, "%-*sno profile of host %s for %zu "
				   "configuration%s; to make one, run there:"
				   "\n%*s`contend calibrate %s %s`\n", INDENT,
				*head ? "" : "A/A:", who[k]->host, m,
				m == 1 ? "" : "s", INDENT + 2, "", cfg, db);
			*head = true;
			free(cfg);
			free(db);
		}
	}
	free(done);
}

void compare_calib_print(FILE *f, const struct compare_result *r,
			 const struct compare_input *b,
			 const struct compare_input *c)
{
	struct citation *cite = xcalloc(2 * r->n + 1, sizeof(*cite));
	bool head = false, two = false;
	size_t i, k, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct compare_calib *who[2];
		const char *side[2];
		size_t m = cited(b, c, &r->cmp[i], who, side, true);

		two |= m > 1;
		for (k = 0; k < m; k++)
			cite[n++] = (struct citation){ i, who[k], side[k],
						       false };
	}
	if (n <= 2)
		cite_full(f, r, cite, n, two, &head);
	else
		cite_short(f, r, cite, n, &head);
	free(cite);
	hints(f, r, b, c, &head);
}

static void json_calib(struct json_writer *w, size_t i, const char *side,
		       const struct comparison *cmp,
		       const struct compare_calib *x)
{
	const struct calib_profile *p = &x->p;
	const struct {
		const char *key;
		double v;
	} num[] = {
		{ "invocations", (double)p->k }, { "runs", (double)p->n },
		{ "s2_between", p->s2_b }, { "s2_within", p->s2_w },
		{ "aa_splits", (double)p->splits },
		{ "aa_alarms", (double)p->alarms },
		{ "boots", (double)p->boots },
		{ "runs_per_boot", (double)p->runs }, { "mde_pct", p->mde_pct },
	};
	char when[32];
	size_t k;

	utc(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", x->created);
	json_open_flat(w, NULL, '{');
	json_int(w, "comparison", (long long)i);
	json_str(w, "section", cmp->section);
	json_str(w, "side", side);
	json_str(w, "hostname", x->host);
	json_int(w, "experiment_id", (long long)x->experiment);
	if (*when)
		json_str(w, "created", when);
	else
		json_null(w, "created");
	for (k = 0; k < ARRAY_SIZE(num); k++)
		json_num(w, num[k].key, num[k].v);
	json_close(w, '}');
}

void compare_calib_json(struct json_writer *w, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c)
{
	size_t i, k;

	json_open(w, "calibrations", '[');
	for (i = 0; i < r->n; i++) {
		const struct compare_calib *who[2];
		const char *side[2];
		size_t m = cited(b, c, &r->cmp[i], who, side, true);

		for (k = 0; k < m; k++)
			json_calib(w, i, side[k], &r->cmp[i], who[k]);
	}
	json_close(w, ']');
}
