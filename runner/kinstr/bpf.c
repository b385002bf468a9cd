/*
 * bpf.c - the runner's side of bpf/klock.bpf.c (bpf.h): loading it once,
 * the per-run reset and read of its maps, and the run's result from them
 * (folded and ranked by bpf_fold.c; the kernel's symbols that name the
 * callers: ksyms.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner/kinstr/bpf.h"
#include "lib/util.h"

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
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "runner/kinstr/bpf/klock.skel.h"

struct kbpf {
	struct klock_bpf *skel;
	struct ksyms *ks;
	bool ks_tried;
	int tracked, totals, locks, callers, stacks;
	size_t ncpu;          /* values of a per-CPU map */
	uint64_t cgid;        /* the run's cgroup; 0: the process tree */
	bool delayed;         /* the last run had a kernel_delay */
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
	size_t nlocks;
	int err, ncpu;

	libbpf_set_print(quiet);
	ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0) {
		load_failed(-ncpu, "counting the CPUs", why, whylen);
		goto fail;
	}
	k->ncpu = (size_t)ncpu;
	k->skel = klock_bpf__open();
	if (!k->skel) {
		load_failed(errno, "opening the BPF object", why, whylen);
		goto fail;
	}
	k->skel->rodata->runner_tgid = (__u32)getpid();
	/* the per-CPU locks map: 16 MB at most, 1024 locks at least */
	nlocks = (16u << 20) / (k->ncpu * sizeof(struct kbpf_cw));
	nlocks = nlocks > KBPF_MAX_LOCKS ? KBPF_MAX_LOCKS
		 : nlocks < 1024 ? 1024 : nlocks;
	bpf_map__set_max_entries(k->skel->maps.locks, (__u32)nlocks);
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
	k->totals = bpf_map__fd(k->skel->maps.totals);
	k->locks = bpf_map__fd(k->skel->maps.locks);
	k->callers = bpf_map__fd(k->skel->maps.callers);
	k->stacks = bpf_map__fd(k->skel->maps.stacks);
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

void kbpf_use_cgroup(struct kbpf *k, uint64_t cgid)
{
	if (!cgid)
		return;
	k->cgid = cgid;
	k->skel->bss->by_cgroup = 1;
	/* no process tree to follow: fork runs no program */
	bpf_link__destroy(k->skel->links.kbpf_fork);
	k->skel->links.kbpf_fork = NULL;
}

void kbpf_close(struct kbpf *k)
{
	if (!k)
		return;
	klock_bpf__destroy(k->skel);
	ksyms_free(k->ks);
	free(k);
}

/* Every key of a map, malloc'd, into *n. */
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

int kbpf_run_begin(struct kbpf *k, const struct kbpf_delay *delay,
		   char *err, size_t errlen)
{
	struct klock_bpf__bss *b = k->skel->bss;
	struct kbpf_totals *zero;
	uint64_t lo = 0, hi = 0;
	__u32 key = 0;

	if (delay && delay->ns) {
		const struct ksyms *ks = symbols(k);

		if (!ks || ksyms_range(ks, delay->function, &lo, &hi))
			return error_buf(err, errlen, "kernel_delay: no kernel "
					 "function '%s' in /proc/kallsyms",
					 delay->function);
	}
	/* the tasks' storage is not emptied: a begin of a run before is of
	 * another gen, and pairs with nothing */
	__atomic_add_fetch(&b->gen, 1, __ATOMIC_SEQ_CST);
	empty(k->tracked, sizeof(__u32));
	empty(k->locks, sizeof(struct kbpf_lkey));
	empty(k->callers, sizeof(struct kbpf_ckey));
	empty(k->stacks, sizeof(__u32));
	zero = xcalloc(k->ncpu, sizeof(*zero));
	bpf_map_update_elem(k->totals, &key, zero, BPF_ANY);
	free(zero);
	b->delay_lo = lo;
	b->delay_hi = hi;
	b->delay_ns = delay ? delay->ns : 0;
	k->delayed = b->delay_ns != 0;
	if (k->cgid)
		__atomic_store_n(&b->run_cgid, k->cgid, __ATOMIC_SEQ_CST);
	else
		__atomic_store_n(&b->armed, 1, __ATOMIC_SEQ_CST);
	return 0;
}

void kbpf_track(struct kbpf *k, pid_t pid)
{
	__u32 tgid = (__u32)pid;
	__u8 one = 1;

	if (k->cgid)
		return;
	bpf_map_update_elem(k->tracked, &tgid, &one, BPF_ANY);
	__atomic_store_n(&k->skel->bss->armed, 0, __ATOMIC_SEQ_CST);
}

