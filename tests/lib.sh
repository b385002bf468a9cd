# tests/lib.sh - the set-up the end-to-end scripts that count their
# failures share (sourced, after setting NAME, e.g. NAME=e2e_run).
#   $CONTEND   the binary, as an absolute path (a script may cd)
#   $tmp       a private directory, removed on exit
#   $runner    the pid of a runner started in the background, or empty:
#              SIGKILLed on exit so that no run outlives the test
#   fail MSG   prints "NAME: FAIL: MSG" and counts it in $fails; the
#              script ends with [ "$fails" -eq 0 ]
#   expect WHAT WANT GOT   fails unless WANT and GOT are the same
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

expect() {
	[ "$2" = "$3" ] || fail "$1: want '$2', got '$3'"
}
