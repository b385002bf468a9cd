#!/bin/sh
# e2e_hostiledb.sh - databases that would turn contend against its user,
# built here with the sqlite3 command-line tool: a trigger on samples,
# runs or experiments, a view named runs whose recursive CTE never ends,
# an extra table, an extra index, contend's table with an extra column.
# Every command that opens a database (run, run --resume, report, report
# --levels, export, plot, compare, merge with it as input and as OUT)
# must refuse it promptly (under timeout) with exit status 2, a message
# naming the object, and the file unchanged.  A genuine schema 1 database
# (tests/data/schema-v1.sql) still opens, and is upgraded by a run.  A
# WAL database on read-only media whose log holds an experiment is read
# with its log (merge copies both experiments), leaving nothing behind in
# $TMPDIR.  And a selector @KEY=nan is refused (it matched everything).
NAME=e2e_hostiledb
. tests/lib.sh
mnt=$tmp/ro
holder=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; umount "$mnt" 2>/dev/null; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
command -v sqlite3 > /dev/null || { echo "$NAME: SKIP: sqlite3 not found"; exit 0; }
command -v timeout > /dev/null || { echo "$NAME: SKIP: timeout not found"; exit 0; }

cat > "$tmp/b.ini" <<'INI'
[experiment]
name        = hostiledb
repetitions = 2
warmup      = 0
runtime     = 2ms

[workload w]
type = noop
INI
good=$tmp/good.db
"$CONTEND" run "$tmp/b.ini" --db "$good" --quiet 2> /dev/null ||
	die "cannot make the good database"

# The view's CTE never ends: any reader of runs would hang.
endless='WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)'
# kind|object named in the message|SQL that makes it
cases="trigger-samples|trigger 'evil' on 'samples'|CREATE TRIGGER evil AFTER INSERT ON samples BEGIN UPDATE samples SET value = 42 WHERE run_id = NEW.run_id; END;
trigger-runs|trigger 'r' on 'runs'|CREATE TRIGGER r AFTER UPDATE ON runs BEGIN DELETE FROM samples; END;
trigger-experiments|trigger 'e' on 'experiments'|CREATE TRIGGER e BEFORE INSERT ON experiments BEGIN SELECT RAISE(IGNORE); END;
view-runs|view 'runs'|PRAGMA foreign_keys = OFF; DROP TABLE runs; CREATE VIEW runs AS $endless SELECT i AS id, 1 AS experiment_id, 1 AS config_id, i AS seq, 0 AS repetition, 0 AS warmup, 'ok' AS status, NULL AS error, 0 AS started_at, 0 AS wall_s, 0 AS env_pad FROM n;
extra-table|table 'notes'|CREATE TABLE notes (x);
extra-index|index 'by_value' on 'samples'|CREATE INDEX by_value ON samples(value);
extra-column|table 'samples' differs|ALTER TABLE samples ADD COLUMN extra;"

# try DB WANT CMD...: contend CMD refuses DB: exit 2 (not a timeout's
# 124), WANT in the message, DB as it was, no log written beside it.
try() {
	db=$1
	want=$2
	shift 2
	before=$(cksum < "$db")
	timeout 60 "$CONTEND" "$@" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "$*: exit $rc on $db, want 2: $(head -c 300 "$tmp/err")"
	grep -q "^contend: $db: $want" "$tmp/err" ||
		fail "$*: want \"$db: $want\" in: $(head -c 300 "$tmp/err")"
	[ "$(cksum < "$db")" = "$before" ] || fail "$*: $db was modified"
	[ ! -s "$db-wal" ] || fail "$*: a write-ahead log was written beside $db"
}

echo "$cases" | while IFS='|' read -r kind want sql; do
	db=$tmp/$kind.db
	cp "$good" "$db"
	sqlite3 "$db" "$sql" || die "$kind: sqlite3 failed"
	try "$db" "$want" run "$tmp/b.ini" --db "$db" --quiet
	try "$db" "$want" run --resume 1 --db "$db"
	try "$db" "$want" report --db "$db"
	try "$db" "$want" report --levels hostiledb --db "$db"
	try "$db" "$want" export --db "$db"
	try "$db" "$want" plot --db "$db" --out "$tmp/plots"
	try "$db" "$want" compare "$db:1" "$good:1"
	try "$db" "$want" merge "$tmp/merged-$kind.db" "$db"
	[ ! -e "$tmp/merged-$kind.db" ] || fail "$kind: merge created OUT from a refused input"
	try "$db" "$want" merge "$db" "$good"
	[ "$fails" -eq 0 ] || exit 1
	echo "$NAME: $kind: refused by every command (exit 2), named, untouched"
done || exit 1

# ---- a genuine schema 1 database ----
v1=$tmp/v1.db
sqlite3 "$v1" < tests/data/schema-v1.sql || die "cannot make a schema 1 database"
sqlite3 "$v1" "ATTACH '$good' AS g;
	INSERT INTO experiments SELECT * FROM g.experiments;
	INSERT INTO experiment_meta SELECT * FROM g.experiment_meta;
	INSERT INTO configs SELECT * FROM g.configs;
	INSERT INTO config_params SELECT * FROM g.config_params;
	INSERT INTO runs SELECT * FROM g.runs;
	INSERT INTO samples SELECT * FROM g.samples;
	INSERT INTO run_threads SELECT * FROM g.run_threads;" ||
	die "cannot fill the schema 1 database"
expect "schema 1 before" 1 "$(q "$v1" 'PRAGMA user_version')"
"$CONTEND" report --db "$v1" > /dev/null 2> "$tmp/err" ||
	fail "report of a schema 1 database: $(cat "$tmp/err")"
