/*
 * result.c - the named metrics and per-thread counts a run reports, and the
 * exec protocol that carries them to the runner.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <unistd.h>

#include "lib/util.h"
#include "runner/workload.h"

void result_init(struct result *r)
{
	memset(r, 0, sizeof(*r));
}

void result_release(struct result *r)
{
	free(r->thread_ops);
	free(r->timeline);
	result_init(r);
}

int result_add(struct result *r, const char *name, double value)
{
	size_t i;

	if (strlen(name) >= METRIC_NAME_MAX)
		return -1;
	for (i = 0; i < r->nmetrics; i++) {
		if (!strcmp(r->metrics[i].name, name)) {
			r->metrics[i].value = value;
			return 0;
		}
	}
	if (r->nmetrics == RESULT_MAX_METRICS)
		return -1;
	strcpy(r->metrics[r->nmetrics].name, name);
	r->metrics[r->nmetrics++].value = value;
	return 0;
}

double result_value(const struct result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return r->metrics[i].value;
	return NAN;
}

int result_set_threads(struct result *r, size_t n, const uint64_t *ops)
{
	free(r->thread_ops);
	r->thread_ops = xcalloc(n, sizeof(*ops));
	if (n)
		memcpy(r->thread_ops, ops, n * sizeof(*ops));
	r->nthreads = n;
	return 0;
}

void result_set_timeline(struct result *r, double tick_s, size_t nthreads,
			 size_t nticks, const uint64_t *ops)
{
	free(r->timeline);
	r->timeline = NULL;
	r->tick_s = tick_s;
	r->tick_threads = nthreads;
	r->nticks = nthreads ? nticks : 0;
	if (!r->nticks)
		return;
	r->timeline = xcalloc(nthreads * nticks, sizeof(*ops));
	memcpy(r->timeline, ops, nthreads * nticks * sizeof(*ops));
}

/*
 * "timeline I FROM C C C ...": thread I's counts of intervals FROM on, as
 * many as fit in a protocol line (TIMELINE_LINE bytes).
 */
#define TIMELINE_LINE 240

static void print_timeline(FILE *f, const struct result *r)
{
	size_t t, k;

	if (!r->nticks)
		return;
	fprintf(f, "timeline interval %.17g\n", r->tick_s);
	for (t = 0; t < r->tick_threads; t++) {
		const uint64_t *row = r->timeline + t * r->nticks;

		for (k = 0; k < r->nticks;) {
			char line[TIMELINE_LINE + 32];
			int at = snprintf(line, sizeof(line), "timeline %zu %zu",
					  t, k);

			while (k < r->nticks && at < TIMELINE_LINE)
				at += snprintf(line + at, sizeof(line) - (size_t)at,
					       " %" PRIu64, row[k++]);
			fprintf(f, "%s\n", line);
		}
	}
}

int result_fail(struct result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->error, sizeof(r->error), fmt, ap);
	va_end(ap);
	return -1;
}

int result_print(const struct result *r, int fd)
{
	FILE *f = fdopen(dup(fd), "w");
	size_t i;
	int ret;

	if (!f)
		return -1;
	/* %.17g round-trips a double exactly. */
	for (i = 0; i < r->nmetrics; i++)
		fprintf(f, "%s %.17g\n", r->metrics[i].name,
			r->metrics[i].value);
	for (i = 0; i < r->nthreads; i++)
		fprintf(f, "thread %zu %" PRIu64 "\n", i, r->thread_ops[i]);
	print_timeline(f, r);
	fprintf(f, "end\n");
	ret = ferror(f) ? -1 : 0;
	if (fclose(f))
		ret = -1;
	return ret;
}

double spawn_stamp(void)
{
	const char *s = getenv(SPAWN_NS_ENV);
	uint64_t ns, sec;

	if (!s || parse_u64(s, &ns) < 0)
		return NAN;
	/* Whole seconds apart, so the nanoseconds keep their low digits. */
	sec = ns / 1000000000u;
	return (double)sec + (double)(ns % 1000000000u) / 1e9;
}

void wl_program_release(struct wl_program *p)
{
	size_t i;

	free(p->path);
	for (i = 0; p->argv && p->argv[i]; i++)
		free(p->argv[i]);
	free(p->argv);
	for (i = 0; p->envp && p->envp[i]; i++)
		free(p->envp[i]);
	free(p->envp);
	memset(p, 0, sizeof(*p));
}
