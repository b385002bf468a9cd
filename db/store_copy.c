/*
 * store_copy.c - the private copy of a WAL database on read-only media
 * (store_open.c reads it instead of the file): made under $TMPDIR in a
 * directory named for its owner (contend-ro-PID-STARTTIME.XXXXXX,
 * lib/procid.h), removed when the store closes, when a catchable signal
 * ends the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE: the
 * handler removes it and the signal then ends the process as it would
 * have), and, when the owner died in a way no handler sees (SIGKILL, a
 * crash), by the next contend that opens a database read-only (issue
 * 37, item 4: each reader stopped left the whole database behind).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/store_impl.h"
#include "lib/escape.h"
#include "lib/procid.h"
#include "lib/util.h"

#define COPY_PREFIX "contend-ro-"
#define COPY_NAME "contend.db"
#define COPY_SLOTS 16 /* copies a signal can remove (merge's inputs) */

/* What a copy's directory may hold: the file, its log, index, journal. */
static const char *const copy_files[] = {
	COPY_NAME, COPY_NAME "-wal", COPY_NAME "-shm", COPY_NAME "-journal",
};

char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	return slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
}

/* ---- removal on a signal ---- */

/* The directories of the copies open now; a slot is used once its path
 * is whole, and given up before the copy is removed. */
static struct {
	volatile sig_atomic_t used;
	char dir[PATH_MAX];
} slots[COPY_SLOTS];

static const int copy_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };

/* Async-signal-safe: unlink and rmdir on paths built in a local buffer. */
static void on_signal(int sig)
{
	char path[PATH_MAX + 32];
	size_t i, k, n;

	for (i = 0; i < COPY_SLOTS; i++) {
		if (!slots[i].used)
			continue;
		n = strlen(slots[i].dir);
		for (k = 0; k < ARRAY_SIZE(copy_files); k++) {
			memcpy(path, slots[i].dir, n);
			path[n] = '/';
			memcpy(path + n + 1, copy_files[k],
			       strlen(copy_files[k]) + 1);
			unlink(path);
		}
		rmdir(slots[i].dir);
	}
	/* SA_RESETHAND made the action the default again: the signal,
	 * unblocked on return, ends the process as it would have */
	raise(sig);
}

/*
 * Handlers for the signals whose action is the default (termination):
 * one that contend handles itself (the runner's SIGINT) is left alone,
 * since it does not end the process without store_close.
 */
static void handlers_install(void)
{
	static bool done;
	struct sigaction sa, old;
	size_t i;

	if (done)
		return;
	done = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(copy_signals); i++)
		sigaddset(&sa.sa_mask, copy_signals[i]);
	for (i = 0; i < ARRAY_SIZE(copy_signals); i++)
		if (!sigaction(copy_signals[i], NULL, &old) &&
		    old.sa_handler == SIG_DFL)
			sigaction(copy_signals[i], &sa, NULL);
}

static void slot_take(const char *dir)
{
	size_t i;

	if (strlen(dir) >= PATH_MAX)
		return; /* not removed on a signal; the next sweep does */
	for (i = 0; i < COPY_SLOTS; i++)
		if (!slots[i].used) {
			memcpy(slots[i].dir, dir, strlen(dir) + 1);
			slots[i].used = 1;
			return;
		}
}

static void slot_give(const char *dir)
{
	size_t i;

	for (i = 0; i < COPY_SLOTS; i++)
		if (slots[i].used && !strcmp(slots[i].dir, dir))
			slots[i].used = 0;
}

/* ---- the copy ---- */

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Copies the file from into the new file to; 0, or -1 with errno set. */
static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in, out = -1, ret, saved;
	ssize_t n = -1;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in >= 0)
		out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out >= 0)
		while ((n = read(in, buf, sizeof(buf))) != 0)
			if (n < 0 ? errno != EINTR
				  : write_all(out, buf, (size_t)n))
				break;
	ret = out >= 0 && n == 0 ? 0 : -1;
	saved = errno;
	if (out >= 0 && close(out) && !ret) {
		ret = -1;
		saved = errno;
	}
	if (in >= 0)
		close(in);
	errno = saved;
	return ret;
}

