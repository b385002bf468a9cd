/*
 * instrument.c - instrumentation-differs: the kernel-state keys of two
 * sides' experiments compared (analysis/analysis.h).  The kernel release
 * is not among them: in a kernel A/B it is expected to differ.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "db/contract.h"
#include "lib/strmap.h"
#include "lib/util.h"

#define PREFIX MK_KSTATE_PREFIX
#define END_PREFIX MK_KSTATE_END_PREFIX

const char instrument_why[] =
	"the sides ran differently instrumented kernels, and instrumentation "
	"that slows a lock's contended path can make a lock benchmark look "
	"faster (enabling the lock trace events did so for a mutex benchmark "
	"in the 2010 LKML thread): rerun both sides in the same state";

/* Keys of runner/host.c that describe instrumentation, not the machine. */
static const char *const host_keys[] = {
	MK_PREEMPT, MK_LOCKDEP, MK_LOCK_STAT, MK_KCONFIG_LOCKDEP,
	MK_KCONFIG_LOCK_STAT, MK_KERNEL_INSTRUMENTS,
};

/* Whether key is one instrumentation-differs compares. */
static int instrument_key(const char *key)
{
	size_t i;

	if (!strncmp(key, PREFIX, strlen(PREFIX)))
		return 1;
	for (i = 0; i < ARRAY_SIZE(host_keys); i++)
		if (!strcmp(key, host_keys[i]))
			return 1;
	return 0;
}

static const char *known(const struct experiment_row *e, const char *key)
{
	const char *v = experiment_meta(e, key);

	return v && strcmp(v, "unknown") ? v : NULL;
}

/* part (malloc'd) added to *msg after sep. */
static void append(char **msg, char *part, const char *sep)
{
	char *t;

	if (!*msg) {
		*msg = part;
		return;
	}
	t = xasprintf("%s%s%s", *msg, sep, part);
	free(*msg);
	free(part);
	*msg = t;
}

/* The first differing value of key over the pairs of b and c, or NULL. */
static char *key_diff(const struct experiment_row *b, size_t nb,
		      const struct experiment_row *c, size_t nc,
		      const char *key)
{
	size_t i, j;

	for (i = 0; i < nb; i++) {
		const char *vb = known(&b[i], key);

		for (j = 0; vb && j < nc; j++) {
			const char *vc = known(&c[j], key);

			if (vc && strcmp(vb, vc))
				return xasprintf("%s '%s' vs '%s'", key, vb, vc);
		}
	}
	return NULL;
}

char *instrument_changes(const struct experiment_row *e)
{
	size_t elen = strlen(END_PREFIX), i;
	char *msg = NULL;

	for (i = 0; i < e->nmeta; i++) {
		const char *k = e->meta[i].key, *was;
		char *start;

		if (strncmp(k, END_PREFIX, elen))
			continue;
		start = xasprintf(PREFIX "%s", k + elen);
		was = experiment_meta(e, start);
		append(&msg, xasprintf("%s changed from '%s' to '%s'", start,
				       was ? was : "unknown", e->meta[i].value),
		       "; ");
		free(start);
	}
	return msg;
}

char *instrument_diff(const struct experiment_row *b, size_t nb,
		      const struct experiment_row *c, size_t nc)
{
	struct strmap seen = { 0 };     /* each key is compared once */
	char *msg = NULL, *d;
	size_t i, k, at;

	for (i = 0; i < nb; i++) {
		for (k = 0; k < b[i].nmeta; k++) {
			const char *key = b[i].meta[k].key;

			if (!instrument_key(key) || strmap_get(&seen, key, &at))
				continue;
			strmap_put(&seen, key, 0);
			d = key_diff(b, nb, c, nc, key);
			if (d)
				append(&msg, d, "; ");
		}
	}
	strmap_release(&seen);
	for (i = 0; i < nb + nc; i++) {
		const struct experiment_row *e = i < nb ? &b[i] : &c[i - nb];

		d = instrument_changes(e);
		if (!d)
			continue;
		append(&msg, xasprintf("%s during %s experiment %lld", d,
				       i < nb ? "baseline" : "candidate",
				       (long long)e->id), "; ");
		free(d);
	}
	return msg;
}

char *instrument_active(const struct experiment_row *e)
{
	static const struct {
		const char *key, *idle;
	} keys[] = {
		{ PREFIX "trace_lock", "0" }, { PREFIX "trace_sched", "0" },
		{ PREFIX "trace_irq", "0" }, { PREFIX "trace_events", "0" },
		{ PREFIX "current_tracer", "nop" },
		{ PREFIX "kprobe_events", "0" }, { PREFIX "uprobe_events", "0" },
		{ PREFIX "lock_stat", "0" },
	};
	char *msg = NULL, *changed = instrument_changes(e);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = known(e, keys[i].key);

		if (v && strcmp(v, keys[i].idle))
			append(&msg, xasprintf("%s=%s", keys[i].key, v), ", ");
	}
	if (changed)
		append(&msg, xasprintf("changed during the experiment: %s",
				       changed), "; ");
	free(changed);
	return msg;
}
