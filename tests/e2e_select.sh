#!/bin/sh
# e2e_select.sh - one selector grammar in report, export and plot:
# a label selects every experiment with it (report groups them as
# invocations), LABEL~newest and DB:ID pick one, SELECTOR@KEY=VALUE keeps
# the matching configurations; a malformed selector, a filter nothing
# matches and an unknown label are bad input (exit status 2).
NAME=e2e_select
. "$(dirname "$0")/lib.sh"
db=$tmp/s.db

cat > "$tmp/s.ini" <<'EOF2'
[experiment]
name        = sel
repetitions = 2
warmup      = 0
seed        = 5

[workload w]
type    = noop
threads = 1, 2
spin    = 10, 20
runtime = 10ms
EOF2
for label in L L other; do
	"$CONTEND" run "$tmp/s.ini" --db "$db" --label $label --quiet > /dev/null 2>&1 ||
		die "run $label failed"
done
# the runs exported (experiment, seq): one experiment's are 4
# configurations x 2 runs.  Runs, not rows: a run may lack a metric
# another has (the row counts differed now and then).
runs() { tail -n +2 | cut -d, -f1,9 | sort -u | wc -l; }
per=$("$CONTEND" export --db "$db" 3 | runs)
expect "runs of one experiment" 8 "$per"
rows() { "$CONTEND" export --db "$db" "$@" | runs; }
expect "a label: all its experiments" $((2 * per)) "$(rows L)"
expect "LABEL~newest: one" "$per" "$(rows L~newest)"
expect "LABEL~newest is the newest" 2 "$("$CONTEND" export --db "$db" L~newest |
	tail -n +2 | cut -d, -f1 | sort -u)"
expect "DB:ID" "$per" "$(rows "$db:1")"
expect "@threads=2 halves" "$per" "$(rows L@threads=2)"
expect "@threads=2,spin=20 on the newest" $((per / 4)) "$(rows 'L~newest@threads=2,spin=20')"
expect "@section=w keeps all" $((2 * per)) "$(rows L@section=w)"
expect "only threads=2 left" "threads=2" "$("$CONTEND" export --db "$db" L@threads=2 |
	tail -n +2 | cut -d, -f8 | cut -d' ' -f1 | sort -u)"

"$CONTEND" report --db "$db" L > "$tmp/r" 2>&1 || fail "report L failed"
grep -q '== level sel / L: 2 invocations ==' "$tmp/r" ||
	fail "report of a label does not group its invocations: $(head -3 "$tmp/r")"
"$CONTEND" report --db "$db" 'L~newest@threads=2' --format json > "$tmp/r.json" 2>&1 ||
	fail "report with a filter failed"
expect "report's configurations after the filter" 2 \
	"$(grep -c '"threads": "2"' "$tmp/r.json")"
grep -q '"threads": "1"' "$tmp/r.json" && fail "the filter kept threads=1"

"$CONTEND" plot --db "$db" 'L~newest@spin=10' --out "$tmp/plots" > "$tmp/p" 2>&1 ||
	fail "plot with a filter failed: $(cat "$tmp/p")"
# a label's experiments: one figure of their invocations
"$CONTEND" plot --db "$db" L --out "$tmp/both" > "$tmp/p" 2>&1 ||
	fail "plot of a label failed: $(cat "$tmp/p")"
[ -s "$tmp/both/invocations.gp" ] && [ -s "$tmp/both/invocations.dat" ] ||
	fail "plot of a label: no invocations figure: $(cat "$tmp/p")"
[ -d "$tmp/both/sel-1" ] && fail "plot of a label plotted an invocation on its own"
grep -q '^2 invocations of sel / L plotted in ' "$tmp/p" || fail "plot of a label: $(cat "$tmp/p")"
if command -v gnuplot > /dev/null 2>&1; then
	[ -s "$tmp/both/invocations.png" ] || fail "plot of a label: no invocations.png"
