/*
 * cgroup.c - the runner's cgroup v2 (cgroup.h): found from mountinfo,
 * made and checked once, a child moved in before its exec, emptied with
 * cgroup.kill after each child, removed at the end; and the cgroups of
 * runners that died, swept by the next one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner/cgroup.h"
#include "lib/procid.h"
#include "lib/escape.h"
#include "lib/readfile.h"
#include "lib/util.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

#define NAME_PREFIX "contend-"

/* ---- finding the directory ---- */

/* Undoes mountinfo's octal escapes (\040 for a blank) into out. */
static void unescape(const char *s, size_t n, char *out, size_t len)
{
	size_t i, j = 0;

	for (i = 0; i < n && j + 1 < len; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' &&
		    s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			out[j++] = (char)((s[i + 1] - '0') * 64 +
					  (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
			i += 3;
		} else {
			out[j++] = s[i];
		}
	}
	out[j] = '\0';
}

/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - TYPE SRC SUPER" */
int cgroup_mount_of(const char *mountinfo, char *mnt, size_t mntlen,
		    char *root, size_t rootlen)
{
	const char *line = mountinfo;

	while (line && *line) {
		const char *end = strchrnul(line, '\n'), *f[5], *p = line;
		const char *sep = strstr(line, " - ");
		size_t k, flen[5];

		for (k = 0; k < 5 && p < end; k++) {
			f[k] = p;
			flen[k] = strcspn(p, " \n");
			p += flen[k] + (p[flen[k]] == ' ');
		}
		if (k == 5 && sep && sep < end && !strncmp(sep + 3, "cgroup2 ", 8)) {
			unescape(f[4], flen[4], mnt, mntlen);
			unescape(f[3], flen[3], root, rootlen);
			return 0;
		}
		line = *end ? end + 1 : NULL;
	}
	return -1;
}

int cgroup_path_of(const char *proc_cgroup, char *path, size_t len)
{
	const char *line = proc_cgroup;

	while (line && *line) {
		const char *end = strchrnul(line, '\n');

		if (!strncmp(line, "0::", 3)) {
			snprintf(path, len, "%.*s", (int)(end - line - 3), line + 3);
			return 0;
		}
		line = *end ? end + 1 : NULL;
	}
	return -1;
}

/* A small file of dfd's (AT_FDCWD: a path), malloc'd and NUL-ended. */
static char *slurp(int dfd, const char *name)
{
	char *buf;

	if (readfile_at(dfd, name, 0, &buf, NULL) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The directory to make the cgroup in: CONTEND_CGROUP's, or this
 * process's own cgroup v2 directory, malloc'd; NULL with why when there
 * is none.
 */
static char *default_parent(char *why, size_t whylen)
{
	const char *env = getenv("CONTEND_CGROUP");
	char mnt[4096], root[4096], self[4096], *mi, *pc;
	char *dir = NULL;
	size_t rl;
	int ret = 1;

	if (env && !strcmp(env, "off")) {
		snprintf(why, whylen, "CONTEND_CGROUP=off");
		return NULL;
	}
	if (env && *env == '/')
		return xstrdup(env);
	mi = slurp(AT_FDCWD, "/proc/self/mountinfo");
	pc = slurp(AT_FDCWD, "/proc/self/cgroup");
	if (!mi || cgroup_mount_of(mi, mnt, sizeof(mnt), root, sizeof(root)))
		snprintf(why, whylen, "cgroup v2 is not mounted");
	else if (!pc || cgroup_path_of(pc, self, sizeof(self)))
		snprintf(why, whylen, "this process has no cgroup v2 "
			 "(/proc/self/cgroup)");
	else
		ret = 0;
	if (!ret) {
		/* a mount of a subtree (a container's): paths below its root */
		rl = strlen(root);
		if (rl > 1 && !strncmp(self, root, rl) &&
		    (self[rl] == '/' || !self[rl]))
			memmove(self, self + rl, strlen(self + rl) + 1);
		dir = xasprintf("%s%s", mnt, strcmp(self, "/") ? self : "");
	}
	free(mi);
	free(pc);
	return dir;
}

/* ---- one cgroup ---- */

static void cg_clear(struct cgroup *cg)
{
	cg->parent_fd = cg->dir_fd = cg->procs_fd = -1;
	cg->id = 0;
	cg->path = NULL;
	cg->name = NULL;
}

static void cg_close(struct cgroup *cg)
{
	if (cg->procs_fd >= 0)
		close(cg->procs_fd);
	if (cg->dir_fd >= 0)
		close(cg->dir_fd);
	if (cg->parent_fd >= 0)
		close(cg->parent_fd);
	free(cg->path);
	cg_clear(cg);
}

int cgroup_place(const struct cgroup *cg, pid_t pid)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long v = (unsigned long)pid;
	ssize_t n;

	/* no snprintf: this runs between a vfork-like clone and exec */
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	do
		n = write(cg->procs_fd, p, (size_t)(buf + sizeof(buf) - p));
	while (n < 0 && errno == EINTR);
	return n < 0 ? -1 : 0;
}

/* "populated 0" in cgroup.events, polled up to wait_s. */
static bool wait_empty(int dfd, double wait_s)
{
	double until = now_monotonic() + wait_s;
	struct timespec nap = { 0, 1000000 };

	for (;;) {
		char *ev = slurp(dfd, "cgroup.events");
		bool empty = !ev || strstr(ev, "populated 0");

		free(ev);
		if (empty)
			return true;
		if (now_monotonic() >= until)
			return false;
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 16000000)
			nap.tv_nsec *= 2;
	}
}

/* Processes in the cgroup at dfd that are not of group pgid (0: all);
 * *any: it holds a process at all. */
static int count_out_of(int dfd, pid_t pgid, bool *any)
{
	char *procs = slurp(dfd, "cgroup.procs"), *p, *end;
	int n = 0;

	*any = false;
	for (p = procs; p && *p; p = end + (*end == '\n')) {
		long pid = strtol(p, &end, 10);
		pid_t g;

		if (end == p)
			break;
		*any = true;
		g = getpgid((pid_t)pid);
		if (g >= 0 && (!pgid || g != pgid))
			n++;
	}
	free(procs);
	return n;
}

/* cgroup.kill of the cgroup at dfd, then the wait: 0 or -1 (errno). */
static int kill_all(int dfd)
{
	int fd = openat(dfd, "cgroup.kill", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, "1", 1);
	close(fd);
	if (n != 1)
		return -1;
	if (!wait_empty(dfd, CGROUP_WAIT_S)) {
		errno = EBUSY;
		return -1;
	}
	return 0;
}

/*
 * SIGKILL to each process cgroup.procs lists, again until none is left,
 * CGROUP_WAIT_S at most: 0, or -1 (EBUSY).  Not cgroup.kill, while the
 * runner may still spawn into the cgroup: on Linux 6.x (6.18 here) a
 * child born into a cgroup that has ever been killed (CLONE_INTO_CGROUP)
 * is killed at birth, its cgroup's kill count compared with its parent's
 * (tests/test_cgroup.c, test_real_cgroup, fails so).  cgroup.kill is for the end, when
 * nothing is spawned any more (cgroup_remove, the guard, the sweep).
 */
static int kill_listed(int dfd)
{
	double until = now_monotonic() + CGROUP_WAIT_S;
	struct timespec nap = { 0, 1000000 };

	for (;;) {
		char *procs = slurp(dfd, "cgroup.procs"), *p, *end;
		bool any = false;

		for (p = procs; p && *p; p = end + (*end == '\n')) {
			long pid = strtol(p, &end, 10);

			if (end == p)
				break;
			any = true;
			kill((pid_t)pid, SIGKILL);
		}
		free(procs);
		if (!any && wait_empty(dfd, 0))
			return 0;
		if (now_monotonic() >= until) {
			errno = EBUSY;
			return -1;
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 16000000)
			nap.tv_nsec *= 2;
	}
}

int cgroup_kill(const struct cgroup *cg, pid_t pgid)
{
	bool any;
	int n = count_out_of(cg->dir_fd, pgid, &any);

	if (!any)
		return 0;
	if (kill_listed(cg->dir_fd))
		return error("cgroup %s: cannot kill what is left in it: %s",
			     cg->path, strerror(errno));
	return n;
}

/* rmdir of a cgroup just emptied: its last exits may be still settling. */
static int rmdir_at(int parent_fd, const char *name)
{
	int i;

	for (i = 0; i < 100; i++) {
		struct timespec nap = { 0, 10000000 };

		if (!unlinkat(parent_fd, name, AT_REMOVEDIR) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		nanosleep(&nap, NULL);
	}
	return -1;
}

int cgroup_remove(struct cgroup *cg)
{
	int ret = 0;

	if (cg->dir_fd < 0)
		return 0;
	/* nothing is spawned into it any more: cgroup.kill, forks and all */
	if (kill_all(cg->dir_fd))
		ret = error("cgroup %s: cannot kill what is left in it: %s",
			    cg->path, strerror(errno));
	close(cg->procs_fd);
	cg->procs_fd = -1;
	if (rmdir_at(cg->parent_fd, cg->name))
		ret = error("cgroup %s: cannot remove it: %s", cg->path,
			    strerror(errno));
	cg_close(cg);
	return ret;
}

int cgroup_fd(const struct cgroup *cg)
{
	return cg->dir_fd;
}

uint64_t cgroup_id(const struct cgroup *cg)
{
	return cg->id;
}

/* A child moved in and out of life: 0, or the errno of its move. */
static int try_place(const struct cgroup *cg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (!pid)
		_exit(cgroup_place(cg, 0) ? (errno & 0xff ? errno & 0xff : 1) : 0);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
}

/* The checks after the mkdir: 0, or 1 with why. */
static int check_made(struct cgroup *cg, char *why, size_t whylen)
{
	struct stat st;
	int e;

	cg->procs_fd = openat(cg->dir_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
	if (cg->procs_fd < 0) {
		snprintf(why, whylen, "%s/cgroup.procs: %s", cg->path,
			 strerror(errno));
		return 1;
	}
	if (faccessat(cg->dir_fd, "cgroup.kill", W_OK, 0)) {
		snprintf(why, whylen, "%s has no cgroup.kill (Linux 5.14 and "
			 "later have it)", cg->path);
		return 1;
	}
	if (fstat(cg->dir_fd, &st)) {
		snprintf(why, whylen, "%s: %s", cg->path, strerror(errno));
		return 1;
	}
	cg->id = (uint64_t)st.st_ino;
	e = try_place(cg);
	if (e) {
		snprintf(why, whylen, "cannot move a process into %s: %s",
			 cg->path, strerror(e));
		return 1;
	}
	return 0;
}

/* cgroup_create's work in a known parent. */
static int create_in(struct cgroup *cg, const char *parent, const char *tag,
		     char *why, size_t whylen)
{
	struct statfs fs;
	int ret;

	cg->parent_fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->parent_fd < 0 || fstatfs(cg->parent_fd, &fs) ||
	    fs.f_type != CGROUP2_SUPER_MAGIC) {
		snprintf(why, whylen, "%s: %s", parent, cg->parent_fd < 0 ?
			 strerror(errno) : "not a cgroup v2 directory");
		cg_close(cg);
		return 1;
	}
	cg->path = xasprintf("%s/" NAME_PREFIX "%s", parent, tag);
	cg->name = strrchr(cg->path, '/') + 1;
	if (mkdirat(cg->parent_fd, cg->name, 0755)) {
		snprintf(why, whylen, "cannot make %s: %s", cg->path,
			 strerror(errno));
		cg_close(cg);
		return 1;
	}
	cg->dir_fd = openat(cg->parent_fd, cg->name,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ret = cg->dir_fd < 0 ? 1 : check_made(cg, why, whylen);
	if (cg->dir_fd < 0)
		snprintf(why, whylen, "%s: %s", cg->path, strerror(errno));
	if (ret) {
		unlinkat(cg->parent_fd, cg->name, AT_REMOVEDIR);
		cg_close(cg);
	}
	return ret;
}

int cgroup_create(struct cgroup *cg, const char *parent, char *why,
		  size_t whylen)
{
	char *dir = NULL, tag[64];
	int ret;

	cg_clear(cg);
	if (!parent && !(parent = dir = default_parent(why, whylen)))
		return 1;
	if (procid_tag(getpid(), tag, sizeof(tag)))
		ret = error("cannot name this process (/proc/self/stat)");
	else
		ret = create_in(cg, parent, tag, why, whylen);
	free(dir);
	return ret;
}

/* ---- what dead runners left ---- */

/* One stale cgroup: killed, removed, said.  0 or -1. */
static int sweep_one(int parent_fd, const char *parent, const char *name)
{
	int dfd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool any = false;
	int n = 0, ret = -1;

	if (dfd < 0)
		return -1;
	n = count_out_of(dfd, 0, &any);
	if (any && kill_all(dfd))
		error("cgroup %s/%s: cannot kill what is left in it: %s", parent,
		      name, strerror(errno));
	else if (rmdir_at(parent_fd, name))
		error("cgroup %s/%s: cannot remove it: %s", parent, name,
		      strerror(errno));
	else
		ret = 0;
	close(dfd);
	if (!ret)
		fprintf(stderr, "contend: removed the cgroup %s/%s, left by a "
			"runner that died; %d process%s still in it killed\n",
			escape_quote(parent), escape_quote(name), n, n == 1 ? "" : "es");
	return ret;
}

int cgroup_sweep(const char *parent)
{
	char *dir = NULL, why[256];
	struct dirent *de;
	int n = 0, fd;
	DIR *d;

	if (!parent && !(parent = dir = default_parent(why, sizeof(why))))
		return 0;
	d = opendir(parent);
	if (!d) {
		free(dir);
		return 0;
	}
	fd = dirfd(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, NAME_PREFIX, strlen(NAME_PREFIX)) &&
		    de->d_type == DT_DIR &&
		    procid_tag_dead(de->d_name + strlen(NAME_PREFIX)) &&
		    !sweep_one(fd, parent, de->d_name))
			n++;
	closedir(d);
	free(dir);
	return n;
}
