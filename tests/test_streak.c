/*
 * test_streak.c - the per-thread timeline from storage to the streak
 * figure: a run of a fake workload (noop) recorded with a known timeline,
 * loaded back, and its figure's data and script checked against values
 * worked out by hand; rendered when gnuplot is installed.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "plots/plot.h"
#include "tests/store_fixture.h"
#include "tests/tmpdir.h"

static const struct fx_names names = { "streak", "", "a", "b", "boom" };

/*
 * Two threads, five 10 ms intervals.  Shares of thread 0: 1, 1, 10/11 =
 * 0.909 (>= 0.9: still alone), 0, 0.5; thread 1: 0, 0, 1/11, 1, 0.5.  The
 * longest streak is intervals 0-2, thread 0: 30 ms.
 */
static const uint64_t tl[10] = { 10, 10, 10, 0, 5, 0, 0, 1, 10, 5 };

struct env {
	char dir[64];   /* first: see tmpdir_teardown */
	struct store *s;
	struct dataset d;
	int64_t id;
};

/*
 * Records a 2-thread timeline of nticks intervals for the run of seq 2, a
 * measured ok run of configuration 0 (store_fixture.h).
 */
static int record_timeline(struct env *e, double tick_s, size_t nticks,
			   const uint64_t *ops)
{
	struct run_record r = { 0 };
	size_t k;

	for (k = 0; k < e->d.nruns && e->d.runs[k].seq != 2; k++)
		;
	r.status = RUN_OK;
	r.env_pad = -1;
	r.tick_s = tick_s;
	r.tick_threads = 2;
	r.nticks = nticks;
	r.timeline = ops;
	return store_run_record(e->s, e->d.runs[k].id, &r);
}

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	if (!e || tmpdir_create(e->dir, sizeof(e->dir), "streak"))
		return -1;
	if (store_open(":memory:", STORE_CREATE, &e->s))
		return -1;
	e->id = fx_build(e->s, &names);
	if (e->id < 0 || store_load(e->s, e->id, &e->d) ||
	    record_timeline(e, 0.01, 5, tl))
		return -1;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	dataset_release(&e->d);
	store_close(e->s);
	return tmpdir_teardown(state);
}

static char *slurp(const char *dir, const char *name)
{
	char path[128];
	FILE *f;
	char *buf = calloc(1, 65536);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(buf);
	assert_true(fread(buf, 1, 65535, f) > 0);
	fclose(f);
	return buf;
}

static void test_data_and_script(void **state)
{
	struct env *e = *state;
	struct plot_opts o = { .out_dir = e->dir, .png = true, .render = false };
	struct plot_set set = { 0 };
	char *dat, *gp;

	assert_int_equal(plot_streaks(&e->d, e->s, &o, &set), 0);
	/* only configuration 1 (index 0) has a timeline */
	assert_int_equal(set.n, 1);
	assert_string_equal(set.files[0].name, "streak-1.gp");
	dat = slurp(e->dir, "streak-1.dat");
	assert_non_null(strstr(dat, "5.000000 0 1.000000 10\n"
				    "5.000000 1 0.000000 0\n\n"
				    "15.000000 0 1.000000 10\n"));
	assert_non_null(strstr(dat, "25.000000 0 0.909091 10\n"
				    "25.000000 1 0.090909 1\n"));
	assert_non_null(strstr(dat, "45.000000 0 0.500000 5\n"
				    "45.000000 1 0.500000 5\n"));
	gp = slurp(e->dir, "streak-1.gp");
	assert_non_null(strstr(gp, "longest streak 30 ms, thread 0"));
	assert_non_null(strstr(gp, "with image"));
	assert_non_null(strstr(gp, "set xrange [0.000000:50.000000]"));
	assert_null(strstr(gp, "shown:"));
	free(dat);
	free(gp);
	plot_set_release(&set);
}

