#!/bin/sh
# bench/klock.sh - what contend's instruments cost the run they measure,
# as paired ratios of throughput (bench/pairci.c): the kernel lock counters
# (runner/kinstr/count.h; off = CONTEND_KLOCK=off, a kernel without the
# tracepoint) and the lock workloads' probed loop (timeline = 10ms,
# latency_every = 1000; off = neither key), and the streak sampler at 1 ms
# (timeline = auto) against 10 ms.  Each round runs both variants
# back to back, the order alternating.  Target: the ratio's 95% interval
# within [0.97, 1/0.97] (an instrument may change what it measures in
# neither direction: BENCH_BAND, bench/lib.sh), and the interval
# resolved to +-2% (its half-width is printed; more ROUNDS narrow it)
# (docs/PERFORMANCE.md "Instruments").  The "record" rows measure what
# recording every contention_begin/end into a ring buffer costs (`perf
# lock record`, what a per-run klock_wait_s would need): no target, the
# reason klock_wait_s is not measured per run.
#
# Environment (and bench/lib.sh's): ROUNDS (10), RUNTIME (0.5), CASES
# (a subset of the case lines below, one per line).
set -eu
. bench/lib.sh

ROUNDS=${ROUNDS:-10}
RUNTIME=${RUNTIME:-0.5}
TARGET=0.97

bench_build pairci lib
bench_tmp

# tput FILE ENV ARGS...: one run's throughput appended to FILE
tput() {
	f=$1 e=$2
	shift 2
	env $e "$CONTEND" exec "$@" | awk '$1 == "throughput" { print $2 }' >> "$f"
}
on_klock() { tput "$tmp/on" CONTEND_KLOCK= "$@" --kernel-instrument count; }
off_klock() { tput "$tmp/off" CONTEND_KLOCK=off "$@"; }
on_probe() { tput "$tmp/on" CONTEND_KLOCK=off "$@" timeline=10ms latency_every=1000; }
off_probe() { tput "$tmp/off" CONTEND_KLOCK=off "$@"; }
# the streak figure's sampler at timeline = auto (1 ms) against 10 ms: the
# same probed loop, only the sampler thread wakes ten times as often
on_sampler() { tput "$tmp/on" CONTEND_KLOCK=off "$@" timeline=auto; }
off_sampler() { tput "$tmp/off" CONTEND_KLOCK=off "$@" timeline=10ms; }
on_record() {
	perf lock record -q -o "$tmp/perf.data" -- "$CONTEND" exec "$@" \
		2> /dev/null | awk '$1 == "throughput" { print $2 }' >> "$tmp/on"
}
off_record() { tput "$tmp/off" CONTEND_KLOCK= "$@" --kernel-instrument count; }
CASES=${CASES:-"klock futex-mutex threads=2
klock pthread-mutex threads=2
klock chat mode=threads
klock creat processes=4 reuse=no
probe futex-mutex threads=2
probe pthread-mutex threads=1
probe pthread-mutex threads=2
sampler futex-mutex threads=2
sampler pthread-mutex threads=2
record futex-mutex threads=2
record chat mode=threads"}

echo "klock: instrument on / off, $ROUNDS rounds of ${RUNTIME}s," \
	"alternating (target: within $TARGET-1/$TARGET either way)"
bench_machine
printf '%-7s %-34s %12s %12s %7s %16s  %s\n' what run on_ops/s off_ops/s \
	ratio 95%_interval verdict
echo "$CASES" | while read -r what c; do
	# shellcheck disable=SC2086  # split the case into its words
	set -- $c
	if [ "$what" = record ] && ! bench_need perf "perf lock record"; then
		continue
	fi
	: > "$tmp/on"
	: > "$tmp/off"
	case $1 in
	chat) dur= ;;
	*) dur=runtime=$RUNTIME ;;
	esac
	# shellcheck disable=SC2086
	bench_alternate "$ROUNDS" "on_$what" "off_$what" "$@" $dur
	bench_rounds "$ROUNDS" "klock.sh: a run printed no throughput" \
		"$tmp/on" "$tmp/off"
	paste "$tmp/on" "$tmp/off" | "$BUILD/bench/pairci" "$TARGET" |
		awk -v t="$TARGET" -v w="$what" -v r="$*" -v a="$(median "$tmp/on")" \
		    -v b="$(median "$tmp/off")" "$BENCH_BAND"'{
			v = band($4, $6, t, $12)
			# resolved to +-2%: half the width of the interval
			hw = 100 * ($6 - $4) / 2
			v = v sprintf("; +-%.1f%%%s", hw, hw <= 2 ? "" : " (> 2%)")
			printf "%-7s %-34s %12.4g %12.4g %7.3f  [%.3f, %.3f]  %s\n",
				w, r, a, b, $2, $4, $6, v }'
done
bench_end
