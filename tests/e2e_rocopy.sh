#!/bin/sh
# e2e_rocopy.sh - a reader of a WAL database on read-only media reads a
# private copy under $TMPDIR (db/store_copy.c), and leaves none behind
# when a signal stops it (issue 37, item 4: 37 MB a reader): SIGTERM
# removes it at once; after SIGKILL the next reader sweeps it, but not
# the copy of a reader still alive.  The other signals are
# tests/faults/rocopy.sh's.
NAME=e2e_rocopy
. tests/lib.sh
holder=
reader=
mnt=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; [ -n "$reader" ] && kill -9 "$reader" 2>/dev/null; [ -n "$mnt" ] && umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
command -v sqlite3 > /dev/null || { echo "$NAME: SKIP: sqlite3 not found"; exit 0; }
. tests/rocopy_setup.sh

blocked
ended TERM

# SIGKILL: no handler runs; the next reader sweeps the copy
blocked
kill -9 "$reader"
wait "$reader" 2> /dev/null
exec 3>&-
dead=$(copies)
[ -n "$dead" ] || fail "SIGKILL: no copy left to sweep (the test shows nothing)"
TMPDIR=$t "$CONTEND" report --db "$ro" > /dev/null 2> "$tmp/err2" ||
	fail "report after SIGKILL: $(cat "$tmp/err2")"
grep -q "removed $dead, a database's read-only copy left by a contend that died" \
	"$tmp/err2" || fail "the sweep said nothing: $(cat "$tmp/err2")"
[ -d "$dead" ] && fail "SIGKILL: $dead not swept"
[ -z "$(copies)" ] || fail "report left $(copies)"
# a live reader's copy is not swept
blocked
live=$(copies)
TMPDIR=$t "$CONTEND" report --db "$ro" > /dev/null 2> "$tmp/err2" ||
	fail "report beside a live reader: $(cat "$tmp/err2")"
[ -d "$live" ] || fail "a live reader's copy $live swept"
ended HUP
reader=

[ "$fails" -eq 0 ]
