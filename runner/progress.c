/*
 * progress.c - the status line and the final summary of `contend run`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "lib/escape.h"
#include "runner/progress.h"
#include "lib/util.h"

/* Distinct failure reasons kept for the summary; the rest are "other". */
#define PROGRESS_MAX_REASONS 16

void progress_init(struct progress *p, size_t total, size_t done,
		   double planned_s, size_t jobs_left, bool quiet)
{
	memset(p, 0, sizeof(*p));
	p->total = total;
	p->done = done;
	p->planned_left = planned_s;
	p->jobs_left = jobs_left;
	p->t0 = now_monotonic();
	p->quiet = quiet;
	if (!quiet && isatty(STDERR_FILENO))
		p->tty = stderr;
}

/* Seconds still to go, from the planned durations scaled by what the
 * finished runs actually took; negative when nothing is known yet. */
static double progress_eta(const struct progress *p)
{
	double eta = 0;

	if (p->planned_left > 0) {
		/* Real seconds per planned second: spawn, calibration, reap. */
		double scale = p->timed_planned > 0
				       ? p->timed_wall / p->timed_planned : 1;

		eta += p->planned_left * scale;
	}
	if (p->jobs_left) {
		if (!p->jobs_done)
			return -1;
		eta += (double)p->jobs_left * p->jobs_wall /
		       (double)p->jobs_done;
	}
	return eta;
}

static void fmt_time(char *buf, size_t len, double s)
{
	long t = s < 0 ? 0 : lround(s);

	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60,
			 t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
}

static int term_width(void)
{
	struct winsize ws;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 20)
		return ws.ws_col;
	return 80;
}

void progress_begin(struct progress *p, const char *what)
{
	char line[1024], el[32], eta[32] = "?";
	double e = progress_eta(p);
	int width, n;

	p->run_t0 = now_monotonic();
	if (!p->tty)
		return;
	fmt_time(el, sizeof(el), p->run_t0 - p->t0);
	if (e >= 0)
		fmt_time(eta, sizeof(eta), e);
	width = term_width() - 1;
	/* Counts and times first, so a narrow terminal cuts the name. */
	n = snprintf(line, sizeof(line), "[%zu/%zu] %s elapsed, ETA %s  %s",
		     p->done + 1, p->total, el, eta, what);
	if (n > width)
		line[width] = '\0';
	fprintf(p->tty, "\r%s\033[K", line);
	fflush(p->tty);
}

void progress_end(struct progress *p, enum run_status st, double planned_s,
		  double wall_s)
{
	p->done++;
	if (st < RUN_NSTATUS)
		p->count[st]++;
	if (planned_s > 0) {
		p->planned_left -= planned_s;
		if (p->planned_left < 0)
			p->planned_left = 0;
		p->timed_planned += planned_s;
		p->timed_wall += wall_s;
	} else {
		if (p->jobs_left)
			p->jobs_left--;
		p->jobs_done++;
		p->jobs_wall += wall_s;
	}
}

static void count_reason(struct progress *p, const char *text)
{
	size_t i;

	for (i = 0; i < p->nreasons; i++)
		if (!strcmp(p->reasons[i].text, text)) {
			p->reasons[i].count++;
			return;
		}
	if (p->nreasons == PROGRESS_MAX_REASONS) {
		/* The last slot gathers whatever does not fit. */
		free(p->reasons[i - 1].text);
		p->reasons[i - 1].text = xstrdup("other reasons");
		p->reasons[i - 1].count++;
		return;
	}
	p->reasons = xrealloc(p->reasons, (p->nreasons + 1) * sizeof(*p->reasons));
	p->reasons[p->nreasons].text = xstrdup(text);
	p->reasons[p->nreasons++].count = 1;
}

