#!/bin/sh
# bisectvariants.sh - issue 37 items 9 and 10, in variants.  Zero spread:
# a baseline of two boots of a constant against a candidate constant,
# higher-is-better and lower-is-better (direction.throughput), a loss, a
# gain and an equal constant; each decided at the first look (looks = 1
# stored), exit 1 for a loss, 0 otherwise, the change printed whole with
# "(exact)" (no cut of the line at 64 bytes).  Interrupts: SIGINT,
# SIGTERM and SIGHUP sent to a bisect step while its benchmark runs: exit
# 130, exactly one instruction ("run the same command again"), no runner
# left, and that command run again decides the step (exit 0).
NAME=bisectvariants
. tests/faults/lib.sh

# a section name of 40 bytes, the most the line shows: the line is
# longer than 64 bytes and must end with "(exact)".
SEC=bench_of_a_section_name_forty_bytes_long
echo 0 > "$tmp/sleep"
# ini FILE DIRECTION: a command printing the constant in $tmp/level,
# after a sleep of $tmp/sleep seconds, with throughput's direction.
ini() {
	cat > "$1" <<INI
[experiment]
name        = $NAME
repetitions = 5
warmup      = 0

[workload $SEC]
type   = command
shell  = yes
argv   = read l < $tmp/level; read s < $tmp/sleep; touch $tmp/started; sleep \$s; echo ops \$l
metric = ^ops ([0-9]+)\$
direction.throughput = $2
INI
}
ini "$tmp/hi.ini" higher
ini "$tmp/lo.ini" lower
echo 500 > "$tmp/level"
for d in hi lo; do
	for boot in 1 2; do
		"$C" run "$tmp/$d.ini" --db "$tmp/$d.db" --label base --quiet \
			> /dev/null 2> "$tmp/err" ||
			die "baseline $d boot $boot: $(cat "$tmp/err")"
	done
done

step() {
	"$C" bisect "$tmp/$1.ini" --db "$tmp/$1.db" --baseline base \
		--regression 5 --quiet > /dev/null 2> "$tmp/err"
}

# DIRECTION LEVEL STATUS CHANGE: against 500.  A loss is bad (1); a gain
# or no change good (0).  The change is the loss, 1 - cand/base when
# higher is better, 1 - base/cand when lower is (250 against 500: 50%;
# 1000: 1 - 1000/500 = -100%; lower-is-better 1000: 1 - 500/1000 = 50%).
while read -r d l want change; do
	echo "$l" > "$tmp/level"
	step "$d"
	rc=$?
	[ "$rc" = "$want" ] || fail "$d $l: exit $rc, want $want: $(cat "$tmp/err")"
	line=$(grep "regression" "$tmp/err" | head -1)
	case $line in
	*": regression $change (exact)") ;;
	*) fail "$d $l: want '$change (exact)' whole: '$line'" ;;
	esac
	id=$(exp_id "$tmp/$d.db")
	looks=$(sql "$tmp/$d.db" "SELECT value FROM experiment_meta
		WHERE experiment_id = $id AND key = 'bisect.$SEC.looks'")
	[ "$looks" = 1 ] || fail "$d $l: decided after $looks looks, not 1"
	# decided at once: one look of 5 runs, no more
	runs=$(sql "$tmp/$d.db" "SELECT count(*) FROM runs
		WHERE experiment_id = $id AND status = 'ok'")
	[ "$runs" = 5 ] || fail "$d $l: $runs runs, want 5"
done <<TABLE
hi 250 1 +50.0%
hi 1000 0 -100.0%
hi 500 0 0.0%
lo 1000 1 +50.0%
lo 250 0 -100.0%
lo 500 0 0.0%
TABLE
note "zero spread: loss, gain, equal, both directions, decided at once"

# Interrupts: the same step stopped by each signal while it runs.
echo 500 > "$tmp/level"
for sig in INT TERM HUP; do
	echo 30 > "$tmp/sleep"
	rm -f "$tmp/started"
	"$C" bisect "$tmp/hi.ini" --db "$tmp/hi.db" --baseline base \
		--regression 5 --quiet > /dev/null 2> "$tmp/err" &
	pid=$!
	bg=$pid
	wait_for test -e "$tmp/started" || die "SIG$sig: the step never ran"
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	bg=""
	[ "$rc" = 130 ] || fail "SIG$sig: exit $rc, want 130: $(cat "$tmp/err")"
	no_procs
	integrity "$tmp/hi.db"
	n=$(grep -c "again" "$tmp/err")
	[ "$n" = 1 ] || fail "SIG$sig: $n instructions: $(cat "$tmp/err")"
	grep -q "run the same command again" "$tmp/err" ||
		fail "SIG$sig: no instruction: $(cat "$tmp/err")"
	grep -q -- "--resume" "$tmp/err" &&
		fail "SIG$sig: points at run --resume: $(cat "$tmp/err")"
	echo 0 > "$tmp/sleep"
	step hi
	rc=$?
	[ "$rc" = 0 ] || fail "SIG$sig: the same command again: exit $rc: $(cat "$tmp/err")"
done
note "SIGINT, SIGTERM, SIGHUP: 130, one instruction, which decides"
finish
