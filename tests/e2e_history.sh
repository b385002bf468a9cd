#!/bin/sh
# e2e_history.sh - `contend history PATTERN` through the binary: a series
# of ten experiments whose level steps up 10% at the sixth shows one change
# point there (text and JSON: index, experiment_id, change and interval),
# a series of identical levels shows none, the pattern is quoted
# escaped, --plot draws the figure (its title naming only the parameters
# that are not defaults), and bad input (one experiment, an unknown
# metric, no database) exits 2.
NAME=e2e_history
. "$(dirname "$0")/lib.sh"

# series LABEL LEVEL SPREAD: one experiment of three runs of the same
# command (the kernel changes, not the configuration) printing LEVEL plus
# SPREAD times its pid modulo 7 (a few parts in a thousand)
series() {
	echo "$2 $3" > "$tmp/level"

	cat > "$tmp/h.ini" <<INI
[experiment]
name        = nightly
repetitions = 3
warmup      = 0

[workload cmd]
type   = command
shell  = yes
argv   = read l s < $tmp/level; echo ops \$((\$\$ % 7 * s + l))
metric = ^ops ([0-9]+)\$
INI
	"$CONTEND" run "$tmp/h.ini" --db "$tmp/h.db" --label "$1" --quiet \
		> /dev/null 2> "$tmp/err" || fail "run $1: $(cat "$tmp/err")"
}
# without spread, so that no second change can be found by chance (a
# series without a change shows one in alpha = 5% of series)
for i in 01 02 03 04 05; do series "nightly-$i" 1000 0; done
for i in 06 07 08 09 10; do series "nightly-$i" 1100 0; done
for i in 01 02 03 04 05 06; do series "flat-$i" 1000 0; done

"$CONTEND" history --db "$tmp/h.db" 'nightly-*' > "$tmp/out" 2> "$tmp/err" ||
	fail "history exited $?: $(cat "$tmp/err")"
grep -q "^history of 10 experiments matching 'nightly-\*'" "$tmp/out" ||
	fail "no heading: $(head -n 2 "$tmp/out")"
grep -q "1 change point" "$tmp/out" || fail "no change point: $(cat "$tmp/out")"
grep -q "change from #6, experiment 6 nightly-06: +\\(9\\|10\\)\\." "$tmp/out" ||
	fail "the change is not at #6: $(cat "$tmp/out")"

"$CONTEND" history --db "$tmp/h.db" 'nightly-*' --format json > "$tmp/json" ||
	fail "history --format json exited $?"
python3 - "$tmp/json" > "$tmp/cp" <<'PY' || fail "JSON: $(cat "$tmp/cp")"
import json, sys
h = json.load(open(sys.argv[1]))
cps = h["configs"][0]["change_points"]
assert len(cps) == 1, cps
c = cps[0]
# the levels are 1000 and 1100: +10% exactly, and no spread to widen it
assert c["index"] == 5 and c["experiment_id"] == 6, c
assert abs(c["change_pct"] - 10) < 1e-9, c
assert abs(c["ci_low_pct"] - 10) < 1e-9, c
assert abs(c["ci_high_pct"] - 10) < 1e-9, c
print("ok")
PY

"$CONTEND" history --db "$tmp/h.db" 'flat-*' > "$tmp/out" 2>&1 ||
	fail "history of flat exited $?"
grep -q ": no change point" "$tmp/out" || fail "flat: $(cat "$tmp/out")"
# the pattern as typed is quoted escaped: an ESC in it reaches no terminal
esc=$(printf '\033')
"$CONTEND" history --db "$tmp/h.db" "[${esc}f]lat-*" > "$tmp/out" 2>&1 ||
	fail "history of [ESC f]lat-* exited $?"
grep -q "matching '\[\\\\x1bf\]lat-\*'" "$tmp/out" ||
	fail "the pattern is not escaped: $(od -c "$tmp/out" | head -n 3)"

if command -v gnuplot > /dev/null 2>&1; then
	"$CONTEND" history --db "$tmp/h.db" 'nightly-*' --plot "$tmp/p" \
		> /dev/null 2> "$tmp/err" || fail "--plot: $(cat "$tmp/err")"
	[ -s "$tmp/p/history-1.png" ] || fail "no history-1.png"
	grep -q "set arrow from 5.5" "$tmp/p/history-1.gp" ||
		fail "the change point is not drawn at 5.5"
	# the title names what differs from the defaults, not every key
	# (env="" contention="" ok_status=0 ...)
	cat > "$tmp/s.ini" <<'EOI'
[experiment]
name        = short
repetitions = 2
warmup      = 0

[workload cmd]
type   = command
argv   = echo ops 7
metric = ^ops ([0-9]+)$
EOI
	for l in short-1 short-2; do
		"$CONTEND" run "$tmp/s.ini" --db "$tmp/h.db" --label "$l" \
			--quiet > /dev/null 2>&1 || fail "run $l"
	done
	"$CONTEND" history --db "$tmp/h.db" 'short-*' --plot "$tmp/s" \
		> /dev/null 2> "$tmp/err" || fail "--plot short: $(cat "$tmp/err")"
	title=$(grep '^set title' "$tmp/s/history-1.gp")
	case $title in
	*"'cmd argv=echo ops 7 metric=^ops ([0-9]+)$: throughput over 2 experiments"*) ;;
	*) fail "the title is not the set parameters: $title" ;;
	esac
	case $title in
	*shell=*|*env=*|*contention*|*ok_status=*|*scale=*)
		fail "the title names defaults: $title" ;;
	esac
fi

"$CONTEND" history --db "$tmp/h.db" 'nightly-01' > /dev/null 2> "$tmp/err"
expect "one experiment" 2 $?
grep -q "matches 1 experiment: a history needs two" "$tmp/err" ||
	fail "one experiment: $(cat "$tmp/err")"
"$CONTEND" history --db "$tmp/h.db" 'nightly-*' --metric nosuch \
	> /dev/null 2> "$tmp/err"
expect "unknown metric" 2 $?
"$CONTEND" history --db "$tmp/nosuch.db" 'x*' > /dev/null 2>&1
expect "no database" 2 $?
"$CONTEND" history --db "$tmp/h.db" > /dev/null 2>&1
expect "no pattern" 2 $?
[ "$fails" -eq 0 ] && echo "$NAME: a 10% step found at #6, none in a flat series, bad input exits 2"
[ "$fails" -eq 0 ]
