/*
 * kbpf.c - the runner's side of bpf/klock.bpf.c (kbpf.h): loading it once,
 * the per-run reset and read of its maps, the kernel's symbols that name
 * each contention's caller, and the run's top locks.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/kbpf.h"
#include "lib/util.h"

/* ---- kinds ---- */

enum klock_kind kbpf_kind(unsigned flags)
{
	/* include/trace/events/lock.h: SPIN 1, READ 2, WRITE 4, RT 8,
	 * PERCPU 16, MUTEX 32; as klock.c's filters */
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
	/* klock_metric: "klock_spin" ... */
	return kind == KLOCK_ALL ? "other" : klock_metric(kind) + 6;
}

/* ---- the kernel's symbols ---- */

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

/* ---- ranking ---- */

struct agg {
	enum klock_kind kind;
	const char *caller;
	uint64_t lock, count, wait_ns;
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

	if (a->wait_ns != b->wait_ns)
		return a->wait_ns > b->wait_ns ? -1 : 1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return cmp_str(a->caller, b->caller);
}

static void name_lock(const struct ksyms *ks, uint64_t lock, char *buf,
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
			name_lock(ks, a[i].lock, top->text[i][1],
				  sizeof(top->text[i][1]));
			r->lock = top->text[i][1];
		}
		r->contentions = (double)a[i].count;
		r->wait_s = (double)a[i].wait_ns * 1e-9;
	}
	top->n = i;
	free(a);
}

/* ---- the program ---- */

/*
 * The program sees the kernel's pids; in a pid namespace the runner's
 * own are others, and it would follow nothing (NSpid lists one pid per
 * namespace level).
 */
static bool in_pid_namespace(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool nested = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6))
			nested = strchr(line + 6, '\t') !=
				 strrchr(line + 6, '\t');
	fclose(f);
	return nested;
}

/* Why kbpf_open cannot succeed, short of trying; NULL: it may. */
static const char *not_here(char *why, size_t whylen)
{
#ifdef CONTEND_BPF
	const bool built = true;
#else
	const bool built = false;
#endif
	const char *s = getenv(KBPF_ENV), *kl = getenv(KLOCK_ENV);

	if (s && !strcmp(s, "off"))
		snprintf(why, whylen, "disabled by " KBPF_ENV "=off");
	else if (kl && !strcmp(kl, "off"))
		snprintf(why, whylen, "no tracepoint: disabled by " KLOCK_ENV
			 "=off");
	else if (!built)
		snprintf(why, whylen, "built without BPF (clang, bpftool or "
			 "libbpf-dev missing at build time)");
	else if (access("/sys/kernel/btf/vmlinux", R_OK))
		snprintf(why, whylen, "no BTF: /sys/kernel/btf/vmlinux: %s",
			 strerror(errno));
	else if (in_pid_namespace())
		snprintf(why, whylen, "in a pid namespace: the program would "
			 "not know the runs' pids");
	else
		return NULL;
	return why;
}

#ifdef CONTEND_BPF
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner/bpf/kbpf_shared.h"
#include "runner/bpf/klock.skel.h"

struct kbpf {
	struct klock_bpf *skel;
	struct ksyms *ks;
	bool ks_tried;
	int tracked, tasks, stacks, locks;
};

