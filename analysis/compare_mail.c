/*
 * compare_mail.c - `contend compare --format mail`: the claim as a
 * reviewer reads it on a mailing list, plain text of at most MAIL_COLS
 * columns so that it stays within 80 after two levels of "> " quoting.
 * A header (each side's kernel and label, the machine, the design,
 * contend's version), one row per configuration with the change, its
 * interval and a star when it survives Holm's correction for the rows;
 * under each row how often B beat A and the secondary metrics that
 * changed; a footer that reproduces the experiment (docs/USER-GUIDE.md).
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_print.h"
#include "analysis/mail.h"
#include "db/contract.h"
#include "lib/escape.h"
#include "lib/numfmt.h"
#include "lib/util.h"

static const struct dataset *first_set(const struct compare_input *s)
{
	return s->side.nsets && !s->side.numbers ? &s->side.sets[0] : NULL;
}

static const char *meta(const struct compare_input *s, const char *key)
{
	const struct dataset *d = first_set(s);
	const char *v = d ? experiment_meta(&d->exp, key) : NULL;

	return v ? v : "?";
}

static void side_head(FILE *f, const char *tag, const struct compare_input *s)
{
	const struct dataset *d = first_set(s);
	char a[64];

	if (d)
		mail_kernel(f, tag, d);
	else
		mail_line(f, "%s: %s (numbers)", tag, mail_shown(a, 60, s->text));
}

static void design(FILE *f, const struct compare_result *r,
		   const struct compare_input *b, const struct compare_input *c)
{
	const struct dataset *db = first_set(b), *dc = first_set(c);
	char o[24];

	if (!r->n)
		return;
	mail_line(f, "design: A %zu x %zu runs, B %zu x %zu runs (invocations "
	     "x runs)", r->cmp[0].ubase.invocations,
	     r->cmp[0].ubase.invocations ? r->cmp[0].ubase.runs /
	     r->cmp[0].ubase.invocations : 0, r->cmp[0].ucand.invocations,
	     r->cmp[0].ucand.invocations ? r->cmp[0].ucand.runs /
	     r->cmp[0].ucand.invocations : 0);
	if (db && dc)
		mail_line(f, "        order %s, seed A %llu, B %llu",
		     mail_shown(o, 16, db->exp.order ? db->exp.order : "?"),
		     (unsigned long long)db->exp.seed,
		     (unsigned long long)dc->exp.seed);
}

static void header(FILE *f, const struct compare_result *r,
		   const struct compare_input *b, const struct compare_input *c)
{
	char v[24], x[24];

	mail_line(f, "contend %s compare: %s, %s is better",
	     mail_shown(v, 20, meta(b, MK_TOOL_VERSION)), mail_shown(x, 20, r->metric),
	     r->opts.dir == DIR_LOWER ? "lower" : "higher");
	side_head(f, "A", b);
	side_head(f, "B", c);
	if (first_set(b))
		mail_machine(f, first_set(b));
	design(f, r, b, c);
}

/* Holm over the rows' two-sided p: which changes survive. */
static void holm(const struct compare_result *r, bool *star)
{
	double alpha = 1 - r->opts.confidence;
	size_t i, j, done = 0;
	bool *used = xcalloc(r->n + 1, sizeof(*used));

	for (i = 0; i < r->n; i++) {
		size_t best = r->n;

		for (j = 0; j < r->n; j++)
			if (!used[j] && isfinite(r->cmp[j].st.p_welch) &&
			    (best == r->n || r->cmp[j].st.p_welch <
					     r->cmp[best].st.p_welch))
				best = j;
		if (best == r->n ||
		    r->cmp[best].st.p_welch * (double)(r->n - done) >= alpha)
			break;
		used[best] = star[best] = true;
		done++;
	}
	free(used);
}

static void seconds(FILE *f, const struct comparison *c, double alpha,
		    bool all)
{
	size_t n = compare_second_shown(c, alpha, all);
	char nm[32], ch[NUMFMT_CI_LEN];

	if (!n)
		return;
	mail_line(f, "    also changed (BH q over %zu metrics):", c->nsecond);
	for (size_t i = 0; i < n; i++) {
		const struct compare_second *s = &c->second[i];

		mail_line(f, "      %-24s %-30s q=%.2g", mail_shown(nm, 24, s->name),
		     numfmt_pct_ci(ch, sizeof(ch), s->change_pct,
				   s->ci_low_pct, s->ci_high_pct), s->q);
	}
}

