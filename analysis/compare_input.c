/*
 * compare_input.c - the sides of `contend compare`: which kind each is
 * (a database selector, an export file, number files), loading it,
 * matching two sides filtered on a changed parameter, and the metric and
 * options of their comparison (compare.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/escape.h"
#include "analysis/compare.h"
#include "lib/util.h"

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/*
 * SQLite files begin with this 16-byte header string.  Only a regular
 * file is looked into: reading a FIFO would wait for a writer, or take
 * the first bytes of the numbers sent through it.
 */
static bool is_sqlite(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	struct stat st;
	FILE *f;
	bool yes;

	if (stat(path, &st) || !S_ISREG(st.st_mode) || !(f = fopen(path, "rb")))
		return false;
	yes = fread(head, 1, sizeof(head), f) == sizeof(head) &&
	      !memcmp(head, magic, sizeof(magic));
	fclose(f);
	return yes;
}

/* 1: path (malloc'd, taken over) is a database, now s->db; 0: no such
 * file; -1 after error(): a file that is not one. */
static int db_file(struct compare_input *s, char *path)
{
	int ret = !is_file(path) ? 0 : is_sqlite(path) ? 1 : -1;

	if (ret < 0)
		error("%s: '%s' is not a contend database", s->text,
		      escape_quote(path));
	if (ret > 0)
		s->db = path;
	else
		free(path);
	return ret;
}

/*
 * A file that is not numbers is a whole database; otherwise the
 * shortest prefix before a ':' that names a file is the database; else
 * the text is a selector in the default database.
 */
static int resolve(struct compare_input *s, const char *default_db)
{
	const char *p, *h;
	char err[512];
	int k;

	if (is_file(s->text))
		s->db = xstrdup(s->text);
	if (is_file(s->text) || !strcmp(s->text, "-")) /* "-": numbers */
		return 0;
	/* [DB:]WHAT[~newest][@KEY=VALUE,...] (db/select.h) */
	if (select_parse(s->text, &s->pick, err, sizeof(err)))
		return error("%s: %s", s->role, err);
	h = s->pick.head;
	k = *h ? db_file(s, xstrdup(h)) : 0;
	for (p = strchr(h, ':'); !k && p; p = strchr(p + 1, ':'))
		if ((k = db_file(s, xstrndup(h, (size_t)(p - h)))) > 0)
			s->sel = p[1] ? xstrdup(p + 1) : NULL;
	if (k)
		return k < 0 ? -1 : 0;
	if (!is_file(default_db))
		return error("'%s' is neither a file nor found in a database: "
			     "no database at %s (use --db PATH or DB:LABEL)",
			     escape_quote(s->text), default_db);
	s->db = xstrdup(default_db);
	s->sel = *h ? xstrdup(h) : NULL;
	return 0;
}

/* Analyses the loaded datasets and makes them the side (a failure
 * leaves what it took to compare_input_release). */
static int analyse_sets(struct compare_input *s)
{
	struct analysis_opts ao;
	size_t i;

	s->an = xcalloc(s->nsets ? s->nsets : 1, sizeof(*s->an));
	analysis_opts_default(&ao);
	for (i = 0; i < s->nsets; i++)
		if (analysis_run(&s->sets[i], &ao, &s->an[i]) < 0)
			return EXIT_RUNTIME;
	s->side.name = s->text;
	s->side.nsets = s->nsets;
	s->side.sets = s->sets;
	s->side.an = s->an;
	return 0;
}

/* Loads every experiment the selector names. */
static int load_db(struct compare_input *s)
{
	int k;
	size_t i, kept = 0;

	k = store_open(s->db, STORE_RDONLY, &s->st);
	if (k)
		return store_exit_status(k);
	k = store_experiment_find(s->st, s->sel, &s->ids);
	if (k < 0)
		return EXIT_RUNTIME;
	if (k == 0) {
		error("%s: no experiment, label or id '%s' in %s", s->role,
		      escape_quote(s->sel ? s->sel : "(newest)"), s->db);
		return EXIT_USAGE;
	}
	if (s->pick.newest && k > 1) { /* LABEL~newest */
		s->ids[0] = s->ids[k - 1];
		k = 1;
	}
	s->sets = xcalloc((size_t)k, sizeof(*s->sets));
	for (i = 0; i < (size_t)k; i++) {
		if (select_load(&s->pick, s->st, s->ids[i], &s->sets[i], &kept))
			return EXIT_RUNTIME;
		s->nsets++;
	}
	if (!kept) {
		char *what = xasprintf("'%s'", s->text), err[512];

		k = select_none(&s->pick, what, err, sizeof(err));
		error("%s: %s", s->role, err);
		free(what);
		return k;
	}
	/* before the sides are matched: the configurations' own canon */
	return compare_calib_load(s) < 0 ? EXIT_RUNTIME : 0;
}

