/*
 * test_config.c - the INI loader on valid files: a table of them with
 * their expected expansion (counts, canonical strings in order,
 * settings), and {NAME} substitution.  The invalid files and the hostile
 * inputs are test_config_files.c's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner/config.h"
#include "lib/util.h"
#include "tests/config_load.h"

static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

/* ---- valid files ------------------------------------------------------- */

struct valid_case {
	const char *name;
	const char *ini;
	size_t n;              /* configurations */
	const char *canon[8];  /* the first ones, in order */
	void (*check)(const struct experiment_config *c);
};

static void check_fixed_work(const struct experiment_config *c)
{
	const struct config_entry *e = &c->entries[0];

	assert_int_equal(e->nkv, 5);
	assert_true(near(e->set.runtime_s, 0));
	assert_int_equal(e->set.jobs, 0);
	assert_true(near(e->set.timeout_s, 300));
	/* the built-in workloads' primary is throughput, fixed work too */
	assert_string_equal(config_primary_metric(e), "throughput");
	assert_string_equal(config_primary_metric(&c->entries[1]), "throughput");
}

/* {NAME} replaced in kv (what exec runs); param.NAME kept in user. */
static void check_user_params(const struct experiment_config *c)
{
	const struct config_entry *e = &c->entries[3];

	assert_int_equal(e->nkv, 10);
	assert_string_equal(e->kv[0], "argv=true -t 2 --fs=xfs {} ${HOME}");
	assert_string_equal(e->kv[2], "env=T=2");
	assert_int_equal(e->nuser, 2);
	assert_string_equal(e->user[0], "param.fs=xfs");
	assert_string_equal(e->user[1], "param.threads=2");
	assert_string_equal(e->prepare, "mkfs.xfs /dev/x");
	assert_null(e->cleanup);
	assert_true(near(e->prepare_timeout_s, 60));
	/* no metric regex: the first metric.NAME written, not by key */
	assert_string_equal(config_primary_metric(e), "lat");
	assert_int_equal(e->ndirections, 0);
}

static void check_primary_direction(const struct experiment_config *c)
{
	const struct config_entry *e = &c->entries[0];

	assert_string_equal(config_primary_metric(e), "ops");
	assert_int_equal(e->ndirections, 2);
	assert_string_equal(e->directions[0], "ops=higher");
	assert_string_equal(e->directions[1], "lat=lower");
	assert_string_equal(e->cleanup, "rm -f /tmp/x");
	assert_true(near(e->prepare_timeout_s, 5));
	assert_string_equal(config_primary_metric(&c->entries[1]),
			    "throughput");
}

/* [experiment]'s prepare, cleanup and prepare_timeout are every
 * section's, {NAME} from the section's own param.NAME, until it says
 * otherwise: its own prepare, or "prepare =" for none. */
static void check_inherited_hooks(const struct experiment_config *c)
{
	const struct config_entry *a = &c->entries[0], *b = &c->entries[2];

	assert_string_equal(a->prepare, "mkfs.ext4 /dev/x");
	assert_string_equal(c->entries[1].prepare, "mkfs.xfs /dev/x");
	assert_string_equal(a->cleanup, "rm -rf /mnt/s");
	assert_true(near(a->prepare_timeout_s, 5));
	assert_string_equal(b->prepare, "true");
	assert_string_equal(b->cleanup, "rm -rf /mnt/s");
	assert_true(near(b->prepare_timeout_s, 2));
	assert_null(c->entries[3].prepare);
	assert_true(near(c->entries[3].prepare_timeout_s, 5));
}

