#!/bin/sh
# bench/cmdcost.sh - what a `command` run costs against hyperfine's run of
# the same command.  Per-run cost is the difference of two totals
# divided by the difference of their runs, so each driver's fixed start
# (planning, host facts, the database; hyperfine's shell calibration) drops
# out: contend run of an experiment of LONG runs of `command argv = CMD`
# minus one of SHORT runs, and `hyperfine -N --runs LONG CMD` minus
# `--runs SHORT`.  Alternating, REPEAT times each; medians of the rounds'
# per-run figures: wall time, and the CPU time of the whole process tree
# (user + system), which other work on a loaded machine disturbs much
# less than it disturbs wall time.  The verdict is the median of the
# rounds' paired differences (contend - reference, each round's two
# drivers back to back), which a load that changes between rounds moves
# less than the difference of the two medians.  Without hyperfine, bench/startref.c (a bare fork +
# exec + wait of CMD) is the reference instead, and the line says so.
# Target (docs/PERFORMANCE.md): contend within 0.5 ms a run of hyperfine.
#
# Environment (and bench/lib.sh's): REPEAT (5), LONG (110), SHORT (10),
# CMD (/bin/true).
set -eu
. bench/lib.sh

REPEAT=${REPEAT:-5}
LONG=${LONG:-110}
SHORT=${SHORT:-10}
CMD=${CMD:-/bin/true}
TARGET_MS=0.5

bench_build measure
bench_build startref
bench_tmp
ini() {
	cat <<INI
[experiment]
name = command-cost
repetitions = $1
warmup = 0

[workload c]
type = command
argv = $CMD
INI
}
ini "$LONG" > "$tmp/long.ini"
ini "$SHORT" > "$tmp/short.ini"
# The database exists before the rounds, as a lab's does.
"$CONTEND" run "$tmp/short.ini" --db "$tmp/c.db" --quiet 2> "$tmp/err" ||
	{ cat "$tmp/err" >&2; exit 1; }

ref=hyperfine
bench_need hyperfine "the reference driver: apt-get install hyperfine" ||
	ref=startref
echo "command-run cost: $CMD, ($LONG - $SHORT runs), $REPEAT rounds" \
	"alternating, contend run against $ref"
bench_machine

# cost CMD...: "wall_s cpu_s" of one command (its whole process tree)
cost() {
	"$BUILD/bench/measure" "$tmp/m" "$@" 2>> "$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	tail -n1 "$tmp/m" | awk '{ print $1, $2 }'
}
# per_run "LONG_WALL LONG_CPU" "SHORT_WALL SHORT_CPU" >> FILE
per_run() {
	echo "$1 $2" | awk -v n=$((LONG - SHORT)) \
		'{ print ($1 - $3) / n, ($2 - $4) / n }'
}
contend_round() {
	l=$(cost "$CONTEND" run "$tmp/long.ini" --db "$tmp/c.db" --quiet)
	s=$(cost "$CONTEND" run "$tmp/short.ini" --db "$tmp/c.db" --quiet)
	per_run "$l" "$s" >> "$tmp/contend"
}
ref_round() {
	if [ "$ref" = hyperfine ]; then
		l=$(cost hyperfine -N --style none --runs "$LONG" "$CMD")
		s=$(cost hyperfine -N --style none --runs "$SHORT" "$CMD")
	else
		l=$(cost "$BUILD/bench/startref" "$LONG" "$CMD")
		s=$(cost "$BUILD/bench/startref" "$SHORT" "$CMD")
	fi
	per_run "$l" "$s" >> "$tmp/ref"
}
bench_alternate "$REPEAT" contend_round ref_round
paste "$tmp/contend" "$tmp/ref" | awk -v r="$ref" '{ printf "round %2d: " \
	"contend %.3f ms/run (cpu %.3f), %s %.3f ms/run (cpu %.3f)\n", NR,
	1000 * $1, 1000 * $2, r, 1000 * $3, 1000 * $4 }'
awk -v c="$(median "$tmp/contend")" -v h="$(median "$tmp/ref")" \
	-v cc="$(median "$tmp/contend" 2)" -v hc="$(median "$tmp/ref" 2)" \
	-v r="$ref" -v t="$TARGET_MS" 'BEGIN {
	printf "per-run cost (medians) contend %.3f ms, %s %.3f ms\n",
		1000 * c, r, 1000 * h
	printf "per-run cpu  (medians) contend %.3f ms, %s %.3f ms: %+.3f ms\n",
		1000 * cc, r, 1000 * hc, 1000 * (cc - hc) }'
paste "$tmp/contend" "$tmp/ref" | awk '{ print $1 - $3 }' > "$tmp/diff"
awk -v d="$(median "$tmp/diff")" -v r="$ref" -v t="$TARGET_MS" 'BEGIN {
	printf "per-run cost contend - %s, median of the rounds: %+.3f ms" \
		" (target <= +%g ms): %s\n", r, 1000 * d, t,
		1000 * d <= t ? "ok" : "missed" }'
bench_end
