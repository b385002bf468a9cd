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

# memcap COMMAND...: run it under a 512 MB address-space limit, which
# proves its memory bounded; under AddressSanitizer (make asan), whose
# shadow memory needs terabytes of address space, without the limit: the
# refusals by count are still checked there.
if grep -q AddressSanitizer "$CONTEND" 2> /dev/null; then
	memcap() { "$@"; }
else
	memcap() { (ulimit -v 524288 && exec "$@"); }
fi

# ---- a pipe or FIFO as a number file: opened once, read once ----
printf '1\n2\n3\n' | timeout 20 "$CONTEND" compare /dev/fd/0 "$tmp/b" \
	> "$tmp/out" 2>&1 || fail "a pipe as a number file: exit $?: $(head -3 "$tmp/out")"
grep -q '^x   3 ' "$tmp/out" || fail "a pipe as a number file: not 3 values: $(head -5 "$tmp/out")"
if mkfifo "$tmp/fifo" 2>/dev/null; then
	# the writer goes after one open: a second open would wait forever
	( printf '4\n5\n6\n7\n' > "$tmp/fifo" ) &
	writer=$!
	timeout 20 "$CONTEND" compare "$tmp/fifo" "$tmp/b" "$tmp/b" \
		> "$tmp/out" 2>&1 || fail "a FIFO as a number file: exit $? (hang?): $(head -3 "$tmp/out")"
	grep -q '^x   4 ' "$tmp/out" || fail "a FIFO as a number file: not 4 values"
	expect "a FIFO, both candidates compared" 2 "$(grep -c '^Verdict:' "$tmp/out")"
	# a writer left waiting for a reader must not outlive the test
	kill "$writer" 2>/dev/null
	wait "$writer" 2>/dev/null
fi

# ---- a side of numbers is bounded in count, so in memory ----
# 8 million values (32 MB on standard input): the old code built a run for
# each and died of "out of memory" under 512 MB; now refused at the line.
yes 1.5 | head -n 8000000 | memcap "$CONTEND" compare - "$tmp/b" \
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

# ---- export CSV sides ----
H=experiment_id,uuid,experiment,label,hostname,workload,section,params,seq,warmup,status,metric,value
row() { echo "1,u1,e,l,h,noop,s,threads=1,$1,0,ok,$2,$3"; }
{ echo "$H"; for i in 1 2 3 4 5; do row "$i" throughput "10$i"; done; } > "$tmp/ok.csv"
"$CONTEND" compare "$tmp/ok.csv" "$tmp/ok.csv" > /dev/null 2>&1 ||
	fail "a plain export against itself: exit $?"
# a duplicated row: refused at its line, naming the first
{ cat "$tmp/ok.csv"; row 3 throughput 103; } > "$tmp/duprow.csv"
"$CONTEND" compare "$tmp/duprow.csv" "$tmp/ok.csv" > /dev/null 2> "$tmp/err"
expect "a duplicated row: exit" 2 $?
grep -q "duprow.csv:7: metric 'throughput' of run seq 3 .*line 4 has it already" "$tmp/err" ||
	fail "a duplicated row: $(cat "$tmp/err")"
# a duplicated column contend reads: refused at line 1
sed '1s/$/,value/; 2,$s/$/,99/' "$tmp/ok.csv" > "$tmp/dupcol.csv"
"$CONTEND" compare "$tmp/dupcol.csv" "$tmp/ok.csv" > /dev/null 2> "$tmp/err"
expect "a duplicated column: exit" 2 $?
grep -q "dupcol.csv:1: column 'value' is there twice (fields 13 and 14)" "$tmp/err" ||
	fail "a duplicated column: $(cat "$tmp/err")"
# the per-thread rows of --threads repeat a run's thread_ops: not duplicates
{ echo "$H,thread"; for i in 1 2 3 4 5; do
	echo "$(row "$i" throughput "10$i"),"
	echo "$(row "$i" thread_ops 7),0"; echo "$(row "$i" thread_ops 8),1"
done; } > "$tmp/threads.csv"
"$CONTEND" compare "$tmp/threads.csv" "$tmp/ok.csv" > /dev/null 2> "$tmp/err" ||
	fail "an export with --threads rows: exit $?: $(cat "$tmp/err")"

# memory follows the values, not runs x metrics: 14000 rows, each a run
# and a metric of its own, would be 196 million cells (1.5 GB); the old
# code died of "out of memory" under 512 MB, now refused with the counts
{ echo "$H"; seq 1 14000 | awk '{ printf "1,u1,e,l,h,noop,s,threads=1,%d,0,ok,m%d,1.5\n", $1, $1 }'; } > "$tmp/sparse.csv"
memcap "$CONTEND" compare "$tmp/sparse.csv" "$tmp/ok.csv" > /dev/null 2> "$tmp/err"
expect "runs x metrics far above the values, under ulimit -v 512 MB: exit" 2 $?
grep -q "sparse.csv: experiment u1: 14000 runs x 14000 metrics make 196000000 cells for 14000 values" "$tmp/err" ||
	fail "sparse export: $(head -c 300 "$tmp/err")"

