#!/bin/sh
# e2e_history_gate.sh - `contend history` for nightly jobs: an experiment
# whose runs print 0 is shown as a collapse and is a change point (and a
# recovery after it; a second collapse in a row is shown, not a change
# point), two sections of one experiment are one point, and
# --fail-on-change exits 0 (the newest level rules out a worse one), 3 (a
# worse level shown, or a collapse) and 4 (the spread can neither show nor
# rule it out).
NAME=e2e_history_gate
. "$(dirname "$0")/lib.sh"

# nightly LABEL LEVEL [SECTIONS [MOD]]: one experiment of three runs of
# a command printing ops LEVEL plus its pid modulo MOD (default 3: a few
# parts in a thousand; 1: none; none at level 0), in SECTIONS identical
# sections (default 1)
nightly() {
	echo "$2 ${4:-3}" > "$tmp/level"
	{
		printf '[experiment]\nname = nightly\nrepetitions = 3\n'
		printf 'warmup = 0\n'
		for s in $(seq "${3:-1}"); do
			printf '\n[workload cmd%s]\ntype = command\n' "$s"
			printf 'shell = yes\nmetric = ^ops ([0-9]+)$\n'
			# a metric of no known direction
			printf 'metric.spare = ^ops ([0-9]+)$\n'
			printf 'argv = read l m < %s; ' "$tmp/level"
			printf 'echo ops $(( l ? l + $$ %% m : 0 ))\n'
		done
	} > "$tmp/h.ini"
	"$CONTEND" run "$tmp/h.ini" --db "$tmp/h.db" --label "$1" --quiet \
		> /dev/null 2> "$tmp/err" ||
		[ "$2" = broken ] || fail "run $1: $(cat "$tmp/err")"
}

