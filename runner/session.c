/*
 * session.c - the loop over the plan (session.h): every run still to do
 * in seq order, then (auto) further rounds until none is added, and the
 * end of the session: the experiment's
 * status, the database checked to still hold what this runner wrote, the
 * summary, and the exit status.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"
#include "lib/escape.h"
#include "lib/hint.h"
#include "runner/cgroup.h"
#include "runner/claim.h"
#include "runner/guard.h"
#include "runner/host.h"
#include "runner/interrupt.h"
#include "runner/kinstr/bpf.h"
#include "runner/kstate.h"
#include "runner/onerun.h"
#include "runner/kinstr/count.h"
#include "runner/scratch.h"
#include "runner/session.h"
#include "runner/spawn.h"
#include "db/contract.h"
#include "lib/util.h"

enum loop_end { LOOP_DONE, LOOP_STOPPED, LOOP_FAILFAST, LOOP_ERROR };

struct id_index {
	int64_t id;
	size_t entry;
};

static int cmp_id(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Sorts the configuration ids once: a plan may hold 100000 runs. */
static void index_ids(struct runner *r)
{
	size_t i;

	r->by_id = xcalloc(r->cfg.nentries, sizeof(*r->by_id));
	for (i = 0; i < r->cfg.nentries; i++)
		r->by_id[i] = (struct id_index){ r->config_ids[i], i };
	qsort(r->by_id, r->cfg.nentries, sizeof(*r->by_id), cmp_id);
}

/* The entry index of a stored configuration id, or -1. */
static long entry_of(const struct runner *r, int64_t config_id)
{
	struct id_index key = { config_id, 0 };
	const struct id_index *hit;

	hit = bsearch(&key, r->by_id, r->cfg.nentries, sizeof(*r->by_id),
		      cmp_id);
	return hit ? (long)hit->entry : -1;
}

/* Every run still planned (or interrupted), in seq order. */
static enum loop_end run_pending(struct runner *r)
{
	enum loop_end end = LOOP_DONE;
	struct pending_run *pend;
	size_t n, i;

	if (store_pending_runs(r->st, r->exp.id, &pend, &n))
		return LOOP_ERROR;
	for (i = 0; i < n && end == LOOP_DONE; i++) {
		long c = entry_of(r, pend[i].config_id);
		enum run_status st = RUN_PLANNED;

		if (c < 0) {
			error("run %" PRId64 ": unknown configuration %" PRId64,
			      pend[i].run_id, pend[i].config_id);
			end = LOOP_ERROR;
		} else if (!interrupt_signal() &&
			   onerun(r, &r->cfg.entries[c], &pend[i], &st)) {
			end = LOOP_ERROR;
		} else if (interrupt_signal()) {
			/* Before the run, or the run it interrupted. */
			end = LOOP_STOPPED;
		} else if (r->o->fail_fast && st != RUN_OK) {
			error("run %ld: %s; stopping (--fail-fast)", pend[i].seq,
			      run_status_names[st]);
			end = LOOP_FAILFAST;
		}
	}
	free(pend);
	return end;
}

/* Runnable as printed, from any directory (lib/hint.h). */
static void resume_hint(const struct runner *r)
{
	char *db = hint_db(r->o->db ? r->o->db : store_default_path());
	char *e = escape_text_dup(db);

	fprintf(stderr, "contend: continue with: `contend run --resume %" PRId64
			" %s`\n", r->exp.id, e ? e : db);
	free(e);
	free(db);
}

/* Counts by status, the two still to do (planned, interrupted) as one. */
static int run_counts(struct store *s, int64_t exp, long counts[RUN_NSTATUS])
{
	if (store_run_counts(s, exp, counts))
		return -1;
	counts[RUN_PLANNED] += counts[RUN_INTERRUPTED];
	counts[RUN_INTERRUPTED] = 0;
	return 0;
}

/*
 * At the end: the database file is still the one opened and, read by a
 * connection of its own as any later reader would, intact and holding
 * the runs as this runner wrote them.  Another program may have removed
 * it (the results then went to a file no name leads to), replaced it,
 * rewritten its WAL or its rows meanwhile (tests/faults/dbgone.sh).
 */
