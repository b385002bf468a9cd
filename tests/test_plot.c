/*
 * test_plot.c - the plots module: generated gnuplot scripts against golden
 * files, every script renders to a non-empty PNG and SVG with the installed
 * gnuplot, names full of gnuplot syntax print literally and run nothing,
 * and the HTML bundle is self-contained.
 *
 * CONTEND_UPDATE_GOLDEN=1 rewrites tests/data/plots/ from the output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/report.h"
#include "lib/escape.h"
#include "plots/plot.h"
#include "tests/dataset_fixture.h"
#include "tests/golden.h"
#include "tests/tmpdir.h"

#define GOLDEN_DIR "tests/data/plots"

/* A section name an attacker would write: backquotes, quotes, system(). */
static const char hostile[] =
	"x`touch pwned-bq` '\"\\ system(\"touch pwned-sys\") @mac";

/*
 * Two sections: a thread sweep 1, 2, 4 (geometric: log2 axis) whose
 * hand-offs collapse as throughput rises (flags), and a hostile name.
 */
static void build(struct fixture *fx)
{
	static const struct {
		int threads;
		double tput, handoff, cr;
	} sweep[] = {
		{ 1, 10e6, 0, 0 }, { 2, 14e6, 1.8e6, 0.4 }, { 4, 30e6, 0.2e6, 0.1 },
	};
	size_t i, r;

	fx_init(fx, "plot-fixture");
	fx_meta(fx, "hostname", "testhost");
	fx_meta(fx, "kernel_release", "6.1.0-test");
	/* tracing switched on during it: the text report's "kernel
	 * tracing" line, which the HTML report must carry too */
	fx_meta(fx, "kstate.events.lock", "0");
	fx_meta(fx, "kstate_end.events.lock", "1");
	for (i = 0; i < ARRAY_SIZE(sweep); i++) {
		char params[128];

		snprintf(params, sizeof(params), "threads=%d delay=0 runtime=1",
			 sweep[i].threads);
		fx_config(fx, "mutex", "pthread-mutex", params);
		for (r = 0; r < 6; r++) {
			double wiggle = 1 + 0.01 * ((double)r - 2.5);
			uint64_t ops[4] = { 100 + r, 90, 80, 70 };
			char m[256];

			snprintf(m, sizeof(m),
				 "throughput=%.17g handoff_rate=%.17g contention_rate=%.17g elapsed_s=1",
				 sweep[i].tput * wiggle, sweep[i].handoff * wiggle,
				 sweep[i].cr * wiggle);
			fx_run(fx, r == 0, RUN_OK, m, ops, (size_t)sweep[i].threads);
		}
	}
	fx_config(fx, hostile, "noop", "threads=1 spin=100 runtime=1");
	for (r = 0; r < 5; r++) {
		char m[128];
		uint64_t ops = 1000;

		snprintf(m, sizeof(m), "throughput=%d contention_rate=0",
			 1000 + 10 * (int)r);
		fx_run(fx, false, RUN_OK, m, &ops, 1);
	}
	fx_finish(fx);
}

struct env {
	struct fixture fx;
	struct analysis a;
	struct plot_set set;
	char dir[64];
	char cwd[4096];
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct analysis_opts o;

	build(&e->fx);
	analysis_opts_default(&o);
	if (analysis_run(&e->fx.d, &o, &e->a))
		return -1;
	if (tmpdir_create(e->dir, sizeof(e->dir), "plot") ||
	    !getcwd(e->cwd, sizeof(e->cwd)))
		return -1;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	if (tmpdir_remove(e->dir))
		fprintf(stderr, "could not remove %s\n", e->dir);
	plot_set_release(&e->set);
	analysis_release(&e->a);
	fx_free(&e->fx);
	free(e);
	return 0;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

static void write_plots(struct env *e, bool render)
{
	struct plot_opts o = { .out_dir = e->dir, .png = true, .svg = true,
			       .render = render };

	plot_set_release(&e->set);
	assert_int_equal(plot_experiment(&e->a, &o, &e->set), 0);
}

/* Every script and data file equals its golden copy. */
static void test_golden_scripts(void **state)
{
	struct env *e = *state;
	const char *names[] = {
		"lockdep-1.gp", "lockdep-1.dat", "contention-1.gp",
		"contention-1.dat", "contention-2.gp", "order.gp", "order.dat",
		"distribution.gp", "distribution.dat", "fairness.gp",
		"fairness.dat",
	};
	size_t i;

	write_plots(e, false);
	/* lockdep-1, contention-1, scaling-2 (skipped: nothing swept),
	 * contention-2, order, distribution, fairness */
	assert_int_equal(e->set.n, 7);
	assert_string_equal(e->set.files[2].name, "scaling-2.gp");
	assert_non_null(strstr(e->set.files[2].skipped, "no numeric parameter is swept"));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *got_path = xasprintf("%s/%s", e->dir, names[i]);
		char *want_path = xasprintf("%s/%s", GOLDEN_DIR, names[i]);
		size_t len = 0;
		char *got = slurp(got_path, &len);

		golden_check(want_path, got, len);
		free(got);
		free(got_path);
		free(want_path);
	}
}

