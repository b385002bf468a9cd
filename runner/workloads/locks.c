/*
 * locks.c - common parameters, mutual-exclusion check and report of the
 * lock workloads.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/util.h"
#include "runner/workloads/locks.h"

const char *const locks_timeline_words[] = { "auto", NULL };

void locks_cfg_init(struct lock_cfg *c, const struct wl_args *a)
{
	c->per_group = (size_t)a->v[LP_THREADS].i;
	c->groups = (size_t)a->v[LP_LOCKS].i;
	c->nworkers = c->per_group * c->groups;
	c->loops_per_us = a->loops_per_us;
	c->calibrated_work = false;
	c->hold = locks_ns_to_loops(c, a, a->v[LP_HOLD_NS].i);
	c->outside = (uint64_t)a->v[LP_WORKLEN].i +
		     locks_ns_to_loops(c, a, a->v[LP_THINK_NS].i);
	c->timeline_s = a->v[LP_TIMELINE].d;
	if (c->timeline_s < 0) /* TIMELINE_AUTO, its one word */
		c->timeline_s = timeline_auto_interval(a->runtime_s,
						       c->nworkers);
	c->latency_every = (uint64_t)a->v[LP_LATENCY_EVERY].i;
	c->probes = NULL;
}

uint64_t locks_ns_to_loops(struct lock_cfg *c, const struct wl_args *a,
			   long long ns)
{
	if (ns <= 0)
		return 0;
	c->calibrated_work = true;
	if (c->loops_per_us <= 0)
		c->loops_per_us = harness_loops_per_us(a);
	return harness_ns_to_loops((double)ns, c->loops_per_us);
}

int locks_validate(const struct wl_args *a, struct wl_blame *blame,
		   char *err, size_t errlen)
{
	long long threads = a->v[LP_THREADS].i, locks = a->v[LP_LOCKS].i;

	if (threads * locks > LOCKS_MAX_THREADS) {
		snprintf(err, errlen,
			 "threads x locks = %lld x %lld = %lld exceeds %d threads",
			 threads, locks, threads * locks, LOCKS_MAX_THREADS);
		return wl_blame(blame, "threads", "locks");
	}
	if (futexhash_validate(a->v[LP_FUTEX_HASH].i, err, errlen))
		return wl_blame(blame, "futex_hash_slots", NULL);
	return 0;
}

static uint64_t slot_field(const struct slot *s, size_t field)
{
	return *(const uint64_t *)((const char *)s + field);
}

int locks_check(const uint64_t *counts, size_t groups, size_t per_group,
		const struct slot *slots, size_t field, struct result *r)
{
	size_t g, t;

	for (g = 0; g < groups; g++) {
		uint64_t sum = 0;

		for (t = 0; t < per_group; t++)
			sum += slot_field(&slots[g * per_group + t], field);
		if (sum != counts[g])
			return result_fail(r,
				"mutual exclusion violated: lock %zu protected "
				"counter is %" PRIu64 ", its threads "
				"completed %" PRIu64 " operations",
				g, counts[g], sum);
	}
	return 0;
}

uint64_t locks_sum_aux(const struct slot *s, size_t n, size_t i)
{
	uint64_t sum = 0;
	size_t k;

	for (k = 0; k < n; k++)
		sum += s[k].aux[i];
	return sum;
}

int locks_run(const struct wl_args *a, struct lock_cfg *c,
	      struct lock_run *lr, struct result *r)
{
	uint64_t *counts;
	const char *base = lr->groups;
	struct timeline tl = { .running = false };
	long long fh = a->v[LP_FUTEX_HASH].i;
	double elapsed;
	size_t k;
	int ret;

	lr->slots = NULL;
	/* before any thread: the first one sizes an automatic hash */
	if (futexhash_apply(fh, r))
		return -1;
	counts = xcalloc(lr->nlocks, sizeof(*counts));
	if (locks_probed(c))
		c->probes = probe_alloc(c->nworkers, c->latency_every);
	lr->slots = harness_slots(c->nworkers);
	if (c->timeline_s > 0)
		timeline_start(&tl, c->probes, c->nworkers, c->timeline_s);
	ret = harness_run(a, c->nworkers, lr->fn, lr->ctx, lr->slots,
			  &elapsed, r);
	timeline_stop(&tl);
	if (ret)
		goto out;
	for (k = 0; k < lr->nlocks; k++) {
		const struct guarded *d = (const void *)(base + k * lr->stride +
							 lr->data_off);
		counts[k] = d->count;
	}
	ret = locks_check(counts, lr->nlocks, lr->per_lock, lr->slots,
			  lr->check_field, r);
	if (ret)
		goto out;
	harness_report(r, lr->slots, c->nworkers, elapsed, a);
	futexhash_report(fh, r);
	/*
	 * The calibration the run used, and -- when it did calibrated work,
	 * after the window -- the CPU's speed now on the same loop: a drift
	 * between the two across an experiment shows the clock changed.
	 */
	if (c->loops_per_us > 0)
		result_add(r, "loops_per_us", c->loops_per_us);
	if (c->loops_per_us > 0 && c->calibrated_work)
		result_add(r, "loops_per_us_now",
			   harness_speed_check());
	timeline_report(&tl, r);
	probe_report(c->probes, c->probes ? c->nworkers : 0, r);
out:
	free(tl.cum);
	probe_free(c->probes, c->nworkers);
	c->probes = NULL;
	free(counts);
	return ret;
}
