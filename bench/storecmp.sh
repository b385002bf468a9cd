#!/bin/sh
# bench/storecmp.sh - the store of this tree against another build of it
# (BASE_LIB, the libcontend.a of the commit to compare with), side by side
# in one run: bench/storebench.c built against each, then REPEAT rounds,
# the two in alternating order, each round recording NRUNS runs (NMETRICS
# metrics, NTHREADS thread counts, one transaction each: `rate store`) into
# a fresh file and loading the result (`load`, the fastest of 3).  Prints
# the medians and the paired ratios this/base with their 95% intervals
# (bench/pairci.c).  Not part of `make bench`: it needs the second build.
#
#   git worktree add /tmp/base main && make -C /tmp/base build/libcontend.a
#   BASE_LIB=/tmp/base/build/libcontend.a sh bench/storecmp.sh
#
# Environment (and bench/lib.sh's): BASE_LIB (required), REPEAT (9),
# NRUNS (2000), NMETRICS (20), NTHREADS (64).
set -eu
. bench/lib.sh

: "${BASE_LIB:?BASE_LIB: the libcontend.a to compare with}"
REPEAT=${REPEAT:-9}
NRUNS=${NRUNS:-2000}
NMETRICS=${NMETRICS:-20}
NTHREADS=${NTHREADS:-64}

bench_build storebench lib
bench_build pairci lib
# shellcheck disable=SC2086,SC2046  # flag lists, split on purpose
$CC $BENCH_WARN $CFLAGS -I. $(pkg-config --cflags $BENCH_PKGS) \
	-o "$BUILD/bench/storebench-base" bench/storebench.c "$BASE_LIB" \
	$(pkg-config --libs $BENCH_PKGS) -lpthread -lm
bench_tmp "$BUILD/bench"

echo "storecmp: $NRUNS runs x ($NMETRICS metrics + $NTHREADS thread counts)," \
	"recorded then loaded, $REPEAT rounds, alternating; base $BASE_LIB"
bench_machine
round() { # round NAME BINARY: one record and load, appended to $tmp/NAME
	rm -f "$tmp/r.db" "$tmp/r.db-wal" "$tmp/r.db-shm"
	w=$("$2" rate store "$tmp/r.db" "$NRUNS" "$NMETRICS" "$NTHREADS" |
		awk '$1 == "runs_per_s" { print $2 }')
	l=$("$2" load "$tmp/r.db" 3 | awk '$1 == "load_s" { print $2 }')
	echo "$w $l" >> "$tmp/$1"
}
this() { round this "$BUILD/bench/storebench"; }
base() { round base "$BUILD/bench/storebench-base"; }
bench_alternate "$REPEAT" this base
bench_rounds "$REPEAT" "storecmp.sh: a round printed nothing" \
	"$tmp/this" "$tmp/base"
echo "record, runs/s: this $(median "$tmp/this" 1), base $(median "$tmp/base" 1)"
echo "load, s:        this $(median "$tmp/this" 2), base $(median "$tmp/base" 2)"
printf "record rate this/base: "
paste "$tmp/this" "$tmp/base" | awk '{ print $1, $3 }' |
	"$BUILD/bench/pairci" 1 | awk '{ print $2, "[" $4 ", " $6 "]" }'
printf "load time   this/base: "
paste "$tmp/this" "$tmp/base" | awk '{ print $2, $4 }' |
	"$BUILD/bench/pairci" 1 | awk '{ print $2, "[" $4 ", " $6 "]" }'
bench_end
