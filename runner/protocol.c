/*
 * protocol.c - parse `contend exec` output; judge a finished child.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "runner/protocol.h"
#include "lib/util.h"

/* user_s sys_s vcsw ivcsw maxrss_kb wall_s: from wait4() and the runner's
 * clock; steal_s idle_share cpu_mhz kmsg_*: the sentinels
 * (runner/sentinel.h); observer_*: runner/observer.h; never from the
 * child.  NULL-terminated. */
static const char *const protocol_runner_metrics[] = {
	"user_s", "sys_s", "vcsw", "ivcsw", "maxrss_kb", "wall_s",
	/* runner/sentinel.c */
	"steal_s", "idle_share", "cpu_mhz", "kmsg_lockdep", "kmsg_rcu_stall",
	"kmsg_soft_lockup", "kmsg_hard_lockup", "kmsg_hung_task",
	"kmsg_perf_irq", "kmsg_thermal", "kmsg_oom_kill", "kmsg_segfault",
	"kmsg_bug",
	/* runner/observer.c */
	"observer_start_s", "observer_stop_s", NULL
};

static bool is_runner_metric(const char *name)
{
	for (size_t i = 0; protocol_runner_metrics[i]; i++)
		if (!strcmp(name, protocol_runner_metrics[i]))
			return true;
	return false;
}

struct parse {
	struct result *r;
	long line;
	bool ended;
	size_t nthreads, alloc;
	uint64_t *ops;
	/* the timeline: thread-major cells, the thread being read and how
	 * many intervals it has so far, the count every thread must reach */
	double tick_s;
	uint64_t *tl;
	size_t ncells, tl_alloc, tl_thread, tl_k, nticks;
	char *err;
	size_t errlen;
};

static int fail(struct parse *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct parse *ps, const char *fmt, ...)
{
	int n = snprintf(ps->err, ps->errlen, "line %ld: ", ps->line);
	va_list ap;

	if (n < 0 || (size_t)n >= ps->errlen)
		n = 0;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	/* The message quotes the child's bytes: keep control codes out. */
	for (char *p = ps->err; *p; p++)
		if (iscntrl((unsigned char)*p))
			*p = '?';
	return -1;
}

/* A field of digits only: no sign, no blanks, no hex (parse_u64 is laxer). */
static bool is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static bool is_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return false;
	return true;
}

/*
 * A finite number and nothing else.  Not parse_double: it refuses the
 * ERANGE that strtod sets on a subnormal, and %.17g prints subnormals.
 */
static int parse_value(const char *s, double *out)
{
	char *end;
	const char *p;

	for (p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("+-.", *p))
			return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || !isfinite(*out))
		return -1;
	return 0;
}

static int parse_end(struct parse *ps, char *rest)
{
	if (rest)
		return fail(ps, "'end' takes no fields");
	ps->ended = true;
	return 0;
}

static int parse_thread(struct parse *ps, char *rest)
{
	char *ops = rest ? strchr(rest, ' ') : NULL;
	uint64_t idx, n;

	if (!ops)
		return fail(ps, "'thread' wants an index and a count");
	*ops++ = '\0';
	if (!is_digits(rest) || parse_u64(rest, &idx))
		return fail(ps, "malformed thread index '%s'", rest);
	if (!is_digits(ops) || parse_u64(ops, &n))
		return fail(ps, "malformed operation count '%s'", ops);
	if (idx != ps->nthreads)
		return fail(ps, "thread %" PRIu64 " where thread %zu was due",
			    idx, ps->nthreads);
	if (ps->nthreads == PROTOCOL_MAX_THREADS)
		return fail(ps, "more than %d thread lines",
			    PROTOCOL_MAX_THREADS);
	if (ps->nthreads == ps->alloc) {
		ps->alloc = ps->alloc ? ps->alloc * 2 : 16;
		ps->ops = xrealloc(ps->ops, ps->alloc * sizeof(*ps->ops));
	}
	ps->ops[ps->nthreads++] = n;
	return 0;
}

static int timeline_cell(struct parse *ps, const char *field)
{
	uint64_t n;

	if (!is_digits(field) || parse_u64(field, &n))
		return fail(ps, "malformed timeline count '%s'", field);
	if (ps->ncells == PROTOCOL_MAX_TIMELINE)
		return fail(ps, "more than %d timeline counts",
			    PROTOCOL_MAX_TIMELINE);
	if (ps->ncells == ps->tl_alloc) {
		ps->tl_alloc = ps->tl_alloc ? ps->tl_alloc * 2 : 256;
		ps->tl = xrealloc(ps->tl, ps->tl_alloc * sizeof(*ps->tl));
	}
	ps->tl[ps->ncells++] = n;
	ps->tl_k++;
	return 0;
}

