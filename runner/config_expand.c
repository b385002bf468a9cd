/*
 * config_expand.c - a [workload] section's axes into configurations: their
 * Cartesian product, each configuration built and checked by its workload,
 * {NAME} replaced by the values of the section's param.NAME.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config_impl.h"
#include "runner/param.h"
#include "lib/proc.h"
#include "runner/workloads/workloads.h"
#include "lib/util.h"

/* Configurations and runs within CONFIG_MAX_RUNS, without overflow. */
static int wsec_count(struct wsec *w, size_t *count)
{
	const struct run_settings *s = &w->set;
	uint64_t n = 1, per, runs;
	size_t i;

	for (i = 0; i < w->ax.n; i++) {
		if (w->ax.order[i]->n > CONFIG_MAX_RUNS / n) {
			report(w->L, w->sec->line, "[workload %s] expands to "
						   "more than %d configurations",
			       w->sec->label, CONFIG_MAX_RUNS);
			return -1;
		}
		n *= w->ax.order[i]->n;
	}
	per = (uint64_t)(s->repetitions ? s->repetitions : s->max_repetitions) +
	      (uint64_t)s->warmup;
	runs = n * per; /* both at most CONFIG_MAX_RUNS: no overflow */
	if (runs > CONFIG_MAX_RUNS - w->L->runs) {
		report(w->L, w->sec->line, "[workload %s] brings the "
					   "experiment to %" PRIu64 " runs "
					   "(configurations x (repetitions + "
					   "warmup)); the limit is %d",
		       w->sec->label, w->L->runs + runs, CONFIG_MAX_RUNS);
		return -1;
	}
	w->L->runs += runs;
	*count = (size_t)n;
	return 0;
}

static bool needs_quotes(const char *v)
{
	return !*v || strpbrk(v, " \t\"'\\") != NULL;
}

/* kv joined by ' '; values with blanks or quotes double-quoted. */
static char *canon_of(char **kv, size_t n)
{
	size_t i, len = 1;
	char *s, *o;

	for (i = 0; i < n; i++)
		len += 2 * strlen(kv[i]) + 4;
	s = o = xmalloc(len);
	for (i = 0; i < n; i++) {
		const char *eq = strchr(kv[i], '='), *v = eq + 1;

		if (i)
			*o++ = ' ';
		memcpy(o, kv[i], (size_t)(v - kv[i]));
		o += v - kv[i];
		if (!needs_quotes(v)) {
			o = stpcpy(o, v);
			continue;
		}
		*o++ = '"';
		for (; *v; v++) {
			if (*v == '"' || *v == '\\')
				*o++ = '\\';
			*o++ = *v;
		}
		*o++ = '"';
	}
	*o = '\0';
	return s;
}

/* A run past its timeout is killed: it must at least outlast runtime. */
static double entry_timeout(struct wsec *w, const struct wl_args *a)
{
	if (!(w->set.timeout_s > 0)) /* not set: a default from the run */
		return a->runtime_s > 0 ? 30 + 2 * a->runtime_s : 300;
	if (a->runtime_s >= w->set.timeout_s) {
		static const char *const blame[] = { "timeout", "runtime" };
		char msg[128];

		/*
		 * Blamed on the section's timeout or runtime key; with
		 * neither, both came from [experiment], which reported it.
		 */
		snprintf(msg, sizeof(msg), "timeout %gs is not longer than "
					   "runtime %gs", w->set.timeout_s,
			 a->runtime_s);
		if (key_find(w->sec, "timeout") || key_find(w->sec, "runtime"))
			entry_error(w, blame, ARRAY_SIZE(blame), msg);
		return -1;
	}
	return w->set.timeout_s;
}

/* At s, a '{' in text: the length of NAME when s is "{NAME}", else 0. */
static size_t brace_name(const char *text, const char *s)
{
	size_t n = 0;

	if (s > text && s[-1] == '$') /* the shell's ${NAME} */
		return 0;
	while (isalnum((unsigned char)s[1 + n]) || s[1 + n] == '_')
		n++;
	if (s[1 + n] != '}' || !param_name_ok(s + 1, n))
		return 0;
	return n;
}