/* An interval in which nobody ran is NaN, drawn as the background. */
static void test_idle_interval(void **state)
{
	static const uint64_t idle[4] = { 3, 0, 1, 0 };
	struct env *e = *state;
	struct plot_opts o = { .out_dir = e->dir, .png = true, .render = false };
	struct plot_set set = { 0 };
	char *dat;

	assert_int_equal(record_timeline(e, 0.002, 2, idle), 0);
	assert_int_equal(plot_streaks(&e->d, e->s, &o, &set), 0);
	dat = slurp(e->dir, "streak-1.dat");
	assert_non_null(strstr(dat, "1.000000 0 0.750000 3\n"
				    "1.000000 1 0.250000 1\n\n"));
	assert_non_null(strstr(dat, "3.000000 0 nan 0\n3.000000 1 nan 0\n"));
	free(dat);
	plot_set_release(&set);
}

/*
 * Under fixed work the threads left after the first one finished run
 * alone: thread 0 does 5, 5, 5 then nothing, thread 1 5, 5, 5, 10, 10,
 * 10.  Judged whole, intervals 3-5 are a streak of thread 1 (3); under
 * fixed work they are the tail (from interval 3, thread 0 done) and the
 * first three, half and half, hold none.
 */
static void test_fixed_work_tail(void **state)
{
	static const uint64_t ops[12] = { 5, 5, 5, 0, 0, 0,
					  5, 5, 5, 10, 10, 10 };
	const struct run_timeline t = { .run_id = 1, .interval_s = 0.001,
					.threads = 2, .nticks = 6,
					.ops = (uint64_t *)ops };
	struct plot_streak st;

	(void)state;
	plot_streak_find(&t, false, &st);
	assert_int_equal(st.len, 3);
	assert_int_equal(st.thread, 1);
	assert_int_equal(st.tail, 6);
	plot_streak_find(&t, true, &st);
	assert_int_equal(st.len, 0);
	assert_int_equal(st.tail, 3);
	assert_int_equal(st.done, 0);
}

/* Every interval shared: the figure says no streak shows at this
 * interval and what to record instead, not "longest streak 0 ms".  The
 * fixture's run has no hand-off count: the verdict cannot weigh the
 * interval against the mean streak and does not pretend to. */
static void test_no_streak(void **state)
{
	static const uint64_t mixed[6] = { 5, 6, 5, 5, 4, 5 };
	struct env *e = *state;
	struct plot_opts o = { .out_dir = e->dir, .png = true, .render = false };
	struct plot_set set = { 0 };
	char *gp;

	assert_int_equal(record_timeline(e, 0.01, 3, mixed), 0);
	assert_int_equal(plot_streaks(&e->d, e->s, &o, &set), 0);
	gp = slurp(e->dir, "streak-1.gp");
	assert_null(strstr(gp, "longest streak 0 ms"));
	assert_non_null(strstr(gp, "interval 10 ms: no thread ran alone for "
				   "20 ms (every interval had two threads or "
				   "more); set timeline = auto (1 ms)"));
	assert_null(strstr(gp, "mean streak"));
	free(gp);
	plot_set_release(&set);
}

/*
 * The mean streak is the run's mean time between hand-offs of one lock:
 * 0.5 s with 100,000 hand-offs is 5 us; two locks changing hands 100,000
 * times in all, each every 10 us.
 */
static void test_mean_streak(void **state)
{
	(void)state;
	assert_float_equal(plot_mean_streak(0.5, 1e5, 1), 5e-6, 1e-18);
	assert_float_equal(plot_mean_streak(0.5, 1e5, 2), 1e-5, 1e-18);
	assert_float_equal(plot_mean_streak(2, 500, 0), 4e-3, 1e-15);
	assert_true(isnan(plot_mean_streak(0.5, 0, 1)));
	assert_true(isnan(plot_mean_streak(0, 10, 1)));
}

