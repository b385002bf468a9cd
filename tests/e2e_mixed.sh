#!/bin/sh
# e2e_mixed.sh - an experiment mixing noop, pthread-mutex, command, creat
# and chat (each reports other metrics: a command only its own, creat and
# chat no contention rate) and one configuration whose runs all fail:
# `contend run` says why each failed and exits 1, `report` has a row per
# configuration with the reason, `plot` and `report --html` exit 0 with
# every figure they list rendered (the rest skipped with a reason), and
# no output says nan or inf.  Run from a directory outside the checkout.
NAME=e2e_mixed
. tests/lib.sh
command -v gnuplot > /dev/null 2>&1 || { echo "$NAME: gnuplot missing: skipped"; exit 0; }

cat > "$tmp/mix.ini" <<'INI'
[experiment]
name        = mix
repetitions = 2
warmup      = 0
runtime     = 20ms
timeout     = 20s

[workload nop]
type    = noop
threads = 1, 2

[workload mutex]
type               = pthread-mutex
threads            = 2
contended_delay_ns = 0, 1000, 10000

[workload cmd]
type       = command
argv       = sh -c "echo lat 12.5"
metric.lat = ^lat ([0-9.]+)

[workload files]
type      = creat
processes = 1, 2

[workload talk]
type  = chat
rooms = 1
users = 2

[workload broken]
type = command
argv = sh -c "echo no >&2; exit 3"
INI
db=$tmp/mix.db
cd "$tmp" || die "cd"
"$CONTEND" run mix.ini --db "$db" > run.out 2> run.err
expect "run exits 1: every run of broken failed" 1 $?
grep -q "^contend: run [0-9]* failed: command exited with status 3" run.err ||
	fail "no failure line: $(cat run.err)"
grep -q "configuration 10 \[broken\] .*all 2 runs failed" run.err ||
	fail "the all-failed configuration is not named: $(cat run.err)"

"$CONTEND" report --db "$db" > report.txt 2>&1 || fail "report exited $?"
for c in 1 2 3 4 5 6 7 8 9 10; do
	grep -q "^ *$c  " report.txt || fail "no summary row for configuration $c"
done
# the row says why, as far as the 80 columns allow; the failures block
# below the table says it whole
grep -q "^ *10  broken .*all 2 runs failed: failed: command" report.txt ||
	fail "the broken configuration's row has no reason"
grep -q "2 x failed: command exited with status 3" report.txt ||
	fail "the failed runs block has no reason"
grep -q " lat" report.txt || fail "the command's own metric is not its header"
grep -qi "nan" report.txt && fail "the report says nan"
awk 'length($0) > 100 { exit 1 }' report.txt || fail "a report line is wider than 100"

"$CONTEND" plot --db "$db" --out plots > plot.out 2> plot.err
expect "plot exits 0" 0 $?
grep -q "skipped, section cmd: no numeric parameter is swept" plot.out ||
	fail "the command's sweep is not skipped with its reason"
grep "\.png$" plot.out | while read -r png; do
	[ -s "$png" ] || echo "missing $png"
done > missing
[ -s missing ] && fail "listed but not rendered: $(cat missing)"
[ -s plots/lockdep-2.png ] || fail "no lockdep figure for the mutex sweep"
grep -l -e "nan" -e "inf" plots/*.gp plots/*.dat > bad
[ -s bad ] && fail "nan or inf in $(cat bad)"

"$CONTEND" report --db "$db" --html html > /dev/null 2> html.err
expect "report --html exits 0" 0 $?
[ "$(grep -c '<img ' html/report.html)" -ge 5 ] ||
	fail "report.html has $(grep -c '<img ' html/report.html) images"
"$CONTEND" report --db "$db" --markdown md > /dev/null 2>&1 ||
	fail "report --markdown exited $?"
grep -q "^## Host" md/report.md || fail "report.md has no host section"
grep -qi "nan" md/report.md && fail "report.md says nan"

[ "$fails" -eq 0 ] && echo "$NAME: noop, pthread-mutex, command, creat, chat: every plot rendered or skipped with its reason"
[ "$fails" -eq 0 ]