/* The value of NAME (n bytes) in user, or NULL. */
static const char *user_value(const char *name, size_t n, char *const *user,
			      size_t nuser)
{
	size_t i;

	for (i = 0; i < nuser; i++)
		if (!strncmp(user[i] + 6, name, n) && user[i][6 + n] == '=')
			return user[i] + 6 + n + 1;
	return NULL;
}

char *config_substitute(const char *text, char *const *user, size_t nuser,
			char *err, size_t errlen)
{
	size_t len = 0, cap = strlen(text) + 1;
	char *out = xmalloc(cap);
	const char *s;

	for (s = text; *s; s++) {
		size_t n = *s == '{' ? brace_name(text, s) : 0;
		const char *v = n ? user_value(s + 1, n, user, nuser) : NULL;
		size_t add = v ? strlen(v) : 1;

		if (n && !v) {
			error_buf(err, errlen, "unknown parameter {%.*s}: declare "
					       "it in the section, e.g. param.%.*s "
					       "= 1, 2",
				  (int)n, s + 1, (int)n, s + 1);
			free(out);
			return NULL;
		}
		if (len + add + 1 > cap) {
			cap = 2 * (len + add + 1);
			out = xrealloc(out, cap);
		}
		memcpy(out + len, v ? v : s, add);
		len += add;
		if (v)
			s += n + 1;
	}
	out[len] = '\0';
	return out;
}

/* Is key a workload parameter that takes {NAME}, or prepare/cleanup? */
static bool is_template(const struct wsec *w, const char *key)
{
	const char *const *t;

	if (!strcmp(key, "prepare") || !strcmp(key, "cleanup"))
		return true;
	for (t = w->wl->templates; t && *t; t++)
		if (!strcmp(*t, key))
			return true;
	return false;
}

/* The user parameters of a configuration: the last nuser of kv. */
static char *const *entry_user(const struct wsec *w, char *const *kv)
{
	return kv + w->ax.n - w->ax.nuser;
}

/*
 * The longest k's value becomes once {NAME} is replaced (every name
 * known): each {NAME} by the longest value of param.NAME (maxlen[i] for
 * user[i]), which some configuration of the product takes.  Counted, not
 * built, so a value that would be gigabytes costs nothing.
 */
static uint64_t template_max(const char *text, char *const *user,
			     size_t nuser, const size_t *maxlen)
{
	uint64_t len = 0;
	const char *s;
	size_t i;

	for (s = text; *s; s++) {
		size_t n = *s == '{' ? brace_name(text, s) : 0;

		for (i = 0; n && i < nuser; i++)
			if (!strncmp(user[i] + 6, s + 1, n) &&
			    user[i][6 + n] == '=')
				break;
		if (n && i < nuser) {
			len += maxlen[i];
			s += n + 1;
		} else {
			len++;
		}
	}
	return len;
}

/* k's {NAME} name the section's param.NAME (user: "param.NAME=" each)
 * and replaced leave it within CONFIG_MAX_ARG; where is "" for a key of
 * the section, else where k comes from. */
static void check_template(struct wsec *w, const struct kv_line *k,
			   char *const *user, const size_t *maxlen,
			   const char *where)
{
	char err[512], *t;
	uint64_t max;

	t = config_substitute(k->value, user, w->ax.nuser, err, sizeof(err));
	if (!t) {
		report(w->L, k->line, "%s: %s%s%s%s", k->key, err, where,
		       *where ? w->sec->label : "", *where ? "])" : "");
		return;
	}
	free(t);
	max = strlen(k->key) + 1 +
	      template_max(k->value, user, w->ax.nuser, maxlen);
	if (max > CONFIG_MAX_ARG)
		report(w->L, k->line, "%s: with {NAME} replaced by the longest "
				      "value of each param.NAME it is %" PRIu64
				      " bytes; the limit of an argument is %d "
				      "(docs/LIMITS.md)%s%s%s", k->key, max,
		       CONFIG_MAX_ARG, where, *where ? w->sec->label : "",
		       *where ? "])" : "");
}

