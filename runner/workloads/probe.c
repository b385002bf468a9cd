/*
 * probe.c - sampled acquisition latency and the per-thread timeline's
 * sampler thread.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "lib/util.h"
#include "runner/workloads/probe.h"

void probe_record(struct probe *p, uint64_t ns)
{
	if (!p->lat)
		return;
	p->lat[p->taken % p->lat_max] = ns > UINT32_MAX ? UINT32_MAX
							: (uint32_t)ns;
	p->taken++;
}

struct probe *probe_alloc(size_t n, uint64_t every)
{
	struct probe *p = harness_alloc_lines(n, sizeof(*p));
	/* at most a million samples in all, whatever the thread count */
	size_t per = n ? 1048576 / n : 0;
	size_t i;

	if (per > PROBE_LAT_MAX)
		per = PROBE_LAT_MAX;
	if (per < 16)
		per = 16;
	for (i = 0; i < n; i++) {
		atomic_init(&p[i].progress, 0);
		p[i].every = every;
		if (every) {
			p[i].lat = xcalloc(per, sizeof(*p[i].lat));
			p[i].lat_max = per;
		}
	}
	return p;
}

void probe_free(struct probe *p, size_t n)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < n; i++)
		free(p[i].lat);
	free(p);
}

void probe_report(const struct probe *p, size_t n, struct result *r)
{
	size_t i, k, total = 0, at = 0;
	double *x;

	for (i = 0; i < n; i++)
		total += p[i].taken < p[i].lat_max ? p[i].taken : p[i].lat_max;
	if (!total)
		return;
	x = xmalloc(total * sizeof(*x));
	for (i = 0; i < n; i++) {
		size_t kept = p[i].taken < p[i].lat_max ? p[i].taken
							: p[i].lat_max;

		for (k = 0; k < kept; k++)
			x[at++] = p[i].lat[k];
	}
	gsl_sort(x, 1, total);
	result_add(r, "acquire_p50_ns",
		   gsl_stats_quantile_from_sorted_data(x, 1, total, 0.5));
	result_add(r, "acquire_p99_ns",
		   gsl_stats_quantile_from_sorted_data(x, 1, total, 0.99));
	result_add(r, "acquire_max_ns", x[total - 1]);
	result_add(r, "acquire_samples", (double)total);
	free(x);
}

/* ---- the sampler ---- */

static void add_ns(struct timespec *ts, double s)
{
	long long ns = (long long)(s * 1e9);

	ts->tv_sec += (time_t)(ns / 1000000000);
	ts->tv_nsec += (long)(ns % 1000000000);
	if (ts->tv_nsec >= 1000000000) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000;
	}
}

void timeline_halve(struct timeline *t)
{
	size_t k;

	for (k = 0; 2 * k + 1 < t->rows; k++)
		memcpy(t->cum + k * t->n, t->cum + (2 * k + 1) * t->n,
		       t->n * sizeof(*t->cum));
	t->rows = k;
	t->interval *= 2;
}

static void *sampler(void *arg)
{
	struct timeline *t = arg;
	struct timespec next;
	size_t i;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&t->stop)) {
		add_ns(&next, t->interval);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
				       NULL) == EINTR)
			;
		if (t->rows == t->cap)
			timeline_halve(t);
		for (i = 0; i < t->n; i++)
			t->cum[t->rows * t->n + i] = atomic_load_explicit(
				&t->probes[i].progress, memory_order_relaxed);
		t->rows++;
	}
	return NULL;
}

/* Rows a timeline of n workers keeps before it halves. */
static size_t timeline_cap(size_t n)
{
	size_t cap = n ? TIMELINE_MAX_CELLS / n : TIMELINE_MAX_CELLS;

	return cap < 4 ? 4 : cap;
}

double timeline_auto_interval(double runtime_s, size_t n)
{
	double iv = TIMELINE_AUTO_FINEST, need = 1.25 * runtime_s;
	size_t cap = timeline_cap(n);

	/* 10 s is the parameter's maximum */
	while (iv * (double)cap < need && 2 * iv <= 10)
		iv *= 2;
	return iv;
}

int timeline_start(struct timeline *t, const struct probe *p, size_t n,
		   double interval)
{
	memset(t, 0, sizeof(*t));
	if (!n || interval <= 0)
		return -1;
	t->probes = p;
	t->n = n;
	t->interval = interval;
	t->cap = timeline_cap(n);
	t->cum = xcalloc(t->cap * n, sizeof(*t->cum));
	atomic_init(&t->stop, 0);
	if (pthread_create(&t->tid, NULL, sampler, t)) {
		free(t->cum);
		t->cum = NULL;
		return -1;
	}
	t->running = true;
	return 0;
}

void timeline_stop(struct timeline *t)
{
	if (!t->running)
		return;
	atomic_store(&t->stop, 1);
	pthread_join(t->tid, NULL);
	t->running = false;
}

static bool row_zero(const struct timeline *t, size_t k)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->cum[k * t->n + i])
			return false;
	return true;
}

static bool row_same(const struct timeline *t, size_t k)
{
	return !memcmp(t->cum + k * t->n, t->cum + (k - 1) * t->n,
		       t->n * sizeof(*t->cum));
}

void timeline_report(struct timeline *t, struct result *r)
{
	size_t first = 0, last, k, i, rows;
	uint64_t *d;

	if (!t->cum)
		return;
	/* Before the gate opened and after the last worker stopped: none. */
	while (first < t->rows && row_zero(t, first))
		first++;
	last = t->rows;
	while (last > first + 1 && row_same(t, last - 1))
		last--;
	rows = last - first;
	if (rows) {
		d = xcalloc(rows * t->n, sizeof(*d));
		for (i = 0; i < t->n; i++)
			for (k = first; k < last; k++)
				d[i * rows + (k - first)] =
					t->cum[k * t->n + i] -
					(k ? t->cum[(k - 1) * t->n + i] : 0);
		result_set_timeline(r, t->interval, t->n, rows, d);
		free(d);
	}
	free(t->cum);
	t->cum = NULL;
}
