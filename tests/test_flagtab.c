/*
 * test_flagtab.c - analysis/flags.c: the flag table is whole (names,
 * letters and ranks unique, a rank wherever the flag shows, a detector
 * only for the report's), its orders keep those each output had before
 * the table, and the docs agree with it: the generated table
 * (docs/USER-GUIDE.md, "Every flag at a glance"), which
 * CONTEND_UPDATE_GOLDEN=1 rewrites as sh scripts/gen-docs.sh does; the
 * flag names of docs/report-json.md and docs/compare-json.md, a paragraph
 * in the guide for every flag of the report, and every "`NAME` (L)"
 * letter in docs/.  And every flag the sources of analysis/ raise by name
 * has its row, which shows it where it is raised.
 * `test_flagtab --markdown` prints the generated table.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/flagtab.h"
#include "lib/util.h"
#include "tests/checks.h"

/* The docs table (docs/USER-GUIDE.md "Every flag at a glance"), one row
 * a flag, printed by this test for scripts/gen-docs.sh. */

static const char *const level_names[] = {
	[FLAG_HIGH] = "high", [FLAG_MID] = "mid", [FLAG_LOW] = "low",
};

static const char *const shows_names[] = {
	[FLAG_REPORT] = "report",
	[FLAG_COMPARE] = "compare",
	[FLAG_BOTH] = "report, compare",
	[FLAG_CARRIED] = "report (compare carries it per side)",
};

static void flagtab_markdown(FILE *f)
{
	int level;
	size_t i;

	fputs("| flag | letter | severity | raised by | what it means |\n"
	      "|---|---|---|---|---|\n", f);
	for (level = FLAG_HIGH; level <= FLAG_LOW; level++)
		for (i = 0; i < nflag_defs; i++) {
			const struct flag_def *d = &flag_defs[i];

			if ((int)d->level != level)
				continue;
			fprintf(f, "| `%s` | %c | %s | %s | %s |\n", d->name,
				d->letter ? d->letter : '-',
				level_names[d->level], shows_names[d->shows],
				d->doc);
		}
}

#define GUIDE "docs/USER-GUIDE.md"
#define BEGIN_MARK "<!-- BEGIN flag table (analysis/flags.c) -->\n"
#define END_MARK "<!-- END flag table -->\n"

static bool shows_in_report(const struct flag_def *d)
{
	return d->shows != FLAG_COMPARE;
}

static bool shows_in_compare(const struct flag_def *d)
{
	return d->shows != FLAG_REPORT;
}

static void test_rows_whole(void **state)
{
	size_t i, j;

	(void)state;
	assert_true(nflag_defs > 0);
	for (i = 0; i < nflag_defs; i++) {
		const struct flag_def *d = &flag_defs[i];

		/* struct flag and struct compare_flag hold 31 bytes */
		if (!*d->name || strlen(d->name) >= 32 || !d->doc || !*d->doc)
			fail_msg("%s: a name of 1 to 31 bytes and a doc", d->name);
		if (!d->rank[FV_REPORT] != !shows_in_report(d))
			fail_msg("%s: a report rank iff the report shows it",
				 d->name);
		if (!d->rank[FV_COMPARE] != !shows_in_compare(d))
			fail_msg("%s: an overview rank iff compare shows it",
				 d->name);
		if (!d->rank[FV_COLUMN] != !d->letter ||
		    !d->letter != !shows_in_compare(d))
			fail_msg("%s: compare's flags have a letter and its "
				 "column rank, the report's none", d->name);
		if (d->raise && !shows_in_report(d))
			fail_msg("%s: a detector of a flag the report does not "
				 "show", d->name);
		if (d->brief && !shows_in_compare(d))
			fail_msg("%s: a brief of a flag compare does not show",
				 d->name);
		if (flag_def_find(d->name) != d)
			fail_msg("%s: not found by its name", d->name);
		for (j = 0; j < i; j++) {
			const struct flag_def *e = &flag_defs[j];

			if (!strcmp(d->name, e->name) ||
			    (d->letter && d->letter == e->letter))
				fail_msg("%s and %s share a name or a letter",
					 d->name, e->name);
			for (int v = 0; v < 3; v++)
				if (d->rank[v] && d->rank[v] == e->rank[v])
					fail_msg("%s and %s share rank %u of view "
						 "%d", d->name, e->name,
						 d->rank[v], v);
		}
	}
	assert_null(flag_def_find("no-such-flag"));
}

struct view_case {
	const char *name;
	enum flag_view v;
	const char *const *want;    /* NULL-terminated */
};

/* The lists each output had before the table (report.c's flag_order,
 * compare_text.c's flag_severity and flag_codes, html.c's severities;
 * html listed kernel-warning and multimodal together, last). */
