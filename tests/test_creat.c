/*
 * test_creat.c - the creat workload: exactly processes x jobs creat calls
 * (counted independently with inotify, not by the workload's own
 * counters), nothing left in the scratch directory, planted symlinks never
 * followed, `dir` validated, the fs type recorded; and the /proc/lock_stat
 * parser on the kernel's documented format.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/scratch.h"
#include "lib/util.h"
#include "runner/workload.h"
#include "runner/workloads/lockstat.h"
#include "runner/workloads/workloads.h"
#include "tests/tmpdir.h"
#include "tests/wlargs.h"

struct fixture {
	char *base;      /* private tree of this test */
	char *scratch;   /* what the runner would pass as --scratch */
	char *secret;    /* a file outside the scratch directory */
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));
	char tmpl[] = "/tmp/test_creat.XXXXXX";
	FILE *fp;

	assert_non_null(mkdtemp(tmpl));
	f->base = xstrdup(tmpl);
	f->scratch = scratch_create(f->base);
	assert_non_null(f->scratch);
	f->secret = xasprintf("%s/secret", f->base);
	fp = fopen(f->secret, "w");
	assert_non_null(fp);
	fputs("keep me", fp);
	fclose(fp);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(scratch_remove(f->base), 0);
	free(f->base);
	free(f->scratch);
	free(f->secret);
	free(f);
	return 0;
}

/* inotify event counts on the scratch directory, read after the run. */
struct events {
	unsigned long create, close_write, del;
	bool overflow;
};

static void count_events(int fd, struct events *ev)
{
	char buf[1 << 16] __attribute__((aligned(8)));
	ssize_t n;

	memset(ev, 0, sizeof(*ev));
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		char *p = buf;

		while (p < buf + n) {
			const struct inotify_event *e = (const void *)p;

			ev->create += !!(e->mask & IN_CREATE);
			ev->close_write += !!(e->mask & IN_CLOSE_WRITE);
			ev->del += !!(e->mask & IN_DELETE);
			ev->overflow |= !!(e->mask & IN_Q_OVERFLOW);
			p += sizeof(*e) + e->len;
		}
	}
}

static int watch(const char *dir)
{
	int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);

	assert_true(fd >= 0);
	/*
	 * IN_OPEN too, though not counted: inotify merges an event with an
	 * identical unread one just before it, and a process's opens and
	 * closes alternate, so no two of its close events are ever adjacent.
	 */
	assert_true(inotify_add_watch(fd, dir, IN_CREATE | IN_OPEN |
				      IN_CLOSE_WRITE | IN_DELETE) >= 0);
	return fd;
}

static void run_jobs(struct fixture *f, const char *procs, uint64_t jobs,
		     const char *reuse, struct result *r, struct events *ev)
{
	struct wl_args a;
	int fd = watch(f->scratch);

	targs_init(&a, &creat_workload, jobs);
	targs_set(&a, "processes", procs);
	targs_set(&a, "reuse", reuse);
	a.scratch = f->scratch;
	result_init(r);
	assert_int_equal(creat_workload.run(&a, r), 0);
	count_events(fd, ev);
	close(fd);
	targs_release(&a);
}

/*
 * reuse = yes: each creat is one open for writing and one close, so
 * inotify sees exactly one IN_CLOSE_WRITE per call; one file per process
 * is created once and deleted once.
 */
static void test_jobs_exact_reuse(void **state)
{
	struct fixture *f = *state;
	struct result r;
	struct events ev;
	size_t i;

	run_jobs(f, "3", 40, "yes", &r, &ev);
	assert_false(ev.overflow);
	assert_int_equal(ev.close_write, 3 * 40);
	assert_int_equal(ev.create, 3);
	assert_int_equal(ev.del, 3);
	assert_int_equal(result_value(&r, "ops"), 120);
	assert_int_equal(r.nthreads, 3);
	for (i = 0; i < 3; i++)
		assert_int_equal(r.thread_ops[i], 40);
	assert_true(result_value(&r, "elapsed_s") > 0);
	assert_true(fabs(result_value(&r, "ops_per_process") * 3 -
			 result_value(&r, "throughput")) <
		    1e-9 * result_value(&r, "throughput"));
	assert_int_equal(tmpdir_entries(f->scratch), 0);
	result_release(&r);
}

