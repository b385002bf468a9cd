/*
 * config.c - the INI experiment language: a file (or a buffer) loaded into
 * struct experiment_config, released, printed for --dry-run.  The loading
 * itself is in the config_*.c files (config_impl.h says which does
 * what).  Every error of a file is collected with its line and printed in
 * line order; nothing of a failed load survives.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner/config_impl.h"
#include "lib/readfile.h"
#include "lib/util.h"
#include "lib/wrap.h"

/* ---- loading ----------------------------------------------------------- */

static void loader_release(struct loader *L)
{
	size_t i, j;

	for (i = 0; i < L->nsecs; i++) {
		for (j = 0; j < L->secs[i].nkeys; j++) {
			free(L->secs[i].keys[j].key);
			free(L->secs[i].keys[j].value);
		}
		free(L->secs[i].keys);
		free(L->secs[i].label);
	}
	free(L->secs);
	for (i = 0; i < L->nmsgs; i++)
		free(L->msgs[i].text);
	free(L->msgs);
}

static bool any_workload(const struct loader *L)
{
	size_t i;

	for (i = 0; i < L->nsecs; i++)
		if (L->secs[i].kind == SEC_WORKLOAD)
			return true;
	return false;
}

/* Loads text (NUL-terminated, owned by c from here on). */
static int config_parse(const char *file, char *text, size_t len,
			struct experiment_config *c)
{
	struct loader L = { .file = file, .text = text, .len = len,
			    .cur = CUR_NONE, .c = c,
			    .hooks = { .timeout_s = PREPARE_TIMEOUT_S } };
	size_t i;
	int ret;

	memset(c, 0, sizeof(*c));
	c->path = xstrdup(file);
	c->text = text;
	L.file = c->path;
	if (!check_binary(&L)) {
		parse_sections(&L);
		experiment_load(&L);
		for (i = 0; i < L.nsecs; i++)
			if (L.secs[i].kind == SEC_OBSERVER)
				observer_load(&L, &L.secs[i]);
		for (i = 0; i < L.nsecs; i++)
			if (L.secs[i].kind == SEC_WORKLOAD)
				workload_load(&L, &L.secs[i]);
		if (!any_workload(&L))
			report(&L, 0, "no [workload NAME] section: nothing to "
				      "run");
	}
	ret = L.nerrors ? -1 : 0;
	errors_flush(&L);
	loader_release(&L);
	if (ret)
		config_release(c);
	return ret;
}

/* Reads at most CONFIG_MAX_FILE + 1 bytes: enough to know it is too big. */
static int read_fd(const char *path, int fd, char **text, size_t *len)
{
	if (readfile_fd(fd, CONFIG_MAX_FILE, text, len) < 0) {
		int e = errno;

		free(*text);
		*text = NULL;
		error_at(path, 0, "cannot read: %s", strerror(e));
		return -1;
	}
	return 0;
}

int config_load(const char *path, struct experiment_config *c)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	memset(c, 0, sizeof(*c));
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return error_at(path, 0, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return error_at(path, 0, "is a directory, not an INI file");
	}
	ret = read_fd(path, fd, &text, &len);
	close(fd);
	if (ret)
		return -1;
	if (len > CONFIG_MAX_FILE) {
		free(text);
		return error_at(path, 0, "file is larger than %d bytes",
				CONFIG_MAX_FILE);
	}
	return config_parse(path, text, len, c);
}

int config_load_buffer(const char *name, const char *text, size_t len,
		       struct experiment_config *c)
{
	char *copy;

	memset(c, 0, sizeof(*c));
	if (len > CONFIG_MAX_FILE)
		return error_at(name, 0, "file is larger than %d bytes",
				CONFIG_MAX_FILE);
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	return config_parse(name, copy, len, c);
}

