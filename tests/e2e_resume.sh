#!/bin/sh
# e2e_resume.sh - interrupt a running experiment while a known run is in
# flight (SIGINT, then SIGKILL of the runner), resume it, and check that the
# finished experiment holds every planned run exactly once, in plan order.
#
# No sleep stands in for synchronisation: the script waits for an observed
# state (the runner's child running the slow configuration), polling it
# under a deadline.
NAME=e2e_resume
. "$(dirname "$0")/lib.sh"

# Sequential order: seq 0-3 fast, 4-5 slow (1 s each), 6-7 fast.
cat > "$tmp/resume.ini" <<'EOF'
[experiment]
name        = e2e-resume
order       = sequential
repetitions = 2
warmup      = 0
runtime     = 20ms
timeout     = 30s
seed        = 5

[workload fast]
type    = noop
threads = 1, 2

[workload slow]
type    = noop
runtime = 1s

[workload tail]
type = noop
EOF

# The pid of the runner's child once it runs the slow configuration.
wait_slow_child() {
	i=0
	while [ $i -lt 1000 ]; do
		for c in $(pgrep -P "$runner" 2>/dev/null); do
			if tr '\0' ' ' 2>/dev/null < "/proc/$c/cmdline" |
			   grep -q 'runtime=1 '; then
				echo "$c"
				return 0
			fi
		done
		i=$((i + 1))
		sleep 0.01
	done
	return 1
}

# check_final: every planned run once, all ok, started in seq order.
check_final() {
	expect "$1: runs" 8 "$(q "SELECT count(*) FROM runs")"
	expect "$1: distinct seqs" 8 "$(q "SELECT count(DISTINCT seq) FROM runs")"
	expect "$1: ok runs" 8 "$(q "SELECT count(*) FROM runs WHERE status = 'ok'")"
	expect "$1: experiment status" complete "$(q "SELECT status FROM experiments")"
	expect "$1: start order is plan order" \
		"$(q "SELECT seq FROM runs ORDER BY seq" | tr '\n' ' ')" \
		"$(q "SELECT seq FROM runs ORDER BY started_at" | tr '\n' ' ')"
	expect "$1: samples only from the final runs" 8 \
		"$(q "SELECT count(*) FROM samples WHERE metric = 'elapsed_s'")"
}

# ---- SIGINT while the first slow run (seq 4) is in flight ----
db=$tmp/int.db
"$CONTEND" run "$tmp/resume.ini" --db "$db" > "$tmp/out" 2> "$tmp/err" &
runner=$!
child=$(wait_slow_child) || fail "SIGINT: the slow run never started"
kill -INT "$runner"
wait "$runner"
expect "SIGINT: exit status" 130 $?
runner=
[ -n "$child" ] && kill -0 "$child" 2>/dev/null && fail "SIGINT: run $child survived"
expect "SIGINT: experiment status" interrupted "$(q "SELECT status FROM experiments")"
expect "SIGINT: statuses by seq" \
	"0:ok 1:ok 2:ok 3:ok 4:interrupted 5:planned 6:planned 7:planned" \
	"$(q "SELECT seq || ':' || status FROM runs ORDER BY seq" | tr '\n' ' ' | sed 's/ $//')"
expect "SIGINT: interrupted run is not data" 0 \
	"$(q "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.seq = 4")"
grep -q "contend run --resume 1 --db $db" "$tmp/err" || fail "SIGINT: no resume hint: $(cat "$tmp/err")"
"$CONTEND" run --resume 1 --db "$db" --quiet > /dev/null 2> "$tmp/err"
expect "SIGINT: resume exit status" 0 $?
check_final SIGINT
"$CONTEND" run --resume 1 --db "$db" > /dev/null 2> "$tmp/err"
expect "resume of a complete experiment" 0 $?
grep -q "complete" "$tmp/err" || fail "resume of a complete experiment said: $(cat "$tmp/err")"

# ---- SIGKILL of the runner while seq 4 is in flight ----
db=$tmp/kill.db
"$CONTEND" run "$tmp/resume.ini" --db "$db" --quiet > /dev/null 2>&1 &
runner=$!
child=$(wait_slow_child) || fail "SIGKILL: the slow run never started"
kill -KILL "$runner"
wait "$runner" 2>/dev/null
runner=
# The run dies with its runner (PDEATHSIG); wait for it to be gone.
i=0
while [ -n "$child" ] && [ -d "/proc/$child" ] &&
      ! grep -q '^State:.*Z' "/proc/$child/status" 2>/dev/null && [ $i -lt 500 ]; do
	i=$((i + 1))
	sleep 0.01
done
[ $i -lt 500 ] || fail "SIGKILL: run $child outlived its runner"
expect "SIGKILL: experiment status" running "$(q "SELECT status FROM experiments")"
expect "SIGKILL: in-flight run still planned" planned "$(q "SELECT status FROM runs WHERE seq = 4")"
expect "SIGKILL: integrity" ok "$(q "PRAGMA integrity_check")"
"$CONTEND" run --resume e2e-resume --db "$db" --quiet > /dev/null 2> "$tmp/err"
expect "SIGKILL: resume exit status" 0 $?
check_final SIGKILL

[ "$fails" -eq 0 ]
