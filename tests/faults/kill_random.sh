#!/bin/sh
# kill_random.sh - SIGKILL the runner at seeded random moments (planning,
# running, committing), then check the database and resume:
#   PRAGMA integrity_check is ok; the experiment, if its plan was written,
#   is whole (every planned run present); `--resume` completes it; and the
#   finished experiment holds every planned run exactly once, all ok.
# Usage: CONTEND=./contend sh tests/faults/kill_random.sh [TRIALS] [SEED]
# The delays are the point here (random moments), not synchronisation.
set -u
CONTEND=${CONTEND:-./contend}
case $CONTEND in /*) ;; *) CONTEND=$(pwd)/$CONTEND ;; esac
trials=${1:-50}
seed=${2:-20240501}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

fail() {
	echo "kill_random: trial $t (delay $delay s): FAIL: $*" >&2
	fails=$((fails + 1))
}

# 3 configurations x (1 warm-up + 3 measured) = 12 runs of ~30 ms.
cat > "$tmp/k.ini" <<'INI'
[experiment]
name        = kill-random
repetitions = 3
warmup      = 1
runtime     = 30ms
seed        = 11

[workload a]
type    = noop
threads = 1, 2

[workload b]
type  = noop
fault = exit
INI

# Delays in [0, 0.8) s from a seeded generator: the same trials every time.
delays=$(awk -v n="$trials" -v s="$seed" \
	'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.3f\n", rand() * 0.8 }')
t=0
for delay in $delays; do
	t=$((t + 1))
	db=$tmp/k$t.db
	"$CONTEND" run "$tmp/k.ini" --db "$db" --quiet > /dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	[ -e "$db" ] || continue   # killed before the database existed
	# Not -readonly: a runner killed while it created the file leaves a
	# hot journal that only a writable open rolls back (SQLite recovery).
	ic=$(sqlite3 "$db" "PRAGMA integrity_check" 2>&1)
	[ "$ic" = ok ] || { fail "integrity_check: $ic"; continue; }
	n=$(sqlite3 -readonly "$db" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)
	ne=$(sqlite3 -readonly "$db" "SELECT count(*) FROM experiments" 2>/dev/null || echo 0)
	if [ "$ne" = 0 ]; then
		[ "$n" = 0 ] || fail "$n runs without an experiment"
		continue
	fi
	[ "$n" = 12 ] || { fail "a partial plan: $n runs"; continue; }
	# Exit 1 too when the resume ran [b]'s runs only: all of them fail.
	"$CONTEND" run --resume 1 --db "$db" --quiet > /dev/null 2> "$tmp/err"
	rc=$?
	[ $rc = 0 ] || { [ $rc = 1 ] && grep -q '\[b\] .*failed (first: ' "$tmp/err"; } ||
		{ fail "resume failed: exit $rc: $(cat "$tmp/err")"; continue; }
	got=$(sqlite3 -readonly "$db" "SELECT count(*), count(DISTINCT seq),
		sum(status IN ('ok', 'failed')), sum(status = 'failed')
		FROM runs" | tr '|' ' ')
	[ "$got" = "12 12 12 4" ] || fail "after resume: runs, seqs, done, failed = $got"
	st=$(sqlite3 -readonly "$db" "SELECT status FROM experiments")
	[ "$st" = complete ] || fail "status $st after resume"
	rm -f "$db" "$db-wal" "$db-shm"
done
echo "kill_random: $trials trials, $fails failures"
[ "$fails" -eq 0 ]
