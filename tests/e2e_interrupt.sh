#!/bin/sh
# e2e_interrupt.sh - SIGINT while an 80000-run plan is being written: the
# database holds the whole plan or none of it, the experiment is marked
# interrupted, the exit status is 130, and the plan can be resumed.  Then
# SIGTERM behaves as SIGINT.
#
# The signal is sent once the database file exists (store_open has run and
# the plan transaction is under way), an observed state, not a guess.
NAME=e2e_interrupt
. "$(dirname "$0")/lib.sh"

# 2 x 10000 configurations x 4 repetitions: writing the plan takes a while.
cat > "$tmp/big.ini" <<'EOF'
[experiment]
name        = e2e-big
repetitions = 4
warmup      = 0
runtime     = 1ms
seed        = 3

[workload a]
type = noop
spin = 1..10000

[workload b]
type = noop
spin = 1..10000
EOF

# start_and_signal SIG: runs the plan, signals it once the db exists.
start_and_signal() {
	"$CONTEND" run "$tmp/big.ini" --db "$db" --quiet > /dev/null 2> "$tmp/err" &
	runner=$!
	i=0
	while [ ! -e "$db" ] && [ $i -lt 3000 ]; do
		i=$((i + 1))
		sleep 0.01
	done
	kill -"$1" "$runner"
	wait "$runner"
	status=$?
	runner=
}

db=$tmp/int.db
start_and_signal INT
expect "exit status" 130 "$status"
expect "integrity" ok "$(q "PRAGMA integrity_check")"
n=$(q "SELECT count(*) FROM runs")
case $n in
0)	expect "no plan, no experiment" 0 "$(q "SELECT count(*) FROM experiments")" ;;
80000)	expect "experiment status" interrupted "$(q "SELECT status FROM experiments")"
	expect "nothing ran but perhaps the first run" 0 \
		"$(q "SELECT count(*) FROM runs WHERE seq > 0 AND status <> 'planned'")"
	grep -q "contend run --resume 1 --db $db" "$tmp/err" ||
		fail "no resume hint: $(cat "$tmp/err")"
	# Resumable: resume it and stop it again at once with SIGTERM.
	"$CONTEND" run --resume 1 --db "$db" --quiet > /dev/null 2> "$tmp/err" &
	runner=$!
	i=0
	while [ "$(q "SELECT count(*) FROM runs WHERE status = 'ok'")" -lt 3 ] &&
	      [ $i -lt 3000 ]; do
		i=$((i + 1))
		sleep 0.01
	done
	kill -TERM "$runner"
	wait "$runner"
	expect "SIGTERM exit status" 130 $?
	runner=
	expect "status after SIGTERM" interrupted "$(q "SELECT status FROM experiments")"
	expect "plan intact after resume" 80000 "$(q "SELECT count(*) FROM runs")"
	grep -q "SIGTERM: experiment 1 interrupted" "$tmp/err" ||
		fail "no SIGTERM message: $(cat "$tmp/err")"
	;;
*)	fail "a partial plan of $n runs was stored" ;;
esac

[ "$fails" -eq 0 ]
