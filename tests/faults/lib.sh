# lib.sh - shared by the fault tests (sourced): a private temp dir, the
# sqlite3 shell, checks of a database after a fault, and a seeded random
# delay.  Each test sets NAME before sourcing; CONTEND is the binary.
#
# Synchronisation is by observed state (a file exists, a process is gone),
# polled under a deadline; a sleep only ever injects a fault at a random
# moment, which is what these tests are about.
set -u
: "${CONTEND:=./contend}"
case $CONTEND in /*) ;; *) CONTEND=$(pwd)/$CONTEND ;; esac
tmp=$(mktemp -d /tmp/contend-fault-XXXXXX)
bg=""
trap 'for p in $bg; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
failed=0

fail() { echo "$NAME: FAIL: $*" >&2; failed=1; }
die() { echo "$NAME: FAIL: $*" >&2; exit 1; }
note() { echo "$NAME: $*"; }

command -v sqlite3 >/dev/null 2>&1 ||
	die "the sqlite3 shell is missing (sh scripts/lint-deps.sh installs it)"

# sql DB QUERY: one query, read-only, with a busy timeout.
sql() { sqlite3 -readonly -cmd '.timeout 10000' "$1" "$2"; }

# integrity DB: PRAGMA integrity_check says ok (a missing file is fine:
# nothing was written).  Read-write: a writer killed while it created the
# file leaves a hot journal that only a writable open rolls back (SQLite's
# recovery, which any later open would do); -readonly would fail on it.
integrity() {
	[ -f "$1" ] || return 0
	r=$(sqlite3 -cmd '.timeout 10000' "$1" 'PRAGMA integrity_check' 2>&1)
	[ "$r" = ok ] || fail "integrity_check of $1: $r"
}

# exactly_once DB EXP PLANNED: the experiment holds PLANNED runs, each seq
# 0..PLANNED-1 once, none left planned or interrupted, each
# (configuration, warm-up, repetition) once, and is complete.
exactly_once() {
	db=$1 exp=$2 want=$3
	got=$(sql "$db" "SELECT count(*), count(DISTINCT seq), min(seq), max(seq),
		sum(status IN ('planned', 'interrupted')),
		count(DISTINCT config_id || '/' || warmup || '/' || repetition)
		FROM runs WHERE experiment_id = $exp")
	[ "$got" = "$want|$want|0|$((want - 1))|0|$want" ] ||
		fail "experiment $exp: runs count|seqs|min|max|pending|distinct = $got, want $want each, 0 pending"
	st=$(sql "$db" "SELECT status FROM experiments WHERE id = $exp")
	[ "$st" = complete ] || fail "experiment $exp is '$st', not complete"
}

# The tests run a private copy of the binary, so that every process of
# theirs - runner, `contend exec` children, anything those fork - is found
# by its executable, and no other contend on the machine ever counts.
cp "$CONTEND" "$tmp/contend" || die "cannot copy $CONTEND"
C=$tmp/contend

# procs: pids of processes running the private copy.
procs() {
	find /proc -mindepth 2 -maxdepth 2 -name exe -lname "$C" 2>/dev/null |
		sed 's|/proc/\([0-9]*\)/exe|\1|'
}

# no_procs: none is left.  Waits up to 5 s for death signals to land
# (polling the observed state), then names and kills what is left.
no_procs() {
	i=0
	while [ -n "$(procs)" ]; do
		i=$((i + 1))
		if [ $i -gt 100 ]; then
			fail "processes left behind: $(for p in $(procs); do
				tr '\0' ' ' < /proc/$p/cmdline; echo; done | head -5)"
			for p in $(procs); do kill -9 "$p" 2>/dev/null; done
			return
		fi
		sleep 0.05
	done
}

# wait_for CMD...: polls until CMD succeeds, 20 s at most.
wait_for() {
	i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -gt 400 ] && return 1
		sleep 0.05
	done
}

# rand_init SEED; rand_ms MAX sets $delay to a time in seconds ("0.123")
# drawn uniformly from 0..MAX ms by a seeded LCG, reproducible on any
# machine.  (A variable, not output: $(...) would run it in a subshell and
# the generator would never advance.)
rand_state=1
delay=0
rand_init() { rand_state=$1; }
rand_ms() {
	rand_state=$(( (rand_state * 1103515245 + 12345) % 2147483648 ))
	ms=$(( (rand_state / 65536) % ($1 + 1) ))
	delay=$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))
}

# exp_id DB: the newest experiment's id, empty when there is none.
exp_id() {
	[ -f "$1" ] || return 0
	sql "$1" 'SELECT max(id) FROM experiments' 2>/dev/null
}

# small_ini FILE: the small experiment kill9 and sigint interrupt, named
# $NAME: 2 configurations x (1 warm-up + 3) + 10 configurations x 1 =
# $PLANNED runs.
PLANNED=18
small_ini() {
	cat > "$1" <<INI
[experiment]
name        = $NAME
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
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# time_span INI: sets $fastest to how long the experiment INI takes on this
# machine, now - the fastest of three uninterrupted runs, in ms (a shared
# machine has bursts of load) - and $span to a fifth more, the range the
# random faults are drawn from (before the plan, during it, the runs and
# commits, after the end).
time_span() {
	fastest=
	for i in 1 2 3; do
		t0=$(now_ms)
		"$C" run "$1" --db "$tmp/timing.db" --quiet > /dev/null 2>&1 ||
			die "an uninterrupted run failed"
		t=$(( $(now_ms) - t0 ))
		[ -z "$fastest" ] || [ "$t" -lt "$fastest" ] && fastest=$t
	done
	span=$((fastest * 6 / 5))
}

# trials_init TRIALS SEED: the set-up of a test of TRIALS faults at random
# moments: the generator seeded, the small experiment in $tmp/k.ini, its
# $span timed, $trial at 0.
trials_init() {
	TRIALS=$1
	rand_init "$2"
	small_ini "$tmp/k.ini"
	time_span "$tmp/k.ini"
	trial=0
}

# trial_run SIG: trial $trial - the small experiment run into a fresh
# database $db, sent SIG at a random moment of 0..$span ms.  Checks
# integrity_check and that no process is left; sets $rc and $exp (the
# experiment's id, empty when the plan was never committed).
trial_run() {
	db=$tmp/t$trial.db
	rand_ms "$span"
	signal_at "$1" "$delay" "$C" run "$tmp/k.ini" --db "$db" --quiet --seed "$trial"
	integrity "$db"
	no_procs
	exp=$(exp_id "$db")
}

# trial_resume: resumes experiment $exp of trial $trial's $db to its end;
# it must succeed and leave the database consistent, holding every planned
# run exactly once.
trial_resume() {
	"$C" run --resume "$exp" --db "$db" --quiet > /dev/null 2> "$tmp/stderr" ||
		fail "trial $trial: resume of experiment $exp failed: $(cat "$tmp/stderr")"
	integrity "$db"
	exactly_once "$db" "$exp" "$PLANNED"
}

# trial_judge SIG: after trial $trial's run into $db was sent SIG
# ($rc, $exp set): exit 130 and experiment $exp interrupted, or 0 and
# complete when it had finished first; counts $interrupted.
interrupted=0
trial_judge() {
	st=$(sql "$db" "SELECT status FROM experiments WHERE id = $exp")
	case "$rc/$st" in
	130/interrupted) interrupted=$((interrupted + 1)) ;;
	0/complete) ;;
	*) fail "trial $trial (SIG$1 after ${delay}s): exit $rc, experiment '$st': $(cat "$tmp/stderr" 2>/dev/null)" ;;
	esac
}

# signal_at SIG DELAY CMD...: starts CMD (stdout discarded, stderr in
# $tmp/stderr), sends SIG after DELAY seconds unless it has finished by
# then, waits for it; sets $rc to its exit status.
signal_at() {
	sig=$1 d=$2
	shift 2
	"$@" > /dev/null 2> "$tmp/stderr" &
	pid=$!
	bg=$pid
	sleep "$d"
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rc=$?
	bg=""
}

# signal_in_plan SIG MAX DB CMD...: starts CMD, which creates DB and writes
# a plan into it; once DB exists (the plan transaction is under way) sends
# SIG after a random delay of 0..MAX ms, waits; sets $rc.  Leaves DB
# checked: integrity_check ok, no process left.
signal_in_plan() {
	sig=$1 max=$2 db=$3
	shift 3
	"$@" > /dev/null 2> "$tmp/stderr" &
	pid=$!
	bg=$pid
	wait_for test -f "$db" || die "the runner never created $db"
	rand_ms "$max"
	sleep "$delay"
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rc=$?
	bg=""
	integrity "$db"
	no_procs
}

finish() {
	if [ "$failed" -eq 0 ]; then note "ok"; else note "FAILED"; fi
	exit "$failed"
}
