/*
 * test_compare.c - A/B comparison between datasets built in memory: the
 * misleading-throughput check between the sides, the gate, and the
 * matching, invocation and flag logic of compare_sides().  The judgement
 * on bare samples (Welch, Mann-Whitney, verdicts) is tested in
 * tests/test_compare_model.c.
 *
 * Independent values: each case names its source.  "R" means R 4.x
 * (t.test, wilcox.test, power.t.test), run by hand when the test was
 * written; the R lines are quoted next to the figures.
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
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/compare.h"
#include "lib/util.h"
#include "tests/checks.h"
#include "tests/compare_checks.h"

/* ---- datasets in memory ---- */

#define FX_MAXM 3

struct fx_config {
	const char *workload, *canon;
	size_t n;
	const double *v[FX_MAXM];  /* per metric of fx_build, n values */
};

struct fx {
	struct dataset d;
	struct analysis a;
};

/* metrics must be sorted (the dataset contract). */
static void fx_build(struct fx *f, int64_t id, const char *const *metrics,
		     size_t nm, const struct fx_config *cfg, size_t nc,
		     const char *cpu, const char *kernel)
{
	size_t c, i, r = 0, total = 0;

	memset(f, 0, sizeof(*f));
	for (c = 0; c < nc; c++)
		total += cfg[c].n;
	f->d.exp.id = id;
	f->d.exp.confidence = 0.95;
	f->d.exp.nmeta = 2;
	f->d.exp.meta = xcalloc(2, sizeof(struct kv));
	f->d.exp.meta[0] = (struct kv){ xstrdup("cpu_model"), xstrdup(cpu) };
	f->d.exp.meta[1] = (struct kv){ xstrdup("kernel"), xstrdup(kernel) };
	f->d.nmetrics = nm;
	f->d.metrics = xcalloc(nm, sizeof(char *));
	for (i = 0; i < nm; i++)
		f->d.metrics[i] = xstrdup(metrics[i]);
	f->d.nconfigs = nc;
	f->d.configs = xcalloc(nc, sizeof(*f->d.configs));
	f->d.nruns = total;
	f->d.runs = xcalloc(total, sizeof(*f->d.runs));
	f->d.values = xcalloc(total * nm, sizeof(double));
	for (c = 0; c < nc; c++) {
		struct ds_config *dc = &f->d.configs[c];

		dc->id = id * 100 + (int64_t)c;
		dc->workload = xstrdup(cfg[c].workload);
		dc->section = xstrdup("mutex");
		dc->canon = xstrdup(cfg[c].canon);
		dc->run0 = r;
		dc->nruns = cfg[c].n;
		for (i = 0; i < cfg[c].n; i++, r++) {
			size_t m;

			f->d.runs[r].id = (int64_t)r + 1;
			f->d.runs[r].config = c;
			f->d.runs[r].seq = (long)r;
			f->d.runs[r].repetition = (int)i;
			f->d.runs[r].status = RUN_OK;
			for (m = 0; m < nm; m++)
				f->d.values[r * nm + m] =
					cfg[c].v[m] ? cfg[c].v[m][i] : NAN;
		}
	}
	f->a.d = &f->d;
	f->a.nconfigs = nc;
	f->a.configs = xcalloc(nc, sizeof(*f->a.configs));
	for (c = 0; c < nc; c++)
		f->a.configs[c].config = c;
}

static void fx_flag(struct fx *f, size_t c, const char *name, int metric)
{
	struct config_analysis *ca = &f->a.configs[c];
	struct flag *fl;

	ca->flags = xrealloc(ca->flags, (ca->nflags + 1) * sizeof(*fl));
	fl = &ca->flags[ca->nflags++];
	memset(fl, 0, sizeof(*fl));
	snprintf(fl->name, sizeof(fl->name), "%s", name);
	fl->message = xasprintf("%s raised in the fixture", name);
	fl->metric = metric;
	fl->other_config = -1;
}

static void fx_release(struct fx *f)
{
	size_t i;

	for (i = 0; i < f->a.nconfigs; i++) {
		size_t k;

		for (k = 0; k < f->a.configs[i].nflags; k++)
			free(f->a.configs[i].flags[k].message);
		free(f->a.configs[i].flags);
	}
	free(f->a.configs);
	for (i = 0; i < f->d.nconfigs; i++) {
		free(f->d.configs[i].workload);
		free(f->d.configs[i].section);
		free(f->d.configs[i].canon);
	}
	for (i = 0; i < f->d.exp.nmeta; i++) {
		free(f->d.exp.meta[i].key);
		free(f->d.exp.meta[i].value);
	}
	for (i = 0; i < f->d.nmetrics; i++)
		free(f->d.metrics[i]);
	free(f->d.exp.meta);
	free(f->d.metrics);
	free(f->d.configs);
	free(f->d.runs);
	free(f->d.values);
}

/* Sides of one or more fixtures (copied: datasets must be contiguous). */
struct fx_side {
	struct dataset *sets;
	struct analysis *an;
	struct compare_side side;
};

static void side_of(struct fx_side *s, struct fx *f, size_t n,
		    const char *name)
{
	size_t i;

	s->sets = xcalloc(n, sizeof(*s->sets));
	s->an = xcalloc(n, sizeof(*s->an));
	for (i = 0; i < n; i++) {
		s->sets[i] = f[i].d;
		s->an[i] = f[i].a;
		s->an[i].d = &s->sets[i];
	}
	memset(&s->side, 0, sizeof(s->side));
	s->side.name = name;
	s->side.nsets = n;
	s->side.sets = s->sets;
	s->side.an = s->an;
}

static void side_free(struct fx_side *s)
{
	free(s->sets);
	free(s->an);
}

static const struct compare_flag *find_flag(const struct comparison *c,
					    const char *name)
{
	size_t i;

	for (i = 0; i < c->nflags; i++)
		if (!strcmp(c->flags[i].name, name))
			return &c->flags[i];
	return NULL;
}

/* Runs a whole compare of two fixture sets; r is released by the caller. */
static void run_sides(struct fx *b, size_t nb, struct fx *c, size_t nc,
		      const char *metric, struct compare_result *r)
{
	struct fx_side sb, sc;
	struct compare_opts o = opts(metric_direction(metric), 1);

	side_of(&sb, b, nb, "base");
	side_of(&sc, c, nc, "cand");
	assert_int_equal(compare_sides(&sb.side, &sc.side, metric, &o, r), 0);
	side_free(&sb);
	side_free(&sc);
}

/* ---- misleading throughput between the sides ---- */

static const char *const m_hand[] = { "handoff_rate", "throughput" };
static const char *const m_cont[] = { "contention_rate", "throughput" };

/*
 * docs/USER-GUIDE.md's lockdep figures: slowing the contended path raised
 * throughput 13.7M -> 32.4M ops/s while hand-offs/s fell 1.76M -> 0.13M;
 * a genuinely shorter critical section raised it 5.7M -> 14.9M with
 * hand-offs/s flat near 1.4M.  Five runs each around those figures.
 */
static const double lock_tb[] = { 13.5e6, 13.7e6, 13.9e6, 13.6e6, 13.8e6 };
static const double lock_hb[] = { 1.74e6, 1.76e6, 1.78e6, 1.75e6, 1.77e6 };
static const double lock_tc[] = { 32.2e6, 32.4e6, 32.6e6, 32.3e6, 32.5e6 };
static const double lock_hc[] = { .12e6, .13e6, .14e6, .125e6, .135e6 };
static const double gen_tb[] = { 5.6e6, 5.7e6, 5.8e6, 5.65e6, 5.75e6 };
static const double gen_hb[] = { 1.38e6, 1.41e6, 1.40e6, 1.42e6, 1.39e6 };
static const double gen_tc[] = { 14.8e6, 14.9e6, 15.0e6, 14.85e6, 14.95e6 };
static const double gen_hc[] = { 1.39e6, 1.40e6, 1.42e6, 1.38e6, 1.41e6 };
/* The same lockdep runs with contention rates instead of hand-offs. */
static const double lock_cb[] = { .128, .128, .128, .128, .128 };
static const double lock_cc[] = { .004, .0041, .0039, .004, .0042 };

