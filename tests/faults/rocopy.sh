#!/bin/sh
# rocopy.sh - a reader of a WAL database on read-only media leaves no
# private copy in $TMPDIR (issue 37, item 4), whichever way it is
# stopped: SIGINT, SIGTERM, SIGHUP, SIGQUIT while it writes, SIGPIPE
# from `| head`; after SIGKILL the next reader removes the copy (by its
# owner's pid and start time), also one holding only part of a copy, and leaves alone a copy of a live reader and one whose
# name does not parse.  tests/e2e_rocopy.sh is the quick version.
NAME=rocopy
. tests/faults/lib.sh
holder=
reader=
mnt=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; [ -n "$reader" ] && kill -9 "$reader" 2>/dev/null; [ -n "$mnt" ] && umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
CONTEND=$C
. tests/rocopy_setup.sh

sigs="TERM HUP"
[ -n "$dflt" ] && sigs="INT TERM HUP QUIT" || note "no env --default-signal: SIGINT and SIGQUIT not tried"
for sig in $sigs; do
	blocked
	ended "$sig"
done
reader=

# SIGPIPE: the reader of `| head`
TMPDIR=$t "$C" export --db "$ro" 2> "$tmp/err" | head -c 100 > /dev/null
[ -z "$(copies)" ] || fail "SIGPIPE: left $(copies)"

# SIGKILL; a partial copy of a dead owner made by hand; a live one; a
# name that does not parse
blocked
kill -9 "$reader"
wait "$reader" 2> /dev/null
exec 3>&-
reader=
killed=$(copies)
[ -n "$killed" ] || fail "SIGKILL: no copy left (the test shows nothing)"
partial=$t/contend-ro-999999999-1.abcdef
mkdir "$partial" && : > "$partial/contend.db-shm" || die "mkdir"
mkdir "$t/contend-ro-junk.x" || die "mkdir"
TMPDIR=$t "$C" report --db "$ro" > /dev/null 2> "$tmp/err2" ||
	fail "report after SIGKILL: $(cat "$tmp/err2")"
for d in "$killed" "$partial"; do
	[ -d "$d" ] && fail "SIGKILL: $d not swept"
	grep -q "removed $d, a database's read-only copy" "$tmp/err2" ||
		fail "the sweep of $d said nothing: $(cat "$tmp/err2")"
done
[ -d "$t/contend-ro-junk.x" ] || fail "a name that does not parse swept"
blocked
live=$(copies)
TMPDIR=$t "$C" report --db "$ro" > /dev/null 2> "$tmp/err2" ||
	fail "report beside a live reader: $(cat "$tmp/err2")"
[ -d "$live" ] || fail "a live reader's copy $live swept"
ended TERM
reader=

exit $failed
