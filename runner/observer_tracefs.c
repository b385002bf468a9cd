/*
 * observer_tracefs.c - the tracefs-lock observer: the lock tracepoints
 * (events/lock/) enabled into a trace buffer, as lock tracing does.  The
 * buffer is an instance of our own, instances/contend-obs.PID, so the
 * top-level buffer and its events are never touched and nothing needs
 * restoring; stopping disables the events and removes the instance.  A
 * runner killed by SIGKILL leaves its instance on: the next tracefs
 * observer's start removes every instance whose runner is gone
 * (observer_tracefs_repair).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "runner/observer.h"
#include "runner/observer_impl.h"

#define INSTANCE_PREFIX "contend-obs."

/* The tracefs mount, or NULL. */
static const char *tracefs_root(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing",
					     "/sys/kernel/debug/tracing" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(roots); i++) {
		char *p = xasprintf("%s/instances", roots[i]);
		bool ok = access(p, W_OK) == 0;

		free(p);
		if (ok)
			return roots[i];
	}
	return NULL;
}

int observer_tracefs_usable(char *why, size_t whylen)
{
	const char *root = tracefs_root();
	char *p;
	bool ok;

	if (!root) {
		snprintf(why, whylen, "no writable tracefs instances "
			 "directory (not root, or tracefs not mounted)");
		return 0;
	}
	p = xasprintf("%s/events/lock/enable", root);
	ok = access(p, F_OK) == 0;
	free(p);
	if (!ok)
		snprintf(why, whylen, "this kernel has no lock tracepoints "
			 "(events/lock: CONFIG_LOCKDEP or lock events off)");
	return ok;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The first byte of path, or 0. */
static char read_byte(const char *path)
{
	char c = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = 0;
		close(fd);
	}
	return c;
}

/* Disables the instance's lock events and removes it. */
static int instance_remove(const char *inst)
{
	char *en = xasprintf("%s/events/lock/enable", inst);
	int ret;

	write_file(en, "0");
	free(en);
	ret = rmdir(inst);
	return ret;
}

/*
 * Removes the instances of runners that are gone (one killed by SIGKILL
 * cannot remove its own): before each tracefs observer starts.  Returns
 * how many were removed.
 */
static int observer_tracefs_repair(void)
{
	const char *root = tracefs_root();
	char *dir;
	DIR *d;
	struct dirent *de;
	int n = 0;

	if (!root)
		return 0;
	dir = xasprintf("%s/instances", root);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		long pid;
		char *end, *inst;

		if (strncmp(de->d_name, INSTANCE_PREFIX,
			    strlen(INSTANCE_PREFIX)))
			continue;
		pid = strtol(de->d_name + strlen(INSTANCE_PREFIX), &end, 10);
		if (*end || pid <= 0 || kill((pid_t)pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		inst = xasprintf("%s/%s", dir, de->d_name);
		if (!instance_remove(inst))
			n++;
		free(inst);
	}
	if (d)
		closedir(d);
	free(dir);
	return n;
}

int observer_tracefs_start(struct observer_run *o, char *why, size_t whylen)
{
	const char *root = tracefs_root();
	char *en;

	if (!root)
		return error_buf(why, whylen, "observer %s: no tracefs",
				 o->d->name);
	observer_tracefs_repair();
	o->tracefs = xasprintf("%s/instances/" INSTANCE_PREFIX "%ld", root,
			       (long)getpid());
	if (mkdir(o->tracefs, 0700) && errno != EEXIST) {
		error_buf(why, whylen, "observer %s: cannot make %s: %s",
			  o->d->name, o->tracefs, strerror(errno));
		free(o->tracefs);
		o->tracefs = NULL;
		return -1;
	}
	en = xasprintf("%s/events/lock/enable", o->tracefs);
	/* ready: the enable file reads back 1 (tracing_on is 1 in a new
	 * instance) */
	if (write_file(en, "1") || read_byte(en) != '1') {
		error_buf(why, whylen, "observer %s: the lock events of %s "
			  "did not enable: %s", o->d->name, o->tracefs,
			  strerror(errno));
		free(en);
		return -1;
	}
	free(en);
	return 0;
}

void observer_tracefs_stop(struct observer_run *o)
{
	if (instance_remove(o->tracefs))
		warning("observer %s: cannot remove %s: %s", o->d->name,
			o->tracefs, strerror(errno));
	free(o->tracefs);
	o->tracefs = NULL;
}
