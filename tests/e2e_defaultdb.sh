#!/bin/sh
# e2e_defaultdb.sh - the database without --db works from any directory:
# $CONTEND_DB, else ${XDG_DATA_HOME:-$HOME/.local/share}/contend/contend.db,
# made (directories too) by the first run, which says where it is; the
# next run and every reader use it silently; --db beats them all.
NAME=e2e_defaultdb
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/home" "$tmp/elsewhere" "$tmp/xdg"
printf '[experiment]\nname = d\nrepetitions = 1\nwarmup = 0\n[workload w]\ntype = noop\nruntime = 10ms\n' > "$tmp/elsewhere/d.ini"
cd "$tmp/elsewhere" || die "cd"
unset CONTEND_DB XDG_DATA_HOME
export HOME="$tmp/home"
dbpath=$tmp/home/.local/share/contend/contend.db

expect_status 2 report
"$CONTEND" report > /dev/null 2> "$tmp/err"
grep -q "$dbpath" "$tmp/err" || fail "report without a database names no path: $(cat "$tmp/err")"
"$CONTEND" run d.ini --quiet > /dev/null 2> "$tmp/err" || fail "first run: $(cat "$tmp/err")"
[ -f "$dbpath" ] || fail "no database at $dbpath"
grep -q "created the database $dbpath" "$tmp/err" ||
	fail "the first run did not say where the database is: $(cat "$tmp/err")"
"$CONTEND" run d.ini --quiet > /dev/null 2> "$tmp/err" || fail "second run"
grep -q "created" "$tmp/err" && fail "the second run claims to create it again"
expect "runs in the default database" 2 "$(q "$dbpath" "SELECT count(*) FROM runs")"
expect_status 0 report d
expect_status 0 export
[ ! -e db ] || fail "a db/ directory appeared in the current directory"

XDG_DATA_HOME=$tmp/xdg "$CONTEND" run d.ini --quiet > /dev/null 2>&1 || fail "xdg run"
expect "XDG_DATA_HOME" 1 "$(q "$tmp/xdg/contend/contend.db" "SELECT count(*) FROM runs")"
CONTEND_DB=$tmp/env.db XDG_DATA_HOME=$tmp/xdg "$CONTEND" run d.ini --quiet > /dev/null 2>&1 ||
	fail "CONTEND_DB run"
expect "CONTEND_DB beats XDG" "1 1" "$(q "$tmp/env.db" "SELECT count(*) FROM runs") $(q "$tmp/xdg/contend/contend.db" "SELECT count(*) FROM runs")"
CONTEND_DB=$tmp/env.db "$CONTEND" run d.ini --db "$tmp/flag.db" --quiet > /dev/null 2>&1 ||
	fail "--db run"
expect "--db beats CONTEND_DB" "1 1" "$(q "$tmp/flag.db" "SELECT count(*) FROM runs") $(q "$tmp/env.db" "SELECT count(*) FROM runs")"

[ "$fails" -eq 0 ] && echo "$NAME: the default database is made under XDG_DATA_HOME on the first run and found from anywhere"