void config_release(struct experiment_config *c)
{
	size_t i, j;

	for (i = 0; i < c->nentries; i++) {
		struct config_entry *e = &c->entries[i];

		for (j = 0; j < e->nkv; j++)
			free(e->kv[j]);
		free(e->kv);
		for (j = 0; j < e->nuser; j++)
			free(e->user[j]);
		free(e->user);
		for (j = 0; j < e->ndirections; j++)
			free(e->directions[j]);
		free(e->directions);
		free(e->prepare);
		free(e->cleanup);
		free(e->primary);
		free(e->canon);
		free(e->section);
	}
	free(c->entries);
	free(c->path);
	free(c->text);
	free(c->name);
	free(c->offline);
	for (i = 0; i < c->nobservers; i++) {
		free((char *)c->observers[i].name);
		free((char *)c->observers[i].command);
		free((char *)c->observers[i].ready_arg);
		free((char *)c->observers[i].package);
	}
	free(c->observers);
	memset(c, 0, sizeof(*c));
}

/* ---- the plan, for --dry-run ------------------------------------------- */

/* "(1 warm-up + 5 runs, timeout 10s)", malloc'd. */
static char *runs_text(const struct run_settings *s)
{
	if (s->repetitions)
		return xasprintf("(%d warm-up + %d runs, timeout %gs)",
				 s->warmup, s->repetitions, s->timeout_s);
	return xasprintf("(%d warm-up + auto %d..%d runs, timeout %gs)",
			 s->warmup, s->min_repetitions, s->max_repetitions,
			 s->timeout_s);
}

void config_print(const struct experiment_config *c, FILE *f)
{
	uint64_t warm = 0, measured = 0;
	bool any_auto = false;
	size_t i;

	for (i = 0; i < c->nentries; i++) {
		const struct run_settings *s = &c->entries[i].set;

		warm += (uint64_t)s->warmup;
		measured += (uint64_t)(s->repetitions ? s->repetitions :
							 s->max_repetitions);
		any_auto |= !s->repetitions;
	}
	fprintf(f, "experiment %s (%s)\n", c->name, c->path);
	fprintf(f, "order %s, ", order_names[c->order]);
	if (c->has_seed)
		fprintf(f, "seed %" PRIu64, c->seed);
	else
		fprintf(f, "seed drawn at run time");
	fprintf(f, ", confidence %g", c->confidence);
	if (c->kinstr.n && c->kinstr.k[0] != KINSTR_NONE) {
		char list[64];

		fprintf(f, ", kernel instruments %s",
			kinstr_list_text(&c->kinstr, list, sizeof(list)));
	}
	fprintf(f, "\n\n");
	for (i = 0; i < c->nentries; i++) {
		const struct config_entry *e = &c->entries[i];
		char *runs = runs_text(&e->set), *canon = xstrdup(e->canon);
		const char **words = xcalloc(strlen(canon) + 2,
					     sizeof(*words));
		size_t n = 0;
		int at;

		/* wrapped for an 80-column terminal, under the section; the
		 * runs in parentheses kept whole */
		for (char *w = strtok(canon, " "); w; w = strtok(NULL, " "))
			words[n++] = w;
		words[n++] = runs;
		at = fprintf(f, "%4zu  [%s] %s: ", i + 1, e->section,
			     e->wl->name);
		wrap_list(f, words, n, at, 6, 78);
		free(words);
		free(canon);
		free(runs);
	}
	fprintf(f, "\n%zu configurations: %" PRIu64 " warm-up + %s%" PRIu64
		   " measured = %s%" PRIu64 " runs\n", c->nentries, warm,
		any_auto ? "up to " : "", measured, any_auto ? "up to " : "",
		warm + measured);
}

const char *config_primary_metric(const struct config_entry *e)
{
	return e->primary;
}

enum direction config_direction(const struct config_entry *e,
				const char *metric)
{
	size_t i, n = strlen(metric);

	for (i = 0; i < e->ndirections; i++)
		if (!strncmp(e->directions[i], metric, n) &&
		    e->directions[i][n] == '=')
			return strcmp(e->directions[i] + n + 1, CV_LOWER)
			       ? DIR_HIGHER : DIR_LOWER;
	return metric_direction(metric);
}

const char *entry_value(const struct config_entry *e, const char *key)
{
	size_t i, n = strlen(key);

	for (i = 0; i < e->nkv; i++)
		if (!strncmp(e->kv[i], key, n) && e->kv[i][n] == '=')
			return e->kv[i] + n + 1;
	return NULL;
}
