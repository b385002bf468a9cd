#!/bin/sh
# e2e_auto.sh - `repetitions = auto`: a steady configuration stops at
# min_repetitions (precision reached), a hopelessly noisy one runs to
# max_repetitions; the plan grows by rounds, stays recorded, and resumes
# after the runner is killed with SIGKILL in the middle of a grown round.
#
# The precision targets are far from the data on purpose: noop's throughput
# CV is a few percent on a quiet machine and reached 30% for 20 ms runs at
# a load average of 12 on 2 CPUs (values 3.4M to 11.5M in one run); a 90%
# target at n = 8 needs CV < 1.07 (t.975 with 7 df is 2.365:
# 2.365 * CV / sqrt(8) < 0.9); jitter =
# 0.9 scales throughput by U(0.1, 1.9) (CV ~ 0.5), which can never give a
# 0.01% interval in 6 runs.
set -u
CONTEND=${CONTEND:-./contend}
case $CONTEND in /*) ;; *) CONTEND=$(pwd)/$CONTEND ;; esac
tmp=$(mktemp -d)
runner=
trap '[ -n "$runner" ] && kill -9 "$runner" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "e2e_auto: FAIL: $*" >&2
	fails=$((fails + 1))
}

expect() {
	[ "$2" = "$3" ] || fail "$1: want '$2', got '$3'"
}

q() {
	sqlite3 -readonly "$db" "$1"
}

cat > "$tmp/auto.ini" <<'EOF'
[experiment]
name            = e2e-auto
repetitions     = auto
min_repetitions = 3
max_repetitions = 6
warmup          = 1
runtime         = 20ms
seed            = 9

[workload steady]
type            = noop
precision       = 0.9
min_repetitions = 8
max_repetitions = 10
runtime         = 100ms

[workload noisy]
type      = noop
jitter    = 0.9
precision = 0.0001
runtime   = 250ms
EOF

measured() {
	q "SELECT count(*) FROM runs r JOIN configs c ON c.id = r.config_id
	   WHERE c.section = '$1' AND r.warmup = 0"
}

check() {
	expect "$1: steady stops at min_repetitions" 8 "$(measured steady)"
	expect "$1: noisy stops at max_repetitions" 6 "$(measured noisy)"
	expect "$1: runs" 16 "$(q "SELECT count(*) FROM runs")"
	expect "$1: seqs 0..15 once each" "16 0 15" \
		"$(q "SELECT count(DISTINCT seq), min(seq), max(seq) FROM runs" | tr '|' ' ')"
	expect "$1: all ran" 0 "$(q "SELECT count(*) FROM runs WHERE status <> 'ok'")"
	expect "$1: grown rounds hold only noisy" noisy \
		"$(q "SELECT DISTINCT c.section FROM runs r JOIN configs c
		      ON c.id = r.config_id WHERE r.seq >= 13")"
	expect "$1: status" complete "$(q "SELECT status FROM experiments")"
}

db=$tmp/auto.db
"$CONTEND" run "$tmp/auto.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err"
expect "exit status" 0 $?
check "uninterrupted"

# Kill the runner once the plan has grown past its first 13 runs.
db=$tmp/kill.db
"$CONTEND" run "$tmp/auto.ini" --db "$db" --quiet > /dev/null 2>&1 &
runner=$!
i=0
while [ "$(sqlite3 -readonly "$db" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" -le 13 ] &&
      kill -0 "$runner" 2>/dev/null && [ $i -lt 2000 ]; do
	i=$((i + 1))
	sleep 0.01
done
kill -KILL "$runner" 2>/dev/null
wait "$runner" 2>/dev/null
runner=
"$CONTEND" run --resume 1 --db "$db" --quiet > /dev/null 2> "$tmp/err"
expect "resume exit status" 0 $?
check "killed and resumed"
# The same seed orders the grown rounds alike, killed or not.
a=$(sqlite3 -readonly "$tmp/auto.db" "SELECT c.pos FROM runs r JOIN configs c ON
	c.id = r.config_id ORDER BY r.seq" | tr '\n' ' ')
b=$(q "SELECT c.pos FROM runs r JOIN configs c ON c.id = r.config_id
	ORDER BY r.seq" | tr '\n' ' ')
expect "order after a kill and resume" "$a" "$b"

[ "$fails" -eq 0 ]
