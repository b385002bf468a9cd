#!/bin/sh
# bench/kbpf.sh - what the runner's BPF program (runner/kinstr/bpf.h,
# docs/KLOCK.md) costs the runs it times, as paired ratios of throughput
# (bench/pairci.c): each round runs a one-run experiment of the case with
# the program (bpf) and with no kernel instrument at all (CONTEND_KBPF=off
# CONTEND_KLOCK=off: neither the program nor the perf events), back to
# back, the order alternating; the throughput is read from the
# database.  Target: the 95% interval within [0.97, 1/0.97].  Needs root on
# a kernel with BTF and a build with BPF; says so and stops otherwise.
#
# `sh bench/kbpf.sh quick`: futex-mutex at 2 threads only, the case the
# program's cost shows most in (docs/KLOCK.md, "What each contention
# costs"), 30 rounds unless ROUNDS says otherwise: the cheap check after a
# change to the program (about a minute on a quiet machine).
#
# Environment (and bench/lib.sh's): ROUNDS (10), RUNTIME (0.5s), CASES
# (a subset of the case lines below, one per line, as INI keys).
set -eu
. bench/lib.sh

if [ "${1:-}" = quick ]; then
	CASES=${CASES:-"type=futex-mutex threads=2"}
	ROUNDS=${ROUNDS:-30}
elif [ $# -gt 0 ]; then
	echo "usage: sh bench/kbpf.sh [quick]" >&2
	exit 2
fi
ROUNDS=${ROUNDS:-10}
RUNTIME=${RUNTIME:-0.5s}
TARGET=0.97

bench_build pairci lib
bench_tmp

# tput FILE ENV KEY=VALUE...: one run's throughput appended to FILE
tput() {
	f=$1 e=$2
	shift 2
	{
		printf '[experiment]\nname = kbpf-bench\nrepetitions = 1\n'
		printf 'warmup = 0\nruntime = %s\n\n[workload w]\n' "$RUNTIME"
		for kv in "$@"; do
			printf '%s\n' "$kv" | sed 's/=/ = /'
		done
	} > "$tmp/b.ini"
	rm -f "$tmp/b.db"
	env $e "$CONTEND" run "$tmp/b.ini" --db "$tmp/b.db" --quiet \
		> /dev/null 2>&1
	sqlite3 "$tmp/b.db" "SELECT value FROM samples WHERE metric =
			     'throughput'" >> "$f"
}
on_bpf() { tput "$tmp/on" CONTEND_KERNEL_INSTRUMENTS=bpf "$@"; }
off_bpf() { tput "$tmp/off" "CONTEND_KBPF=off CONTEND_KLOCK=off" "$@"; }
CASES=${CASES:-"type=futex-mutex threads=2
type=pthread-mutex threads=2
type=pthread-mutex threads=1
type=creat processes=4 reuse=no
type=chat mode=threads"}

: > "$tmp/on"
tput "$tmp/on" CONTEND_KERNEL_INSTRUMENTS=bpf type=noop
if [ "$(sqlite3 "$tmp/b.db" "SELECT value FROM experiment_meta WHERE key =
			   'kernel_lock_instrument'")" != bpf ]; then
	echo "kbpf: skipped: $(sqlite3 "$tmp/b.db" "SELECT value FROM
		experiment_meta WHERE key = 'kernel_lock_instrument'")"
	exit 0
fi
echo "kbpf: BPF program / no instrument, $ROUNDS rounds of $RUNTIME," \
	"alternating (target: within $TARGET-1/$TARGET either way)"
bench_machine
printf '%-40s %12s %12s %7s %16s  %s\n' run bpf_ops/s none_ops/s ratio \
	95%_interval verdict
echo "$CASES" | while read -r c; do
	: > "$tmp/on"
	: > "$tmp/off"
	# shellcheck disable=SC2086  # split the case into its words
	bench_alternate "$ROUNDS" on_bpf off_bpf $c
	bench_rounds "$ROUNDS" "kbpf.sh: a run stored no throughput" \
		"$tmp/on" "$tmp/off"
	paste "$tmp/on" "$tmp/off" | "$BUILD/bench/pairci" "$TARGET" |
		awk -v t="$TARGET" -v r="$c" -v a="$(median "$tmp/on")" \
		    -v b="$(median "$tmp/off")" "$BENCH_BAND"'{
			v = band($4, $6, t, $12)
			hw = 100 * ($6 - $4) / 2
			v = v sprintf("; +-%.1f%%%s", hw, hw <= 2 ? "" : " (> 2%)")
			printf "%-40s %12.4g %12.4g %7.3f  [%.3f, %.3f]  %s\n",
				r, a, b, $2, $4, $6, v }'
done
bench_end
