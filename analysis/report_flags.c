/*
 * report_flags.c - the text report's flag messages, the most
 * consequential kinds first: under --verbose every message once (the
 * first of a kind in full, the others by what they found); by default
 * what each found, a kind raised by several configurations in one line
 * with its numbers as ranges ("CV 6.2-24% of throughput is above ...").
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/report_impl.h"
#include "analysis/flagtab.h"
#include "lib/util.h"

/* "config 2 (vs 1)" for flag fl of configuration c. */
static char *flag_config(size_t c, const struct flag *fl)
{
	if (fl->other_config >= 0)
		return xasprintf("%zu (vs %ld)", c + 1, fl->other_config + 1);
	return xasprintf("%zu", c + 1);
}

/* The length of what a flag found: its message up to the first ": " or
 * ". " outside parentheses (the explanation and the remedy follow), else
 * all of it. */
static size_t found_len(const char *message)
{
	const char *p;
	int depth = 0;

	for (p = message; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth > 0)
			depth--;
		else if (!depth && (*p == ':' || *p == '.') && p[1] == ' ')
			break;
	}
	return (size_t)(p - message);
}

/* ---- one line for a kind several configurations raised ---- */

/* The length of the number at s in a finding: digits, a decimal part,
 * an exponent ("7.1e-19"); 0 when s holds none. */
static size_t number_at(const char *s)
{
	size_t n = 0, e;

	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)s[n]) ||
	       (s[n] == '.' && isdigit((unsigned char)s[n + 1])))
		n++;
	e = n + 1 + (s[n + 1] == '-' || s[n + 1] == '+');
	if (s[n] == 'e' && isdigit((unsigned char)s[e]))
		for (n = e; isdigit((unsigned char)s[n]); n++)
			;
	return n;
}

/*
 * The findings of the n flags fl[] as one when they read the same but for
 * their numbers: each number the range of its values ("6.2-24"), or the
 * value when all agree; NULL when their words differ.  malloc'd.
 */
static char *ranged(const struct flag *const *fl, size_t n)
{
	const char *m = fl[0]->message;
	size_t len = found_len(m), i = 0, k, num, llo, lhi;
	size_t *at = xcalloc(n, sizeof(*at)); /* where each fl[k] is read */
	char *out = xstrdup("");

	while (i < len) {
		const char *lo = m + i, *hi = m + i;

		num = llo = lhi = number_at(m + i);
		for (k = 1; k < n; k++) {
			const char *p = fl[k]->message + at[k];
			size_t w = number_at(p);

			if (at[k] >= found_len(fl[k]->message) || !num != !w ||
			    (!num && *p != m[i]))
				goto differ;
			at[k] += num ? w : 1;
			if (num && strtod(p, NULL) < strtod(lo, NULL)) {
				lo = p;
				llo = w;
			}
			if (num && strtod(p, NULL) > strtod(hi, NULL)) {
				hi = p;
				lhi = w;
			}
		}
		if (!num)
			out = report_cat(out, "", "%c", m[i]);
		else if (lo == hi || (llo == lhi && !strncmp(lo, hi, llo)))
			out = report_cat(out, "", "%.*s", (int)llo, lo);
		else
			out = report_cat(out, "", "%.*s-%.*s", (int)llo, lo,
					 (int)lhi, hi);
		i += num ? num : 1;
	}
	for (k = 1; k < n; k++)
		if (at[k] != found_len(fl[k]->message))
			goto differ;
	free(at);
	return out;
differ:
	free(at);
	free(out);
	return NULL;
}

/* "1-4, 6": the configurations of fl[], consecutive ones as a range. */
static char *config_list(const size_t *cfgs, size_t n)
{
	char *s = xstrdup("");
	size_t i = 0, j;

	while (i < n) {
		for (j = i; j + 1 < n && cfgs[j + 1] == cfgs[j] + 1; j++)
			;
		s = j > i ? report_cat(s, ", ", "%zu-%zu", cfgs[i] + 1,
				       cfgs[j] + 1)
			  : report_cat(s, ", ", "%zu", cfgs[i] + 1);
		i = j + 1;
	}
	return s;
}

/* How many configurations raise flag name; each of them and its flag
 * into cfgs and fl when not NULL. */
