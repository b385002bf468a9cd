#!/bin/sh
# quote.sh - messages that quote data: no control byte reaches the
# terminal and no quote is unbounded.  compare's "metric '...' is not
# recorded" with a metric asked for and with stored metric names holding
# each hostile byte (ESC, CR, BEL, a raw C1 byte, a C1 control in UTF-8,
# a right-to-left override, an invalid byte); history's "'PATTERN'
# matches N experiments" with patterns of 5,000 and 70,000 bytes and with
# each byte; a selector that names nothing, for report, levels and
# compare.  Each message: exit 2, no control byte but its line break, at
# most 300 bytes a line, the escaped form shown.
NAME=quote
. tests/faults/lib.sh

cat > "$tmp/q.ini" <<INI
[experiment]
name        = quote
repetitions = 2
warmup      = 0
jobs        = 10

[workload w]
type    = noop
INI
for l in a b; do
	"$C" run "$tmp/q.ini" --db "$tmp/q.db" --label "$l" --quiet \
		> "$tmp/out" 2>&1 || die "run: $(cat "$tmp/out")"
done

# clean WHAT FILE: FILE (a command's stderr) has no control byte but the
# line break, no line over 300 bytes, and is not empty.
clean() {
	[ -s "$2" ] || fail "$1: no message"
	if LC_ALL=C tr -d '\n' < "$2" | LC_ALL=C grep -q '[[:cntrl:]]'; then
		fail "$1: a control byte reached the terminal: $(od -c "$2" | head -5)"
	fi
	long=$(awk 'length($0) > 300' "$2" | wc -l)
	[ "$long" = 0 ] || fail "$1: $long lines over 300 bytes"
}

# status WHAT WANT GOT
status() { [ "$3" = "$2" ] || fail "$1: exit $3, want $2"; }

# The bytes, one a case: name and printf format.
bytes='esc:\033[2J cr:a\rb bel:\007 c1raw:\233 c1utf8:\302\233 rlo:\342\200\256 invalid:\377'