void progress_outcome(struct progress *p, size_t config, long seq,
		      const char *what, enum run_status st, const char *reason)
{
	struct progress_config *pc;
	char *why, *line;
	int width;

	if (config >= p->nconfigs) {
		p->configs = xrealloc(p->configs, (config + 1) * sizeof(*p->configs));
		memset(p->configs + p->nconfigs, 0,
		       (config + 1 - p->nconfigs) * sizeof(*p->configs));
		p->nconfigs = config + 1;
	}
	pc = &p->configs[config];
	if (st == RUN_OK) {
		pc->ok++;
		return;
	}
	if (st == RUN_INTERRUPTED || st == RUN_PLANNED)
		return;
	why = xasprintf("%s%s%s", run_status_names[st], reason && *reason ? ": " : "",
			reason ? reason : "");
	pc->failed++;
	if (!pc->first_error)
		pc->first_error = xstrdup(why);
	count_reason(p, why);
	if (!p->quiet) {
		/* A reason quotes the child's output: escaped, on one line. */
		line = xasprintf("run %ld %s  [%s]", seq, why, what);
		free(why);
		why = escape_text_dup(line);
		free(line);
		/* The whole line, "contend: " included, fits the terminal. */
		width = p->tty ? term_width() - 1 - (int)strlen("contend: ") : 0;
		if (why && width > 0 && (int)strlen(why) > width) {
			/* On a code point boundary: UTF-8 names stay whole. */
			while (width > 0 &&
			       ((unsigned char)why[width] & 0xc0) == 0x80)
				width--;
			why[width] = '\0';
		}
		if (p->tty)
			fprintf(p->tty, "\r\033[K");
		fprintf(stderr, "contend: %s\n", why ? why : "");
	}
	free(why);
}

bool progress_all_failed(const struct progress *p, size_t config,
			 size_t *failed, const char **first)
{
	const struct progress_config *pc;

	if (config >= p->nconfigs)
		return false;
	pc = &p->configs[config];
	*failed = pc->failed;
	*first = pc->first_error;
	return pc->failed && !pc->ok;
}

void progress_release(struct progress *p)
{
	size_t i;

	for (i = 0; i < p->nconfigs; i++)
		free(p->configs[i].first_error);
	for (i = 0; i < p->nreasons; i++)
		free(p->reasons[i].text);
	free(p->configs);
	free(p->reasons);
	p->configs = NULL;
	p->reasons = NULL;
	p->nconfigs = p->nreasons = 0;
}

void progress_grow(struct progress *p, size_t runs, double planned_s,
		   size_t jobs)
{
	p->total += runs;
	p->planned_left += planned_s;
	p->jobs_left += jobs;
}

static int cmp_reason(const void *a, const void *b)
{
	const struct progress_reason *x = a, *y = b;

	if (x->count != y->count)
		return (x->count < y->count) - (x->count > y->count);
	return strcmp(x->text, y->text);
}

/* "failed runs by reason:" and one escaped line per reason, busiest first. */
static void summary_reasons(const struct progress *p, FILE *f)
{
	struct progress_reason *r;
	size_t i;

	if (!p->nreasons)
		return;
	r = xmalloc(p->nreasons * sizeof(*r));
	memcpy(r, p->reasons, p->nreasons * sizeof(*r));
	qsort(r, p->nreasons, sizeof(*r), cmp_reason);
	fprintf(f, "failed runs by reason:\n");
	for (i = 0; i < p->nreasons; i++) {
		fprintf(f, "  %4zu  ", r[i].count);
		escape_fputs(f, r[i].text);
		fputc('\n', f);
	}
	free(r);
}

void progress_summary(const struct progress *p, FILE *f)
{
	char wall[32];
	size_t i, n = 0;
	const char *sep = ": ";

	if (p->tty)
		fprintf(p->tty, "\r\033[K");
	for (i = 0; i < RUN_NSTATUS; i++)
		n += p->count[i];
	fprintf(f, "%zu run%s", n, n == 1 ? "" : "s");
	for (i = 0; i < RUN_NSTATUS; i++) {
		if (!p->count[i])
			continue;
		fprintf(f, "%s%zu %s", sep, p->count[i], run_status_names[i]);
		sep = ", ";
	}
	fmt_time(wall, sizeof(wall), now_monotonic() - p->t0);
	fprintf(f, "; %s wall\n", wall);
	summary_reasons(p, f);
}