/* Every {NAME} of the section, and of the prepare and cleanup it takes
 * from [experiment], names a param.NAME of it. */
static void check_templates(struct wsec *w)
{
	const char *inherited = " (taken from [experiment] by [workload ";
	char **user = xcalloc(w->ax.nuser + 1, sizeof(*user));
	size_t *maxlen = xcalloc(w->ax.nuser + 1, sizeof(*maxlen));
	size_t i, j;

	for (i = 0; i < w->ax.nuser; i++) {
		user[i] = xasprintf("%s=", w->ax.user[i].key);
		for (j = 0; j < w->ax.user[i].n; j++)
			if (strlen(w->ax.user[i].vals[j]) > maxlen[i])
				maxlen[i] = strlen(w->ax.user[i].vals[j]);
	}
	for (i = 0; i < w->sec->nkeys; i++)
		if (is_template(w, w->sec->keys[i].key))
			check_template(w, &w->sec->keys[i], user, maxlen, "");
	if (w->hooks.prepare && w->hooks.prepare == w->L->hooks.prepare)
		check_template(w, w->hooks.prepare, user, maxlen, inherited);
	if (w->hooks.cleanup && w->hooks.cleanup == w->L->hooks.cleanup)
		check_template(w, w->hooks.cleanup, user, maxlen, inherited);
	for (i = 0; i < w->ax.nuser; i++)
		free(user[i]);
	free(user);
	free(maxlen);
}

/* {NAME} in the values of template keys of kv replaced: by construction
 * (check_templates) every name is known. */
static void substitute_kv(const struct wsec *w, char **kv, size_t nargs)
{
	char err[256];
	size_t i;

	for (i = 0; i < nargs; i++) {
		const char *eq = strchr(kv[i], '=');
		char *key = xstrndup(kv[i], (size_t)(eq - kv[i])), *v;

		if (is_template(w, key) &&
		    (v = config_substitute(eq + 1, entry_user(w, kv),
					   w->ax.nuser, err, sizeof(err)))) {
			free(kv[i]);
			kv[i] = xasprintf("%s=%s", key, v);
			free(v);
		}
		free(key);
	}
}

/* prepare or cleanup of a configuration, {NAME} replaced; NULL: none. */
static char *entry_hook(const struct wsec *w, const struct kv_line *k,
			char *const *kv)
{
	char err[256];

	if (!k || !*k->value)
		return NULL;
	return config_substitute(k->value, entry_user(w, kv), w->ax.nuser, err,
				 sizeof(err));
}

/* The section's primary, else the workload's own, else throughput. */
static char *entry_primary(const struct wsec *w, const struct wl_args *a)
{
	const char **keys, *p = NULL;
	char *ret;
	size_t i;

	if (w->primary)
		return xstrdup(w->primary->value);
	if (w->wl->primary) {
		keys = xcalloc(w->sec->nkeys + 1, sizeof(*keys));
		for (i = 0; i < w->sec->nkeys; i++)
			keys[i] = w->sec->keys[i].key;
		p = w->wl->primary(a, keys, w->sec->nkeys);
		ret = xstrdup(p ? p : "throughput");
		free(keys);
		return ret;
	}
	return xstrdup("throughput");
}

/* direction (of the primary) and direction.NAME as "METRIC=higher". */
static void entry_directions(const struct wsec *w, struct config_entry *e)
{
	size_t i;

	e->directions = xcalloc(w->ndirs + 1, sizeof(*e->directions));
	if (w->direction)
		e->directions[e->ndirections++] =
			xasprintf("%s=%s", e->primary, w->direction->value);
	for (i = 0; i < w->ndirs; i++)
		e->directions[e->ndirections++] =
			xasprintf("%s=%s", w->dirs[i]->key + 10,
				  w->dirs[i]->value);
}