static void misleading_case(const char *const *metrics,
			    const double *b0, const double *b1,
			    const double *c0, const double *c1,
			    const char *want_in_message)
{
	struct fx_config cb = { "pthread-mutex", "threads=4", 5, { b0, b1 } };
	struct fx_config cc = { "pthread-mutex", "threads=4", 5, { c0, c1 } };
	struct compare_result r;
	const struct compare_flag *fl;
	struct fx b, c;

	fx_build(&b, 1, metrics, 2, &cb, 1, "cpu", "6.1");
	fx_build(&c, 2, metrics, 2, &cc, 1, "cpu", "6.2");
	run_sides(&b, 1, &c, 1, "throughput", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.cmp[0].st.verdict, VERDICT_FASTER);
	fl = find_flag(&r.cmp[0], "misleading-throughput");
	if (want_in_message) {
		assert_non_null(fl);
		assert_non_null(strstr(fl->message, want_in_message));
	} else {
		assert_null(fl);
	}
	compare_result_release(&r);
	fx_release(&b);
	fx_release(&c);
}

static void test_misleading_lockdep(void **state)
{
	(void)state;
	misleading_case(m_hand, lock_hb, lock_tb, lock_hc, lock_tc,
			"hand-offs/s fell 92.6%");
}

static void test_misleading_genuine(void **state)
{
	(void)state;
	misleading_case(m_hand, gen_hb, gen_tb, gen_hc, gen_tc, NULL);
}

/* throughput x contention_rate: 1.7536M -> 0.1310M contended/s. */
static void test_misleading_fallback(void **state)
{
	(void)state;
	misleading_case(m_cont, lock_cb, lock_tb, lock_cc, lock_tc,
			"contended acquisitions/s");
}

/* txt with its wrapped lines joined: "\n" and the indent after it become
 * one space, in place. */
