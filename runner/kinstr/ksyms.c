/*
 * ksyms.c - the kernel's symbols from /proc/kallsyms (kbpf.h): loading
 * them, the symbol of an address, a function's text, and the caller of a
 * contention from its kernel stack, for the runner's BPF program
 * (runner/kinstr/bpf.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/kinstr/bpf.h"
#include "lib/util.h"

struct ksym {
	uint64_t addr;
	char type;
	char *name;
};

struct ksyms {
	struct ksym *s;
	size_t n;
	/* [lo, hi) of the lock and scheduler text sections */
	uint64_t lock_lo, lock_hi, sched_lo, sched_hi;
};

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static uint64_t addr_of(const struct ksyms *ks, const char *name)
{
	size_t i;

	for (i = 0; i < ks->n; i++)
		if (!strcmp(ks->s[i].name, name))
			return ks->s[i].addr;
	return 0;
}

struct ksyms *ksyms_load(const char *path)
{
	FILE *f = fopen(path, "re");
	struct ksyms *ks;
	char line[512];
	size_t alloc = 0;

	if (!f)
		return NULL;
	ks = xcalloc(1, sizeof(*ks));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a;
		char type, *p, *name;
		size_t len;

		/* "ADDR TYPE NAME[\tMODULE]" */
		errno = 0;
		a = strtoull(line, &p, 16);
		if (errno || p == line || !a || p[0] != ' ' || !p[1] ||
		    p[2] != ' ')
			continue;
		type = p[1];
		name = p + 3;
		len = strcspn(name, " \t\n");
		if (!len)
			continue;
		name[len] = '\0';
		if (ks->n == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			ks->s = xrealloc(ks->s, alloc * sizeof(*ks->s));
		}
		ks->s[ks->n].addr = a;
		ks->s[ks->n].type = type;
		ks->s[ks->n++].name = xstrdup(name);
	}
	fclose(f);
	if (ks->n)
		qsort(ks->s, ks->n, sizeof(*ks->s), cmp_ksym);
	ks->lock_lo = addr_of(ks, "__lock_text_start");
	ks->lock_hi = addr_of(ks, "__lock_text_end");
	ks->sched_lo = addr_of(ks, "__sched_text_start");
	ks->sched_hi = addr_of(ks, "__sched_text_end");
	return ks;
}

void ksyms_free(struct ksyms *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; i < ks->n; i++)
		free(ks->s[i].name);
	free(ks->s);
	free(ks);
}

/* The last symbol at or below addr, or NULL. */
static const struct ksym *below(const struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks ? ks->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->s[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &ks->s[lo - 1] : NULL;
}

const char *ksyms_find(const struct ksyms *ks, uint64_t addr, uint64_t *off)
{
	const struct ksym *s = below(ks, addr);

	if (!s)
		return NULL;
	*off = addr - s->addr;
	return s->name;
}

int ksyms_range(const struct ksyms *ks, const char *name, uint64_t *lo,
		uint64_t *hi)
{
	size_t i;

	for (i = 0; i < ks->n; i++) {
		if (strcmp(ks->s[i].name, name) || !strchr("tT", ks->s[i].type))
			continue;
		*lo = ks->s[i].addr;
		/* to the next symbol at a higher address */
		while (i + 1 < ks->n && ks->s[i + 1].addr == *lo)
			i++;
		*hi = i + 1 < ks->n ? ks->s[i + 1].addr : *lo + 1;
		return 0;
	}
	return -1;
}

/*
 * Functions of the locks themselves and of the tracing that reports a
 * contention, by name, besides the sections the kernel puts lock and
 * scheduler functions in (__lock_text, __sched_text).
 */
static bool inside(const struct ksyms *ks, uint64_t ip, const char *name)
{
	static const char *const prefix[] = {
		"queued_", "native_queued_", "__pv_queued_", "_raw_",
		"__raw_", "do_raw_", "rwsem_", "__rwsem_", "__down", "down_",
		"osq_", "mutex_", "__mutex_", "rt_mutex", "__rt_mutex",
		"rtlock_", "percpu_down", "__percpu_down", "bpf_", "__bpf_",
		"__traceiter_", "trace_contention", "__trace_", "perf_trace_",
		"lock_contended", "__lock_", "_lock_", "raw_spin_rq_lock",
	};
	size_t i;

	if ((ip >= ks->lock_lo && ip < ks->lock_hi) ||
	    (ip >= ks->sched_lo && ip < ks->sched_hi))
		return true;
	for (i = 0; i < ARRAY_SIZE(prefix); i++)
		if (!strncmp(name, prefix[i], strlen(prefix[i])))
			return true;
	return false;
}

const char *ksyms_caller(const struct ksyms *ks, const uint64_t *ips,
			 size_t n)
{
	size_t i;

	for (i = 0; i < n && ips[i]; i++) {
		const struct ksym *s = below(ks, ips[i]);

		if (s && !inside(ks, ips[i], s->name))
			return s->name;
	}
	return NULL;
}

void ksyms_name_lock(const struct ksyms *ks, uint64_t lock, char *buf,
		     size_t len)
{
	const struct ksym *s = below(ks, lock);

	/* a lock in the kernel's own data has a symbol (CONFIG_KALLSYMS_ALL) */
	if (s && strchr("dDbB", s->type) && lock - s->addr < 4096)
		snprintf(buf, len, lock == s->addr ? "%s" : "%s+0x%" PRIx64,
			 s->name, lock - s->addr);
	else
		snprintf(buf, len, "0x%" PRIx64, lock);
}
