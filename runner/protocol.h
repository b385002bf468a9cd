/*
 * protocol.h - the runner's side of the exec protocol: parse what
 * `contend exec` printed, and judge a finished child (its fate, its
 * output) into the status a run is stored with.
 *
 * The protocol (written by result_print):
 *
 *     NAME VALUE        one per metric; NAME is [A-Za-z_][A-Za-z0-9_.-]*,
 *                       shorter than METRIC_NAME_MAX, not "thread"/"end"
 *                       nor one of the runner's (protocol.c's list);
 *                       VALUE a finite number; each NAME at most once;
 *                       elapsed_s is required
 *     thread I OPS      per-thread (or per-process) operation counts,
 *                       I = 0, 1, 2 ... in order, OPS an unsigned integer
 *     timeline interval S         the timeline's interval, seconds, once,
 *                                 before its counts (optional)
 *     timeline I FROM C C ...     thread I's operations in intervals FROM,
 *                                 FROM + 1, ...: threads in order, each
 *                                 thread's intervals in order, every
 *                                 thread as many (runner/workloads/probe.h)
 *     end               the last line
 *
 * Single spaces between fields, every line ending in '\n', nothing after
 * "end", no NUL byte, lines at most PROTOCOL_MAX_LINE bytes, at most
 * PROTOCOL_MAX_METRICS metrics and PROTOCOL_MAX_THREADS thread lines.
 */
#ifndef CONTEND_PROTOCOL_H
#define CONTEND_PROTOCOL_H

#include <stddef.h>

#include "db/store.h"
#include "runner/spawn.h"
#include "runner/workload.h"

#define PROTOCOL_MAX_LINE    256
#define PROTOCOL_MAX_THREADS 65536
#define PROTOCOL_MAX_TIMELINE (1 << 17)   /* timeline counts in all */
/* What the runner adds to a run's metrics: room is kept for them (rusage
 * and wall_s, the run's conditions of runner/sentinel.h, and the kernel
 * lock metrics of runner/kinstr/bpf.h, the observer's two of
 * runner/observer.h). */
#define PROTOCOL_RUNNER_METRICS 43
#define PROTOCOL_MAX_METRICS (RESULT_MAX_METRICS - PROTOCOL_RUNNER_METRICS)


/*
 * Parses buf[0..len-1] into r (initialised here; release it with
 * result_release on either outcome).  Returns 0, or -1 with the reason in
 * err, e.g. "line 3: duplicate metric 'ops'", "no end line".
 */
int protocol_parse(const char *buf, size_t len, struct result *r, char *err,
		   size_t errlen);

/*
 * The status of a finished child, first match wins:
 *   killed on cancel -> RUN_INTERRUPTED   killed on timeout -> RUN_TIMEOUT
 *   stdout overflow  -> RUN_PROTOCOL      died by a signal  -> RUN_CRASHED
 *   non-zero exit    -> RUN_FAILED        unparsable output -> RUN_PROTOCOL
 *   otherwise        -> RUN_OK, with the metrics in r
 * err receives the reason for every status but RUN_OK: the signal's name,
 * the exit status and the tail of stderr, the protocol error.
 */
enum run_status protocol_judge(const struct child *c, struct result *r,
			       char *err, size_t errlen);

/*
 * The same for a workload's program the runner ran itself (a->wl->spawn,
 * workload.h): killed on cancel or timeout as above; past the output cap
 * RUN_FAILED with the workload's reason; otherwise the workload's collect
 * decides -- RUN_OK with the metrics in r, or RUN_FAILED with its reason
 * (a non-zero exit, a death by a signal, a regex that did not match).
 */
enum run_status protocol_judge_program(const struct child *c,
				       const struct wl_args *a,
				       struct result *r, char *err,
				       size_t errlen);

#endif