static void unwrap(char *txt)
{
	char *r = txt, *w = txt;

	while (*r) {
		if (r[0] == '\n' && r[1] == ' ' && r[2] == ' ' && r[3] == ' ' &&
		    r[4] == ' ') {
			*w++ = ' ';
			r += 5;
			while (*r == ' ')
				r++;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

/* A host key added to a fixture's experiment. */
static void fx_meta(struct fx *f, const char *key, const char *value)
{
	struct experiment_row *e = &f->d.exp;

	e->meta = xrealloc(e->meta, (e->nmeta + 1) * sizeof(*e->meta));
	e->meta[e->nmeta++] = (struct kv){ xstrdup(key), xstrdup(value) };
}

/* compare's text of b against c, malloc'd. */
static char *compare_text(struct fx *b, struct fx *c)
{
	struct compare_input ib = { .text = "A", .role = "baseline",
				    .kind = INPUT_DB, .db = (char *)"x.db",
				    .nsets = 1, .sets = &b->d };
	struct compare_input ic = { .text = "C", .role = "candidate",
				    .kind = INPUT_DB, .db = (char *)"x.db",
				    .nsets = 1, .sets = &c->d };
	struct compare_result r;
	char *txt = NULL;
	size_t len;
	FILE *f;

	run_sides(b, 1, c, 1, "throughput", &r);
	f = open_memstream(&txt, &len);
	assert_non_null(f);
	compare_print_text(f, &r, &ib, &ic);
	assert_int_equal(fclose(f), 0);
	compare_result_release(&r);
	return txt;
}

/*
 * The text a reviewer acts on: a lockdep "faster" row carries M, the
 * table's legend explains M, and the Flags overview names
 * misleading-throughput with its reason, before the side flags (noisy).
 */
static void test_misleading_text(void **state)
{
	struct fx_config cb = { "pthread-mutex", "threads=4", 5,
				{ lock_hb, lock_tb } };
	struct fx_config cc = { "pthread-mutex", "threads=4", 5,
				{ lock_hc, lock_tc } };
	struct fx b, c;
	char *txt, *flags, *m, *noisy;

	(void)state;
	fx_build(&b, 1, m_hand, 2, &cb, 1, "cpu", "6.1");
	fx_build(&c, 2, m_hand, 2, &cc, 1, "cpu", "6.1");
	fx_flag(&c, 0, "noisy", 1);
	txt = compare_text(&b, &c);
	unwrap(txt);
	assert_non_null(strstr(txt, "faster  M"));
	assert_non_null(strstr(txt, "flags: M misleading-throughput"));
	assert_non_null(strstr(txt, "threshold 1%); 1 of the faster marked M, "
				    "misleading-throughput: not a speed-up"));
	flags = strstr(txt, "\nFlags:\n");
	assert_non_null(flags);
	m = strstr(flags, "\n  misleading-throughput (both, 1 of 1 "
			  "configurations: mutex): the candidate is faster "
			  "while the lock changes hands less often (the "
			  "lockdep effect): do not read it as a speed-up");
	noisy = strstr(flags, "\n  noisy (candidate)");
	assert_non_null(m);
	assert_non_null(noisy);
	assert_true(m < noisy);
	/* the runs rows by lib/numfmt, not "1.35e+07" */
	assert_non_null(strstr(txt, "  baseline     5      13.50M      13.90M "
				    "     13.70M      13.70M      158.1k\n"));
	assert_null(strstr(txt, "e+0"));
	/* the numbers stay under the configuration */
	assert_non_null(strstr(txt, "flag misleading-throughput (both): the "
				    "candidate is faster while its hand-offs/s "
				    "fell"));
	free(txt);
	fx_release(&b);
	fx_release(&c);
}

/*
 * The text fits an 80-column terminal when it has much to say: a label
 * longer than the column stands whole on a line of its own above its
 * row (cut, the two would read alike), levels and the verdict take the
 * columns they need, and flags that would pass the width go under the
 * row, from the change's column.
 */
static void test_text_80(void **state)
{
	static const double tb[] = { 5e6, 20e6, 9e6, 30e6, 12e6 };
	static const double tc[] = { 40e6, 8e6, 25e6, 60e6, 11e6 };
	static const char *const names[] = { "noisy", "drift",
					      "kernel-warning" };
	static char k_th[] = "threads", k_mode[] = "contended_delay_mode",
		    four[] = "4", spin[] = "spin",
		    slow[] = "spin-then-sleep-after-a-long-while";
	static struct kv mode[2][2] = { { { k_th, four }, { k_mode, slow } },
					{ { k_th, four }, { k_mode, spin } } };
	struct fx_config cb[2] = {
		{ "pthread-mutex", "threads=4 contended_delay_mode=spin-then-"
		  "sleep-after-a-long-while", 5, { lock_hb, tb } },
		{ "pthread-mutex", "threads=4 contended_delay_mode=spin", 5,
		  { lock_hb, tb } } };
	struct fx_config cc[2] = {
		{ cb[0].workload, cb[0].canon, 5, { lock_hc, tc } },
		{ cb[1].workload, cb[1].canon, 5, { lock_hb, tc } } };
	struct fx b, c;
	char *txt, *p, *head;
	size_t i, at;

	(void)state;
	fx_build(&b, 1, m_hand, 2, cb, 2, "cpu", "6.1");
	fx_build(&c, 2, m_hand, 2, cc, 2, "cpu", "6.1");
	for (i = 0; i < 2; i++) {
		b.d.configs[i].params = c.d.configs[i].params = mode[i];
		b.d.configs[i].nparams = c.d.configs[i].nparams = 2;
	}
	for (i = 0; i < 3; i++) {
		fx_flag(&b, 0, names[i], i < 2 ? 1 : -1);
		fx_flag(&c, 0, names[i], i < 2 ? 1 : -1);
	}
	txt = compare_text(&b, &c);
	assert_fits_80(txt);
	/* labels whole, above their rows; flags that do not fit under it */
	p = strstr(txt, "\nmutex contended_delay_mode=spin-then-sleep-after-"
			"a-long-while\n   ");
	assert_non_null(p);
	p = strstr(p, " inconclusive\n");
	assert_non_null(p);
	p += strlen(" inconclusive\n");
	head = strstr(txt, "\nconfiguration ");
	assert_non_null(head);
	at = (size_t)(strstr(head, "change [CI]") - head) - 1;
	assert_int_equal(strspn(p, " "), at);
	assert_true(!strncmp(p + at, "flags Nbc Dbc S Kbc\n", 20));
	assert_non_null(strstr(txt, "\nmutex contended_delay_mode=spin\n"));
	free(txt);
	fx_release(&b);
	fx_release(&c);
}

/*
 * Host keys that differ are printed whole (two paths cut at 30 bytes
 * read alike), under the key when too wide; the cgroup the runner makes
 * for each experiment differs every time and is no difference.
 */
static void test_host_keys_text(void **state)
{
	struct fx_config cf = { "w", "a=1", 3, { b100, b100 } };
	static const char *const m2[] = { "handoff_rate", "throughput" };
	struct fx b, c;
	char *txt;

	(void)state;
	fx_build(&b, 1, m2, 2, &cf, 1, "Xeon", "6.1");
	fx_build(&c, 2, m2, 2, &cf, 1, "Xeon", "6.1");
	fx_meta(&b, "containment", "cgroup v2 /sys/fs/cgroup/unified/"
		"contend-28709-2337696");
	fx_meta(&c, "containment", "cgroup v2 /sys/fs/cgroup/unified/"
		"contend-28737-2337739");
	txt = compare_text(&b, &c);
	assert_null(strstr(txt, "Host keys that differ"));
	free(txt);
	free(c.d.exp.meta[2].value);
	c.d.exp.meta[2].value = xstrdup("cgroup v2 /sys/fs/cgroup/unified/"
					"user.slice/contend-1-2");
	txt = compare_text(&b, &c);
	assert_non_null(strstr(txt, "Host keys that differ between the sides:\n"
				    "  containment\n"
				    "    baseline  cgroup v2 /sys/fs/cgroup/"
				    "unified/contend-*\n"
				    "    candidate cgroup v2 /sys/fs/cgroup/"
				    "unified/user.slice/contend-*\n"));
	free(txt);
	fx_release(&b);
	fx_release(&c);
}

/*
 * What differing host keys call for, after them, in the keys' order: a
 * note for the kernel (expected when kernels are compared), a warning for
 * the CPUs, then one for a load above 0.5 per CPU, naming the experiment
 * and its side.
 */
static void test_host_keys_warnings(void **state)
{
	struct fx_config cf = { "w", "a=1", 3, { b100, b100 } };
	static const char *const m2[] = { "handoff_rate", "throughput" };
	struct fx b, c;
	char *txt;

	(void)state;
	fx_build(&b, 1, m2, 2, &cf, 1, "Xeon", "6.1");
	fx_build(&c, 2, m2, 2, &cf, 1, "Xeon", "6.1");
	fx_meta(&b, "kernel_release", "6.1.0");
	fx_meta(&c, "kernel_release", "6.2.0");
	fx_meta(&b, "affinity", "0-3");
	fx_meta(&c, "affinity", "4-7");
	fx_meta(&c, "ncpus", "4");
	fx_meta(&c, "load_start", "3.5");
	txt = compare_text(&b, &c);
	assert_non_null(strstr(txt, "\n  kernel_release           baseline "
				    "6.1.0 | candidate 6.2.0\n"));
	assert_non_null(strstr(txt, "\nnote: kernel_release differs (expected "
				    "when kernels are compared; nothing else"
				    "\n    should)\nwarning: affinity differs: "
				    "the sides ran on different CPUs\n"
				    "warning: load_start 3.5 on 4 CPUs "
				    "(experiment 2 of the candidate): other "
				    "work\n    disturbed the runs\n"));
	free(txt);
	fx_release(&b);
	fx_release(&c);
}

/*
 * Two invocations a side whose hand-off rates differ a lot between boots:
 * the model (2 df for the between-invocation variance) cannot show the
 * fall, but it holds in every pair of a baseline and a candidate
 * invocation, so the flag is raised, and says so.  If one candidate
 * invocation does not fall, it is not.
 */
static void test_misleading_every_invocation(void **state)
{
	static const double hb1[] = { 1.74e6, 1.76e6, 1.78e6, 1.75e6, 1.77e6 };
	static const double hb2[] = { .30e6, .31e6, .29e6, .305e6, .295e6 };
	static const double hc1[] = { .12e6, .13e6, .14e6, .125e6, .135e6 };
	static const double hc2[] = { .05e6, .06e6, .055e6, .052e6, .058e6 };
	static const double hc3[] = { 1.8e6, 1.82e6, 1.81e6, 1.79e6, 1.83e6 };
	const struct fx_config b1 = { "m", "t=4", 5, { hb1, lock_tb } };
	const struct fx_config b2 = { "m", "t=4", 5, { hb2, lock_tb } };
	const struct fx_config c1 = { "m", "t=4", 5, { hc1, lock_tc } };
	const struct fx_config c2 = { "m", "t=4", 5, { hc2, lock_tc } };
	const struct fx_config c3 = { "m", "t=4", 5, { hc3, lock_tc } };
	const struct compare_flag *fl;
	struct compare_result r;
	struct fx b[2], c[2];

	(void)state;
	fx_build(&b[0], 1, m_hand, 2, &b1, 1, "cpu", "6.1");
	fx_build(&b[1], 2, m_hand, 2, &b2, 1, "cpu", "6.1");
	fx_build(&c[0], 3, m_hand, 2, &c1, 1, "cpu", "6.2");
	fx_build(&c[1], 4, m_hand, 2, &c2, 1, "cpu", "6.2");
	run_sides(b, 2, c, 2, "throughput", &r);
	assert_int_equal(r.cmp[0].st.verdict, VERDICT_FASTER);
	fl = find_flag(&r.cmp[0], "misleading-throughput");
	assert_non_null(fl);
	/*
	 * The ratio over the invocations is -91% but rests on 2 df with
	 * baseline invocations 6x apart: p > 0.05, and the message says so
	 * instead of calling it significant; every pair of invocations shows
	 * the fall on its runs.
	 */
	assert_non_null(strstr(fl->message, "not significant over the "
					    "invocations"));
	assert_non_null(strstr(fl->message, "in each pair of a baseline and "
					    "a candidate invocation"));
	assert_null(strstr(fl->message, "; significant"));
	assert_non_null(strstr(fl->message, "2/2 invocations"));
	compare_result_release(&r);
	fx_release(&c[1]);
	fx_build(&c[1], 4, m_hand, 2, &c3, 1, "cpu", "6.2");
	run_sides(b, 2, c, 2, "throughput", &r);
	assert_null(find_flag(&r.cmp[0], "misleading-throughput"));
	compare_result_release(&r);
	fx_release(&b[0]);
	fx_release(&b[1]);
	fx_release(&c[0]);
	fx_release(&c[1]);
}

/*
 * The gate: one-sided p of "worse than -3%" on the log scale and Holm's
 * adjustment.  R:
 *   m <- log(0.97)
 *   t <- c((log(0.90) - m) / 0.02, (log(0.95) - m) / 0.01,
 *          (log(1.01) - m) / 0.02)
 *   p <- c(pt(t[1], 10), pt(t[2], 20), pt(t[3], 5))
 *     -> 0.00190731761534 0.02512769510584 0.95034507224478
 *   p.adjust(p, method = "holm")
 *     -> 0.00572195284603 0.05025539021168 0.95034507224478
 * So at alpha 0.05 only the first fails: the second's raw p (0.025) would
 * have failed without the correction.
 */
static void test_gate_holm(void **state)
{
	static const double diff[] = { -0.105360515657826, -0.0512932943875505,
				       0.00995033085316809 };
	static const double se[] = { 0.02, 0.01, 0.02 }, df[] = { 10, 20, 5 };
	static const double p[] = { 0.00190731761534, 0.02512769510584,
				    0.95034507224478 };
	static const double holm[] = { 0.00572195284603, 0.05025539021168,
				       0.95034507224478 };
	struct comparison cmp[3];
	struct compare_result r;
	size_t i;

	(void)state;
	memset(&r, 0, sizeof(r));
	memset(cmp, 0, sizeof(cmp));
	r.opts = opts(DIR_HIGHER, 1);
	r.n = 3;
	r.cmp = cmp;
	for (i = 0; i < 3; i++) {
		/* Listed out of order: Holm sorts. */
		struct nested_diff *m = &cmp[2 - i].st.model;

		cmp[2 - i].st.log_scale = true;
		m->diff = diff[i];
		m->se = se[i];
		m->df = df[i];
	}
	assert_int_equal(compare_gate(&r, 3), 1);
	for (i = 0; i < 3; i++) {
		close_to("p", cmp[2 - i].gate_p, p[i], 1e-11);
		close_to("holm", cmp[2 - i].gate_p_holm, holm[i], 1e-11);
	}
	assert_true(cmp[2].gate_fail);
	assert_false(cmp[1].gate_fail || cmp[0].gate_fail);
	assert_int_equal(r.gate_failures, 1);
	/* No MSB (one invocation a side): the bound is not guaranteed. */
	assert_int_equal(r.gate_unguaranteed, 3);
	for (i = 0; i < 3; i++)
		cmp[i].st.model.df_between = 100;
	assert_int_equal(compare_gate(&r, 3), 1);
	assert_int_equal(r.gate_unguaranteed, 0);
	/* Lower is better: the same changes, mirrored, are improvements. */
	r.opts.dir = DIR_LOWER;
	assert_int_equal(compare_gate(&r, 3), 0);
}

/*
 * The gate's three outcomes on test_gate_holm's configurations.  The
 * one-sided p of "not worse than -3%" is 1 - p of "worse" (a continuous
 * t): R's 1 - 0.95034507224478 = 0.04965492775522 < 0.05 for the +1%
 * change: pass; the -5% one is not shown beyond -3% after Holm (0.0503)
 * nor ruled out (0.975): inconclusive; the -10% one fails.  The whole:
 * exit 3; without the failing one, Holm over 2 gives 2 x 0.02513 =
 * 0.0503 for the -5%: inconclusive, exit 4; the +1% alone passes, 0.
 * With no spread the change is known: -1% passes a 3% gate, -5% fails.
 */
static void test_gate_three_way(void **state)
{
	static const double diff[] = { -0.105360515657826, -0.0512932943875505,
				       0.00995033085316809 };
	static const double se[] = { 0.02, 0.01, 0.02 }, df[] = { 10, 20, 5 };
	struct comparison cmp[3];
	struct compare_result r;
	size_t i;

	(void)state;
	memset(&r, 0, sizeof(r));
	memset(cmp, 0, sizeof(cmp));
	r.opts = opts(DIR_HIGHER, 1);
	r.n = 3;
	r.cmp = cmp;
	for (i = 0; i < 3; i++) {
		struct nested_diff *m = &cmp[2 - i].st.model;

		cmp[2 - i].st.log_scale = true;
		cmp[2 - i].st.mde_pct = NAN;
		m->diff = diff[i];
		m->se = se[i];
		m->df = df[i];
	}
	assert_int_equal(compare_gate(&r, 3), 1);
	close_to("p_pass", cmp[0].gate_p_pass, 0.04965492775522, 1e-11);
	assert_int_equal(cmp[2].gate, GATE_FAIL);
	assert_int_equal(cmp[1].gate, GATE_INCONCLUSIVE);
	assert_int_equal(cmp[0].gate, GATE_PASS);
	assert_int_equal(r.gate_inconclusive, 1);
	assert_int_equal(compare_gate_status(&r), EXIT_REGRESSION);
	r.n = 2;
	assert_int_equal(compare_gate(&r, 3), 0);
	close_to("holm of 2", cmp[1].gate_p_holm, 0.05025539021168, 1e-11);
	assert_int_equal(cmp[1].gate, GATE_INCONCLUSIVE);
	assert_int_equal(compare_gate_status(&r), EXIT_INCONCLUSIVE);
	r.n = 1;
	assert_int_equal(compare_gate(&r, 3), 0);
	assert_int_equal(cmp[0].gate, GATE_PASS);
	assert_int_equal(compare_gate_status(&r), EXIT_OK);
	/* no spread */
	cmp[0].st.model.se = 0;
	cmp[0].st.model.diff = log(0.99);
	compare_gate(&r, 3);
	assert_int_equal(cmp[0].gate, GATE_PASS);
	cmp[0].st.model.diff = log(0.95);
	compare_gate(&r, 3);
	assert_int_equal(cmp[0].gate, GATE_FAIL);
	assert_int_equal(compare_gate_status(&r), EXIT_REGRESSION);
}

/* The rule itself: p < 0.05 and a fall of at least 25%. */
static void test_handoff_rule(void **state)
{
	static const double h100[] = { 99, 100, 101 }, h80[] = { 79, 80, 81 };
	static const double h70[] = { 69, 70, 71 };
	struct compare_opts o = opts(DIR_HIGHER, 1);
	struct handoff_change h;
	size_t three = 3, one = 1;
	struct compare_groups g100 = { h100, &three, 1 }, g80 = { h80, &three, 1 };
	struct compare_groups g70 = { h70, &three, 1 }, g1 = { h100, &one, 1 };
	struct compare_groups gbw = { b100w, &three, 1 };
	struct compare_groups gcw = { c102w, &three, 1 };

	(void)state;
	assert_int_equal(compare_handoffs(&g100, &g80, &o, &h), 0);
	/* Ratio of arithmetic means (totals), as the report: 80/100 - 1. */
	close_to("change", h.change_pct, -20, 1e-9);
	assert_true(h.p < 0.05);
	assert_false(h.fell);           /* significant but only 20% */
	assert_int_equal(compare_handoffs(&g100, &g70, &o, &h), 0);
	assert_true(h.fell);
	assert_true(h.ci_low_pct < h.change_pct && h.change_pct < h.ci_high_pct);
	assert_int_equal(compare_handoffs(&gbw, &gcw, &o, &h), 0);
	assert_false(h.fell);           /* not significant */
	assert_int_equal(compare_handoffs(&g1, &g70, &o, &h), -1);
}

/*
 * Heavy tails, one invocation a side: the hand-worked case of
 * test_stats.c's test_ratio (a = {1, 1, 1, 1, 16}, b = five 1s): -75%
 * [-96.884%, +100.579%], p 0.138246774 -- the report's figures for the
 * same runs, where geometric means said -42.6% and Welch on the values
 * [-283%, +133%].
 */
static void test_handoff_heavy_tail(void **state)
{
	static const double a[] = { 1, 1, 1, 1, 16 }, b[] = { 1, 1, 1, 1, 1 };
	struct compare_opts o = opts(DIR_HIGHER, 1);
	struct handoff_change h;
	size_t five = 5;
	struct compare_groups ga = { a, &five, 1 }, gb = { b, &five, 1 };

	(void)state;
	assert_int_equal(compare_handoffs(&ga, &gb, &o, &h), 0);
	close_to("change", h.change_pct, -75, 1e-9);
	close_to("low", h.ci_low_pct, -96.88402533932941, 1e-7);
	close_to("high", h.ci_high_pct, 100.57929478331906, 1e-7);
	close_to("p", h.p, 0.138246774036, 1e-9);
	close_to("base", h.base_mean, 4, 1e-12);
	assert_false(h.significant || h.fell);
}

/* ---- matching, invocations, carried flags, host ---- */

static const char *const m_thr[] = { "throughput" };

static void test_matching(void **state)
{
	struct fx_config cb[] = {
		{ "pthread-mutex", "threads=2", 3, { b100 } },
		{ "pthread-mutex", "threads=4", 3, { b100 } },
		{ "spinlock", "threads=2", 3, { b100 } },
	};
	struct fx_config cc[] = {
		{ "pthread-mutex", "threads=8", 3, { c110 } },
		{ "pthread-mutex", "threads=2", 3, { c110 } },
		{ "futex-mutex", "threads=2", 3, { c110 } },
	};
	struct compare_result r;
	struct fx b, c;

	(void)state;
	fx_build(&b, 1, m_thr, 1, cb, N(cb), "cpu", "6.1");
	fx_build(&c, 2, m_thr, 1, cc, N(cc), "cpu", "6.2");
	run_sides(&b, 1, &c, 1, "throughput", &r);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.cmp[0].canon, "threads=2");
	assert_string_equal(r.cmp[0].workload, "pthread-mutex");
	assert_int_equal(r.cmp[0].st.verdict, VERDICT_FASTER);
	assert_int_equal(r.count[VERDICT_FASTER], 1);
	assert_int_equal(r.nunmatched, 4);
	assert_string_equal(r.unmatched[0].side, "baseline");
	assert_string_equal(r.unmatched[0].canon, "threads=4");
	assert_string_equal(r.unmatched[1].workload, "spinlock");
	assert_string_equal(r.unmatched[2].side, "candidate");
	assert_string_equal(r.unmatched[2].canon, "threads=8");
	assert_string_equal(r.unmatched[3].workload, "futex-mutex");
	/* Same kernel release or not, the host facts agree: no flag. */
	assert_null(find_flag(&r.cmp[0], "host-mismatch"));
	compare_result_release(&r);
	fx_release(&b);
	fx_release(&c);
}

/*
 * Many configurations, the candidate's in reverse and the baseline's in
 * two experiments in opposite orders: every one matched, grouped across
 * the experiments, in the baseline's order of first appearance (groups
 * are built by sorting now, not by a search per configuration).
 */
static void test_matching_many(void **state)
{
	enum { NC = 400 };
	struct fx_config *fwd = xcalloc(NC, sizeof(*fwd));
	struct fx_config *rev = xcalloc(NC, sizeof(*rev));
	char **canon = xcalloc(NC, sizeof(*canon));
	struct compare_result r;
	struct fx b[2], c;
	size_t i;

	(void)state;
	for (i = 0; i < NC; i++) {
		canon[i] = xasprintf("threads=%zu", i + 1);
		fwd[i] = (struct fx_config){ "noop", canon[i], 3, { b100 } };
		rev[NC - 1 - i] = (struct fx_config){ "noop", canon[i], 3,
						      { c110 } };
	}
	fx_build(&b[0], 1, m_thr, 1, fwd, NC, "cpu", "6.1");
	for (i = 0; i < NC; i++)
		rev[i].v[0] = b100;
	fx_build(&b[1], 2, m_thr, 1, rev, NC, "cpu", "6.1");
	for (i = 0; i < NC; i++)
		rev[i].v[0] = c110;
	fx_build(&c, 3, m_thr, 1, rev, NC, "cpu", "6.1");
	run_sides(b, 2, &c, 1, "throughput", &r);
	assert_int_equal(r.n, NC);
	assert_int_equal(r.nunmatched, 0);
	for (i = 0; i < NC; i++) {
		assert_string_equal(r.cmp[i].canon, canon[i]);
		assert_int_equal(r.cmp[i].ubase.invocations, 2);
		assert_int_equal(r.cmp[i].ucand.invocations, 1);
		/* the baseline's first: experiment 1's */
		assert_ptr_equal(r.cmp[i].config, &b[0].d.configs[i]);
	}
	compare_result_release(&r);
	fx_release(&b[0]);
	fx_release(&b[1]);
	fx_release(&c);
	for (i = 0; i < NC; i++)
		free(canon[i]);
	free(canon);
	free(fwd);
	free(rev);
}

static void test_summary_counts(void **state)
{
	struct fx_config cb[] = {
		{ "w", "a=1", 3, { b100 } }, { "w", "a=2", 3, { c110 } },
		{ "w", "a=3", 3, { b100s } }, { "w", "a=4", 3, { b100w } },
		{ "w", "a=5", 3, { b100 } },
	};
	struct fx_config cc[] = {
		{ "w", "a=1", 3, { c110 } }, { "w", "a=2", 3, { b100 } },
		{ "w", "a=3", 3, { c100s } }, { "w", "a=4", 3, { c102w } },
		{ "w", "a=5", 3, { c110 } },
	};
	struct compare_result r;
	struct fx b, c;

	(void)state;
	fx_build(&b, 1, m_thr, 1, cb, N(cb), "cpu", "6.1");
	fx_build(&c, 2, m_thr, 1, cc, N(cc), "cpu", "6.1");
	run_sides(&b, 1, &c, 1, "throughput", &r);
	assert_int_equal(r.n, 5);
	assert_int_equal(r.count[VERDICT_FASTER], 2);
	assert_int_equal(r.count[VERDICT_SLOWER], 1);
	assert_int_equal(r.count[VERDICT_NO_CHANGE], 1);
	assert_int_equal(r.count[VERDICT_INCONCLUSIVE], 1);
	assert_int_equal(r.nunmatched, 0);
	compare_result_release(&r);
	fx_release(&b);
	fx_release(&c);
}

/*
 * Three baseline invocations with runs {100..102}, {104..106}, {96..98}:
 * means 101, 105, 97 (balanced, so the model's level is their mean, 101);
 * the sd of all 9 runs is sqrt(102 / 8) = 3.5707142.
 */
static void test_invocations(void **state)
{
	static const double i1[] = { 100, 101, 102 }, i2[] = { 104, 105, 106 };
	static const double i3[] = { 96, 97, 98 };
	const double *inv[] = { i1, i2, i3 };
	struct compare_result r;
	const struct compare_flag *fl;
	struct fx b[3], c;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct fx_config cb = { "w", "a=1", 3, { inv[i] } };

		fx_build(&b[i], (int64_t)i + 1, m_thr, 1, &cb, 1, "cpu", "6.1");
	}
	{
		struct fx_config cc = { "w", "a=1", 3, { c110 } };

		fx_build(&c, 9, m_thr, 1, &cc, 1, "cpu", "6.2");
	}
	run_sides(b, 3, &c, 1, "throughput", &r);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.cmp[0].ubase.invocations, 3);
	assert_int_equal(r.cmp[0].ubase.runs, 9);
	assert_int_equal(r.cmp[0].st.base.n, 9);
	close_to("mean", r.cmp[0].st.base.mean, 101, 1e-9);
	close_to("sd", r.cmp[0].st.base.sd, 3.5707142, 1e-6);
	assert_int_equal(r.cmp[0].ucand.invocations, 1);
	assert_int_equal(r.cmp[0].st.cand.n, 3);
	/* The single candidate borrows the baseline's s2_b. */
	assert_true(r.cmp[0].st.model.b.borrowed);
	fl = find_flag(&r.cmp[0], "single-invocation");
	assert_non_null(fl);
	assert_string_equal(fl->side, "candidate");
	assert_non_null(strstr(fl->message, "baseline's between-invocation"));
	compare_result_release(&r);

	/* One invocation each: the flag covers both sides. */
	run_sides(b, 1, &c, 1, "throughput", &r);
	fl = find_flag(&r.cmp[0], "single-invocation");
	assert_non_null(fl);
	assert_string_equal(fl->side, "both");
	compare_result_release(&r);

	/* Several on both sides: no flag. */
	run_sides(b, 2, b + 1, 2, "throughput", &r);
	assert_null(find_flag(&r.cmp[0], "single-invocation"));
	assert_int_equal(r.cmp[0].ucand.invocations, 2);
	compare_result_release(&r);
	for (i = 0; i < 3; i++)
		fx_release(&b[i]);
	fx_release(&c);
}

