#!/bin/sh
# sigstop.sh - the runner stopped, hung up on, or left a zombie:
#  - SIGSTOP (as Ctrl-Z does: the run is in a process group of its own
#    and carries on) for longer than the run's timeout, then SIGCONT, 2
#    times: every run that finished in time is stored ok, none `timeout`
#    (the exit is looked at before the timers);
#  - SIGHUP (a closed terminal) at random moments, 5 trials: the
#    experiment is `interrupted` (exit 130), never left `running`, and
#    --resume completes it;
#  - a runner SIGKILLed whose parent never reaps it (a zombie), 2 trials:
#    --resume takes the experiment over at once (a zombie runs nothing).
NAME=sigstop
. tests/faults/lib.sh

# has_child PID: PID has a run in flight now: a `contend exec` child (not
# the guard).
has_child() {
	for c in $(cat "/proc/$1/task/$1/children" 2>/dev/null); do
		tr '\0' ' ' < "/proc/$c/cmdline" 2>/dev/null |
			grep -q '^[^ ]* exec ' && return 0
	done
	return 1
}

cat > "$tmp/stop.ini" <<'INI'
[experiment]
name        = sigstop
repetitions = 3
warmup      = 0
runtime     = 300ms
timeout     = 1s

[workload w]
type = noop
INI

# ---- SIGSTOP past the timeout ----
k=0
while [ $k -lt 2 ]; do
	k=$((k + 1))
	db=$tmp/stop$k.db
	"$C" run "$tmp/stop.ini" --db "$db" --quiet > /dev/null 2> "$tmp/stderr" &
	pid=$!
	bg=$pid
	wait_for has_child "$pid" || die "no run started"
	kill -STOP "$pid"
	sleep 1.5
	kill -CONT "$pid"
	wait "$pid"
	rc=$?
	bg=""
	[ $rc = 0 ] || fail "stop $k: exit $rc: $(cat "$tmp/stderr")"
	integrity "$db"
	got=$(sql "$db" "SELECT group_concat(status || ':' || count, ' ') FROM
		(SELECT status, count(*) AS count FROM runs GROUP BY status)")
	[ "$got" = "ok:3" ] || fail "stop $k: runs $got, want ok:3"
	no_procs
done
note "stopped 2 times past the timeout: every run stored ok"

# ---- SIGHUP ----
trials_init "${SIGHUP_TRIALS:-5}" "${SIGHUP_SEED:-1717}"
while [ $trial -lt $TRIALS ]; do
	trial=$((trial + 1))
	trial_run HUP
	[ -n "$exp" ] || continue
	trial_judge HUP
	trial_resume
	[ "$failed" -eq 0 ] || break
done
note "$trial SIGHUP trials: interrupted $interrupted, each resumed"

# ---- a zombie runner ----
cat > "$tmp/z.ini" <<'INI'
[experiment]
name        = zombie
repetitions = 6
warmup      = 0
runtime     = 200ms

[workload w]
type = noop
INI
k=0
while [ $k -lt 2 ]; do
	k=$((k + 1))
	db=$tmp/z$k.db
	# The runner's parent execs sleep: nobody waits for the runner.
	sh -c '"$0" run "$1" --db "$2" --quiet > /dev/null 2>&1 & echo $! > "$3"
		exec sleep 60' "$C" "$tmp/z.ini" "$db" "$tmp/zpid" &
	holder=$!
	bg=$holder
	wait_for test -s "$tmp/zpid" || die "no runner"
	rpid=$(cat "$tmp/zpid")
	rm -f "$tmp/zpid"
	wait_for has_child "$rpid" || die "the runner started no run"
	kill -9 "$rpid"
	zombie() { grep -q '^[0-9]* (.*) Z' "/proc/$rpid/stat"; }
	wait_for zombie || die "the runner did not become a zombie"
	"$C" run --resume 1 --db "$db" --quiet > /dev/null 2> "$tmp/stderr" ||
		fail "zombie $k: resume refused: $(cat "$tmp/stderr")"
	integrity "$db"
	exactly_once "$db" 1 6
	kill -9 "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	bg=""
	no_procs
done
note "a zombie runner 2 times: resumed at once"
finish