static size_t raised_by(const struct analysis *a, const char *name,
			size_t *cfgs, const struct flag **fl)
{
	size_t c, i, n = 0;

	for (c = 0; c < a->nconfigs; c++)
		for (i = 0; i < a->configs[c].nflags; i++)
			if (!strcmp(a->configs[c].flags[i].name, name)) {
				if (cfgs) {
					cfgs[n] = c;
					fl[n] = &a->configs[c].flags[i];
				}
				n++;
				break;
			}
	return n;
}

static void one_line(FILE *f, const struct analysis *a, const char *name)
{
	size_t *cfgs = xcalloc(a->nconfigs, sizeof(*cfgs));
	const struct flag **fl = xcalloc(a->nconfigs, sizeof(*fl)); /* NOLINT(bugprone-sizeof-expression): an array of pointers */
	size_t n = raised_by(a, name, cfgs, fl);
	char *list = config_list(cfgs, n), *text = ranged(fl, n), *lead;

	lead = xasprintf("  ! %s, configs %s:", name, list);
	if (text)
		report_wrap(f, lead, 4, "%s", text);
	else
		report_wrap(f, lead, 4, "%.*s (config %zu)",
			    (int)found_len(fl[0]->message), fl[0]->message,
			    cfgs[0] + 1);
	free(text);
	free(lead);
	free(list);
	free(fl);
	free(cfgs);
}

/* ---- every message ---- */

/* Whether a flag before configuration c's i-th has its name (and, with
 * words, its message: it was printed with that one). */
static bool earlier(const struct analysis *a, size_t c, size_t i, bool words)
{
	const struct flag *fl = &a->configs[c].flags[i], *g;
	size_t c2, j;

	for (c2 = 0; c2 <= c; c2++)
		for (j = 0; j < (c2 < c ? a->configs[c2].nflags : i); j++) {
			g = &a->configs[c2].flags[j];
			if (!strcmp(g->name, fl->name) &&
			    (!words || !strcmp(g->message, fl->message)))
				return true;
		}
	return false;
}

/* Configuration c's flag fl, with every later configuration that has
 * the same message word for word. */
static void message(FILE *f, const struct analysis *a, size_t c,
		    const struct flag *fl, bool explained, bool brief)
{
	char *where = flag_config(c, fl), *lead, *more;
	size_t c2, j, n = found_len(fl->message);

	for (c2 = c + 1; c2 < a->nconfigs; c2++)
		for (j = 0; j < a->configs[c2].nflags; j++) {
			const struct flag *g = &a->configs[c2].flags[j];

			if (strcmp(g->name, fl->name) ||
			    strcmp(g->message, fl->message))
				continue;
			more = flag_config(c2, g);
			where = report_cat(where, ", ", "%s", more);
			free(more);
		}
	lead = xasprintf("  ! %s, config%s %s:", fl->name,
			 strchr(where, ',') ? "s" : "", where);
	/* by default what was found, with its numbers; why and what to do
	 * under --verbose (the hint below the flags says so), but for a kind
	 * explained in full just before */
	if (brief || (explained && fl->message[n]))
		report_wrap(f, lead, 4, "%.*s%s", (int)n, fl->message,
			    brief ? "" : " (as above)");
	else
		report_wrap(f, lead, 4, "%s", fl->message);
	free(lead);
	free(where);
}

void report_flag_messages(FILE *f, const struct analysis *a, bool brief)
{
	struct totals t;
	size_t rank, c, i, full = (size_t)-1;
	size_t nrank = flag_count(FV_REPORT);

	totals(a, &t);
	fputc('\n', f);
	if (!t.flags) {
		fprintf(f, "flags: none raised\n");
		return;
	}
	fprintf(f, "flags: %zu raised (USER-GUIDE.md \"Reading the report\")\n",
		t.flags);
	for (rank = 0; rank <= nrank; rank++)
		for (c = 0; c < a->nconfigs; c++)
			for (i = 0; i < a->configs[c].nflags; i++) {
				const struct flag *fl = &a->configs[c].flags[i];
				bool many;

				if (flag_place(FV_REPORT, fl->name) != rank)
					continue;
				many = brief && raised_by(a, fl->name, NULL, NULL) > 1;
				if (many && !earlier(a, c, i, false))
					one_line(f, a, fl->name);
				if (many || earlier(a, c, i, true))
					continue;
				message(f, a, c, fl, full == rank, brief);
				full = rank;
			}
}
