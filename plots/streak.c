/*
 * streak.c - the streak figure: for each configuration whose runs recorded
 * a timeline (`timeline = auto`), which thread did the operations when, in
 * one representative run (the one of median throughput).  Time runs
 * across, one row per thread, the colour is the thread's share of that
 * interval's operations: a lock that changes hands shows every row busy,
 * the lockdep effect (threads running alone in long streaks) shows one
 * row lit at a time.  The title gives the longest streak: consecutive
 * intervals in which one thread did STREAK_ALONE of the operations or more;
 * under fixed work (jobs = N) only before the first thread finished (what
 * comes after is the others finishing alone, not a streak: the figure
 * marks where it starts).  An interval too coarse to show any streak is
 * said to be, against the run's mean time between hand-offs (a streak's
 * mean length), with the interval to record instead.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "lib/escape.h"
#include "plots/plot.h"
#include "lib/util.h"

/* An interval belongs to a streak when one thread did this share or more. */
#define STREAK_ALONE 0.9
/*
 * At most this many intervals are shown (the data file has them all): a
 * long run at a fine interval puts many intervals in a pixel and hides
 * the streaks, so the figure shows the window around the longest one.
 */
#define STREAK_WINDOW 400
/* `timeline = auto`'s interval (runner/workloads/probe.h
 * TIMELINE_AUTO_FINEST): the one to advise when an interval is coarser. */
#define STREAK_FINE_S 0.001

static size_t run_index(const struct dataset *d, int64_t id)
{
	size_t r;

	for (r = 0; r < d->nruns; r++)
		if (d->runs[r].id == id)
			return r;
	return d->nruns;
}

static int cmp_by_tput(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The timeline of the measured run of median throughput, or NULL; its
 * run's index in d in *run. */
static const struct run_timeline *representative(const struct dataset *d,
						 const struct run_timeline *t,
						 size_t n, size_t *run)
{
	double *pair = xcalloc(2 * (n ? n : 1), sizeof(*pair));
	int m = dataset_metric(d, "throughput");
	const struct run_timeline *pick = NULL;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		size_t r = run_index(d, t[i].run_id);

		if (r == d->nruns || !analysis_measured(d, r) || !t[i].nticks)
			continue;
		pair[2 * k] = m >= 0 ? dataset_value(d, r, m) : 0;
		pair[2 * k + 1] = (double)i;
		k++;
	}
	if (k) {
		qsort(pair, k, 2 * sizeof(*pair), cmp_by_tput);
		pick = &t[(size_t)pair[2 * ((k - 1) / 2) + 1]];
		*run = run_index(d, pick->run_id);
	}
	free(pair);
	return pick;
}

/* Where the fixed-work tail starts: after the first thread's last
 * interval with operations (a thread that did none is left out). */
static void find_tail(const struct run_timeline *t, struct plot_streak *out)
{
	size_t i, k;

	out->tail = t->nticks;
	out->done = 0;
	for (i = 0; i < t->threads; i++) {
		size_t last = t->nticks;

		for (k = t->nticks; k-- > 0;)
			if (t->ops[i * t->nticks + k]) {
				last = k;
				break;
			}
		if (last < t->nticks && last + 1 < out->tail) {
			out->tail = last + 1;
			out->done = i;
		}
	}
}

void plot_streak_find(const struct run_timeline *t, bool fixed_work,
		      struct plot_streak *out)
{
	size_t k, i, cur = 0, who_cur = 0;

	memset(out, 0, sizeof(*out));
	out->tail = t->nticks;
	if (fixed_work)
		find_tail(t, out);
	for (k = 0; k < out->tail; k++) {
		uint64_t sum = 0, top = 0;
		size_t who = 0;

		for (i = 0; i < t->threads; i++) {
			uint64_t v = t->ops[i * t->nticks + k];

			sum += v;
			if (v > top) {
				top = v;
				who = i;
			}
		}
		if (sum && (double)top >= STREAK_ALONE * (double)sum) {
			cur = cur && who_cur == who ? cur + 1 : 1;
			who_cur = who;
		} else {
			cur = 0;
		}
		if (cur > out->len) {
			out->len = cur;
			out->thread = who_cur;
			out->start = k + 1 - cur;
		}
	}
}

/* "x_ms thread share" per interval and thread, blocks by interval. */
static void write_data(FILE *f, const struct run_timeline *t)
{
	size_t k, i;

	fprintf(f, "# time_ms thread share_of_interval ops  (run %lld)\n",
		(long long)t->run_id);
	for (k = 0; k < t->nticks; k++) {
		uint64_t sum = 0;

		for (i = 0; i < t->threads; i++)
			sum += t->ops[i * t->nticks + k];
		for (i = 0; i < t->threads; i++) {
			uint64_t v = t->ops[i * t->nticks + k];

			/* NaN: nobody ran, drawn as the grey background */
			fprintf(f, "%.6f %zu %.6f %llu\n",
				1e3 * t->interval_s * ((double)k + 0.5), i,
				sum ? (double)v / (double)sum : NAN,
				(unsigned long long)v);
		}
		fputc('\n', f);
	}
}