/* reuse = no: a new file per call, each created and deleted once. */
static void test_jobs_exact_new_files(void **state)
{
	struct fixture *f = *state;
	struct result r;
	struct events ev;

	run_jobs(f, "2", 25, "no", &r, &ev);
	assert_false(ev.overflow);
	assert_int_equal(ev.create, 2 * 25);
	assert_int_equal(ev.close_write, 2 * 25);
	assert_int_equal(ev.del, 2 * 25);
	assert_int_equal(result_value(&r, "ops"), 50);
	assert_int_equal(tmpdir_entries(f->scratch), 0);
	result_release(&r);
}

static void test_fs_magic(void **state)
{
	struct fixture *f = *state;
	struct result r;
	struct events ev;
	struct statfs fs;

	run_jobs(f, "1", 1, "yes", &r, &ev);
	assert_int_equal(statfs(f->scratch, &fs), 0);
	assert_int_equal((unsigned long)result_value(&r, "fs_magic"),
			 (unsigned long)fs.f_type);
	result_release(&r);
}

/* Fixed time: the window lasts at least the runtime; counts add up. */
static void test_runtime(void **state)
{
	struct fixture *f = *state;
	struct wl_args a;
	struct result r;
	uint64_t sum = 0;
	size_t i;

	targs_init(&a, &creat_workload, 0);
	a.runtime_s = 0.05;
	targs_set(&a, "processes", "2");
	a.scratch = f->scratch;
	result_init(&r);
	assert_int_equal(creat_workload.run(&a, &r), 0);
	assert_true(result_value(&r, "elapsed_s") >= 0.05);
	assert_int_equal(r.nthreads, 2);
	for (i = 0; i < r.nthreads; i++)
		sum += r.thread_ops[i];
	assert_true(sum > 0);
	assert_int_equal(result_value(&r, "ops"), sum);
	assert_int_equal(tmpdir_entries(f->scratch), 0);
	result_release(&r);
	targs_release(&a);
}

static void plant(const struct fixture *f, const char *name)
{
	char *p = xasprintf("%s/%s", f->scratch, name);

	assert_int_equal(symlink(f->secret, p), 0);
	free(p);
}

static void assert_secret_kept(const struct fixture *f)
{
	char buf[32] = "";
	FILE *fp = fopen(f->secret, "r");

	assert_non_null(fp);
	assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	assert_string_equal(buf, "keep me");
}

/* A symlink where a process will creat() is never followed: run fails. */
static void symlink_case(struct fixture *f, const char *reuse,
			 const char *name)
{
	struct wl_args a;
	struct result r;

	plant(f, name);
	targs_init(&a, &creat_workload, 5);
	targs_set(&a, "processes", "2");
	targs_set(&a, "reuse", reuse);
	a.scratch = f->scratch;
	result_init(&r);
	assert_int_equal(creat_workload.run(&a, &r), -1);
	assert_non_null(strstr(r.error, "symlink"));
	assert_secret_kept(f);
	result_release(&r);
	targs_release(&a);
	/* What the failed run left is removed without touching the target. */
	assert_int_equal(scratch_remove(f->scratch), 0);
	assert_secret_kept(f);
}

static void test_symlink_reuse(void **state)
{
	symlink_case(*state, "yes", "p1");
}

static void test_symlink_new_files(void **state)
{
	symlink_case(*state, "no", "p0.3");
}

static int validate_dir(const char *dir, char *err, size_t errlen)
{
	struct wl_args a;
	int ret;

	targs_init(&a, &creat_workload, 1);
	targs_set(&a, "dir", dir);
	ret = creat_workload.validate(&a, NULL, err, errlen);
	targs_release(&a);
	return ret;
}

static void test_validate_dir(void **state)
{
	struct fixture *f = *state;
	char err[256] = "", *missing = xasprintf("%s/missing", f->base);

	assert_int_equal(validate_dir(missing, err, sizeof(err)), -1);
	assert_int_equal(strncmp(err, "dir: ", 5), 0);
	assert_int_equal(validate_dir(f->secret, err, sizeof(err)), -1);
	assert_int_equal(strncmp(err, "dir: ", 5), 0);
	assert_non_null(strstr(err, "not a directory"));
	assert_int_equal(validate_dir(f->base, err, sizeof(err)), 0);
	free(missing);
}

