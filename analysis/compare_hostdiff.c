/*
 * compare_hostdiff.c - the host facts that differ between compare's two
 * sides, and the warnings they call for (load, spread), as lines of
 * text for compare_text.c (compare_impl.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_impl.h"
#include "analysis/compare_input.h"
#include "db/contract.h"
#include "lib/escape.h"
#include "lib/numfmt.h"
#include "lib/wrap.h"
#include "lib/util.h"

/* Prose wraps at this column (compare_text.c's WIDTH). */
#define WIDTH 78

static void push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

/* v as the sides are compared on it, malloc'd: the cgroup the runner
 * makes for each experiment ("cgroup v2 PARENT/contend-PID-N") by its
 * parent only, else v. */
static char *side_value(const char *key, const char *v)
{
	const char *last = strrchr(v, '/');

	if (!strcmp(key, "containment") && !strncmp(v, "cgroup v2 ", 10) &&
	    last && !strncmp(last, "/contend-", 9))
		return xasprintf("%.*s/contend-*", (int)(last - v), v);
	return xstrdup(v);
}

/* The distinct values of key over a side's experiments, ", "-joined. */
static char *side_values(const struct compare_input *s, const char *key)
{
	char *out = NULL;
	size_t i;

	for (i = 0; s->kind != INPUT_NUMBERS && i < s->nsets; i++) {
		const char *m = experiment_meta(&s->sets[i].exp, key);
		char *v, *t;

		if (!m)
			continue;
		v = side_value(key, m);
		if (out && strstr(out, v)) {
			free(v);
			continue;
		}
		t = xasprintf("%s%s%s", out ? out : "", out ? ", " : "", v);
		free(v);
		free(out);
		out = t;
	}
	return out;
}

static bool key_seen(char **keys, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i], key))
			return true;
	return false;
}

static void meta_keys(const struct compare_input *s, char ***keys, size_t *n)
{
	size_t i, k;

	for (i = 0; s->kind != INPUT_NUMBERS && i < s->nsets; i++)
		for (k = 0; k < s->sets[i].exp.nmeta; k++) {
			const char *key = s->sets[i].exp.meta[k].key;

			/* loadavg: load_start under its old name */
			if (!strcmp(key, MK_LOADAVG) &&
			    experiment_meta(&s->sets[i].exp, MK_LOAD_START))
				continue;
			if (!key_seen(*keys, *n, key))
				push(keys, n, xstrdup(key));
		}
}

/* Largest value of a numeric key over both sides divided by its smallest. */
static double spread_ratio(const struct compare_input *b,
			   const struct compare_input *c, const char *key)
{
	const struct compare_input *side[2] = { b, c };
	double lo = INFINITY, hi = -INFINITY, v;
	size_t i, j;

	for (j = 0; j < 2; j++)
		for (i = 0; side[j]->kind != INPUT_NUMBERS && i < side[j]->nsets;
		     i++) {
			const char *t = experiment_meta(&side[j]->sets[i].exp,
							key);

			if (t && parse_double(t, &v) == 0 && v > 0) {
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		}
	return lo > 0 && isfinite(lo) ? hi / lo : NAN;
}

/* The first load above 0.5 per CPU on an experiment of the side (at
 * its start, its end, or loadavg in older databases): one warning. */
static void load_warning(struct meta_diff *md, const struct compare_input *s)
{
	static const char *const load_keys[] = { MK_LOAD_START, MK_LOAD_END,
						 MK_LOADAVG };
	size_t i, k;

	for (i = 0; s->kind != INPUT_NUMBERS && i < s->nsets; i++) {
		const struct experiment_row *e = &s->sets[i].exp;
		const char *nc = experiment_meta(e, MK_NCPUS);
		double v, ncpu;

		if (!nc || parse_double(nc, &ncpu) < 0 || !(ncpu > 0))
			continue;
		for (k = 0; k < ARRAY_SIZE(load_keys); k++) {
			const char *t = experiment_meta(e, load_keys[k]);

			if (!t || parse_double(t, &v) < 0 || !(v / ncpu > 0.5))
				continue;
			push(&md->warnings, &md->nwarn,
			     xasprintf("warning: %s %s on %g CPUs (experiment "
				       "%lld of the %s): other work disturbed "
				       "the runs", load_keys[k], t, ncpu,
				       (long long)e->id, s->role));
			return;
		}
	}
}

static bool is_any(const char *key, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(key, *set))
			return true;
	return false;
}

void meta_diff_build(struct meta_diff *md, const struct compare_input *b,
			    const struct compare_input *c)
{
	static const char *const cpu_keys[] = { MK_AFFINITY, MK_CPUSET,
						MK_CPUS_ONLINE, NULL };
	static const char *const kernel_keys[] = { MK_KERNEL_RELEASE,
						   MK_KERNEL_VERSION, NULL };
	char **keys = NULL;
	size_t nkeys = 0, i;
	double ratio;

	memset(md, 0, sizeof(*md));
	meta_keys(b, &keys, &nkeys);
	meta_keys(c, &keys, &nkeys);
	for (i = 0; i < nkeys; i++) {
		char *vb = side_values(b, keys[i]), *vc = side_values(c, keys[i]);

		if (vb && vc && strcmp(vb, vc)) {
			char *line = xasprintf("%-24s baseline %s | candidate "
					       "%s", keys[i], vb, vc);

			/* the values whole, under the key when too wide */
			if (2 + strlen(line) > WIDTH) {
				free(line);
				line = xasprintf("%s\n    baseline  %s\n    "
						 "candidate %s", keys[i], vb,
						 vc);
			}
			push(&md->lines, &md->n, line);
			if (is_any(keys[i], cpu_keys))
				push(&md->warnings, &md->nwarn,
				     xasprintf("warning: %s differs: the sides "
					       "ran on different CPUs",
					       keys[i]));
			if (is_any(keys[i], kernel_keys))
				push(&md->warnings, &md->nwarn,
				     xasprintf("note: %s differs (expected "
					       "when kernels are compared; "
					       "nothing else should)", keys[i]));
		}
		free(vb);
		free(vc);
		free(keys[i]);
	}
	free(keys);
	load_warning(md, b);
	load_warning(md, c);
	ratio = spread_ratio(b, c, MK_CALIBRATION);
	if (ratio > 1.05)
		push(&md->warnings, &md->nwarn,
		     xasprintf("warning: " MK_CALIBRATION " differs by "
			       "%.1f%% between experiments: the busy loop did "
			       "different work (pin it with calibration = N)",
			       100 * (ratio - 1)));
}

void meta_diff_print(FILE *f, const struct meta_diff *md)
{
	size_t i;

	if (md->n)
		fprintf(f, "\nHost keys that differ between the sides:\n");
	for (i = 0; i < md->n; i++)
		fprintf(f, "  %s\n", md->lines[i]);
	if (md->nwarn && !md->n)
		fputc('\n', f);
	for (i = 0; i < md->nwarn; i++)
		wrap_print(f, md->warnings[i], 0, 4, WIDTH);
}

void meta_diff_release(struct meta_diff *md)
{
	size_t i;

	for (i = 0; i < md->n; i++)
		free(md->lines[i]);
	for (i = 0; i < md->nwarn; i++)
		free(md->warnings[i]);
	free(md->lines);
	free(md->warnings);
}