for b in $bytes; do
	what=${b%%:*} fmt=${b#*:}
	m=$(printf "m$fmt")
	"$C" compare a b --db "$tmp/q.db" --metric "$m" > /dev/null 2> "$tmp/err"
	status "compare --metric $what" 2 $?
	clean "compare --metric $what" "$tmp/err"
	grep -q "is not recorded" "$tmp/err" ||
		fail "compare --metric $what: $(cat "$tmp/err")"
	"$C" history "p$fmt*" --db "$tmp/q.db" > /dev/null 2> "$tmp/err"
	status "history $what" 2 $?
	clean "history $what" "$tmp/err"
	for cmd in report levels; do
		"$C" $cmd "x$fmt" --db "$tmp/q.db" > /dev/null 2> "$tmp/err"
		status "$cmd $what" 2 $?
		clean "$cmd $what" "$tmp/err"
	done
done
note "compare, history, report, levels: every byte shown escaped"

# Stored names: every metric of side b renamed to hold a byte; compare
# lists them escaped.
for b in $bytes; do
	what=${b%%:*} fmt=${b#*:}
	cp "$tmp/q.db" "$tmp/s.db"
	sqlite3 "$tmp/s.db" "UPDATE samples SET metric = CAST(X'$(printf "k$fmt" |
		od -An -tx1 | tr -d ' \n')' AS TEXT) || metric" ||
		die "cannot rename the metrics"
	"$C" compare a b --db "$tmp/s.db" --metric ops > /dev/null 2> "$tmp/err"
	status "stored $what" 2 $?
	clean "stored $what" "$tmp/err"
done
note "stored metric names: listed escaped"

# Long patterns and metrics: quoted whole no more.
for n in 5000 70000; do
	p=$(head -c "$n" /dev/zero | tr '\0' p)
	"$C" history "$p" --db "$tmp/q.db" > /dev/null 2> "$tmp/err"
	status "history of $n bytes" 2 $?
	clean "history of $n bytes" "$tmp/err"
	grep -q "'p*\.\.\.' matches 0 experiments" "$tmp/err" ||
		fail "history of $n bytes: $(head -c 300 "$tmp/err")"
	"$C" compare a b --db "$tmp/q.db" --metric "$p" > /dev/null 2> "$tmp/err"
	status "compare --metric of $n bytes" 2 $?
	clean "compare --metric of $n bytes" "$tmp/err"
done
# Every other message that quotes a selector, a metric or an option's
# value: no line over 300 bytes for a value of 5000 bytes.
p=$(head -c 5000 /dev/zero | tr '\0' p)
for args in "levels $p" "compare a $p" "compare $p b" "report a --metrics $p" \
	"report a --format $p" "compare a b --threshold $p" \
	"compare a b --confidence $p" "levels a --scale $p" "plot a --metric $p" \
	"report a --resolve $p" "bisect --alpha $p"; do
	"$C" $args --db "$tmp/q.db" > /dev/null 2> "$tmp/err"
	# (plot's unknown metric exits 1, not 2: its status is not this test's)
	[ $? != 0 ] || fail "${args%% *} ... ${#p} bytes: exit 0"
	clean "$(echo "$args" | cut -c1-40)" "$tmp/err"
done
note "patterns, selectors, metrics, option values of 5000 and more bytes: quoted capped"
# Messages printed straight to stderr, not through error(): run's
# "created the database PATH" (the default database, $CONTEND_DB) and
# merge's "IN: experiment N 'NAME' (UUID)
# is already in OUT, skipped", with paths holding each byte, a path of
# over 400 bytes, and a stored name of 5,000 bytes.  Exit 0 (they are
# notes), no control byte, no line over 300 bytes.  Then error()'s
# "cannot open database PATH" for a missing path of 3,000 bytes: a
# failure (its status is not this test's), the path capped.
# (SQLite opens no path of over 512 bytes: the deep one is 400 and more)
deep=$tmp
while [ ${#deep} -lt 400 ]; do
	deep=$deep/$(head -c 100 /dev/zero | tr '\0' d)
done
for b in $bytes deep; do
	what=${b%%:*} fmt=${b#*:}
	if [ "$b" = deep ]; then dir=$deep; else dir=$tmp/$(printf "d$fmt"); fi
	mkdir -p "$dir" || die "cannot make the directory, $what"
	CONTEND_DB=$dir/n.db "$C" run "$tmp/q.ini" --label a \
		> /dev/null 2> "$tmp/err"
	status "run into a new database, $what" 0 $?
	grep -v "warning: load" "$tmp/err" > "$tmp/err2"
	clean "run into a new database, $what" "$tmp/err2"
	grep -q "created the database" "$tmp/err2" ||
		fail "run, $what: $(head -c 300 "$tmp/err2")"
	for i in 1 2; do
		"$C" merge "$dir/m.db" "$dir/n.db" > /dev/null 2> "$tmp/err"
		status "merge $i, $what" 0 $?
	done
	clean "merge, $what" "$tmp/err"
	grep -q "already in .*, skipped" "$tmp/err" ||
		fail "merge, $what: $(head -c 300 "$tmp/err")"
done
cp "$tmp/q.db" "$tmp/n.db"
sqlite3 "$tmp/n.db" "UPDATE experiments SET name = '$(head -c 5000 /dev/zero |
	tr '\0' n)'" || die "cannot rename the experiments"
for i in 1 2; do
	"$C" merge "$tmp/m.db" "$tmp/n.db" > /dev/null 2> "$tmp/err"
	status "merge of a 5000-byte name $i" 0 $?
done
clean "merge of a 5000-byte name" "$tmp/err"
grep -q "'n*\.\.\.' (" "$tmp/err" ||
	fail "merge of a 5000-byte name: $(head -c 300 "$tmp/err")"
p=$tmp/$(head -c 3000 /dev/zero | tr '\0' p)
"$C" report --db "$p" > /dev/null 2> "$tmp/err"
[ $? != 0 ] || fail "report of a 3000-byte missing path: exit 0"
clean "report of a 3000-byte missing path" "$tmp/err"
grep -q "cannot open database .*p\.\.\.:" "$tmp/err" ||
	fail "report of a 3000-byte path: $(head -c 300 "$tmp/err")"
note "run's new database, merge's skipped experiment: paths and names escaped, capped"
exit $failed