/*
 * The configuration's arguments, hooks and identity counted towards
 * CONFIG_MAX_PLAN_BYTES; past it the section is blamed once, naming its
 * longest argument, and expansion stops (wsec_expand), so memory stays
 * near the limit however the product multiplies.
 */
static void plan_bytes_add(struct wsec *w, const struct config_entry *e)
{
	uint64_t bytes = strlen(e->canon) + 1, longest = 0;
	const char *key = NULL;
	size_t i;

	for (i = 0; i < e->nkv; i++) {
		size_t n = strlen(e->kv[i]) + 1;

		bytes += n;
		if (n > longest) {
			longest = n;
			key = e->kv[i];
		}
	}
	bytes += e->prepare ? strlen(e->prepare) + 1 : 0;
	bytes += e->cleanup ? strlen(e->cleanup) + 1 : 0;
	w->L->plan_bytes += bytes;
	if (w->L->plan_bytes <= CONFIG_MAX_PLAN_BYTES || w->L->plan_full)
		return;
	w->L->plan_full = true;
	report(w->L, w->sec->line, "[workload %s] brings the plan's arguments "
				   "to more than %d bytes (its configurations' "
				   "key=value arguments and hooks, {NAME} "
				   "replaced; the longest, %.*s, %" PRIu64
				   " bytes); the limit is %d (docs/LIMITS.md)",
	       w->sec->label, CONFIG_MAX_PLAN_BYTES,
	       key ? (int)strcspn(key, "=") : 4, key ? key : "none", longest,
	       CONFIG_MAX_PLAN_BYTES);
}

/*
 * A configuration's prepare or cleanup ({NAME} replaced; k the key it
 * comes from) must split as the file's text is checked to (hook_key): a value of param.NAME can
 * leave a quote open that every run of the configuration would fail on.
 * Whether its program is installed depends on the host: --dry-run checks
 * that (runner_check_hooks).  *ok: the last text that passed, not
 * checked again (most sections have a single hook text).
 */
static void entry_hook_check(struct wsec *w, const char *what,
			     const char *text, const struct kv_line *k,
			     char **ok)
{
	const char *blame[] = { what };
	char err[256], msg[512], **argv;
	size_t n;

	/* as the file gives it, without {NAME}: hook_key checked it */
	if (!text || !strcmp(text, k->value) || (*ok && !strcmp(*ok, text)))
		return;
	if (proc_split(text, &argv, &n, err, sizeof(err))) {
		snprintf(msg, sizeof(msg), "%s: %s once {NAME} is replaced: "
			 "'%.60s%s'", what, err, text,
			 strlen(text) > 60 ? "..." : "");
		entry_error(w, blame, 1, msg);
		return;
	}
	proc_argv_free(argv);
	free(*ok);
	*ok = xstrdup(text);
}

static void entry_add(struct experiment_config *c, struct wsec *w,
		      char **kv, char *canon, const struct wl_args *a,
		      double timeout)
{
	const size_t nargs = w->ax.n - w->ax.nuser;
	struct config_entry *e;

	/* capacity doubles: full whenever the count is a power of two */
	if (!(c->nentries & (c->nentries - 1)))
		c->entries = xrealloc(c->entries, (c->nentries ? 2 * c->nentries
							       : 1) *
							  sizeof(*e));
	e = &c->entries[c->nentries++];
	*e = (struct config_entry){
		.wl = w->wl,
		.section = xstrdup(w->sec->label),
		.line = w->sec->line,
		.nkv = nargs,
		.kv = kv,
		.canon = canon,
		.set = w->set,
		.nuser = w->ax.nuser,
		.user = xcalloc(w->ax.nuser + 1, sizeof(char *)),
		.prepare = entry_hook(w, w->hooks.prepare, kv),
		.cleanup = entry_hook(w, w->hooks.cleanup, kv),
		.prepare_timeout_s = w->hooks.timeout_s,
		.primary = entry_primary(w, a),
	};
	memcpy(e->user, kv + nargs, w->ax.nuser * sizeof(char *));
	entry_directions(w, e);
	plan_bytes_add(w, e);
	entry_hook_check(w, "prepare", e->prepare, w->hooks.prepare,
			 &w->hook_ok[0]);
	entry_hook_check(w, "cleanup", e->cleanup, w->hooks.cleanup,
			 &w->hook_ok[1]);
	e->set.runtime_s = a->runtime_s;
	e->set.jobs = a->jobs;
	e->set.timeout_s = timeout;
}

