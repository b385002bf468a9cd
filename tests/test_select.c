/*
 * test_select.c - the selector grammar (db/select.h): a table of
 * selectors with what they must parse to or the message they must raise;
 * the filter's matching of stored parameters; and the dataset filter,
 * which must keep each kept configuration's runs and values together.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/select.h"

#define MAXF 3

struct select_case {
	const char *name;
	const char *text;
	const char *head;           /* NULL: an error */
	bool newest;
	const char *filters[MAXF];  /* "key=value" */
	const char *msg;            /* part of the error */
};

static const struct select_case cases[] = {
	{ "a label", "lockdep", "lockdep", false, { NULL }, NULL },
	{ "empty: the newest", "", "", false, { NULL }, NULL },
	{ "an id", "12", "12", false, { NULL }, NULL },
	{ "newest of a label", "lockdep~newest", "lockdep", true, { NULL },
	  NULL },
	{ "a database and a label", "r.db:v6.1", "r.db:v6.1", false,
	  { NULL }, NULL },
	{ "one filter", "lockdep@contended_delay_ns=0", "lockdep", false,
	  { "contended_delay_ns=0" }, NULL },
	{ "two filters", "lockdep@threads=2,param.fs=xfs", "lockdep", false,
	  { "threads=2", "param.fs=xfs" }, NULL },
	{ "newest and a filter", "x~newest@section=a", "x", true,
	  { "section=a" }, NULL },
	{ "database, newest, filter", "r.db:7~newest@threads=4", "r.db:7",
	  true, { "threads=4" }, NULL },
	{ "a filter alone: the newest experiment", "@threads=4", "", false,
	  { "threads=4" }, NULL },
	{ "a value holding '='", "x@argv=a=b", "x", false, { "argv=a=b" },
	  NULL },
	{ "'@' without '=' is part of the label", "me@host", "me@host",
	  false, { NULL }, NULL },
	{ "the filters start at the last '@' with a '=' after it",
	  "me@host@threads=2", "me@host", false, { "threads=2" }, NULL },
	{ "~newest only at the end", "a~newest.b", "a~newest.b", false,
	  { NULL }, NULL },
	{ "empty value", "x@threads=", NULL, false, { NULL },
	  "'threads=' is not KEY=VALUE" },
	{ "empty key", "x@=4", NULL, false, { NULL }, "'=4' is not KEY=VALUE" },
	{ "no '=' in the second filter", "x@threads=2,spin", NULL, false,
	  { NULL }, "'spin' is not KEY=VALUE" },
	{ "empty filter between commas", "x@a=1,,b=2", NULL, false, { NULL },
	  "'' is not KEY=VALUE" },
	{ "a blank in a key", "x@thr eads=2", NULL, false, { NULL },
	  "'thr eads=2' is not KEY=VALUE" },
	/* compared as numbers, NaN matched every stored value */
	{ "nan", "x@threads=nan", NULL, false, { NULL },
	  "'threads=nan': a parameter is never NaN or infinite" },
	{ "NaN in the second filter", "x@spin=1,threads=-NaN", NULL, false,
	  { NULL }, "'threads=-NaN': a parameter is never NaN" },
	{ "nan(payload)", "x@threads=nan(12)", NULL, false, { NULL },
	  "is never NaN" },
	{ "inf", "x@threads=inf", NULL, false, { NULL }, "is never NaN" },
	{ "-Infinity", "x@threads=-Infinity", NULL, false, { NULL },
	  "is never NaN" },
	{ "overflowing to infinity", "x@threads=1e999", NULL, false, { NULL },
	  "is never NaN" },
	{ "a word starting with nan is a word", "x@lock=nanny", "x", false,
	  { "lock=nanny" }, NULL },
};

static void test_grammar(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct select_case *t = &cases[i];
		struct selector sel;
		char err[256] = "";
		int ret = select_parse(t->text, &sel, err, sizeof(err));

		if (!t->head) {
			if (!ret || !strstr(err, t->msg))
				fail_msg("%s: want an error with \"%s\", got "
					 "%d \"%s\"", t->name, t->msg, ret, err);
			continue;
		}
		if (ret)
			fail_msg("%s: %s", t->name, err);
		if (strcmp(sel.head, t->head) || sel.newest != t->newest)
			fail_msg("%s: head '%s' newest %d", t->name, sel.head,
				 sel.newest);
		for (j = 0; j < MAXF && t->filters[j]; j++) {
			char kv[128];

			if (j >= sel.nfilters)
				fail_msg("%s: only %zu filters", t->name,
					 sel.nfilters);
			snprintf(kv, sizeof(kv), "%s=%s", sel.filters[j].key,
				 sel.filters[j].value);
			if (strcmp(kv, t->filters[j]))
				fail_msg("%s: filter %zu is %s", t->name, j, kv);
		}
		if (sel.nfilters != j)
			fail_msg("%s: %zu filters, want %zu", t->name,
				 sel.nfilters, j);
		select_release(&sel);
	}
}

