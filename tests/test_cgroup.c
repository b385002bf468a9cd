/*
 * test_cgroup.c - the runner's cgroup (runner/cgroup.h): the cgroup v2
 * mount and this process's directory read from mountinfo and
 * /proc/self/cgroup texts; a directory that is not cgroup v2 (a fake
 * root) or CONTEND_CGROUP=off refused with the reason and nothing left;
 * the sweep of a fake root removing the cgroup of a dead runner only; and,
 * where the host has cgroup v2, a real one: a process placed in it and
 * its setsid child killed by cgroup_kill, counted as the one escapee;
 * children spawned into it after that run there and live; the cgroup
 * removed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner/cgroup.h"
#include "lib/procid.h"
#include "runner/spawn.h"
#include "lib/util.h"
#include "tests/tmpdir.h"

struct mount_case {
	const char *name, *text, *mnt, *root; /* mnt NULL: none found */
};

static const struct mount_case mounts[] = {
	{ "hybrid, v2 beside v1",
	  "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	  "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	  "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n",
	  "/sys/fs/cgroup/unified", "/" },
	{ "unified, optional fields",
	  "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 "
	  "- cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n",
	  "/sys/fs/cgroup", "/" },
	{ "a blank escaped in the mount point",
	  "50 23 0:40 / /mnt/my\\040cg rw - cgroup2 none rw\n", "/mnt/my cg",
	  "/" },
	{ "a subtree mounted",
	  "50 23 0:40 /lxc/c1 /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
	  "/sys/fs/cgroup", "/lxc/c1" },
	{ "v1 only",
	  "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n",
	  NULL, NULL },
	{ "cgroup2 as the source of a tmpfs",
	  "31 23 0:28 / /x rw,relatime - tmpfs cgroup2 rw\n", NULL, NULL },
	{ "empty", "", NULL, NULL },
};

static void test_mount_of(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(mounts); i++) {
		const struct mount_case *m = &mounts[i];
		char mnt[256] = "", root[256] = "";
		int r = cgroup_mount_of(m->text, mnt, sizeof(mnt), root,
					sizeof(root));

		if (r != (m->mnt ? 0 : -1) ||
		    (m->mnt && (strcmp(mnt, m->mnt) || strcmp(root, m->root))))
			fail_msg("%s: returned %d, mount '%s' root '%s'", m->name,
				 r, mnt, root);
	}
}

static void test_path_of(void **state)
{
	char path[256];

	(void)state;
	assert_int_equal(cgroup_path_of("4:memory:/a\n0::/user.slice/x.scope\n",
					path, sizeof(path)), 0);
	assert_string_equal(path, "/user.slice/x.scope");
	assert_int_equal(cgroup_path_of("0::/\n", path, sizeof(path)), 0);
	assert_string_equal(path, "/");
	assert_int_equal(cgroup_path_of("4:memory:/a\n1:cpu:/\n", path,
					sizeof(path)), -1);
}

/* Nothing but . and .. in dir. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void test_fake_root_refused(void **state)
{
	struct cgroup cg;
	char dir[64], why[512] = "";

	(void)state;
	assert_int_equal(tmpdir_create(dir, sizeof(dir), "cgroup"), 0);
	assert_int_equal(cgroup_create(&cg, dir, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "not a cgroup v2 directory"));
	assert_int_equal(cg.dir_fd, -1);
	assert_null(cg.path);
	assert_int_equal(entries(dir), 0);
	assert_int_equal(tmpdir_remove(dir), 0);
}

static void test_off(void **state)
{
	struct cgroup cg;
	char why[512] = "";

	(void)state;
	setenv("CONTEND_CGROUP", "off", 1);
	assert_int_equal(cgroup_create(&cg, NULL, why, sizeof(why)), 1);
	unsetenv("CONTEND_CGROUP");
	assert_string_equal(why, "CONTEND_CGROUP=off");
	assert_int_equal(cg.dir_fd, -1);
}

/* The tag of a process that has exited and been reaped. */
static void dead_tag(char *tag, size_t len)
{
	int p[2];
	char c;
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(p[1]);
		_exit(read(p[0], &c, 1) < 0);
	}
	close(p[0]);
	assert_int_equal(procid_tag(pid, tag, len), 0);
	close(p[1]);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

static void test_tags(void **state)
{
	char tag[64];

	(void)state;
	assert_int_equal(procid_tag(getpid(), tag, sizeof(tag)), 0);
	assert_false(procid_tag_dead(tag));
	dead_tag(tag, sizeof(tag));
	assert_true(procid_tag_dead(tag));
	assert_false(procid_tag_dead("garbage"));
	assert_false(procid_tag_dead("12-x"));
	assert_false(procid_tag_dead("-1-5"));
}