double plot_mean_streak(double elapsed_s, double handoffs, double locks)
{
	if (!(elapsed_s > 0) || !(handoffs > 0))
		return NAN;
	return elapsed_s * (locks >= 1 ? locks : 1) / handoffs;
}

/* A time in its unit, two digits or whole: "6.6 us", "250 us", "2.5 ms". */
static char *format_time(double s)
{
	const char *unit = s < 1e-3 ? "us" : s < 1 ? "ms" : "s";
	double v = s < 1e-3 ? 1e6 * s : s < 1 ? 1e3 * s : s;

	return xasprintf(v >= 10 ? "%.0f %s" : "%.2g %s", v, unit);
}

char *plot_streak_verdict(const struct run_timeline *t,
			  const struct plot_streak *s, double mean_s)
{
	double ms = 1e3 * t->interval_s;
	/* finer than auto's finest interval cannot be asked for usefully */
	bool coarse = t->interval_s > 1.001 * STREAK_FINE_S;
	char *every = isnan(mean_s) ? NULL : format_time(mean_s), *r;

	if (s->len)
		r = xasprintf("longest streak %g ms, thread %zu%s%s%s", ms *
			      (double)s->len, s->thread,
			      s->tail < t->nticks ?
			      " (before the first thread finished)" : "",
			      every ? "; hand-off every " : "",
			      every ? every : "");
	else if (every && mean_s < t->interval_s && coarse)
		r = xasprintf("interval %g ms: coarser than the mean streak "
			      "(hand-off every %s), no thread ran alone for "
			      "%g ms; set timeline = auto (1 ms)", ms, every,
			      2 * ms);
	else if (every && mean_s < t->interval_s)
		r = xasprintf("no thread ran alone for %g ms: the lock changed "
			      "hands every %s on average, within every "
			      "interval", 2 * ms, every);
	else if (coarse)
		r = xasprintf("interval %g ms: no thread ran alone for %g ms "
			      "(every interval had two threads or more); set "
			      "timeline = auto (1 ms) to see shorter streaks",
			      ms, 2 * ms);
	else
		r = xasprintf("no thread ran alone for %g ms (every interval "
			      "had two threads or more)", 2 * ms);
	free(every);
	return r;
}

/* The intervals shown, [*lo, *hi): all of them, or STREAK_WINDOW around
 * the longest streak (from the start without one). */
static void streak_window(const struct run_timeline *t,
			  const struct plot_streak *s, size_t *lo, size_t *hi)
{
	size_t mid = s->len ? s->start + s->len / 2 : STREAK_WINDOW / 2;

	*lo = 0;
	*hi = t->nticks;
	if (t->nticks <= STREAK_WINDOW)
		return;
	*lo = mid > STREAK_WINDOW / 2 ? mid - STREAK_WINDOW / 2 : 0;
	if (*lo + STREAK_WINDOW > t->nticks)
		*lo = t->nticks - STREAK_WINDOW;
	*hi = *lo + STREAK_WINDOW;
}

static void write_script(FILE *f, const struct dataset *d, size_t c,
			 const struct run_timeline *t, const char *base,
			 const struct plot_streak *s, double mean_s)
{
	const struct ds_config *cf = &d->configs[c];
	int height = 240 + 18 * (int)(t->threads < 40 ? t->threads : 40);
	double ms = 1e3 * t->interval_s;
	char *title, *verdict = plot_streak_verdict(t, s, mean_s);
	size_t lo, hi;

	title = xasprintf("streak figure of experiment %lld",
			  (long long)d->exp.id);
	plot_comment_head(f, title, base);
	free(title);
	plot_terminal(f, base, height);
	title = xasprintf("who ran when, config %zu [%s] %s, run %lld (median "
			  "throughput)", c + 1, cf->section, cf->workload,
			  (long long)t->run_id);
	fputs("set title ", f);
	escape_gnuplot(f, title);
	free(title);
	/* The verdict under the title, over the plot: never on the data. */
	fputs("\nset tmargin 4\nset label 2 ", f);
	escape_gnuplot(f, verdict);
	fputs(" at graph 0.5, graph 1.04 center", f);
	free(verdict);
	/* Fixed work: the tail, where the threads left finish alone. */
	if (s->tail < t->nticks)
		fprintf(f, "\nset arrow 1 from %.6f, graph 0 to %.6f, graph 1 "
			   "nohead dt 2 lw 2 lc rgb 'black' front",
			ms * (double)s->tail, ms * (double)s->tail);
	fprintf(f, "\nset xlabel 'time in the run (ms); %g ms intervals; "
		   "grey: no thread made progress", ms);
	streak_window(t, s, &lo, &hi);
	if (hi - lo < t->nticks)
		fprintf(f, "; shown: %g-%g ms of %g, around the longest streak",
			ms * (double)lo, ms * (double)hi, ms * (double)t->nticks);
	if (s->tail < t->nticks)
		fprintf(f, "; dashed: thread %zu done, the others finish "
			   "alone after it (not a streak)", s->done);
	fprintf(f, "'\n"
		   "set ylabel 'thread'\n"
		   "set yrange [-0.5:%zu.5]\nset ytics 1\n"
		   "set xrange [%.6f:%.6f]\n"
		   "set cbrange [0:1]\n"
		   "set cblabel 'share of ops'\n"
		   "set object 1 rectangle from graph 0,0 to graph 1,1 behind "
		   "fillcolor rgb '#d0d0d0' fillstyle solid noborder\n"
		   "set palette defined (0 'white', 0.25 '#fde0c5', 0.6 '#ec7f4f', 1 '#7f1d1d')\n"
		   "set border 3\nset tics nomirror\nunset key\nplot ",
		t->threads - 1, ms * (double)lo, ms * (double)hi);
	plot_file_name(f, base, "dat");
	fputs(" using 1:2:3 with image\n", f);
}

