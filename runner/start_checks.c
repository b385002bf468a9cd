/*
 * start_checks.c - what a session checks before anything is written or
 * run (session.h): the kernel lock instrument it asked for can run here,
 * and a resumed experiment stays one experiment (the same boot, kernel,
 * instrument and contend) and runs no command stored in another database
 * unasked.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db/contract.h"
#include "db/facts.h"
#include "db/store.h"
#include "lib/escape.h"
#include "lib/readfile.h"
#include "lib/util.h"
#include "runner/kinstr/bpf.h"
#include "runner/kinstr/kinstr.h"
#include "runner/kinstr/count.h"
#include "runner/session.h"
#include "version.h"

/* A configuration slows a kernel lock on purpose: only BPF does that. */
static bool needs_bpf(const struct experiment_config *c)
{
	size_t i;

	for (i = 0; i < c->nentries; i++) {
		const char *v = entry_value(&c->entries[i], "kernel_delay");

		if (v && strcmp(v, "0"))
			return true;
	}
	return false;
}

/*
 * The session's kernel instrument (runner/kinstr/kinstr.h): the first of the
 * file's list (or KINSTR_ENV's) that can run here; kernel_delay takes the
 * BPF program, and where it cannot run the config was refused already
 * (config->offline).  None can: exit 2 with each one's reason and the
 * fix, before anything is written or run, in a dry run too.
 */
int choose_instrument(struct runner *r)
{
	const char *env = getenv(KINSTR_ENV);
	struct kinstr_list l = r->cfg.kinstr;
	char err[200], list[64], *msg, *safe;

	if (kinstr_env_check())
		return EXIT_USAGE;
	if (env && *env && kinstr_parse(env, &l, err, sizeof(err))) {
		safe = escape_text_dup(err);
		error("%s: %s", KINSTR_ENV, safe ? safe : "?");
		free(safe);
		return EXIT_USAGE;
	}
	r->cfg.kinstr = l; /* the list this session goes by */
	if (needs_bpf(&r->cfg)) {
		r->kinstr = KINSTR_BPF;
		return 0;
	}
	if (!kinstr_choose(&l, &r->kinstr, r->kinstr_skipped,
			   sizeof(r->kinstr_skipped)))
		return 0;
	msg = xasprintf("kernel_instruments = %s: nothing listed can run "
			"here (%s); run as root, or list a fallback this host "
			"allows in order of preference (bpf, count, none)",
			kinstr_list_text(&l, list, sizeof(list)),
			r->kinstr_skipped);
	if (env && *env)
		error("%s (from %s)", msg, KINSTR_ENV);
	else
		error_at(r->cfg.path, r->cfg.kinstr_line, "%s", msg);
	free(msg);
	return EXIT_USAGE;
}

/*
 * Loads the BPF program when the session's instrument is bpf, before
 * anything is written: a program this host refuses after all (the
 * verifier) passes to the next instrument listed, or refuses the session.
 */
int instrument_open(struct runner *r)
{
	struct kinstr_list rest = { .n = 0 };
	char why[200];
	size_t i, at;

	if (r->kinstr != KINSTR_BPF)
		return 0;
	r->kbpf = kbpf_open(why, sizeof(why));
	if (r->kbpf)
		return 0;
	at = strlen(r->kinstr_skipped);
	snprintf(r->kinstr_skipped + at, sizeof(r->kinstr_skipped) - at,
		 "%sbpf: %s", at ? "; " : "", why);
	for (i = 0; i < r->cfg.kinstr.n && r->cfg.kinstr.k[i] != KINSTR_BPF;
	     i++)
		;
	for (i++; i < r->cfg.kinstr.n; i++)
		rest.k[rest.n++] = r->cfg.kinstr.k[i];
	at = strlen(r->kinstr_skipped);
	if (!needs_bpf(&r->cfg) &&
	    !kinstr_choose(&rest, &r->kinstr, r->kinstr_skipped + at,
			   sizeof(r->kinstr_skipped) - at))
		return 0;
	if (getenv(KINSTR_ENV))
		error("%s: the BPF program cannot run here: %s", KINSTR_ENV,
		      why);
	else
		error_at(r->cfg.path, r->cfg.kinstr_line, "kernel_instruments: "
			 "the BPF program cannot run here: %s", why);
	return EXIT_USAGE;
}

/*
 * What the experiment stores of its instrument: the word, why those
 * listed before it did not run, the perf counters' state, and (for the
 * instrumentation-differs check) what it changes in the kernel.
 */
void instrument_meta(struct runner *r)
{
	static const char *const changes[] = {
		[KINSTR_NONE] = "none",
		[KINSTR_COUNT] = KINSTRUMENTS_COUNT,
		[KINSTR_KINDS] = KINSTRUMENTS_KINDS,
		[KINSTR_BPF] = KINSTRUMENTS_BPF,
	};
	char why[160];
	const char *events = "yes";

	meta_set(&r->exp, MK_KERNEL_LOCK_INSTRUMENT, kinstr_names[r->kinstr]);
	if (*r->kinstr_skipped)
		meta_set(&r->exp, MK_KERNEL_LOCK_FALLBACK, r->kinstr_skipped);
	/* off: not asked; bpf: the program counts; no: asked, cannot */
	if (r->kinstr == KINSTR_NONE)
		events = "off";
	else if (r->kinstr == KINSTR_BPF)
		events = "bpf";
	else if (strcmp(kcount_status(kcount_backend(r->kinstr), why,
				     sizeof(why)), "yes"))
		events = "no";
	meta_set(&r->exp, MK_KERNEL_LOCK_EVENTS, events);
	meta_set(&r->exp, MK_KERNEL_INSTRUMENTS, changes[r->kinstr]);
}

