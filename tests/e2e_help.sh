#!/bin/sh
# e2e_help.sh - every command of `contend --help` answers `contend CMD
# --help`, `contend CMD -h` and `contend help CMD` with exit 0 and the
# same text on stdout, within 80 columns; every option that text names is
# one the command accepts (it is not refused as unknown, or for taking or
# lacking a value), and an option it does not name is refused with exit 2.
# Run from a directory outside the checkout, as a user would.
set -u
CONTEND=${CONTEND:-./contend}
case $CONTEND in /*) ;; *) CONTEND=$(pwd)/$CONTEND ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "e2e_help: FAIL: $*" >&2; exit 1; }
cd "$tmp" || exit 1
export CONTEND_DB="$tmp/none.db"

cmds=$("$CONTEND" --help | awk '/^commands:/ { on = 1; next } on && !NF { exit } on { print $1 }')
[ -n "$cmds" ] || fail "contend --help lists no commands"
n=0
for c in $cmds; do
	"$CONTEND" "$c" --help >long.txt 2>err.txt || fail "contend $c --help exited $?"
	[ -s err.txt ] && fail "contend $c --help wrote to stderr: $(cat err.txt)"
	head -n 1 long.txt | grep -q "^usage: contend $c" ||
		fail "contend $c --help does not begin with its usage"
	"$CONTEND" "$c" -h >short.txt || fail "contend $c -h exited $?"
	"$CONTEND" help "$c" >help.txt || fail "contend help $c exited $?"
	cmp -s long.txt short.txt || fail "contend $c -h differs from --help"
	cmp -s long.txt help.txt || fail "contend help $c differs from $c --help"
	awk -v c="$c" 'length > 80 { print "contend " c " --help: line " NR \
		" is " length " columns"; bad = 1 } END { exit bad }' long.txt ||
		fail "wider than 80 columns"
	# The options of the help's option list: "  -x, --name ARG" or
	# "      --name ARG"; ARG present when the option takes a value.
	sed -n 's/^  \(-., \)\{0,1\} *--\([a-z][a-z-]*\)\( [^ ]*\)\{0,1\}.*/\2\3/p' \
		long.txt >opts.txt
	grep -q '^help *$' opts.txt || fail "contend $c --help does not list --help"
	while read -r name arg; do
		[ "$name" = help ] && continue
		if [ -n "$arg" ]; then word="--$name=x"; else word="--$name"; fi
		"$CONTEND" "$c" "$word" --help >/dev/null 2>err.txt
		if grep -q "unknown option\|takes no value\|needs a value" err.txt; then
			fail "contend $c refuses $word, which its help lists: $(cat err.txt)"
		fi
		# the synopsis names it as well
		grep -q -- "--$name" long.txt || fail "contend $c: --$name not in the usage"
		n=$((n + 1))
	done <opts.txt
	status=0
	"$CONTEND" "$c" --no-such-option >/dev/null 2>err.txt || status=$?
	# bisect's bad input is 128, which stops git bisect run
	want=2
	[ "$c" = bisect ] && want=128
	[ "$status" = "$want" ] ||
		fail "contend $c --no-such-option exited $status, not $want"
	grep -q "unknown option '--no-such-option'" err.txt ||
		fail "contend $c --no-such-option: $(cat err.txt)"
	[ "$(wc -l <err.txt)" = 1 ] || fail "contend $c: more than one line for an unknown option"
done
[ "$n" -gt 30 ] || fail "only $n options found in the help texts"

# did you mean, and a missing value, name the option
status=0
"$CONTEND" report --formt json 2>err.txt || status=$?
[ "$status" = 2 ] || fail "report --formt exited $status"
grep -q "did you mean '--format'" err.txt || fail "no suggestion: $(cat err.txt)"
status=0
"$CONTEND" compare a b --threshold 2>err.txt || status=$?
[ "$status" = 2 ] || fail "compare --threshold exited $status"
grep -q "option '--threshold' needs a value" err.txt || fail "missing value: $(cat err.txt)"
status=0
"$CONTEND" help nosuch 2>err.txt || status=$?
[ "$status" = 2 ] || fail "help nosuch exited $status"
echo "e2e_help: $(echo "$cmds" | wc -w) commands, $n options checked"
exit 0