static const char *const report_order[] = {
	"misleading-throughput", "miscalibrated", "noisy", "drift", "unfair",
	"outliers", "non-normal", "few-runs", "contention-coupled",
	"kernel-warning", "multimodal", NULL,
};
static const char *const compare_order[] = {
	"misleading-throughput", "fairness-traded", "regime-shift",
	"instrumentation-differs", "host-mismatch", "kernel-warning",
	"too-few-runs", "multimodal", "single-invocation", "noisy", "drift",
	"unfair", NULL,
};
static const char *const column_order[] = {
	"misleading-throughput", "noisy", "drift", "unfair",
	"single-invocation", "host-mismatch", "too-few-runs",
	"instrumentation-differs", "kernel-warning", "multimodal",
	"regime-shift", "fairness-traded", NULL,
};
static const char *const html_order[] = {
	"misleading-throughput", "miscalibrated", "noisy", "drift", "unfair",
	"few-runs", "outliers", "non-normal", "contention-coupled",
	"kernel-warning", "multimodal", NULL,
};

static const struct view_case views[] = {
	{ "report", FV_REPORT, report_order },
	{ "compare's overview", FV_COMPARE, compare_order },
	{ "compare's column", FV_COLUMN, column_order },
	{ "html", FV_HTML, html_order },
};

static bool listed(const char *const *want, const char *name)
{
	for (; *want; want++)
		if (!strcmp(*want, name))
			return true;
	return false;
}

/*
 * Each view lists the flags it listed before the table in the same order
 * (a flag added since may come anywhere among them), and names it does
 * not show last.
 */
static void test_orders(void **state)
{
	const struct flag_def *d;
	size_t k, i, at, n;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(views); k++) {
		const struct view_case *c = &views[k];

		for (i = 0, at = 0; (d = flag_nth(c->v, i)); i++) {
			if (flag_place(c->v, d->name) != i)
				fail_msg("%s: %s not at %zu", c->name, d->name,
					 i);
			if (!listed(c->want, d->name))
				continue;
			if (strcmp(d->name, c->want[at]))
				fail_msg("%s: %s where %s was", c->name,
					 d->name, c->want[at]);
			at++;
		}
		n = i;
		if (c->want[at])
			fail_msg("%s: %s missing", c->name, c->want[at]);
		assert_int_equal(flag_count(c->v), n);
		assert_int_equal(flag_place(c->v, "no-such-flag"), n);
	}
	assert_int_equal(flag_place(FV_REPORT, "host-mismatch"),
			 flag_count(FV_REPORT));
	assert_true(flag_carried("noisy"));
	assert_true(flag_carried("kernel-warning"));
	assert_false(flag_carried("misleading-throughput"));
	assert_false(flag_carried("no-such-flag"));
}