static void check_minimal(const struct experiment_config *c)
{
	const struct config_entry *e = &c->entries[0];
	const struct run_settings *d = &c->defaults;

	assert_string_equal(c->name, "m");
	assert_string_equal(c->path, "minimal");
	assert_string_equal(c->text, "[experiment]\nname = m\n[workload w]\n"
				     "type = noop\n");
	assert_int_equal(c->order, ORDER_BLOCKED);
	assert_false(c->has_seed);
	assert_true(near(c->confidence, 0.95));
	assert_int_equal(d->repetitions, 10);
	assert_int_equal(d->warmup, 1);
	assert_true(near(d->runtime_s, 1));
	assert_int_equal(d->jobs, 0);
	assert_true(near(d->timeout_s, 0)); /* not set: derived per run */
	assert_true(near(d->noise, 0.05));
	assert_false(d->randomize_env);
	assert_true(near(d->precision, 0.02));
	assert_int_equal(d->min_repetitions, 5);
	assert_int_equal(d->max_repetitions, 30);
	assert_ptr_equal(e->wl, workload_find("noop"));
	assert_string_equal(e->section, "w");
	assert_int_equal(e->line, 3);
	assert_int_equal(e->nkv, 5);
	assert_string_equal(e->kv[0], "threads=1");
	assert_string_equal(e->kv[3], "jitter=0");
	assert_string_equal(e->kv[4], "runtime=1");
	assert_int_equal(e->set.repetitions, 10);
	/* the derived timeout: 30 s + 2 x runtime */
	assert_true(near(e->set.timeout_s, 32));
}

static void check_all_keys(const struct experiment_config *c)
{
	const struct run_settings *d = &c->defaults, *s = &c->entries[0].set;

	assert_string_equal(c->name, "all keys");
	assert_int_equal(c->order, ORDER_RANDOM);
	assert_true(c->has_seed);
	assert_true(c->seed == UINT64_MAX);
	assert_true(near(c->confidence, 0.99));
	assert_int_equal(d->repetitions, 0); /* auto */
	assert_int_equal(d->warmup, 0);
	assert_int_equal(d->jobs, 500);
	assert_true(near(d->runtime_s, 0));
	assert_true(near(d->timeout_s, 120));
	assert_true(near(d->noise, 0.1));
	assert_true(d->randomize_env);
	assert_true(near(d->precision, 0.05));
	assert_int_equal(d->min_repetitions, 3);
	assert_int_equal(d->max_repetitions, 8);
	assert_int_equal(s->repetitions, 0);
	assert_int_equal(s->jobs, 500);
	assert_true(near(s->runtime_s, 0));
	assert_true(near(s->timeout_s, 120));
	assert_true(s->randomize_env);
}

static void check_overrides(const struct experiment_config *c)
{
	const struct run_settings *a = &c->entries[0].set;
	const struct run_settings *b = &c->entries[1].set;
	const struct run_settings *o = &c->entries[2].set;

	assert_int_equal(a->repetitions, 4);
	assert_int_equal(a->warmup, 1);
	assert_true(near(a->runtime_s, 2));
	assert_int_equal(a->jobs, 0);
	assert_true(near(a->timeout_s, 34));
	assert_int_equal(b->jobs, 100);
	assert_true(near(b->runtime_s, 0));
	assert_true(near(b->timeout_s, 300)); /* fixed work: 300 s */
	assert_int_equal(o->repetitions, 3);
	assert_int_equal(o->warmup, 0);
	assert_true(near(o->runtime_s, 0.5));
	assert_true(near(o->timeout_s, 10));
	assert_true(near(o->noise, 0.2));
	assert_true(o->randomize_env);
	assert_true(near(o->precision, 0.1));
	assert_int_equal(o->min_repetitions, 2);
	assert_int_equal(o->max_repetitions, 4);
	/* the experiment's own defaults are untouched by a section */
	assert_int_equal(c->defaults.repetitions, 4);
	assert_false(c->defaults.randomize_env);
}

static void check_jobs_then_runtime(const struct experiment_config *c)
{
	assert_int_equal(c->entries[0].set.jobs, 50);
	assert_true(near(c->entries[0].set.runtime_s, 0));
	assert_int_equal(c->entries[1].set.jobs, 0);
	assert_true(near(c->entries[1].set.runtime_s, 1));
}

