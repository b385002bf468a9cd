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

TRIALS=${KILL9_TRIALS:-50}
rand_init "${KILL9_SEED:-20261130}"

# 2 configurations x (1 warm-up + 3) + 10 configurations x 1 = 18 runs.
cat > "$tmp/k.ini" <<'INI'
[experiment]
name        = kill9
repetitions = 3
warmup      = 1
runtime     = 5ms
timeout     = 20s

[workload w]
type    = noop
threads = 1, 2

[workload s]
type        = noop
spin        = 1..10
repetitions = 1
warmup      = 0
INI
PLANNED=18

# run_and_kill DELAY CMD...: starts CMD, SIGKILLs it after DELAY unless it
# has finished by then; waits for it.
run_and_kill() {
	d=$1
	shift
	"$@" > /dev/null 2>> "$tmp/stderr" &
	pid=$!
	bg=$pid
	sleep "$d"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	bg=""
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# How long the whole experiment takes on this machine, now: the fastest
# of three uninterrupted runs (a shared machine has bursts of load).
span=
for i in 1 2 3; do
	t0=$(now_ms)
	"$C" run "$tmp/k.ini" --db "$tmp/timing.db" --quiet > /dev/null 2>&1 ||
		die "an uninterrupted run failed"
	t=$(( $(now_ms) - t0 ))
	[ -z "$span" ] || [ "$t" -lt "$span" ] && span=$t
done
note "an uninterrupted run takes $span ms; kills land in 0..$((span * 6 / 5)) ms"
span=$((span * 6 / 5))

before=0 during=0 after=0 trial=0
while [ $trial -lt $TRIALS ]; do
	trial=$((trial + 1))
	db=$tmp/k$trial.db
	rand_ms $span
	run_and_kill "$delay" "$C" run "$tmp/k.ini" --db "$db" --quiet --seed $trial
	integrity "$db"
	no_procs
	exp=$(exp_id "$db")
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
		run_and_kill "$delay" "$C" run --resume "$exp" --db "$db" --quiet
		integrity "$db"
		no_procs
	fi
	"$C" run --resume "$exp" --db "$db" --quiet > /dev/null 2>> "$tmp/stderr" ||
		fail "trial $trial: resume of experiment $exp failed: $(tail -n 3 "$tmp/stderr")"
	integrity "$db"
	exactly_once "$db" "$exp" $PLANNED
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
	"$C" run "$tmp/big.ini" --db "$db" --quiet > /dev/null 2>&1 &
	pid=$!
	bg=$pid
	# Once the database exists the plan transaction is under way.
	wait_for test -f "$db" || die "the runner never created $db"
	rand_ms $((write * 3 / 2))
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	bg=""
	integrity "$db"
	no_procs
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
