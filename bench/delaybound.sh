#!/bin/sh
# bench/delaybound.sh - kernel_delay's bound, measured: the worst wakeup
# of a SCHED_FIFO probe on each CPU (bench/delaybound.c, a 1 ms period)
# while contend runs the worst case, kernel_delay at its 10 ms cap on
# try_to_wake_up (chat: the run-queue and wakeup locks, raw spinlocks,
# taken with interrupts off) and on a rwsem (creat with reuse = no: the
# directory's i_rwsem, at do_unlinkat); each with kernel_delay = 0 too.
# Target (docs/KLOCK.md, "The delay's bounds"): the worst wakeup under
# the delay within the cap plus 2 ms, 12 ms.  Also prints the delays made
# and refused by reason (klock_delayed, klock_delay_refused_*).
#
# Needs root, BPF (as kernel_delay does) and a quiet machine: the figure
# is taken there (bench/lib.sh, BENCH_QUIET), not on a shared one.  Not in
# bench/run.sh: it slows the whole machine on purpose.
#
# Environment (and bench/lib.sh's): SECS (20, the probe's window per
# case), CASES (a subset of: chat-off chat-on creat-off creat-on).
set -eu
. bench/lib.sh

SECS=${SECS:-20}
CASES=${CASES:-chat-off chat-on creat-off creat-on}
CAP_MS=10
TARGET_MS=$((CAP_MS + 2))

bench_build delaybound
bench_tmp
bench_machine

# ini CASE: the experiment of a case, on stdout
ini() {
	case $1 in
	chat-*)  fn=try_to_wake_up w="type = chat
mode = threads" ;;
	creat-*) fn=do_unlinkat w="type = creat
processes = 4
reuse = no" ;;
	esac
	case $1 in
	*-on)  d="${CAP_MS}ms@$fn" ;;
	*-off) d=0 ;;
	esac
	printf '[experiment]\nname = delaybound\nrepetitions = 1\nwarmup = 0\n'
	printf 'runtime = 1s\nkernel_instruments = bpf\n\n'
	printf '[workload %s]\n%s\nkernel_delay = %s\n' "$1" "$w" "$d"
}

printf '%-10s %-5s %10s\n' case cpu worst_ms
for c in $CASES; do
	ini "$c" > "$tmp/$c.ini"
	"$BUILD/bench/delaybound" "$SECS" > "$tmp/$c.probe" &
	probe=$!
	# the workload runs, a run after another, for the whole window
	while kill -0 "$probe" 2>/dev/null; do
		"$CONTEND" run "$tmp/$c.ini" --db "$tmp/$c.db" --quiet \
			> /dev/null 2>> "$tmp/$c.err" ||
			{ echo "$c: contend run failed: $(tail -n 3 "$tmp/$c.err")" >&2
			  kill "$probe"; exit 1; }
	done
	wait "$probe" || { echo "$c: the probe failed (root?)" >&2; exit 1; }
	awk -v c="$c" '$1 == "cpu" { printf "%-10s %-5s %10.2f\n", c, $2, $4 / 1000 }' \
		"$tmp/$c.probe"
	worst=$(awk '$1 == "worst_us" { printf "%.2f", $2 / 1000 }' "$tmp/$c.probe")
	case $c in
	*-on) verdict=$(awk -v w="$worst" -v t="$TARGET_MS" 'BEGIN {
		print (w <= t) ? "within " t " ms" : "OVER " t " ms" }') ;;
	*) verdict="(no delay)" ;;
	esac
	sqlite3 "$tmp/$c.db" "SELECT metric, sum(value) FROM samples
		WHERE metric = 'klock_delayed' OR metric LIKE 'klock_delay_refused_%'
		GROUP BY metric ORDER BY metric" | tr '|' ' ' |
		awk -v c="$c" '{ printf "%-10s %s %d\n", c, $1, $2 }'
	printf '%-10s worst %s ms: %s\n' "$c" "$worst" "$verdict"
done
bench_end
