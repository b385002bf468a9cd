#!/bin/sh
# bench/latency.sh - run start latency: from the runner's spawn of a run
# to the release of its start barrier (the start_latency_s metric: the
# runner passes its CLOCK_MONOTONIC at spawn in CONTEND_SPAWN_NS, the
# harness subtracts it from the barrier's release).  NRUNS runs of noop
# with runtime = 10 ms under `contend run`; beside them the floor, a bare
# fork + exec of a small C program timed the same way (bench/startref.c),
# alternating in ROUNDS blocks.  Prints the distributions (median, p90,
# p99, max) and contend/floor of the medians.
# Target (docs/PERFORMANCE.md): median <= 5 ms.
#
# Environment (and bench/lib.sh's): NRUNS (200), ROUNDS (2).
set -eu
. bench/lib.sh

NRUNS=${NRUNS:-200}
ROUNDS=${ROUNDS:-2}
TARGET_MS=5

bench_build runstats lib
bench_build startref
bench_tmp
per=$((NRUNS / ROUNDS))
cat > "$tmp/latency.ini" <<INI
[experiment]
name = start-latency
repetitions = $per
warmup = 0
runtime = 10ms

[workload noop]
type = noop
INI

echo "start latency: $((per * ROUNDS)) runs of noop (runtime 10ms) in" \
	"$ROUNDS blocks, alternating with as many bare fork + exec"
bench_machine
: > "$tmp/contend"
: > "$tmp/floor"
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	rm -f "$tmp/l.db" "$tmp/l.db-wal" "$tmp/l.db-shm"
	"$CONTEND" run "$tmp/latency.ini" --db "$tmp/l.db" --quiet \
		2>> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	"$BUILD/bench/runstats" "$tmp/l.db" values start_latency_s >> "$tmp/contend"
	"$BUILD/bench/startref" "$per" >> "$tmp/floor"
	i=$((i + 1))
done
printf '%-26s %6s %10s %10s %10s %10s\n' "" n median_ms p90_ms p99_ms max_ms
for k in contend floor; do
	[ "$k" = contend ] && what="contend run -> barrier" || what="fork + exec -> main"
	printf '%-26s %6d %10.3f %10.3f %10.3f %10.3f\n' "$what" \
		"$(wc -l < "$tmp/$k")" \
		"$(awk -v x="$(median "$tmp/$k")" 'BEGIN { print 1000 * x }')" \
		"$(awk -v x="$(quantile "$tmp/$k" 1 0.90)" 'BEGIN { print 1000 * x }')" \
		"$(awk -v x="$(quantile "$tmp/$k" 1 0.99)" 'BEGIN { print 1000 * x }')" \
		"$(awk -v x="$(quantile "$tmp/$k" 1 1)" 'BEGIN { print 1000 * x }')"
done
awk -v c="$(median "$tmp/contend")" -v f="$(median "$tmp/floor")" \
    -v t="$TARGET_MS" 'BEGIN {
	printf "median %.3f ms (target <= %g ms): %s; contend/floor %.1f\n",
		1000 * c, t, 1000 * c <= t ? "ok" : "below target", c / f }'
bench_end
