#!/bin/sh
# e2e_locks.sh - the lock workloads through the binary: `contend list`
# documents the four with their parameters; `contend exec` runs each and
# prints the protocol with the lock metrics; one thread never contends;
# the threads x locks limit and bad values exit 2 with the key named.
# Counts and presence only, never a speed.
NAME=e2e_locks
. "$(dirname "$0")/lib.sh"

# value FILE METRIC: the metric's value in an exec output, or empty
value() {
	awk -v m="$2" '$1 == m { print $2 }' "$1"
}

# list: every workload with its own and the common parameters
for spec in "futex-mutex:" "pthread-mutex:contended_delay_ns contended_delay_mode kind" \
	    "spinlock:kind pause" "rwlock:writers shared kind"; do
	wl=${spec%%:*}
	if ! "$CONTEND" list "$wl" > "$tmp/list" 2>&1; then
		fail "list $wl exited $?"
		continue
	fi
	for p in threads locks worklen hold_ns think_ns ${spec#*:}; do
		grep -q "^ *$p=" "$tmp/list" || fail "list $wl lacks $p"
	done
done

# exec: protocol, common metrics, own metrics, per-thread lines; the
# calibration handed to it is the one reported
for spec in "futex-mutex:futex_waits futex_wakes" "pthread-mutex:" \
	    "spinlock:spins" "rwlock:writes"; do
	wl=${spec%%:*}
	if ! "$CONTEND" exec "$wl" threads=2 locks=2 runtime=30ms \
		--calibration 1234.5 > "$tmp/out" 2> "$tmp/err"; then
		fail "exec $wl failed: $(cat "$tmp/err")"
		continue
	fi
	for m in ops elapsed_s throughput contended contention_rate handoffs \
		 handoff_rate loops_per_us ${spec#*:}; do
		[ -n "$(value "$tmp/out" "$m")" ] || fail "exec $wl: no $m"
	done
	expect "exec $wl: loops_per_us" 1234.5 "$(value "$tmp/out" loops_per_us)"
	[ "$(grep -c '^thread ' "$tmp/out")" -eq 4 ] ||
		fail "exec $wl: want 4 thread lines"
	[ "$(tail -n1 "$tmp/out")" = end ] || fail "exec $wl: no end line"
	sum=$(awk '$1 == "thread" { s += $3 } END { print s }' "$tmp/out")
	[ "$sum" = "$(value "$tmp/out" ops)" ] ||
		fail "exec $wl: thread ops add to $sum, ops $(value "$tmp/out" ops)"
done

# one thread per lock, fixed work: exact ops, no contention, no hand-off
for wl in futex-mutex pthread-mutex spinlock rwlock; do
	if ! "$CONTEND" exec "$wl" threads=1 locks=3 jobs=1000 \
		> "$tmp/out" 2> "$tmp/err"; then
		fail "exec $wl threads=1 failed: $(cat "$tmp/err")"
		continue
	fi
	[ "$(value "$tmp/out" ops)" = 3000 ] || fail "$wl: ops != 3000"
	[ "$(value "$tmp/out" contended)" = 0 ] || fail "$wl: contended != 0"
	[ "$(value "$tmp/out" handoffs)" = 0 ] || fail "$wl: handoffs != 0"
done

# usage errors: exit 2, the offending key named
"$CONTEND" exec futex-mutex threads=4096 locks=2 jobs=1 \
	> /dev/null 2> "$tmp/err"
st=$?
[ "$st" -eq 2 ] || fail "threads x locks > 4096: exit $st, want 2"
grep -q 'exceeds 4096' "$tmp/err" || fail "limit message: $(cat "$tmp/err")"
"$CONTEND" exec spinlock kind=mcs jobs=1 > /dev/null 2> "$tmp/err"
st=$?
[ "$st" -eq 2 ] || fail "kind=mcs: exit $st, want 2"
grep -q 'kind' "$tmp/err" || fail "bad kind message: $(cat "$tmp/err")"

[ "$fails" -eq 0 ]