/* Builds, checks and keeps one configuration: one value of each axis. */
static void wsec_entry(struct wsec *w, const size_t *pick)
{
	char **kv = xcalloc(w->ax.n, sizeof(*kv)), err[512] = "", *canon;
	const size_t nargs = w->ax.n - w->ax.nuser;
	struct wl_blame blame = { { NULL } };
	struct wl_args a;
	double timeout;
	size_t i, at;

	for (i = 0; i < w->ax.n; i++)
		kv[i] = xasprintf("%s=%s", w->ax.order[i]->key,
				  w->ax.order[i]->vals[pick[i]]);
	/*
	 * The identity keeps {NAME} as written: the user parameters say
	 * what it stood for, and a compare across one of them (x@n=1 vs
	 * x@n=2) then matches argv too.
	 */
	canon = canon_of(kv, w->ax.n);
	substitute_kv(w, kv, nargs);
	if (args_from_kv_at(w->wl, nargs, kv, &a, &at, err, sizeof(err))) {
		blame.keys[0] = at < nargs ? w->ax.order[at]->key : NULL;
		entry_error(w, blame.keys, WL_BLAME_MAX, err);
		goto fail;
	}
	if (w->wl->validate &&
	    w->wl->validate(&a, &blame, err, sizeof(err))) {
		entry_error(w, blame.keys, WL_BLAME_MAX, err);
		goto fail_args;
	}
	timeout = entry_timeout(w, &a);
	if (timeout < 0)
		goto fail_args;
	entry_add(w->L->c, w, kv, canon, &a, timeout);
	args_release(&a);
	return;
fail_args:
	args_release(&a);
fail:
	free(canon);
	for (i = 0; i < w->ax.n; i++)
		free(kv[i]);
	free(kv);
}

/* The Cartesian product, the last axis varying fastest. */
static void wsec_expand(struct wsec *w, size_t count)
{
	size_t *pick = xcalloc(w->ax.n, sizeof(*pick)), n, i;

	for (n = 0; n < count && w->L->nerrors < ERRORS_KEPT &&
		    !w->L->plan_full; n++) {
		wsec_entry(w, pick);
		for (i = w->ax.n; i-- > 0;) {
			if (++pick[i] < w->ax.order[i]->n)
				break;
			pick[i] = 0;
		}
	}
	free(pick);
}

void workload_load(struct loader *L, const struct section *s)
{
	struct wsec w = { .L = L, .sec = s, .set = L->c->defaults,
			  .hooks = L->hooks };
	size_t before = L->nerrors, i, count;

	w.wl = workload_of(L, s);
	if (!w.wl)
		return;
	for (i = 0; i < s->nkeys; i++)
		wsec_key(&w, &s->keys[i]);
	check_templates(&w);
	check_runtime_jobs(L, s);
	/* inherited bounds were checked (and reported) in [experiment] */
	if (key_find(s, "min_repetitions") || key_find(s, "max_repetitions"))
		check_repetitions(L, s, &w.set);
	if (L->nerrors == before && !wsec_fill(&w) && !wsec_count(&w, &count))
		wsec_expand(&w, count);
	free(w.hook_ok[0]);
	free(w.hook_ok[1]);
	wsec_release(&w);
}

