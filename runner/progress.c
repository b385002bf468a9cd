/*
 * progress.c - the status line and the final summary of `contend run`.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "runner/progress.h"
#include "runner/util.h"

void progress_init(struct progress *p, size_t total, size_t done,
		   double planned_s, size_t jobs_left, bool quiet)
{
	memset(p, 0, sizeof(*p));
	p->total = total;
	p->done = done;
	p->planned_left = planned_s;
	p->jobs_left = jobs_left;
	p->t0 = now_monotonic();
	if (!quiet && isatty(STDERR_FILENO))
		p->tty = stderr;
}

double progress_eta(const struct progress *p)
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

void progress_grow(struct progress *p, size_t runs, double planned_s,
		   size_t jobs)
{
	p->total += runs;
	p->planned_left += planned_s;
	p->jobs_left += jobs;
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
}