/* ---- matching ------------------------------------------------------------ */

static char *s_(const char *s)
{
	return strdup(s);
}

/*
 * Three configurations of two runs each; metric value = run index, and
 * each run one kernel lock row whose wait is its run's index too.
 */
static void fixture(struct dataset *d)
{
	static const char *const delay[] = { "0", "10000", "0" };
	static const char *const threads[] = { "2", "2", "4" };
	size_t c, r;

	memset(d, 0, sizeof(*d));
	d->nconfigs = 3;
	d->configs = calloc(3, sizeof(*d->configs));
	d->nruns = 6;
	d->runs = calloc(6, sizeof(*d->runs));
	d->nmetrics = 1;
	d->metrics = calloc(1, sizeof(char *));
	d->metrics[0] = s_("throughput");
	d->values = calloc(6, sizeof(double));
	for (c = 0; c < 3; c++) {
		struct ds_config *dc = &d->configs[c];

		dc->workload = s_("pthread-mutex");
		dc->section = s_(c == 2 ? "wide" : "lockdep");
		dc->canon = s_("x");
		dc->nparams = 2;
		dc->params = calloc(2, sizeof(*dc->params));
		dc->params[0] = (struct kv){ s_("threads"), s_(threads[c]) };
		dc->params[1] = (struct kv){ s_("contended_delay_ns"),
					     s_(delay[c]) };
		dc->run0 = 2 * c;
		dc->nruns = 2;
		dc->nklock = 2;
		dc->klock = calloc(2, sizeof(*dc->klock));
		for (r = 2 * c; r < 2 * c + 2; r++) {
			dc->klock[r - 2 * c] = (struct ds_klock){
				.run = r, .kind = s_("rwsem_write"),
				.caller = s_("do_unlinkat"), .nlocks = 1,
				.contentions = 1, .wait_s = (double)r };
			d->runs[r].config = c;
			d->runs[r].seq = (long)r;
			d->runs[r].error = r == 3 ? s_("a failed run") : NULL;
			d->values[r] = (double)r;
		}
	}
}

static void filtered(const char *text, size_t want, const size_t *runs)
{
	struct selector sel;
	struct dataset d;
	char err[128];
	size_t i;

	fixture(&d);
	assert_int_equal(select_parse(text, &sel, err, sizeof(err)), 0);
	assert_int_equal(select_filter_dataset(&sel, &d), want);
	assert_int_equal(d.nruns, 2 * want);
	for (i = 0; i < d.nruns; i++) {
		/* each run's value is its old index: it moved with its config */
		assert_true(fabs(d.values[i] - (double)runs[i]) < 1e-12);
		assert_int_equal(d.runs[i].config, i / 2);
		assert_int_equal(d.configs[i / 2].run0, i / 2 * 2);
	}
	/* the kernel locks still name their own runs (they kept the old
	 * index: a second configuration's rows named no run of it) */
	for (i = 0; i < d.nconfigs; i++)
		for (size_t k = 0; k < d.configs[i].nklock; k++) {
			const struct ds_klock *l = &d.configs[i].klock[k];

			assert_true(l->run < d.nruns);
			assert_int_equal(d.runs[l->run].config, i);
			assert_true(fabs(d.values[l->run] - l->wait_s) < 1e-12);
		}
	dataset_release(&d);
	select_release(&sel);
}

static void test_filter(void **state)
{
	static const size_t zero[] = { 0, 1, 4, 5 }, ten[] = { 2, 3 },
			    all[] = { 0, 1, 2, 3, 4, 5 }, none[] = { 0 };

	(void)state;
	filtered("x@contended_delay_ns=0", 2, zero);
	/* the same number written otherwise */
	filtered("x@contended_delay_ns=1e4", 1, ten);
	filtered("x@threads=2,contended_delay_ns=10000", 1, ten);
	filtered("x@section=wide", 1, zero + 2);
	filtered("x@workload=pthread-mutex", 3, all);
	filtered("x", 3, all);
	filtered("x@nosuch=1", 0, none);
	filtered("x@threads=two", 0, none);
}

/*
 * A NaN that reaches the matcher anyway (select_parse refuses it) matches
 * nothing: compared as numbers, it used to match every value.
 */
static void test_nan_matches_nothing(void **state)
{
	struct kv f = { (char *)"threads", (char *)"nan" };
	struct selector sel = { .filters = &f, .nfilters = 1 };
	struct dataset d;
	size_t c;

	(void)state;
	fixture(&d);
	for (c = 0; c < d.nconfigs; c++)
		assert_false(select_keeps(&sel, &d.configs[c]));
	dataset_release(&d);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_nan_matches_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
