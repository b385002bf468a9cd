#!/bin/sh
# e2e_series.sh - one model of runs (docs/STATISTICS.md, "One model of
# runs"): an experiment with two sections of the same workload and
# parameters, run twice a side, is compared as two invocations a side
# (not four), its runs pooled per experiment; one experiment a side says
# "one experiment a side" in text and JSON; levels counts each
# experiment once with both sections' runs.
NAME=e2e_series
. "$(dirname "$0")/lib.sh"
db=$tmp/s.db

cat > "$tmp/s.ini" <<'EOF2'
[experiment]
name        = twins
repetitions = 3
warmup      = 0
seed        = 7

[workload one]
type    = noop
spin    = 10
runtime = 10ms

[workload two]
type    = noop
spin    = 10
runtime = 10ms
EOF2
for label in A A B B; do
	"$CONTEND" run "$tmp/s.ini" --db "$db" --label $label --quiet \
		>/dev/null 2>&1 || die "run $label failed"
done

"$CONTEND" compare --db "$db" A B --format json >"$tmp/two.json" 2>"$tmp/err"
st=$?
[ "$st" -eq 0 ] || fail "compare A B exited $st ($(cat "$tmp/err"))"
expect "configurations compared" 1 \
	"$(grep -c '"config":' "$tmp/two.json")"
expect "invocations a side (baseline, candidate)" "2 2" \
	"$(grep -o '"invocations": [0-9]*' "$tmp/two.json" |
	   sed 's/.*: //' | tr '\n' ' ' | sed 's/ $//')"
expect "runs a side" "12 12" \
	"$(grep -o '"invocations": [0-9]*, "runs": [0-9]*' "$tmp/two.json" |
	   sed 's/.*: //' | tr '\n' ' ' | sed 's/ $//')"
grep -q "single-invocation" "$tmp/two.json" &&
	fail "two experiments a side flagged single-invocation"

# One experiment a side: said in text and in JSON.
"$CONTEND" compare --db "$db" 'A~newest' 'B~newest' >"$tmp/one.txt" 2>&1 ||
	fail "compare of one experiment a side failed"
tr '\n' ' ' <"$tmp/one.txt" | tr -s ' ' | grep -q "one experiment a side" ||
	fail "text does not say one experiment a side"
"$CONTEND" compare --db "$db" 'A~newest' 'B~newest' --format json \
	>"$tmp/one.json" 2>/dev/null || fail "json of one experiment a side"
grep -q "one experiment a side" "$tmp/one.json" ||
	fail "json does not say one experiment a side"
expect "invocations, one a side" "1 1" \
	"$(grep -o '"invocations": [0-9]*' "$tmp/one.json" |
	   sed 's/.*: //' | tr '\n' ' ' | sed 's/ $//')"

# levels: two invocations of 6 runs each (both sections).
"$CONTEND" levels --db "$db" A --format json >"$tmp/lv.json" 2>"$tmp/err" ||
	fail "levels A failed ($(cat "$tmp/err"))"
expect "levels: runs of each invocation" "6 6" \
	"$(grep -A1 '"experiment":' "$tmp/lv.json" | grep '"n":' |
	   sed 's/[^0-9]//g' | tr '\n' ' ' | sed 's/ $//')"

[ "$fails" -eq 0 ]