static void check_runtime_sweep(const struct experiment_config *c)
{
	assert_true(near(c->entries[0].set.runtime_s, 0.1));
	assert_true(near(c->entries[0].set.timeout_s, 30.2));
	assert_true(near(c->entries[1].set.runtime_s, 1));
	assert_true(near(c->entries[1].set.timeout_s, 32));
}

static void check_cpus(const struct experiment_config *c)
{
	assert_int_equal(c->entries[0].nkv, 6);
	assert_string_equal(c->entries[0].kv[5], "cpus=0-1");
}

static void check_every_type(const struct experiment_config *c)
{
	const struct config_entry *last = &c->entries[c->nentries - 1];

	assert_ptr_equal(c->entries[0].wl, workload_find("paramtest"));
	/* count is the slowest axis, period and flag the fastest */
	assert_string_equal(last->canon,
			    "count=100 big=1000 ratio=0.25 period=60 flag=no "
			    "mode=beta label=\"it's \\\"quoted\\\" \\\\ here\" "
			    "mask=0-2 threads=4096 runtime=1");
	assert_string_equal(last->kv[6], "label=it's \"quoted\" \\ here");
}

static void check_sections_in_order(const struct experiment_config *c)
{
	assert_string_equal(c->entries[0].section, "zeta");
	assert_string_equal(c->entries[1].section, "alpha");
	assert_int_equal(c->entries[0].line, 3);
	assert_int_equal(c->entries[1].line, 7);
}

static void check_edge_limits(const struct experiment_config *c)
{
	assert_int_equal(c->entries[0].set.repetitions, 99999);
	assert_int_equal(c->entries[0].set.warmup, 1);
}

static void check_syntax(const struct experiment_config *c)
{
	assert_string_equal(c->name, "syntax");
	assert_string_equal(c->entries[0].section, "w");
	assert_int_equal(c->entries[0].line, 3);
}

static void check_hostile_name(const struct experiment_config *c)
{
	assert_string_equal(c->name, "it's \"x\"; DROP TABLE runs; --");
}