fi
# invocation 2's mean of threads=1 spin=10, by awk from its export, is
# the figure's dot (the second block, the first configuration)
want=$("$CONTEND" export --db "$db" 2 | awk -F, '$14 == "throughput" &&
	$8 ~ /^threads=1 spin=10 / && $11 == 0 && $12 == "ok" { s += $15; n++ }
	END { printf "%.6g", s / n }')
got=$(awk 'BEGIN { b = 0 } /^$/ { if (prev != "") b++; prev = ""; next }
	/^#/ { next } { prev = $0; if (b == 1 && !done) { printf "%.6g", $2; done = 1 } }' \
	"$tmp/both/invocations.dat")
expect "plot of a label: an invocation's mean" "$want" "$got"
expect "plot of a label: the level's row per configuration" 4 \
	"$(grep -c '^[1-4] ' "$tmp/both/invocations.dat")"
"$CONTEND" plot --db "$db" 'L@threads=2' --out "$tmp/both2" > "$tmp/p" 2>&1 ||
	fail "plot of a label with a filter failed: $(cat "$tmp/p")"
expect "plot L@threads=2: two configurations" 2 \
	"$(grep -c '^[1-4] ' "$tmp/both2/invocations.dat")"

bad() {
	"$CONTEND" "$@" --db "$db" > /dev/null 2> "$tmp/err"
	expect "status of '$*'" 2 $?
}
for cmd in report export plot; do
	bad $cmd 'L@threads='
	grep -q "'threads=' is not KEY=VALUE" "$tmp/err" || fail "$cmd: $(cat "$tmp/err")"
	bad $cmd 'L~newest@nosuch=1'
	grep -q "has nosuch=1" "$tmp/err" || fail "$cmd: $(cat "$tmp/err")"
	bad $cmd nolabel
	grep -q "no experiment 'nolabel'" "$tmp/err" || fail "$cmd: $(cat "$tmp/err")"
done
# a filter over several experiments: the levels report of what it keeps
"$CONTEND" report --db "$db" 'L@threads=2' > "$tmp/r" 2>&1 ||
	fail "report of a label with a filter: $(cat "$tmp/r")"
expect "report L@threads=2: both invocations of each threads=2 configuration, no threads=1" "4 2 0" \
	"$(grep -c '^  [12] (id [12]) ' "$tmp/r" | tr -d ' ') $(grep -c '^\[w\] noop threads=2 ' "$tmp/r") $(grep -c '^\[w\] noop threads=1 ' "$tmp/r")"
grep -q '^Configurations with threads=2 only' "$tmp/r" || fail "report L@threads=2 does not say its filter"
"$CONTEND" report --db "$db" 'L@threads=2,spin=20' --format json > "$tmp/r.json" 2>&1 ||
	fail "json report of a label with filters"
expect "json: the filter and the one configuration left" '"threads=2,spin=20" 1' \
	"$(sed -n 's/^  "filter": \(.*\),$/\1/p' "$tmp/r.json") $(grep -c '"canon": "threads=2 spin=20 ' "$tmp/r.json")"
bad plot L --x threads
grep -q "the figure of several invocations has the configurations on its x axis" "$tmp/err" ||
	fail "plot L --x: $(cat "$tmp/err")"
bad report 'L@threads=3'
grep -q "no configuration of the experiments that 'L' selects has threads=3" "$tmp/err" ||
	fail "report L@threads=3: $(cat "$tmp/err")"
# the bundles and the CSV are one experiment's: refused for several,
# naming the option and how to pick one, nothing written
bad report L --html "$tmp/h"
grep -q "'L' names 2 experiments.*--html is one experiment's: pick one (L~newest" "$tmp/err" ||
	fail "report L --html: $(cat "$tmp/err")"
[ -e "$tmp/h" ] && fail "report L --html wrote $tmp/h"
bad report L --format csv
grep -q "\-\-format csv is one experiment's" "$tmp/err" || fail "report L --format csv: $(cat "$tmp/err")"
# report over several experiments is the levels report itself, at
# report's --format and --confidence; one experiment's views refused
"$CONTEND" report --db "$db" L --format json --confidence 0.9 > "$tmp/rl.json" 2>&1 ||
	fail "report L --format json: $(cat "$tmp/rl.json")"
"$CONTEND" levels --db "$db" L --format json --confidence 0.9 > "$tmp/ll.json" 2>&1 ||
	fail "levels L --format json: $(cat "$tmp/ll.json")"
cmp -s "$tmp/rl.json" "$tmp/ll.json" || fail "report L and levels L differ"
grep -q '"confidence": 0.9' "$tmp/rl.json" || fail "report L: --confidence 0.9 not passed on"
for opt in --verbose '--metrics throughput' --exclude-kernel-warnings \
	'--resolve 2' '--handoff-drop 10'; do
	# shellcheck disable=SC2086  # the option and its value
	bad report L $opt
	grep -q -e "${opt%% *} is one experiment's" "$tmp/err" ||
		fail "report L $opt: $(cat "$tmp/err")"
done

# compare: sides that differ in one parameter match on the rest
"$CONTEND" compare --db "$db" 'L~newest@spin=10' 'L~newest@spin=20' > "$tmp/c" 2>&1 ||
	fail "compare across spin failed: $(cat "$tmp/c")"
expect "one comparison per remaining configuration" 2 "$(grep -c '^== noop \[w\] threads=[12] fault=none jitter=0 runtime=0.01$' "$tmp/c")"
grep -q 'not compared)$' "$tmp/c" && ! grep -q '0 not compared)$' "$tmp/c" &&
	fail "compare across spin left configurations unmatched"
# a parameter only one side filters still matches as a parameter
"$CONTEND" compare --db "$db" 'L~newest@threads=2' 'other' > "$tmp/c" 2>&1 ||
	fail "one-sided filter failed: $(cat "$tmp/c")"
expect "one-sided filter: threads=2 matched, threads=1 unmatched" "2 2" \
	"$(grep -c '^== noop \[w\] threads=2 spin=' "$tmp/c") $(grep -c 'candidate: noop \[w\] threads=1' "$tmp/c")"
# quoted values in the identity (a command's argv) survive the match
cat > "$tmp/cmd.ini" <<'EOF2'
[experiment]
name        = cmd
repetitions = 3
warmup      = 0
seed        = 1

[workload c]
type = command
param.n = 1, 2
param.word = alpha, beta
argv = sh -c "echo v {n}.{word}; echo w 3"
metric.w = ^w ([0-9]+)$
direction = higher
EOF2
"$CONTEND" run "$tmp/cmd.ini" --db "$tmp/cmd.db" --quiet > /dev/null 2>&1 || fail "command run"
"$CONTEND" compare --db "$tmp/cmd.db" 'cmd@param.n=1' 'cmd@param.n=2' --format json > "$tmp/c.json" 2>&1 ||
	fail "compare across param.n failed: $(cat "$tmp/c.json")"
expect "compare across param.n: the primary (top and per comparison), one per param.word" "3 2" \
	"$(grep -c '"metric": "w"' "$tmp/c.json") $(grep -c '"config": "argv=' "$tmp/c.json")"
grep -q 'param.n=' "$tmp/c.json" && grep '"config"' "$tmp/c.json" | grep -q 'param.n=' &&
	fail "the changed parameter is still in the matched identity"
expect_status 2 compare --db "$db" 'L~newest@spin=10' 'L~newest@nosuch=3'
# sides with no configuration in common: an error, not "0 compared"
sed 's/^threads = 1, 2$/threads = 4/' "$tmp/s.ini" > "$tmp/four.ini"
"$CONTEND" run "$tmp/four.ini" --db "$db" --label four --quiet > /dev/null 2>&1 ||
	die "run four failed"
for fmt in text json; do
	"$CONTEND" compare --db "$db" L~newest four --format $fmt > "$tmp/c" 2> "$tmp/err"
	expect "nothing compared ($fmt): status" 2 $?
	grep -q 'nothing compared: no configuration of the baseline matches one of the candidate' "$tmp/err" ||
		fail "nothing compared ($fmt): $(cat "$tmp/err")"
done
# 4 configurations of L, 2 of four
expect "nothing compared: the result still lists both sides' configurations" 6 \
	"$(grep -o '"reason": ' "$tmp/c" | wc -l | tr -d ' ')"
expect_status 2 compare --db "$db" 'L@spin=' 'L'

[ "$fails" -eq 0 ] && echo "$NAME: labels, ~newest, DB:ID and @KEY=VALUE select alike in report, export and plot"
