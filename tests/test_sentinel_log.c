/*
 * test_sentinel_log.c - the kernel log's blind spots (runner/sentinel.h):
 * every record read whatever its length, through a reader that fails as
 * /dev/kmsg does on a record longer than its buffer and through a file
 * and a FIFO written as one stream; records lost counted from the gaps in
 * their sequence numbers; a log that cannot be opened or fails said as a
 * word.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/util.h"
#include "runner/sentinel.h"
#include "runner/workload.h"
#include "tests/sentinel_fixture.h"
#include "tests/tmpdir.h"

/*
 * A reader as /dev/kmsg reads: one record a read, and a record longer than
 * the caller's buffer fails the read with EINVAL and is skipped (the
 * kernel's devkmsg_read moves past it first).
 */
static ssize_t kmsg_like_read(void *arg, char *buf, size_t len)
{
	struct fake_log *l = arg;
	size_t n;

	if (l->next >= l->n)
		return 0;
	n = strlen(l->rec[l->next++]);
	if (n > len) {
		errno = EINVAL;
		return -1;
	}
	memcpy(buf, l->rec[l->next - 1], n);
	return (ssize_t)n;
}

/* "PRI,SEQ,TS,-;" then x up to size bytes with the newline, malloc'd. */
static char *long_record(unsigned seq, size_t size)
{
	char *r = xmalloc(size + 1);
	int head = snprintf(r, size + 1, "6,%u,100,-;", seq);

	memset(r + head, 'x', size - (size_t)head - 1);
	r[size - 1] = '\n';
	r[size] = '\0';
	return r;
}

static const size_t long_sizes[] = { 2046, 2047, 2048, 4096, 8191, 8192,
				     SENTINEL_RECORD_MAX - 1,
				     SENTINEL_RECORD_MAX };

/* A BUG: right after a record of 2,047 bytes or more is counted (it was
 * missed 5 of 5 times: the read failed and the drain stopped). */
static void test_long_record_kmsg(void **state)
{
	struct sentinel s;
	struct sentinel_window w;
	char root[64];
	size_t i;

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	for (i = 0; i < ARRAY_SIZE(long_sizes); i++) {
		struct fake_log log = { { NULL }, 0, 0 };
		char *rec = long_record(10, long_sizes[i]);

		print_message("record of %zu bytes\n", long_sizes[i]);
		sentinel_open(&s, root);
		sentinel_set_reader(&s, kmsg_like_read, &log);
		sentinel_begin(&s, NULL);
		log_push(&log, rec);
		log_push(&log, "4,11,101,-;BUG: unable to handle page fault\n");
		sentinel_end(&s, 0, &w);
		assert_int_equal(w.count[KMSG_BUG], 1);
		assert_int_equal(w.unread, 0);
		sentinel_close(&s);
		free(rec);
	}
	assert_int_equal(tmpdir_remove(root), 0);
}

/* Records the kernel skipped or overwrote leave a gap in the sequence
 * numbers: counted in the window that finds it, as klog_unread. */