/* `dir` empty means $TMPDIR: a missing $TMPDIR is reported. */
static void test_validate_default_dir(void **state)
{
	struct fixture *f = *state;
	char err[256] = "", *missing = xasprintf("%s/missing", f->base);
	const char *saved = getenv("TMPDIR");
	char *keep = saved ? xstrdup(saved) : NULL;

	setenv("TMPDIR", missing, 1);
	assert_int_equal(validate_dir("", err, sizeof(err)), -1);
	assert_non_null(strstr(err, missing));
	setenv("TMPDIR", f->base, 1);
	assert_int_equal(validate_dir("", err, sizeof(err)), 0);
	if (keep)
		setenv("TMPDIR", keep, 1);
	else
		unsetenv("TMPDIR");
	free(keep);
	free(missing);
}

/*
 * Without --scratch (contend exec by hand) the workload makes its own
 * scratch directory under dir, reached here through a `..` path, and
 * leaves nothing behind.
 */
static void test_own_scratch(void **state)
{
	struct fixture *f = *state;
	char *parent = xasprintf("%s/own", f->base);
	char *dotdot = xasprintf("%s/own/../own", f->base);
	struct wl_args a;
	struct result r;

	assert_int_equal(mkdir(parent, 0700), 0);
	targs_init(&a, &creat_workload, 10);
	targs_set(&a, "processes", "2");
	targs_set(&a, "dir", dotdot);
	result_init(&r);
	assert_int_equal(creat_workload.run(&a, &r), 0);
	assert_int_equal(result_value(&r, "ops"), 20);
	assert_int_equal(tmpdir_entries(parent), 0);
	assert_int_equal(tmpdir_entries(f->base), 3); /* contend.*, secret, own */
	result_release(&r);
	targs_release(&a);
	free(dotdot);
	free(parent);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * A run killed mid-way leaves no process behind: its children have
 * PR_SET_PDEATHSIG.  We become a subreaper so orphans would be reparented
 * to us; inotify tells when all three processes have created their file
 * (so they surely exist); after the kill, waitpid(-1) must reap exactly
 * those three, killed, and then find no child.  An alarm bounds the wait
 * so a surviving child fails the test instead of hanging it.
 */
static void test_children_die_with_run(void **state)
{
	struct fixture *f = *state;
	struct sigaction sa = { .sa_handler = on_alarm };
	int fd = watch(f->scratch), status, reaped = 0;
	unsigned long created = 0;
	pid_t run, pid;

	assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	run = fork();
	assert_true(run >= 0);
	if (run == 0) {
		struct wl_args a;
		struct result r;

		targs_init(&a, &creat_workload, 0);
		a.runtime_s = 3600;
		targs_set(&a, "processes", "3");
		a.scratch = f->scratch;
		result_init(&r);
		creat_workload.run(&a, &r);
		_exit(1);
	}
	while (created < 3) {
		struct pollfd p = { fd, POLLIN, 0 };
		struct events ev;

		assert_int_equal(poll(&p, 1, -1), 1);
		count_events(fd, &ev);
		created += ev.create;
	}
	close(fd);
	assert_int_equal(kill(run, SIGKILL), 0);
	assert_int_equal(waitpid(run, &status, 0), run);
	sigaction(SIGALRM, &sa, NULL);
	alarm(10);
	while ((pid = waitpid(-1, &status, 0)) > 0) {
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), SIGKILL);
		reaped++;
	}
	alarm(0);
	assert_int_equal(errno, ECHILD);
	assert_int_equal(reaped, 3);
	prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* The kernel's documented example (Documentation/locking/lockstat.rst). */
static const char lockstat_before[] =
	"lock_stat version 0.4\n"
	"-----------------------------------------------------------------\n"
	"                              class name    con-bounces    contentions   waittime-min   waittime-max waittime-total   waittime-avg    acq-bounces   acquisitions   holdtime-min   holdtime-max holdtime-total   holdtime-avg\n"
	"-----------------------------------------------------------------\n"
	"\n"
	"                         &mm->mmap_sem-W:            46             84           0.26         939.10       16371.53         194.90          47291        2922365           0.16     2220301.69 17464026916.32        5975.99\n"
	"                         &mm->mmap_sem-R:            37            100           1.31      299502.61      325629.52        3256.30         212344       34316685           0.10        7744.91    95016910.20           2.77\n"
	"                         ---------------\n"
	"                           &mm->mmap_sem              1          [<ffffffff811502a7>] khugepaged_scan_mm_slot+0x57/0x280\n"
	"                           &mm->mmap_sem             96          [<ffffffff815351c4>] __do_page_fault+0x1d4/0x510\n"
	"                         ---------------\n"
	"\n"
	".............................................................\n"
	"\n"
	"                         unix_table_lock:           110            112           0.21          49.24         163.91           1.46          21094          66312           0.12         624.42       31589.81           0.48\n"
	"                         ---------------\n"
	"                         unix_table_lock             45          [<ffffffff8150ad8e>] unix_create1+0x16e/0x1b0\n"
	"\t       &(&zone->lru_lock)->rlock:         93000          94934           0.16          59.18      188253.78           1.98        1199912        3809894           0.15         391.40     3559518.81           0.93\n";