void compare_files_release(struct compare_files *files)
{
	for (size_t i = 0; i < files->n; i++) {
		free(files->f[i].path);
		free(files->f[i].buf);
	}
	free(files->f);
	memset(files, 0, sizeof(*files));
}

/*
 * The contents of path: *buf to free (a regular file, or no cache) or
 * *cached (the cache's, not to free).  -1 after "contend: PATH: ..."; a
 * file of the cache that failed once fails again without a word.
 */
static int file_text(struct compare_files *files, const char *path,
		     char **buf, const char **cached, size_t *len)
{
	struct compare_file *f;
	struct stat st;

	*buf = NULL;
	*cached = NULL;
	if (!files || (stat(path, &st) == 0 && S_ISREG(st.st_mode))) {
		if (numfile_slurp(path, buf, len) < 0)
			return -1;
		*cached = *buf;
		return 0;
	}
	for (size_t i = 0; i < files->n; i++)
		if (!strcmp(files->f[i].path, path)) {
			*cached = files->f[i].buf;
			*len = files->f[i].len;
			return *cached ? 0 : -1;
		}
	files->f = xrealloc(files->f, (files->n + 1) * sizeof(*files->f));
	f = &files->f[files->n++];
	f->path = xstrdup(path);
	f->len = 0;
	if (numfile_slurp(path, &f->buf, &f->len) < 0)
		return -1;
	*cached = f->buf;
	*len = f->len;
	return 0;
}

/* Every comma-separated part names a file: number files, one each. */
static bool is_file_list(const char *text)
{
	const char *p = text;
	bool ok = strchr(text, ',') != NULL;

	while (ok && *p) {
		size_t len = strcspn(p, ",");
		char *part = xstrndup(p, len);

		ok = len && is_file(part);
		free(part);
		p += len;
		p += *p == ',';
	}
	return ok;
}

/* The numbers of one file (name: text, len) appended to s as one
 * invocation; 0, or the exit status after error(). */
static int add_numbers(struct compare_input *s, const char *name,
		       const char *text, size_t len,
		       const struct numfile_opts *nf)
{
	double *v = NULL;
	size_t n = 0;

	if (numfile_parse(name, text, len, nf, &v, &n))
		return EXIT_USAGE;
	if (n > NUMFILE_MAX_VALUES - s->nvalues) {
		free(v);
		error("%s: more than %d numbers in all its files: the limit of "
		      "a side (docs/LIMITS.md)", s->text, NUMFILE_MAX_VALUES);
		return EXIT_USAGE;
	}
	s->values = xrealloc(s->values, (s->nvalues + n) * sizeof(*s->values));
	memcpy(s->values + s->nvalues, v, n * sizeof(*v));
	free(v);
	s->nvalues += n;
	s->sizes = xrealloc(s->sizes, (s->nfiles + 1) * sizeof(*s->sizes));
	s->sizes[s->nfiles++] = n;
	return 0;
}

/* The number files of a side: "a1.txt,a2.txt,...", or "-" (in, inlen). */
static int load_numbers(struct compare_input *s, const struct numfile_opts *nf,
			const char *in, size_t inlen)
{
	const char *p = s->text;
	int ret = 0;

	while (*p && !ret) {
		size_t len = strcspn(p, ","), tlen = inlen;
		char *part = xstrndup(p, len), *buf = NULL;
		bool std = !strcmp(part, "-");
		const char *text = in;

		if (!std && file_text(s->files, part, &buf, &text, &tlen) < 0)
			ret = EXIT_USAGE;
		else
			ret = add_numbers(s, std ? "(standard input)" : part,
					  text, tlen, nf);
		free(buf);
		free(part);
		p += len;
		p += *p == ',';
	}
	return ret;
}