/* A fake root: only the dead runner's cgroup goes (an empty directory,
 * with no cgroup.kill to write: there is nothing in it to kill). */
static void test_sweep_fake_root(void **state)
{
	char dir[64], dead[64], live[64], path[256];
	struct stat st;

	(void)state;
	assert_int_equal(tmpdir_create(dir, sizeof(dir), "cgsweep"), 0);
	dead_tag(dead, sizeof(dead));
	assert_int_equal(procid_tag(getpid(), live, sizeof(live)), 0);
	snprintf(path, sizeof(path), "%s/contend-%s", dir, dead);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/contend-%s", dir, live);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/contend-garbage", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/other-%s", dir, dead);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(cgroup_sweep(dir), 1);
	snprintf(path, sizeof(path), "%s/contend-%s", dir, dead);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(entries(dir), 3);
	assert_int_equal(tmpdir_remove(dir), 0);
}

/* State of pid from /proc: '\0' when it is gone. */
static char state_of(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return '\0';
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (!p || !p[1])
		return 0;
	return p[2];
}

/* spawn_run of cat /proc/self/cgroup into cg: it runs there, exits 0. */
static void spawn_cat(const struct cgroup *cg)
{
	char *const argv[] = { (char *)"/bin/cat", (char *)"/proc/self/cgroup",
			       NULL };
	struct child c;

	child_init(&c);
	c.argv = argv;
	c.cgroup = cg;
	c.timeout_s = 60;
	assert_int_equal(spawn_run(&c), 0);
	if (!WIFEXITED(c.wstatus) || WEXITSTATUS(c.wstatus))
		fail_msg("cat in the cgroup: wait status %#x", c.wstatus);
	if (!strstr(c.out, cg->name))
		fail_msg("cat ran in '%s', not in %s", c.out, cg->name);
	assert_int_equal(c.orphans, 0);
	child_release(&c);
}

/* A child placed in cg, in a group of its own, and its setsid child. */
static void test_real_cgroup(void **state)
{
	struct cgroup cg;
	char why[512] = "", buf[64], *path;
	pid_t child, grandchild = 0;
	struct stat st;
	int p[2], status, i;

	(void)state;
	if (cgroup_create(&cg, NULL, why, sizeof(why))) {
		print_message("skipped: no cgroup v2 here: %s\n", why);
		skip();
	}
	assert_int_equal(fstat(cgroup_fd(&cg), &st), 0);
	assert_true(cgroup_id(&cg) == (uint64_t)st.st_ino);
	assert_int_equal(pipe(p), 0);
	child = fork();
	assert_true(child >= 0);
	if (!child) {
		pid_t g;

		if (setpgid(0, 0) || cgroup_place(&cg, 0))
			_exit(1);
		g = fork();
		if (!g) {
			setsid();
			pause();
			_exit(0);
		}
		snprintf(buf, sizeof(buf), "%ld\n", (long)g);
		if (write(p[1], buf, strlen(buf)) < 0)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	assert_true(read(p[0], buf, sizeof(buf) - 1) > 0);
	close(p[0]);
	grandchild = (pid_t)strtol(buf, NULL, 10);
	/* the setsid may come after the pid was written: wait for it */
	for (i = 0; i < 2000 && getsid(grandchild) != grandchild; i++)
		usleep(1000);
	assert_int_equal(getsid(grandchild), grandchild);
	/* the child, of group `child`, is not an escapee; its child is */
	assert_int_equal(cgroup_kill(&cg, child), 1);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* reparented to an init that may not reap: dead, if not gone */
	for (i = 0; i < 2000 && state_of(grandchild) &&
		    state_of(grandchild) != 'Z'; i++)
		usleep(1000);
	assert_true(!state_of(grandchild) || state_of(grandchild) == 'Z');
	assert_int_equal(cgroup_kill(&cg, 0), 0);
	/* spawned after a kill: born there, and alive (cgroup_kill must not
	 * leave the cgroup killing what is born into it) */
	spawn_cat(&cg);
	spawn_cat(&cg);
	path = xstrdup(cg.path);
	assert_int_equal(cgroup_remove(&cg), 0);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(cg.dir_fd, -1);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mount_of),
		cmocka_unit_test(test_path_of),
		cmocka_unit_test(test_fake_root_refused),
		cmocka_unit_test(test_off),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_sweep_fake_root),
		cmocka_unit_test(test_real_cgroup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
