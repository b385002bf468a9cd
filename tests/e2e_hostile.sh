#!/bin/sh
# e2e_hostile.sh - hostile experiment files given to `contend run`: each
# must be refused with a clear message naming the file (and the line where
# there is one), exit status 2, promptly, and no database file created.
# The small ones are in tests/data/hostile/; the huge ones (10 MB lines,
# 100000 sections, files past the size cap) are generated here, and
# /dev/zero stands for an endless config and an endless file of numbers.
set -u
: "${CONTEND:=./contend}"
tmp=$(mktemp -d /tmp/contend-hostile-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
failed=0
n=0
fail() { echo "e2e_hostile: FAIL: $*" >&2; failed=1; }

# refuse FILE WANT: contend run FILE is refused: exit 2, WANT (a grep
# pattern) in the message, the file named, no database.
refuse() {
	n=$((n + 1))
	db=$tmp/h$n.db
	timeout 120 "$CONTEND" run "$1" --db "$db" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	name=$(basename "$1")
	[ $rc = 2 ] || fail "$name: exit $rc, want 2: $(head -c 300 "$tmp/err")"
	head -n 1 "$tmp/err" | grep -q "^contend: $1" ||
		fail "$name: the message does not start with the file: $(head -c 300 "$tmp/err")"
	grep -q -- "$2" "$tmp/err" ||
		fail "$name: want '$2' in: $(head -c 300 "$tmp/err")"
	[ ! -e "$db" ] || fail "$name: a database was created"
	[ -z "${SHOW:-}" ] || echo "$name: $(head -n 2 "$tmp/err" | cut -c1-160)"
	[ "$(wc -c < "$tmp/err")" -lt 8192 ] ||
		fail "$name: $(wc -c < "$tmp/err") bytes of messages (echoing the input?)"
}

d=tests/data/hostile
refuse $d/count-overflow.ini "expands to more than 100000 configurations"
refuse $d/runs-overflow.ini "the limit is 100000"
refuse $d/repetitions-enormous.ini "repetitions: .* is out of range"
refuse $d/repetitions-negative.ini "repetitions: -3 is out of range"
refuse $d/threads-100000.ini "threads: 100000 is out of range (1 .. 4096)"
refuse $d/threads-negative.ini "threads: -1 is out of range"
refuse $d/spin-float.ini "spin: '1e30' is not an integer"
refuse $d/jobs-overflow.ini "does not fit in 64 bits"
refuse $d/runtime-negative.ini "runtime: '-5s' is not a duration"
refuse $d/runtime-enormous.ini "timeout: .* is out of range"
refuse $d/cpus-enormous.ini "cpus: bad cpu list"
refuse $d/cpus-negative.ini "cpus: bad cpu list"
refuse $d/confidence-enormous.ini "confidence"
refuse $d/nul-in-key.ini ":2: NUL byte"
refuse $d/nul-in-value.ini ":2: NUL byte"
refuse $d/invalid-utf8.ini ":2: invalid UTF-8"
refuse $d/overlong-utf8.ini ":4: invalid UTF-8"
echo "e2e_hostile: $n files of tests/data/hostile refused"

head='[experiment]
name = huge'

# A 10 MB line, in a value and as a key.
{ echo "$head"; echo "[workload w]"; echo "type = noop"
  printf 'spin = '; head -c 10485760 /dev/zero | tr '\0' '1'; echo; } > "$tmp/long-value.ini"
refuse "$tmp/long-value.ini" ":5: .*line"
{ echo "$head"; head -c 10485760 /dev/zero | tr '\0' 'k'; echo " = 1"; } > "$tmp/long-key.ini"
refuse "$tmp/long-key.ini" ":3: .*line"
# A file past the 16 MiB cap, of short valid-looking lines.
{ echo "$head"; i=0; while [ $i -lt 40 ]; do echo "[workload w$i]"; echo "type = noop"; i=$((i + 1)); done
  yes '; a comment line, harmless by itself' | head -c 17000000; } > "$tmp/too-big.ini"
refuse "$tmp/too-big.ini" "larger than"
# 100000 identical sections.
{ echo "$head"; yes '[workload w]
type = noop' | head -n 200000; } > "$tmp/repeated-sections.ini"
refuse "$tmp/repeated-sections.ini" "workload w"
# 5000 distinct sections (past the 1000-section cap).
{ echo "$head"; i=0; while [ $i -lt 5000 ]; do printf '[workload s%d]\ntype = noop\n' $i; i=$((i + 1)); done; } \
	> "$tmp/many-sections.ini"
refuse "$tmp/many-sections.ini" "section"
# Brackets nested 100000 deep.
{ echo "$head"; head -c 100000 /dev/zero | tr '\0' '['; head -c 100000 /dev/zero | tr '\0' ']'; echo; } \
	> "$tmp/nested-brackets.ini"
refuse "$tmp/nested-brackets.ini" ":3: "
# A sweep of 100000 elements, one of 10^6 commas, ranges at the 64-bit edges.
{ echo "$head"; echo "[workload w]"; echo "type = noop"; printf 'spin = 0'
  i=1; while [ $i -lt 100000 ]; do printf ', %d' $i; i=$((i + 1)); done; echo; } > "$tmp/wide-sweep.ini"
refuse "$tmp/wide-sweep.ini" ":5: "
{ echo "$head"; echo "[workload w]"; echo "type = noop"; printf 'spin = 1'
  head -c 1000000 /dev/zero | tr '\0' ','; echo; } > "$tmp/commas.ini"
refuse "$tmp/commas.ini" ":5: "
# range KEY VALUE WANT: a paramtest sweep at the 64-bit edges.
range() {
	printf '%s\n[workload w]\ntype = paramtest\n%s = %s\n' "$head" "$1" "$2" > "$tmp/range.ini"
	refuse "$tmp/range.ini" ":5: $1: $3"
}
range big '1..18446744073709551615' "the sweep has more than 10000 values"
range big '1..1000000000:1' "the sweep has more than 10000 values"
range big '1..99999999999999999999' "99999999999999999999 does not fit in 64 bits"
range count '-9223372036854775808..9223372036854775807:1' "-9223372036854775808 is out of range"
range count '-10..100*0' "geometric factor 0"
range big '18446744073709551615..1' "reversed range"
# Binary garbage and an empty file.
head -c 65536 /dev/urandom > "$tmp/random.ini"
refuse "$tmp/random.ini" "contend: "
: > "$tmp/empty.ini"
refuse "$tmp/empty.ini" "empty\|no \[experiment\]\|nothing to run"
echo "e2e_hostile: $n hostile files refused in all"

# An endless file of numbers for compare: refused at the size cap, not
# read until memory runs out.
timeout 60 "$CONTEND" compare /dev/zero /dev/zero > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "^contend: /dev/zero: file is larger than 256 MiB" "$tmp/err" ||
	fail "compare /dev/zero: exit $rc: $(head -c 300 "$tmp/err")"
# A config that never ends.
timeout 60 "$CONTEND" run /dev/zero --db "$tmp/z.db" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q "larger than" "$tmp/err" && [ ! -e "$tmp/z.db" ] ||
	fail "run /dev/zero: exit $rc: $(head -c 300 "$tmp/err")"
exit $failed
