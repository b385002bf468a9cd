#!/bin/sh
# bench/cmdcost.sh - what a `command` run costs against hyperfine's run of
# the same command.  Per-run cost is the difference of two totals
# divided by the difference of their runs, so each driver's fixed start
# (planning, host facts, the database; hyperfine's shell calibration) drops
# out: contend run of an experiment of LONG runs of `command argv = CMD`
# minus one of SHORT runs, and `hyperfine -N --runs LONG CMD` minus
# `--runs SHORT`.  Alternating, REPEAT times each; medians of the rounds'
# per-run figures.  Without hyperfine, bench/startref.c (a bare fork +
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

# wall CMD...: the wall time of one command, seconds
wall() {
	"$BUILD/bench/measure" "$tmp/m" "$@" 2>> "$tmp/err" ||
		{ cat "$tmp/err" >&2; exit 1; }
	tail -n1 "$tmp/m" | awk '{ print $1 }'
}
contend_round() {
	l=$(wall "$CONTEND" run "$tmp/long.ini" --db "$tmp/c.db" --quiet)
	s=$(wall "$CONTEND" run "$tmp/short.ini" --db "$tmp/c.db" --quiet)
	echo "$l $s" | awk -v n=$((LONG - SHORT)) '{ print ($1 - $2) / n }' \
		>> "$tmp/contend"
}
ref_round() {
	if [ "$ref" = hyperfine ]; then
		l=$(wall hyperfine -N --style none --runs "$LONG" "$CMD")
		s=$(wall hyperfine -N --style none --runs "$SHORT" "$CMD")
	else
		l=$(wall "$BUILD/bench/startref" "$LONG" "$CMD")
		s=$(wall "$BUILD/bench/startref" "$SHORT" "$CMD")
	fi
	echo "$l $s" | awk -v n=$((LONG - SHORT)) '{ print ($1 - $2) / n }' \
		>> "$tmp/ref"
}
bench_alternate "$REPEAT" contend_round ref_round
paste "$tmp/contend" "$tmp/ref" | awk -v r="$ref" '{ printf "round %2d: " \
	"contend %.3f ms/run, %s %.3f ms/run\n", NR, 1000 * $1, r, 1000 * $2 }'
awk -v c="$(median "$tmp/contend")" -v h="$(median "$tmp/ref")" \
	-v r="$ref" -v t="$TARGET_MS" 'BEGIN {
	d = 1000 * (c - h)
	printf "per-run cost contend %.3f ms, %s %.3f ms: +%.3f ms" \
		" (target <= +%g ms): %s\n", 1000 * c, r, 1000 * h, d, t,
		d <= t ? "ok" : "missed" }'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