static int verify_store(struct runner *r)
{
	const char *path = r->o->db ? r->o->db : store_default_path();
	struct store *fresh = NULL;
	long now[RUN_NSTATUS];
	int i, ret = -1;

	if (store_check_file(r->st, false))
		return -1;
	if (store_open(path, STORE_RDONLY, &fresh)) {
		error("%s: the database cannot be read back after the runs: "
		      "it was damaged meanwhile", path);
		return -1;
	}
	/* quick_check reads every page: through a bounded cache */
	if (store_cache_limit(fresh, RUNNER_CACHE_KIB) ||
	    store_check_file(fresh, true) || run_counts(fresh, r->exp.id, now))
		goto out;
	for (i = 0; i < RUN_NSTATUS; i++)
		if (now[i] != r->expect[i]) {
			error("%s: experiment %" PRId64 " was changed while it "
			      "ran: %ld runs %s where this runner left %ld",
			      path, r->exp.id, now[i], i == RUN_PLANNED
			      ? "still to do" : run_status_names[i],
			      r->expect[i]);
			goto out;
		}
	ret = 0;
out:
	store_close(fresh);
	return ret;
}

/* A configuration none of whose runs succeeded makes the run a failure. */
static bool all_failed(const struct runner *r)
{
	bool any = false;
	size_t c, n;

	for (c = 0; c < r->cfg.nentries; c++) {
		const struct config_entry *e = &r->cfg.entries[c];
		const char *first;
		char *what, *safe;

		if (!progress_all_failed(&r->prog, c, &n, &first))
			continue;
		what = xasprintf("configuration %zu [%s] %s: all %zu run%s failed "
				 "(first: %s)", c + 1, e->section, e->canon, n,
				 n == 1 ? "" : "s", first);
		safe = escape_text_dup(what);
		error("%s", safe ? safe : what);
		free(safe);
		free(what);
		any = true;
	}
	return any;
}

static int finish(struct runner *r, enum loop_end end)
{
	static const struct {
		const char *status;
		int exit;
	} ends[] = {
		[LOOP_DONE] = { "complete", 0 },
		[LOOP_STOPPED] = { "interrupted", EXIT_INTERRUPTED },
		[LOOP_FAILFAST] = { "failed", EXIT_RUNTIME },
		[LOOP_ERROR] = { "failed", EXIT_RUNTIME },
	};
	int ret = ends[end].exit;
	/* Changed behind our back: not complete, whatever the loop did. */
	bool changed = verify_store(r) != 0;

	if (changed)
		ret = EXIT_RUNTIME;
	if (store_experiment_status(r->st, r->exp.id,
				    changed ? "failed" : ends[end].status) ||
	    host_load_end(r->st, r->exp.id) ||
	    kstate_end("/", r->st, &r->exp) ||
	    claim_release(r->st, r->exp.id))
		ret = EXIT_RUNTIME;
	if (!r->o->quiet)
		progress_summary(&r->prog, stdout);
	/* bisect: failed runs are the step's data (collapses, seqtest.h) */
	if (!r->o->bisect && all_failed(r) && ret == 0)
		ret = EXIT_RUNTIME;
	progress_release(&r->prog);
	if (end == LOOP_STOPPED) {
		char sig[32];

		error("%s: experiment %" PRId64 " interrupted",
		      spawn_signame(interrupt_signal(), sig, sizeof(sig)),
		      r->exp.id);
	}
	/* a bisect step is not resumed: its command, run again, decides */
	if (end != LOOP_DONE && !r->o->bisect)
		resume_hint(r);
	return ret;
}

/* ---- nothing outlives the runner ---- */

/* How the runner's children are held, for the experiment's meta. */
static char containment[600];

