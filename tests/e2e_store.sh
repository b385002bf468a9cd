#!/bin/sh
# e2e_store.sh - merge and export through the real binary ($CONTEND): usage
# and bad-input errors: exit 2, the file named, no database created.  The
# data paths are covered by tests/test_merge.c and tests/test_export.c.
set -u
: "${CONTEND:=./contend}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/contend-e2e-store.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

fail() {
	echo "e2e_store: $*" >&2
	[ -f "$tmp/err" ] && sed 's/^/  stderr: /' "$tmp/err" >&2
	exit 1
}

# expect STATUS PATTERN CMD...: exit status and a stderr line matching
expect() {
	want=$1 pattern=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" -eq "$want" ] || fail "'$*' exited $got, expected $want"
	grep -q -- "$pattern" "$tmp/err" || fail "'$*': no '$pattern' on stderr"
}

printf 'not a database, only text; long enough to cover a header. %s\n' \
	"..........................................................." >"$tmp/notes.txt"

expect 2 'usage: contend merge' "$CONTEND" merge "$tmp/out.db"
expect 2 "$tmp/notes.txt: file is not a database" \
	"$CONTEND" merge "$tmp/out.db" "$tmp/notes.txt"
[ -e "$tmp/out.db" ] && fail "merge created OUT despite a bad input"
expect 2 "cannot open database $tmp/none.db" \
	"$CONTEND" export --db "$tmp/none.db"
[ -e "$tmp/none.db" ] && fail "export created its database"
expect 2 "unknown format 'xml'" "$CONTEND" export --db "$tmp/none.db" --format xml
expect 2 "$tmp/notes.txt: file is not a database" \
	"$CONTEND" export --db "$tmp/notes.txt"
CONTEND_DB="$tmp/notes.txt" expect 2 "$tmp/notes.txt: file is not a database" \
	"$CONTEND" export

expect 2 "cannot open database $tmp/missing.db" \
	"$CONTEND" merge "$tmp/out.db" "$tmp/missing.db"
[ -e "$tmp/out.db" ] && fail "merge created OUT despite a missing input"
[ -e "$tmp/missing.db" ] && fail "merge created a missing input"

exit 0