static void test_carried_and_host(void **state)
{
	struct fx_config cb = { "w", "a=1", 3, { b100, b100 } };
	struct fx_config cc = { "w", "a=1", 3, { c110, c110 } };
	static const char *const m2[] = { "handoff_rate", "throughput" };
	struct compare_result r;
	const struct compare_flag *fl;
	struct fx b, c;

	(void)state;
	fx_build(&b, 1, m2, 2, &cb, 1, "Xeon 1", "6.1");
	fx_build(&c, 2, m2, 2, &cc, 1, "Xeon 2", "6.2");
	fx_flag(&b, 0, "noisy", 1);         /* on throughput: carried */
	fx_flag(&b, 0, "outliers", 1);      /* not a carried flag */
	fx_flag(&c, 0, "drift", 0);         /* on handoff_rate: not ours */
	fx_flag(&c, 0, "unfair", -1);       /* of the configuration */
	run_sides(&b, 1, &c, 1, "throughput", &r);
	fl = find_flag(&r.cmp[0], "noisy");
	assert_non_null(fl);
	assert_string_equal(fl->side, "baseline");
	assert_non_null(strstr(fl->message, "noisy raised in the fixture"));
	assert_null(find_flag(&r.cmp[0], "outliers"));
	assert_null(find_flag(&r.cmp[0], "drift"));
	fl = find_flag(&r.cmp[0], "unfair");
	assert_non_null(fl);
	assert_string_equal(fl->side, "candidate");
	/* Per-side flags once per side, naming the experiments. */
	assert_int_equal(r.nside_flags, 2);
	assert_string_equal(r.side_flags[0].name, "noisy");
	assert_string_equal(r.side_flags[0].side, "baseline");
	assert_non_null(strstr(r.side_flags[0].message,
			       "1 of 1 configurations, experiment 1;"));
	assert_string_equal(r.side_flags[1].name, "unfair");
	fl = find_flag(&r.cmp[0], "host-mismatch");
	assert_non_null(fl);
	assert_non_null(strstr(fl->message, "cpu_model 'Xeon 1' vs 'Xeon 2'"));
	assert_null(strstr(fl->message, "kernel"));
	compare_result_release(&r);
	fx_release(&b);
	fx_release(&c);
}