# history PATTERN ARGS...: the status of `contend history`, its output in
# $tmp/out, and in $tmp/flat with its wrapped lines joined; lines wider
# than 80 columns into $tmp/wide
history() {
	p=$1
	shift
	"$CONTEND" history --db "$tmp/h.db" "$p" "$@" > "$tmp/out" \
		2> "$tmp/err"
	set -- $?
	tr -s '\n ' '  ' < "$tmp/out" > "$tmp/flat"
	while IFS= read -r line; do
		[ ${#line} -le 80 ] || echo "$line" >> "$tmp/wide"
	done < "$tmp/out"
	echo "$1"
}

for i in 1 2 3 4 5 6; do nightly "ok-$i" 1000; done
for i in 1 2 3 4 5 6; do nightly "worse-$i" 1000; done
nightly worse-7 800
# without spread, so that no level change can be found by chance
for i in 1 2 3 4; do nightly "coll-$i" 1000 1 1; done
nightly coll-5 0 1 1
for i in 6 7 8 9; do nightly "coll-$i" 1000 1 1; done
nightly open-1 900
nightly open-2 1100
nightly open-3 950
nightly open-4 1080
nightly open-5 1000
for i in 1 2 3 4; do nightly "twin-$i" 1000 2; done
# two collapses in a row: the second is shown, not a change point
for i in 1 2 3 4; do nightly "dbl-$i" 1000 1 1; done
nightly dbl-5 0 1 1
nightly dbl-6 0 1 1
# the newest's runs all fail (the shell cannot add a word): no value
for i in 1 2 3 4; do nightly "miss-$i" 1000 1 1; done
nightly miss-5 broken 1 1

expect "ok-*, no change" 0 "$(history 'ok-*' --fail-on-change 5)"
grep -q "gate: newest .* against the old level: no worse level" "$tmp/flat" ||
	fail "ok: $(cat "$tmp/out")"

expect "worse-*, -20%" 3 "$(history 'worse-*' --fail-on-change 5)"
grep -q "gate: newest -\\(19\\|20\\)\\..* against the old level: WORSE" "$tmp/flat" ||
	fail "worse: $(cat "$tmp/out")"
"$CONTEND" history --db "$tmp/h.db" 'worse-*' --fail-on-change 5 \
	--format json > "$tmp/json"
expect "worse-* json" 3 $?
python3 - "$tmp/json" > "$tmp/py" 2>&1 <<'PY' || fail "worse JSON: $(cat "$tmp/py")"
import json, sys
h = json.load(open(sys.argv[1]))
g = h["configs"][0]["gate"]
assert h["method"]["fail_on_change_pct"] == 5, h["method"]
assert g["verdict"] == "fail", g
assert -20.5 < g["change_pct"] < -19.5, g
assert g["ci_low_pct"] <= g["change_pct"] <= g["ci_high_pct"], g
assert g["p"] < 0.05 and g["p_holm"] < 0.05, g
PY
# 20% worse rules out worse by more than 25%
expect "worse-*, 25%" 0 "$(history 'worse-*' --fail-on-change 25)"

expect "open-*" 4 "$(history 'open-*' --fail-on-change 5)"
grep -q "inconclusive" "$tmp/out" || fail "open: $(cat "$tmp/out")"

# the collapse: shown, a change point, and so is the recovery
expect "coll-*" 0 "$(history 'coll-*')"
grep -q "2 change points" "$tmp/out" || fail "coll: $(cat "$tmp/out")"
grep -q "collapse at #5, experiment [0-9]* coll-5: 3 of 3 runs <= 0" \
	"$tmp/flat" || fail "no collapse at #5: $(cat "$tmp/out")"
grep -q "recovery at #6" "$tmp/out" || fail "no recovery: $(cat "$tmp/out")"
"$CONTEND" history --db "$tmp/h.db" 'coll-*' --format json > "$tmp/json" ||
	fail "coll json exited $?"
python3 - "$tmp/json" > "$tmp/py" 2>&1 <<'PY' || fail "coll JSON: $(cat "$tmp/py")"
import json, sys
c = json.load(open(sys.argv[1]))["configs"][0]
assert len(c["points"]) == 9, c["points"]
assert c["points"][4]["state"] == "collapsed", c["points"][4]
assert c["points"][4]["mean"] == 0, c["points"][4]
assert [p["kind"] for p in c["change_points"]] == ["collapse", "recovery"], c
assert [p["index"] for p in c["change_points"]] == [4, 5], c
PY
# the figure: the collapse at its mean (0), the change points labelled
"$CONTEND" history --db "$tmp/h.db" 'coll-*' --plot "$tmp/p" > /dev/null \
	2> "$tmp/err" || fail "coll --plot: $(cat "$tmp/err")"
grep -q "^5 0 0 0\$" "$tmp/p/history-1.dat" ||
	fail "the collapse is not drawn: $(cat "$tmp/p/history-1.dat")"
grep -q "set label 1 .collapse. at 4.5" "$tmp/p/history-1.gp" ||
	fail "no collapse label: $(grep label "$tmp/p/history-1.gp")"
grep -q "set label 2 .recovery. at 5.5" "$tmp/p/history-1.gp" ||
	fail "no recovery label: $(grep label "$tmp/p/history-1.gp")"
# the newest experiment collapsed: a worse level, shown
expect "coll-1..5" 3 "$(history 'coll-[1-5]' --fail-on-change 5)"

expect "dbl-*" 0 "$(history 'dbl-*')"
grep -q "1 change point" "$tmp/out" || fail "dbl: $(cat "$tmp/out")"
grep -q "collapsed at #6, experiment [0-9]* dbl-6: 3 of 3 runs <= 0, mean 0" \
	"$tmp/flat" || fail "no collapsed #6: $(cat "$tmp/out")"

# an experiment without a value is shown as missing, and the gate cannot
# judge it
expect "miss-*" 4 "$(history 'miss-*' --fail-on-change 5)"
grep -q "missing at #5, experiment [0-9]* miss-5: no measured run" \
	"$tmp/flat" || fail "missing: $(cat "$tmp/out")"
grep -q "gate: inconclusive (the newest has no value)" "$tmp/flat" ||
	fail "missing gate: $(cat "$tmp/out")"

# two sections of one experiment are one point of its history
expect "twin-*" 0 "$(history 'twin-*')"
grep -q "^  4 experiments, 4 with a level" "$tmp/out" ||
	fail "twin: $(cat "$tmp/out")"

expect "bad PCT" 2 "$(history 'ok-*' --fail-on-change x)"
# a metric without a direction cannot be gated: bad input, named
expect "no direction" 2 "$(history 'ok-*' --metric spare --fail-on-change 5)"
grep -q "metric 'spare' has no direction" "$tmp/err" ||
	fail "no direction: $(cat "$tmp/err")"
[ -s "$tmp/wide" ] && fail "wider than 80 columns: $(head -n 3 "$tmp/wide")"
[ "$fails" -eq 0 ] && echo "$NAME: --fail-on-change exits 0, 3 and 4; a collapse is a change point; sections are one point"
[ "$fails" -eq 0 ]
