#!/bin/sh
# dbgone.sh - the database removed, rewritten or damaged by another
# program while an experiment runs (here, by a run's own command): the
# runner checks at the end that the file at the path is the one it
# opened, intact (quick_check), and holds the runs as it wrote them, and
# says what happened, exit 1.  Before, it said success: its results went
# to an unlinked file, or the experiment was `complete` with its runs
# back to `planned`.  Each case once, and an untouched control run.
NAME=dbgone
. tests/faults/lib.sh

# ini FILE ARGV: 4 noop runs and one command run of ARGV, seed-ordered.
ini() {
	cat > "$1" <<INI
[experiment]
name        = dbgone
repetitions = 2
warmup      = 0
runtime     = 2ms
seed        = 7

[workload n]
type    = noop
threads = 1, 2

[workload c]
type        = command
shell       = yes
repetitions = 1
argv        = $2; echo ops 5
metric      = ops ([0-9]+)
INI
}

# case NAME ARGV WANT: the runner of ARGV exits 1 with WANT in its
# messages (WANT empty: exits 0).  $db is the database.
case_of() {
	name=$1
	db=$tmp/$name.db
	ini "$tmp/$name.ini" "$(echo "$2" | sed "s|DB|$db|g")"
	"$C" run "$tmp/$name.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err"
	rc=$?
	if [ -z "$3" ]; then
		[ $rc = 0 ] || fail "$name: exit $rc: $(cat "$tmp/err")"
	else
		[ $rc = 1 ] || fail "$name: exit $rc, want 1: $(cat "$tmp/err")"
		grep -q -- "$3" "$tmp/err" || fail "$name: want '$3' in: $(cat "$tmp/err")"
	fi
	[ -z "${SHOW:-}" ] || grep -v 'load average' "$tmp/err"
	no_procs
}

Q="sqlite3 -cmd '.timeout 10000' DB"
case_of control "true" ""
case_of removed "rm -f DB DB-wal DB-shm" "was removed while contend wrote it"
case_of replaced "cp DB DB.new && mv DB.new DB" "was replaced while contend wrote it"
case_of rows "$Q \"UPDATE runs SET status = 'planned'\"" \
	"was changed while it ran: .* runs still to do"
st=$(sql "$db" "SELECT status FROM experiments")
[ "$st" = failed ] || fail "rows: the experiment is '$st', not failed"
"$C" run --resume 1 --db "$db" --quiet > /dev/null 2> "$tmp/err" ||
	fail "rows: resume failed: $(cat "$tmp/err")"
# the whole log, whatever its size: the newest copy of each page is in its
# last frames, which a shorter overwrite would leave intact
case_of wal "dd if=/dev/urandom of=DB-wal bs=1024 count=1024 conv=notrunc 2>/dev/null" \
	"damaged"
note "removed, replaced, rows rewritten, damaged: each said, exit 1"
finish
