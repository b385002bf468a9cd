/*
 * render.c - running gnuplot on the scripts written: found on PATH or
 * not, the image it writes on a pipe written whole or not at all by
 * contend (lib/safefile.h: never through a planted symlink, a full disk
 * an error), its messages kept in memory and shown escaped when it
 * failed; and the output directory made.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/escape.h"
#include "lib/safefile.h"
#include "plots/plot.h"
#include "lib/proc.h"
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

/* SCRIPT.gp's image: DIR/SCRIPT.FMT, malloc'd. */
static char *image_path(const char *dir, const char *script, const char *fmt)
{
	return xasprintf("%s/%.*s.%s", dir, (int)strlen(script) - 3, script,
			 fmt);
}

/*
 * gnuplot's messages, kept in an unnamed temporary file (no name to plant
 * a link at), shown when it failed: a line at a time, escaped (gnuplot
 * echoes the script's line, names included), at most 40 lines.
 */
static void show_messages(FILE *log)
{
	char line[512];
	int n = 0;

	rewind(log);
	while (fgets(line, sizeof(line), log) && n++ < 40) {
		line[strcspn(line, "\n")] = '\0';
		fputs("gnuplot: ", stderr);
		escape_fputs(stderr, line);
		fputc('\n', stderr);
	}
}

/* The image into path, whole or not at all; 0, or -1 after error(). */
static int write_image(const char *path, const char *buf, size_t len)
{
	FILE *f = safefile_open(path);

	if (!f)
		return error("%s: %s", path, strerror(errno));
	fwrite(buf, 1, len, f);
	if (fclose(f))
		return error("%s: %s", path, strerror(errno));
	return 0;
}

/*
 * gnuplot writes the image on a pipe (contend_stdout: plot_terminal), and
 * contend writes it to DIR/SCRIPT.FMT through safefile: whole or not at
 * all, never through a link planted there, every write, flush, close and
 * rename checked (a full disk is an error, not a truncated image).
 */
int plot_render(const char *dir, const char *script, const char *fmt)
{
	char *expr = xasprintf("fmt='%s'; contend_stdout = 1", fmt);
	char *path = image_path(dir, script, fmt);
	char *argv[] = { (char *)"gnuplot", (char *)"-e", expr, (char *)script,
			 NULL };
	struct proc p = { .argv = argv, .dir = dir, .err = PROC_ERR_FD };
	FILE *log = tmpfile();
	int ret = -1;

	if (!log) {
		error("gnuplot: %s", strerror(errno));
		goto out;
	}
	p.err_fd = fileno(log);
	if (proc_run(&p) && !p.exec_err) {
		error("gnuplot: %s", strerror(errno));
	} else if (p.exec_err || !WIFEXITED(p.wstatus) ||
		   WEXITSTATUS(p.wstatus)) {
		show_messages(log);
		error("gnuplot failed on %s/%s", dir, script);
	} else if (p.read_err || !p.outlen) {
		error("%s: %s", path, p.read_err ? strerror(p.read_err)
						 : "gnuplot wrote nothing");
	} else {
		ret = write_image(path, p.out, p.outlen);
	}
	proc_release(&p);
out:
	if (log)
		fclose(log);
	free(expr);
	free(path);
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