expect "a report leaves schema 1" 1 "$(q "$v1" 'PRAGMA user_version')"
"$CONTEND" merge "$tmp/from-v1.db" "$v1" > "$tmp/out" 2> "$tmp/err" ||
	fail "merge of a schema 1 database: $(cat "$tmp/err")"
grep -q "1 experiment merged" "$tmp/out" || fail "merge from schema 1: $(cat "$tmp/out")"
"$CONTEND" run "$tmp/b.ini" --db "$v1" --quiet 2> "$tmp/err" ||
	fail "run on a schema 1 database: $(cat "$tmp/err")"
# to the newest schema, whichever it is (db/schema.sql's)
newest=$(sed -n 's/^PRAGMA user_version = \([0-9]*\);$/\1/p' db/schema.sql)
expect "a run upgrades schema 1" "$newest" "$(q "$v1" 'PRAGMA user_version')"
expect "experiments after the upgrade" 2 "$(q "$v1" 'SELECT count(*) FROM experiments')"
"$CONTEND" report --db "$v1" 1 > /dev/null 2> "$tmp/err" ||
	fail "report of the upgraded database: $(cat "$tmp/err")"
[ "$fails" -eq 0 ] && echo "$NAME: a genuine schema 1 database opens, and a run upgrades it"

# ---- @KEY=nan selected every configuration ----
timeout 60 "$CONTEND" compare "$good:1@spin=nan" "$good:1" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "spin=nan': a parameter is never NaN" "$tmp/err" ||
	fail "compare @spin=nan: exit $rc: $(cat "$tmp/err")"
timeout 60 "$CONTEND" report --db "$good" "1@spin=-inf" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "is never NaN or infinite" "$tmp/err" ||
	fail "report 1@spin=-inf: exit $rc: $(cat "$tmp/err")"
[ "$fails" -eq 0 ] && echo "$NAME: @KEY=nan and @KEY=-inf refused"

# ---- a WAL database on read-only media, an experiment in its log ----
# A connection held open (sqlite3 on a FIFO) keeps the second run's
# commits in the -wal: the last connection to close would checkpoint
# them.  The file and its log, without -shm, go to read-only media.
wal=$tmp/w.db
"$CONTEND" run "$tmp/b.ini" --db "$wal" --quiet 2> /dev/null || die "first run"
mkfifo "$tmp/fifo" || die "mkfifo"
sqlite3 "$wal" < "$tmp/fifo" > "$tmp/holder.out" 2>&1 &
holder=$!
exec 3> "$tmp/fifo"
echo "SELECT 'open', count(*) FROM experiments;" >&3
i=0
until grep -q "^open|1" "$tmp/holder.out"; do
	i=$((i + 1))
	[ $i -lt 600 ] || die "the holding connection did not open"
	sleep 0.1
done
"$CONTEND" run "$tmp/b.ini" --db "$wal" --quiet 2> /dev/null || die "second run"
[ -s "$wal-wal" ] || die "the second run is not in a write-ahead log"
mkdir "$mnt" "$tmp/t"
asuser=
if mount -t tmpfs -o size=8m tmpfs "$mnt" 2> /dev/null; then
	cp "$wal" "$wal-wal" "$mnt/" && mount -o remount,ro "$mnt" ||
		die "cannot make the read-only file system"
	how="a read-only file system"
elif [ "$(id -u)" != 0 ]; then
	cp "$wal" "$wal-wal" "$mnt/" && chmod 555 "$mnt" || die "chmod"
	how="a directory without write permission"
elif command -v setpriv > /dev/null &&
     chmod 755 "$tmp" && chmod 777 "$tmp/t" &&
     setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$CONTEND"; then
	cp "$wal" "$wal-wal" "$mnt/" && chmod 555 "$mnt" && chmod 644 "$mnt"/* ||
		die "chmod"
	asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
	how="a directory nobody may write in"
else
	how=
fi
exec 3>&-
wait "$holder"
holder=
if [ -z "$how" ]; then
	echo "$NAME: SKIP: read-only media cannot be made here (root without mount or setpriv)"
else
	ro=$mnt/w.db
	[ ! -e "$ro-shm" ] || die "setup: a -shm beside the read-only copy"
	# What an immutable read sees: the first experiment only.
	expect "setup: the log holds the second experiment" 1 \
		"$(q "file:$ro?immutable=1" 'SELECT count(*) FROM experiments')"
	TMPDIR=$tmp/t timeout 60 $asuser "$CONTEND" merge "$tmp/t/from-ro.db" "$ro" \
		> "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q "2 experiments merged" "$tmp/out" ||
		fail "merge from $how: exit $rc: $(cat "$tmp/out" "$tmp/err")"
	TMPDIR=$tmp/t timeout 60 $asuser "$CONTEND" report --db "$ro" 2 \
		> "$tmp/out" 2> "$tmp/err" ||
		fail "report of experiment 2 on $how: $(cat "$tmp/err")"
	TMPDIR=$tmp/t timeout 60 $asuser "$CONTEND" compare "$ro:1" "$ro:2" \
		> /dev/null 2> "$tmp/err" ||
		fail "compare on $how: $(cat "$tmp/err")"
	# No copy possible: the reason, never a read without the log.
	TMPDIR=$tmp/none timeout 60 $asuser "$CONTEND" report --db "$ro" 2 \
		> /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "write-ahead log .* cannot be read on read-only media" "$tmp/err" ||
		fail "report with no TMPDIR to copy to: exit $rc: $(cat "$tmp/err")"
	for f in "$tmp"/t/* "$tmp"/t/.[!.]*; do
		case $f in
		*/from-ro.db | *'*'*) ;;
		*) fail "left in TMPDIR: $f" ;;
		esac
	done
	[ "$fails" -eq 0 ] && echo "$NAME: a WAL database on $how is read with its log"
fi
[ "$fails" -eq 0 ]
