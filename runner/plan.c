/*
 * plan.c - run orders (blocked, random, sequential) built with GSL's
 * shuffle, and the runner's form of the auto stopping rule.
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "runner/plan.h"
#include "lib/util.h"

uint32_t plan_seed32(uint64_t seed, uint64_t stream)
{
	uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return (uint32_t)(z >> 32);
}

/* Shuffles idx[0..n-1] with the generator of this stream. */
static void shuffle(const struct plan *p, size_t *idx, size_t n,
		    uint64_t stream)
{
	gsl_rng *rng;

	if (n < 2)
		return;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		abort();
	gsl_rng_set(rng, plan_seed32(p->seed, stream));
	gsl_ran_shuffle(rng, idx, n, sizeof(*idx));
	gsl_rng_free(rng);
}

static int reserve(struct plan *p, size_t more)
{
	if (p->nruns + more > CONFIG_MAX_RUNS)
		return error("the plan would hold %zu runs; the limit is %d",
			     p->nruns + more, CONFIG_MAX_RUNS);
	if (p->nruns + more > p->alloc) {
		p->alloc = (p->nruns + more) * 2;
		p->runs = xrealloc(p->runs, p->alloc * sizeof(*p->runs));
	}
	return 0;
}

static void push(struct plan *p, size_t config, int repetition, bool warmup)
{
	p->runs[p->nruns] = (struct plan_run){
		.config = config, .repetition = repetition, .warmup = warmup,
		.seq = (long)p->nruns,
	};
	p->nruns++;
}

/*
 * Appends one round: one run of each configuration listed in cfg, with
 * repetition rep[c] for configuration c (then incremented), shuffled
 * unless the order is sequential.
 */
static int append_round(struct plan *p, size_t *cfg, size_t n, int *rep,
			bool warmup)
{
	size_t i;

	if (reserve(p, n))
		return -1;
	if (p->order != ORDER_SEQUENTIAL)
		shuffle(p, cfg, n, p->nruns);
	for (i = 0; i < n; i++)
		push(p, cfg[i], rep[cfg[i]]++, warmup);
	return 0;
}

/* Rounds of one kind (warm-up or measured) while any config has one left. */
static int build_rounds(struct plan *p, const struct plan_spec *spec,
			bool warmup, size_t *cfg)
{
	int *rep = xcalloc(p->nconfigs, sizeof(*rep));
	int ret = 0;

	for (;;) {
		size_t c, n = 0;

		for (c = 0; c < p->nconfigs; c++) {
			int want = warmup ? spec[c].warmup : spec[c].repetitions;

			if (rep[c] < want)
				cfg[n++] = c;
		}
		if (!n)
			break;
		ret = append_round(p, cfg, n, rep, warmup);
		if (ret)
			break;
	}
	if (!warmup)
		memcpy(p->measured, rep, p->nconfigs * sizeof(*rep));
	free(rep);
	return ret;
}

static int build_blocked(struct plan *p, const struct plan_spec *spec)
{
	size_t *cfg = xcalloc(p->nconfigs, sizeof(*cfg));
	int ret;

	ret = build_rounds(p, spec, true, cfg);
	if (!ret)
		ret = build_rounds(p, spec, false, cfg);
	free(cfg);
	return ret;
}

/*
 * One shuffle of the multiset {config c, warmup_c + repetitions_c times};
 * each configuration's earliest positions become its warm-ups.  Every
 * arrangement of the multiset is equally likely, so the constraint costs
 * no uniformity of positions.
 */
static int build_random(struct plan *p, const struct plan_spec *spec,
			size_t total)
{
	size_t *cfg = xcalloc(total, sizeof(*cfg));
	int *seen = xcalloc(p->nconfigs, sizeof(*seen));
	size_t c, i, n = 0;
	int k;

	for (c = 0; c < p->nconfigs; c++)
		for (k = 0; k < spec[c].warmup + spec[c].repetitions; k++)
			cfg[n++] = c;
	shuffle(p, cfg, n, 0);
	for (i = 0; i < n; i++) {
		int s = seen[cfg[i]]++, w = spec[cfg[i]].warmup;

		push(p, cfg[i], s < w ? s : s - w, s < w);
	}
	for (c = 0; c < p->nconfigs; c++)
		p->measured[c] = spec[c].repetitions;
	free(seen);
	free(cfg);
	return 0;
}

