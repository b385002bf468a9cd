#!/bin/sh
# Runs every unit test binary in BUILD/tests and every end-to-end script
# tests/e2e_*.sh, then prints one closing line "N passed, N failed".
BUILD=${1:-build}
CONTEND=${2:-./contend}
export CONTEND
pass=0
fail=0
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	if "$t"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAILED: $t"; fi
done
for t in tests/e2e_*.sh; do
	[ -f "$t" ] || continue
	if sh "$t"; then pass=$((pass + 1)); echo "ok: $t"; else fail=$((fail + 1)); echo "FAILED: $t"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