/* libbpf's own messages would interleave with the progress line. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static const struct ksyms *symbols(struct kbpf *k)
{
	if (!k->ks_tried) {
		k->ks_tried = true;
		k->ks = ksyms_load("/proc/kallsyms");
	}
	return k->ks;
}

static void load_failed(int err, const char *what, char *why, size_t len)
{
	if (err == EPERM || err == EACCES)
		snprintf(why, len, "no permission: %s: %s (loading BPF needs "
			 "root, or CAP_BPF and CAP_PERFMON)", what,
			 strerror(err));
	else
		snprintf(why, len, "%s: %s", what, strerror(err));
}

static struct kbpf *open_skel(char *why, size_t whylen)
{
	struct kbpf *k = xcalloc(1, sizeof(*k));
	int err;

	libbpf_set_print(quiet);
	k->skel = klock_bpf__open();
	if (!k->skel) {
		load_failed(errno, "opening the BPF object", why, whylen);
		goto fail;
	}
	k->skel->rodata->runner_tgid = (__u32)getpid();
	err = klock_bpf__load(k->skel);
	if (err) {
		load_failed(-err, "loading the BPF program", why, whylen);
		goto fail;
	}
	err = klock_bpf__attach(k->skel);
	if (err) {
		load_failed(-err, "attaching to lock:contention_begin/end", why,
			    whylen);
		goto fail;
	}
	k->tracked = bpf_map__fd(k->skel->maps.tracked);
	k->tasks = bpf_map__fd(k->skel->maps.tasks);
	k->stacks = bpf_map__fd(k->skel->maps.stacks);
	k->locks = bpf_map__fd(k->skel->maps.locks);
	return k;
fail:
	kbpf_close(k);
	return NULL;
}

int kbpf_usable(char *why, size_t whylen)
{
	if (not_here(why, whylen))
		return 0;
	if (geteuid() != 0) {
		snprintf(why, whylen, "not root (loading BPF needs root, or "
			 "CAP_BPF and CAP_PERFMON)");
		return 0;
	}
	return 1;
}

struct kbpf *kbpf_open(char *why, size_t whylen)
{
	return not_here(why, whylen) ? NULL : open_skel(why, whylen);
}

void kbpf_close(struct kbpf *k)
{
	if (!k)
		return;
	klock_bpf__destroy(k->skel);
	ksyms_free(k->ks);
	free(k);
}

/* Every key of a hash map, malloc'd, into *n. */
static void *all_keys(int fd, size_t size, size_t *n)
{
	size_t alloc = 16;
	char *keys = xmalloc(alloc * size);
	void *prev = NULL;

	*n = 0;
	for (;;) {
		if (*n == alloc) {
			alloc *= 2;
			keys = xrealloc(keys, alloc * size);
		}
		if (bpf_map_get_next_key(fd, prev, keys + *n * size))
			break;
		prev = keys + *n * size;
		++*n;
	}
	return keys;
}

static void empty(int fd, size_t size)
{
	size_t n, i;
	char *keys = all_keys(fd, size, &n);

	for (i = 0; i < n; i++)
		bpf_map_delete_elem(fd, keys + i * size);
	free(keys);
}

/*
 * The per-task map (tasks whose contention never ended: killed in it) and
 * the stacks they hold, which no locks key names.
 */
static void empty_tasks(struct kbpf *k)
{
	size_t n, i;
	__u32 *keys = all_keys(k->tasks, sizeof(*keys), &n);
	struct tstate t;

	for (i = 0; i < n; i++) {
		if (!bpf_map_lookup_elem(k->tasks, &keys[i], &t) &&
		    t.stack_id >= 0)
			bpf_map_delete_elem(k->stacks, &t.stack_id);
		bpf_map_delete_elem(k->tasks, &keys[i]);
	}
	free(keys);
}

/* The locks map and the stacks its keys name. */
static void empty_locks(struct kbpf *k)
{
	size_t n, i;
	struct kbpf_key *keys = all_keys(k->locks, sizeof(*keys), &n);

	for (i = 0; i < n; i++) {
		if (keys[i].stack_id >= 0)
			bpf_map_delete_elem(k->stacks, &keys[i].stack_id);
		bpf_map_delete_elem(k->locks, &keys[i]);
	}
	free(keys);
}

int kbpf_run_begin(struct kbpf *k, const struct kbpf_delay *delay,
		   char *err, size_t errlen)
{
	struct klock_bpf__bss *b = k->skel->bss;
	uint64_t lo = 0, hi = 0;

	if (delay && delay->ns) {
		const struct ksyms *ks = symbols(k);

		if (!ks || ksyms_range(ks, delay->function, &lo, &hi))
			return error_buf(err, errlen, "kernel_delay: no kernel "
					 "function '%s' in /proc/kallsyms",
					 delay->function);
	}
	empty(k->tracked, sizeof(__u32));
	empty_tasks(k);
	empty_locks(k);
	memset(b->totals, 0, sizeof(b->totals));
	b->dropped = 0;
	b->delayed = 0;
	b->delay_lo = lo;
	b->delay_hi = hi;
	b->delay_ns = delay ? delay->ns : 0;
	__atomic_store_n(&b->armed, 1, __ATOMIC_SEQ_CST);
	return 0;
}

void kbpf_track(struct kbpf *k, pid_t pid)
{
	__u32 tgid = (__u32)pid;
	__u8 one = 1;

	bpf_map_update_elem(k->tracked, &tgid, &one, BPF_ANY);
	__atomic_store_n(&k->skel->bss->armed, 0, __ATOMIC_SEQ_CST);
}

