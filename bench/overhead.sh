#!/bin/sh
# bench/overhead.sh - what the runner costs on top of the runs it times.
# An experiment of NRUNS runs of noop with runtime = 100 ms, run by
# `contend run` into an existing database (as a lab's db/contend.db is;
# creating the file is a one-time cost, paid before the rounds): total
# wall time / sum of the runs' measured windows (their elapsed_s).  Side by
# side, the same NRUNS runs of `contend exec noop runtime=100ms` driven by
# hyperfine (-N: no shell; --show-output, so their windows are read from
# their own output).  Each driver's per-run overhead is (its total wall
# time - its runs' windows) / NRUNS: for hyperfine, its start, its
# bookkeeping and each exec's start-up and exit; for contend, the same
# plus planning, host facts and storing every run.  Alternating, REPEAT
# times each; medians.
# Targets (docs/PERFORMANCE.md): wall / windows <= 1.03; contend's per-run
# overhead no larger than hyperfine's.
#
# Environment (and bench/lib.sh's): REPEAT (5), NRUNS (100), RUNTIME (100ms).
set -eu
. bench/lib.sh

REPEAT=${REPEAT:-5}
NRUNS=${NRUNS:-100}
RUNTIME=${RUNTIME:-100ms}
RATIO_TARGET=1.03

bench_build runstats lib
bench_build measure
bench_tmp
# ini NAME REPETITIONS
ini() {
	cat <<INI
[experiment]
name = $1
repetitions = $2
warmup = 0
runtime = $RUNTIME

[workload noop]
type = noop
INI
}
ini runner-overhead "$NRUNS" > "$tmp/overhead.ini"
ini create-the-database 1 > "$tmp/create.ini"
"$CONTEND" run "$tmp/create.ini" --db "$tmp/o.db" --quiet 2>> "$tmp/err" ||
	{ cat "$tmp/err" >&2; exit 1; }

have_hf=0
bench_need hyperfine "the side-by-side driver: apt-get install hyperfine" &&
	have_hf=1
echo "runner overhead: $NRUNS runs of noop, runtime $RUNTIME, $REPEAT rounds" \
	"alternating"
bench_machine

# Each round appends "wall windows wall/windows overhead_per_run".
contend_round() {
	"$BUILD/bench/measure" "$tmp/m" "$CONTEND" run "$tmp/overhead.ini" \
		--db "$tmp/o.db" --quiet 2>> "$tmp/err"
	wall=$(tail -n1 "$tmp/m" | awk '{ print $1 }')
	"$BUILD/bench/runstats" "$tmp/o.db" sum elapsed_s | awk -v w="$wall" \
		-v n="$NRUNS" '$2 != n { print "runs " $2 " of " n > "/dev/stderr";
				 exit 1 }
		{ print w, $4, w / $4, (w - $4) / n }' >> "$tmp/contend"
}
hyperfine_round() {
	[ "$have_hf" -eq 1 ] || return 0
	: > "$tmp/hf.out"
	"$BUILD/bench/measure" "$tmp/h" -o "$tmp/hf.out" hyperfine -N \
		--runs "$NRUNS" --show-output \
		"$CONTEND exec noop runtime=$RUNTIME"
	wall=$(tail -n1 "$tmp/h" | awk '{ print $1 }')
	awk -v w="$wall" -v n="$NRUNS" '$1 == "elapsed_s" { s += $2; k++ }
		END { if (k != n) { print "hyperfine: " k " windows of " n \
				> "/dev/stderr"; exit 1 }
		      print w, s, w / s, (w - s) / n }' "$tmp/hf.out" >> "$tmp/hf"
}
bench_alternate "$REPEAT" contend_round hyperfine_round
# Every round, so the spread the load leaves is seen (each round's two
# drivers ran back to back).
if [ "$have_hf" -eq 1 ]; then
	paste "$tmp/contend" "$tmp/hf" | awk '{ printf "round %2d: contend " \
		"%.4f %.3f ms/run, hyperfine %.4f %.3f ms/run\n", NR, $3, \
		1000 * $4, $7, 1000 * $8 }'
else
	awk '{ printf "round %2d: contend %.4f %.3f ms/run\n", NR, $3, \
		1000 * $4 }' "$tmp/contend"
fi
printf '%-30s %10s %10s %10s %16s\n' driver wall_s windows_s wall/windows \
	overhead_ms/run
row() {
	printf '%-30s %10.3f %10.3f %10.4f %16.3f\n' "$1" "$(median "$2" 1)" \
		"$(median "$2" 2)" "$(median "$2" 3)" \
		"$(awk -v x="$(median "$2" 4)" 'BEGIN { print 1000 * x }')"
}
row "contend run" "$tmp/contend"
[ "$have_hf" -eq 0 ] || row "hyperfine -N (contend exec)" "$tmp/hf"
awk -v r="$(median "$tmp/contend" 3)" -v t="$RATIO_TARGET" 'BEGIN {
	printf "contend wall/windows %.4f (target <= %g): %s\n", r, t,
		r <= t ? "ok" : "below target" }'
if [ "$have_hf" -eq 1 ]; then
	awk -v c="$(median "$tmp/contend" 4)" -v h="$(median "$tmp/hf" 4)" 'BEGIN {
		printf "per-run overhead contend %.3f ms vs hyperfine %.3f ms" \
			" (target: contend <= hyperfine): %s\n", 1000 * c, 1000 * h,
			c <= h ? "ok" : "below target" }'
else
	echo "SKIP: the hyperfine comparison (hyperfine not installed)"
fi
bench_end