/*
 * The verdict without a streak, interval against mean streak: 10 ms
 * intervals with a hand-off every 5 us are too coarse, and auto's 1 ms
 * is the advice; at 1 ms the lock still changes hands within every
 * interval (nothing finer to advise); a streak found gives its length and
 * the mean beside it.  No thread ran alone for two intervals: a stretch
 * that long would fill one interval whole.
 */
static void test_verdict(void **state)
{
	static const uint64_t ops[4] = { 5, 5, 5, 5 };
	struct run_timeline t = { .run_id = 1, .interval_s = 0.01,
				  .threads = 2, .nticks = 2,
				  .ops = (uint64_t *)ops };
	struct plot_streak none = { .tail = 2 }, one = { .len = 3, .tail = 2,
							 .thread = 1 };
	char *v;

	(void)state;
	v = plot_streak_verdict(&t, &none, 5e-6);
	assert_string_equal(v, "interval 10 ms: coarser than the mean streak "
			       "(hand-off every 5 us), no thread ran alone for "
			       "20 ms; set timeline = auto (1 ms)");
	free(v);
	t.interval_s = 0.001;
	v = plot_streak_verdict(&t, &none, 2.5e-4);
	assert_string_equal(v, "no thread ran alone for 2 ms: the lock changed "
			       "hands every 250 us on average, within every "
			       "interval");
	free(v);
	v = plot_streak_verdict(&t, &none, NAN);
	assert_string_equal(v, "no thread ran alone for 2 ms (every interval "
			       "had two threads or more)");
	free(v);
	v = plot_streak_verdict(&t, &one, 0.0042);
	assert_string_equal(v, "longest streak 3 ms, thread 1; hand-off every "
			       "4.2 ms");
	free(v);
}

/*
 * A long run at a fine interval: 1000 intervals of 1 ms, both threads in
 * each but 700-719, thread 1's alone.  The figure shows the 400 intervals
 * around that streak (centre 710: 510-910 ms), and says so.
 */
static void test_window(void **state)
{
	struct env *e = *state;
	struct plot_opts o = { .out_dir = e->dir, .png = true, .render = false };
	struct plot_set set = { 0 };
	uint64_t *ops = calloc(2000, sizeof(*ops));
	size_t k;
	char *gp;

	assert_non_null(ops);
	for (k = 0; k < 1000; k++) {
		ops[k] = k >= 700 && k < 720 ? 0 : 5;
		ops[1000 + k] = 5;
	}
	assert_int_equal(record_timeline(e, 0.001, 1000, ops), 0);
	assert_int_equal(plot_streaks(&e->d, e->s, &o, &set), 0);
	gp = slurp(e->dir, "streak-1.gp");
	assert_non_null(strstr(gp, "longest streak 20 ms, thread 1"));
	assert_non_null(strstr(gp, "set xrange [510.000000:910.000000]"));
	assert_non_null(strstr(gp, "shown: 510-910 ms of 1000, around the "
				   "longest streak"));
	free(gp);
	free(ops);
	plot_set_release(&set);
}

static void test_render(void **state)
{
	struct env *e = *state;
	struct plot_opts o = { .out_dir = e->dir, .png = true, .render = true };
	struct plot_set set = { 0 };
	char path[128];
	struct stat st;

	if (!plot_have_gnuplot()) {
		printf("skipped: gnuplot is not installed\n");
		skip();
	}
	assert_int_equal(plot_streaks(&e->d, e->s, &o, &set), 0);
	assert_true(set.files[0].rendered);
	snprintf(path, sizeof(path), "%s/streak-1.png", e->dir);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 1000);
	plot_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_data_and_script, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_idle_interval, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_render, setup, teardown),
		cmocka_unit_test(test_fixed_work_tail),
		cmocka_unit_test_setup_teardown(test_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_streak, setup, teardown),
		cmocka_unit_test(test_mean_streak),
		cmocka_unit_test(test_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
