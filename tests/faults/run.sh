#!/bin/sh
# run.sh - `make check-faults`: every tests/faults/*.sh but lib.sh, with
# CONTEND set to the binary; ends with "N passed, N failed".
CONTEND=${1:-./contend}
export CONTEND
pass=0
fail=0
for t in tests/faults/*.sh; do
	case $t in */lib.sh|*/run.sh) continue ;; esac
	start=$(date +%s)
	if sh "$t"; then pass=$((pass + 1)); r=ok; else fail=$((fail + 1)); r=FAILED; fi
	echo "$r: $t ($(( $(date +%s) - start )) s)"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
