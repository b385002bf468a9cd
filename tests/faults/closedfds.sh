#!/bin/sh
# closedfds.sh - contend started with its standard descriptors closed, as
# cron and some CI runners start programs (`>&- 2>&-`, `<&-`): every run
# is stored ok, the experiment complete, exit 0; then 6 trials of SIGINT
# at random moments with stdout and stderr closed, each resumed (also
# with them closed) to every planned run exactly once.  Before the fix,
# the signal self-pipe took descriptors 1 and 2 and contend's own
# messages read as stop requests: every run stored `interrupted`, the
# experiment `complete`, and nothing left for --resume.
NAME=closedfds
. tests/faults/lib.sh

small_ini "$tmp/k.ini"
for how in out-err all; do
	db=$tmp/$how.db
	case $how in
	out-err) "$C" run "$tmp/k.ini" --db "$db" >&- 2>&- ;;
	all) "$C" run "$tmp/k.ini" --db "$db" <&- >&- 2>&- ;;
	esac
	rc=$?
	[ $rc = 0 ] || fail "$how closed: exit $rc"
	integrity "$db"
	exactly_once "$db" 1 "$PLANNED"
	n=$(sql "$db" "SELECT count(*) FROM runs WHERE status = 'ok'")
	[ "$n" = "$PLANNED" ] || fail "$how closed: $n of $PLANNED runs ok"
done
no_procs
note "descriptors closed: the runs stored"

trials_init "${CLOSEDFDS_TRIALS:-6}" "${CLOSEDFDS_SEED:-2020}"
while [ $trial -lt $TRIALS ]; do
	trial=$((trial + 1))
	db=$tmp/t$trial.db
	rand_ms "$span"
	"$C" run "$tmp/k.ini" --db "$db" --seed "$trial" >&- 2>&- &
	pid=$!
	bg=$pid
	sleep "$delay"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	bg=""
	: > "$tmp/stderr" # closed: nothing to show
	integrity "$db"
	no_procs
	exp=$(exp_id "$db")
	[ -n "$exp" ] || continue
	trial_judge INT
	"$C" run --resume "$exp" --db "$db" >&- 2>&- ||
		fail "trial $trial: resume with descriptors closed failed"
	integrity "$db"
	exactly_once "$db" "$exp" "$PLANNED"
	[ "$failed" -eq 0 ] || break
done
note "$trial trials with descriptors closed: interrupted $interrupted, each resumed"
finish