void store_copy_remove(struct store *s)
{
	char *dir;
	size_t i;

	if (!s->copy)
		return;
	dir = dir_of(s->copy);
	slot_give(dir);
	for (i = 0; i < ARRAY_SIZE(copy_files); i++) {
		char *f = xasprintf("%s/%s", dir, copy_files[i]);

		unlink(f);
		free(f);
	}
	rmdir(dir);
	free(dir);
	free(s->copy);
	s->copy = NULL;
}

static const char *tmp_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/tmp";
}

int store_copy_make(struct store *s)
{
	char *wal = xasprintf("%s-wal", s->path), *dir = NULL, *copy_wal;
	const char *tmp = tmp_dir();
	char tag[64];
	struct stat st;
	int ret = 0;

	if (stat(wal, &st) || st.st_size == 0)
		goto out;
	if (procid_tag(getpid(), tag, sizeof(tag))) {
		ret = error("%s: its write-ahead log %s cannot be read on "
			    "read-only media, and this process cannot be "
			    "named for a private copy (/proc/self/stat)",
			    s->path, wal);
		goto out;
	}
	dir = xasprintf("%s/" COPY_PREFIX "%s.XXXXXX", tmp, tag);
	handlers_install();
	if (!mkdtemp(dir)) {
		ret = error("%s: its write-ahead log %s cannot be read on "
			    "read-only media, and no private copy can be made "
			    "in %s: %s (TMPDIR names where)", s->path, wal, tmp,
			    strerror(errno));
		goto out;
	}
	slot_take(dir);
	s->copy = xasprintf("%s/" COPY_NAME, dir);
	copy_wal = xasprintf("%s-wal", s->copy);
	if (copy_file(s->path, s->copy) || copy_file(wal, copy_wal))
		ret = error("%s: its write-ahead log %s cannot be read on "
			    "read-only media, and copying both to %s failed: "
			    "%s (TMPDIR names where)", s->path, wal, dir,
			    strerror(errno));
	free(copy_wal);
	if (ret) {
		store_copy_remove(s);
		rmdir(dir); /* when the copy's name was never set */
		slot_give(dir);
	}
out:
	free(wal);
	free(dir);
	return ret;
}

/* ---- copies left by a contend that died ---- */

/* The copy directory name of tmp: its files and itself removed, only
 * when it is a directory of ours (no symlink followed); 0 when gone. */
static int sweep_one(int tfd, const char *name)
{
	struct stat st;
	size_t i;
	int fd;

	fd = openat(tfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_uid != geteuid()) {
		close(fd);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(copy_files); i++)
		unlinkat(fd, copy_files[i], 0);
	close(fd);
	return unlinkat(tfd, name, AT_REMOVEDIR);
}

void store_copy_sweep(void)
{
	static bool done;
	size_t plen = strlen(COPY_PREFIX);
	const char *tmp = tmp_dir();
	struct dirent *de;
	DIR *d;

	if (done)
		return;
	done = true;
	if (!(d = opendir(tmp)))
		return;
	while ((de = readdir(d))) {
		const char *dot;
		char tag[64];

		if (strncmp(de->d_name, COPY_PREFIX, plen) ||
		    !(dot = strchr(de->d_name + plen, '.')) ||
		    (size_t)(dot - de->d_name - plen) >= sizeof(tag))
			continue;
		snprintf(tag, sizeof(tag), "%.*s",
			 (int)(dot - de->d_name - plen), de->d_name + plen);
		if (procid_tag_dead(tag) && !sweep_one(dirfd(d), de->d_name)) {
			fprintf(stderr, "contend: removed %s/%s, a database's "
				"read-only copy left by a contend that died\n",
				escape_quote(tmp), escape_quote(de->d_name));
		}
	}
	closedir(d);
}
