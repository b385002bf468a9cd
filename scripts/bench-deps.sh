#!/bin/sh
# Installs what `make bench` compares contend with beyond the build:
# hyperfine (bench/cmdcost.sh and overhead.sh time the same commands with
# it; without it they fall back to bench/startref.c and say so), perf
# (bench/klock.sh's record rows) and valgrind (fidelity.sh's instruction
# counts).  Installs with apt-get when run as root, otherwise prints the
# command and fails.  Does nothing when everything is present.
set -e
missing=""
have() { command -v "$1" >/dev/null 2>&1; }
have hyperfine || missing="$missing hyperfine"
have perf || missing="$missing linux-perf"
have valgrind || missing="$missing valgrind"
# shellcheck disable=SC2086  # a list of package names
exec sh "$(dirname "$0")/install-missing.sh" $missing
