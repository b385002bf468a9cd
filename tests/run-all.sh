#!/bin/sh
# Runs every unit test binary in BUILD/tests and every end-to-end script
# tests/e2e_*.sh, each with its time, then prints one closing line "N passed, N failed".
BUILD=${1:-build}
CONTEND=${2:-./contend}
export CONTEND
pass=0
fail=0
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	start=$(date +%s)
	if "$t"; then pass=$((pass + 1)); r=ok; else fail=$((fail + 1)); r=FAILED; fi
	echo "$r: $t ($(( $(date +%s) - start )) s)"
done
for t in tests/e2e_*.sh; do
	[ -f "$t" ] || continue
	start=$(date +%s)
	if sh "$t"; then pass=$((pass + 1)); r=ok; else fail=$((fail + 1)); r=FAILED; fi
	echo "$r: $t ($(( $(date +%s) - start )) s)"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