/* The per-kind counts and waits of the totals, as metrics. */
static void add_totals(const struct kbpf_totals *t, struct result *r)
{
	uint64_t n[KLOCK_NKINDS] = { 0 }, w[KLOCK_NKINDS] = { 0 }, max = 0;
	double ops;
	size_t f, i;

	for (f = 0; f < KBPF_NFLAGS; f++) {
		enum klock_kind kind = kbpf_kind((unsigned)f);

		n[KLOCK_ALL] += t->k[f].count;
		w[KLOCK_ALL] += t->k[f].wait_ns;
		if (kind != KLOCK_ALL) {
			n[kind] += t->k[f].count;
			w[kind] += t->k[f].wait_ns;
		}
		if (t->k[f].max_ns > max)
			max = t->k[f].max_ns;
	}
	for (i = 0; i < KLOCK_NKINDS; i++) {
		char name[METRIC_NAME_MAX];

		result_add(r, kcount_metric(i), (double)n[i]);
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

/* kernel_delay's delays and its refusals by reason (kbpf_shared.h's
 * enum kbpf_refusal, in its order). */
static void add_delays(const struct kbpf_totals *t, struct result *r)
{
	static const char *const refused[KBPF_NREFUSE] = {
		"klock_delay_refused_irq", "klock_delay_refused_spin",
		"klock_delay_refused_share", "klock_delay_refused_total",
	};
	size_t i;

	result_add(r, "klock_delayed", (double)t->delayed);
	for (i = 0; i < KBPF_NREFUSE; i++)
		result_add(r, refused[i], (double)t->refused[i]);
}

/* The locks map, each lock's per-CPU counts summed. */
static struct kbpf_lock *read_locks(struct kbpf *k, size_t *nl)
{
	size_t n, i, c, m = 0;
	struct kbpf_lkey *keys = all_keys(k->locks, sizeof(*keys), &n);
	struct kbpf_lock *l = xcalloc(n ? n : 1, sizeof(*l));
	struct kbpf_cw *v = xcalloc(k->ncpu, sizeof(*v));

	for (i = 0; i < n; i++) {
		if (bpf_map_lookup_elem(k->locks, &keys[i], v))
			continue;
		l[m].lock = keys[i].lock;
		l[m].flags = keys[i].flags;
		for (c = 0; c < k->ncpu; c++) {
			l[m].count += v[c].count;
			l[m].wait_ns += v[c].wait_ns;
		}
		m += l[m].count > 0;
	}
	free(v);
	free(keys);
	*nl = m;
	return l;
}

/* The sampled callers, their stacks resolved. */
static struct kbpf_sample *read_callers(struct kbpf *k, size_t *ns)
{
	const struct ksyms *ks = symbols(k);
	size_t n, i, m = 0;
	struct kbpf_ckey *keys = all_keys(k->callers, sizeof(*keys), &n);
	struct kbpf_sample *s = xcalloc(n ? n : 1, sizeof(*s));

	for (i = 0; i < n; i++) {
		struct kbpf_cw v;
		__u64 ips[KBPF_STACK_DEPTH];

		if (bpf_map_lookup_elem(k->callers, &keys[i], &v))
			continue;
		s[m].lock = keys[i].lock;
		s[m].flags = keys[i].flags;
		s[m].count = v.count;
		s[m].wait_ns = v.wait_ns;
		if (ks && keys[i].stack_id >= 0 &&
		    !bpf_map_lookup_elem(k->stacks, &keys[i].stack_id, ips))
			s[m].caller = ksyms_caller(ks, (const uint64_t *)ips,
						   KBPF_STACK_DEPTH);
		m++;
	}
	free(keys);
	*ns = m;
	return s;
}

int kbpf_run_end(struct kbpf *k, struct result *r, struct kbpf_top *top)
{
	struct klock_bpf__bss *b = k->skel->bss;
	struct kbpf_totals *pc, sum;
	struct kbpf_lock *l;
	struct kbpf_sample *s;
	struct kbpf_entry *e;
	size_t nl, ns;
	__u32 key = 0;

	/* the run is over: nothing delayed, and no process of it (or one
	 * that reuses its pid) followed, until the next run begins */
	__atomic_store_n(&b->delay_ns, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&b->run_cgid, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&b->armed, 0, __ATOMIC_SEQ_CST);
	empty(k->tracked, sizeof(__u32));
	memset(top, 0, sizeof(*top));
	if (!r)
		return 0;
	pc = xcalloc(k->ncpu, sizeof(*pc));
	if (bpf_map_lookup_elem(k->totals, &key, pc))
		memset(pc, 0, k->ncpu * sizeof(*pc));
	kbpf_totals_sum(pc, k->ncpu, &sum);
	free(pc);
	add_totals(&sum, r);
	if (k->delayed)
		add_delays(&sum, r);
	l = read_locks(k, &nl);
	s = read_callers(k, &ns);
	e = xcalloc(nl + ns + 1, sizeof(*e));
	kbpf_rank(e, kbpf_split(l, nl, s, ns, e), symbols(k), top);
	free(e);
	free(s);
	free(l);
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

void kbpf_use_cgroup(struct kbpf *k, uint64_t cgid)
{
	(void)k;
	(void)cgid;
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
