/*
 * render.c - running gnuplot on the scripts written: found on PATH or
 * not, its messages kept in SCRIPT.log, never writing through a planted
 * symlink, an empty image (a full disk) an error; and the output
 * directory made.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plots/plot.h"
#include "lib/util.h"

bool plot_have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save = NULL;
	bool found = false;

	if (!path)
		return false;
	dirs = xstrdup(path);
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *exe = xasprintf("%s/gnuplot", dir);

		found = access(exe, X_OK) == 0;
		free(exe);
	}
	free(dirs);
	return found;
}

/*
 * The image gnuplot writes for script: a symlink planted there is removed
 * first (gnuplot's `set output` would write through it); -1 unless the
 * image is there afterwards, not empty (gnuplot on a full disk exits 0).
 */
static int render_target(const char *dir, const char *script,
			 const char *fmt, bool after)
{
	char *out = xasprintf("%s/%.*s.%s", dir, (int)strlen(script) - 3,
			      script, fmt);
	struct stat st;
	int ret = 0;

	if (!after && !lstat(out, &st) && S_ISLNK(st.st_mode) && unlink(out))
		ret = error("%s: %s", out, strerror(errno));
	if (after && (stat(out, &st) || !st.st_size))
		ret = error("%s: gnuplot wrote nothing (a full disk?)", out);
	free(out);
	return ret;
}

/*
 * gnuplot's stderr goes to SCRIPT.log in dir: its warnings ("empty y
 * range") are noise when the image came out, its errors are shown when it
 * did not.
 */
int plot_render(const char *dir, const char *script, const char *fmt)
{
	char *expr, *log;
	int status, ret = 0;
	pid_t pid;

	if (render_target(dir, script, fmt, false))
		return -1;
	expr = xasprintf("fmt='%s'", fmt);
	log = xasprintf("%s/%s.log", dir, script);
	pid = fork();
	if (pid < 0) {
		ret = error("fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		/* Not through a symlink planted there (then stderr stays). */
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
				   O_NOFOLLOW, 0644);

		if (fd >= 0)
			dup2(fd, STDERR_FILENO);
		if (chdir(dir) < 0)
			_exit(126);
		execlp("gnuplot", "gnuplot", "-e", expr, script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ret = error("waitpid: %s", strerror(errno));
			goto out;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		FILE *f = fopen(log, "r");
		char line[512];

		while (f && fgets(line, sizeof(line), f))
			fputs(line, stderr);
		if (f)
			fclose(f);
		ret = error("gnuplot failed on %s/%s (its messages are in %s)",
			    dir, script, log);
		goto out;
	}
	unlink(log);
	ret = render_target(dir, script, fmt, true);
out:
	free(expr);
	free(log);
	return ret;
}

int plot_mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			ret = -1;
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		ret = -1;
	if (ret)
		error("cannot create %s: %s", path, strerror(errno));
	free(p);
	return ret;
}

int plot_render_set(const struct plot_opts *o, struct plot_set *set)
{
	size_t i;
	int ret = 0;

	if (!plot_have_gnuplot())
		return error("gnuplot is not installed: data and scripts are in %s; "
			     "install it with 'apt-get install gnuplot-nox' and run "
			     "this command again", o->out_dir);
	for (i = 0; i < set->n; i++) {
		struct plot_file *f = &set->files[i];
		int bad = 0;

		if (f->skipped)
			continue;
		if (o->png)
			bad |= plot_render(o->out_dir, f->name, "png");
		if (o->svg)
			bad |= plot_render(o->out_dir, f->name, "svg");
		f->rendered = !bad;
		ret |= bad;
	}
	return ret;
}

