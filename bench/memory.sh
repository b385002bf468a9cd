#!/bin/sh
# bench/memory.sh - the runner's peak RSS over plans of SMALL and LARGE
# runs (1,000 and 10,000) of noop with runtime = 1 ms: the VmHWM of the
# `contend run` process itself, read from /proc while it runs
# (bench/measure.c; beside it wait4's maxrss, the largest of the runner
# and the runs it spawned).  Growth per added run = (large - small) / (LARGE -
# SMALL).
# Targets (docs/PERFORMANCE.md): under 20 MiB at LARGE runs; not growing
# with the number of runs (the LARGE plan's peak within 1 MiB of the
# SMALL one's).
#
# Environment (and bench/lib.sh's): SMALL (1000), LARGE (10000).
set -eu
. bench/lib.sh

SMALL=${SMALL:-1000}
LARGE=${LARGE:-10000}
LIMIT_KB=$((20 * 1024))
GROWTH_KB=1024

bench_build measure
bench_tmp

echo "runner memory: plans of $SMALL and $LARGE runs of noop, runtime 1ms"
bench_machine
for n in "$SMALL" "$LARGE"; do
	cat > "$tmp/m$n.ini" <<INI
[experiment]
name = runner-memory
repetitions = $n
warmup = 0
runtime = 1ms

[workload noop]
type = noop
INI
	"$BUILD/bench/measure" "$tmp/m$n" "$CONTEND" run "$tmp/m$n.ini" \
		--db "$tmp/m$n.db" --quiet 2>> "$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
done
printf '%-8s %10s %16s %22s\n' runs wall_s runner_peak_MiB "wait4 maxrss_MiB"
for n in "$SMALL" "$LARGE"; do
	awk -v n="$n" '{ printf "%-8d %10.1f %16.2f %22.2f\n", n, $1, $4 / 1024,
		$3 / 1024 }' "$tmp/m$n"
done
awk -v s="$(awk '{ print $4 }' "$tmp/m$SMALL")" \
    -v l="$(awk '{ print $4 }' "$tmp/m$LARGE")" -v ns="$SMALL" -v nl="$LARGE" \
    -v lim="$LIMIT_KB" -v g="$GROWTH_KB" 'BEGIN {
	printf "peak at %d runs %.2f MiB (target < %d MiB): %s\n", nl, l / 1024,
		lim / 1024, (l > 0 && l < lim) ? "ok" : "below target"
	printf "growth %+.2f MiB from %d to %d runs, %.0f bytes per run" \
		" (target within %d MiB): %s\n", (l - s) / 1024, ns, nl,
		1024 * (l - s) / (nl - ns), g / 1024,
		(l - s <= g) ? "ok" : "below target" }'
bench_end
