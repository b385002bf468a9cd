/*
 * test_compare_calib.c - the hosts' A/A profiles compare cites
 * (analysis/compare.h, compare_calib), on sides built in memory with their
 * profiles as a store lookup would leave them: whose profile a
 * comparison cites (the candidate's host, the baseline's when it differs
 * or when only the baseline's database has it), the hint for a host
 * without one, the sentence's figures, the compact form of a sweep, the
 * gate's note, and the JSON members.  The lookup in a store is
 * tests/e2e_aaprofile.sh's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"

#define NCMP 3

/* One side: one experiment on host, configurations threads=1..n. */
struct fx_side {
	struct dataset d;
	struct ds_config cfg[NCMP];
	struct kv param[NCMP], meta;
	struct compare_calib cal[NCMP];
	size_t at[NCMP];
	struct compare_input in;
};

static char canon[NCMP][16], value[NCMP][4];
static char key_threads[] = "threads", key_host[] = "hostname";
static char wl[] = "mutex", sec[] = "mutex";

/*
 * n configurations on host; found[i]: configuration i has a profile
 * (mde 2.9%, 1/10 alarms, CVs 0.81% and 2.10%: s2 = 0.0081^2, 0.021^2;
 * experiment 17, created 2026-03-05 14:07:30 UTC); config: the file a
 * hint names, or NULL.
 */
static void fx_side(struct fx_side *s, const char *role, char *host,
		    size_t n, const bool *found, char *config)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->meta = (struct kv){ key_host, host };
	s->d.exp.nmeta = 1;
	s->d.exp.meta = &s->meta;
	s->d.nconfigs = n;
	s->d.configs = s->cfg;
	for (i = 0; i < n; i++) {
		snprintf(canon[i], sizeof(canon[i]), "threads=%zu", i + 1);
		snprintf(value[i], sizeof(value[i]), "%zu", i + 1);
		s->param[i] = (struct kv){ key_threads, value[i] };
		s->cfg[i] = (struct ds_config){ .workload = wl, .section = sec,
						.canon = canon[i], .nparams = 1,
						.params = &s->param[i] };
		s->cal[i] = (struct compare_calib){
			.host = host, .workload = wl, .canon = canon[i],
			.config = config, .found = found[i],
			.p = { .k = 6, .n = 60, .s2_b = 0.0081 * 0.0081,
			       .s2_w = 0.021 * 0.021, .splits = 10,
			       .alarms = 1, .boots = 3, .runs = 10,
			       .mde_pct = 2.94 },
			.experiment = 17, .created = 1772719650,
		};
		s->at[i] = i;
	}
	s->in.role = role;
	s->in.kind = INPUT_DB;
	s->in.db = (char *)"/nowhere/lab.db";
	s->in.nsets = 1;
	s->in.sets = &s->d;
	s->in.calib = (struct compare_calibs){ n, n, s->cal, s->at };
}

/* The result: n comparisons of b's configurations, the gate at pct. */
static void fx_result(struct compare_result *r, struct comparison *cmp,
		      const struct fx_side *b, size_t n, double pct)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	memset(cmp, 0, n * sizeof(*cmp));
	for (i = 0; i < n; i++) {
		cmp[i].workload = wl;
		cmp[i].section = sec;
		cmp[i].canon = b->cfg[i].canon;
		cmp[i].config = &b->cfg[i];
	}
	r->n = n;
	r->cmp = cmp;
	r->gate_pct = pct;
}

/* compare_calib_print's text (json: compare_calib_json's), malloc'd. */
static char *out(const struct compare_result *r, const struct fx_side *b,
		 const struct fx_side *c, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (json) {
		struct json_writer w = { .f = f };

		json_open(&w, NULL, '{');
		compare_calib_json(&w, r, &b->in, &c->in);
		json_close(&w, '}');
	} else
		compare_calib_print(f, r, &b->in, &c->in);
	fclose(f);
	return buf;
}

static const bool yes[NCMP] = { true, true, true }, no[NCMP] = { false };

/* The two sides of a comparison of n configurations, the gate at pct. */
struct fx_pair {
	struct fx_side b, c;
	struct comparison cmp[NCMP];
	struct compare_result r;
};

static struct fx_pair *fx_pair(char *host_b, const bool *found_b,
			       char *config_b, char *host_c,
			       const bool *found_c, char *config_c, size_t n,
			       double pct)
{
	struct fx_pair *p = malloc(sizeof(*p));

	assert_non_null(p);
	fx_side(&p->b, "baseline", host_b, n, found_b, config_b);
	fx_side(&p->c, "candidate", host_c, n, found_c, config_c);
	fx_result(&p->r, p->cmp, &p->b, n, pct);
	return p;
}

/* Both sides on one host with a profile: the candidate's, once, whole. */
static void test_same_host(void **state)
{
	struct fx_pair *p = fx_pair((char *)"lab-3", yes, NULL,
				    (char *)"lab-3", yes, NULL, 1, -1);
	char *s;

	(void)state;
	s = out(&p->r, &p->b, &p->c, false);
	assert_string_equal(s,
		"A/A:     [mutex] on host lab-3 (calibrated 2026-03-05 14:07 "
		"UTC, experiment\n"
		"           17: 6 invocations) a 2.9% change is detectable with "
		"3 boots of 10\n"
		"           runs; A/A false alarms 1/10; between invocations "
		"0.81%, within\n"
		"           2.10% (CV)\n");
	free(s);
	s = out(&p->r, &p->b, &p->c, true);
	assert_non_null(strstr(s, "{\"comparison\": 0, \"section\": \"mutex\", "
				  "\"side\": \"candidate\", \"hostname\": "
				  "\"lab-3\", \"experiment_id\": 17, "
				  "\"created\": \"2026-03-05T14:07:30Z\""));
	assert_non_null(strstr(s, "\"aa_splits\": 10, \"aa_alarms\": 1, "
				  "\"boots\": 3, \"runs_per_boot\": 10, "
				  "\"mde_pct\": 2.94}"));
	assert_null(strstr(s, "baseline"));
	free(s);
	free(p);
}

