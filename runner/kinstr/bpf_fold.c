/*
 * bpf_fold.c - what the BPF program counted (bpf.c reads it), folded:
 * the lock kinds of its flags, the per-CPU totals summed, each lock's
 * counts shared among its sampled callers, and the run's top locks
 * ranked.  Plain data in and out, no libbpf: its tests (test_kbpf*) run
 * on any machine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/kinstr/bpf.h"
#include "lib/util.h"

/* ---- kinds ---- */

enum klock_kind kbpf_kind(unsigned flags)
{
	/* include/trace/events/lock.h: SPIN 1, READ 2, WRITE 4, RT 8,
	 * PERCPU 16, MUTEX 32; as count.c's filters */
	if (flags & 32)
		return KLOCK_MUTEX;
	if (flags & 8)
		return KLOCK_RT;
	switch (flags) {
	case 1:
		return KLOCK_SPIN;
	case 2:
	case 18:
		return KLOCK_RWSEM_READ;
	case 4:
	case 20:
		return KLOCK_RWSEM_WRITE;
	case 3:
		return KLOCK_RWLOCK_READ;
	case 5:
		return KLOCK_RWLOCK_WRITE;
	default:
		return KLOCK_ALL;
	}
}

const char *kbpf_kind_name(enum klock_kind kind)
{
	/* kcount_metric: "klock_spin" ... */
	return kind == KLOCK_ALL ? "other" : kcount_metric(kind) + 6;
}

/* ---- ranking ---- */

struct agg {
	enum klock_kind kind;
	const char *caller;
	uint64_t lock;
	double count, wait_ns;
	long nlocks;
	const char *lock_class;
	bool classes;         /* its entries' classes differ */
};

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* By kind, caller, lock: a row's entries together, its locks in runs. */
static int cmp_entry(const void *x, const void *y)
{
	const struct kbpf_entry *a = x, *b = y;
	int c;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	c = cmp_str(a->caller, b->caller);
	if (c)
		return c;
	return a->lock < b->lock ? -1 : a->lock > b->lock;
}

static int cmp_agg(const void *x, const void *y)
{
	const struct agg *a = x, *b = y;

	if (a->wait_ns > b->wait_ns || a->wait_ns < b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->count > b->count || a->count < b->count)
		return a->count > b->count ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return cmp_str(a->caller, b->caller);
}

void kbpf_rank(const struct kbpf_entry *e, size_t n,
	       const struct ksyms *ks, struct kbpf_top *top)
{
	struct kbpf_entry *s = xcalloc(n ? n : 1, sizeof(*s));
	struct agg *a = xcalloc(n ? n : 1, sizeof(*a));
	size_t na = 0, i;

	if (n)
		memcpy(s, e, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_entry);
	for (i = 0; i < n; i++) {
		struct agg *g = &a[na ? na - 1 : 0];

		if (!na || g->kind != s[i].kind ||
		    cmp_str(g->caller, s[i].caller)) {
			g = &a[na++];
			g->kind = s[i].kind;
			g->caller = s[i].caller;
			g->lock = s[i].lock;
			g->nlocks = 1;
			g->lock_class = s[i].lock_class;
		} else if (g->lock != s[i].lock) {
			g->lock = s[i].lock;
			g->nlocks++;
		}
		if (cmp_str(g->lock_class, s[i].lock_class))
			g->classes = true;
		g->count += s[i].count;
		g->wait_ns += s[i].wait_ns;
	}
	free(s);
	qsort(a, na, sizeof(*a), cmp_agg);
	memset(top, 0, sizeof(*top));
	for (i = 0; i < na && i < KBPF_TOP; i++) {
		struct run_klock *r = &top->row[i];

		r->kind = kbpf_kind_name(a[i].kind);
		if (a[i].caller)
			snprintf(top->text[i][0], sizeof(top->text[i][0]), "%s",
				 a[i].caller);
		else
			snprintf(top->text[i][0], sizeof(top->text[i][0]), "?");
		r->caller = top->text[i][0];
		r->nlocks = a[i].nlocks;
		if (a[i].lock_class && !a[i].classes) {
			snprintf(top->text[i][1], sizeof(top->text[i][1]),
				 "%s", a[i].lock_class);
			r->lock = top->text[i][1];
		} else if (a[i].nlocks == 1) {
			ksyms_name_lock(ks, a[i].lock, top->text[i][1],
				  sizeof(top->text[i][1]));
			r->lock = top->text[i][1];
		}
		/* stored as a whole number (run_klock's column) */
		r->contentions = round(a[i].count);
		r->wait_s = a[i].wait_ns * 1e-9;
	}
	top->n = i;
	free(a);
}

