#!/bin/sh
# bench/fidelity.sh - does the harness cost what it measures?  Runs the
# plain-C reference of the futex seed (bench/ref_fmutex.c) and
# `contend exec futex-mutex` alternately, same run length, ROUNDS times per
# case, and prints contend/reference per case: the medians of each side's
# throughputs, and the geometric mean of the per-round ratios (each
# round's two runs are adjacent in time, so slow drift of the machine
# cancels) with its 95% interval.  The verdict is the report's kind:
# "ok" when the whole interval is >= the target, "below target" when it is
# all under, else "unresolved" with the rounds that would settle it
# (bench/pairci.c).  Target: >= 0.97 in every case (docs/PERFORMANCE.md).
#
# Environment (and bench/lib.sh's): ROUNDS (30), RUNTIME (seconds per run,
# 0.5): many short rounds resist bursts of other work better than a few
# long ones.
set -eu
. bench/lib.sh

ROUNDS=${ROUNDS:-30}
RUNTIME=${RUNTIME:-0.5}
TARGET=0.97
REF=$BUILD/bench/ref_fmutex

mkdir -p "$BUILD/bench"
# shellcheck disable=SC2086  # CFLAGS is a list of flags
$CC -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $CFLAGS \
	-o "$REF" bench/ref_fmutex.c -lpthread
bench_build pairci lib

# Other work on the machine swamps a 3% effect: say so rather than let the
# table look authoritative.
if awk -v n="$(nproc)" '{ exit !($1 >= n / 2) }' /proc/loadavg; then
	echo "fidelity.sh: warning: load average $(cut -d' ' -f1 /proc/loadavg)" \
		"on $(nproc) cpus; the ratios below measure that load too" >&2
fi

bench_tmp

# throughput THREADS WORKLEN: one run of each, appended to $tmp/ref, $tmp/ctd
run_ref() {
	"$REF" "$1" "$2" "$RUNTIME" | awk '$1 == "throughput" { print $2 }' \
		>> "$tmp/ref"
}
run_contend() {
	"$CONTEND" exec futex-mutex threads="$1" worklen="$2" locks=1 \
		runtime="$RUNTIME" | awk '$1 == "throughput" { print $2 }' \
		>> "$tmp/ctd"
}

# The conditions of the figures: noise from other work shows in the load.
echo "fidelity: contend exec futex-mutex / bench/ref_fmutex," \
	"$ROUNDS rounds of ${RUNTIME}s, alternating (target >= $TARGET)"
echo "machine: $(nproc) cpus, $(sed -n 's/^model name[[:space:]]*: //p' \
	/proc/cpuinfo | head -n1), Linux $(uname -r);" \
	"load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-8s %14s %14s %8s %17s  %s\n' threads worklen contend_ops/s \
	ref_ops/s ratio 95%_interval verdict
for c in "1 0" "2 0" "2 500"; do
	# shellcheck disable=SC2086  # split the case into its two numbers
	set -- $c
	: > "$tmp/ref"
	: > "$tmp/ctd"
	bench_alternate "$ROUNDS" run_ref run_contend "$1" "$2"
	bench_rounds "$ROUNDS" "fidelity.sh: a run printed no throughput" \
		"$tmp/ref" "$tmp/ctd"
	mc=$(median "$tmp/ctd")
	mr=$(median "$tmp/ref")
	paste "$tmp/ctd" "$tmp/ref" | "$BUILD/bench/pairci" "$TARGET" |
		awk -v t="$1" -v w="$2" -v c="$mc" -v r="$mr" '{
			if ($10 == "ok") v = "ok"
			else if ($10 == "below") v = "below target"
			else v = "unresolved: " $12 " rounds would settle it"
			printf "%-8s %-8s %14.4g %14.4g %8.3f    [%.3f, %.3f]  %s\n",
				t, w, c, r, $2, $4, $6, v }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
