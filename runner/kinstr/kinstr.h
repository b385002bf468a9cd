/*
 * kinstr.h - the kernel lock instrument of a session: one setting, chosen
 * once before the first run from `kernel_instruments` (a list in order of
 * preference) and handed to every run as an argument (exec's
 * --kernel-instrument); an instrument asked for that cannot run here is
 * refused, never silently dropped (docs/KLOCK.md, "Choosing the instrument").
 *
 * Call sequence (runner/start.c):
 *	kinstr_parse(text, &list, ...)       // the INI key, or KINSTR_ENV
 *	kinstr_choose(&list, &k, why, ...)   // the first usable; -1: none
 *	... the session runs with k, stored as kinstr_names[k] ...
 */
#ifndef CONTEND_KINSTR_H
#define CONTEND_KINSTR_H

#include <stddef.h>

/*
 * none: nothing in the kernel; count: one counting perf event on
 * lock:contention_begin (runner/kinstr/count.h); kinds: one per lock kind too;
 * bpf: the runner's BPF program times every wait (runner/kinstr/bpf.h).
 */
enum kinstr { KINSTR_NONE, KINSTR_COUNT, KINSTR_KINDS, KINSTR_BPF,
	      KINSTR_N };
extern const char *const kinstr_names[]; /* indexed by enum kinstr; NULL */

/* The one environment override of the file's list, for one session. */
#define KINSTR_ENV "CONTEND_KERNEL_INSTRUMENTS"

/* An instrument list, in order of preference. */
struct kinstr_list {
	enum kinstr k[KINSTR_N];
	size_t n;
};

/*
 * "bpf, count": words of kinstr_names, comma-separated, each once, none
 * only last.  Returns 0, or -1 with the reason in err.  field is a
 * struct kinstr_list (the INI table's parse callback).
 */
int kinstr_parse(const char *text, void *field, char *err, size_t errlen);
/* "bpf, count": the list as the file would give it, into buf. */
const char *kinstr_list_text(const struct kinstr_list *l, char *buf,
			     size_t len);

/*
 * The first instrument of l that can run here, into *out; skipped gets
 * why each one before it was passed over ("" none).  Returns 0, or -1
 * with each one's reason in skipped (none can run).
 */
int kinstr_choose(const struct kinstr_list *l, enum kinstr *out,
		  char *skipped, size_t len);

/*
 * The variables that chose the instrument before it was one setting
 * (CONTEND_KBPF=on, CONTEND_KLOCK=on|kinds|bpf): 0 when none is set to
 * anything but off (off: the documented fakes of a host without BPF or
 * without the tracepoint), else -1 after saying what to use instead.
 */
int kinstr_env_check(void);

#endif
