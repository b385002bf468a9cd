/*
 * profile.c - attribution of a configuration's kernel lock contention by
 * caller, from one run under perf lock.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/guard.h"
#include "runner/profile.h"
#include "runner/scratch.h"
#include "runner/spawn.h"
#include "lib/util.h"

char *profile_find_perf(char *why, size_t whylen)
{
	const char *path = getenv("PATH");
	char *dirs = xstrdup(path ? path : ""), *dir, *save = NULL;
	char *found = NULL;

	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *exe = xasprintf("%s/perf", dir);

		if (access(exe, X_OK) == 0)
			found = exe;
		else
			free(exe);
	}
	free(dirs);
	if (!found)
		snprintf(why, whylen, "perf is not installed (Debian: apt-get "
			 "install linux-perf); no lock profile recorded");
	return found;
}

/* "53.50 ms" -> 0.0535 */
static int seconds(double v, const char *unit, double *out)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = { { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 },
		      { "s", 1 } };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(unit, units[i].unit)) {
			*out = v * units[i].scale;
			return 0;
		}
	return -1;
}

/* "N T UNIT M UNIT A UNIT TYPE CALLER": the fields of a row. */
enum { F_N, F_TOTAL, F_TOTAL_U, F_MAX, F_MAX_U, F_AVG, F_AVG_U, F_TYPE,
       F_CALLER, F_COUNT };

/* line is cut into its fields in place. */
static int parse_row(char *line, struct profile_row *p)
{
	char *f[F_COUNT + 1], *save = NULL;
	double total, max;
	uint64_t n;
	size_t k = 0;

	for (char *t = strtok_r(line, " \t", &save); t && k <= F_COUNT;
	     t = strtok_r(NULL, " \t", &save))
		f[k++] = t;
	if (k != F_COUNT || parse_u64(f[F_N], &n) ||
	    parse_double(f[F_TOTAL], &total) || parse_double(f[F_MAX], &max))
		return -1;
	memset(p, 0, sizeof(*p));
	if (seconds(total, f[F_TOTAL_U], &p->wait_s) ||
	    seconds(max, f[F_MAX_U], &p->max_wait_s))
		return -1;
	p->contended = n;
	p->lock_type = xstrdup(f[F_TYPE]);
	p->caller = xstrdup(f[F_CALLER]);
	return 0;
}

size_t profile_parse(const char *text, struct profile_row **rows)
{
	char *copy = xstrdup(text), *line, *save = NULL;
	size_t n = 0;

	*rows = NULL;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct profile_row p;

		if (parse_row(line, &p))
			continue;
		*rows = xrealloc(*rows, (n + 1) * sizeof(**rows));
		(*rows)[n++] = p;
	}
	free(copy);
	return n;
}

/* Runs argv to its end; -1 with why unless it exited 0. */
static int run_quiet(char *const *argv, double timeout_s, int cancel_fd,
		     const struct cgroup *cg, struct child *c, char *why,
		     size_t whylen)
{
	int failed;

	child_init(c);
	c->path = argv[0];
	c->argv = argv;
	c->timeout_s = timeout_s;
	c->cancel_fd = cancel_fd;
	c->cgroup = cg;
	c->kill_orphans = true;
	c->started = guard_started;
	failed = spawn_run(c);
	guard_publish(0);
	if (failed)
		return error_buf(why, whylen, "cannot start %s", argv[0]);
	if (c->orphans)
		warning("profile: %d process%s of %s left its process group and "
			"%s killed after it", c->orphans,
			c->orphans == 1 ? "" : "es", argv[0],
			c->orphans == 1 ? "was" : "were");
	if (c->killed != KILL_NONE || !WIFEXITED(c->wstatus) ||
	    WEXITSTATUS(c->wstatus)) {
		size_t len = c->errlen;

		while (len && (c->err[len - 1] == '\n' || c->err[len - 1] == ' '))
			len--;
		return error_buf(why, whylen, "%s %s %s failed%s%.*s", argv[0],
				 argv[1], argv[2], len ? ": " : "",
				 (int)(len > 200 ? 200 : len),
				 c->err + (len > 200 ? len - 200 : 0));
	}
	return 0;
}

int profile_run(const char *perf, char *const *exec_argv, double timeout_s,
		int cancel_fd, const struct cgroup *cg,
		struct profile_row **rows, size_t *n, char *why,
		size_t whylen)
{
	char self[PATH_MAX], *dir = scratch_create_owned(scratch_parent(NULL));
	char *data = NULL;
	char top[16], **argv = NULL;
	struct child c;
	size_t na = 0, i;
	ssize_t len;
	int ret = -1;

	*rows = NULL;
	*n = 0;
	if (!dir)
		return error_buf(why, whylen, "no scratch directory for perf");
	guard_scratch(dir, true);
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len < 0) {
		error_buf(why, whylen, "/proc/self/exe: %s", strerror(errno));
		goto out;
	}
	self[len] = '\0';
	data = xasprintf("%s/lock.data", dir);
	for (na = 0; exec_argv[na]; na++)
		;
	argv = xcalloc(na + 8, sizeof(*argv));
	i = 0;
	argv[i++] = (char *)perf;
	argv[i++] = (char *)"lock";
	argv[i++] = (char *)"record";
	argv[i++] = (char *)"-o";
	argv[i++] = data;
	argv[i++] = (char *)"--";
	argv[i++] = self;
	memcpy(argv + i, exec_argv + 1, (na - 1) * sizeof(*argv));
	ret = run_quiet(argv, timeout_s, cancel_fd, cg, &c, why, whylen);
	child_release(&c);
	if (ret)
		goto out;
	snprintf(top, sizeof(top), "%d", PROFILE_TOP);
	free(argv);
	argv = xcalloc(10, sizeof(*argv));
	i = 0;
	argv[i++] = (char *)perf;
	argv[i++] = (char *)"lock";
	argv[i++] = (char *)"contention";
	argv[i++] = (char *)"-i";
	argv[i++] = data;
	argv[i++] = (char *)"-E";
	argv[i++] = top;
	ret = run_quiet(argv, 120, cancel_fd, cg, &c, why, whylen);
	/* perf 6.1 prints the table on stderr (its tail is kept, enough for
	 * PROFILE_TOP rows; a line cut at the front does not parse) */
	if (!ret)
		*n = profile_parse(c.outlen ? c.out : c.err, rows);
	child_release(&c);
out:
	free(argv);
	free(data);
	if (scratch_remove(dir) && !ret)
		ret = error_buf(why, whylen, "cannot remove %s", dir);
	guard_scratch(dir, false);
	free(dir);
	return ret;
}