/* "timeline interval S" once, then "timeline I FROM C..." in order. */
static int parse_timeline(struct parse *ps, char *rest)
{
	char *save = NULL, *f1 = rest ? strtok_r(rest, " ", &save) : NULL;
	char *f2 = f1 ? strtok_r(NULL, " ", &save) : NULL;
	uint64_t idx, from;
	char *c;

	if (!f2)
		return fail(ps, "'timeline' wants more fields");
	if (!strcmp(f1, "interval")) {
		if (ps->tick_s > 0 || parse_double(f2, &ps->tick_s) ||
		    !(ps->tick_s > 0) || isinf(ps->tick_s))
			return fail(ps, "bad or repeated timeline interval");
		return 0;
	}
	if (!(ps->tick_s > 0))
		return fail(ps, "timeline counts before its interval");
	if (!is_digits(f1) || parse_u64(f1, &idx) || !is_digits(f2) ||
	    parse_u64(f2, &from))
		return fail(ps, "malformed timeline thread or interval index");
	if (ps->ncells && idx == ps->tl_thread + 1 && from == 0) {
		if (ps->tl_thread == 0)
			ps->nticks = ps->tl_k;
		if (ps->tl_k != ps->nticks)
			return fail(ps, "timeline thread %zu has %zu intervals, "
				    "not %zu", ps->tl_thread, ps->tl_k,
				    ps->nticks);
		ps->tl_thread++;
		ps->tl_k = 0;
	}
	if (idx != ps->tl_thread || from != ps->tl_k)
		return fail(ps, "timeline %" PRIu64 " %" PRIu64 " out of order",
			    idx, from);
	while ((c = strtok_r(NULL, " ", &save)))
		if (timeline_cell(ps, c))
			return -1;
	return 0;
}

/* The last thread of the timeline ends with as many intervals as the first. */
static int timeline_done(struct parse *ps)
{
	if (!ps->ncells)
		return 0;
	if (ps->tl_thread == 0)
		ps->nticks = ps->tl_k;
	if (ps->tl_k != ps->nticks)
		return snprintf(ps->err, ps->errlen, "timeline thread %zu has "
				"%zu intervals, not %zu", ps->tl_thread,
				ps->tl_k, ps->nticks), -1;
	result_set_timeline(ps->r, ps->tick_s, ps->tl_thread + 1, ps->nticks,
			    ps->tl);
	return 0;
}

static int parse_metric(struct parse *ps, const char *name, char *value)
{
	double v;

	if (!is_name(name))
		return fail(ps, "malformed metric name '%.64s'", name);
	if (strlen(name) >= METRIC_NAME_MAX)
		return fail(ps, "metric name '%.64s' longer than %d bytes",
			    name, METRIC_NAME_MAX - 1);
	if (is_runner_metric(name))
		return fail(ps, "metric '%s' is the runner's to measure", name);
	if (!value || strchr(value, ' '))
		return fail(ps, "metric '%s' wants exactly one value", name);
	if (parse_value(value, &v))
		return fail(ps, "metric '%s': '%.64s' is not a finite number",
			    name, value);
	if (!isnan(result_value(ps->r, name)))
		return fail(ps, "duplicate metric '%s'", name);
	if (ps->r->nmetrics == PROTOCOL_MAX_METRICS)
		return fail(ps, "more than %d metrics", PROTOCOL_MAX_METRICS);
	result_add(ps->r, name, v);
	return 0;
}

static const struct {
	const char *word;
	int (*fn)(struct parse *ps, char *rest);
} keywords[] = {
	{ "end", parse_end },
	{ "thread", parse_thread },
	{ "timeline", parse_timeline },
};

static int parse_line(struct parse *ps, char *line)
{
	char *rest = strchr(line, ' ');
	size_t i;

	if (!*line)
		return fail(ps, "empty line");
	if (rest)
		*rest++ = '\0';
	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		if (!strcmp(line, keywords[i].word))
			return keywords[i].fn(ps, rest);
	return parse_metric(ps, line, rest);
}

static int parse_all(struct parse *ps, const char *buf, size_t len)
{
	char line[PROTOCOL_MAX_LINE + 1];
	size_t at = 0;

	if (memchr(buf, '\0', len))
		return snprintf(ps->err, ps->errlen, "NUL byte in output"), -1;
	while (at < len) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (buf + at)) : len - at;

		ps->line++;
		if (ps->ended)
			return fail(ps, "output after the end line");
		if (!nl)
			return fail(ps, "last line has no newline");
		if (n > PROTOCOL_MAX_LINE)
			return fail(ps, "longer than %d bytes", PROTOCOL_MAX_LINE);
		memcpy(line, buf + at, n);
		line[n] = '\0';
		if (parse_line(ps, line))
			return -1;
		at += n + 1;
	}
	if (!ps->ended)
		return snprintf(ps->err, ps->errlen, "no end line (%ld lines)",
				ps->line), -1;
	if (isnan(result_value(ps->r, "elapsed_s")))
		return snprintf(ps->err, ps->errlen, "no elapsed_s metric"), -1;
	return timeline_done(ps);
}

