/*
 * cmd_merge.c - `contend merge OUT.db IN.db...`: copies every experiment of
 * each input, with all its rows, into OUT (created when missing).  Ids are
 * remapped; an experiment whose uuid OUT already holds is skipped with a
 * notice, so merging is idempotent.  Inputs are opened read-only; each
 * experiment is copied from one snapshot of its input in one transaction
 * (store_copy_experiment: ATTACH and INSERT ... SELECT).
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "db/store.h"
#include "cli/commands.h"
#include "lib/util.h"

struct merge {
	struct store *out, *in;
	const char *out_path, *in_path;
	size_t merged, skipped;
};

/* One experiment: one read snapshot of the input, one write transaction. */
static int merge_experiment(struct merge *m, int64_t id)
{
	struct experiment_row e;
	int ret;

	if (store_experiment_get(m->in, id, &e))
		return -1;
	ret = store_copy_experiment(m->out, id);
	/* The input's names shown, never obeyed: a received database. */
	if (ret == 0) {
		fprintf(stderr, "contend: %s: experiment %" PRId64 " '%s' (%s) is "
			"already in %s, skipped\n", escape_quote(m->in_path),
			e.id, escape_quote(e.name), escape_quote(e.uuid),
			escape_quote(m->out_path));
		m->skipped++;
	} else if (ret > 0) {
		if (strcmp(e.status, "complete") != 0)
			fprintf(stderr, "contend: %s: experiment %" PRId64 " '%s'"
				" is %s; merged as it is now\n",
				escape_quote(m->in_path), e.id,
				escape_quote(e.name), escape_quote(e.status));
		m->merged++;
	}
	experiment_row_release(&e);
	return ret < 0 ? -1 : 0;
}

/* Returns 0, or the exit status of the failure. */
static int merge_file(struct merge *m, const char *path)
{
	int64_t *ids = NULL;
	int n, i, ret = EXIT_RUNTIME;

	m->in_path = path;
	n = store_open(path, STORE_RDONLY, &m->in);
	if (n)
		return store_exit_status(n);
	if (store_attach(m->out, m->in))
		goto out;
	n = store_experiment_list(m->in, &ids);
	for (i = 0; i < n; i++)
		if (merge_experiment(m, ids[i]))
			goto out;
	if (n >= 0)
		ret = 0;
out:
	store_detach(m->out);
	free(ids);
	store_close(m->in);
	m->in = NULL;
	return ret;
}

struct merge_args {
	const char *out;
	struct opt_words in;
};

static const struct opt merge_rows[] = {
	{ NULL, 0, "OUT.db", "the database to merge into (created when "
	  "missing)", NULL, offsetof(struct merge_args, out), 0, 0 },
	{ NULL, 0, "IN.db", "the databases whose experiments are copied",
	  NULL, offsetof(struct merge_args, in), 0, OPT_MANY },
};

const struct opt_cmd merge_cli = {
	"merge", "merge experiments of several databases", merge_rows,
	ARRAY_SIZE(merge_rows),
	"Copies every experiment of the inputs into OUT; experiments OUT "
	"already holds (the same uuid) are skipped. Every input must open "
	"before OUT is created.",
};

/*
 * Every input must open before OUT is created: bad input writes nothing.
 * Returns 0 or store_open's failure.
 */
static int inputs_check(int n, char **paths)
{
	struct store *s;
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = store_open(paths[i], STORE_RDONLY, &s);
		if (ret)
			return ret;
		store_close(s);
	}
	return 0;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_args args = { 0 };
	struct merge m = { 0 };
	size_t i;
	int ret = opt_parse(&merge_cli, argc, argv, &args);

	if (ret)
		return opt_exit(ret);
	m.out_path = args.out;
	ret = inputs_check((int)args.in.n, args.in.v);
	if (!ret)
		ret = store_open(m.out_path, STORE_CREATE, &m.out);
	if (ret)
		return store_exit_status(ret);
	for (i = 0; i < args.in.n && !ret; i++) {
		size_t merged = m.merged, skipped = m.skipped;

		ret = merge_file(&m, args.in.v[i]);
		if (!ret)
			printf("%s: %zu experiment%s merged, %zu already present\n",
			       args.in.v[i], m.merged - merged,
			       m.merged - merged == 1 ? "" : "s",
			       m.skipped - skipped);
	}
	store_close(m.out);
	return ret;
}
