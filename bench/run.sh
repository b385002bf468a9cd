#!/bin/sh
# bench/run.sh - `make bench`: the performance benchmarks of contend itself
# (not part of `make check`).  Each prints its own table; figures are
# recorded in docs/PERFORMANCE.md.
set -eu
cd "$(dirname "$0")/.."
sh bench/fidelity.sh