static const struct valid_case valid_cases[] = {
	{ "minimal",
	  "[experiment]\nname = m\n[workload w]\ntype = noop\n", 1,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=1" },
	  check_minimal },
	{ "cartesian product, last key fastest",
	  "[experiment]\nname = p\n[workload w]\ntype = noop\n"
	  "threads = 1, 2\nspin = 10..30:10\n", 6,
	  { "threads=1 spin=10 fault=none jitter=0 runtime=1",
	    "threads=1 spin=20 fault=none jitter=0 runtime=1",
	    "threads=1 spin=30 fault=none jitter=0 runtime=1",
	    "threads=2 spin=10 fault=none jitter=0 runtime=1",
	    "threads=2 spin=20 fault=none jitter=0 runtime=1",
	    "threads=2 spin=30 fault=none jitter=0 runtime=1" },
	  NULL },
	{ "table order, not file order",
	  "[experiment]\nname = p\n[workload w]\nspin = 10..30:10\n"
	  "threads = 1, 2\ntype = noop\n", 6,
	  { "threads=1 spin=10 fault=none jitter=0 runtime=1",
	    "threads=1 spin=20 fault=none jitter=0 runtime=1" },
	  NULL },
	{ "every experiment key",
	  "[experiment]\nname = all keys\nrepetitions = auto\nwarmup = 0\n"
	  "order = random\nseed = 18446744073709551615\njobs = 500\n"
	  "confidence = 0.99\nnoise = 0.1\ntimeout = 2m\n"
	  "randomize_env = yes\nprecision = 0.05\nmin_repetitions = 3\n"
	  "max_repetitions = 8\n[workload w]\ntype = noop\n", 1,
	  { "threads=1 spin=100 fault=none jitter=0 jobs=500" },
	  check_all_keys },
	{ "sections override experiment defaults",
	  "[experiment]\nname = o\nruntime = 2s\nrepetitions = 4\n"
	  "[workload inherit]\ntype = noop\n"
	  "[workload fixed-work]\ntype = noop\njobs = 100\n"
	  "[workload own]\ntype = noop\nrepetitions = 3\nwarmup = 0\n"
	  "timeout = 10s\nruntime = 500ms\nnoise = 0.2\nrandomize_env = on\n"
	  "precision = 0.1\nmin_repetitions = 2\nmax_repetitions = 4\n", 3,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=2",
	    "threads=1 spin=100 fault=none jitter=0 jobs=100",
	    "threads=1 spin=100 fault=none jitter=0 runtime=0.5" },
	  check_overrides },
	{ "experiment jobs, section runtime",
	  "[experiment]\nname = j\njobs = 50\n[workload a]\ntype = noop\n"
	  "[workload b]\ntype = noop\nruntime = 1s\n", 2,
	  { "threads=1 spin=100 fault=none jitter=0 jobs=50",
	    "threads=1 spin=100 fault=none jitter=0 runtime=1" },
	  check_jobs_then_runtime },
	{ "runtime sweep",
	  "[experiment]\nname = r\n[workload w]\ntype = noop\n"
	  "runtime = 100ms, 1s\n", 2,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=0.1",
	    "threads=1 spin=100 fault=none jitter=0 runtime=1" },
	  check_runtime_sweep },
	{ "jobs sweep",
	  "[experiment]\nname = j\n[workload w]\ntype = noop\n"
	  "jobs = 10, 100\n", 2,
	  { "threads=1 spin=100 fault=none jitter=0 jobs=10",
	    "threads=1 spin=100 fault=none jitter=0 jobs=100" },
	  NULL },
	{ "cpus, canonical",
	  "[experiment]\nname = c\n[workload w]\ntype = noop\ncpus = 1,0\n", 1,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=1 cpus=0-1" },
	  check_cpus },
	/*
	 * Family keys (metric.NAME, scale.NAME) come after the table's keys,
	 * ordered by key whatever their order in the file, so the two files
	 * below name the same configurations; a family key sweeps.
	 */
	{ "family keys",
	  "[experiment]\nname = f\n[workload c]\ntype = command\n"
	  "argv = true\nscale.b = 2, 3\nmetric.b = b ([0-9]+)\n"
	  "metric.a = (a)\n", 2,
	  { "argv=true shell=no env=\"\" metric=\"\" scale=1 contention=\"\" "
	    "contention_scale=1 ok_status=0 metric.a=(a) metric.b=\"b ([0-9]+)\" scale.b=2",
	    "argv=true shell=no env=\"\" metric=\"\" scale=1 contention=\"\" "
	    "contention_scale=1 ok_status=0 metric.a=(a) metric.b=\"b ([0-9]+)\" scale.b=3" },
	  NULL },
	{ "family keys, other order",
	  "[experiment]\nname = f\n[workload c]\ntype = command\n"
	  "metric.a = (a)\nmetric.b = b ([0-9]+)\nargv = true\n"
	  "scale.b = 2, 3\n", 2,
	  { "argv=true shell=no env=\"\" metric=\"\" scale=1 contention=\"\" "
	    "contention_scale=1 ok_status=0 metric.a=(a) metric.b=\"b ([0-9]+)\" scale.b=2",
	    "argv=true shell=no env=\"\" metric=\"\" scale=1 contention=\"\" "
	    "contention_scale=1 ok_status=0 metric.a=(a) metric.b=\"b ([0-9]+)\" scale.b=3" },
	  NULL },
	/*
	 * chat does fixed work of its own: no runtime or jobs key, the
	 * [experiment]'s runtime is not inherited, and the default timeout
	 * is the fixed-work one.
	 */
	{ "fixed work of its own",
	  "[experiment]\nname = c\nruntime = 2s\n[workload c]\ntype = chat\n"
	  "users = 2, 3\n", 2,
	  { "rooms=10 users=2 messages=100 size=100 mode=threads",
	    "rooms=10 users=3 messages=100 size=100 mode=threads" },
	  check_fixed_work },
	/* 2 counts x 4 bigs (1, 10, 100, 1000) x 2 periods x 2 flags = 32 */
	{ "every parameter type",
	  "[experiment]\nname = t\n[workload p]\ntype = paramtest\n"
	  "count = -10, 100\nbig = 1..1000*10\nratio = 0.25\n"
	  "period = 1ms, 1m\nflag = yes, no\nmode = beta\n"
	  "label = it's \"quoted\" \\ here\nmask = 2,0-1\nthreads = 4096\n",
	  32,
	  { "count=-10 big=1 ratio=0.25 period=0.001 flag=yes mode=beta "
	    "label=\"it's \\\"quoted\\\" \\\\ here\" mask=0-2 threads=4096 "
	    "runtime=1",
	    "count=-10 big=1 ratio=0.25 period=0.001 flag=no mode=beta "
	    "label=\"it's \\\"quoted\\\" \\\\ here\" mask=0-2 threads=4096 "
	    "runtime=1",
	    "count=-10 big=1 ratio=0.25 period=60 flag=yes mode=beta "
	    "label=\"it's \\\"quoted\\\" \\\\ here\" mask=0-2 threads=4096 "
	    "runtime=1" },
	  check_every_type },
	{ "validate passes",
	  "[experiment]\nname = v\n[workload p]\ntype = paramtest\n"
	  "mode = gamma\nflag = yes\n", 1,
	  { "count=4 big=1000 ratio=0.5 period=0.01 flag=yes mode=gamma "
	    "label=\"hello world\" mask=0 threads=1 runtime=1" },
	  NULL },
	{ "empty string value",
	  "[experiment]\nname = e\n[workload p]\ntype = paramtest\nlabel =\n",
	  1,
	  { "count=4 big=1000 ratio=0.5 period=0.01 flag=no mode=alpha "
	    "label=\"\" mask=0 threads=1 runtime=1" },
	  NULL },
	{ "sections in file order",
	  "[experiment]\nname = s\n[workload zeta]\ntype = noop\nspin = 1\n\n"
	  "[workload alpha]\ntype = noop\nspin = 2\n", 2,
	  { "threads=1 spin=1 fault=none jitter=0 runtime=1",
	    "threads=1 spin=2 fault=none jitter=0 runtime=1" },
	  check_sections_in_order },
	/* 1 configuration x (99999 + 1) runs = exactly the limit */
	{ "limits at the edge",
	  "[experiment]\nname = l\nrepetitions = 99999\nwarmup = 1\n"
	  "[workload w]\ntype = noop\nthreads = 4096\nruntime = 24h\n", 1,
	  { "threads=4096 spin=100 fault=none jitter=0 runtime=86400" },
	  check_edge_limits },
	{ "BOM, CRLF, ':' pairs, comments, workload before experiment",
	  "\xEF\xBB\xBF; a comment\r\n# another\r\n[workload w]   ; inline\r\n"
	  "type: noop\r\nthreads = 1, 2 ; two values\r\n\r\n"
	  "[experiment]\r\nname = syntax\r\n", 2,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=1",
	    "threads=2 spin=100 fault=none jitter=0 runtime=1" },
	  check_syntax },
	{ "tabs and blanks",
	  "[experiment]\nname\t=\tt\n[workload w]\ntype\t= noop\n"
	  "\tthreads\t=\t1 ,\t2\t\n", 2,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=1" },
	  NULL },
	{ "a name full of quotes",
	  "[experiment]\nname = it's \"x\"; DROP TABLE runs; --\n"
	  "[workload w]\ntype = noop\n", 1,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=1" },
	  check_hostile_name },
	/*
	 * param.NAME sweeps like a workload parameter and comes last in the
	 * canonical string, ordered by NAME, which keeps {NAME} as written;
	 * in what runs (kv, prepare) {NAME} is its value, ${NAME} and {}
	 * stay as written.
	 */
	{ "user parameters",
	  "[experiment]\nname = u\n[workload c]\ntype = command\n"
	  "param.threads = 1..2\nparam.fs = ext4, xfs\n"
	  "argv = true -t {threads} --fs={fs} {} ${HOME}\nenv = T={threads}\n"
	  "metric.lat = lat ([0-9]+)\nmetric.a = a ([0-9]+)\n"
	  "prepare = mkfs.{fs} /dev/x\n", 4,
	  { "argv=\"true -t {threads} --fs={fs} {} ${HOME}\" shell=no "
	    "env=T={threads} metric=\"\" scale=1 contention=\"\" "
	    "contention_scale=1 ok_status=0 metric.a=\"a ([0-9]+)\" "
	    "metric.lat=\"lat ([0-9]+)\" param.fs=ext4 param.threads=1",
	    "argv=\"true -t {threads} --fs={fs} {} ${HOME}\" shell=no "
	    "env=T={threads} metric=\"\" scale=1 contention=\"\" "
	    "contention_scale=1 ok_status=0 metric.a=\"a ([0-9]+)\" "
	    "metric.lat=\"lat ([0-9]+)\" param.fs=ext4 param.threads=2" },
	  check_user_params },
	{ "primary and directions",
	  "[experiment]\nname = p\n[workload w]\ntype = noop\n"
	  "primary = ops\ndirection = higher\ndirection.lat = lower\n"
	  "cleanup = rm -f /tmp/x\nprepare_timeout = 5s\n"
	  "[workload d]\ntype = noop\n", 2,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=1" },
	  check_primary_direction },
	{ "prepare, cleanup and their timeout from [experiment]",
	  "[experiment]\nname = h\nprepare = mkfs.{fs} /dev/x\n"
	  "cleanup = rm -rf /mnt/s\nprepare_timeout = 5s\n"
	  "[workload a]\ntype = noop\nparam.fs = ext4, xfs\n"
	  "[workload b]\ntype = noop\nprepare = true\nprepare_timeout = 2s\n"
	  "[workload c]\ntype = noop\nprepare =\n", 4,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=1 param.fs=ext4" },
	  check_inherited_hooks },
	{ "UTF-8 in comments and names",
	  "; caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\x92\n[experiment]\n"
	  "name = d\xc3\xa9j\xc3\xa0 vu\n[workload w]\ntype = noop\n", 1,
	  { "threads=1 spin=100 fault=none jitter=0 runtime=1" },
	  NULL },
};

