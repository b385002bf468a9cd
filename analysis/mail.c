/*
 * mail.c - `contend report --format mail` and `contend compare --format
 * mail` (docs/USER-GUIDE.md), as a reviewer reads them on a mailing list:
 * plain text lines of at most MAIL_COLS columns, so that a reply quoting
 * them twice ("> > ") stays within 80; stored strings escaped and cut.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "db/contract.h"
#include "lib/escape.h"
#include "lib/holm.h"
#include "lib/numfmt.h"
#include "lib/util.h"
#include "lib/wrap.h"

#define MAIL_COLS 72

/* One line, cut at MAIL_COLS: the columns are a promise. */
__attribute__((format(printf, 2, 3)))
static void mail_line(FILE *f, const char *fmt, ...)
{
	char buf[MAIL_COLS + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "%s\n", buf);
}

/* s (NULL: "?") escaped into buf, cut to width columns; buf holds
 * width + 1.  Returns buf. */
static const char *mail_shown(char *buf, size_t width, const char *s)
{
	escape_text(buf, width + 1, s ? s : "?");
	return buf;
}

/* Does parameter key have value in every configuration of all[0..n)? */
static bool constant(const struct ds_config *const *all, size_t n,
		     const char *key, const char *value)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = all[i] ? ds_config_param(all[i], key) : NULL;

		if (!v || strcmp(v, value))
			return false;
	}
	return true;
}

/*
 * A row's label into buf (width + 1 bytes): name (the section, else the
 * workload) and the parameters of c that vary among all[0..n), escaped,
 * when it fits the column; else printed whole on a line of its own and
 * buf left empty, so that a label is never cut into another
 * (threads=10000 into =1000).
 */
static void mail_row_label(FILE *f, char *buf, size_t width, const char *name,
			   const struct ds_config *c,
			   const struct ds_config *const *all, size_t n)
{
	char *t = xstrdup(name), *e;

	for (size_t k = 0; c && k < c->nparams; k++) {
		const struct kv *p = &c->params[k];

		if (!constant(all, n, p->key, p->value))
			t = report_cat(t, " ", "%s=%s", p->key, p->value);
	}
	e = escape_text_dup(t);
	buf[0] = '\0';
	if (e && strlen(e) <= width)
		memcpy(buf, e, strlen(e) + 1);
	else
		mail_line(f, "%s", e ? e : "?");
	free(e);
	free(t);
}

/* FNV-1a (64 bits) of a config file's text, to name the file's version. */
static uint64_t mail_hash(const char *text)
{
	uint64_t h = 1469598103934665603ULL;

	for (; text && *text; text++)
		h = (h ^ (unsigned char)*text) * 1099511628211ULL;
	return h;
}

static const char *meta(const struct dataset *d, const char *key)
{
	const char *v = d ? experiment_meta(&d->exp, key) : NULL;

	return v ? v : "?";
}

/* "reproduce: config FILE (FNV-1a HASH)" when d has a config file, its
 * name shown into p (32 bytes). */
static bool reproduce_config(FILE *f, const struct dataset *d, char *p)
{
	const char *path = d->exp.config_path;

	if (!path || !*path)
		return false;
	mail_line(f, "reproduce: config %s (FNV-1a %016llx)",
		  mail_shown(p, 28, strrchr(path, '/') ? strrchr(path, '/') + 1
							: path),
		  (unsigned long long)mail_hash(d->exp.config_text));
	return true;
}

/* "  contend run FILE[ --db DB][ --label LABEL]" */
static void run_line(FILE *f, const char *p, const char *dbo, const char *db,
		     const struct dataset *d)
{
	const char *label = d->exp.label ? d->exp.label : "";
	char l[32];

	mail_line(f, "  contend run %s%s%s%s%s", p, dbo, db,
		  *label ? " --label " : "", mail_shown(l, 24, label));
}

/* The header lines of one experiment's kernel ("A: 6.8.0, label x" with
 * tag "A"), and of its machine. */
static void mail_kernel(FILE *f, const char *tag, const struct dataset *d)
{
	char a[40], b[32], c[24];

	mail_line(f, "%s: %s, label %s", tag,
		  mail_shown(a, 36, meta(d, MK_KERNEL_RELEASE)),
		  mail_shown(b, 28, d->exp.label && *d->exp.label
					    ? d->exp.label : "none"));
	mail_line(f, "   preempt %s, lockdep %s",
		  mail_shown(c, 22, meta(d, MK_PREEMPT)),
		  mail_shown(a, 20, meta(d, MK_LOCKDEP)));
}

static void mail_machine(FILE *f, const struct dataset *d)
{
	char m[48], n[8], s[8];

	mail_line(f, "machine: %s, %s CPUs, SMT %s",
		  mail_shown(m, 44, meta(d, MK_CPU_MODEL)),
		  mail_shown(n, 6, meta(d, MK_NCPUS)),
		  mail_shown(s, 6, meta(d, MK_SMT)));
}