int compare_input_load(struct compare_input *s,
		       const struct compare_request *q, bool numbers_only)
{
	const char *text;
	char *buf;
	size_t len = 0;
	int ret = 0;

	s->kind = INPUT_NUMBERS;
	if (is_file_list(s->text))
		return load_numbers(s, &q->nf, q->in, q->inlen);
	if (is_file(s->text) && !is_sqlite(s->text)) {
		/* an export, else numbers: read once (a FIFO can be) */
		if (file_text(s->files, s->text, &buf, &text, &len) < 0)
			return EXIT_USAGE;
		if (len && exportside_is_export(text, len))
			s->kind = INPUT_EXPORT;
		if (s->kind == INPUT_NUMBERS)
			ret = add_numbers(s, s->text, text, len, &q->nf);
		else if (!numbers_only)
			ret = exportside_parse(s->text, text, len, &s->sets,
					       &s->nsets) < 0
				      ? EXIT_USAGE : analyse_sets(s);
		free(buf);
		return ret;
	}
	if (resolve(s, q->db) < 0)
		return EXIT_USAGE;
	if (!s->db)
		return load_numbers(s, &q->nf, q->in, q->inlen);
	s->kind = INPUT_DB;
	if (numbers_only)
		return 0;
	ret = load_db(s);
	return ret ? ret : analyse_sets(s);
}

void compare_input_release(struct compare_input *s)
{
	size_t i;

	for (i = 0; i < s->nsets; i++) {
		if (s->an)
			analysis_release(&s->an[i]);
		dataset_release(&s->sets[i]);
	}
	free(s->an);
	free(s->sets);
	free(s->ids);
	if (s->st)
		store_close(s->st);
	compare_calib_release(&s->calib);
	free(s->values);
	free(s->sizes);
	free(s->db);
	free(s->sel);
	select_release(&s->pick);
}

/*
 * Number files become a side the way an export file does: their numbers
 * are written into an in-memory store (db/store.h, "rows"), a file an
 * experiment, one configuration shaped like the other side's only one (or
 * named "" against another file), a run per number holding metric, and
 * store_load reads it as any side.
 */
int compare_input_number_side(struct compare_input *s,
			      const struct compare_input *other,
			      const char *metric)
{
	const struct ds_config *like = NULL;
	struct series_list l = { 0 };
	size_t i, r, off = 0;
	int k, ret = 0;

	if (s->nvalues < 2)
		return error("%s: the %s has a single value: a comparison "
			     "needs at least 2 a side (better 10)", s->text,
			     s->role);
	if (other->kind != INPUT_NUMBERS)
		series_build(other->side.sets, other->side.nsets, &l);
	if (l.n == 1)
		like = &other->side.sets[l.s[0].member[0].set]
				.configs[l.s[0].member[0].config];
	series_release(&l);
	if (other->kind != INPUT_NUMBERS && !like)
		return error("%s is a number file, so %s must select exactly "
			     "one configuration", s->text, other->text);
	if (store_rows_open(&s->st) < 0)
		return -1;
	for (i = 0; i < s->nfiles; off += s->sizes[i], i++) {
		char *uuid = xasprintf("%zu", i + 1);

		for (r = 0; r < s->sizes[i] && !ret; r++)
			ret = store_rows_add(s->st, &(struct store_row){
				.uuid = uuid, .experiment_id = (int64_t)i + 1,
				.name = "", .label = "", .hostname = "",
				.workload = like ? like->workload : "",
				.section = like ? like->section : "",
				.params = like ? like->canon : "",
				.seq = (long)r, .metric = metric,
				.value = s->values[off + r] }) ? -1 : 0;
		free(uuid);
		if (ret)
			return -1;
	}
	k = store_rows_finish(s->st, &s->ids);
	if (k != (int)s->nfiles)
		return k < 0 ? -1 : error("%s: its numbers did not load",
					  s->text);
	s->sets = xcalloc(s->nfiles, sizeof(*s->sets));
	for (; s->nsets < s->nfiles; s->nsets++)
		if (store_load(s->st, s->ids[s->nsets], &s->sets[s->nsets]) < 0)
			return -1;
	if (analyse_sets(s))
		return -1;
	s->side.numbers = true;
	return 0;
}