/* ---- {NAME} substitution ----------------------------------------------- */

static const struct subst_case {
	const char *name, *text, *want; /* want NULL: an error */
	const char *err;                /* part of the message */
} subst_cases[] = {
	{ "no braces", "echo hi", "echo hi", NULL },
	{ "one name", "-t {n}", "-t 8", NULL },
	{ "twice, adjacent", "{n}{n}x", "88x", NULL },
	{ "two names", "{word}-{n}", "xfs-8", NULL },
	{ "longer name not a prefix", "{nn}", "long", NULL },
	{ "value longer than the text", "{big}", "0123456789abcdef", NULL },
	{ "shell's ${NAME} kept", "${n} $n", "${n} $n", NULL },
	{ "not a name: kept", "{} { n} {1x} {a-b} awk '{print $1}'",
	  "{} { n} {1x} {a-b} awk '{print $1}'", NULL },
	{ "unclosed brace kept", "{n", "{n", NULL },
	{ "empty text", "", "", NULL },
	{ "unknown name", "a {m} b", NULL, "unknown parameter {m}" },
	{ "unknown after a known one", "{n} {zz}", NULL, "param.zz" },
};

static void test_substitute(void **state)
{
	static char n[] = "param.n=8", word[] = "param.word=xfs",
		    nn[] = "param.nn=long", big[] = "param.big=0123456789abcdef";
	char *const user[] = { n, word, nn, big };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(subst_cases) / sizeof(subst_cases[0]); i++) {
		const struct subst_case *t = &subst_cases[i];
		char err[256] = "", *got;

		got = config_substitute(t->text, user, 4, err, sizeof(err));
		if (t->want) {
			if (!got || strcmp(got, t->want))
				fail_msg("%s: got '%s'", t->name,
					 got ? got : "(error)");
		} else if (got || !strstr(err, t->err)) {
			fail_msg("%s: want an error with '%s', got '%s' / %s",
				 t->name, t->err, got ? got : "", err);
		}
		free(got);
	}
}

