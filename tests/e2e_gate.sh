#!/bin/sh
# e2e_gate.sh - compare's three-way gate (--fail-on-regression PCT) on
# experiments of a `command` workload whose values a seeded awk draws
# (log-normal around a level, the seed a counter): a well-resolved A/A
# passes (exit 0), a real 10% loss fails (3), an underpowered A/B (CV
# 40%, 2 boots of 3 runs a side) is inconclusive (4), naming the
# configuration, what the design detects and the plan that would
# decide, in text and JSON.
NAME=e2e_gate
. "$(dirname "$0")/lib.sh"

db=$tmp/g.db
echo 1 > "$tmp/count"
# boots LABEL N REPS LEVEL CV: N experiments of REPS runs under LABEL
boots() {
	echo "$4 $5" > "$tmp/level"
	cat > "$tmp/g.ini" <<INI
[experiment]
name        = gate
repetitions = $3
warmup      = 0

[workload cmd]
type   = command
shell  = yes
argv   = read l s < $tmp/level; read c < $tmp/count; echo \$((c + 1)) > $tmp/count; awk -v l=\$l -v s=\$s -v c=\$c 'BEGIN { srand(c); u = rand(); v = rand(); if (u < 1e-9) u = 1e-9; printf "ops %.4f\\n", l * exp(s * sqrt(-2 * log(u)) * cos(6.283185307 * v)) }'
metric = ^ops ([0-9.]+)\$
INI
	i=0
	while [ "$i" -lt "$2" ]; do
		"$CONTEND" run "$tmp/g.ini" --db "$db" --label "$1" --quiet \
			> /dev/null 2>&1 || die "run $1 $i"
		i=$((i + 1))
	done
}
gate() {
	"$CONTEND" compare "$1" "$2" --db "$db" \
		--fail-on-regression 5 ${3:-} \
		> "$tmp/out" 2> "$tmp/err"
}
flat() { tr -s ' \n' '  ' < "$1"; }

boots base 3 10 1000 0.005
boots same 3 10 1000 0.005
boots slow 3 10 900 0.005
boots nbase 2 3 1000 0.4
boots ncand 2 3 1000 0.4

gate base same
expect "well-resolved A/A passes" 0 $?
flat "$tmp/out" | grep -q "passed .* passes: cmd " ||
	fail "A/A: $(cat "$tmp/out")"
gate base slow
expect "a 10% loss fails" 3 $?
flat "$tmp/out" | grep -q "FAILED (exit 3) .* fails: cmd " ||
	fail "10% loss: $(cat "$tmp/out")"
gate nbase ncand
expect "underpowered: inconclusive" 4 $?
flat "$tmp/out" | grep -q "INCONCLUSIVE (exit 4) .* inconclusive: cmd .* this design detects changes of [0-9.]*%; about [0-9]* boots x [0-9]* runs a side would decide" ||
	fail "underpowered, text: $(cat "$tmp/out")"
grep -q "regression gate inconclusive: 1 of 1 configuration" "$tmp/err" ||
	fail "underpowered, stderr: $(cat "$tmp/err")"
if command -v python3 > /dev/null 2>&1; then
	gate nbase ncand "--format json"
	expect "json: the same status" 4 $?
	expect "json: each configuration's result and plan, the summary's" \
		"inconclusive True inconclusive 4 1" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
g = d["comparisons"][0]["gate"]
s = d["regression"]
print(g["result"], g["plan"]["boots"] >= 2, s["result"], s["exit"],
      s["inconclusive"])' "$tmp/out")"
fi
[ "$fails" -eq 0 ] && echo "$NAME: pass 0, fail 3, inconclusive 4 with what would decide"
[ "$fails" -eq 0 ]