/* The per-kind counts and waits of the totals, as metrics. */
static void add_totals(struct kbpf *k, struct result *r)
{
	const struct kbpf_val *t = k->skel->bss->totals;
	uint64_t n[KLOCK_NKINDS] = { 0 }, w[KLOCK_NKINDS] = { 0 }, max = 0;
	double ops;
	size_t f, i;

	for (f = 0; f < KBPF_NFLAGS; f++) {
		enum klock_kind kind = kbpf_kind((unsigned)f);

		n[KLOCK_ALL] += t[f].count;
		w[KLOCK_ALL] += t[f].wait_ns;
		if (kind != KLOCK_ALL) {
			n[kind] += t[f].count;
			w[kind] += t[f].wait_ns;
		}
		if (t[f].max_ns > max)
			max = t[f].max_ns;
	}
	for (i = 0; i < KLOCK_NKINDS; i++) {
		char name[METRIC_NAME_MAX];

		result_add(r, klock_metric(i), (double)n[i]);
		if (i == KLOCK_ALL)
			snprintf(name, sizeof(name), "klock_wait_s");
		else
			snprintf(name, sizeof(name), "klock_wait_%s_s",
				 kbpf_kind_name(i));
		result_add(r, name, (double)w[i] * 1e-9);
	}
	result_add(r, "klock_wait_max_s", (double)max * 1e-9);
	/* chat counts its operations as messages */
	ops = result_value(r, "ops");
	if (isnan(ops))
		ops = result_value(r, "messages");
	if (ops > 0)
		result_add(r, "klock_contended_per_op",
			   (double)n[KLOCK_ALL] / ops);
}

static const char *class_name(unsigned c)
{
	return c == KBPF_CLASS_MMAP ? "mmap_lock"
	       : c == KBPF_CLASS_SIGLOCK ? "siglock" : NULL;
}

/* The locks map, its stacks resolved to callers, ranked into top. */
static void read_locks(struct kbpf *k, struct kbpf_top *top)
{
	const struct ksyms *ks = symbols(k);
	size_t n, i, m = 0;
	struct kbpf_key *keys = all_keys(k->locks, sizeof(*keys), &n);
	struct kbpf_entry *e = xcalloc(n ? n : 1, sizeof(*e));

	for (i = 0; i < n; i++) {
		struct kbpf_val v;
		__u64 ips[KBPF_STACK_DEPTH];

		if (bpf_map_lookup_elem(k->locks, &keys[i], &v))
			continue;
		e[m].kind = kbpf_kind(keys[i].flags & (KBPF_NFLAGS - 1));
		e[m].lock_class = class_name(keys[i].flags >> KBPF_CLASS_SHIFT);
		e[m].lock = keys[i].lock;
		e[m].count = v.count;
		e[m].wait_ns = v.wait_ns;
		if (ks && keys[i].stack_id >= 0 &&
		    !bpf_map_lookup_elem(k->stacks, &keys[i].stack_id, ips))
			e[m].caller = ksyms_caller(ks, (const uint64_t *)ips,
						   KBPF_STACK_DEPTH);
		m++;
	}
	kbpf_rank(e, m, ks, top);
	free(e);
	free(keys);
}

int kbpf_run_end(struct kbpf *k, struct result *r, struct kbpf_top *top)
{
	__atomic_store_n(&k->skel->bss->armed, 0, __ATOMIC_SEQ_CST);
	memset(top, 0, sizeof(*top));
	if (!r)
		return 0;
	add_totals(k, r);
	if (k->skel->bss->delay_ns)
		result_add(r, "klock_delayed", (double)k->skel->bss->delayed);
	read_locks(k, top);
	return 0;
}

bool kbpf_tracks(const struct kbpf *k, pid_t pid)
{
	__u32 tgid = (__u32)pid;
	__u8 v;

	return !bpf_map_lookup_elem(k->tracked, &tgid, &v);
}

#else /* !CONTEND_BPF */

struct kbpf {
	int unused;
};

struct kbpf *kbpf_open(char *why, size_t whylen)
{
	not_here(why, whylen);
	return NULL;
}

int kbpf_usable(char *why, size_t whylen)
{
	not_here(why, whylen);
	return 0;
}

void kbpf_close(struct kbpf *k)
{
	(void)k;
}

int kbpf_run_begin(struct kbpf *k, const struct kbpf_delay *delay,
		   char *err, size_t errlen)
{
	(void)k;
	(void)delay;
	return error_buf(err, errlen, "built without BPF");
}

void kbpf_track(struct kbpf *k, pid_t pid)
{
	(void)k;
	(void)pid;
}

int kbpf_run_end(struct kbpf *k, struct result *r, struct kbpf_top *top)
{
	(void)k;
	(void)r;
	memset(top, 0, sizeof(*top));
	return -1;
}

bool kbpf_tracks(const struct kbpf *k, pid_t pid)
{
	(void)k;
	(void)pid;
	return false;
}

#endif
