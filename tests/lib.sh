# tests/lib.sh - the set-up the end-to-end scripts that count their
# failures share (sourced, after setting NAME, e.g. NAME=e2e_run).
#   $CONTEND   the binary, as an absolute path (a script may cd)
#   $tmp       a private directory, removed on exit
#   $runner    the pid of a runner started in the background, or empty:
#              SIGKILLed on exit so that no run outlives the test
#   fail MSG   prints "NAME: FAIL: MSG" and counts it in $fails; the
#              script ends with [ "$fails" -eq 0 ]
#   die MSG    fails and ends the script: a step the rest needs failed
#   expect WHAT WANT GOT   fails unless WANT and GOT are the same
#   expect_status WANT ARGS...   fails unless `contend ARGS` exits WANT
#   q [DB] SQL   one read-only query on DB, by default the script's $db
#   need_python3   ends the script with SKIP where python3 is missing
set -u
CONTEND=${CONTEND:-./contend}
case $CONTEND in /*) ;; *) CONTEND=$(pwd)/$CONTEND ;; esac
tmp=$(mktemp -d)
runner=
trap '[ -n "$runner" ] && kill -9 "$runner" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "$NAME: FAIL: $*" >&2
	fails=$((fails + 1))
}

die() {
	fail "$*"
	exit 1
}

expect() {
	[ "$2" = "$3" ] || fail "$1: want '$2', got '$3'"
}

expect_status() {
	want=$1
	shift
	"$CONTEND" "$@" >/dev/null 2>&1
	got=$?
	[ "$got" -eq "$want" ] || fail "'contend $*' exited $got, not $want"
}

q() {
	if [ $# -ge 2 ]; then
		sqlite3 -readonly "$1" "$2"
	else
		sqlite3 -readonly "$db" "$1"
	fi
}

need_python3() {
	command -v python3 >/dev/null 2>&1 && return
	echo "$NAME: SKIP: python3 not found"
	exit 0
}
