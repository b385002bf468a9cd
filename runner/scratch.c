/*
 * scratch.c - private scratch directories: mkdtemp under a parent, and a
 * removal that walks the tree by directory fd (openat/unlinkat) so that no
 * symlink is ever followed and no path is ever resolved outside the tree.
 *
 * Why not nftw(): it works on path strings, so a directory swapped for a
 * symlink between its stat and its descent would be followed.  Here every
 * step opens a name relative to its parent's fd with O_NOFOLLOW, and checks
 * that what it opened is the directory it stat'ed and on the same device.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/procid.h"
#include "lib/escape.h"
#include "runner/scratch.h"
#include "lib/util.h"

/* A runner's scratch directories: "contend-run.PID-STARTTIME.XXXXXX". */
#define OWNED_PREFIX "contend-run."

/* Deeper trees than this are not something a workload makes: refuse them. */
#define SCRATCH_MAX_DEPTH 64

const char *scratch_parent(const char *dir)
{
	const char *t;

	if (dir && *dir)
		return dir;
	t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}

/* "<parent>/<prefix>XXXXXX" made with mkdtemp; malloc'd or NULL. */
static char *create(const char *parent, const char *prefix)
{
	struct stat st;
	size_t len;
	char *tmpl;

	if (!parent || !*parent) {
		error("scratch directory: no parent directory given");
		return NULL;
	}
	if (stat(parent, &st)) {
		error("scratch directory: %s: %s", parent, strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		error("scratch directory: %s is not a directory", parent);
		return NULL;
	}
	len = strlen(parent);
	while (len > 1 && parent[len - 1] == '/')
		len--;
	tmpl = xasprintf("%.*s/%sXXXXXX", (int)len, parent, prefix);
	/* mkdtemp makes the directory 0700, so no other user can plant in it. */
	if (!mkdtemp(tmpl)) {
		error("scratch directory: mkdtemp %s: %s", tmpl, strerror(errno));
		free(tmpl);
		return NULL;
	}
	return tmpl;
}

char *scratch_create(const char *parent)
{
	return create(parent, "contend.");
}

char *scratch_create_owned(const char *parent)
{
	char tag[64], prefix[80];

	if (procid_tag(getpid(), tag, sizeof(tag))) {
		error("scratch directory: cannot name this process "
		      "(/proc/self/stat)");
		return NULL;
	}
	snprintf(prefix, sizeof(prefix), OWNED_PREFIX "%s.", tag);
	return create(parent, prefix);
}

int scratch_sweep(const char *parent)
{
	size_t plen = strlen(OWNED_PREFIX);
	struct dirent *de;
	int n = 0;
	DIR *d = opendir(parent);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char tag[64], *path;
		const char *dot;

		if (strncmp(de->d_name, OWNED_PREFIX, plen) ||
		    !(dot = strchr(de->d_name + plen, '.')) ||
		    (size_t)(dot - de->d_name - plen) >= sizeof(tag))
			continue;
		snprintf(tag, sizeof(tag), "%.*s", (int)(dot - de->d_name - plen),
			 de->d_name + plen);
		if (!procid_tag_dead(tag))
			continue;
		path = xasprintf("%s/%s", parent, de->d_name);
		if (!scratch_remove(path)) {
			fprintf(stderr, "contend: removed the scratch directory "
				"%s, left by a runner that died\n",
				escape_quote(path));
			n++;
		}
		free(path);
	}
	closedir(d);
	return n;
}

static int remove_dir_fd(int dfd, dev_t dev, int depth, const char *path);

/*
 * Removes the subdirectory `name` of dfd after emptying it.  The open is
 * O_NOFOLLOW, and the inode must be the one lstat'ed: if the name was
 * swapped for a symlink or another directory in between, it is refused.
 */
static int remove_subdir(int dfd, const char *name, const struct stat *st,
			 dev_t dev, int depth, const char *path)
{
	struct stat sub;
	int fd, ret = -1;

	if (st->st_dev != dev)
		return error("scratch %s: %s is a mount point; left alone", path,
			     name);
	if (depth >= SCRATCH_MAX_DEPTH)
		return error("scratch %s: deeper than %d levels; left alone",
			     path, SCRATCH_MAX_DEPTH);
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return error("scratch %s: open %s: %s", path, name,
			     strerror(errno));
	if (fstat(fd, &sub) || sub.st_dev != st->st_dev ||
	    sub.st_ino != st->st_ino) {
		error("scratch %s: %s changed while being removed; left alone",
		      path, name);
		goto out;
	}
	if (remove_dir_fd(fd, dev, depth + 1, path))
		goto out;
	if (unlinkat(dfd, name, AT_REMOVEDIR)) {
		error("scratch %s: rmdir %s: %s", path, name, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

/* One entry: directories are emptied then removed; anything else unlinked. */
static int remove_entry(int dfd, const char *name, dev_t dev, int depth,
			const char *path)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return 0;
		return error("scratch %s: stat %s: %s", path, name,
			     strerror(errno));
	}
	if (S_ISDIR(st.st_mode))
		return remove_subdir(dfd, name, &st, dev, depth, path);
	/* unlinkat never follows a symlink: the link goes, its target stays. */
	if (unlinkat(dfd, name, 0) && errno != ENOENT)
		return error("scratch %s: unlink %s: %s", path, name,
			     strerror(errno));
	return 0;
}

/*
 * Empties the directory open at dfd (dfd stays open and owned by the
 * caller).  Entries are removed in passes until a pass finds none, because
 * readdir may skip entries of a directory that changes while it is read.
 */
static int remove_dir_fd(int dfd, dev_t dev, int depth, const char *path)
{
	int fd = dup(dfd), ret = -1;
	DIR *d;

	if (fd < 0)
		return error("scratch %s: dup: %s", path, strerror(errno));
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return error("scratch %s: fdopendir: %s", path, strerror(errno));
	}
	for (;;) {
		struct dirent *e;
		bool seen = false;

		rewinddir(d);
		while ((errno = 0, e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			seen = true;
			if (remove_entry(dfd, e->d_name, dev, depth, path))
				goto out;
		}
		if (errno) {
			error("scratch %s: readdir: %s", path, strerror(errno));
			goto out;
		}
		if (!seen)
			break;
	}
	ret = 0;
out:
	closedir(d);
	return ret;
}

int scratch_remove(const char *path)
{
	struct stat st;
	int fd, ret = -1;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			return error("scratch %s: not a directory (a symlink?); "
				     "left alone", path);
		return error("scratch %s: %s", path, strerror(errno));
	}
	if (fstat(fd, &st)) {
		error("scratch %s: stat: %s", path, strerror(errno));
		goto out;
	}
	if (remove_dir_fd(fd, st.st_dev, 0, path))
		goto out;
	if (rmdir(path)) {
		error("scratch %s: rmdir: %s", path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}