/*
 * An argument whose {NAME} replaced reaches CONFIG_MAX_ARG bytes is
 * taken, one byte more is refused at its line; the size is counted from
 * the longest value of param.a (978 bytes, the other one short):
 * "argv=" + "echo " + 67 x 978 = 65536.
 */
static void test_arg_limit(void **state)
{
	struct experiment_config c;
	char *ini, *msg, *val = malloc(979), *braces = malloc(67 * 3 + 1);
	int ret, extra;

	(void)state;
	memset(val, 'v', 978);
	val[978] = '\0';
	for (size_t i = 0; i < 67; i++)
		memcpy(braces + 3 * i, "{a}", 4);
	for (extra = 0; extra < 2; extra++) {
		struct load_call lc = { "limit.ini", NULL, 0 };

		ini = xasprintf("[experiment]\nname = l\nrepetitions = 1\n"
				"[workload w]\ntype = command\n"
				"param.a = x, %s\nargv = echo %s%s\n"
				"metric.x = ^x ([0-9]+)$\n", val, braces,
				extra ? "y" : "");
		lc.text = ini;
		lc.len = strlen(ini);
		msg = load_captured(&lc, &c, &ret);
		if (!extra) {
			if (ret)
				fail_msg("65536 bytes refused: %s", msg);
			assert_int_equal(c.nentries, 2);
			assert_int_equal(strlen(c.entries[1].kv[0]),
					 CONFIG_MAX_ARG);
			config_release(&c);
		} else {
			assert_int_equal(ret, -1);
			assert_non_null(strstr(msg, "limit.ini:7: argv: with "
					       "{NAME} replaced by the longest "
					       "value of each param.NAME it is "
					       "65537 bytes"));
		}
		free(msg);
		free(ini);
	}
	free(val);
	free(braces);
}