/* Fixed work: jobs = N (N > 0) among the configuration's parameters. */
static bool fixed_work(const struct ds_config *cf)
{
	const char *jobs = ds_config_param(cf, "jobs");
	double n;

	return jobs && !parse_double(jobs, &n) && n > 0;
}

/* The run's mean time between hand-offs of one lock, or NaN. */
static double mean_streak(const struct dataset *d, size_t c, size_t r)
{
	int h = dataset_metric(d, "handoffs"), e = dataset_metric(d,
								  "elapsed_s");
	const char *locks = ds_config_param(&d->configs[c], "locks");
	double nlocks = 1;

	if (h < 0 || e < 0 || r >= d->nruns)
		return NAN;
	if (locks && parse_double(locks, &nlocks))
		nlocks = 1;
	return plot_mean_streak(dataset_value(d, r, e), dataset_value(d, r, h),
				nlocks);
}

static void add_file(struct plot_set *out, const char *base, const char *title,
		     bool rendered)
{
	out->files = xrealloc(out->files, (out->n + 1) * sizeof(*out->files));
	memset(&out->files[out->n], 0, sizeof(*out->files));
	out->files[out->n].name = xasprintf("%s.gp", base);
	out->files[out->n].title = xstrdup(title);
	out->files[out->n].rendered = rendered;
	out->n++;
}

/* One configuration's figure, when its runs have timelines. */
static int streak_config(const struct dataset *d, struct store *s, size_t c,
			 const struct plot_opts *o, struct plot_set *out)
{
	struct run_timeline *t = NULL;
	const struct run_timeline *pick;
	struct plot_streak streak;
	char *base = xasprintf("streak-%zu", c + 1), *path = NULL, *title;
	FILE *dat = NULL, *gp = NULL;
	size_t n = 0, run = 0;
	bool rendered = false;
	int ret = -1;

	if (store_load_timelines(s, d->exp.id, d->configs[c].id, &t, &n))
		goto out;
	pick = representative(d, t, n, &run);
	ret = 0;
	if (!pick)
		goto out;
	ret = -1;
	path = xasprintf("%s/%s.dat", o->out_dir, base);
	dat = fopen(path, "w");
	free(path);
	path = xasprintf("%s/%s.gp", o->out_dir, base);
	gp = fopen(path, "w");
	if (!dat || !gp) {
		error("%s: %s", path, strerror(errno));
		goto out;
	}
	write_data(dat, pick);
	plot_streak_find(pick, fixed_work(&d->configs[c]), &streak);
	write_script(gp, d, c, pick, base, &streak,
		     mean_streak(d, c, run));
	if (fclose(dat) | fclose(gp)) {
		dat = gp = NULL;
		error("%s: %s", path, strerror(errno));
		goto out;
	}
	dat = gp = NULL;
	ret = 0;
	if (o->render && plot_have_gnuplot()) {
		char *script = xasprintf("%s.gp", base);

		rendered = (!o->png || !plot_render(o->out_dir, script, "png")) &&
			   (!o->svg || !plot_render(o->out_dir, script, "svg"));
		free(script);
		ret = rendered ? 0 : -1;
	}
	title = xasprintf("which thread did the work when, in one run of "
			  "configuration %zu (streaks: one thread alone)", c + 1);
	add_file(out, base, title, rendered);
	free(title);
out:
	if (dat)
		fclose(dat);
	if (gp)
		fclose(gp);
	free(path);
	free(base);
	store_timelines_free(t, n);
	return ret;
}

int plot_streaks(const struct dataset *d, struct store *s,
		 const struct plot_opts *o, struct plot_set *out)
{
	size_t c;
	int ret = 0;

	for (c = 0; c < d->nconfigs; c++)
		if (streak_config(d, s, c, o, out))
			ret = -1;
	return ret;
}
