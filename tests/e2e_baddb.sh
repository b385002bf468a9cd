#!/bin/sh
# e2e_baddb.sh - databases contend must not use: written by a newer schema
# version, truncated, not SQLite at all (text, random bytes), SQLite but
# someone else's, and read-only.  Every command that opens a database
# (run, run --resume, report, report --levels, export, plot, merge -- as
# input and as OUT -- and compare) must fail with a message naming the
# file and the reason, with exit status 2 (bad input), and leave the file
# exactly as it was (same checksum; no write-ahead log written).  A
# missing database, a directory named as one, or a selection that matches
# no experiment is bad input too (2).  A read-only database can still be
# read (report, export, plot, compare, merge into another file) but not
# written (run, resume: exit status 1, a problem of the machine, not of
# the file).
set -u
: "${CONTEND:=./contend}"
tmp=$(mktemp -d /tmp/contend-baddb-XXXXXX)
mnt=$tmp/ro
trap 'umount "$mnt" 2>/dev/null; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
failed=0
fail() { echo "e2e_baddb: FAIL: $*" >&2; failed=1; }

cat > "$tmp/b.ini" <<'INI'
[experiment]
name        = baddb
repetitions = 2
warmup      = 0
runtime     = 2ms

[workload w]
type = noop
INI
"$CONTEND" run "$tmp/b.ini" --db "$tmp/good.db" --quiet 2> /dev/null ||
	{ echo "e2e_baddb: FAIL: cannot make the good database" >&2; exit 1; }
sqlite3() { python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$@"; }

cp "$tmp/good.db" "$tmp/newer.db"
sqlite3 "$tmp/newer.db" 'PRAGMA user_version = 99'
head -c 20000 "$tmp/good.db" > "$tmp/truncated.db"
echo "name,value: this is a text file, not a database" > "$tmp/text.db"
head -c 8192 /dev/urandom > "$tmp/random.db"
sqlite3 "$tmp/other.db" 'CREATE TABLE t(x); INSERT INTO t VALUES (1)'

# kind: expected words in the message
cases="newer:written by a newer contend
truncated:truncated or corrupt
text:not a.*database
random:not a.*database
other:not a contend database"

# try DB CMD...: runs contend, checks it failed clearly with exit status
# $code, DB untouched.
code=2
try() {
	db=$1
	shift
	before=$(cksum < "$db")
	"$CONTEND" "$@" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq "$code" ] || fail "$*: exit $rc on $db, want $code"
	grep -q "$db" "$tmp/err" && grep -q "$want" "$tmp/err" ||
		fail "$*: unclear error (want '$want'): $(cat "$tmp/err")"
	[ "$(cksum < "$db")" = "$before" ] || fail "$*: $db was modified"
	[ ! -s "$db-wal" ] || fail "$*: a write-ahead log was written beside $db"
}

echo "$cases" | while IFS=: read -r kind want; do
	db=$tmp/$kind.db
	try "$db" run "$tmp/b.ini" --db "$db" --quiet
	try "$db" run --resume 1 --db "$db"
	try "$db" report --db "$db"
	try "$db" report --levels baddb --db "$db"
	try "$db" export --db "$db"
	try "$db" plot --db "$db" --out "$tmp/plots"
	try "$db" merge "$tmp/merged-$kind.db" "$db"
	try "$db" merge "$db" "$tmp/good.db"
	[ ! -e "$tmp/merged-$kind.db" ] || fail "merge created OUT from a bad input"
	try "$db" compare "$db:1" "$db:1"
	[ $failed -eq 0 ] && echo "e2e_baddb: $kind database refused by every command (exit 2), untouched"
	[ $failed -eq 0 ] || exit 1
done || failed=1

# ---- missing, a directory: bad input as well ----
mkdir "$tmp/dir.db"
for db in "$tmp/missing.db" "$tmp/dir.db"; do
	for cmd in "run --resume 1 --db $db" "report --db $db" "report --levels baddb --db $db" \
		   "export --db $db" "plot --db $db --out $tmp/plots" "merge $tmp/m.db $db" \
		   "compare $db:1 $tmp/good.db:1"; do
		$CONTEND $cmd > /dev/null 2> "$tmp/err"
		rc=$?
		[ $rc -eq 2 ] && grep -q "$db" "$tmp/err" ||
			fail "$cmd: exit $rc, want 2 naming $db: $(cat "$tmp/err")"
	done
done
$CONTEND run "$tmp/b.ini" --db "$tmp/dir.db" --quiet > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q "is a directory" "$tmp/err" ||
	fail "run --db DIR: exit $rc, want 2: $(cat "$tmp/err")"
[ ! -e "$tmp/missing.db" ] && [ ! -e "$tmp/m.db" ] || fail "a refused command created a database"
# A good database and a selection that matches nothing: bad input too.
good=$tmp/good.db
for cmd in "run --resume nosuch --db $good" "report --db $good nosuch" \
	   "report --levels nosuch --db $good" "export --db $good nosuch" \
	   "plot --db $good nosuch --out $tmp/plots" "compare $good:nosuch $good:1"; do
	$CONTEND $cmd > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "nosuch" "$tmp/err" ||
		fail "$cmd: exit $rc, want 2 naming the selection: $(cat "$tmp/err")"
done
[ $failed -eq 0 ] && echo "e2e_baddb: a missing database, a directory and an empty selection are refused with exit 2"

# ---- read-only: readable, not writable ----
# Root writes through file modes, so a read-only tmpfs stands in where it
# can be mounted; otherwise modes do.
mkdir "$mnt"
if mount -t tmpfs -o size=4m tmpfs "$mnt" 2> /dev/null; then
	cp "$tmp/good.db" "$mnt/ro.db"
	mount -o remount,ro "$mnt"
	how="a read-only file system"
else
	cp "$tmp/good.db" "$mnt/ro.db"
	chmod 444 "$mnt/ro.db"
	chmod 555 "$mnt"
	how="file modes"
fi
db=$mnt/ro.db
if [ -w "$db" ] && [ "$how" = "file modes" ]; then
	echo "e2e_baddb: running as root without mount: read-only not tried"
else
	want="cannot write"
	code=1
	try "$db" run "$tmp/b.ini" --db "$db" --quiet
	try "$db" run --resume 1 --db "$db"
	before=$(cksum < "$db")
	for cmd in "report --db $db" "export --db $db" "plot --db $db --out $tmp/roplots" \
		   "compare $db:1 $db:1" "merge $tmp/ro-merged.db $db"; do
		$CONTEND $cmd > /dev/null 2> "$tmp/err" ||
			fail "read-only ($how): $cmd: $(cat "$tmp/err")"
	done
	[ "$(cksum < "$db")" = "$before" ] || fail "read-only: $db was modified"
	[ $failed -eq 0 ] && echo "e2e_baddb: read-only database ($how): read by every reader, writes refused"
fi
exit $failed