static void build_sequential(struct plan *p, const struct plan_spec *spec)
{
	size_t c;
	int k;

	for (c = 0; c < p->nconfigs; c++) {
		for (k = 0; k < spec[c].warmup; k++)
			push(p, c, k, true);
		for (k = 0; k < spec[c].repetitions; k++)
			push(p, c, k, false);
		p->measured[c] = spec[c].repetitions;
	}
}

static void plan_init(struct plan *p, enum run_order order, uint64_t seed,
		      size_t nconfigs)
{
	memset(p, 0, sizeof(*p));
	p->order = order;
	p->seed = seed;
	p->nconfigs = nconfigs;
	p->measured = xcalloc(nconfigs, sizeof(*p->measured));
}

int plan_build(struct plan *p, enum run_order order, uint64_t seed,
	       size_t nconfigs, const struct plan_spec *spec)
{
	size_t c, total = 0;
	int ret = 0;

	plan_init(p, order, seed, nconfigs);
	for (c = 0; c < nconfigs; c++) {
		if (spec[c].warmup < 0 || spec[c].repetitions < 0) {
			ret = error("configuration %zu: negative run count", c);
			goto out;
		}
		total += (size_t)spec[c].warmup + (size_t)spec[c].repetitions;
		if (total > CONFIG_MAX_RUNS)
			break;
	}
	ret = reserve(p, total);
	if (ret)
		goto out;
	switch (order) {
	case ORDER_BLOCKED:
		ret = build_blocked(p, spec);
		break;
	case ORDER_RANDOM:
		ret = build_random(p, spec, total);
		break;
	case ORDER_SEQUENTIAL:
		build_sequential(p, spec);
		break;
	}
out:
	if (ret)
		plan_release(p);
	return ret;
}

int plan_restore(struct plan *p, enum run_order order, uint64_t seed,
		 size_t nconfigs, const struct plan_run *runs, size_t n)
{
	size_t i;
	int ret;

	plan_init(p, order, seed, nconfigs);
	ret = reserve(p, n);
	if (ret)
		goto out;
	for (i = 0; i < n; i++)
		p->runs[i].seq = -1;
	for (i = 0; i < n; i++) {
		const struct plan_run *r = &runs[i];

		if (r->seq < 0 || (size_t)r->seq >= n ||
		    p->runs[r->seq].seq >= 0 || r->config >= nconfigs) {
			ret = error("stored plan: run seq %ld is out of place",
				    r->seq);
			goto out;
		}
		p->runs[r->seq] = *r;
		if (!r->warmup && r->repetition >= p->measured[r->config])
			p->measured[r->config] = r->repetition + 1;
	}
	p->nruns = n;
out:
	if (ret)
		plan_release(p);
	return ret;
}

int plan_add_round(struct plan *p, const bool *active)
{
	size_t *cfg = xcalloc(p->nconfigs, sizeof(*cfg));
	size_t c, n = 0;
	int ret;

	for (c = 0; c < p->nconfigs; c++)
		if (active[c])
			cfg[n++] = c;
	ret = append_round(p, cfg, n, p->measured, false);
	free(cfg);
	return ret ? -1 : (int)n;
}

void plan_release(struct plan *p)
{
	free(p->measured);
	free(p->runs);
	memset(p, 0, sizeof(*p));
}

enum plan_stop plan_auto_decide(const double *x, size_t n, int planned,
				const struct run_settings *set,
				double confidence, double *rel_hw)
{
	const struct stop_rule rule = {
		.precision = set->precision,
		.min_repetitions = set->min_repetitions,
		.max_repetitions = set->max_repetitions,
		.confidence = confidence,
	};

	return stop_rule_decide(x, n, planned, &rule, rel_hw);
}