static void beat(FILE *f, const struct comparison *c, double confidence)
{
	char *t = compare_beat_text(c, confidence);
	char *p, *rest;

	if (!t)
		return;
	/* Wrapped at a word to MAIL_COLS - 4. */
	for (rest = t; strlen(rest) > MAIL_COLS - 4; rest = p + 1) {
		p = rest + MAIL_COLS - 4;
		while (p > rest && *p != ' ')
			p--;
		if (p == rest)
			break;
		*p = '\0';
		mail_line(f, "    %s", rest);
	}
	mail_line(f, "    %s", rest);
	free(t);
}

/* A command line is never cut: it must run as printed. */
static void command(FILE *f, const struct compare_input *b,
		    const struct compare_input *c)
{
	char *sa = escape_text_dup(b->text), *sb = escape_text_dup(c->text);
	char *db = b->db ? escape_text_dup(b->db) : NULL;

	fprintf(f, "  contend compare%s%s \\\n    %s \\\n    %s --format mail\n",
		db ? " --db " : "", db ? db : "", sa ? sa : "?", sb ? sb : "?");
	free(sa);
	free(sb);
	free(db);
}

static const char *label_of(const struct dataset *d)
{
	return d->exp.label ? d->exp.label : "";
}

static const char *label_opt(const struct dataset *d)
{
	return *label_of(d) ? " --label " : "";
}

static void reproduce(FILE *f, const struct compare_input *b,
		      const struct compare_input *c)
{
	const struct dataset *db = first_set(b), *dc = first_set(c);
	const char *path = db && db->exp.config_path && *db->exp.config_path
		? db->exp.config_path : NULL;
	const char *base = path && strrchr(path, '/') ? strrchr(path, '/') + 1
						      : path;
	char p[32], l[32], d[40];
	const char *dbo = b->db ? " --db " : "";

	mail_line(f, "%s", "");
	if (db && dc && base) {
		mail_line(f, "reproduce: config %s (FNV-1a %016llx)", mail_shown(p, 28, base),
		     (unsigned long long)mail_hash(db->exp.config_text));
		mail_shown(d, 36, b->db ? b->db : "");
		mail_line(f, "  each boot of A:");
		mail_line(f, "  contend run %s%s%s%s%s", p, dbo, d,
		     label_opt(db), mail_shown(l, 24, label_of(db)));
		if (db->exp.id != dc->exp.id) {
			mail_line(f, "  each boot of B:");
			mail_line(f, "  contend run %s%s%s%s%s", p, dbo, d,
			     label_opt(dc), mail_shown(l, 24, label_of(dc)));
		}
	} else {
		mail_line(f, "reproduce:");
	}
	command(f, b, c);
}

void compare_print_extras(FILE *f, const struct comparison *cmp,
			  double confidence, bool all)
{
	beat(f, cmp, confidence);
	seconds(f, cmp, 1 - confidence, all);
}

void compare_print_mail(FILE *f, const struct compare_result *r,
			const struct compare_input *b,
			const struct compare_input *c, bool verbose)
{
	bool *star = xcalloc(r->n + 1, sizeof(*star));
	const struct ds_config **all = xcalloc(r->n + 1, sizeof(*all));
	char lab[24], vb[NUMFMT_LEN], vc[NUMFMT_LEN], ch[NUMFMT_CI_LEN];
	size_t i;

	for (i = 0; i < r->n; i++)
		all[i] = r->cmp[i].config;
	header(f, r, b, c);
	holm(r, star);
	mail_line(f, "%s", "");
	mail_line(f, "%-22s %10s %10s  %s", "configuration", "A", "B",
	     "change [interval]");
	for (i = 0; i < r->n; i++) {
		const struct comparison *cmp = &r->cmp[i];

		mail_row_label(f, lab, 22, cmp->section && *cmp->section
						? cmp->section : cmp->workload,
			       cmp->config, all, r->n);
		mail_line(f, "%-22s %10s %10s  %s%s", lab,
		     numfmt(vb, sizeof(vb), cmp->st.base.mean),
		     numfmt(vc, sizeof(vc), cmp->st.cand.mean),
		     numfmt_pct_ci(ch, sizeof(ch), cmp->st.change_pct,
				   cmp->st.change_ci_low_pct,
				   cmp->st.change_ci_high_pct),
		     star[i] ? " *" : "");
		compare_print_extras(f, cmp, r->opts.confidence, verbose);
	}
	mail_line(f, "%s", "");
	mail_line(f, "* the change survives Holm's correction for %zu row%s at "
	     "%g%%", r->n, r->n == 1 ? "" : "s", 100 * r->opts.confidence);
	mail_line(f, "%s", "also changed: Benjamini-Hochberg q across a row's "
	     "metrics, q <");
	mail_line(f, "  %g, top %d by |t| (--verbose: all)", 1 - r->opts.confidence,
	     COMPARE_SECOND_TOP);
	reproduce(f, b, c);
	free(all);
	free(star);
}
