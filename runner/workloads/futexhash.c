/*
 * futexhash.c - the private futex hash of a run's process: the
 * futex_hash_slots parameter checked, applied and read back
 * (futexhash.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>

#include "lib/escape.h"
#include "lib/util.h"
#include "runner/workloads/futexhash.h"

/* Older headers than the kernel (linux/prctl.h of 6.16 on). */
#ifndef PR_FUTEX_HASH
#define PR_FUTEX_HASH 78
#endif
#define FH_SET_SLOTS 1
#define FH_GET_SLOTS 2

const char *const futexhash_words[] = { "auto", NULL };

static int real_prctl(int op, unsigned long arg)
{
	return prctl(PR_FUTEX_HASH, op, arg, 0UL, 0UL);
}

static futexhash_prctl_fn call = real_prctl;

/* A test seam (scripts/symbols-allow.txt): a fake kernel's prctl. */
void futexhash_set_prctl(futexhash_prctl_fn fn)
{
	call = fn ? fn : real_prctl;
}

static bool supported(void)
{
	return call(FH_GET_SLOTS, 0) >= 0;
}

int futexhash_validate(long long slots, char *err, size_t errlen)
{
	char q[ESCAPE_QUOTE_BUF];
	struct utsname u;

	if (slots == FUTEXHASH_AUTO)
		return 0;
	if (slots == 1 || (slots & (slots - 1)))
		return error_buf(err, errlen, "futex_hash_slots: %lld is not "
				 "0 or a power of two from 2", slots);
	if (supported())
		return 0;
	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	escape_clip(q, sizeof(q), u.release, ESCAPE_QUOTE_MAX);
	return error_buf(err, errlen, "futex_hash_slots: needs Linux 6.16 with "
			 "CONFIG_FUTEX_PRIVATE_HASH; this kernel (%s) has "
			 "no private futex hash", q);
}

int futexhash_apply(long long slots, struct result *r)
{
	if (slots == FUTEXHASH_AUTO)
		return 0;
	if (call(FH_SET_SLOTS, (unsigned long)slots) < 0)
		return result_fail(r, "futex_hash_slots: the kernel refused "
				   "%lld slots: %s", slots, strerror(errno));
	return 0;
}

void futexhash_report(long long slots, struct result *r)
{
	int now = call(FH_GET_SLOTS, 0);

	if (now < 0)
		return;
	result_add(r, "futex_hash_slots", now);
	result_add(r, "futex_hash_auto", slots == FUTEXHASH_AUTO);
}
