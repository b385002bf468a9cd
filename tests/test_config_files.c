/*
 * test_config_files.c - the INI loader on what it must refuse: the corpus
 * of invalid files tests/data/bad/NAME.ini, each compared with the exact
 * stderr in NAME.expect; and hostile inputs too big to commit (a 10 MB
 * line, a 17 MB file), built here.  Also the shipped configs, --dry-run's
 * plan, and releasing an empty config.
 *
 * Run from the top of the tree (make check does): paths in the .expect
 * files are relative to it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner/config.h"
#include "lib/util.h"
#include "tests/config_load.h"

#define BAD_DIR "tests/data/bad"

static void expect_failure(const struct load_call *lc, const char *want)
{
	struct experiment_config c;
	int ret;
	char *got = load_captured(lc, &c, &ret);

	assert_int_equal(ret, -1);
	assert_string_equal(got, want);
	assert_empty(&c);
	free(got);
}

/* ---- the corpus of bad files ------------------------------------------- */

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;

	assert_non_null(f);
	s = slurp(f);
	fclose(f);
	return s;
}

/* The visible workloads, in registry order: what "(known: ...)" lists. */
static char *known_workloads(void)
{
	char *s = xstrdup(""), *t;
	size_t i;

	for (i = 0; i < nworkloads; i++) {
		if (workloads[i]->flags & WL_HIDDEN)
			continue;
		t = xasprintf("%s%s%s", s, *s ? ", " : "", workloads[i]->name);
		free(s);
		s = t;
	}
	return s;
}

/*
 * The .expect text with {KNOWN} replaced by the registry's list, so the
 * corpus stays exact as workloads are added.
 */
static char *expand_known(char *text)
{
	char *at = strstr(text, "{KNOWN}"), *known, *out;

	if (!at)
		return text;
	known = known_workloads();
	*at = '\0';
	out = xasprintf("%s%s%s", text, known, at + 7);
	free(known);
	free(text);
	return expand_known(out);
}

static void test_bad_file(void **state)
{
	const char *ini = *state;
	size_t len = strlen(ini);
	char *expect_path = malloc(len + 8), *want;
	struct load_call lc = { ini, NULL, 0 };

	memcpy(expect_path, ini, len - 4);
	strcpy(expect_path + len - 4, ".expect");
	want = expand_known(read_text(expect_path));
	/* every bad file says something, with the file and a line */
	assert_true(strncmp(want, "contend: " BAD_DIR "/", 22) == 0);
	expect_failure(&lc, want);
	free(want);
	free(expect_path);
}

/* ---- inputs built here ------------------------------------------------- */

static void test_missing_file(void **state)
{
	struct load_call lc = { BAD_DIR "/no-such-file.ini", NULL, 0 };

	(void)state;
	expect_failure(&lc, "contend: " BAD_DIR "/no-such-file.ini: cannot "
			    "open: No such file or directory\n");
}

static void test_directory(void **state)
{
	struct load_call lc = { BAD_DIR, NULL, 0 };

	(void)state;
	expect_failure(&lc, "contend: " BAD_DIR ": is a directory, not an INI "
			    "file\n");
}

/* Loads path, returns 0 when stderr was exactly want (no cmocka asserts). */
static int load_says(const char *path, const char *want)
{
	struct load_call lc = { path, NULL, 0 };
	struct experiment_config c;
	int ret;
	char *got = load_captured(&lc, &c, &ret);
	int ok = ret == -1 && !strcmp(got, want);

	free(got);
	return ok ? 0 : 1;
}