/*
 * A carried flag's example keeps what its parentheses hold (a kernel
 * warning's "(lockdep 3; ...)" is not cut at its ';'), and only noise is
 * told the runs that would resolve it.
 */
static void test_side_flag_example(void **state)
{
	struct fx_config cb = { "w", "a=1", 3, { b100, b100 } };
	struct fx_config cc = { "w", "a=1", 3, { c110, c110 } };
	static const char *const m2[] = { "handoff_rate", "throughput" };
	struct compare_result r;
	struct fx b, c;
	size_t i;

	(void)state;
	fx_build(&b, 1, m2, 2, &cb, 1, "Xeon", "6.1");
	fx_build(&c, 2, m2, 2, &cc, 1, "Xeon", "6.1");
	fx_flag(&c, 0, "kernel-warning", -1);
	free(c.a.configs[0].flags[0].message);
	c.a.configs[0].flags[0].message =
		xstrdup("runs 2 and 3 logged kernel warnings (lockdep 3; rcu "
			"1): the first, run 2: WARNING: possible circular");
	run_sides(&b, 1, &c, 1, "throughput", &r);
	for (i = 0; i < r.nside_flags &&
		    strcmp(r.side_flags[i].name, "kernel-warning"); i++)
		;
	assert_true(i < r.nside_flags);
	assert_non_null(strstr(r.side_flags[i].message,
			       "e.g. runs 2 and 3 logged kernel warnings "
			       "(lockdep 3; rcu 1)"));
	assert_null(strstr(r.side_flags[i].message, "WARNING"));
	assert_null(strstr(r.side_flags[i].message, "resolving"));
	compare_result_release(&r);
	fx_release(&b);
	fx_release(&c);
}

