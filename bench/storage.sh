#!/bin/sh
# bench/storage.sh - runs stored per second, each run NMETRICS metrics and
# NTHREADS thread rows (20 and 64) in its own transaction, as the runner
# stores them.  Alternating, REPEAT times each, on the file system of the
# build directory (where db/contend.db lives, not a tmpfs):
# store_run_record (bench/storebench.c rate store) and the baseline, the
# least SQL that stores the same rows (rate sql).  Prints the medians and
# store/SQL.  A figure, not a target: at R runs/s storing costs 1/R s per
# run (docs/PERFORMANCE.md).
#
# Environment (and bench/lib.sh's): REPEAT (5), NRUNS (2000), NMETRICS
# (20), NTHREADS (64).
set -eu
. bench/lib.sh

REPEAT=${REPEAT:-5}
NRUNS=${NRUNS:-2000}
NMETRICS=${NMETRICS:-20}
NTHREADS=${NTHREADS:-64}

bench_build storebench lib
bench_tmp "$BUILD/bench"   # on the build's file system, not a tmpfs

echo "storage: $NRUNS runs x ($NMETRICS metrics + $NTHREADS thread rows)," \
	"one transaction each, $REPEAT rounds, alternating;" \
	"$(df -T "$tmp" | awk 'NR == 2 { print $2 }') file system"
bench_machine
rate() {
	rm -f "$tmp/rate.db" "$tmp/rate.db-wal" "$tmp/rate.db-shm"
	"$BUILD/bench/storebench" rate "$1" "$tmp/rate.db" "$NRUNS" "$NMETRICS" \
		"$NTHREADS" | awk '$1 == "runs_per_s" { print $2 }' >> "$tmp/$1"
}
bench_alternate "$REPEAT" "rate store" "rate sql"
bench_rounds "$REPEAT" "storage.sh: a round printed no rate" \
	"$tmp/store" "$tmp/sql"
awk -v st="$(median "$tmp/store")" -v sq="$(median "$tmp/sql")" 'BEGIN {
	printf "store_run_record: %.0f runs/s (%.3f ms per run)\n", st, 1000 / st
	printf "plain SQL:        %.0f runs/s (%.3f ms per run)\n", sq, 1000 / sq
	printf "store/SQL: %.2f\n", st / sq }'
bench_end
