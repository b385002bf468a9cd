#!/bin/sh
# e2e_upgradeclaim.sh - a newer contend does not upgrade a database that
# a live runner of an older one is writing (issue 37, item 5: the old
# runner's good runs ended in a failed experiment).  A genuine schema 1
# database whose experiment is claimed (meta "runner", runner/claim.h) by
# a live process: `run --db` and `merge` into it exit 1 naming the
# experiment and the process, the file unchanged (still schema 1, the
# same experiments); reading it (report, merge from it) still works.  A
# claim that names no live process - the process gone, another boot, a
# malformed text - does not hold the upgrade up.
NAME=e2e_upgradeclaim
. tests/lib.sh
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; rm -rf "$tmp"' EXIT
command -v sqlite3 > /dev/null || { echo "$NAME: SKIP: sqlite3 not found"; exit 0; }

cat > "$tmp/b.ini" <<'INI'
[experiment]
name        = upgradeclaim
repetitions = 2
warmup      = 0
runtime     = 1ms

[workload w]
type = noop
INI
good=$tmp/good.db
"$CONTEND" run "$tmp/b.ini" --db "$good" --quiet 2> /dev/null ||
	die "cannot make the good database"

# v1 CLAIM: a schema 1 database holding good.db's experiment, claimed by
# the text CLAIM, in $v1
v1() {
	v1=$tmp/v1.db
	rm -f "$v1" "$v1-wal" "$v1-shm"
	sqlite3 "$v1" < tests/data/schema-v1.sql || die "schema 1 database"
	sqlite3 "$v1" "ATTACH '$good' AS g;
		INSERT INTO experiments SELECT * FROM g.experiments;
		INSERT INTO experiment_meta SELECT * FROM g.experiment_meta;
		INSERT INTO configs SELECT * FROM g.configs;
		INSERT INTO config_params SELECT * FROM g.config_params;
		INSERT INTO runs SELECT * FROM g.runs;
		INSERT INTO samples SELECT * FROM g.samples;
		INSERT INTO run_threads SELECT * FROM g.run_threads;
		INSERT INTO experiment_meta VALUES (1, 'runner', '$1');" ||
		die "cannot fill the schema 1 database"
}

boot=$(cat /proc/sys/kernel/random/boot_id) || die "no boot id"
sleep 600 &
holder=$!
# field 22 of /proc/PID/stat, the start time (sleep's name has no blank)
start=$(awk '{ print $22 }' "/proc/$holder/stat") || die "no start time"
live="$boot $holder $start"

# ---- a live claim: no upgrade ----
v1 "$live"
"$CONTEND" run "$tmp/b.ini" --db "$v1" --quiet > /dev/null 2> "$tmp/err"
expect "run under a live claim: exit" 1 $?
grep -q "$v1: experiment 1 is being run by process $holder, a contend that writes schema 1" "$tmp/err" ||
	fail "run under a live claim: unclear error: $(cat "$tmp/err")"
expect "still schema 1" 1 "$(q "$v1" 'PRAGMA user_version')"
expect "no experiment added" 1 "$(q "$v1" 'SELECT count(*) FROM experiments')"
"$CONTEND" merge "$v1" "$good" > /dev/null 2> "$tmp/err"
expect "merge into it under a live claim: exit" 1 $?
expect "still schema 1 after merge" 1 "$(q "$v1" 'PRAGMA user_version')"
"$CONTEND" report --db "$v1" > /dev/null 2> "$tmp/err" ||
	fail "report of a claimed database: $(cat "$tmp/err")"
"$CONTEND" merge "$tmp/m.db" "$v1" > /dev/null 2> "$tmp/err" ||
	fail "merge from a claimed database: $(cat "$tmp/err")"

# ---- claims that hold nothing up ----
for case in "gone" "another boot" "malformed"; do
	case $case in
	gone) claim="$boot 999999999 $start" ;;
	"another boot") claim="00000000-0000-0000-0000-000000000000 $holder $start" ;;
	malformed) claim="$holder" ;;
	esac
	v1 "$claim"
	"$CONTEND" run "$tmp/b.ini" --db "$v1" --quiet > /dev/null 2> "$tmp/err" ||
		fail "$case claim: run failed: $(cat "$tmp/err")"
	[ "$(q "$v1" 'PRAGMA user_version')" -gt 1 ] ||
		fail "$case claim: not upgraded"
done

# ---- the live claim's process ends: the upgrade goes ahead ----
v1 "$live"
kill "$holder"
wait "$holder" 2> /dev/null
holder=
"$CONTEND" run "$tmp/b.ini" --db "$v1" --quiet > /dev/null 2> "$tmp/err" ||
	fail "after the claim's process ended: $(cat "$tmp/err")"
[ "$(q "$v1" 'PRAGMA user_version')" -gt 1 ] ||
	fail "not upgraded once the runner is gone"
expect "two experiments" 2 "$(q "$v1" 'SELECT count(*) FROM experiments')"

[ "$fails" -eq 0 ]