/* The hostile name reaches the scripts only inside single quotes. */
static void test_quoting(void **state)
{
	struct env *e = *state;
	char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	(void)e;
	escape_gnuplot(f, "a'b`c`\n@d");
	fclose(f);
	/* ' doubled, newline shown as \n: no way out of the literal. */
	assert_string_equal(buf, "'a''b`c`\\n@d'");
}

/* A long label is cut on a character, never inside a UTF-8 sequence. */
static void test_label_cut(void **state)
{
	char label[64] = "", want[64] = "";
	size_t i;

	(void)state;
	for (i = 0; i < 20; i++)
		strcat(label, "\xc3\xa9"); /* 40 bytes */
	strcat(label, "x");
	/* Byte 37 is the second of an e-acute: the cut is at 36. */
	for (i = 0; i < 18; i++)
		strcat(want, "\xc3\xa9");
	strcat(want, "...");
	plot_label_cut(label, 40);
	assert_string_equal(label, want);
	strcpy(label, "short");
	plot_label_cut(label, 40);
	assert_string_equal(label, "short");
}

/* Rendering with the installed gnuplot: images exist, nothing executed. */
static void test_render(void **state)
{
	struct env *e = *state;
	size_t i;

	if (!plot_have_gnuplot())
		skip();
	write_plots(e, true);
	for (i = 0; i < e->set.n; i++) {
		const char *name = e->set.files[i].name;
		size_t len = strlen(name) - 3;
		char *png, *svg;

		if (e->set.files[i].skipped)
			continue;
		png = xasprintf("%s/%.*s.png", e->dir, (int)len, name);
		svg = xasprintf("%s/%.*s.svg", e->dir, (int)len, name);
		assert_true(e->set.files[i].rendered);
		assert_true(file_size(png) > 1000);
		assert_true(file_size(svg) > 1000);
		free(png);
		free(svg);
	}
	/* gnuplot ran with its working directory in e->dir and ours. */
	for (i = 0; i < 2; i++) {
		const char *where = i ? e->cwd : e->dir;
		char *bq = xasprintf("%s/pwned-bq", where);
		char *sys = xasprintf("%s/pwned-sys", where);

		assert_int_equal(access(bq, F_OK), -1);
		assert_int_equal(access(sys, F_OK), -1);
		free(bq);
		free(sys);
	}
}

/* The HTML bundle: every configuration and flag, images inline, no URL. */
static void test_html(void **state)
{
	struct env *e = *state;
	char *path = xasprintf("%s/report.html", e->dir);
	char *html;
	size_t c, k;

	if (!plot_have_gnuplot())
		skip();
	write_plots(e, true);
	assert_int_equal(html_report(&e->a, &e->set, e->dir, path), 0);
	html = slurp(path, NULL);
	assert_non_null(html);
	for (c = 0; c < e->a.nconfigs; c++)
		for (k = 0; k < e->a.configs[c].nflags; k++)
			assert_non_null(strstr(html, e->a.configs[c].flags[k].name));
	assert_non_null(strstr(html, "threads=4 delay=0 runtime=1"));
	/* The hostile name is escaped, not markup. */
	assert_non_null(strstr(html, "x`touch pwned-bq` &#39;&quot;\\ system("));
	/* Figures are captioned in words, not by their file's name. */
	assert_non_null(strstr(html, "<figcaption>throughput and lock hand-offs "
				     "against threads: mutex</figcaption>"));
	assert_null(strstr(html, ".svg</figcaption>"));
	assert_null(strstr(html, ".png</figcaption>"));
	assert_null(strstr(html, "src=\"http"));
	assert_null(strstr(html, "href="));
	assert_null(strstr(html, "<script"));
	assert_int_equal((int)(strstr(html, "data:image/svg+xml;base64,") != NULL), 1);
	{
		size_t n = 0;
		const char *p = html;

		size_t drawn = 0, i;

		for (i = 0; i < e->set.n; i++)
			drawn += !e->set.files[i].skipped;
		while ((p = strstr(p, "<img ")))
			n++, p++;
		assert_int_equal(n, drawn);
	}
	free(html);
	free(path);
}