/* This boot's id, malloc'd; "unknown" when it cannot be read. */
static char *boot_id(void)
{
	char *id = readfile_line("/proc/sys/kernel/random/boot_id", 64, NULL);

	return id ? id : xstrdup("unknown");
}

/*
 * Whether this session would pool runs that are not one experiment: the
 * stored boot, kernel, instrument and contend version against now.  The
 * differences, "" none, into buf (a key stored by an older contend, or
 * an instrument stored before it was a word, is not compared).
 */
static void session_differs(const struct runner *r, char *buf, size_t len)
{
	char *now[4], err[200];
	const char *keys[4] = { MK_BOOT_ID, MK_KERNEL_RELEASE,
				MK_KERNEL_LOCK_INSTRUMENT, MK_TOOL_VERSION };
	size_t i, at = 0;

	now[0] = boot_id();
	now[1] = readfile_line("/proc/sys/kernel/osrelease", 256, NULL);
	now[2] = xstrdup(kinstr_names[r->kinstr]);
	now[3] = xstrdup(CONTEND_VERSION);
	buf[0] = '\0';
	for (i = 0; i < 4; i++) {
		const char *was = experiment_meta(&r->exp, keys[i]);
		char *w, *n;

		if (!was || !now[i] || !strcmp(was, now[i]) ||
		    (i == 2 && kinstr_parse(was, &(struct kinstr_list){ 0 },
					    err, sizeof(err))))
			continue;
		w = escape_text_dup(was);
		n = escape_text_dup(now[i]);
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at,
					       "%s%s %.60s, now %.60s",
					       at ? "; " : "", keys[i],
					       w ? w : "?", n ? n : "?");
		free(w);
		free(n);
	}
	for (i = 0; i < 4; i++)
		free(now[i]);
}

/*
 * A resume stays one experiment: refused (exit 2) where the session
 * differs, unless --force, which is recorded with the experiment
 * (resume_forced, each forced session appended).
 */
int resume_same(struct runner *r)
{
	char diff[600], *was = NULL, *v;
	int ret;

	session_differs(r, diff, sizeof(diff));
	if (!*diff)
		return 0;
	if (!r->o->force) {
		error("experiment %" PRId64 ": not resumed: its runs would not "
		      "be one experiment (%s); start a new one, or resume "
		      "anyway with --force (recorded with the experiment)",
		      r->exp.id, diff);
		return EXIT_USAGE;
	}
	warning("experiment %" PRId64 ": resumed with --force although %s",
		r->exp.id, diff);
	if (store_meta_get(r->st, r->exp.id, MK_RESUME_FORCED, &was))
		return EXIT_RUNTIME;
	v = was ? xasprintf("%s | %.0f: %s", was, now_realtime(), diff)
		: xasprintf("%.0f: %s", now_realtime(), diff);
	ret = store_meta_set(r->st, r->exp.id, MK_RESUME_FORCED, v);
	free(v);
	free(was);
	return ret ? EXIT_RUNTIME : 0;
}

/*
 * The first command the experiment's file says to run, as "KEY = ARGV"
 * (malloc'd), or NULL when it runs none.
 */
static char *stored_command(const struct experiment_config *c)
{
	size_t i;

	for (i = 0; i < c->nentries; i++) {
		const struct config_entry *e = &c->entries[i];
		const char *argv = entry_value(e, "argv");

		if (e->prepare)
			return xasprintf("prepare = %s", e->prepare);
		if (e->cleanup)
			return xasprintf("cleanup = %s", e->cleanup);
		if (e->wl->spawn)
			return xasprintf("argv = %s", argv ? argv : "?");
	}
	return NULL;
}

/* Whether the experiment's stored hostname is another host's. */
static bool other_host(const char *made)
{
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	return made && strcmp(made, host);
}

/*
 * An experiment merged from another database (merged_into, written by
 * contend merge), or made on another host, runs its stored commands
 * (prepare, cleanup, the command workload's) only with
 * --allow-stored-commands: what another file said to run is not this
 * user's to run unasked.  A database copied or moved on this host is
 * still its own.
 */
int resume_commands(struct runner *r)
{
	const char *merged = experiment_meta(&r->exp, MK_MERGED_INTO);
	const char *made = experiment_meta(&r->exp, MK_HOSTNAME);
	char *cmd, *safe, *scmd;

	if (r->o->allow_stored_commands || (!merged && !other_host(made)))
		return 0;
	cmd = stored_command(&r->cfg);
	if (!cmd)
		return 0;
	safe = escape_text_dup(merged ? "merged from another database"
				      : "made on another host");
	scmd = escape_text_dup(cmd);
	error("experiment %" PRId64 " was made elsewhere (%.120s): resuming "
	      "it runs the commands stored with it (the first: %.120s); "
	      "read its config, then resume with --allow-stored-commands",
	      r->exp.id, safe ? safe : "?", scmd ? scmd : "?");
	free(scmd);
	free(safe);
	free(cmd);
	return EXIT_USAGE;
}

