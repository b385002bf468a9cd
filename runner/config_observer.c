/*
 * config_observer.c - observers in the INI file: an [observer NAME]
 * section into the config's observers (command, ready, stop,
 * ready_timeout, package), and a workload's `observer = ...` sweep checked
 * against them and the built-ins (runner/observer.h): an unknown name, or
 * one whose program is not installed, is refused at the key's line; one
 * this host cannot run (not root, no BPF) is noted as offline, refused by
 * the runner and warned about by a dry run.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "runner/config_impl.h"
#include "runner/observer.h"
#include "runner/param.h"

#define READY_TIMEOUT_S 30.0

static const char *const observer_keys[] = { "command", "ready", "stop",
					     "ready_timeout", "package" };

static const struct {
	const char *name;
	int sig;
} stop_signals[] = {
	{ "INT", SIGINT }, { "TERM", SIGTERM }, { "HUP", SIGHUP },
	{ "QUIT", SIGQUIT }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },
};

const struct observer_def *config_observer(const struct experiment_config *c,
					   const char *name)
{
	size_t i;

	for (i = 0; i < c->nobservers; i++)
		if (!strcmp(c->observers[i].name, name))
			return &c->observers[i];
	for (i = 0; i < nobserver_builtins; i++)
		if (!strcmp(observer_builtins[i].name, name))
			return &observer_builtins[i];
	return NULL;
}

/* ready = file PATH | output TEXT */
static int parse_ready(struct observer_def *d, const char *v)
{
	size_t w = strcspn(v, " \t");
	const char *arg = v + w + strspn(v + w, " \t");

	if (!*arg)
		return -1;
	if (w == 4 && !strncmp(v, "file", 4))
		d->ready = OBS_READY_FILE;
	else if (w == 6 && !strncmp(v, "output", 6))
		d->ready = OBS_READY_OUTPUT;
	else
		return -1;
	d->ready_arg = xstrdup(arg);
	return 0;
}

static int parse_stop(struct observer_def *d, const char *v)
{
	size_t i;

	if (!strncmp(v, "SIG", 3))
		v += 3;
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (!strcmp(v, stop_signals[i].name)) {
			d->stop_signal = stop_signals[i].sig;
			return 0;
		}
	return -1;
}

/* One key of the section; -1 after reporting. */
static int observer_key(struct loader *L, struct observer_def *d,
			const struct kv_line *k)
{
	char q[QUOTE_MAX + 4], hint[SUGGEST_MAX];

	param_clip(q, sizeof(q), k->value, QUOTE_MAX);
	if (!strcmp(k->key, "command") && !d->command) {
		d->command = xstrdup(k->value);
		return 0;
	}
	if (!strcmp(k->key, "ready") && !d->ready_arg) {
		if (!parse_ready(d, k->value))
			return 0;
		report(L, k->line, "ready: '%s' is not 'file PATH' or "
				   "'output TEXT'", q);
		return -1;
	}
	if (!strcmp(k->key, "stop")) {
		if (!parse_stop(d, k->value))
			return 0;
		report(L, k->line, "stop: '%s' is not a signal of INT, TERM, "
				   "HUP, QUIT, USR1, USR2", q);
		return -1;
	}
	if (!strcmp(k->key, "ready_timeout")) {
		if (!parse_duration(k->value, &d->ready_timeout_s) &&
		    d->ready_timeout_s > 0 &&
		    d->ready_timeout_s <= CONFIG_MAX_SECONDS)
			return 0;
		report(L, k->line, "ready_timeout: '%s' is not a duration "
				   "from 1ms to 24h", q);
		return -1;
	}
	if (!strcmp(k->key, "package") && !d->package) {
		d->package = xstrdup(k->value);
		return 0;
	}
	param_clip(q, sizeof(q), k->key, QUOTE_MAX);
	suggest_hint(hint, sizeof(hint), k->key, observer_keys,
		     ARRAY_SIZE(observer_keys), NULL, NULL);
	report(L, k->line, "unknown or repeated key '%s' in [observer]%s", q,
	       hint);
	return -1;
}

void observer_load(struct loader *L, const struct section *s)
{
	struct experiment_config *c = L->c;
	struct observer_def d = { .kind = OBS_COMMAND, .stop_signal = SIGINT,
				  .ready_timeout_s = READY_TIMEOUT_S };
	size_t i;
	int bad = 0;

	for (i = 0; i < nobserver_builtins; i++)
		if (!strcmp(observer_builtins[i].name, s->label)) {
			report(L, s->line, "[observer %s]: %s is built in; "
					   "name yours otherwise", s->label,
			       s->label);
			return;
		}
	for (i = 0; i < s->nkeys; i++)
		bad |= observer_key(L, &d, &s->keys[i]);
	if (!bad && (!d.command || !d.ready_arg))
		report(L, s->line, "[observer %s] must set %s", s->label,
		       !d.command ? "command" : "ready (file PATH or output "
					       "TEXT)");
	d.name = xstrdup(s->label);
	c->observers = xrealloc(c->observers,
				(c->nobservers + 1) * sizeof(d));
	c->observers[c->nobservers++] = d;
}

/* The offline note of an observer this host cannot run. */
static void note_offline(struct wsec *w, const struct axis *a,
			 const char *why)
{
	struct experiment_config *cfg = w->L->c;

	if (cfg->offline)
		return;
	cfg->offline = xstrdup(why);
	cfg->offline_line = a->line;
}

static void observer_check_axis(struct wsec *w, const struct axis *a)
{
	struct experiment_config *cfg = w->L->c;
	char why[400], q[QUOTE_MAX + 4];
	bool missing, observed = false;
	size_t i;

	for (i = 0; i < a->n; i++) {
		const struct observer_def *d = config_observer(cfg, a->vals[i]);

		param_clip(q, sizeof(q), a->vals[i], QUOTE_MAX);
		if (!d) {
			report(w->L, a->line, "observer: '%s' is not none, "
			       "tracefs-lock, perf-lock, bpf, bpftrace, "
			       "klockstat or an [observer NAME] of the file",
			       q);
			continue;
		}
		observed |= d->kind != OBS_NONE;
		if (observer_usable(d, &missing, why, sizeof(why)))
			continue;
		if (missing)
			report(w->L, a->line, "%s", why);
		else
			note_offline(w, a, why);
	}
	/* a session instrument would observe the none runs too */
	if (observed && cfg->kinstr.n && cfg->kinstr.k[0] != KINSTR_NONE)
		report(w->L, a->line, "observer: kernel_instruments must be "
		       "none where observers are compared, or it observes "
		       "every run, observer = none included");
}

int observer_axis(struct wsec *w, struct axis *a, const struct kv_line *k)
{
	char err[512];

	a->key = harness_params[HARNESS_OBSERVER].name;
	a->line = k->line;
	/* a list of words, as a param.NAME's */
	if (sweep_expand_user(a->key, k->value, &a->vals, &a->n, err,
			      sizeof(err))) {
		report(w->L, k->line, "%s", err);
		return -1;
	}
	observer_check_axis(w, a);
	return 0;
}