/* A host fact runner/host.c could not read is no evidence of a mismatch. */
static void test_host_unknown(void **state)
{
	struct fx_config cf = { "w", "a=1", 3, { b100 } };
	struct compare_result r;
	struct fx b, c;

	(void)state;
	fx_build(&b, 1, m_thr, 1, &cf, 1, "unknown", "6.1");
	fx_build(&c, 2, m_thr, 1, &cf, 1, "Xeon 2", "6.2");
	run_sides(&b, 1, &c, 1, "throughput", &r);
	assert_null(find_flag(&r.cmp[0], "host-mismatch"));
	compare_result_release(&r);
	fx_release(&b);
	fx_release(&c);
}

/*
 * futex-hash-differs: the sides' stored futex_hash_slots, as values (a
 * side's range when its runs differ); a side that stored none is unknown,
 * not different.
 */
static const double fh16[] = { 16, 16, 16 }, fh256[] = { 256, 256, 256 };
static const double fh0[] = { 0, 0, 0 }, fh16_64[] = { 16, 64, 16 };
static const struct futex_case {
	const char *name;
	const double *base, *cand;
	const char *want; /* NULL: no flag */
} futex_cases[] = {
	{ "16 vs 256", fh16, fh256, "baseline 16 slots, candidate 256 slots" },
	{ "global vs 16", fh0, fh16, "baseline 0 slots, candidate 16 slots" },
	{ "a range", fh16_64, fh16, "baseline 16-64 slots, candidate 16" },
	{ "alike", fh256, fh256, NULL },
	{ "baseline unknown", NULL, fh256, NULL },
	{ "candidate unknown", fh16, NULL, NULL },
};

static void test_futex_hash_differs(void **state)
{
	static const char *const m2[] = { "futex_hash_slots", "throughput" };
	size_t i;

	(void)state;
	for (i = 0; i < N(futex_cases); i++) {
		const struct futex_case *t = &futex_cases[i];
		struct fx_config cb = { "w", "a=1", 3, { t->base, b100 } };
		struct fx_config cc = { "w", "a=1", 3, { t->cand, c110 } };
		const struct compare_flag *fl;
		struct compare_result r;
		struct fx b, c;

		fx_build(&b, 1, m2, 2, &cb, 1, "Xeon", "6.16");
		fx_build(&c, 2, m2, 2, &cc, 1, "Xeon", "6.18");
		run_sides(&b, 1, &c, 1, "throughput", &r);
		fl = find_flag(&r.cmp[0], "futex-hash-differs");
		if (!t->want != !fl)
			fail_msg("%s: flag %s", t->name, fl ? "raised" :
				 "missing");
		if (fl && (!strstr(fl->message, t->want) ||
			   strcmp(fl->side, "both")))
			fail_msg("%s: '%s' (%s)", t->name, fl->message,
				 fl->side);
		compare_result_release(&r);
		fx_release(&b);
		fx_release(&c);
	}
}

static void test_metric_missing(void **state)
{
	struct fx_config cf = { "w", "a=1", 3, { b100 } };
	struct compare_opts o = opts(DIR_LOWER, 1);
	struct compare_result r;
	struct fx_side sb, sc;
	struct fx b, c;

	(void)state;
	fx_build(&b, 1, m_thr, 1, &cf, 1, "cpu", "6.1");
	fx_build(&c, 2, m_thr, 1, &cf, 1, "cpu", "6.1");
	side_of(&sb, &b, 1, "base");
	side_of(&sc, &c, 1, "cand");
	assert_int_equal(compare_sides(&sb.side, &sc.side, "elapsed_s", &o,
				       &r), -1);
	side_free(&sb);
	side_free(&sc);
	fx_release(&b);
	fx_release(&c);
}

/* x[0..3) in a temporary file loaded as a number side (compare.h),
 * shaped by other with metric; path to unlink, malloc'd. */
