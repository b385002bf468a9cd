/*
 * replay.c - runs a fuzz target without libFuzzer over its committed
 * inputs, so `make check` and `make asan` keep every input that ever
 * crashed a target (tests/fuzz/regress/NAME/) and the seed corpus
 * (tests/fuzz/corpus/NAME/) passing.  Built as BUILD/tests/test_fuzz_NAME
 * from tests/fuzz/fuzz_NAME.c; run from the top of the tree.
 *
 * The parsers report rejected input on stderr; that goes to /dev/null,
 * while the sanitizers' reports (if built with them) still reach the real
 * stderr.  With FUZZ_REPLAY_VERBOSE set, each input's path is printed
 * before it runs, so a crash names it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional in a target, as in libFuzzer. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
/* Present only in sanitizer builds. */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

static int verbose; /* $FUZZ_REPLAY_VERBOSE: name each input first */

static int replay_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(path, O_RDONLY);
	ssize_t got = 0;

	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return 0; /* not a file: skip */
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		abort();
	if (st.st_size)
		got = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (got != st.st_size) {
		fprintf(stdout, "%s: short read\n", path);
		free(buf);
		return -1;
	}
	if (verbose) {
		printf("  %s\n", path);
		fflush(stdout);
	}
	LLVMFuzzerTestOneInput(buf, (size_t)st.st_size);
	free(buf);
	return 1;
}

/* Replays every file of dir; the count, or -1. */
static int replay_dir(const char *dir)
{
	struct dirent **ents;
	int n, i, count = 0;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0)
		return 0; /* no such directory: nothing to replay */
	for (i = 0; i < n; i++) {
		char path[4096];
		int r = 0;

		if (ents[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 ents[i]->d_name);
			r = replay_file(path);
		}
		free(ents[i]);
		if (r < 0)
			count = -1;
		else if (count >= 0)
			count += r;
	}
	free(ents);
	return count;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	char dir[2][512];
	int i, n, total = 0, errfd = dup(2), devnull;

	name = name ? name + 1 : argv[0];
	if (strncmp(name, "test_fuzz_", 10)) {
		fprintf(stderr, "%s: expected to be named test_fuzz_NAME\n",
			argv[0]);
		return 1;
	}
	name += 10;
	verbose = getenv("FUZZ_REPLAY_VERBOSE") != NULL;
	if (!verbose)
		printf("fuzz_%s: replaying (FUZZ_REPLAY_VERBOSE=1 names each "
		       "input, to find one that fails)\n", name);
	if (LLVMFuzzerInitialize && LLVMFuzzerInitialize(&argc, &argv))
		return 1;
	snprintf(dir[0], sizeof(dir[0]), "tests/fuzz/corpus/%s", name);
	snprintf(dir[1], sizeof(dir[1]), "tests/fuzz/regress/%s", name);
	if (__sanitizer_set_report_fd)
		__sanitizer_set_report_fd((void *)(intptr_t)errfd);
	devnull = open("/dev/null", O_WRONLY);
	if (errfd < 0 || devnull < 0 || dup2(devnull, 2) < 0)
		return 1;
	for (i = 0; i < 2; i++) {
		n = replay_dir(dir[i]);
		if (n < 0)
			return 1;
		total += n;
	}
	dup2(errfd, 2);
	printf("fuzz_%s: %d inputs replayed\n", name, total);
	return total ? 0 : 1;
}