static void test_unreadable(void **state)
{
	char path[] = "/tmp/contend-test-XXXXXX";
	char *want;
	int fd, status;
	pid_t pid;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[experiment]\n", 13), 13);
	close(fd);
	assert_int_equal(chmod(path, 0), 0);
	want = xasprintf("contend: %s: cannot open: Permission denied\n", path);
	if (geteuid() != 0) {
		assert_int_equal(load_says(path, want), 0);
	} else {
		/* root reads a mode-000 file: try as nobody in a child */
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			if (setgid(65534) || setuid(65534))
				_exit(77);
			_exit(load_says(path, want));
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		if (WEXITSTATUS(status) == 77)
			skip();
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	free(want);
	unlink(path);
}

/* A file that opens but fails to read, even for root. */
static void test_read_error(void **state)
{
	struct load_call lc = { "/proc/self/mem", NULL, 0 };

	(void)state;
	expect_failure(&lc, "contend: /proc/self/mem: cannot read: "
			    "Input/output error\n");
}

/* "[experiment]\nname = x\n" + "; " + fill + "\n[workload w]\ntype = noop\n" */
static char *with_comment(size_t fill, size_t *len)
{
	static const char head[] = "[experiment]\nname = x\n; ";
	static const char tail[] = "\n[workload w]\ntype = noop\n";
	char *s = malloc(sizeof(head) + fill + sizeof(tail));

	memcpy(s, head, sizeof(head) - 1);
	memset(s + sizeof(head) - 1, 'x', fill);
	memcpy(s + sizeof(head) - 1 + fill, tail, sizeof(tail));
	*len = sizeof(head) - 1 + fill + sizeof(tail) - 1;
	return s;
}

static void test_line_limit(void **state)
{
	struct experiment_config c;
	size_t len;
	char *text = with_comment(CONFIG_MAX_LINE - 2, &len); /* 4096 bytes */
	struct load_call lc = { "edge.ini", text, len };
	int ret;
	char *err = load_captured(&lc, &c, &ret);

	(void)state;
	assert_int_equal(ret, 0);
	assert_string_equal(err, "");
	config_release(&c);
	free(err);
	free(text);
	text = with_comment(CONFIG_MAX_LINE - 1, &len); /* one byte more */
	lc = (struct load_call){ "edge.ini", text, len };
	expect_failure(&lc, "contend: edge.ini:3: line is 4097 bytes long; "
			    "the limit is 4096\n");
	free(text);
}

static void test_ten_megabyte_line(void **state)
{
	size_t len, fill = 10u << 20;
	char *text = with_comment(fill, &len);
	struct load_call lc = { "big.ini", text, len };
	char *want = xasprintf("contend: big.ini:3: line is %zu bytes long; "
			       "the limit is 4096\n", fill + 2);

	(void)state;
	expect_failure(&lc, want);
	free(want);
	free(text);
}

static void test_file_too_big(void **state)
{
	size_t len;
	char *text = with_comment(CONFIG_MAX_FILE, &len);
	struct load_call lc = { "huge.ini", text, len };

	(void)state;
	expect_failure(&lc, "contend: huge.ini: file is larger than 16777216 "
			    "bytes\n");
	free(text);
}

static void test_buffer_nul(void **state)
{
	static const char text[] = "[experiment]\nname = x\n\n\0[workload w]\n";
	struct load_call lc = { "nul.ini", text, sizeof(text) - 1 };

	(void)state;
	expect_failure(&lc, "contend: nul.ini:4: NUL byte: this is a binary "
			    "file, not an INI file\n");
}

/* The loader's worst case in time: the largest expansion it accepts. */
static void test_largest_expansion(void **state)
{
	static const char text[] = "[experiment]\nname = x\nrepetitions = 1\n"
				   "warmup = 0\n[workload w]\ntype = noop\n"
				   "threads = 1..10\nspin = 1..10000\n";
	struct load_call lc = { "large.ini", text, sizeof(text) - 1 };
	struct experiment_config c;
	int ret;
	char *err = load_captured(&lc, &c, &ret);

	(void)state;
	assert_int_equal(ret, 0);
	assert_string_equal(err, "");
	assert_int_equal(c.nentries, CONFIG_MAX_RUNS);
	assert_string_equal(c.entries[CONFIG_MAX_RUNS - 1].canon,
			    "threads=10 spin=10000 fault=none jitter=0 "
			    "runtime=1");
	config_release(&c);
	free(err);
}

/*
 * Golden text of config_print, wrapped at 78 columns with the runs in
 * parentheses kept whole.  Runs: [a] 2 configurations x (1 warm-up
 * + 3); [b] 1 x (1 warm-up + auto, at most max_repetitions = 30): warm-up
 * 1 + 1 + 1 = 3, measured 3 + 3 + 30 = 36, 39 in all.
 */
static void test_print(void **state)
{
	static const char text[] =
		"[experiment]\nname = p\nseed = 7\nrepetitions = 3\n"
		"[workload a]\ntype = noop\nthreads = 1, 2\nruntime = 100ms\n"
		"[workload b]\ntype = noop\nrepetitions = auto\njobs = 10\n";
	static const char want[] =
		"experiment p (print.ini)\n"
		"order blocked, seed 7, confidence 0.95\n\n"
		"   1  [a] noop: threads=1 spin=100 fault=none jitter=0 "
		"runtime=0.1\n      (1 warm-up + 3 runs, timeout 30.2s)\n"
		"   2  [a] noop: threads=2 spin=100 fault=none jitter=0 "
		"runtime=0.1\n      (1 warm-up + 3 runs, timeout 30.2s)\n"
		"   3  [b] noop: threads=1 spin=100 fault=none jitter=0 "
		"jobs=10\n      (1 warm-up + auto 5..30 runs, timeout 300s)\n\n"
		"3 configurations: 3 warm-up + up to 36 measured = up to 39 "
		"runs\n";
	struct experiment_config c;
	char *out = NULL;
	size_t outlen = 0;
	FILE *f;

	(void)state;
	assert_int_equal(config_load_buffer("print.ini", text,
					    sizeof(text) - 1, &c), 0);
	f = open_memstream(&out, &outlen);
	assert_non_null(f);
	config_print(&c, f);
	fclose(f);
	assert_string_equal(out, want);
	free(out);
	config_release(&c);
}

/*
 * Every shipped experiment loads; quick.ini is the one `make run` uses.
 * A command-workload config whose program is not installed fails by
 * design ("'perf' is not installed"): skipped, as tests/e2e_configs.sh does.
 */
static void test_shipped_configs(void **state)
{
	glob_t g;
	size_t i;

	(void)state;
	assert_int_equal(glob("configs/*.ini", 0, NULL, &g), 0);
	for (i = 0; i < g.gl_pathc; i++) {
		struct load_call lc = { g.gl_pathv[i], NULL, 0 };
		struct experiment_config c;
		int ret;
		char *err = load_captured(&lc, &c, &ret);

		if (ret && strstr(err, "is not installed (not found on PATH)")) {
			free(err);
			continue;
		}
		assert_string_equal(err, "");
		assert_int_equal(ret, 0);
		if (!strcmp(g.gl_pathv[i], "configs/quick.ini"))
			assert_int_equal(c.nentries, 6);
		config_release(&c);
		free(err);
	}
	globfree(&g);
}

static void test_release_empty(void **state)
{
	struct experiment_config c;

	(void)state;
	memset(&c, 0, sizeof(c));
	config_release(&c);
	config_release(&c);
	assert_empty(&c);
}

int main(void)
{
	static const struct CMUnitTest fixed[] = {
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_read_error),
		cmocka_unit_test(test_line_limit),
		cmocka_unit_test(test_ten_megabyte_line),
		cmocka_unit_test(test_file_too_big),
		cmocka_unit_test(test_buffer_nul),
		cmocka_unit_test(test_largest_expansion),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_shipped_configs),
		cmocka_unit_test(test_release_empty),
	};
	size_t nf = sizeof(fixed) / sizeof(fixed[0]);
	struct CMUnitTest *tests;
	glob_t g;
	size_t i, n = 0;
	int ret;

	if (glob(BAD_DIR "/*.ini", 0, NULL, &g) || g.gl_pathc < 50) {
		fprintf(stderr, "test_config_files: the corpus " BAD_DIR
				"/*.ini is missing: run from the top of the "
				"tree\n");
		return 1;
	}
	tests = calloc(g.gl_pathc + nf, sizeof(*tests));
	for (i = 0; i < g.gl_pathc; i++)
		tests[n++] = (struct CMUnitTest){ g.gl_pathv[i], test_bad_file,
						  NULL, NULL, g.gl_pathv[i] };
	for (i = 0; i < nf; i++)
		tests[n++] = fixed[i];
	ret = _cmocka_run_group_tests("config_files", tests, n, NULL, NULL);
	free(tests);
	globfree(&g);
	return ret;
}