static char *number_side(struct compare_input *s, const double *x,
			 const struct compare_input *other, const char *metric)
{
	char *path = xstrdup("/tmp/contend-numside-XXXXXX");
	int fd = mkstemp(path);
	struct compare_request q = { .db = "/nonexistent.db" };
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (size_t i = 0; i < 3; i++)
		fprintf(f, "%.17g\n", x[i]);
	assert_int_equal(fclose(f), 0);
	numfile_opts_default(&q.nf);
	memset(s, 0, sizeof(*s));
	s->text = path;
	s->role = "baseline";
	assert_int_equal(compare_input_load(s, &q, false), 0);
	assert_int_equal(s->kind, INPUT_NUMBERS);
	assert_int_equal(compare_input_number_side(s, other, metric), 0);
	return path;
}

/* Number files: plain sides, matched to each other or to one config. */
static void test_number_sides(void **state)
{
	struct fx_config cf = { "pthread-mutex", "threads=2", 3, { b100 } };
	struct compare_input nb = { .kind = INPUT_NUMBERS },
			     nc = { .kind = INPUT_NUMBERS },
			     db = { .kind = INPUT_DB, .text = "db" };
	struct compare_opts o = opts(DIR_HIGHER, 1);
	struct compare_result r;
	char *pb, *pc;
	struct fx_side fs;
	struct fx f;

	(void)state;
	nb.kind = nc.kind = INPUT_NUMBERS;
	pb = number_side(&nb, b100, &nc, "value");
	pc = number_side(&nc, c110, &nb, "value");
	assert_int_equal(compare_sides(&nb.side, &nc.side, "value", &o, &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.cmp[0].st.verdict, VERDICT_FASTER);
	assert_int_equal(r.cmp[0].nflags, 0);   /* no invocation to doubt */
	compare_result_release(&r);
	compare_input_release(&nc);
	compare_input_release(&nb);
	unlink(pc);
	free(pc);
	unlink(pb);
	free(pb);

	fx_build(&f, 1, m_thr, 1, &cf, 1, "cpu", "6.1");
	side_of(&fs, &f, 1, "db");
	assert_int_equal(fs.side.sets[0].nconfigs, 1);
	db.side = fs.side;
	pb = number_side(&nb, c110, &db, "throughput");
	/* read back from a store as any side: its parameters parsed */
	assert_non_null(nb.st);
	assert_int_equal(nb.sets[0].configs[0].nparams, 1);
	assert_string_equal(nb.sets[0].configs[0].params[0].key, "threads");
	assert_int_equal(compare_sides(&fs.side, &nb.side, "throughput", &o,
				       &r), 0);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.nunmatched, 0);
	assert_int_equal(r.cmp[0].st.verdict, VERDICT_FASTER);
	assert_non_null(find_flag(&r.cmp[0], "single-invocation"));
	assert_string_equal(find_flag(&r.cmp[0], "single-invocation")->side,
			    "baseline");
	compare_result_release(&r);
	compare_input_release(&nb);
	unlink(pb);
	free(pb);
	side_free(&fs);
	fx_release(&f);
}

/* ---- kernel locks A/B (docs/KLOCK.md) ---- */

static void fx_klock(struct fx *f, size_t run, const char *kind,
		     const char *caller, double wait)
{
	struct ds_config *cf = &f->d.configs[0];
	struct ds_klock *k;

	cf->klock = xrealloc(cf->klock, (cf->nklock + 1) * sizeof(*k));
	k = &cf->klock[cf->nklock++];
	memset(k, 0, sizeof(*k));
	k->run = run;
	k->kind = xstrdup(kind);
	k->caller = xstrdup(caller);
	k->nlocks = 2;
	k->contentions = 1;
	k->wait_s = wait;
}

static void fx_klock_free(struct fx *f)
{
	struct ds_config *cf = &f->d.configs[0];
	size_t i;

	for (i = 0; i < cf->nklock; i++) {
		free(cf->klock[i].kind);
		free(cf->klock[i].caller);
	}
	free(cf->klock);
}

/*
 * The candidate waits exactly twice as long on do_unlinkat's rwsem in
 * every run: +100%, the ratio of the arithmetic means (a wait is a
 * count-like total, compared as hand-offs are: compare_handoffs), from
 * the baseline's mean (0.1 + 0.12 + 0.08 + 0.1) / 4 = 0.1.
 * A lock only the baseline had (0.01 in two runs of four, 0 in the
 * others) is gone: -100%, without interval, p from the runs; one only
 * the candidate had (0.02 in two runs) is new, p likewise (it was
 * dropped: the ratio to a baseline of 0 failed before the runs' test,
 * which is how chat's lock block went missing).  The changed row
 * first, then by wait a run over both sides.
 */
static void test_klock_changes(void **state)
{
	static const char *const m[] = { "klock_wait_s", "throughput" };
	static const double wb[] = { 0.1, 0.12, 0.08, 0.1 };
	static const double wc[] = { 0.2, 0.24, 0.16, 0.2 };
	static const double tb[] = { 10, 11, 9, 10 }, tc[] = { 10, 11, 9, 10 };
	const struct fx_config cb = { "creat", "processes=4", 4, { wb, tb } };
	const struct fx_config cc = { "creat", "processes=4", 4, { wc, tc } };
	struct compare_result r;
	const struct comparison *cmp;
	struct fx b, c;
	char *txt;
	size_t i;

	(void)state;
	fx_build(&b, 1, m, 2, &cb, 1, "cpu", "6.1");
	fx_build(&c, 2, m, 2, &cc, 1, "cpu", "6.1");
	for (i = 0; i < 4; i++) {
		fx_klock(&b, i, "rwsem_write", "do_unlinkat", wb[i]);
		fx_klock(&c, i, "rwsem_write", "do_unlinkat", wc[i]);
		if (i % 2 == 0)
			fx_klock(&b, i, "spin", "dput", 0.01);
		else
			fx_klock(&c, i, "spin", "d_alloc", 0.02);
	}
	run_sides(&b, 1, &c, 1, "throughput", &r);
	assert_int_equal(r.n, 1);
	cmp = &r.cmp[0];
	assert_int_equal(cmp->nklock, 3);
	assert_int_equal(cmp->klock_shown, 3);
	assert_string_equal(cmp->klock[0].caller, "do_unlinkat");
	assert_float_equal(cmp->klock[0].change_pct, 100, 1e-9);
	assert_float_equal(cmp->klock[0].base_mean, 0.1, 1e-12);
	assert_true(cmp->klock[0].ci_low_pct <= 100 &&
		    cmp->klock[0].ci_high_pct >= 100);
	assert_string_equal(cmp->klock[1].caller, "d_alloc");
	assert_true(isnan(cmp->klock[1].change_pct));
	assert_float_equal(cmp->klock[1].base_mean, 0, 0);
	assert_float_equal(cmp->klock[1].cand_mean, 0.01, 1e-12);
	assert_string_equal(cmp->klock[2].caller, "dput");
	assert_float_equal(cmp->klock[2].change_pct, -100, 1e-9);
	assert_float_equal(cmp->klock[2].base_mean, 0.005, 1e-12);
	/* the candidate never waited there: no log ratio, Welch on the
	 * runs, 0.01 0 0.01 0 against 0 0 0 0: t = 0.005 / (0.005774 / 2)
	 * = sqrt(3), df 3, p = 2 (1/2 - (1/2 + pi/4) / pi) = 0.18169; the
	 * new lock is the same test scaled; Holm over 3: the two larger p
	 * times 2 and 1, made non-decreasing: both 0.36338 */
	assert_float_equal(cmp->klock[2].p, 0.18169, 1e-5);
	assert_float_equal(cmp->klock[1].p, 0.18169, 1e-5);
	assert_float_equal(cmp->klock[1].p_holm, 0.36338, 1e-5);
	assert_float_equal(cmp->klock[2].p_holm, 0.36338, 1e-5);
	assert_true(cmp->klock[0].p_holm < 0.05);
	assert_true(isnan(cmp->klock[2].ci_low_pct));
	compare_result_release(&r);
	/* the text: Holm said, waits in ms, 80 columns (a caller of 60
	 * bytes is cut) */
	fx_klock(&b, 0, "rwsem_write", "a_kernel_function_with_a_very_long_"
		 "name_that_goes_on_and_on", 1e-9);
	txt = compare_text(&b, &c);
	assert_fits_80(txt);
	assert_non_null(strstr(txt, "Holm-corrected over 4 locks"));
	assert_non_null(strstr(txt, "      100 ms -> 200 ms  +100.0%"));
	/* Holm over 4 now: 0.18169 x 3 for both */
	assert_non_null(strstr(txt, "    spin d_alloc\n      0 s -> 10 ms  "
				    "none in the baseline  p = 0.55\n"));
	free(txt);
	fx_klock_free(&b);
	fx_klock_free(&c);
	fx_release(&b);
	fx_release(&c);
}