int report_mail(FILE *f, const struct analysis *a)
{
	const struct dataset *d = a->d;
	char n[32], o[16], lab[32], ci[NUMFMT_CI_LEN], *fl, p[32], l[32];
	const struct ds_config **all = xcalloc(d->nconfigs + 1, sizeof(*all)); /* NOLINT(bugprone-sizeof-expression): an array of pointers */
	struct totals t;
	size_t i;

	for (i = 0; i < d->nconfigs; i++)
		all[i] = &d->configs[i];
	mail_line(f, "contend %s report: %s, %g%% intervals",
		  mail_shown(l, 20, meta(d, MK_TOOL_VERSION)),
		  mail_shown(n, 28, d->exp.name),
		  100 * a->opts.confidence);
	mail_kernel(f, "kernel", d);
	mail_machine(f, d);
	totals(a, &t);
	mail_line(f, "design: one invocation, %zu configurations, %zu "
		  "measured runs", a->nconfigs, t.measured);
	mail_line(f, "        order %s, seed %llu",
		  mail_shown(o, 12, d->exp.order ? d->exp.order : "?"),
		  (unsigned long long)d->exp.seed);
	mail_line(f, "%s", "");
	mail_line(f, "%-30s %4s  %s", "configuration", "runs",
		  mail_shown(n, 24, a->nconfigs && a->configs[0].primary_name
				    ? a->configs[0].primary_name : "mean"));
	for (i = 0; i < a->nconfigs; i++) {
		const struct config_analysis *ca = &a->configs[i];
		const struct ds_config *c = &d->configs[ca->config];
		const struct metric_summary *m =
			ca->primary >= 0 ? &ca->metrics[ca->primary] : NULL;
		mail_row_label(f, lab, 30, c->section && *c->section
						? c->section : c->workload,
			       c, all, d->nconfigs);
		fl = report_flag_names(ca, ", ", false);
		mail_line(f, "%-30s %4zu  %s", lab, ca->measured,
			  m ? numfmt_ci(ci, sizeof(ci), m->s.mean, m->s.ci_low,
					m->s.ci_high) : "-");
		if (*fl)
			mail_line(f, "    flags: %s", fl);
		free(fl);
	}
	mail_line(f, "%s", "");
	if (reproduce_config(f, d, p))
		run_line(f, p, "", "", d);
	mail_line(f, "  contend report %lld --format mail",
		  (long long)d->exp.id);
	free(all);
	return ferror(f) ? -1 : 0;
}

static const struct dataset *first_set(const struct compare_input *s)
{
	return s->side.nsets && !s->side.numbers ? &s->side.sets[0] : NULL;
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
	char o[24], line[96];
	bool below;

	if (!r->n)
		return;
	mail_line(f, "design: A %zu x %zu runs, B %zu x %zu runs (invocations "
	     "x runs)", r->cmp[0].ubase.invocations,
	     r->cmp[0].ubase.invocations ? r->cmp[0].ubase.runs /
	     r->cmp[0].ubase.invocations : 0, r->cmp[0].ucand.invocations,
	     r->cmp[0].ucand.invocations ? r->cmp[0].ucand.runs /
	     r->cmp[0].ucand.invocations : 0);
	if (!db || !dc)
		return;
	mail_shown(o, 16, db->exp.order ? db->exp.order : "?");
	/* two 20-digit seeds pass 72 columns: B's then goes below, whole
	 * (mail_line cuts, and a cut seed reproduces nothing) */
	snprintf(line, sizeof(line), "        order %s, seed A %llu, B %llu",
		 o, (unsigned long long)db->exp.seed,
		 (unsigned long long)dc->exp.seed);
	below = strlen(line) > MAIL_COLS;
	if (below)
		strrchr(line, 'B')[-1] = '\0'; /* seeds are digits */
	mail_line(f, "%s", line);
	if (below)
		mail_line(f, "        seed B %llu",
			  (unsigned long long)dc->exp.seed);
}

static void header(FILE *f, const struct compare_result *r,
		   const struct compare_input *b, const struct compare_input *c)
{
	char v[24], x[24];

	mail_line(f, "contend %s compare: %s, %s is better",
	     mail_shown(v, 20, meta(first_set(b), MK_TOOL_VERSION)), mail_shown(x, 20, r->metric),
	     r->opts.dir == DIR_LOWER ? "lower" : "higher");
	side_head(f, "A", b);
	side_head(f, "B", c);
	if (first_set(b))
		mail_machine(f, first_set(b));
	design(f, r, b, c);
}

/* Holm over the rows' two-sided p (lib/holm.h): which changes survive.
 * A p that is not finite is a row that counts but survives nothing. */
static void holm(const struct compare_result *r, bool *star)
{
	double *p = xcalloc(r->n + 1, sizeof(*p));
	size_t i;

	for (i = 0; i < r->n; i++)
		p[i] = isfinite(r->cmp[i].st.p_welch) ? r->cmp[i].st.p_welch : 1;
	holm_adjust(p, r->n, p);
	for (i = 0; i < r->n; i++)
		star[i] = p[i] < 1 - r->opts.confidence;
	free(p);
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

/* Prose of numbers and words: wrapped, never cut. */
static void beat(FILE *f, const struct comparison *c, double confidence)
{
	char *t = compare_beat_text(c, confidence);

	if (t)
		wrap_lead(f, "    ", t, 4, MAIL_COLS);
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

static void reproduce(FILE *f, const struct compare_input *b,
		      const struct compare_input *c)
{
	const struct dataset *db = first_set(b), *dc = first_set(c);
	const char *dbo = b->db ? " --db " : "";
	char p[32], d[40];

	mail_line(f, "%s", "");
	if (db && dc && reproduce_config(f, db, p)) {
		mail_shown(d, 36, b->db ? b->db : "");
		mail_line(f, "  each boot of A:");
		run_line(f, p, dbo, d, db);
		if (db->exp.id != dc->exp.id) {
			mail_line(f, "  each boot of B:");
			run_line(f, p, dbo, d, dc);
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
	const struct ds_config **all = xcalloc(r->n + 1, sizeof(*all)); /* NOLINT(bugprone-sizeof-expression): an array of pointers */
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