static char *markdown(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	flagtab_markdown(f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The guide's generated block is the table's markdown (rewritten first
 * under CONTEND_UPDATE_GOLDEN=1). */
static void test_guide_block(void **state)
{
	const char *update = getenv("CONTEND_UPDATE_GOLDEN");
	char *doc = slurp(GUIDE, NULL), *want = markdown(), *b, *e, *got;

	(void)state;
	b = strstr(doc, BEGIN_MARK);
	e = b ? strstr(b, END_MARK) : NULL;
	if (!b || !e)
		fail_msg("%s: no markers %s ... %s", GUIDE, BEGIN_MARK, END_MARK);
	b += strlen(BEGIN_MARK);
	if (update && *update == '1') {
		FILE *f = fopen(GUIDE, "wb");

		assert_non_null(f);
		fprintf(f, "%.*s%s%s", (int)(b - doc), doc, want, e);
		assert_int_equal(fclose(f), 0);
		free(doc);
		doc = slurp(GUIDE, NULL);
		b = strstr(doc, BEGIN_MARK) + strlen(BEGIN_MARK);
		e = strstr(b, END_MARK);
	}
	got = xstrndup(b, (size_t)(e - b));
	if (strcmp(got, want)) {
		fprintf(stderr, "---- %s's flag table; the table's:\n%s", GUIDE,
			want);
		fail_msg("%s differs from analysis/flags.c: run sh "
			 "scripts/gen-docs.sh", GUIDE);
	}
	free(got);
	free(want);
	free(doc);
}

/* The text of path from the line starting with from up to the next line
 * starting with to (or the end), malloc'd. */
static char *section(const char *path, const char *from, const char *to)
{
	char *doc = slurp(path, NULL), *b, *e, *s;

	b = strstr(doc, from);
	if (!b)
		fail_msg("%s: no '%s'", path, from);
	e = strstr(b + strlen(from), to);
	s = e ? xstrndup(b, (size_t)(e - b)) : xstrdup(b);
	free(doc);
	return s;
}

static bool names(const char *text, const char *name)
{
	char *quoted = xasprintf("`%s`", name);
	bool has = strstr(text, quoted) != NULL;

	free(quoted);
	return has;
}

/* report-json.md's flags[].name: the report's flags, in its order. */
static void test_report_json_names(void **state)
{
	char *row = section("docs/report-json.md", "| `name` | `misleading",
			    "\n"), *want = xstrdup("| `name` | "), *t;
	const struct flag_def *d;
	size_t i;

	(void)state;
	for (i = 0; (d = flag_nth(FV_REPORT, i)); i++) {
		t = xasprintf("%s%s`%s`", want, i ? ", " : "", d->name);
		free(want);
		want = t;
	}
	t = xasprintf("%s |", want);
	if (strcmp(row, t))
		fail_msg("docs/report-json.md's flag names:\n%s\nwant\n%s", row,
			 t);
	free(t);
	free(want);
	free(row);
}

/* compare-json.md's and the guide's tables of compare's flags name each
 * flag compare shows and no other; the guide has a paragraph for each of
 * the report's. */
static void test_docs_name_every_flag(void **state)
{
	char *cj = section("docs/compare-json.md", "### Flags", "\n## ");
	char *gc = section(GUIDE, "### Flags\n", "\n### ");
	char *gr = section(GUIDE, "### Flags: what each means", "\n## ");
	size_t i;

	(void)state;
	for (i = 0; i < nflag_defs; i++) {
		const struct flag_def *d = &flag_defs[i];
		char *para = xasprintf("**`%s`**", d->name);

		if (names(cj, d->name) != shows_in_compare(d))
			fail_msg("docs/compare-json.md \"Flags\" %s %s", d->name,
				 shows_in_compare(d) ? "missing" : "not compare's");
		if (names(gc, d->name) != shows_in_compare(d))
			fail_msg("%s compare's \"Flags\" %s %s", GUIDE, d->name,
				 shows_in_compare(d) ? "missing" : "not compare's");
		if (shows_in_report(d) && !strstr(gr, para))
			fail_msg("%s \"Flags: what each means\": no %s", GUIDE,
				 para);
		free(para);
	}
	free(cj);
	free(gc);
	free(gr);
}

/* Every "`NAME` (L)" of the docs gives the table's letter. */
static void test_docs_letters(void **state)
{
	static const char *const docs[] = {
		"docs/USER-GUIDE.md", "docs/AB-KERNEL.md", "docs/compare-json.md",
		"docs/EXPERIMENTS.md", "docs/STATISTICS.md",
	};
	size_t k, i;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(docs); k++) {
		char *doc = slurp(docs[k], NULL);

		for (i = 0; i < nflag_defs; i++) {
			const struct flag_def *d = &flag_defs[i];
			char *pat = xasprintf("`%s` (", d->name);
			const char *p;

			for (p = strstr(doc, pat); p; p = strstr(p + 1, pat)) {
				const char *l = p + strlen(pat);

				if (l[0] >= 'A' && l[0] <= 'Z' && l[1] == ')' &&
				    l[0] != d->letter)
					fail_msg("%s: `%s` (%c), the table's "
						 "letter is %c", docs[k],
						 d->name, l[0],
						 d->letter ? d->letter : '-');
			}
			free(pat);
		}
		free(doc);
	}
}

/*
 * The names in the second argument of each call at *p (up to the comma
 * that ends it; a conditional may name two) are rows of the table that
 * the command raising them shows.
 */
static void check_call(const char *file, const char *p, bool report)
{
	const char *end = strchr(p, ',') ? strchr(strchr(p, ',') + 1, ',') : NULL;
	const char *q = strchr(p, ',');

	for (; q && end && (q = strchr(q, '"')) && q < end; q++) {
		const char *close = strchr(q + 1, '"');
		char *name = xstrndup(q + 1, (size_t)(close - q - 1));
		const struct flag_def *d = flag_def_find(name);

		if (!d)
			fail_msg("%s raises '%s', which has no row in "
				 "analysis/flags.c", file, name);
		else if (report ? !shows_in_report(d) : !shows_in_compare(d))
			fail_msg("%s: %s raises '%s', which its row does not "
				 "show there", file, report ? "the report" :
				 "compare", name);
		free(name);
		q = close;
	}
}

/* Every flag the sources raise by name has its row: analysis_flag_add
 * for the report, comparison_flag for compare. */
static void test_sources_raise_rows(void **state)
{
	static const char *const calls[2] = { "analysis_flag_add(",
					       "comparison_flag(" };
	DIR *dir = opendir("analysis");
	struct dirent *e;
	size_t found = 0;

	(void)state;
	assert_non_null(dir);
	while ((e = readdir(dir))) {
		size_t len = strlen(e->d_name);
		char *path, *text;
		const char *p;

		if (len < 3 || strcmp(e->d_name + len - 2, ".c"))
			continue;
		path = xasprintf("analysis/%s", e->d_name);
		text = slurp(path, NULL);
		for (int k = 0; k < 2; k++)
			for (p = strstr(text, calls[k]); p;
			     p = strstr(p + 1, calls[k])) {
				/* not the definition, whose first
				 * parameter is a struct pointer */
				if (!strncmp(p + strlen(calls[k]), "struct ", 7))
					continue;
				check_call(path, p, k == 0);
				found++;
			}
		free(text);
		free(path);
	}
	closedir(dir);
	assert_true(found >= 10);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_whole),
		cmocka_unit_test(test_orders),
		cmocka_unit_test(test_guide_block),
		cmocka_unit_test(test_report_json_names),
		cmocka_unit_test(test_docs_name_every_flag),
		cmocka_unit_test(test_docs_letters),
		cmocka_unit_test(test_sources_raise_rows),
	};

	if (argc > 1 && !strcmp(argv[1], "--markdown")) {
		flagtab_markdown(stdout);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
