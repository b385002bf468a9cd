#!/bin/sh
# upgradeclaim.sh - a newer contend does not upgrade a database while a
# live runner writes it (issue 37, item 5).  A real runner writes its
# experiment; its database is then labelled schema 3 (what an older
# contend's runner would be writing).  While the runner runs, and while
# it is stopped (SIGSTOP: alive, holding its claim), `run --db` and
# `merge` into the file exit 1 naming the runner, the file stays at
# schema 3; the runner ends with every run ok, exactly once, and then
# the upgrade goes ahead.  e2e_upgradeclaim.sh has the claims by hand.
NAME=upgradeclaim
. tests/faults/lib.sh

cat > "$tmp/slow.ini" <<'INI'
[experiment]
name        = slow
repetitions = 100
warmup      = 0
runtime     = 50ms

[workload w]
type = noop
INI
sed 's/= 100/= 1/; s/50ms/1ms/; s/slow/other/' "$tmp/slow.ini" > "$tmp/other.ini"
db=$tmp/u.db
"$C" run "$tmp/slow.ini" --db "$db" --quiet > /dev/null 2> "$tmp/errA" &
runner=$!
bg="$runner"
claimed() {
	[ "$(sql "$db" "SELECT count(*) FROM experiment_meta
		WHERE key = 'runner'" 2> /dev/null)" = 1 ]
}
wait_for claimed ||
	die "the runner made no claim: $(cat "$tmp/errA")"
sql_rw() { sqlite3 -cmd '.timeout 10000' "$1" "$2"; }
sql_rw "$db" "PRAGMA user_version = 3" || die "sqlite3"

# refused: run and merge into it, the file left at schema 3
refused() {
	"$C" run "$tmp/other.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "$1: run exited $rc, not 1: $(cat "$tmp/err")"
	grep -q "experiment 1 is being run by process $runner" "$tmp/err" ||
		fail "$1: unclear error: $(cat "$tmp/err")"
	"$C" merge "$db" "$tmp/o.db" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "$1: merge exited $rc, not 1: $(cat "$tmp/err")"
	[ "$(sql "$db" 'PRAGMA user_version')" = 3 ] ||
		fail "$1: upgraded under the runner"
}
"$C" run "$tmp/other.ini" --db "$tmp/o.db" --quiet > /dev/null 2>&1 || die "o.db"
refused "running"
kill -STOP "$runner"
refused "stopped"
kill -CONT "$runner"
wait "$runner"
rc=$?
bg=
[ $rc = 0 ] || fail "the runner exited $rc: $(cat "$tmp/errA")"
exactly_once "$db" 1 100
[ "$(sql "$db" "SELECT count(*) FROM runs WHERE status != 'ok'")" = 0 ] ||
	fail "runs not ok after the refused upgrades"

"$C" run "$tmp/other.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err" ||
	fail "the run after the runner ended: $(cat "$tmp/err")"
[ "$(sql "$db" 'PRAGMA user_version')" -gt 3 ] || fail "not upgraded after the runner ended"
integrity "$db"
exit $failed
