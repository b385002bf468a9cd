#!/bin/sh
# kill9.sh - the runner killed with SIGKILL at random moments: 50 trials,
# each a fresh database, the runner killed after a delay drawn from a
# seeded generator (uniform over the time an uninterrupted run takes here,
# plus a fifth: before the plan, while it is written, during runs and
# commits, after the end), then half the time its --resume killed too,
# then a final --resume.  After every kill: PRAGMA integrity_check is ok, no
# process of the run survives (PDEATHSIG, process groups), and either no
# experiment exists (killed before the plan committed: the plan is one
# transaction) or, once resumed, it holds every planned run exactly once.
NAME=kill9
. tests/faults/lib.sh

trials_init "${KILL9_TRIALS:-50}" "${KILL9_SEED:-20261130}"
note "an uninterrupted run takes $fastest ms; kills land in 0..$span ms"

before=0 during=0 after=0
while [ $trial -lt $TRIALS ]; do
	trial=$((trial + 1))
	trial_run KILL
	if [ -z "$exp" ]; then
		before=$((before + 1))
		continue
	fi
	done_runs=$(sql "$db" "SELECT count(*) FROM runs WHERE status <> 'planned'")
	[ -z "${KILL9_DEBUG:-}" ] || note "trial $trial: delay $delay, $done_runs runs done"
	if [ "$done_runs" -eq "$PLANNED" ]; then
		after=$((after + 1))
	else
		during=$((during + 1))
	fi
	if [ $((trial % 2)) -eq 0 ]; then
		rand_ms $((span / 2))
		signal_at KILL "$delay" "$C" run --resume "$exp" --db "$db" --quiet
		integrity "$db"
		no_procs
	fi
	trial_resume
	[ "$failed" -eq 0 ] || break
done
note "$trial trials: killed before the plan committed $before, during the runs $during, after the last run $after"
[ "$during" -gt 0 ] || fail "no kill landed during the runs: the delays do not cover the experiment"

# ---- while a large plan is written: all of it or none of it ----
# 2 x 2500 configurations x (1 warm-up + 2): the plan transaction takes a while.
cat > "$tmp/big.ini" <<'INI'
[experiment]
name        = kill9-plan
repetitions = 2
runtime     = 5ms

[workload a]
type = noop
spin = 1..2500

[workload b]
type    = noop
threads = 2
spin    = 1..2500
INI
has_exp() { [ "$(sql "$1" 'SELECT count(*) FROM experiments' 2>/dev/null)" = 1 ]; }
# How long the plan takes to write: from the database's creation to the
# experiment row's appearance (observed, then the runner is killed).
"$C" run "$tmp/big.ini" --db "$tmp/plantime.db" --quiet > /dev/null 2>&1 &
bg=$!
wait_for test -f "$tmp/plantime.db" || die "the runner never created the database"
t0=$(now_ms)
wait_for has_exp "$tmp/plantime.db" || die "the plan was never committed"
write=$(( $(now_ms) - t0 ))
kill -9 $bg
wait $bg 2>/dev/null
bg=""
no_procs
note "the 15000-run plan takes $write ms to write; kills land in 0..$((write * 3 / 2)) ms after the file appears"
n=0 whole=0 none=0
while [ $n -lt 8 ]; do
	n=$((n + 1))
	db=$tmp/plan$n.db
	signal_in_plan KILL $((write * 3 / 2)) "$db" "$C" run "$tmp/big.ini" --db "$db" --quiet
	got=$(sql "$db" 'SELECT (SELECT count(*) FROM experiments) || "/" ||
		(SELECT count(*) FROM runs)' 2>/dev/null)
	case $got in
	""|0/0) none=$((none + 1)) ;;
	1/15000) whole=$((whole + 1)) ;;
	*) fail "plan kill $n: experiments/runs = $got, want 0/0 or 1/15000" ;;
	esac
done
note "large plan killed 8 times: nothing written $none, whole plan $whole"
finish
