/*
 * fuzz_gpscript.c - libFuzzer target for the gnuplot scripts and data
 * files of plot_experiment and plot_compare: whatever the names a
 * database holds, the script keeps its structure.  The input is cut at
 * NUL bytes into the names an attacker controls (experiment name, label,
 * hostname, kernel, two section names, a parameter's key and values, a
 * metric name); the experiment is plotted (not rendered), and compared
 * with itself (the sides named by the name and the label), once with them
 * and once with each name replaced by as many 'x' (the benign twin: same
 * lengths, so the same layout).
 * Then every script and data file must have the same skeleton in both:
 * the same lines, each the same outside its quoted strings and comments
 * (a string's content and a comment's text are blanked, and a number is
 * any number: a margin sized to a name's displayed width may differ from
 * its twin's, since invalid UTF-8 is not displayed), no line break
 * inside a quoted string, no comment continued onto the next line by a
 * final backslash, no control byte anywhere.  So no name can end a
 * comment or a string early, add a line, or start a command.
 *
 * The skeleton follows gnuplot 5.4's lexer: '...' ends at a lone quote
 * ('' is a quote), "..." at an unescaped double quote, # outside quotes
 * starts a comment to the end of the line, and a line ending in a
 * backslash continues, a comment's too.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/compare.h"
#include "plots/plot.h"
#include "tests/dataset_fixture.h"
#include "tests/tmpdir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

enum { F_NAME, F_LABEL, F_HOST, F_KERNEL, F_SEC1, F_SEC2, F_KEY, F_VAL,
       F_METRIC, NFIELDS };

static char dirs[2][64];

static void cleanup(void)
{
	tmpdir_remove(dirs[0]);
	tmpdir_remove(dirs[1]);
}

/* In /dev/shm where there is one: every file is fsynced (safefile.h),
 * which on a disk makes each input take a tenth of a second. */
static int make_dir(char *dir, size_t size)
{
	snprintf(dir, size, "/dev/shm/contend-fuzz-gp-XXXXXX");
	if (mkdtemp(dir))
		return 0;
	return tmpdir_create(dir, size, "fuzz-gp");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (make_dir(dirs[0], sizeof(dirs[0])) ||
	    make_dir(dirs[1], sizeof(dirs[1])))
		abort();
	atexit(cleanup);
	return 0;
}

static char *cat(const char *a, const char *b)
{
	return xasprintf("%s%s", a, b);
}

/* Adds the parameter KEY=VALUE (names with any bytes) to configuration c. */
static void add_param(struct fixture *fx, size_t c, const char *key,
		      const char *value)
{
	struct ds_config *cf = &fx->d.configs[c];

	cf->params = xrealloc(cf->params, (cf->nparams + 1) * sizeof(*cf->params));
	cf->params[cf->nparams].key = xstrdup(key);
	cf->params[cf->nparams++].value = xstrdup(value);
}

/*
 * A thread sweep 1, 2, 4 in section "s1"+SEC1 whose parameter "z_"+KEY
 * takes "a"+VAL, "a"+VAL, "b"+VAL (two series), and one noop
 * configuration in "s2"+SEC2: the prefixes keep the names distinct, as
 * they are in the benign twin.
 */
static void build(struct fixture *fx, char *const f[NFIELDS])
{
	static const double tput[] = { 10e6, 14e6, 30e6 };
	char *sec1 = cat("s1", f[F_SEC1]), *sec2 = cat("s2", f[F_SEC2]);
	char *key = cat("z_", f[F_KEY]);
	char *va = cat("a", f[F_VAL]), *vb = cat("b", f[F_VAL]);
	size_t i, r, c;

	fx_init(fx, f[F_NAME]);
	free(fx->d.exp.label);
	fx->d.exp.label = xstrdup(f[F_LABEL]);
	fx_meta(fx, "hostname", f[F_HOST]);
	fx_meta(fx, "kernel_release", f[F_KERNEL]);
	for (i = 0; i < 3; i++) {
		char params[64];

		snprintf(params, sizeof(params), "threads=%d runtime=1", 1 << i);
		c = fx_config(fx, sec1, "pthread-mutex", params);
		add_param(fx, c, key, i < 2 ? va : vb);
		for (r = 0; r < 4; r++) {
			uint64_t ops[4] = { 100 + r, 90, 80, 70 };
			char m[200];

			snprintf(m, sizeof(m), "throughput=%.17g handoff_rate=%.17g "
				 "contention_rate=%.17g", tput[i] * (1 + 0.01 * (double)r),
				 1e6 / (double)(i + 1) + (double)r, 0.1 * (double)(i + r));
			fx_run(fx, r == 0, RUN_OK, m, ops, (size_t)1 << i);
		}
	}
	c = fx_config(fx, sec2, "noop", "threads=1 runtime=1");
	add_param(fx, c, key, va);
	for (r = 0; r < 3; r++) {
		char m[64];
		uint64_t ops = 1000;

		snprintf(m, sizeof(m), "throughput=%d contention_rate=0",
			 1000 + 10 * (int)r);
		fx_run(fx, false, RUN_OK, m, &ops, 1);
	}
	fx_finish(fx);
	free(sec1);
	free(sec2);
	free(key);
	free(va);
	free(vb);
}

/*
 * compare.gp of the dataset against itself as compare_sides would leave
 * it: a comparison per configuration, under the configuration's section
 * and with its parameters, every verdict and the flag that marks a label.
 */
