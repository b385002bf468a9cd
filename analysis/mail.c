/*
 * mail.c - the lines the mail formats share (mail.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mail.h"
#include "db/contract.h"
#include "lib/escape.h"
#include "lib/util.h"

void mail_line(FILE *f, const char *fmt, ...)
{
	char buf[MAIL_COLS + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(f, "%s\n", buf);
}

const char *mail_shown(char *buf, size_t width, const char *s)
{
	escape_text(buf, width + 1, s ? s : "?");
	return buf;
}

static void mail_label(FILE *f, char *buf, size_t width, const char *label)
{
	char *e = escape_text_dup(label ? label : "?");

	buf[0] = '\0';
	if (e && strlen(e) <= width)
		memcpy(buf, e, strlen(e) + 1);
	else
		mail_line(f, "%s", e ? e : "?");
	free(e);
}

/* Does parameter key have value in every configuration of all[0..n)? */
static bool constant(const struct ds_config *const *all, size_t n,
		     const char *key, const char *value)
{
	for (size_t i = 0; i < n; i++) {
		bool same = false;

		for (size_t k = 0; all[i] && k < all[i]->nparams; k++)
			if (!strcmp(all[i]->params[k].key, key))
				same = !strcmp(all[i]->params[k].value, value);
		if (!same)
			return false;
	}
	return true;
}

void mail_row_label(FILE *f, char *buf, size_t width, const char *name,
		    const struct ds_config *c,
		    const struct ds_config *const *all, size_t n)
{
	char *t = xstrdup(name);

	for (size_t k = 0; c && k < c->nparams; k++) {
		const struct kv *p = &c->params[k];
		char *u;

		if (constant(all, n, p->key, p->value))
			continue;
		u = xasprintf("%s %s=%s", t, p->key, p->value);
		free(t);
		t = u;
	}
	mail_label(f, buf, width, t);
	free(t);
}

uint64_t mail_hash(const char *text)
{
	uint64_t h = 1469598103934665603ULL;

	for (; text && *text; text++)
		h = (h ^ (unsigned char)*text) * 1099511628211ULL;
	return h;
}

static const char *meta(const struct dataset *d, const char *key)
{
	const char *v = experiment_meta(&d->exp, key);

	return v ? v : "?";
}

void mail_kernel(FILE *f, const char *tag, const struct dataset *d)
{
	char a[40], b[32], c[24];

	mail_line(f, "%s: %s, label %s", tag,
		  mail_shown(a, 36, meta(d, MK_KERNEL_RELEASE)),
		  mail_shown(b, 28, d->exp.label && *d->exp.label
					    ? d->exp.label : "none"));
	mail_line(f, "   preempt %s, lockdep %s",
		  mail_shown(c, 22, meta(d, MK_PREEMPT)),
		  mail_shown(a, 20, meta(d, MK_LOCKDEP)));
}

void mail_machine(FILE *f, const struct dataset *d)
{
	char m[48], n[8], s[8];

	mail_line(f, "machine: %s, %s CPUs, SMT %s",
		  mail_shown(m, 44, meta(d, MK_CPU_MODEL)),
		  mail_shown(n, 6, meta(d, MK_NCPUS)),
		  mail_shown(s, 6, meta(d, MK_SMT)));
}