/*
 * The candidate on another host without a profile: the baseline's cited
 * as such, the gate's 1% noted below its 2.9%, and a hint for the
 * candidate's host naming the file and the database.
 */
static void test_other_host(void **state)
{
	struct fx_pair *p = fx_pair((char *)"lab-3", yes, NULL,
				    (char *)"lab-4", no,
				    (char *)"/cfg/it's.ini", 1, 1);
	char *s;

	(void)state;
	s = out(&p->r, &p->b, &p->c, false);
	assert_non_null(strstr(s, "A/A:     [mutex] baseline: on host lab-3 "
				  "(calibrated"));
	assert_non_null(strstr(s, "(CV); the gate's 1% is smaller than that"));
	assert_non_null(strstr(s, "\n         no profile of host lab-4 for 1 "
				  "configuration; to make one, run there:\n           `contend "
				  "calibrate '/cfg/it'\\''s.ini' --db "
				  "/nowhere/lab.db`\n"));
	free(s);
	s = out(&p->r, &p->b, &p->c, true);
	assert_non_null(strstr(s, "\"side\": \"baseline\", \"hostname\": "
				  "\"lab-3\""));
	assert_null(strstr(s, "lab-4"));
	free(s);
	free(p);
}

/*
 * One host: the profile in the baseline's database only is cited, no
 * hint; in neither, the one hint is the candidate's, and without a
 * config file to name nothing is said at all.
 */
static void test_one_database(void **state)
{
	struct fx_pair *p = fx_pair((char *)"lab-3", yes, (char *)"/b.ini",
				    (char *)"lab-3", no, (char *)"/c.ini", 1,
				    -1);
	struct fx_side *b = &p->b, *c = &p->c;
	char *s;

	(void)state;
	s = out(&p->r, b, c, false);
	assert_non_null(strstr(s, "[mutex] baseline: on host lab-3"));
	assert_null(strstr(s, "contend calibrate"));
	free(s);
	fx_side(b, "baseline", (char *)"lab-3", 1, no, (char *)"/b.ini");
	s = out(&p->r, b, c, false);
	assert_string_equal(s, "A/A:     no profile of host lab-3 for 1 "
			       "configuration; to make one, run there:\n           `contend "
			       "calibrate /c.ini --db /nowhere/lab.db`\n");
	free(s);
	s = out(&p->r, b, c, true);
	assert_string_equal(s, "{\n  \"calibrations\": []\n}");
	free(s);
	fx_side(b, "baseline", (char *)"lab-3", 1, no, NULL);
	fx_side(c, "candidate", (char *)"lab-3", 1, no, NULL);
	s = out(&p->r, b, c, false);
	assert_string_equal(s, "");
	free(s);
	free(p);
}

/*
 * A sweep of three, the second without a profile: the host and
 * experiment once, a line per configuration named by the parameter that
 * varies, * where the gate's 2% is below the 2.9%; a hint for the one
 * without.
 */
static void test_sweep(void **state)
{
	static const bool some[NCMP] = { true, false, true };
	struct fx_pair *p = fx_pair((char *)"lab-3", some, NULL,
				    (char *)"lab-3", some, (char *)"/c.ini", 3,
				    2);
	struct fx_side *c = &p->c;
	char *s;

	(void)state;
	s = out(&p->r, &p->b, c, false);
	/* two profiles: each whole */
	assert_non_null(strstr(s, "A/A:     [mutex] threads=1 on host lab-3"));
	assert_non_null(strstr(s, "         [mutex] threads=3 on host lab-3"));
	assert_non_null(strstr(s, "no profile of host lab-3 for 1 "
				  "configuration"));
	free(s);
	fx_side(c, "candidate", (char *)"lab-3", 3, yes, (char *)"/c.ini");
	s = out(&p->r, &p->b, c, false);
	assert_string_equal(s,
		"A/A:     on host lab-3 (calibrated 2026-03-05 14:07 UTC, "
		"experiment 17: 6\n"
		"           invocations): the change 3 boots of 10 runs "
		"detect, the A/A false\n"
		"           alarms, the CV between and within invocations (*: "
		"a change above\n"
		"           the gate's, which that design cannot show here):\n"
		"           [mutex] threads=1: 2.9% *, 1/10, 0.81% and 2.10%\n"
		"           [mutex] threads=2: 2.9% *, 1/10, 0.81% and 2.10%\n"
		"           [mutex] threads=3: 2.9% *, 1/10, 0.81% and 2.10%\n");
	free(s);
	s = out(&p->r, &p->b, c, true);
	assert_non_null(strstr(s, "{\"comparison\": 2, "));
	assert_null(strstr(s, "{\"comparison\": 3, "));
	free(s);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_host),
		cmocka_unit_test(test_other_host),
		cmocka_unit_test(test_one_database),
		cmocka_unit_test(test_sweep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
