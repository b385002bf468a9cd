#!/bin/sh
# sigint.sh - SIGINT (and SIGTERM) at random moments: 30 trials from a
# seeded generator over the time an uninterrupted experiment takes (before
# and during the plan write, during runs, between a run's end and its
# commit), and 6 during a large plan's write.  Each must leave a
# consistent database (integrity_check ok), no process of the run, exit
# status 130 (or 0 when the experiment had finished), the experiment
# marked interrupted (or complete), and a --resume that completes with
# every planned run exactly once.
NAME=sigint
. tests/faults/lib.sh

trials_init "${SIGINT_TRIALS:-30}" "${SIGINT_SEED:-4242}"

interrupted=0 finished=0 noplan=0
while [ $trial -lt $TRIALS ]; do
	trial=$((trial + 1))
	sig=INT
	[ $((trial % 3)) -eq 0 ] && sig=TERM
	trial_run $sig
	st=""
	[ -n "$exp" ] && st=$(sql "$db" "SELECT status FROM experiments WHERE id = $exp")
	case "$rc/$st" in
	130/interrupted) interrupted=$((interrupted + 1)) ;;
	0/complete) finished=$((finished + 1)) ;;
	130/) noplan=$((noplan + 1)) ;;   # stopped before the plan was written
	*) fail "trial $trial (SIG$sig after ${delay}s): exit $rc, experiment '$st': $(cat "$tmp/stderr")" ;;
	esac
	if [ "$rc" = 130 ] && [ -n "$exp" ]; then
		grep -q "continue with: \`contend run --resume $exp " "$tmp/stderr" ||
			fail "trial $trial: no resume hint: $(cat "$tmp/stderr")"
		# An interrupted run keeps no samples: it is not data.
		s=$(sql "$db" "SELECT count(*) FROM samples JOIN runs ON runs.id = run_id
			WHERE runs.status IN ('interrupted', 'planned')")
		[ "$s" = 0 ] || fail "trial $trial: $s samples of unfinished runs"
	fi
	[ -z "$exp" ] || trial_resume
	[ "$failed" -eq 0 ] || break
done
note "$trial trials: interrupted $interrupted (before the plan $noplan), finished first $finished"
[ "$interrupted" -gt 0 ] || fail "no signal landed during the runs"

# ---- during a large plan's write: all or nothing, then resumable ----
cat > "$tmp/big.ini" <<'INI'
[experiment]
name        = sigint-plan
repetitions = 2
warmup      = 0
runtime     = 5ms

[workload a]
type = noop
spin = 1..4000
INI
n=0
while [ $n -lt 6 ]; do
	n=$((n + 1))
	db=$tmp/plan$n.db
	signal_in_plan INT 300 "$db" "$C" run "$tmp/big.ini" --db "$db" --quiet
	got=$(sql "$db" "SELECT count(*) || '/' || sum(status = 'interrupted')
		FROM experiments")
	runs=$(sql "$db" "SELECT count(*) FROM runs")
	case "$rc/$got/$runs" in
	130/0//0|130/1/1/8000) ;;
	*) fail "plan SIGINT $n: exit $rc, experiments/interrupted $got, runs $runs: want 130 and 0//0 or 1/1/8000: $(cat "$tmp/stderr")" ;;
	esac
done
note "large plan interrupted 6 times: whole plan or nothing each time"
finish
