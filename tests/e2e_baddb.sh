#!/bin/sh
# e2e_baddb.sh - databases contend must not use: written by a newer schema
# version, truncated, not SQLite at all (text, random bytes), SQLite but
# someone else's, and read-only.  Every command that opens a database
# (run, run --resume, report, export, plot, merge, compare) must fail with
# a message naming the file and the reason, and leave the file exactly as
# it was (same checksum; no write-ahead log written).  A read-only
# database can still be read (report, export, plot, compare, merge into
# another file) but not written (run, resume).
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

# try DB CMD...: runs contend, checks it failed clearly, DB untouched.
try() {
	db=$1
	shift
	before=$(cksum < "$db")
	"$CONTEND" "$@" > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc -ne 0 ] || fail "$*: exit 0 on $db"
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
	try "$db" export --db "$db"
	try "$db" plot --db "$db" --out "$tmp/plots"
	try "$db" merge "$tmp/merged-$kind.db" "$db"
	try "$db" compare "$db:1" "$db:1"
	[ $failed -eq 0 ] && echo "e2e_baddb: $kind database refused by every command, untouched"
	[ $failed -eq 0 ] || exit 1
done || failed=1

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