/* The same classes later: mmap_sem-W +16, unix_table_lock +0, lru +66. */
static const char lockstat_after[] =
	"lock_stat version 0.4\n"
	"                         &mm->mmap_sem-W:            50            100           0.26         939.10       16371.53         194.90          47291        2922365           0.16     2220301.69 17464026916.32        5975.99\n"
	"                         &mm->mmap_sem-R:            37            100           1.31      299502.61      325629.52        3256.30         212344       34316685           0.10        7744.91    95016910.20           2.77\n"
	"                         unix_table_lock:           110            112           0.21          49.24         163.91           1.46          21094          66312           0.12         624.42       31589.81           0.48\n"
	"\t       &(&zone->lru_lock)->rlock:         93000          95000           0.16          59.18      188253.78           1.98        1199912        3809894           0.15         391.40     3559518.81           0.93\n"
	"                               &rq->lock/1:        1526          11488           0.33         388.73      136294.31          11.86          21461          38404           0.00          37.93      109388.53           2.84\n";

static void test_lockstat_parse(void **state)
{
	struct lockstat ls;

	(void)state;
	assert_int_equal(lockstat_parse(lockstat_before, &ls), 4);
	assert_string_equal(ls.classes[0].name, "&mm->mmap_sem-W");
	assert_int_equal(ls.classes[0].contentions, 84);
	assert_string_equal(ls.classes[1].name, "&mm->mmap_sem-R");
	assert_int_equal(ls.classes[1].contentions, 100);
	assert_string_equal(ls.classes[2].name, "unix_table_lock");
	assert_int_equal(ls.classes[2].contentions, 112);
	assert_string_equal(ls.classes[3].name, "&(&zone->lru_lock)->rlock");
	assert_int_equal(ls.classes[3].contentions, 94934);
	lockstat_release(&ls);
}

/*
 * Growth: lru 95000-94934 = 66, rq/1 new class 11488 - 0, mmap_sem-W
 * 100-84 = 16; R and unix_table_lock did not grow.  Top 2 of 3 kept.
 */
static void test_lockstat_report(void **state)
{
	struct lockstat b, a;
	struct result r;

	(void)state;
	lockstat_parse(lockstat_before, &b);
	lockstat_parse(lockstat_after, &a);
	result_init(&r);
	assert_int_equal(lockstat_report(&r, &b, &a, 2), 2);
	assert_int_equal(result_value(&r, "lockstat_rq_lock_1"), 11488);
	assert_int_equal(result_value(&r, "lockstat_zone_lru_lock_rlock"), 66);
	assert_true(isnan(result_value(&r, "lockstat_mm_mmap_sem_W")));
	result_init(&r);
	assert_int_equal(lockstat_report(&r, &b, &a, 8), 3);
	assert_int_equal(result_value(&r, "lockstat_mm_mmap_sem_W"), 16);
	assert_true(isnan(result_value(&r, "lockstat_unix_table_lock")));
	lockstat_release(&a);
	lockstat_release(&b);
}

static void test_lockstat_names(void **state)
{
	char out[METRIC_NAME_MAX];
	char long_name[200];

	(void)state;
	lockstat_metric_name("&(&zone->lock)->rlock", out, sizeof(out));
	assert_string_equal(out, "lockstat_zone_lock_rlock");
	lockstat_metric_name("__lock__", out, sizeof(out));
	assert_string_equal(out, "lockstat_lock");
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	lockstat_metric_name(long_name, out, sizeof(out));
	assert_int_equal(strlen(out), METRIC_NAME_MAX - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_jobs_exact_reuse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jobs_exact_new_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fs_magic, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runtime, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_reuse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_new_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_validate_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_validate_default_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_scratch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_children_die_with_run, setup, teardown),
		cmocka_unit_test(test_lockstat_parse),
		cmocka_unit_test(test_lockstat_report),
		cmocka_unit_test(test_lockstat_names),
	};

	return cmocka_run_group_tests_name("creat", tests, NULL, NULL);
}