static void test_valid(void **state)
{
	const struct valid_case *t = *state;
	struct load_call lc = { t->name, t->ini, strlen(t->ini) };
	struct experiment_config c;
	size_t i;
	int ret;
	char *err = load_captured(&lc, &c, &ret);

	assert_string_equal(err, "");
	assert_int_equal(ret, 0);
	assert_int_equal(c.nentries, t->n);
	for (i = 0; i < 8 && t->canon[i]; i++)
		assert_string_equal(c.entries[i].canon, t->canon[i]);
	if (t->check)
		t->check(&c);
	config_release(&c);
	assert_empty(&c);
	free(err);
}

/* ---- the corpus of bad files ------------------------------------------- */

int main(void)
{
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_substitute),
		cmocka_unit_test(test_arg_limit),
	};
	size_t nv = sizeof(valid_cases) / sizeof(valid_cases[0]);
	size_t nf = sizeof(fixed) / sizeof(fixed[0]);
	struct CMUnitTest *tests;
	size_t i, n = 0;
	int ret;

	tests = calloc(nv + nf, sizeof(*tests));
	for (i = 0; i < nv; i++)
		tests[n++] = (struct CMUnitTest){
			valid_cases[i].name, test_valid, NULL, NULL,
			(void *)(uintptr_t)&valid_cases[i]
		};
	for (i = 0; i < nf; i++)
		tests[n++] = fixed[i];
	ret = _cmocka_run_group_tests("config", tests, n, NULL, NULL);
	free(tests);
	return ret;
}
