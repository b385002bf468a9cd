#!/bin/sh
# bench/overhead.sh - what the runner costs on top of the runs it times.
# An experiment of NRUNS runs of noop with runtime = 100 ms, run by
# `contend run`: total wall time / sum of the runs' measured windows
# (their elapsed_s).  Side by side, the same NRUNS runs of `contend exec
# noop runtime=100ms` driven by hyperfine (-N, no shell): each driver's
# per-run overhead is (its total wall time - the windows) / NRUNS.  The
# windows of hyperfine's runs are not visible (it discards their output);
# they are taken as the mean window of contend's runs, the same command.
# Alternating, REPEAT times each; medians.
# Targets (docs/PERFORMANCE.md): wall / windows <= 1.03; contend's per-run
# overhead no larger than hyperfine's.
#
# Environment (and bench/lib.sh's): REPEAT (3), NRUNS (100), RUNTIME (100ms).
set -eu
. bench/lib.sh

REPEAT=${REPEAT:-3}
NRUNS=${NRUNS:-100}
RUNTIME=${RUNTIME:-100ms}
RATIO_TARGET=1.03

bench_build runstats lib
bench_build measure
tmp=$(mktemp -d "${TMPDIR:-/tmp}/contend-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cat > "$tmp/overhead.ini" <<INI
[experiment]
name = runner-overhead
repetitions = $NRUNS
warmup = 0
runtime = $RUNTIME

[workload noop]
type = noop
INI

have_hf=0
bench_need hyperfine "the side-by-side driver: apt-get install hyperfine" &&
	have_hf=1
echo "runner overhead: $NRUNS runs of noop, runtime $RUNTIME, $REPEAT rounds" \
	"alternating"
bench_machine

contend_round() {
	rm -f "$tmp/o.db" "$tmp/o.db-wal" "$tmp/o.db-shm"
	"$BUILD/bench/measure" "$tmp/m" "$CONTEND" run "$tmp/overhead.ini" \
		--db "$tmp/o.db" --quiet 2>> "$tmp/err"
	wall=$(tail -n1 "$tmp/m" | awk '{ print $1 }')
	"$BUILD/bench/runstats" "$tmp/o.db" sum elapsed_s | awk -v w="$wall" \
		-v n="$NRUNS" '$2 != n { print "runs " $2 " of " n > "/dev/stderr";
				 exit 1 }
		{ print w, $4, w / $4, (w - $4) / n, $6 }' >> "$tmp/contend"
}
hyperfine_round() {
	window=$(tail -n1 "$tmp/contend" | awk '{ print $5 }')
	"$BUILD/bench/measure" "$tmp/h" hyperfine -N --runs "$NRUNS" \
		--export-json "$tmp/hf.json" \
		"$CONTEND exec noop runtime=$RUNTIME"
	wall=$(tail -n1 "$tmp/h" | awk '{ print $1 }')
	# hyperfine's own mean per run (its timing of each process).
	mean=$(sed -n 's/^ *"mean": *\([0-9.e+-]*\),*$/\1/p' "$tmp/hf.json" | head -n1)
	awk -v w="$wall" -v n="$NRUNS" -v win="$window" -v m="$mean" \
		'BEGIN { print w, n * win, w / (n * win), (w - n * win) / n, m - win }' \
		>> "$tmp/hf"
}
i=0
while [ "$i" -lt "$REPEAT" ]; do
	if [ $((i % 2)) -eq 0 ] || [ "$have_hf" -eq 0 ]; then
		contend_round
		[ "$have_hf" -eq 1 ] && hyperfine_round
	else
		# hyperfine first needs a window estimate: the last contend round's
		hyperfine_round
		contend_round
	fi
	i=$((i + 1))
done
printf '%-36s %10s %10s %9s %14s\n' driver wall_s windows_s ratio overhead_ms/run
awk '{ print }' "$tmp/contend" > /dev/null
printf '%-36s %10.3f %10.3f %9.4f %14.3f\n' "contend run" \
	"$(median "$tmp/contend" 1)" "$(median "$tmp/contend" 2)" \
	"$(median "$tmp/contend" 3)" "$(awk -v x="$(median "$tmp/contend" 4)" \
	'BEGIN { print 1000 * x }')"
if [ "$have_hf" -eq 1 ]; then
	printf '%-36s %10.3f %10.3f %9.4f %14.3f\n' "hyperfine -N (contend exec)" \
		"$(median "$tmp/hf" 1)" "$(median "$tmp/hf" 2)" \
		"$(median "$tmp/hf" 3)" "$(awk -v x="$(median "$tmp/hf" 4)" \
		'BEGIN { print 1000 * x }')"
	echo "hyperfine's own timing per run minus the window:" \
		"$(awk -v x="$(median "$tmp/hf" 5)" 'BEGIN { printf "%.3f", 1000 * x }') ms" \
		"(the exec's start-up and exit, common to both drivers)"
fi
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
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