/*
 * A lock eleventh by wait is compared as the first ten are: ten locks of
 * about 1 s a run on both sides, alike (p = 1), and one of 0.1 s a run
 * that triples in the candidate (0.09 0.11 0.10 0.10 against 0.27 0.33
 * 0.30 0.30: +200%, each side's mean 4% uncertain, so log 3 = 1.10 is
 * some 19 standard errors).  Compared from the top ten by total wait it
 * was never compared; now it is compared, flagged after Holm over 11
 * and printed first, and the text says one more lock was compared.
 */
static void test_klock_eleventh(void **state)
{
	static const char *const m[] = { "klock_wait_s", "throughput" };
	static const double w[] = { 11, 11, 11, 11 };
	static const double t[] = { 10, 11, 9, 10 };
	static const double f[] = { 0.9, 1.1, 1.0, 1.0 };
	static const double gb[] = { 0.09, 0.11, 0.10, 0.10 };
	static const double gc[] = { 0.27, 0.33, 0.30, 0.30 };
	const struct fx_config cf = { "creat", "processes=4", 4, { w, t } };
	struct compare_result r;
	const struct comparison *cmp;
	struct fx b, c;
	char caller[8], *txt;
	size_t i, l;

	(void)state;
	fx_build(&b, 1, m, 2, &cf, 1, "cpu", "6.1");
	fx_build(&c, 2, m, 2, &cf, 1, "cpu", "6.1");
	for (i = 0; i < 4; i++) {
		for (l = 0; l < 10; l++) {
			snprintf(caller, sizeof(caller), "f%zu", l);
			fx_klock(&b, i, "mutex", caller, f[i]);
			fx_klock(&c, i, "mutex", caller, f[i]);
		}
		fx_klock(&b, i, "rwsem_write", "g", gb[i]);
		fx_klock(&c, i, "rwsem_write", "g", gc[i]);
	}
	run_sides(&b, 1, &c, 1, "throughput", &r);
	cmp = &r.cmp[0];
	assert_int_equal(cmp->nklock, 11);
	assert_int_equal(cmp->klock_shown, 10);
	assert_string_equal(cmp->klock[0].caller, "g");
	assert_float_equal(cmp->klock[0].change_pct, 200, 1e-9);
	assert_true(cmp->klock[0].ci_low_pct > 0);
	assert_true(cmp->klock[0].p_holm < 0.05);
	for (i = 1; i < 11; i++) {
		assert_float_equal(cmp->klock[i].change_pct, 0, 1e-9);
		assert_false(cmp->klock[i].p_holm < 0.05);
	}
	compare_result_release(&r);
	txt = compare_text(&b, &c);
	assert_fits_80(txt);
	assert_non_null(strstr(txt, "Holm-corrected over 11 locks"));
	assert_non_null(strstr(txt, "    rwsem_write g\n      100 ms -> 300 ms"
				    "  +200.0%"));
	assert_non_null(strstr(txt, "    1 more compared, none changed, not "
				    "shown (--format json has them)\n"));
	free(txt);
	fx_klock_free(&b);
	fx_klock_free(&c);
	fx_release(&b);
	fx_release(&c);
}

/*
 * A/A: both sides' runs drawn alike, 20 locks, each in a run with
 * probability 0.7 (0 where not), its wait log-normal; every lock is
 * compared.  Holm-corrected over the 20, a row is flagged in at most 5%
 * of the A/As (the family-wise error, whatever the tests' dependence):
 * the test allows 8 of 80 (10%; 4 expected at most) and at most one
 * flagged row in 20 on average.  Uncorrected p < 0.05 flags about one
 * row in 20 in every A/A.
 */
#define AA_RUNS 8
#define AA_LOCKS 20

static size_t aa_flagged(gsl_rng *rng, size_t *raw)
{
	static const char *const m[] = { "klock_wait_s", "throughput" };
	static const double thr[AA_RUNS] = { 10, 11, 9, 10, 10, 11, 9, 10 };
	double w[2][AA_RUNS] = { { 0 } };
	struct fx side[2];
	struct compare_result r;
	size_t s, i, l, flagged = 0;

	for (s = 0; s < 2; s++) {
		const struct fx_config cf = { "creat", "processes=4", AA_RUNS,
					      { w[s], thr } };
		char caller[16];

		fx_build(&side[s], (int64_t)s + 1, m, 2, &cf, 1, "cpu", "6.1");
		for (i = 0; i < AA_RUNS; i++)
			for (l = 0; l < AA_LOCKS; l++) {
				double v = 0.01 * exp(0.5 * gsl_ran_gaussian(
							  rng, 1));

				if (gsl_rng_uniform(rng) >= 0.7)
					continue;
				snprintf(caller, sizeof(caller), "f%zu", l);
				fx_klock(&side[s], i, "mutex", caller, v);
			}
	}
	run_sides(&side[0], 1, &side[1], 1, "throughput", &r);
	assert_int_equal(r.cmp[0].nklock, AA_LOCKS);
	for (i = 0; i < r.cmp[0].nklock; i++) {
		flagged += r.cmp[0].klock[i].p_holm < 0.05;
		*raw += r.cmp[0].klock[i].p < 0.05;
	}
	compare_result_release(&r);
	for (s = 0; s < 2; s++) {
		fx_klock_free(&side[s]);
		fx_release(&side[s]);
	}
	return flagged;
}

static void test_klock_aa(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t t, any = 0, rows = 0, raw = 0, n;

	(void)state;
	gsl_rng_set(rng, 3839);
	for (t = 0; t < 80; t++) {
		n = aa_flagged(rng, &raw);
		any += n > 0;
		rows += n;
	}
	gsl_rng_free(rng);
	printf("klock A/A: %zu of 80 with a flagged row, %zu rows; "
	       "uncorrected %zu rows\n", any, rows, raw);
	assert_true(any <= 8);
	assert_true(rows <= 80);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_klock_changes),
		cmocka_unit_test(test_klock_eleventh),
		cmocka_unit_test(test_klock_aa),
		cmocka_unit_test(test_misleading_lockdep),
		cmocka_unit_test(test_misleading_genuine),
		cmocka_unit_test(test_misleading_fallback),
		cmocka_unit_test(test_misleading_every_invocation),
		cmocka_unit_test(test_misleading_text),
		cmocka_unit_test(test_text_80),
		cmocka_unit_test(test_host_keys_text),
		cmocka_unit_test(test_host_keys_warnings),
		cmocka_unit_test(test_gate_holm),
		cmocka_unit_test(test_gate_three_way),
		cmocka_unit_test(test_handoff_rule),
		cmocka_unit_test(test_handoff_heavy_tail),
		cmocka_unit_test(test_matching),
		cmocka_unit_test(test_matching_many),
		cmocka_unit_test(test_summary_counts),
		cmocka_unit_test(test_invocations),
		cmocka_unit_test(test_carried_and_host),
		cmocka_unit_test(test_side_flag_example),
		cmocka_unit_test(test_host_unknown),
		cmocka_unit_test(test_futex_hash_differs),
		cmocka_unit_test(test_metric_missing),
		cmocka_unit_test(test_number_sides),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
