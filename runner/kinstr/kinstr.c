/*
 * kinstr.c - the kernel lock instrument of a session (kinstr.h): the list
 * of `kernel_instruments`, whether each can run here, and the choice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "runner/kinstr/bpf.h"
#include "runner/kinstr/kinstr.h"
#include "runner/kinstr/count.h"

const char *const kinstr_names[] = {
	[KINSTR_NONE] = "none",
	[KINSTR_COUNT] = "count",
	[KINSTR_KINDS] = "kinds",
	[KINSTR_BPF] = "bpf",
	NULL,
};

static int word_of(const char *w, size_t len)
{
	int i;

	for (i = 0; i < KINSTR_N; i++)
		if (strlen(kinstr_names[i]) == len &&
		    !strncmp(kinstr_names[i], w, len))
			return i;
	return -1;
}

int kinstr_parse(const char *text, void *field, char *err, size_t errlen)
{
	struct kinstr_list l = { .n = 0 };
	const char *p = text;

	for (;;) {
		size_t len;
		int k;

		p += strspn(p, " \t");
		len = strcspn(p, ",");
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		k = word_of(p, len);
		if (k < 0)
			return error_buf(err, errlen, "kernel_instruments: "
					 "'%.*s' is not one of none, count, "
					 "kinds, bpf (a list in order of "
					 "preference: bpf, count)",
					 (int)(len > 40 ? 40 : len), p);
		for (size_t i = 0; i < l.n; i++)
			if (l.k[i] == (enum kinstr)k)
				return error_buf(err, errlen,
						 "kernel_instruments: %s is "
						 "given twice", kinstr_names[k]);
		if (l.n && l.k[l.n - 1] == KINSTR_NONE)
			return error_buf(err, errlen, "kernel_instruments: "
					 "none can only be last: what follows "
					 "it would never be chosen");
		l.k[l.n++] = (enum kinstr)k;
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
	*(struct kinstr_list *)field = l;
	return 0;
}

const char *kinstr_list_text(const struct kinstr_list *l, char *buf,
			     size_t len)
{
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < l->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       i ? ", " : "", kinstr_names[l->k[i]]);
	return buf;
}

/* 1 when k can run here, else 0 with the reason in why. */
static int kinstr_usable(enum kinstr k, char *why, size_t whylen)
{
	char st[160];

	switch (k) {
	case KINSTR_COUNT:
	case KINSTR_KINDS:
		if (!strcmp(kcount_status(kcount_backend(k), st, sizeof(st)),
			    "yes"))
			return 1;
		snprintf(why, whylen, "%s", st);
		return 0;
	case KINSTR_BPF:
		return kbpf_usable(why, whylen);
	default:
		return 1;
	}
}

int kinstr_choose(const struct kinstr_list *l, enum kinstr *out,
		  char *skipped, size_t len)
{
	size_t i, at = 0;
	char why[200];

	skipped[0] = '\0';
	for (i = 0; i < l->n; i++) {
		if (kinstr_usable(l->k[i], why, sizeof(why))) {
			*out = l->k[i];
			return 0;
		}
		if (at < len)
			at += (size_t)snprintf(skipped + at, len - at,
					       "%s%s: %s", i ? "; " : "",
					       kinstr_names[l->k[i]], why);
	}
	return -1;
}

int kinstr_env_check(void)
{
	static const struct {
		const char *var, *use;
	} old[] = {
		{ KBPF_ENV, KINSTR_ENV "=bpf" },
		{ KLOCK_ENV, KINSTR_ENV "=count (or kinds)" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(old); i++) {
		const char *v = getenv(old[i].var);

		if (v && *v && strcmp(v, "off"))
			return error("%s is no longer read but as =off (a "
				     "host without it, for tests): ask with "
				     "kernel_instruments in the file or %s",
				     old[i].var, old[i].use);
	}
	return 0;
}
