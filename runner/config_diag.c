/*
 * config_diag.c - the loader's errors: collected with their line as they
 * are found, printed in line order once the whole file is read.  A line
 * is always known where the error is found: the reader records each key's
 * line (struct kv_line), and a configuration's error names the keys it is
 * about.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config_impl.h"
#include "lib/util.h"

void report(struct loader *L, long line, const char *fmt, ...)
{
	va_list ap;
	char *text;

	L->nerrors++;
	if (L->nmsgs == ERRORS_KEPT)
		return;
	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	L->msgs = xrealloc(L->msgs, (L->nmsgs + 1) * sizeof(*L->msgs));
	L->msgs[L->nmsgs] = (struct message){ line, L->nmsgs, text };
	L->nmsgs++;
}

static int cmp_message(const void *a, const void *b)
{
	const struct message *x = a, *y = b;

	/* file-level conclusions (line 0) come after the lines they sum up */
	if (x->line != y->line) {
		if (!x->line || !y->line)
			return !x->line ? 1 : -1;
		return x->line < y->line ? -1 : 1;
	}
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void errors_flush(struct loader *L)
{
	size_t i;

	if (L->nmsgs)
		qsort(L->msgs, L->nmsgs, sizeof(*L->msgs), cmp_message);
	for (i = 0; i < L->nmsgs && i < ERRORS_SHOWN; i++)
		error_at(L->file, L->msgs[i].line, "%s", L->msgs[i].text);
	if (L->nerrors > ERRORS_SHOWN)
		error_at(L->file, 0, "%zu more errors not shown",
			 L->nerrors - ERRORS_SHOWN);
}

/* The line of the first of keys the section gave, else its header's. */
static long first_key_line(const struct section *s, const char *const *keys,
			   size_t n)
{
	const struct kv_line *k;
	size_t i;

	for (i = 0; i < n; i++)
		if (keys[i] && (k = key_find(s, keys[i])))
			return k->line;
	return s->line;
}

void entry_error(struct wsec *w, const char *const *blame, size_t n,
		 const char *msg)
{
	size_t i;

	for (i = 0; i < w->nmsgs; i++)
		if (!strcmp(w->msgs[i], msg))
			return;
	if (w->nmsgs == ENTRY_MSGS_MAX)
		return;
	w->msgs[w->nmsgs++] = xstrdup(msg);
	report(w->L, first_key_line(w->sec, blame, n), "[workload %s] %s",
	       w->sec->label, msg);
}
