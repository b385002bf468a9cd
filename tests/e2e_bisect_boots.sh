#!/bin/sh
# e2e_bisect_boots.sh - a bisect step that spans boots (issue 39 item 3):
# on a host whose boots differ (the baseline's five boots 4% apart) one
# boot of the candidate cannot decide: skip (125), saying what would
# decide; `--continue` on the same kernel adds the skipped step's
# runs as an earlier boot of the candidate (bisect.SECTION.boots 2) and
# says so, with the second boot's share of alpha and beta (5/36 of
# each); --continue with no skipped step of its label exits 128.
NAME=e2e_bisect_boots
. "$(dirname "$0")/lib.sh"

db=$tmp/b.db
cat > "$tmp/b.ini" <<INI
[experiment]
name        = boots
repetitions = 10
warmup      = 0

[workload cmd]
type   = command
shell  = yes
argv   = read l < $tmp/level; echo ops \$((\$\$ % 3 + l))
metric = ^ops ([0-9]+)\$
INI
for l in 1000 1040 960 1020 980; do
	echo "$l" > "$tmp/level"
	"$CONTEND" run "$tmp/b.ini" --db "$db" --label good --quiet \
		> /dev/null 2>&1 || die "baseline boot $l"
done
step() {
	"$CONTEND" bisect "$tmp/b.ini" --db "$db" --baseline good \
		--regression 5 --max-runs 10 "$@" > /dev/null 2> "$tmp/err"
}

"$CONTEND" bisect "$tmp/b.ini" --db "$db" --baseline good --regression 5 \
	--continue > /dev/null 2> "$tmp/err"
expect "--continue without a skipped step" 128 $?
grep -q "bisect: --continue: " "$tmp/err" ||
	fail "--continue alone: $(cat "$tmp/err")"

echo 1000 > "$tmp/level"
step --quiet
expect "one boot of a host whose boots differ: skip" 125 $?
# boots 4% apart: under the boots' shares of alpha no number of boots of
# this kernel decides (unit test test_boots_needed has the numbers)
grep -Eq "about [0-9]+ more boots?|more boots of this kernel cannot decide" \
	"$tmp/err" || fail "the skip does not say what would decide: $(cat "$tmp/err")"
first=$(q "$db" "SELECT max(id) FROM experiments")
expect "one boot" 1 "$(q "$db" "SELECT value FROM experiment_meta
	WHERE experiment_id = $first AND key = 'bisect.cmd.boots'")"

echo 1010 > "$tmp/level"
step --continue
st=$?
[ "$st" -eq 0 ] || [ "$st" -eq 125 ] ||
	fail "a continued A/A step exited $st: $(cat "$tmp/err")"
grep -q "continuing 1 earlier step of this kernel" "$tmp/err" ||
	fail "the continuation is not said: $(cat "$tmp/err")"
grep -q "after [0-9]* runs, [0-9]* looks* (and earlier boots)" "$tmp/err" ||
	fail "the earlier boots are not said: $(cat "$tmp/err")"
# the second boot spends 5/36 of alpha 0.05 and beta 0.1
grep -q "boot 2 of this kernel: bad at alpha 0.0069, good at beta 0.014" \
	"$tmp/err" || fail "the boot's share is not said: $(cat "$tmp/err")"
# the step's own lines (indented; not the run's start or load lines)
awk '/^ / && length > 80 { print; bad = 1 } END { exit bad }' "$tmp/err" ||
	fail "the continued step prints a line over 80 columns"
last=$(q "$db" "SELECT max(id) FROM experiments")
expect "two boots" 2 "$(q "$db" "SELECT value FROM experiment_meta
	WHERE experiment_id = $last AND key = 'bisect.cmd.boots'")"
[ "$fails" -eq 0 ] && echo "$NAME: a skip says how many boots would decide; --continue adds the earlier boot"
[ "$fails" -eq 0 ]