/* What runners that died left in the scratch parents of this plan. */
static void sweep_scratch(const struct runner *r)
{
	const char **seen = xcalloc(r->cfg.nentries + 1, sizeof(*seen));
	size_t i, j, n = 0;

	seen[n++] = scratch_parent(NULL); /* the default parent */
	for (i = 0; i < r->cfg.nentries; i++) {
		const struct config_entry *e = &r->cfg.entries[i];
		const char *dir = scratch_parent(entry_value(e, "dir"));

		for (j = 0; j < n && (e->wl->flags & WL_SCRATCH); j++)
			if (!strcmp(seen[j], dir))
				break;
		if ((e->wl->flags & WL_SCRATCH) && j == n)
			seen[n++] = dir;
	}
	for (i = 0; i < n; i++)
		scratch_sweep(seen[i]);
	free(seen);
}

/*
 * Before the first child: what dead runners left is removed, the
 * runner's cgroup made (or the reason why not kept), the guard forked.
 */
static void contain(struct runner *r)
{
	static struct cgroup cg;
	char why[512];

	cgroup_sweep(NULL);
	sweep_scratch(r);
	if (!cgroup_create(&cg, NULL, why, sizeof(why))) {
		r->cg = &cg;
		snprintf(containment, sizeof(containment), "cgroup v2 %s",
			 cg.path);
	} else {
		snprintf(containment, sizeof(containment), "process groups and "
			 "subreaper (no cgroup: %s)", why);
	}
	/* Unguarded, a runner killed would leave a run's children behind;
	 * running on is still better than not running. */
	if (guard_start(r->cg))
		warning("runs that fork may outlive a killed runner");
}

/*
 * The BPF program, loaded before anything was written (runner/start.c),
 * counts the run's tasks by their cgroup where the runner has one: no
 * program on fork.
 */
static void kbpf_start(struct runner *r)
{
	if (r->kbpf && r->cg)
		kbpf_use_cgroup(r->kbpf, cgroup_id(r->cg));
}

/* Pending runs, then (auto) further rounds until none is added. */
static int execute(struct runner *r)
{
	enum loop_end end = LOOP_DONE;
	double secs = 0;
	size_t i, left = 0, jobs = 0;
	struct pending_run *pend;

	index_ids(r);
	/* One runner per experiment: a second would run the same runs. */
	if (claim_take(r->st, r->exp.id) ||
	    store_meta_set(r->st, r->exp.id, "containment", containment) ||
	    run_counts(r->st, r->exp.id, r->expect) ||
	    store_experiment_status(r->st, r->exp.id, "running") ||
	    store_pending_runs(r->st, r->exp.id, &pend, &left))
		return EXIT_RUNTIME;
	for (i = 0; i < left; i++) {
		long c = entry_of(r, pend[i].config_id);
		double rt = c < 0 ? 0 : r->cfg.entries[c].set.runtime_s;

		secs += rt;
		jobs += rt <= 0;
	}
	free(pend);
	kbpf_start(r);
	/* From here to the end the kernel's lock tracepoint stays on: no
	 * run's counters switch it (and patch the kernel) at its start.  The
	 * BPF program, attached, keeps it on by itself. */
	r->kcount_hold = kcount_hold(kcount_backend(r->kinstr));
	sentinel_open(&r->sentinel, "/");
	/* where each run's cpu_mhz comes from, or why none, and whether the
	 * kernel log is followed (once) */
	if (sentinel_record(&r->sentinel, r->st, &r->exp))
		warning("cpu_freq_source and kernel_log not stored");
	progress_init(&r->prog, r->plan.nruns, r->plan.nruns - left, secs, jobs,
		      r->o->quiet);
	for (;;) {
		int n;

		end = interrupt_signal() ? LOOP_STOPPED : run_pending(r);
		if (end != LOOP_DONE || !r->autorule.any)
			break;
		n = autorule_grow(r);
		if (n < 0)
			end = LOOP_ERROR;
		if (n <= 0)
			break;
	}
	kcount_unhold(kcount_backend(r->kinstr), r->kcount_hold);
	r->kcount_hold = -1;
	sentinel_close(&r->sentinel);
	kbpf_close(r->kbpf);
	r->kbpf = NULL;
	return finish(r, end);
}

int runner_execute(struct runner *r)
{
	int ret;

	contain(r);
	ret = execute(r);
	/* its failure is said, and the guard tries again */
	if (r->cg)
		cgroup_remove(r->cg);
	r->cg = NULL;
	return ret;
}