static void plot_cmp(const struct dataset *d, char *const f[NFIELDS],
		     const struct plot_opts *po, struct plot_set *set)
{
	struct compare_result r = { .metric = f[F_METRIC], .gate_pct = -1 };
	struct compare_flag flag = { .name = "noisy", .side = "both" };
	size_t i;

	compare_opts_default(&r.opts);
	r.n = d->nconfigs;
	r.cmp = xcalloc(r.n, sizeof(*r.cmp));
	for (i = 0; i < r.n; i++) {
		struct comparison *c = &r.cmp[i];

		c->workload = d->configs[i].workload;
		c->canon = d->configs[i].canon;
		c->section = d->configs[i].section;
		c->config = &d->configs[i];
		c->st.base = (struct compare_summary){ 4, 100, 1, 98, 102 };
		c->st.cand = (struct compare_summary){ 4, 100 + 5.0 * (double)i,
						       1, 97, 103 + 5.0 * (double)i };
		c->st.change_pct = 5.0 * (double)i;
		c->st.verdict = (enum verdict)(i % VERDICT_N);
		c->nflags = i % 2;
		c->flags = &flag;
	}
	if (plot_compare(&r, f[F_NAME], f[F_LABEL], po, set))
		abort();
	free(r.cmp);
}

/* Plots the experiment of f into dir, its plot set in set[0], and its
 * comparison with itself, in set[1]. */
static void plot(char *const f[NFIELDS], const char *dir,
		 struct plot_set set[2])
{
	struct plot_opts po = { .out_dir = dir, .png = true };
	struct analysis_opts ao;
	struct analysis a;
	struct fixture fx;

	build(&fx, f);
	analysis_opts_default(&ao);
	if (analysis_run(&fx.d, &ao, &a) || plot_experiment(&a, &po, &set[0]))
		abort();
	plot_cmp(&fx.d, f, &po, &set[1]);
	analysis_release(&a);
	fx_free(&fx);
}

static char *slurp(const char *dir, const char *name, const char *ext)
{
	char *path = xasprintf("%s/%.*s.%s", dir, (int)strlen(name) - 3, name,
			       ext);
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;

	if (!f || !m)
		abort();
	while ((c = getc(f)) != EOF)
		putc(c, m);
	fclose(f);
	fclose(m);
	free(path);
	return buf;
}

/*
 * The skeleton of a script or data file: quoted strings as '' or "",
 * comments as # (#\ when continued), numbers as 0.  Aborts on a line break inside a
 * string and on a control byte other than a line break.
 */
static char *skeleton(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	for (; *s; s++) {
		unsigned char b = (unsigned char)*s;

		if ((b < 0x20 && b != '\n') || b == 0x7f)
			abort();
		if (*s == '\'') {
			for (s++; *s && !(s[0] == '\'' && s[1] != '\''); s++) {
				if (*s == '\n')
					abort();
				if (*s == '\'')
					s++; /* '' */
			}
			if (!*s)
				abort(); /* never closed */
			fputs("''", m);
		} else if (*s == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '\n')
					abort();
				if (*s == '\\' && s[1])
					s++;
			}
			if (!*s)
				abort();
			fputs("\"\"", m);
		} else if (*s == '#') {
			const char *end = strchr(s, '\n');

			if (!end)
				end = s + strlen(s);
			fputs(end > s + 1 && end[-1] == '\\' ? "#\\" : "#", m);
			s = end - 1;
		} else if (*s >= '0' && *s <= '9') {
			while (s[1] >= '0' && s[1] <= '9')
				s++;
			putc('0', m);
		} else {
			putc(*s, m);
		}
	}
	fclose(m);
	return buf;
}

static void check_same(const char *name, const char *ext)
{
	char *h = slurp(dirs[0], name, ext), *b = slurp(dirs[1], name, ext);
	char *hs = skeleton(h), *bs = skeleton(b);

	if (strcmp(hs, bs)) {
		fprintf(stderr, "fuzz_gpscript: %.*s.%s changed its structure:\n"
			"--- benign\n%s\n--- hostile\n%s\n",
			(int)strlen(name) - 3, name, ext, bs, hs);
		abort();
	}
	free(h);
	free(b);
	free(hs);
	free(bs);
}

/* The files of plot sets h and b (hostile and benign) have the same
 * skeletons. */
static void check_set(const struct plot_set *h, const struct plot_set *b)
{
	size_t i;

	if (h->n != b->n)
		abort();
	for (i = 0; i < h->n; i++) {
		if (strcmp(h->files[i].name, b->files[i].name) ||
		    !h->files[i].skipped != !b->files[i].skipped)
			abort();
		if (h->files[i].skipped)
			continue;
		check_same(h->files[i].name, "gp");
		check_same(h->files[i].name, "dat");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *f[NFIELDS], *x[NFIELDS];
	struct plot_set hs[2], bs[2];
	size_t i, at = 0;

	for (i = 0; i < NFIELDS; i++) {
		size_t n = 0;

		while (at + n < size && data[at + n])
			n++;
		f[i] = xstrndup((const char *)data + at, n);
		x[i] = xmalloc(n + 1);
		memset(x[i], 'x', n);
		x[i][n] = '\0';
		at = at + n < size ? at + n + 1 : size;
	}
	plot(f, dirs[0], hs);
	plot(x, dirs[1], bs);
	for (i = 0; i < 2; i++) {
		check_set(&hs[i], &bs[i]);
		plot_set_release(&hs[i]);
		plot_set_release(&bs[i]);
	}
	for (i = 0; i < NFIELDS; i++) {
		free(f[i]);
		free(x[i]);
	}
	return 0;
}