/* ---- the program's counts, folded ---- */

/* "mmap_lock", "siglock" or NULL: the class in a lock's flags. */
static const char *kbpf_class_name(unsigned flags)
{
	unsigned c = flags >> KBPF_CLASS_SHIFT;

	return c == KBPF_CLASS_MMAP ? "mmap_lock"
	       : c == KBPF_CLASS_SIGLOCK ? "siglock" : NULL;
}

void kbpf_totals_sum(const struct kbpf_totals *pc, size_t ncpu,
		     struct kbpf_totals *sum)
{
	size_t c, f, w;

	memset(sum, 0, sizeof(*sum));
	for (c = 0; c < ncpu; c++) {
		for (f = 0; f < KBPF_NFLAGS; f++) {
			const struct kbpf_val *v = &pc[c].k[f];

			sum->k[f].count += v->count;
			sum->k[f].wait_ns += v->wait_ns;
			if (v->max_ns > sum->k[f].max_ns)
				sum->k[f].max_ns = v->max_ns;
		}
		sum->dropped += pc[c].dropped;
		sum->delayed += pc[c].delayed;
		for (w = 0; w < KBPF_NREFUSE; w++)
			sum->refused[w] += pc[c].refused[w];
	}
}

static int cmp_lf(uint64_t la, unsigned fa, uint64_t lb, unsigned fb)
{
	if (la != lb)
		return la < lb ? -1 : 1;
	return fa < fb ? -1 : fa > fb;
}

static int cmp_sample(const void *x, const void *y)
{
	const struct kbpf_sample *a = x, *b = y;

	return cmp_lf(a->lock, a->flags, b->lock, b->flags);
}

static void entry_of(struct kbpf_entry *e, const struct kbpf_lock *l,
		     const char *caller, double count, double wait_ns)
{
	e->kind = kbpf_kind(l->flags & (KBPF_NFLAGS - 1));
	e->caller = caller;
	e->lock = l->lock;
	e->count = count;
	e->wait_ns = wait_ns;
	e->lock_class = kbpf_class_name(l->flags);
}

size_t kbpf_split(const struct kbpf_lock *l, size_t nl,
		  const struct kbpf_sample *s, size_t ns,
		  struct kbpf_entry *out)
{
	struct kbpf_sample *ss = xcalloc(ns ? ns : 1, sizeof(*ss));
	size_t i, j, n = 0;

	if (ns)
		memcpy(ss, s, ns * sizeof(*ss));
	qsort(ss, ns, sizeof(*ss), cmp_sample);
	for (i = 0; i < nl; i++) {
		size_t lo = 0, hi = ns;
		double sc = 0, sw = 0;

		/* the first sample of this lock, if any */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_lf(ss[mid].lock, ss[mid].flags, l[i].lock,
				   l[i].flags) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (j = lo; j < ns && !cmp_lf(ss[j].lock, ss[j].flags,
					      l[i].lock, l[i].flags); j++) {
			sc += (double)ss[j].count;
			sw += (double)ss[j].wait_ns;
		}
		if (sc <= 0) {
			entry_of(&out[n++], &l[i], NULL, (double)l[i].count,
				 (double)l[i].wait_ns);
			continue;
		}
		/* each sampled stack's share of the lock's contentions and
		 * of its wait, as in the sample */
		for (j = lo; j < ns && !cmp_lf(ss[j].lock, ss[j].flags,
					      l[i].lock, l[i].flags); j++) {
			double c = (double)ss[j].count / sc;
			double w = sw > 0 ? (double)ss[j].wait_ns / sw : c;

			entry_of(&out[n++], &l[i], ss[j].caller,
				 (double)l[i].count * c,
				 (double)l[i].wait_ns * w);
		}
	}
	free(ss);
	return n;
}
