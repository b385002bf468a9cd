#!/bin/sh
# bench/fidelity.sh - does the harness cost what it measures?  Runs the
# plain-C reference of the futex seed (bench/ref_fmutex.c) and
# `contend exec futex-mutex` alternately, same run length, ROUNDS times per
# case, and prints contend/reference per case: the ratio of the median
# throughputs, and the median of the per-round ratios (each round's two
# runs are adjacent in time, so slow drift of the machine cancels).
# Target: >= 0.97 in every case (docs/PERFORMANCE.md).
#
# Environment (and bench/lib.sh's): ROUNDS (15), RUNTIME (seconds per run,
# 0.5): many short rounds resist bursts of other work better than a few
# long ones.
set -eu
. bench/lib.sh

ROUNDS=${ROUNDS:-15}
RUNTIME=${RUNTIME:-0.5}
TARGET=0.97
REF=$BUILD/bench/ref_fmutex

mkdir -p "$BUILD/bench"
# shellcheck disable=SC2086  # CFLAGS is a list of flags
$CC -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $CFLAGS \
	-o "$REF" bench/ref_fmutex.c -lpthread

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
printf '%-8s %-8s %14s %14s %8s %8s  %s\n' threads worklen contend_ops/s \
	ref_ops/s ratio paired verdict
for c in "1 0" "2 0" "2 500"; do
	# shellcheck disable=SC2086  # split the case into its two numbers
	set -- $c
	: > "$tmp/ref"
	: > "$tmp/ctd"
	bench_alternate "$ROUNDS" run_ref run_contend "$1" "$2"
	bench_rounds "$ROUNDS" "fidelity.sh: a run printed no throughput" \
		"$tmp/ref" "$tmp/ctd"
	paste "$tmp/ctd" "$tmp/ref" | awk '{ print $1 / $2 }' > "$tmp/pair"
	mc=$(median "$tmp/ctd")
	mr=$(median "$tmp/ref")
	mp=$(median "$tmp/pair")
	awk -v t="$1" -v w="$2" -v c="$mc" -v r="$mr" -v p="$mp" -v g="$TARGET" \
		'BEGIN { q = c / r
			 printf "%-8s %-8s %14.4g %14.4g %8.3f %8.3f  %s\n", t, w,
				c, r, q, p, (q >= g) ? "ok" : "below target" }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
