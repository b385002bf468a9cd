#!/bin/sh
# e2e_status.sh - the exit statuses of docs/contend.1's one table, for
# every command: 0 on success, 2 for bad input (an unknown option), 1 for
# a runtime error (standard output on /dev/full, a database that cannot
# be created); `bisect` in git bisect run's terms: 128 for bad input, 129
# for a runtime error, and 130 for an interrupted step, whose message
# gives one instruction that works as printed: the same command again.
# compare's 3 and 4 are tests/e2e_gate.sh's; bisect's 0, 1 and 125
# tests/e2e_bisect.sh's and tests/e2e_gitbisect.sh's.
NAME=e2e_status
. "$(dirname "$0")/lib.sh"

db=$tmp/s.db
echo 0 > "$tmp/sleep"
cat > "$tmp/s.ini" <<INI
[experiment]
name        = status
repetitions = 5
warmup      = 0

[workload cmd]
type   = command
shell  = yes
argv   = read s < $tmp/sleep; touch $tmp/started; sleep \$s; echo ops 1000
metric = ^ops ([0-9]+)\$
INI
for boot in 1 2; do
	"$CONTEND" run "$tmp/s.ini" --db "$db" --label good --quiet \
		> /dev/null 2>&1 || die "baseline $boot"
done

# every command: what succeeds, the same with an unknown option (2), the
# same with its standard output on /dev/full (1)
while IFS='|' read -r cmd args; do
	# shellcheck disable=SC2086
	"$CONTEND" $cmd $args > /dev/null 2>&1
	expect "$cmd: success" 0 $?
	"$CONTEND" $cmd $args --nosuch > /dev/null 2>&1
	expect "$cmd: bad input" 2 $?
	"$CONTEND" $cmd $args > /dev/full 2> /dev/null
	expect "$cmd: a failed write" 1 $?
done <<EOF
exec|noop
list|
report|--db $db good
levels|--db $db good
compare|--db $db good good
plot|--db $db good --out $tmp/plots
export|--db $db
merge|$tmp/m.db $db
history|--db $db good
calibrate|$tmp/s.ini --db $tmp/cal.db
EOF
expect_status 0 run "$tmp/s.ini" --db "$db" --label other --quiet
expect_status 2 run "$tmp/s.ini" --db "$db" --nosuch
expect_status 1 run "$tmp/s.ini" --db /proc/self/no.db --quiet

# bisect: 128 for bad input, 129 for a runtime error, never 1 or 2
expect_status 0 bisect "$tmp/s.ini" --db "$db" --baseline good \
	--regression 5 --dry-run
expect_status 128 bisect "$tmp/s.ini" --db "$db" --baseline good \
	--regression 5 --nosuch
expect_status 128 bisect "$tmp/s.ini" --db "$db" --baseline good
expect_status 128 bisect "$tmp/s.ini" --db "$db" --baseline nosuch \
	--regression 5
"$CONTEND" bisect "$tmp/s.ini" --db "$db" --baseline good --regression 5 \
	--dry-run > /dev/full 2> /dev/null
expect "bisect: a failed write" 129 $?

# an interrupted step: 130, one instruction, and it works as printed
echo 30 > "$tmp/sleep"
rm -f "$tmp/started"
"$CONTEND" bisect "$tmp/s.ini" --db "$db" --baseline good --regression 5 \
	--quiet > /dev/null 2> "$tmp/err" &
runner=$!
i=0
while [ ! -e "$tmp/started" ] && [ $i -lt 6000 ]; do
	i=$((i + 1))
	sleep 0.01
done
kill -INT "$runner"
wait "$runner"
expect "bisect: interrupted" 130 $?
runner=
grep -q -- "--resume" "$tmp/err" &&
	fail "interrupted bisect points at run --resume: $(cat "$tmp/err")"
expect "one instruction" 1 "$(grep -c "again" "$tmp/err")"
grep -q "run the same command again" "$tmp/err" ||
	fail "no instruction: $(cat "$tmp/err")"
echo 0 > "$tmp/sleep"
"$CONTEND" bisect "$tmp/s.ini" --db "$db" --baseline good --regression 5 \
	--quiet > /dev/null 2>&1
expect "the same command again decides" 0 $?
[ "$fails" -eq 0 ] && echo "$NAME: 0, 2 and 1 for every command; bisect 128, 129, 130 and its one instruction"
[ "$fails" -eq 0 ]
