#!/bin/sh
# bench/run.sh - `make bench`: the performance benchmarks of contend itself
# (not part of `make check`).  Each prints its own table, with the machine
# and its load; figures are recorded in docs/PERFORMANCE.md.  Each compares
# contend with a baseline measured in the same run; on a shared machine
# repeat and read the medians.  About 8 minutes on a 2-core machine.
#
# BENCH="report storage" runs only those (names as below).
set -eu
cd "$(dirname "$0")/.."
BENCH=${BENCH:-fidelity starts cmdcost report storage overhead latency memory auto klock kbpf}
for b in $BENCH; do
	echo "== $b"
	sh "bench/$b.sh"
	echo
done