/*
 * The HTML's flags by severity, each coloured by it, whatever the order
 * of the configurations: a note (outliers) and a doubt (noisy) on
 * configuration 1 come after the misleading-throughput of configuration
 * 3; and each configuration's heading is its own ("1 mutex: threads=1"),
 * not the section's name three times.  No gnuplot needed.
 */
static void test_html_flags(void **state)
{
	struct env *e = *state;
	char *path = xasprintf("%s/report.html", e->dir);
	const char *high, *mid, *low;
	char *html;

	analysis_flag_add(&e->a.configs[0], "outliers", -1, -1, "a note");
	analysis_flag_add(&e->a.configs[0], "noisy", -1, -1, "a doubt");
	assert_non_null(strstr(e->a.configs[2].flags[0].name,
			       "misleading-throughput"));
	plot_set_release(&e->set);
	memset(&e->set, 0, sizeof(e->set));
	assert_int_equal(html_report(&e->a, &e->set, e->dir, path), 0);
	html = slurp(path, NULL);
	assert_non_null(html);
	high = strstr(html, "<p class=\"flag high\"><b>misleading-throughput</b>, "
			    "configuration 3 (vs 2)");
	mid = strstr(html, "<p class=\"flag mid\"><b>noisy</b>, configuration 1:");
	low = strstr(html, "<p class=\"flag low\"><b>outliers</b>, configuration 1:");
	assert_non_null(high);
	assert_non_null(mid);
	assert_non_null(low);
	assert_true(high < mid && mid < low);
	assert_non_null(strstr(html, ".flag.high{"));
	assert_non_null(strstr(html, "<h3>1 mutex: threads=1</h3>"));
	assert_non_null(strstr(html, "<h3>3 mutex: threads=4</h3>"));
	assert_null(strstr(html, "<h3>mutex</h3>"));
	free(html);
	free(path);
}

/*
 * An experiment mixing what the workloads report: a lock sweep with
 * hand-offs, a command with only its own metric "lat", a creat-like sweep
 * with throughput but no contention, a configuration whose runs all
 * failed.  Every plot is written or skipped with a reason; no script or
 * data file holds inf or nan; with gnuplot each written one renders.
 */
static void build_mixed(struct fixture *fx)
{
	size_t i, r;

	fx_init(fx, "mixed");
	for (i = 0; i < 3; i++) {
		char params[64];

		snprintf(params, sizeof(params), "threads=2 delay_ns=%d",
			 i == 0 ? 0 : i == 1 ? 1000 : 10000);
		fx_config(fx, "mutex", "pthread-mutex", params);
		for (r = 0; r < 3; r++) {
			char m[160];

			snprintf(m, sizeof(m), "throughput=%g handoff_rate=%g "
				 "contention_rate=%g", (1 + (double)i) * 1e7 + (double)r * 1e5,
				 2e6 / (1 + 10 * (double)i) + (double)r, 0.3 / (1 + (double)i));
			fx_run(fx, false, RUN_OK, m, NULL, 0);
		}
	}
	fx_config(fx, "cmd", "command", "argv=x");
	for (r = 0; r < 3; r++)
		fx_run(fx, false, RUN_OK, r ? "lat=12.5" : "lat=12.25", NULL, 0);
	for (i = 0; i < 2; i++) {
		fx_config(fx, "files", "creat", i ? "processes=2" : "processes=1");
		for (r = 0; r < 3; r++)
			fx_run(fx, false, RUN_OK, i ? "throughput=2.5e5" : "throughput=1.5e5",
			       NULL, 0);
	}
	fx_config(fx, "broken", "command", "argv=y");
	for (r = 0; r < 2; r++)
		fx_run(fx, false, RUN_FAILED, NULL, NULL, 0);
	fx_finish(fx);
}