int protocol_parse(const char *buf, size_t len, struct result *r, char *err,
		   size_t errlen)
{
	struct parse ps = { .r = r, .err = err, .errlen = errlen };
	int ret;

	result_init(r);
	ret = parse_all(&ps, buf, len);
	if (!ret)
		result_set_threads(r, ps.nthreads, ps.ops);
	free(ps.ops);
	free(ps.tl);
	return ret;
}

/* "exit status 1: <last line of stderr>" and the like. */
static void with_stderr(const struct child *c, char *err, size_t errlen,
			const char *what)
{
	const char *tail = c->err;
	size_t n = c->errlen;

	while (n && isspace((unsigned char)tail[n - 1]))
		n--;
	if (!n) {
		snprintf(err, errlen, "%s", what);
		return;
	}
	snprintf(err, errlen, "%s; stderr%s: %.*s", what,
		 c->err_truncated ? " (tail)" : "", (int)n, tail);
	/* Stored and printed later: no terminal control codes from a child. */
	for (char *p = err; *p; p++)
		if (iscntrl((unsigned char)*p) && *p != '\n' && *p != '\t')
			*p = '?';
}

/*
 * The statuses of a child the runner killed (RUN_OK when it did not):
 * the same for a `contend exec` and a program the runner runs itself.
 */
static enum run_status judge_killed(const struct child *c, char *err,
				    size_t errlen)
{
	char what[160];

	switch (c->killed) {
	case KILL_CANCEL:
		snprintf(err, errlen, "interrupted");
		return RUN_INTERRUPTED;
	case KILL_TIMEOUT:
		snprintf(what, sizeof(what), "timed out after %gs (%s)",
			 c->timeout_s,
			 c->kill_sent ? "SIGTERM ignored, SIGKILL" : "SIGTERM");
		with_stderr(c, err, errlen, what);
		return RUN_TIMEOUT;
	case KILL_OVERFLOW:
		snprintf(err, errlen, "output longer than %zu bytes",
			 c->out_max);
		return RUN_PROTOCOL;
	case KILL_NONE:
		break;
	}
	return RUN_OK;
}

enum run_status protocol_judge(const struct child *c, struct result *r,
			       char *err, size_t errlen)
{
	char what[160], sig[32];
	char perr[200];
	enum run_status st;

	result_init(r);
	err[0] = '\0';
	st = judge_killed(c, err, errlen);
	if (st != RUN_OK)
		return st;
	if (WIFSIGNALED(c->wstatus)) {
		int s = WTERMSIG(c->wstatus);

		snprintf(what, sizeof(what), "killed by %s (%s)%s",
			 spawn_signame(s, sig, sizeof(sig)), strsignal(s),
			 WCOREDUMP(c->wstatus) ? ", core dumped" : "");
		with_stderr(c, err, errlen, what);
		return RUN_CRASHED;
	}
	if (WEXITSTATUS(c->wstatus)) {
		snprintf(what, sizeof(what), "exit status %d",
			 WEXITSTATUS(c->wstatus));
		with_stderr(c, err, errlen, what);
		return RUN_FAILED;
	}
	if (protocol_parse(c->out, c->outlen, r, perr, sizeof(perr))) {
		result_release(r);
		snprintf(err, errlen, "protocol: %s", perr);
		return RUN_PROTOCOL;
	}
	return RUN_OK;
}

enum run_status protocol_judge_program(const struct child *c,
				       const struct wl_args *a,
				       struct result *r, char *err,
				       size_t errlen)
{
	const struct wl_spawn *sp = a->wl->spawn;
	enum run_status st;

	result_init(r);
	err[0] = '\0';
	if (c->killed == KILL_OVERFLOW) {
		snprintf(err, errlen, "%s", sp->overflow);
		return RUN_FAILED;
	}
	st = judge_killed(c, err, errlen);
	if (st != RUN_OK)
		return st;
	if (sp->collect(a, c->wstatus, c->wall_s, c->out, c->outlen, r)) {
		snprintf(err, errlen, "%s", r->error);
		result_release(r);
		result_init(r);
		return RUN_FAILED;
	}
	return RUN_OK;
}
