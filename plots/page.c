/*
 * page.c - what every HTML page of contend shares: the head with its
 * style, the figures inlined as base64 images (no external request, no
 * script), and the foot; and compare's page (html_compare), whose text is
 * compare's own output, escaped, above its figure.  html.c builds the
 * report's page on these.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/readfile.h"
#include "lib/safefile.h"
#include "lib/util.h"
#include "plots/plot.h"

static void base64(FILE *f, const unsigned char *p, size_t n)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];

		fputc(tab[v >> 18], f);
		fputc(tab[(v >> 12) & 63], f);
		fputc(tab[(v >> 6) & 63], f);
		fputc(tab[v & 63], f);
	}
	if (i < n) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);

		fputc(tab[v >> 18], f);
		fputc(tab[(v >> 12) & 63], f);
		fputc(i + 1 < n ? tab[(v >> 6) & 63] : '=', f);
		fputc('=', f);
	}
}

char *plot_image_name(const struct plot_file *p, const char *ext)
{
	size_t len = strlen(p->name);

	return xasprintf("%.*s.%s", (int)(len > 3 ? len - 3 : len), p->name, ext);
}

/* What a figure shows, in words: its title (the file's name only for a
 * figure that has none). */
static const char *caption(const struct plot_file *p)
{
	return p->title && *p->title ? p->title : p->name;
}

void html_figures(FILE *f, const struct plot_set *plots, const char *dir)
{
	static const char *const exts[] = { "svg", "png" };
	static const char *const mime[] = { "image/svg+xml", "image/png" };
	size_t i, k;

	for (i = 0; i < plots->n; i++) {
		for (k = 0; k < ARRAY_SIZE(exts); k++) {
			char *name = plot_image_name(&plots->files[i], exts[k]);
			char *path = xasprintf("%s/%s", dir, name);
			size_t len = 0;
			char *img = NULL;

			readfile_at(AT_FDCWD, path, 0, &img, &len);
			free(path);
			free(name);
			if (!img)
				continue;
			/* An <img> never runs script, whatever the SVG holds. */
			fputs("<figure>\n<img alt=\"", f);
			escape_html(f, plots->files[i].title ? plots->files[i].title : "");
			fprintf(f, "\" src=\"data:%s;base64,", mime[k]);
			base64(f, (const unsigned char *)img, len);
			fputs("\">\n<figcaption>", f);
			escape_html(f, caption(&plots->files[i]));
			fputs("</figcaption>\n</figure>\n", f);
			free(img);
			break;
		}
	}
}

static const char html_style[] =
	"body{font-family:sans-serif;max-width:70em;margin:1em auto;color:#111}"
	"table{border-collapse:collapse;margin:.5em 0;font-size:90%}"
	"th,td{border:1px solid #bbb;padding:2px 6px;text-align:right}"
	"th{background:#eee}table.kv th,table.kv td{text-align:left}"
	".canon{font-family:monospace;font-size:85%;color:#444}"
	".head{font-family:monospace;font-size:90%;margin:.1em 0}"
	".flag{padding:4px 8px;border-left:4px solid}"
	".flag.high{background:#f8d7da;border-color:#b02a37}"
	".flag.mid{background:#fff3cd;border-color:#c90}"
	".flag.low{background:#eef0f2;border-color:#888}"
	"pre{font-size:90%;overflow-x:auto}"
	"img{max-width:100%}figure{margin:1em 0}"
	"@media print{section,figure,table{page-break-inside:avoid}"
	"body{max-width:none}}";

void html_page_open(FILE *f, const char *heading)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<title>", f);
	escape_html(f, heading);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", html_style);
	escape_html(f, heading);
	fputs("</h1>\n", f);
}

int html_page_close(FILE *f, const char *path)
{
	int ret;

	fputs("</body>\n</html>\n", f);
	ret = ferror(f) ? error("%s: write error", path) : 0;
	if (fclose(f))
		ret = error("%s: %s", path, strerror(errno));
	return ret;
}

int html_compare(const char *text, const char *base, const char *cand,
		 const struct plot_set *plots, const char *dir,
		 const char *path)
{
	FILE *f = safefile_open(path);
	char *heading;

	if (!f)
		return error("%s: %s", path, strerror(errno));
	heading = xasprintf("contend compare: %s vs %s", base, cand);
	html_page_open(f, heading);
	free(heading);
	/* A line at a time: escape_html shows a line break as \n. */
	fputs("<pre>", f);
	while (*text) {
		size_t n = strcspn(text, "\n");
		char *line = xstrndup(text, n);

		escape_html(f, line);
		fputc('\n', f);
		free(line);
		text += n + (text[n] == '\n');
	}
	fputs("</pre>\n", f);
	html_figures(f, plots, dir);
	return html_page_close(f, path);
}