/*
 * A command swept by a user parameter: argv is param.threads substituted,
 * so it varies too, but the series are keyed by param.threads alone: one
 * series, its three points joined, titled by the section, never "argv=".
 */
static void test_param_sweep_series(void **state)
{
	struct env *e = *state;
	struct fixture fx;
	struct analysis a;
	struct analysis_opts ao;
	struct plot_set set = { 0 };
	struct plot_opts o = { .out_dir = e->dir, .png = true, .render = false };
	char *path, *gp;
	size_t i, r;

	fx_init(&fx, "param-sweep");
	for (i = 0; i < 3; i++) {
		char params[160];

		/* (the fixture splits on blanks: argv without them) */
		snprintf(params, sizeof(params), "argv=sysbench,mutex,"
			 "--threads=%d,run param.threads=%d", 1 << i, 1 << i);
		fx_config(&fx, "sysbench", "command", params);
		for (r = 0; r < 3; r++) {
			char m[64];

			snprintf(m, sizeof(m), "throughput=%g",
				 1000.0 * (double)(1 << i) + (double)r);
			fx_run(&fx, false, RUN_OK, m, NULL, 0);
		}
	}
	fx_finish(&fx);
	analysis_opts_default(&ao);
	assert_int_equal(analysis_run(&fx.d, &ao, &a), 0);
	assert_int_equal(plot_experiment(&a, &o, &set), 0);
	path = xasprintf("%s/scaling-1.gp", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(gp);
	assert_non_null(strstr(gp, "'scaling-1.dat' index 0 using 1:2:3:4 with "
				   "yerrorlines"));
	assert_null(strstr(gp, "index 1 "));
	assert_null(strstr(gp, "argv="));
	/* One series: the title names the section, the key the marks. */
	assert_non_null(strstr(gp, "multiplot layout 1,1 title 'throughput "
				   "against param.threads: sysbench'"));
	assert_non_null(strstr(gp, "title 'mean, bars: its 95% CI'"));
	free(gp);
	free(path);
	path = xasprintf("%s/order.gp", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(strstr(gp, "param.threads=1'"));
	assert_null(strstr(gp, "argv="));
	free(gp);
	free(path);
	plot_set_release(&set);
	analysis_release(&a);
	fx_free(&fx);
}

static void test_missing_metrics(void **state)
{
	struct env *e = *state;
	struct fixture fx;
	struct analysis a;
	struct analysis_opts ao;
	struct plot_set set = { 0 };
	struct plot_opts o = { .out_dir = e->dir, .png = true,
			       .render = plot_have_gnuplot() };
	size_t i, skipped = 0;

	build_mixed(&fx);
	analysis_opts_default(&ao);
	assert_int_equal(analysis_run(&fx.d, &ao, &a), 0);
	assert_int_equal(plot_experiment(&a, &o, &set), 0);
	for (i = 0; i < set.n; i++) {
		const struct plot_file *f = &set.files[i];
		char *path, *text;

		if (f->skipped) {
			skipped++;
			assert_null(strchr(f->skipped, '\n'));
			continue;
		}
		assert_true(f->rendered == o.render);
		path = xasprintf("%s/%s", e->dir, f->name);
		text = slurp(path, NULL);
		assert_null(strstr(text, "inf"));
		assert_null(strstr(text, "nan"));
		free(text);
		free(path);
		path = xasprintf("%s/%.*s.dat", e->dir, (int)strlen(f->name) - 3,
				 f->name);
		text = slurp(path, NULL);
		assert_null(strstr(text, "inf"));
		assert_null(strstr(text, "nan"));
		free(text);
		free(path);
	}
	/* mutex: lockdep-1 with its three panels; the 0/1000/10000 sweep on
	 * evenly spaced categories. */
	assert_string_equal(set.files[0].name, "lockdep-1.gp");
	{
		char *path = xasprintf("%s/lockdep-1.gp", e->dir);
		char *gp = slurp(path, NULL);

		assert_non_null(strstr(gp, "set multiplot layout 1,3"));
		assert_non_null(strstr(gp, "set xtics ('0' 0, '1000' 1, '10000' 2)"));
		assert_non_null(strstr(gp, "'lock hand-offs/s'"));
		assert_non_null(strstr(gp, "'contended acquisitions (%)'"));
		free(gp);
		free(path);
	}
	/* cmd: nothing swept, no contention (2); files: no contention (1);
	 * broken: no value at all (2). */
	assert_int_equal(skipped, 5);
	plot_set_release(&set);
	analysis_release(&a);
	fx_free(&fx);
}

/*
 * creat and command count no user-space contention: the contention plot
 * takes the kernel's, klock_contended / elapsed_s per run (hand-worked
 * below); a run without klock metrics or without a duration is left out,
 * so no nan or inf reaches gnuplot; a section with neither is skipped.
 */
static void test_klock_contention(void **state)
{
	static const char want_dat[] =
		"# kernel lock contentions/s metric (one block per configuration)\n"
		"25 100\n30 110\n\n\n250 200\n0 210\n\n\n";
	struct env *e = *state;
	struct fixture fx;
	struct analysis a;
	struct plot_set set = { 0 };
	struct plot_opts o = { .out_dir = e->dir, .png = true,
			       .render = plot_have_gnuplot() };
	char *path, *text;
	size_t i;
	bool cmd_skipped = false;

	fx_init(&fx, "kernel");
	fx_config(&fx, "files", "creat", "processes=1");
	fx_run(&fx, false, RUN_OK, "throughput=100 klock_contended=50 elapsed_s=2",
	       NULL, 0);                                          /* 25/s */
	fx_run(&fx, false, RUN_OK, "throughput=110 klock_contended=30 elapsed_s=1",
	       NULL, 0);                                          /* 30/s */
	fx_run(&fx, false, RUN_OK, "throughput=120 elapsed_s=1", NULL, 0);
	fx_run(&fx, false, RUN_OK, "throughput=130 klock_contended=5 elapsed_s=0",
	       NULL, 0);
	fx_config(&fx, "files", "creat", "processes=2");
	fx_run(&fx, false, RUN_OK, "throughput=200 klock_contended=1000 elapsed_s=4",
	       NULL, 0);                                          /* 250/s */
	fx_run(&fx, false, RUN_OK, "throughput=210 klock_contended=0 elapsed_s=1",
	       NULL, 0);
	fx_config(&fx, "cmd", "command", "argv=x");
	fx_run(&fx, false, RUN_OK, "lat=1", NULL, 0);
	fx_finish(&fx);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	assert_int_equal(plot_experiment(&a, &o, &set), 0);
	for (i = 0; i < set.n; i++)
		if (!strcmp(set.files[i].name, "contention-2.gp")) {
			assert_non_null(set.files[i].skipped);
			assert_non_null(strstr(set.files[i].skipped,
					       "no contention rate and no kernel lock counts"));
			cmd_skipped = true;
		}
	assert_true(cmd_skipped);
	path = xasprintf("%s/contention-1.dat", e->dir);
	text = slurp(path, NULL);
	assert_string_equal(text, want_dat);
	free(text);
	free(path);
	path = xasprintf("%s/contention-1.gp", e->dir);
	text = slurp(path, NULL);
	assert_non_null(strstr(text, "set xlabel 'kernel lock contentions/s'\n"));
	assert_non_null(strstr(text, "set format x '%.1s%c'\n"));
	assert_null(strstr(text, "nan"));
	assert_null(strstr(text, "inf"));
	free(text);
	free(path);
	if (o.render) {
		path = xasprintf("%s/contention-1.png", e->dir);
		assert_true(file_size(path) > 0);
		free(path);
	}
	plot_set_release(&set);
	analysis_release(&a);
	fx_free(&fx);
}

/*
 * Markdown: a backtick in a label or in the parameters cannot end its
 * code span and open raw HTML (CommonMark 6.1: the span is fenced by more
 * backticks than it holds); text cells escape markup; no NaN appears.
 */
static void test_markdown_escaping(void **state)
{
	struct fixture fx;
	struct analysis a;
	struct plot_set none = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fx_init(&fx, "md *name*");
	free(fx.d.exp.label);
	fx.d.exp.label = xstrdup("`<img src=x onerror=alert(1)>`");
	fx_meta(&fx, "hostname", "h|<b>");
	fx_config(&fx, "s", "noop", "threads=1 note=a`b<script>");
	fx_run(&fx, false, RUN_OK, "throughput=10", NULL, 0);
	fx_finish(&fx);
	assert_int_equal(analysis_run(&fx.d, NULL, &a), 0);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(markdown_report(&a, &none, ".", f), 0);
	fclose(f);
	assert_non_null(strstr(out, "label `` `<img src=x onerror=alert(1)>` ``"));
	assert_non_null(strstr(out, "``threads=1 note=a`b<script>``"));
	assert_non_null(strstr(out, "# contend report: md \\*name\\*"));
	assert_non_null(strstr(out, "| hostname | h\\|\\<b\\> |"));
	assert_null(strstr(out, "nan"));
	/* One value: no interval, never [nan, nan]. */
	assert_null(strstr(out, "[nan"));
	free(out);
	analysis_release(&a);
	fx_free(&fx);
}

/* compare --plot: a gain flagged misleading-throughput reads "suspect"
 * in amber, not a green "faster" (main painted it green). */
static void test_compare_suspect(void **state)
{
	struct env *e = *state;
	struct compare_flag flag = { .name = "misleading-throughput",
				     .side = "both", .message = (char *)"m" };
	struct comparison cmp[2] = {
		{ .section = "s", .nflags = 1, .flags = &flag },
		{ .section = "t" },
	};
	struct compare_result r = { .metric = "throughput", .n = 2, .cmp = cmp };
	struct plot_opts o = { .out_dir = e->dir, .png = true };
	struct plot_set set = { 0 };
	char *path = xasprintf("%s/compare.gp", e->dir), *gp;
	size_t i;

	r.opts.threshold_pct = 1;
	r.opts.confidence = 0.95;
	for (i = 0; i < 2; i++) {
		cmp[i].st.verdict = VERDICT_FASTER;
		cmp[i].st.change_pct = 15;
		cmp[i].st.base.mean = 100;
		cmp[i].st.cand.mean = 115;
	}
	cmp[1].st.change_ci_low_pct = 10;
	cmp[1].st.change_ci_high_pct = 20;
	cmp[0].st.change_ci_low_pct = cmp[0].st.change_ci_high_pct = NAN;
	assert_int_equal(plot_compare(&r, "a", "b", &o, &set), 0);
	gp = slurp(path, NULL);
	assert_non_null(strstr(gp, "set label 2 'faster (suspect)' at 1, graph 1.05 "
				   "center font ',8' textcolor rgb '#b86e00'"));
	assert_non_null(strstr(gp, "set label 4 'faster' at 2, graph 1.05 "
				   "center font ',8' textcolor rgb '#007700'"));
	assert_non_null(strstr(gp, "set label 1 '+15.0%'"));
	/* Two panels: the sides, then the change with its interval; the
	 * key says what (!) and the grey band are. */
	assert_non_null(strstr(gp, "set multiplot layout 2,1"));
	assert_non_null(strstr(gp, "using 1:8:9:10:11 with yerrorbars"));
	assert_non_null(strstr(gp, "title 'change, 95% CI'"));
	assert_non_null(strstr(gp, "title '(!) flagged: see the text'"));
	assert_non_null(strstr(gp, "title 'within ±1%: no change'"));
	free(gp);
	/* The change and its interval in the data, as compare_run gave
	 * them; the suspect gain amber, the other green; no interval: the
	 * point alone. */
	free(path);
	path = xasprintf("%s/compare.dat", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(strstr(gp, " 15 15 15 12086784\n2 "));
	assert_non_null(strstr(gp, " 15 10 20 30464\n"));
	free(gp);
	free(path);
	plot_set_release(&set);
}

/* s with every run of blanks one space, trimmed; in place. */
static void squeeze(char *s)
{
	char *w = s, *r;

	for (r = s; *r; r++) {
		if (isspace((unsigned char)*r)) {
			if (w > s && w[-1] != ' ')
				*w++ = ' ';
		} else {
			*w++ = *r;
		}
	}
	while (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

/* The five entities escape_html writes, back to their characters. */
static void unescape_html(char *s)
{
	static const char *const ent[][2] = {
		{ "&quot;", "\"" }, { "&#39;", "'" }, { "&lt;", "<" },
		{ "&gt;", ">" }, { "&amp;", "&" },
	};
	size_t k;

	for (k = 0; k < ARRAY_SIZE(ent); k++) {
		char *p;

		while ((p = strstr(s, ent[k][0])))
			memmove(p + 1, p + strlen(ent[k][0]),
				strlen(p + strlen(ent[k][0])) + 1),
				*p = ent[k][1][0];
	}
}

/*
 * The HTML report carries every line of the text report's header (the
 * experiment, host and kernel, kernel tracing, runs), the same words:
 * the text header up to its first blank line, unwrapped, equals the
 * HTML's header paragraphs, unescaped.  Main's HTML had no tracing line.
 */
static void test_html_header(void **state)
{
	struct env *e = *state;
	char *path = xasprintf("%s/report.html", e->dir), *html, *text = NULL;
	char *end, *h = xstrdup(""), *p;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct plot_set none = { 0 };

	assert_int_equal(report_text(f, &e->a), 0);
	fclose(f);
	end = strstr(text, "\n\n");
	assert_non_null(end);
	*end = '\0';
	assert_non_null(strstr(text, "kernel tracing: "));
	squeeze(text);
	assert_int_equal(html_report(&e->a, &none, e->dir, path), 0);
	html = slurp(path, NULL);
	for (p = html; (p = strstr(p, "<p class=\"head\">")); ) {
		char *q = strstr(p += 16, "</p>"), *t;

		assert_non_null(q);
		t = xasprintf("%s %.*s", h, (int)(q - p), p);
		free(h);
		h = t;
	}
	unescape_html(h);
	squeeze(h);
	assert_string_equal(h, text);
	free(h);
	free(html);
	free(text);
	free(path);
}

/*
 * Every mark has its legend: (!) said in the keys of the contention,
 * order and fairness figures; the order figure names its lines measured
 * runs and its crosses warm-ups; a configuration of one thread, and one
 * whose threads all did their fair share, are said in words, no bars.
 */
static void test_legends(void **state)
{
	struct env *e = *state;
	struct fixture fx;
	struct analysis a;
	struct analysis_opts ao;
	struct plot_set set = { 0 };
	struct plot_opts o = { .out_dir = e->dir, .png = true, .render = false };
	char *path, *gp;
	size_t r;

	write_plots(e, false);
	path = xasprintf("%s/contention-1.gp", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(strstr(gp, "title '(!) and open marks: flagged; "
				   "contend report says why'"));
	assert_non_null(strstr(gp, "Pearson r = "));
	free(gp);
	free(path);
	path = xasprintf("%s/order.gp", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(strstr(gp, "title 'measured runs, a line per configuration'"));
	assert_non_null(strstr(gp, "'warm-up runs (x, no line: not analysed)'"));
	assert_non_null(strstr(gp, "title '(!) threads=4'"));
	free(gp);
	free(path);
	path = xasprintf("%s/fairness.gp", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(strstr(gp, "title '(!) flagged: contend report says why'"));
	assert_non_null(strstr(gp, "title 'fair share: every thread the same'"));
	/* the hostile section's one thread */
	assert_non_null(strstr(gp, "\"one thread:\\nnothing to share\" at 4,"));
	free(gp);
	free(path);
	plot_set_release(&set);

	/* four threads, each a quarter of every run: no variation; fixed
	 * work (jobs): harmonic means; a configuration of one run: no
	 * interval */
	fx_init(&fx, "even");
	fx_config(&fx, "even", "noop", "threads=4 jobs=100");
	for (r = 0; r < 3; r++) {
		uint64_t ops[4] = { 500 + r, 500 + r, 500 + r, 500 + r };
		char m[64];

		snprintf(m, sizeof(m), "throughput=%zu elapsed_s=1", 1000 + r);
		fx_run(&fx, false, RUN_OK, m, ops, 4);
	}
	fx_config(&fx, "even", "noop", "threads=2 jobs=100");
	{
		uint64_t ops[2] = { 900, 100 };

		fx_run(&fx, false, RUN_OK, "throughput=1000 elapsed_s=1", ops, 2);
	}
	fx_finish(&fx);
	analysis_opts_default(&ao);
	assert_int_equal(analysis_run(&fx.d, &ao, &a), 0);
	assert_int_equal(plot_experiment(&a, &o, &set), 0);
	path = xasprintf("%s/fairness.gp", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(strstr(gp, "\"4 threads, each\\nits fair share 1/4:"
				   "\\nno variation\" at 1,"));
	free(gp);
	free(path);
	/* no bar for the even configuration (x 0.7 to 1.3), two for the
	 * other (1.8, 2.2: 1.8 and 0.2 of the fair share) */
	path = xasprintf("%s/fairness.dat", e->dir);
	gp = slurp(path, NULL);
	assert_null(strstr(gp, "\n0.7"));
	assert_null(strstr(gp, "\n1.1"));
	assert_non_null(strstr(gp, "\n1.800000 1.8"));
	assert_non_null(strstr(gp, "\n2.200000 0.2"));
	free(gp);
	free(path);
	path = xasprintf("%s/distribution.gp", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(strstr(gp, "title 'mean (harmonic: fixed work) and its "
				   "95% CI'"));
	assert_non_null(strstr(gp, "set label 'no interval' at 2.35, 1000 "));
	assert_null(strstr(gp, "set label 'no interval' at 1.35"));
	free(gp);
	free(path);
	plot_set_release(&set);
	analysis_release(&a);
	fx_free(&fx);
}

/*
 * Many configurations (more than 8): the fairness figure's names and its
 * words go upwards, where slanted names and words side by side run into
 * each other; a configuration whose runs have no per-thread counts says
 * so.  A sweep of several series keeps room under its panels for the
 * key's lines (one a series, one for the marks) below the x label.
 */
static void test_many_configs(void **state)
{
	struct env *e = *state;
	struct fixture fx;
	struct analysis a;
	struct analysis_opts ao;
	struct plot_set set = { 0 };
	struct plot_opts o = { .out_dir = e->dir, .png = true, .render = false };
	char *path, *gp, params[64], m[64];
	size_t c, r;

	fx_init(&fx, "many");
	for (c = 0; c < 10; c++) {
		snprintf(params, sizeof(params), "threads=%zu worklen=%zu",
			 c % 2 + 1, c / 2 * 100);
		fx_config(&fx, "many", "noop", params);
		for (r = 0; r < 3; r++) {
			uint64_t ops[2] = { 600 + r, c == 8 ? 600 + r : 400 };

			snprintf(m, sizeof(m), "throughput=%zu", 1000 + c + r);
			if (c == 9)
				fx_run(&fx, false, RUN_OK, m, NULL, 0);
			else
				fx_run(&fx, false, RUN_OK, m, ops, c % 2 + 1);
		}
	}
	fx_finish(&fx);
	analysis_opts_default(&ao);
	assert_int_equal(analysis_run(&fx.d, &ao, &a), 0);
	assert_int_equal(plot_experiment(&a, &o, &set), 0);
	path = xasprintf("%s/fairness.gp", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(gp);
	assert_non_null(strstr(gp, "set xtics rotate by 90 right ("));
	assert_null(strstr(gp, "rotate by 30"));
	/* config 9: one thread (threads=1: c % 2 + 1 for c = 8) */
	assert_non_null(strstr(gp, "\"one thread: nothing to share\" at 9, "
				   "graph 0.03 left rotate by 90"));
	assert_non_null(strstr(gp, "\"no per-thread counts\" at 10, graph "
				   "0.03 left rotate by 90"));
	free(gp);
	free(path);
	/* worklen (five values) swept in two series, threads = 1 and 2:
	 * 2 + 6 lines under the panels (7 before, for any number) */
	path = xasprintf("%s/scaling-1.gp", e->dir);
	gp = slurp(path, NULL);
	assert_non_null(gp);
	assert_non_null(strstr(gp, "set key below\nset bmargin 8\n"));
	free(gp);
	free(path);
	plot_set_release(&set);
	analysis_release(&a);
	fx_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_golden_scripts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_configs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quoting, setup, teardown),
		cmocka_unit_test(test_label_cut),
		cmocka_unit_test_setup_teardown(test_render, setup, teardown),
		cmocka_unit_test_setup_teardown(test_html, setup, teardown),
		cmocka_unit_test_setup_teardown(test_html_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_metrics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_param_sweep_series, setup, teardown),
		cmocka_unit_test_setup_teardown(test_klock_contention, setup, teardown),
		cmocka_unit_test(test_markdown_escaping),
		cmocka_unit_test_setup_teardown(test_compare_suspect, setup, teardown),
		cmocka_unit_test_setup_teardown(test_html_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_legends, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