static void test_sequence_gap(void **state)
{
	struct fake_log log = { { NULL }, 0, 0 };
	struct sentinel s;
	struct sentinel_window w;
	struct result res;
	char root[64];

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	sentinel_open(&s, root);
	sentinel_set_reader(&s, fake_read, &log);
	log_push(&log, "6,10,1,-;before\n");
	sentinel_begin(&s, NULL);
	log_push(&log, "6,11,2,-;in the run\n");
	log_push(&log, "6,15,3,-;after three lost\n");
	sentinel_end(&s, 0, &w);
	assert_int_equal(w.unread, 3);
	result_init(&res);
	sentinel_add(&w, &res);
	assert_float_equal(result_value(&res, "klog_unread"), 3, 0);
	/* not a kernel warning: no kmsg_ sample */
	assert_true(isnan(result_value(&res, "kmsg_bug")));
	result_release(&res);
	/* a gap between runs is nobody's */
	log_push(&log, "6,20,4,-;between\n");
	sentinel_begin(&s, NULL);
	log_push(&log, "6,21,5,-;next run\n");
	sentinel_end(&s, 0, &w);
	assert_int_equal(w.unread, 0);
	sentinel_close(&s);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* A log that fails while followed: this window and every later one say
 * that it was not read. */
static ssize_t failing_read(void *arg, char *buf, size_t len)
{
	(void)arg;
	(void)buf;
	(void)len;
	errno = EIO;
	return -1;
}

static void test_log_fails(void **state)
{
	struct sentinel s;
	struct sentinel_window w;
	char root[64];

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	sentinel_open(&s, root);
	sentinel_set_reader(&s, failing_read, NULL);
	sentinel_begin(&s, NULL);
	sentinel_end(&s, 0, &w);
	assert_int_equal(w.unread, 1);
	sentinel_begin(&s, NULL);
	sentinel_end(&s, 0, &w);
	assert_int_equal(w.unread, 1);
	sentinel_close(&s);
	assert_int_equal(tmpdir_remove(root), 0);
}

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/*
 * The log as a file and as a FIFO, written in one stream (reads return
 * any number of bytes, not one record): a long record of each size, then
 * a BUG: line, is read to the BUG:.  A record longer than the buffer is
 * classified by its head.
 */
static void test_log_stream(void **state)
{
	static const size_t sizes[] = { 2047, 5000, SENTINEL_RECORD_MAX,
					 SENTINEL_RECORD_MAX + 1, 40000 };
	struct sentinel s;
	struct sentinel_window w;
	char root[64], *path, *fifo;
	size_t i;
	int kind;

	(void)state;
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	path = xasprintf("%s/kmsg", root);
	fifo = xasprintf("%s/kmsg.fifo", root);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	write_file(root, "/kmsg", "6,1,1,-;BUG: logged before: not ours\n");
	for (kind = 0; kind < 2; kind++)
		for (i = 0; i < ARRAY_SIZE(sizes); i++) {
			char *rec = long_record(2, sizes[i]);
			int wfd = -1;

			print_message("%s, record of %zu bytes\n",
				      kind ? "fifo" : "file", sizes[i]);
			sentinel_open(&s, root);
			assert_int_equal(sentinel_follow(&s, kind ? fifo
								  : path), 0);
			assert_string_equal(s.log_state, "followed");
			sentinel_begin(&s, NULL);
			if (kind) {
				wfd = open(fifo, O_WRONLY | O_NONBLOCK);
				assert_true(wfd >= 0);
				assert_int_equal(write(wfd, rec, strlen(rec)),
						 (ssize_t)strlen(rec));
				assert_int_equal(write(wfd, "4,3,2,-;BUG: x\n",
						       15), 15);
			} else {
				append(path, rec);
				append(path, "4,3,2,-;BUG: x\n");
			}
			sentinel_end(&s, 0, &w);
			assert_int_equal(w.count[KMSG_BUG], 1);
			assert_int_equal(w.unread, 0);
			/* a long record that is a warning counts by its head */
			memcpy(rec + strlen("6,2,100,-;"), "BUG: y", 6);
			rec[0] = '4';
			sentinel_begin(&s, NULL);
			if (kind)
				assert_int_equal(write(wfd, rec, strlen(rec)),
						 (ssize_t)strlen(rec));
			else
				append(path, rec);
			sentinel_end(&s, 0, &w);
			assert_int_equal(w.count[KMSG_BUG], 1);
			assert_int_equal(strncmp(w.first_line, "BUG: y", 6), 0);
			if (wfd >= 0)
				close(wfd);
			sentinel_close(&s);
			free(rec);
		}
	free(path);
	free(fifo);
	assert_int_equal(tmpdir_remove(root), 0);
}

/* A log that cannot be opened says why, as a word. */
static void test_log_word(void **state)
{
	static const struct {
		int err;
		const char *word;
	} cases[] = {
		{ EPERM, "denied" },  /* dmesg_restrict, no CAP_SYSLOG */
		{ EACCES, "denied" },
		{ ENOENT, "absent" },
		{ ENODEV, "absent" },
		{ EIO, "unreadable" },
		{ EMFILE, "unreadable" },
	};
	struct sentinel s;
	char root[64], *path;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_string_equal(sentinel_log_word(cases[i].err),
				    cases[i].word);
	assert_int_equal(tmpdir_create(root, sizeof(root), "sentinel"), 0);
	/* a fake tree without dev/kmsg */
	sentinel_open(&s, root);
	assert_string_equal(s.log_state, "absent");
	sentinel_close(&s);
	/* without permission (root reads any file: not checked as root) */
	path = xasprintf("%s/kmsg", root);
	write_file(root, "/kmsg", "");
	assert_int_equal(chmod(path, 0), 0);
	sentinel_open(&s, root);
	if (geteuid()) {
		assert_int_equal(sentinel_follow(&s, path), -1);
		assert_string_equal(s.log_state, "denied");
	}
	sentinel_close(&s);
	free(path);
	assert_int_equal(tmpdir_remove(root), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_record_kmsg),
		cmocka_unit_test(test_sequence_gap),
		cmocka_unit_test(test_log_fails),
		cmocka_unit_test(test_log_stream),
		cmocka_unit_test(test_log_word),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