# time linear in the rows: 400000 runs, each looked up among those before
# by the old code (8e10 comparisons a side: minutes); seconds now
{ echo "$H"; seq 1 400000 | awk '{ printf "1,u1,e,l,h,noop,s,threads=1,%d,0,ok,throughput,%d\n", $1, 100 + $1 % 7 }'; } > "$tmp/long.csv"
timeout 60 "$CONTEND" compare "$tmp/long.csv" "$tmp/long.csv" > /dev/null 2> "$tmp/err"
expect "an export of 400000 runs against itself within 60 s: exit" 0 $?
rm -f "$tmp/long.csv" "$tmp/sparse.csv"

# ---- {NAME} substitution and the expanded plan ----
a4000=$(head -c 4000 /dev/zero | tr '\0' a)
braces() { yes '{a}' | head -n "$1" | tr -d '\n'; }
ini() { # $1 file, $2 copies of {a} in argv, $3 the sweep of param.b
	printf '[experiment]\nname = bomb\nrepetitions = 1\nwarmup = 0\n\n[workload w]\ntype = command\nparam.a = %s\nparam.b = %s\nargv = echo %s\nmetric.x = ^x ([0-9]+)$\n' \
		"$a4000" "$3" "$(braces "$2")" > "$1"
}
# an 8 KB file whose argv, {a} replaced, is 5.2 MB in each of 10000
# configurations (52 GB): refused at the argv line before anything is built
ini "$tmp/bomb.ini" 1300 1..10000
memcap "$CONTEND" run "$tmp/bomb.ini" --dry-run --db "$tmp/x.db" > "$tmp/out" 2> "$tmp/err"
expect "a 5 MB argument under ulimit -v 512 MB: exit" 2 $?
grep -q "bomb.ini:10: argv: with {NAME} replaced by the longest value of each param.NAME it is 5200010 bytes; the limit of an argument is 65536" "$tmp/err" ||
	fail "a 5 MB argument: $(head -c 300 "$tmp/err")"
[ -s "$tmp/out" ] && fail "a 5 MB argument: the plan was printed"
# arguments within the limit, but 2000 configurations of 60 KB: 120 MB
ini "$tmp/plan.ini" 15 1..2000
memcap "$CONTEND" run "$tmp/plan.ini" --dry-run --db "$tmp/x.db" > "$tmp/out" 2> "$tmp/err"
expect "a plan of 120 MB of arguments: exit" 2 $?
grep -q "plan.ini:6: \[workload w\] brings the plan's arguments to more than 67108864 bytes (.*the longest, argv, 60011 bytes)" "$tmp/err" ||
	fail "a plan of 120 MB: $(head -c 300 "$tmp/err")"
[ -e "$tmp/x.db" ] && fail "a refused plan: a database was written"
# just under: 1000 configurations of 60 KB are taken
ini "$tmp/ok.ini" 15 1..1000
"$CONTEND" run "$tmp/ok.ini" --dry-run --db "$tmp/x.db" > /dev/null 2> "$tmp/err" ||
	fail "a plan of 60 MB of arguments: exit $?: $(head -c 300 "$tmp/err")"

# ---- --dry-run checks the hooks as a run would, {NAME} replaced ----
hooks() { # $1 file, $2 param.q's values, $3 the hook line
	printf '[experiment]\nname = hk\nrepetitions = 1\nwarmup = 0\n\n[workload w]\ntype = command\nparam.q = %s\nargv = echo x 1\nmetric.x = ^x ([0-9]+)$\n%s\n' \
		"$2" "$3" > "$1"
}
hooks "$tmp/h1.ini" "true, contend-no-such-program" "prepare = {q} now"
"$CONTEND" run "$tmp/h1.ini" --dry-run --db "$tmp/h.db" > "$tmp/out" 2> "$tmp/err"
expect "--dry-run, a prepare not installed once {q} is replaced: exit" 2 $?
grep -q "h1.ini:6: \[workload w\] prepare: contend-no-such-program is not installed" "$tmp/err" ||
	fail "--dry-run, prepare not installed: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "--dry-run with a bad prepare printed the plan"
hooks "$tmp/h2.ini" '1, a"b' "cleanup = echo {q}"
"$CONTEND" run "$tmp/h2.ini" --dry-run --db "$tmp/h.db" > /dev/null 2> "$tmp/err"
expect "a cleanup whose {q} leaves a quote open: exit" 2 $?
grep -q "h2.ini:11: \[workload w\] cleanup: unterminated double quote once {NAME} is replaced: 'echo a\"b'" "$tmp/err" ||
	fail "a cleanup with a quote left open: $(cat "$tmp/err")"
hooks "$tmp/h3.ini" "true, echo" "prepare = {q} now"
"$CONTEND" run "$tmp/h3.ini" --dry-run --db "$tmp/h.db" > /dev/null 2> "$tmp/err" ||
	fail "--dry-run with good hooks: exit $?: $(cat "$tmp/err")"

[ "$fails" -eq 0 ]
